package vv

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

// ID is the system's id, as given to fray play --rules.
const ID = "vv"

// Event types of the V&V order of play. They are wire strings: never rename
// one.
const (
	EventTurn        = "vv.turn"        // a turn begins with everyone's initiative; data: TurnData
	EventTurnEnded   = "vv.turn_ended"  // a turn ends and between-turn upkeep is paid; data: TurnEndData
	EventActed       = "vv.acted"       // the current character takes their action; data: ActData
	EventMoved       = "vv.moved"       // the current character moves; data: MoveData
	EventHeld        = "vv.held"        // the current character saves their action; data: HeldData
	EventDone        = "vv.done"        // the current character is done for this phase; data: fray.NameData
	EventInterrupted = "vv.interrupted" // characters with held actions interrupt; data: InterruptData
	EventFacing      = "vv.facing"      // a facing change; data: FacingData
	EventProne       = "vv.prone"       // a character drops prone; data: FacingData
	EventStood       = "vv.stood"       // a prone character gets up; data: fray.NameData
	EventSurprise    = "vv.surprise"    // the ambush victims who failed to notice; data: NamesData
	EventInitiative  = "vv.initiative"  // a physical initiative die is entered; data: DieData
	EventUpkeep      = "vv.upkeep"      // a character's between-turn Power upkeep is set; data: UpkeepData
	EventTiebreak    = "vv.tiebreak"    // the GM's order for full ties; data: NamesData
	EventHoldLapsed  = "vv.hold_lapsed" // a held action lapsed unused, ending its holder's turn for conditions; data: fray.NameData
)

// TurnData is the payload of EventTurn.
type TurnData struct {
	Turn  int        `json:"turn"`  // the turn beginning, from 1
	Chars []TurnChar `json:"chars"` // everyone's initiative, in the order added
}

// TurnChar is one character's initiative for a turn.
type TurnChar struct {
	// Who is the character.
	Who fray.CombatantID `json:"name"`
	// Init is the initiative total, after halving; Rolled is false for a
	// victim of a surprise under the rules as written, who gets no phases.
	Init   int  `json:"init"`
	Rolled bool `json:"rolled"`
	Halved bool `json:"halved,omitempty"`
	// Entered reports that a physical die entered with initiative was used.
	Entered bool `json:"entered,omitempty"`
	// Lost lists the phases lost to surprise.
	Lost []int `json:"lost,omitempty"`
	// Tie is the character's place in the toss that settles a full tie
	// (phase, Agility and Move Rate; see State.toss), higher first. (Logs
	// written before the toss hold a 1d100 each, equal ones in the order
	// added: they replay as they were.)
	Tie int `json:"tie,omitempty"`
}

// TurnEndData is the payload of EventTurnEnded.
type TurnEndData struct {
	Turn   int          `json:"turn"`             // the turn ending
	Upkeep []UpkeepData `json:"upkeep,omitempty"` // the Power spent between turns (V-5)
	// Unpaid lists the upkeeps more than the Power left: not paid, they
	// end (Power never goes below zero, as with spend).
	Unpaid []UpkeepData `json:"unpaid,omitempty"`
}

// HeldData is the payload of EventHeld.
type HeldData struct {
	Who fray.CombatantID `json:"name"` // who saves their action
	// Open reports that the holder's turn stays open for conditions
	// (E-4): it ends when the held action is used or lapses, not now
	// (V-3). hold sets it when a condition is anchored to the end of the
	// holder's turn, the only case where it changes anything. A hold
	// without it ends the turn at once, as every hold of a log written
	// before held actions kept turns open did: such logs replay as they
	// were, and a hold made now without it has nothing for that end to end.
	Open bool `json:"open,omitempty"`
}

// ActData is the payload of EventActed.
type ActData struct {
	Who   fray.CombatantID `json:"name"`  // who acts
	Phase int              `json:"phase"` // on which phase
	Cost  int              `json:"cost"`  // the Power it costs (V-1)
}

// MoveData is the payload of EventMoved.
type MoveData struct {
	Who    fray.CombatantID `json:"name"`   // who moves
	Inches int              `json:"inches"` // how far
}

// InterruptData is the payload of EventInterrupted: Who in the order they
// act, Before the character interrupted.
type InterruptData struct {
	Who    []fray.CombatantID `json:"names"`  // the interrupters, in the order they act
	Before fray.CombatantID   `json:"before"` // the character interrupted
}

// FacingData is the payload of EventFacing and EventProne.
type FacingData struct {
	Who   fray.CombatantID `json:"name"`          // who turns or drops
	Dir   string           `json:"dir,omitempty"` // the new facing, if named, as typed
	Cost  int              `json:"cost"`          // 2 Power off one's own phase, else 0 (V-7)
	Phase int              `json:"phase"`         // the phase of an off-phase change
	// About is the combatants the direction names ("facing Jack
	// Grue"); Apply does not read it.
	About []fray.CombatantID `json:"about,omitempty"`
}

// NamesData is a payload about several combatants.
type NamesData struct {
	Who []fray.CombatantID `json:"names"` // the combatants, in order
}

// DieData is the payload of EventInitiative.
type DieData struct {
	Who fray.CombatantID `json:"name"` // whose die
	Die int              `json:"die"`  // the face of the d10
}

// UpkeepData is the payload of EventUpkeep, and one character's upkeep in
// TurnEndData.
type UpkeepData struct {
	Who   fray.CombatantID `json:"name"`  // who pays
	Power int              `json:"power"` // the Power spent each time
}

// System is the V&V order of play. The zero value is ready to use.
type System struct{}

// New returns the V&V system.
func New() *System { return &System{} }

var _ engine.Payloads = (*System)(nil)

// Payloads returns the payload type of each event type the system makes
// besides the shared ones (see engine.Payloads). EventStarted carries no
// payload.
func (*System) Payloads() map[string]any {
	return map[string]any{
		EventTurn:        TurnData{},
		EventTurnEnded:   TurnEndData{},
		EventActed:       ActData{},
		EventMoved:       MoveData{},
		EventHeld:        HeldData{},
		EventDone:        fray.NameData{},
		EventInterrupted: InterruptData{},
		EventFacing:      FacingData{},
		EventProne:       FacingData{},
		EventStood:       fray.NameData{},
		EventSurprise:    NamesData{},
		EventInitiative:  DieData{},
		EventUpkeep:      UpkeepData{},
		EventTiebreak:    NamesData{},
		EventHoldLapsed:  fray.NameData{},
		EventAttacked:    AttackData{},
		EventDamaged:     DamageData{},
		EventHealed:      HealData{},
		EventSpent:       SpendData{},
		EventChecked:     CheckData{},
	}
}

var spec = engine.Spec{
	Stats: stats,
	Settings: map[string][]string{
		SetHeld:     {House, RAW},
		SetSurprise: {House, RAW},
		SetMovement: {House, RAW},
		SetMoving:   {House, RAW},
		SetRolling:  {House, RAW},
	},
	AddOpts: []fray.Param{
		{Name: KeyHP, Kind: fray.KindNumber, Min: 1, Max: 10000, Help: "Hit Points"},
		{Name: KeyAttack, Kind: fray.KindText, Hint: "NAME:DICE:TYPE:SCORE[:close|ranged],…", Help: "attack powers: damage dice, damage type and skill score"},
		{Name: KeyProtection, Kind: fray.KindText, Hint: "TYPE:N,…", Help: "protection per damage type"},
	},
}

// ID returns "vv".
func (*System) ID() string { return ID }

// Name returns the system's full name.
func (*System) Name() string { return "Villains & Vigilantes 2e (Rules Upgrade, -B. house rules)" }

// NewState returns an empty encounter.
func (*System) NewState() fray.State { return newState() }

func get(st fray.State) (*State, error) {
	s, ok := st.(*State)
	if !ok || s == nil {
		return nil, fray.Errorf(fray.EINTERNAL, "The state is not a V&V state.")
	}
	return s, nil
}

// decider builds the events of one command on a scratch copy of the state,
// so that later events can see the effect of earlier ones.
type decider struct {
	sys *System
	s   *State
	evs []fray.Event
	// readOnly marks a decider working on the state itself, which emit
	// must not change: every event is worked out before any is applied.
	readOnly bool
	// cmd is the command being decided.
	cmd fray.Command
	// oddsOnly marks a decider that only works out the odds of the
	// initiative roll the command would make: newTurn keeps them in odds
	// and stops with errOddsOnly before rolling.
	oddsOnly bool
	odds     *fray.Odds
}

func (d *decider) emit(typ string, data any, rolls ...fray.Roll) error {
	ev, err := fray.NewEvent(typ, data, rolls...)
	if err != nil {
		return err
	}
	return d.add(ev)
}

// addRolled adds a roll's event with the odds it had, then the events
// that use up the conditions whose modifiers it applied once.
func (d *decider) addRolled(ev fray.Event, odds fray.Odds, spent []engine.ConditionRef) error {
	ev.Odds = &odds
	if err := d.add(ev); err != nil {
		return err
	}
	evs, err := engine.SpendEvents(spent)
	if err != nil {
		return err
	}
	for _, x := range evs {
		if err := d.add(x); err != nil {
			return err
		}
	}
	return nil
}

// add applies ev to the scratch state (unless read-only) and keeps it,
// then records the end of the turn of each held action it made lapse
// (see lapses).
func (d *decider) add(ev fray.Event) error {
	typ := ev.Type
	if d.readOnly {
		d.evs = append(d.evs, ev)
		return nil
	}
	s := d.s
	held := s.heldActions()
	var used heldAction
	if ev.Type == EventDone && len(s.Intr) > 0 {
		// The interrupter finishing spends the held action they use.
		if ch := s.char(s.Intr[0]); ch != nil && ch.Act.Hold != nil {
			used = heldAction{ch.ID, ch.Act.Hold.Turn, ch.Act.Hold.Phase}
		}
	}
	if err := d.sys.Apply(s, ev); err != nil {
		return &fray.Error{Code: fray.EINTERNAL, Message: "An event of the " + typ + " kind could not be applied.", Err: err}
	}
	d.evs = append(d.evs, ev)
	if held == nil {
		return nil
	}
	return d.lapses(held, used)
}

// heldAction is a held action (V-3) of the character id, saved on the
// given turn and phase: one of their Held, or the one they are using.
type heldAction struct {
	id          fray.CombatantID
	turn, phase int
}

// heldActions lists every held action, nil when there is none.
func (s *State) heldActions() []heldAction {
	var out []heldAction
	for _, ch := range s.Chars {
		for _, h := range ch.Held {
			out = append(out, heldAction{ch.ID, h.Turn, h.Phase})
		}
		if h := ch.Act.Hold; h != nil {
			out = append(out, heldAction{ch.ID, h.Turn, h.Phase})
		}
	}
	return out
}

// lapses records the end of a held action's turn when the event just
// applied made it lapse unused: the holder's next action came (house
// rule), the turn ended (as written), or a change of held= dropped it.
// The turn a held action keeps open ends, for conditions, when the action
// is used (finish reports that) or lapses (V-3, E-4). The lapse itself
// follows from the order of play; its end is recorded (EventHoldLapsed)
// only when it ends a condition, so that logs written before held actions
// kept turns open, which have none, replay as they were. before lists the
// held actions before the event, used the one it spent.
func (d *decider) lapses(before []heldAction, used heldAction) error {
	s := d.s
	after := s.heldActions()
	var ended []fray.CombatantID
	for _, h := range before {
		if h == used || slices.Contains(after, h) || slices.Contains(ended, h.id) || s.char(h.id) == nil {
			continue
		}
		ended = append(ended, h.id)
		if !engine.EdgeEnds(&s.Encounter, s.Round, h.id, fray.EdgeEnd) {
			continue
		}
		if err := d.emit(EventHoldLapsed, fray.NameData{Who: h.id}); err != nil {
			return err
		}
	}
	return nil
}

// Decide returns the events cmd produces in st.
func (sys *System) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s0, err := get(st)
	if err != nil {
		return nil, err
	}
	if cmd.Name == engine.CmdAdd {
		if evs, handled, err := s0.decideAdd(cmd); handled {
			return evs, err
		}
	}
	if evs, handled, err := engine.DecideShared(&s0.Encounter, cmd, spec); handled {
		if err != nil || (cmd.Name != engine.CmdRemove && cmd.Name != engine.CmdSet) || s0.heldActions() == nil {
			return evs, err
		}
		// A removal (the count moving on) or a change of held= may make a
		// held action lapse, which ends its turn (see lapses).
		d := &decider{sys: sys, s: s0.scratch()}
		for _, ev := range evs {
			if err := d.add(ev); err != nil {
				return nil, err
			}
		}
		return d.evs, nil
	}
	switch cmd.Name {
	case "attack", "damage", "heal", "protect", "spend", "check":
		// Their events are worked out from the state as it is, so they
		// need no copy of it.
		d := &decider{sys: sys, s: s0, readOnly: true}
		if err := d.decide(cmd, r); err != nil {
			return nil, err
		}
		return d.evs, nil
	}
	d := &decider{sys: sys, s: s0.scratch()}
	if err := d.decide(cmd, r); err != nil {
		return nil, err
	}
	return d.evs, nil
}

func (d *decider) decide(cmd fray.Command, r fray.Roller) error {
	s := d.s
	d.cmd = cmd
	switch cmd.Name {
	case "start":
		if s.Started {
			return fray.Errorf(fray.EINVALID, "The encounter has already started.")
		}
		if len(s.Combatants) == 0 {
			return fray.Errorf(fray.EINVALID, "There is nobody to fight yet; add combatants first.")
		}
		if err := d.emit(fray.EventStarted, nil); err != nil {
			return err
		}
		return d.newTurn(r)
	case "surprise":
		return d.surprise(cmd)
	case "initiative":
		return d.initiative(cmd, r)
	case "order":
		return d.tiebreak(cmd)
	case "upkeep":
		return d.upkeep(cmd)
	case "act":
		return d.act(cmd)
	case "move":
		return d.move(cmd)
	case "hold", "next", "decline":
		return d.done(cmd, r)
	case "interrupt":
		return d.interrupt(cmd)
	case "facing", "prone":
		return d.facing(cmd)
	case "stand":
		return d.stand(cmd)
	case "attack":
		return d.attack(cmd, r)
	case "damage":
		return d.damage(cmd)
	case "heal":
		return d.heal(cmd)
	case "protect":
		return d.protect(cmd)
	case "spend":
		return d.spend(cmd)
	case "check":
		return d.check(cmd, r)
	}
	return fray.Errorf(fray.EINTERNAL, "V&V declares the command %q but does not decide it.", cmd.Name)
}

// current returns the acting character, checking that name, when not
// "", names them.
func (d *decider) current(name string) (*fray.Combatant, *Char, error) {
	s := d.s
	if !s.Started {
		return nil, nil, fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	cur, ch := s.combatant(s.current())
	if cur == nil {
		return nil, nil, fray.Errorf(fray.EINVALID, "Nobody is acting: turn %d's phases are over; use next to begin the next turn.", s.Round)
	}
	if name != "" {
		c, err := s.Lookup(name)
		if err != nil {
			return nil, nil, err
		}
		if c.ID != cur.ID {
			return nil, nil, fray.Errorf(fray.EINVALID, "It is %s's action on phase %d, not %s's.", fray.Mention(cur.Name), s.Phase(), c)
		}
	}
	return cur, ch, nil
}

func (d *decider) act(cmd fray.Command) error {
	c, ch, err := d.current(cmd.Arg(0))
	if err != nil {
		return err
	}
	s := d.s
	if ch.Act.Acted {
		return fray.Errorf(fray.EINVALID, "%s has already acted on phase %d; one action per phase (V-3).", c, s.Phase())
	}
	if ch.ActedPhase == s.Phase() && ch.ActedPhase != 0 {
		return fray.Errorf(fray.EINVALID, "%s has already acted on phase %d; never more than one action by one character in a phase (V-3). Hold this action or decline it.", c, s.Phase())
	}
	cost := s.actionCost(ch)
	if cost > 0 && tracksPower(c) && s.power(c) < cost {
		return fray.Errorf(fray.EINVALID, "%s has %d Power; an action after the first in a turn costs %d (V-1). Decline it with next.", c, s.power(c), cost)
	}
	return d.emit(EventActed, ActData{Who: c.ID, Phase: s.Phase(), Cost: cost})
}

// actionCost is what the acting character's action costs now (V-1): 2
// Power unless it is the first action performed in its turn.
func (s *State) actionCost(ch *Char) int {
	done := ch.Performed
	if h := ch.Act.Hold; h != nil && h.Turn != s.Round {
		done = h.Performed
	}
	if done > 0 {
		return ExtraActionCost
	}
	return 0
}

// MaxInches is the longest single move accepted, in inches.
const MaxInches = 1000000

func (d *decider) move(cmd fray.Command) error {
	n := number(cmd.Arg(0))
	c, ch, err := d.current("")
	if err != nil {
		return err
	}
	s := d.s
	if ch.Act.Acted && ch.Act.Moved {
		return fray.Errorf(fray.EINVALID, "%s moved and then acted on phase %d; moving again would be move–act–move, which is not allowed (V-6).", c, s.Phase())
	}
	if left := s.moveLeft(c.ID); n > left {
		if s.Setting(SetMovement, House) == RAW {
			return fray.Errorf(fray.EINVALID, "%s can move %d\" more this turn (Move Rate %d\", %d\" used); %d\" is too far (V-6).", c, left, moveRate(c), ch.Moved, n)
		}
		if h := ch.Act.Hold; h != nil && h.Turn != s.Round {
			return fray.Errorf(fray.EINVALID, "%s can move up to %d\" with the action held from turn %d, phase %d (what was left of that phase's move); %d\" is too far (V-3, V-6).", c, left, h.Turn, h.Phase, n)
		}
		return fray.Errorf(fray.EINVALID, "%s can move up to %d\" on this action (%d\" per action and at most %d\" carried from the previous one); %d\" is too far (V-6).", c, left, ch.Allot, ch.Allot, n)
	}
	return d.emit(EventMoved, MoveData{Who: c.ID, Inches: n})
}

func (d *decider) done(cmd fray.Command, r fray.Roller) error {
	s := d.s
	if cmd.Name == "next" && s.Started && s.current() == "" {
		if len(cmd.Args) > 0 {
			return fray.Errorf(fray.EINVALID, "Nobody is acting: turn %d's phases are over; next naming nobody begins the next turn.", s.Round)
		}
		return d.endTurn(r)
	}
	c, ch, err := d.current(cmd.Arg(0))
	if err != nil {
		return err
	}
	switch cmd.Name {
	case "hold":
		if ch.Act.Acted {
			return fray.Errorf(fray.EINVALID, "%s has already taken the action of phase %d; there is nothing to hold. Use next.", c, s.Phase())
		}
		// The turn stays open until the held action is used or lapses
		// (V-3, E-4); the log says so where it matters (HeldData.Open).
		open := engine.EdgeEnds(&s.Encounter, s.Round, c.ID, fray.EdgeEnd)
		if err := d.emit(EventHeld, HeldData{Who: c.ID, Open: open}); err != nil {
			return err
		}
	case "decline":
		if ch.Act.Acted {
			return fray.Errorf(fray.EINVALID, "%s has already taken the action of phase %d; there is nothing to decline. Use next.", c, s.Phase())
		}
	}
	if err := d.emit(EventDone, fray.NameData{Who: c.ID}); err != nil {
		return err
	}
	if d.s.current() == "" {
		return d.endTurn(r)
	}
	return nil
}

// endTurn ends the turn (V-5): upkeep, then initiative is rerolled. An
// upkeep more than the Power left is not paid and ends.
func (d *decider) endTurn(r fray.Roller) error {
	s := d.s
	data := TurnEndData{Turn: s.Round}
	for _, ch := range s.Chars {
		if ch.Upkeep <= 0 {
			continue
		}
		c := s.ByID(ch.ID)
		if ch.Upkeep > s.power(c) {
			data.Unpaid = append(data.Unpaid, UpkeepData{Who: c.ID, Power: ch.Upkeep})
		} else {
			data.Upkeep = append(data.Upkeep, UpkeepData{Who: c.ID, Power: ch.Upkeep})
		}
	}
	if err := d.emit(EventTurnEnded, data); err != nil {
		return err
	}
	return d.newTurn(r)
}

// newTurn rolls initiative for the next turn (V-1, V-2, V-4). The turn's
// event records the odds the roll had, worked out before any die is
// rolled; in odds-only mode they are kept and nothing is rolled.
func (d *decider) newTurn(r fray.Roller) error {
	s := d.s
	turn := s.Round + 1
	odds := s.initiativeOdds(turn)
	odds.Command = d.cmd.String()
	if d.oddsOnly {
		d.odds = &odds
		return errOddsOnly
	}
	amb := s.ambushOf(turn)
	surprise, raw := amb.surprise, amb.raw
	data := TurnData{Turn: turn}
	var rolls []fray.Roll
	best, attackers := 0, false
	for _, ch := range s.Chars {
		c := s.ByID(ch.ID)
		if c.Kind == fray.KindEnvironment {
			continue // an object rolls no initiative (V-1)
		}
		tc := TurnChar{Who: c.ID}
		if surprise && ch.Victim && raw {
			data.Chars = append(data.Chars, tc) // no phases on the first turn
			continue
		}
		die := ch.Die
		if die > 0 {
			tc.Entered = true
		} else {
			roll, err := r.Roll(c.Name, InitiativeDice)
			if err != nil {
				return err
			}
			rolls = append(rolls, roll)
			die = roll.Total
		}
		tc.Rolled = true
		tc.Init = die + c.Stat("agility")
		if surprise && ch.Victim {
			tc.Init, tc.Halved = floorHalf(tc.Init), true
		} else if amb.attacker(c) && (!attackers || tc.Init > best) {
			best, attackers = tc.Init, true
		}
		data.Chars = append(data.Chars, tc)
	}
	if surprise && !raw && attackers {
		for i := range data.Chars {
			tc := &data.Chars[i]
			if !tc.Halved {
				continue
			}
			for _, p := range phases(tc.Init) {
				if p > best {
					tc.Lost = append(tc.Lost, p)
				}
			}
		}
	}
	// A full tie (same phase, Agility and Move Rate, not ordered by the GM)
	// is settled by a toss (V-2).
	rolls, err := s.toss(data.Chars, rolls, r)
	if err != nil {
		return err
	}
	ev, err := fray.NewEvent(EventTurn, data, rolls...)
	if err != nil {
		return err
	}
	ev.Odds = &odds
	return d.add(ev)
}

// toss settles the full ties of a turn's initiative (V-2): characters on
// a common phase (totals 15 apart or equal), of the same Agility and Move
// Rate, whom the GM's order does not name. The characters of each such
// tie are put in an order drawn evenly at random, one die for each place
// but the last: 1dK picks which of the K still unplaced goes next, in the
// order added. Each gets a Tie, higher first: K for the first of K, 1 for
// the last. It returns rolls with the dice added.
func (s *State) toss(chars []TurnChar, rolls []fray.Roll, r fray.Roller) ([]fray.Roll, error) {
	tied := func(tc TurnChar) bool {
		return tc.Rolled && tc.Init > 0 && tc.Tie == 0 && !slices.Contains(s.Tiebreak, tc.Who)
	}
	for i := range chars {
		if !tied(chars[i]) {
			continue
		}
		ca := s.ByID(chars[i].Who)
		class := []int{i}
		for j := i + 1; j < len(chars); j++ {
			cb := s.ByID(chars[j].Who)
			if tied(chars[j]) && (chars[i].Init-chars[j].Init)%PhaseStep == 0 && ca.Stat("agility") == cb.Stat("agility") && moveRate(ca) == moveRate(cb) {
				class = append(class, j)
			}
		}
		if len(class) == 1 {
			continue
		}
		for k := len(class); k > 1; k-- {
			// The faces are named when they are few; a long list in
			// every roll of a large tie would swell the log.
			words := "tie toss, who goes next of the " + strconv.Itoa(k) + " left, in the order added"
			if k <= maxTossWords {
				faces := make([]string, len(class))
				for x, j := range class {
					faces[x] = strconv.Itoa(x+1) + " " + s.NameOf(chars[j].Who)
				}
				words = "tie toss, who goes next (" + strings.Join(faces, ", ") + ")"
			}
			roll, err := r.Roll(words, "1d"+strconv.Itoa(k))
			if err != nil {
				return nil, err
			}
			if roll.Total < 1 || roll.Total > k {
				return nil, fray.Errorf(fray.EINVALID, "The tie toss is a 1d%d; %d is not one of its faces.", k, roll.Total)
			}
			rolls = append(rolls, roll)
			chars[class[roll.Total-1]].Tie = k
			class = slices.Delete(class, roll.Total-1, roll.Total)
		}
		chars[class[0]].Tie = 1
	}
	return rolls, nil
}

// maxTossWords is the most characters a roll of the tie toss names with
// its faces.
const maxTossWords = 6

// floorHalf halves n, rounding down.
func floorHalf(n int) int {
	if n < 0 {
		return -((-n + 1) / 2)
	}
	return n / 2
}

// phases lists the action phases of an initiative total: the total, then
// every 15 phases lower while above 0 (V-1).
func phases(init int) []int {
	var out []int
	for p := init; p > 0; p -= PhaseStep {
		out = append(out, p)
	}
	return out
}

// lookupAll returns the combatants cmd's positional words name, refusing
// unknown and repeated names (as engine.Names does).
func (s *State) lookupAll(args []string) ([]*fray.Combatant, error) {
	out := make([]*fray.Combatant, 0, len(args))
	for _, a := range args {
		c, err := s.Lookup(a)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(x *fray.Combatant) bool { return x.ID == c.ID }) {
			return nil, fray.Errorf(fray.EINVALID, "%s is named twice.", c)
		}
		out = append(out, c)
	}
	return out, nil
}

// ids returns the ids of cs.
func ids(cs []*fray.Combatant) []fray.CombatantID {
	out := make([]fray.CombatantID, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

func (d *decider) surprise(cmd fray.Command) error {
	s := d.s
	if s.Started {
		return fray.Errorf(fray.EINVALID, "Surprise is declared before the start; the encounter has started.")
	}
	cs, err := s.lookupAll(cmd.Args)
	if err != nil {
		return err
	}
	characters := 0
	for _, c := range s.Combatants {
		if c.Kind != fray.KindEnvironment {
			characters++
		}
	}
	for _, c := range cs {
		if c.Kind == fray.KindEnvironment {
			return fray.Errorf(fray.EINVALID, "%s is an object (kind=environment): it has no initiative to lose to surprise.", c)
		}
	}
	if len(cs) == characters {
		return fray.Errorf(fray.EINVALID, "An ambush needs attackers; surprise cannot name everyone.")
	}
	return d.emit(EventSurprise, NamesData{Who: ids(cs)})
}

// initiative enters the d10 a character rolled at the table for the next
// initiative roll: initiative NAME DIE, or initiative NAME dice=N (or with
// no dice at all, a die rolled now).
func (d *decider) initiative(cmd fray.Command, r fray.Roller) error {
	c, err := d.s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	if c.Kind == fray.KindEnvironment {
		return fray.Errorf(fray.EINVALID, "%s is an object (kind=environment): objects roll no initiative and have no phases (V-1).", c)
	}
	if len(cmd.Args) == 1 {
		roll, err := r.Roll(c.Name, InitiativeDice)
		if err != nil {
			return err
		}
		return d.emit(EventInitiative, DieData{Who: c.ID, Die: roll.Total}, roll)
	}
	return d.emit(EventInitiative, DieData{Who: c.ID, Die: number(cmd.Arg(1))})
}

func (d *decider) tiebreak(cmd fray.Command) error {
	cs, err := d.s.lookupAll(cmd.Args)
	if err != nil {
		return err
	}
	return d.emit(EventTiebreak, NamesData{Who: ids(cs)})
}

func (d *decider) upkeep(cmd fray.Command) error {
	c, err := d.s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n := number(cmd.Arg(1))
	if n > 0 && !tracksPower(c) {
		return fray.Errorf(fray.EINVALID, "%s has no Power (a power track on the sheet, or add … power=N) to pay an upkeep with.", c)
	}
	if have := d.s.power(c); n > have {
		return fray.Errorf(fray.EINVALID, "%s has %d Power; an upkeep of %d could not be paid (Power never goes below zero).", c, have, n)
	}
	return d.emit(EventUpkeep, UpkeepData{Who: c.ID, Power: n})
}

func (d *decider) interrupt(cmd fray.Command) error {
	s := d.s
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	cur := s.ByID(s.current())
	if cur == nil {
		return fray.Errorf(fray.EINVALID, "Nobody is acting: turn %d's phases are over. Begin the next turn with next and interrupt then.", s.Round)
	}
	if b, ok := cmd.Opt(engine.KeyBefore); ok {
		c, err := s.Lookup(b)
		if err != nil {
			return err
		}
		if c.ID != cur.ID {
			return fray.Errorf(fray.EINVALID, "%s is acting now, not %s; a held action interrupts the one acting.", fray.Mention(cur.Name), c)
		}
	}
	cs, err := s.lookupAll(cmd.Args)
	if err != nil {
		return err
	}
	phase := s.Phase()
	for _, c := range cs {
		id := c.ID
		ch := s.char(id)
		switch {
		case len(ch.Held) == 0:
			return fray.Errorf(fray.EINVALID, "%s holds no action to interrupt with.", c)
		case id == cur.ID || slices.Contains(s.Intr, id) || (s.Cur < len(s.Sched) && id == s.Sched[s.Cur].ID):
			return fray.Errorf(fray.EINVALID, "%s is already acting on phase %d.", c, phase)
		case ch.ActedPhase == phase:
			return fray.Errorf(fray.EINVALID, "%s has already acted on phase %d; never more than one action by one character in a phase (V-3).", c, phase)
		}
	}
	// Two interrupts at once: higher Agility first (then Move Rate, then
	// the order given).
	slices.SortStableFunc(cs, func(ca, cb *fray.Combatant) int {
		if x := cb.Stat("agility") - ca.Stat("agility"); x != 0 {
			return x
		}
		return moveRate(cb) - moveRate(ca)
	})
	return d.emit(EventInterrupted, InterruptData{Who: ids(cs), Before: cur.ID})
}

func (d *decider) facing(cmd fray.Command) error {
	s := d.s
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	ch := s.char(c.ID)
	dir := cmd.Arg(1)
	if len(dir) > 40 {
		return fray.Errorf(fray.ETOOLARGE, "The direction is longer than 40 bytes.")
	}
	if cmd.Name == "prone" && ch.Prone {
		return fray.Errorf(fray.EINVALID, "%s is already prone.", c)
	}
	what := "change facing"
	if cmd.Name == "prone" {
		what = "drop prone"
	}
	data := FacingData{Who: c.ID, Dir: dir, About: s.mentionIDs(dir, c.Name)}
	if s.Started && s.current() != c.ID {
		phase := s.Phase()
		switch {
		case phase == 0:
			return fray.Errorf(fray.EINVALID, "Turn %d's phases are over; begin the next turn with next first.", s.Round)
		case ch.FacingPhase == phase:
			return fray.Errorf(fray.EINVALID, "%s has already changed facing or dropped prone off-phase on phase %d; once per phase (V-7).", c, phase)
		case tracksPower(c) && s.power(c) < ExtraActionCost:
			return fray.Errorf(fray.EINVALID, "%s has %d Power; to %s off-phase costs %d (V-7).", c, s.power(c), what, ExtraActionCost)
		}
		data.Cost, data.Phase = ExtraActionCost, phase
	}
	typ := EventFacing
	if cmd.Name == "prone" {
		typ = EventProne
	}
	return d.emit(typ, data.payload())
}

func (d *decider) stand(cmd fray.Command) error {
	s := d.s
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	if !s.char(c.ID).Prone {
		return fray.Errorf(fray.EINVALID, "%s is not prone.", c)
	}
	if s.Started && s.current() != c.ID {
		return fray.Errorf(fray.EINVALID, "%s can get up only on their own action phase (V-7).", c)
	}
	return d.emit(EventStood, fray.NameData{Who: c.ID})
}

// number reads a word the declaration has checked to be a whole number
// (fray.CommandDecl.Check): 0 if it is not.
func number(w string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(w, "+"))
	return n
}

// inches formats a distance.
func inches(n int) string { return fmt.Sprintf("%d\"", n) }
