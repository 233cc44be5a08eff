// Package bpb runs Bulletproof Blues 2nd edition (seed 000): the order of
// play by awareness (B-3), the rolled Perception order (B-4), the
// environment last (B-5), delaying and pre-empting (B-6), forced defensive
// actions (B-7); and resolution: task rolls in both success modes (B-1),
// extreme-success options (B-2), block and dodge (B-8), with the same
// power against a power that inflicts no Endurance damage, and the
// automatic reorder on an extreme success (B-9), attacks with fixed damage
// off Endurance (B-10), distraction (B-11) and experience (B-12), with the
// exact odds of every roll (E-6), the rolled order's included: who acts
// first, recorded by the start that rolls it.
//
// Conditions (E-4) end at the edges of turns as they are taken: a delayed
// turn's end is when it is taken, a forced action is the turn it spends
// (its start and end are reported then, for that turn's round), a lost
// turn has no edges, and a delayed turn that pre-empts another gives back
// what the start of the pre-empted turn had ended.
package bpb

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// ID is the system's id.
const ID = "bpb"

// Event types of this system. They are wire strings: never rename one.
const (
	EventDeclared   = "bpb.declared"   // the GM declares the order of play; data: namesData
	EventInitiative = "bpb.initiative" // physical dice entered for the rolled order; data: fray.NameData, Rolls[0]
	EventTurnEnded  = "bpb.turn_ended" // the current turn ends; data: turnData
	EventDelayed    = "bpb.delayed"    // the current actor delays; data: fray.NameData
	EventInterrupt  = "bpb.interrupt"  // a delayed turn is taken now; data: fray.NameData
	EventForced     = "bpb.forced"     // a forced defensive action; data: forcedData
	EventReordered  = "bpb.reordered"  // one combatant moves in the order from next round; data: placeData
	EventAware      = "bpb.aware"      // an unaware combatant becomes aware; data: placeData
)

// Settings of this system and their values, the default first.
const (
	SettingOrder = "order" // declared (B-3) or rolled (B-4)
)

// Stats this system knows.
const (
	StatPerception = "perception" // Perception rank, added to the rolled order (B-4)
	StatSuperSpeed = "superspeed" // Super-speed rank, added to the rolled order (B-4)
)

var stats = []string{"brawn", "agility", "accuracy", "prowess", StatPerception, "willpower", "endurance", StatSuperSpeed}

var spec = engine.Spec{
	Stats: stats,
	Settings: map[string][]string{
		SettingOrder:      {"declared", "rolled"},
		SettingSuccess:    {string(TaskModeOpen), string(TaskModeExpertise)},
		SettingSmashing:   {"prone", "back"},
		SettingStaggering: {"turn", "dazed"},
		SettingAttackVs:   {"agility", "fixed"},
	},
	Placement: true,
}

// Payloads of this system's events. Every field that refers to a
// combatant holds their id (fray.CombatantID, which declares it), and so
// does a note's prose: "mentions" lists the other combatants a note
// names, read once when the command is (see engine.Mentions). A turn's
// note mentions nobody far more often than somebody, so the payloads of
// the frequent events stay flat (copied, not decoded) without it:
// turnData and forcedData, and turnNoted and forcedNoted, with
// "mentions", share one JSON form each. Events of logs older than ids
// (fray.FormatIDs) named them; engine.Upgrade rewrites those from the
// types Payloads declares.

type namesData struct {
	Names []fray.CombatantID `json:"names"`
}

type turnData struct {
	Name fray.CombatantID `json:"name"`
	Note string           `json:"note,omitempty"`
}

// turnNoted is the payload of EventTurnEnded when its note mentions
// other combatants.
type turnNoted struct {
	Name fray.CombatantID `json:"name"`
	Note string           `json:"note,omitempty"`
	// Mentions lists the other combatants the note mentions.
	Mentions []fray.CombatantID `json:"mentions,omitempty"`
}

type forcedData struct {
	Name fray.CombatantID `json:"name"`
	Note string           `json:"note,omitempty"`
	// Spends says which turn the action costs: "held", "this round" or
	// "round N"; informative only, Apply works it out again.
	Spends string `json:"spends"`
}

// forcedNoted is the payload of EventForced when its note mentions other
// combatants, such as the attacker of "blocks attack by Ganyeka".
type forcedNoted struct {
	Name     fray.CombatantID   `json:"name"`
	Note     string             `json:"note,omitempty"`
	Mentions []fray.CombatantID `json:"mentions,omitempty"`
	Spends   string             `json:"spends"`
}

type placeData struct {
	Name   fray.CombatantID `json:"name"`
	Before fray.CombatantID `json:"before,omitempty"`
	After  fray.CombatantID `json:"after,omitempty"`
}

type startData struct {
	Mode  string             `json:"mode"`
	Order []fray.CombatantID `json:"order"`
}

// Payloads declares the payload type of each event type the system
// emits (engine.Payloads), so that older logs can be rewritten. An
// EventTurnEnded or EventForced holds a turnNoted or forcedNoted, the
// JSON forms of turnData and forcedData with their mentions.
func (*System) Payloads() map[string]any {
	return map[string]any{
		EventDeclared:     namesData{},
		EventInitiative:   fray.NameData{},
		fray.EventStarted: startData{},
		EventTurnEnded:    turnNoted{},
		EventDelayed:      fray.NameData{},
		EventInterrupt:    fray.NameData{},
		EventForced:       forcedNoted{},
		EventReordered:    placeData{},
		EventAware:        placeData{},
		EventTask:         taskData{},
		EventDamaged:      damageData{},
		EventStaggered:    fray.NameData{},
		EventAwarded:      awardData{},
		EventSpent:        spendData{},
		EventControlled:   controlData{},
		EventMoved:        movedData{},
	}
}

// System is the Bulletproof Blues order of play. Its zero value is ready
// to use.
type System struct{}

// New returns the system.
func New() *System { return &System{} }

// ID returns "bpb".
func (*System) ID() string { return ID }

// Name returns the system's full name.
func (*System) Name() string { return "Bulletproof Blues 2nd edition" }

// NewState returns an empty encounter.
func (*System) NewState() fray.State { return newState() }

func state(st fray.State) *State {
	s, _ := st.(*State)
	if s == nil {
		return newState()
	}
	return s
}

// keepsPending lists the commands that leave a pending hit waiting: the
// defences, and commands that change nothing in play.
var keepsPending = []string{RollBlock, RollDodge, "take", engine.CmdCondition, engine.CmdClear, engine.CmdNote, engine.CmdReveal, engine.CmdRename}

// Decide turns a command into events. A hit waiting for a defence is
// taken (its damage applied) before any command but block, dodge, take,
// condition, clear, note, reveal and rename, in a step of its own
// (engine.StepBreak): undoing the command that settled it leaves it
// taken, and a second undo leaves it waiting again.
//
// The engine has checked cmd against its declaration (Commands): its
// words fit, its options are known and its numbers in bounds.
func (sys *System) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s := state(st)
	if s.Pending == nil || slices.Contains(keepsPending, cmd.Name) {
		// The events follow from the state as it is (the engine applies
		// them in turn), so they are decided on it.
		tx := txn{State: s, Unrecorded: !fray.Recorded(r), Lender: fray.Lender(r)}
		if err := s.decide(&tx, cmd, r); err != nil {
			return nil, err
		}
		return tx.Events(), nil
	}
	// The hit is taken in a step of its own, before the command's: undoing
	// the command leaves it taken. Its events are decided on s and applied
	// to a copy, on which the command is decided.
	tx := txn{State: s.settling(), Sys: settler{}, Room: 4, Unrecorded: !fray.Recorded(r), Lender: fray.Lender(r)}
	if err := s.hitEvents(&tx, *s.Pending); err != nil {
		return nil, err
	}
	tx.Freeze()
	text := "" // the step's command, for the log's readers
	if !tx.Unrecorded {
		text = fray.Command{Name: "take", Args: []string{s.NameOf(s.Pending.Defender)}}.String()
	}
	if err := tx.Add(engine.StepBreak(text)); err != nil {
		return nil, err
	}
	n := len(tx.Events())
	if err := tx.State.decide(&tx, cmd, r); err != nil || len(tx.Events()) == n {
		return nil, err
	}
	return tx.Events(), nil
}

// txn is the transaction a command's events are recorded in.
type txn = kit.Txn[*State]

// settler applies the events of the pending hit to the copy settling
// returns, as apply does; unlike Apply, it begins no turn.
type settler struct{}

// Apply applies ev to st, a copy settling returned.
func (settler) Apply(st fray.State, ev fray.Event) error { return st.(*State).apply(ev) }

// settling returns a copy of s that the events of the pending hit may be
// applied to without touching s: they change only the defender, the
// round's sequence and the turns held and lost, so only those are copied
// (a full Clone of a large encounter costs more than the command).
func (s *State) settling() *State {
	d := *s
	d.Combatants = slices.Clone(s.Combatants)
	for i, c := range d.Combatants {
		if c.ID == s.Pending.Defender {
			d.Combatants[i] = c.Clone()
		}
	}
	d.Seq = slices.Clone(s.Seq)
	d.Held = maps.Clone(s.Held)
	d.Lost = slices.Clone(s.Lost)
	h := *s.Pending
	d.Pending = &h
	return &d
}

// decide records in tx the events cmd produces in s.
func (s *State) decide(tx *txn, cmd fray.Command, r fray.Roller) error {
	if evs, ok, err := engine.DecideShared(&s.Encounter, cmd, spec); ok {
		if err != nil {
			return err
		}
		if err := s.checkShared(evs[0]); err != nil {
			return err
		}
		return tx.AddAll(evs)
	}
	switch cmd.Name {
	case "order":
		return s.decideOrder(tx, cmd)
	case "aware":
		return s.decideAware(tx, cmd)
	case "initiative":
		return s.decideInitiative(tx, cmd, r)
	case "start":
		return s.decideStart(tx, cmd, r)
	case "next":
		return s.decideNext(tx, cmd)
	case "delay":
		return s.decideDelay(tx, cmd)
	case "interrupt":
		return s.decideInterrupt(tx, cmd)
	case "force":
		return s.force(tx, cmd, nil)
	case "reorder":
		return s.decideReorder(tx, cmd)
	case RollCheck, RollDistract:
		return s.decideTask(tx, cmd, r)
	case RollAttack:
		return s.decideAttack(tx, cmd, r)
	case RollBlock, RollDodge:
		return s.decideDefence(tx, cmd, r)
	case "take":
		return s.decideTake(tx, cmd)
	case "damage", "heal":
		return s.decideDamage(tx, cmd)
	case "award":
		return s.decideAward(tx, cmd)
	case "spend":
		return s.decideSpend(tx, cmd)
	case "control":
		return s.decideControl(tx, cmd)
	case "move":
		return s.decideMove(tx, cmd)
	case "fall":
		return s.decideFall(tx, cmd)
	}
	return fray.Errorf(fray.EINTERNAL, "%s is declared but not decided.", cmd.Name)
}

// checkShared refuses shared commands that break this system's rules.
func (s *State) checkShared(ev fray.Event) error {
	switch ev.Type {
	case fray.EventAdded:
		var d fray.AddedData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		for _, id := range []fray.CombatantID{d.Before, d.After} {
			if id == "" {
				continue
			}
			c := s.ByID(id)
			if c.Unaware || c.Kind == fray.KindEnvironment {
				return fray.Errorf(fray.EINVALID, "%s has no place in the order of play to stand next to.", c)
			}
		}
		if d.Combatant.Unaware && (d.Before != "" || d.After != "") {
			return fray.Errorf(fray.EINVALID, "An unaware combatant has no turn, so before= and after= mean nothing; give them with aware later.")
		}
	case fray.EventSet:
		if s.Started {
			return fray.Errorf(fray.EINVALID, "Settings are fixed once the encounter has started.")
		}
	}
	return nil
}

func (s *State) needStarted() error {
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; add the combatants, then start.")
	}
	if s.current() == nil {
		return fray.Errorf(fray.EINVALID, "Nobody has a turn: every combatant is unaware or gone.")
	}
	return nil
}

// active refuses a combatant who is out (0 Endurance, B-10), about to
// do what: an out character takes no action; their turns still come, and
// pass with next.
func active(c *fray.Combatant, what string) error {
	if c != nil && c.Condition(CondOut) != nil {
		return fray.Errorf(fray.EINVALID, "%s is out (0 Endurance) and cannot %s; an out character takes no action, and their turns pass with next.", c, what)
	}
	return nil
}

// character looks up a combatant who can have a turn.
func (s *State) character(name, what string) (*fray.Combatant, error) {
	c, err := s.Lookup(name)
	if err != nil {
		return nil, err
	}
	if c.Kind == fray.KindEnvironment {
		return nil, fray.Errorf(fray.EINVALID, "%s is the environment, which cannot %s.", c, what)
	}
	return c, nil
}

func (s *State) decideOrder(tx *txn, cmd fray.Command) error {
	names, err := engine.Names(&s.Encounter, cmd.Args)
	if err != nil {
		return err
	}
	order := make([]fray.CombatantID, len(names))
	for i, n := range names {
		c := s.Find(n)
		order[i] = c.ID
		if c.Kind == fray.KindEnvironment {
			return fray.Errorf(fray.EINVALID, "%s is the environment, which always acts last; leave it out of the order.", c)
		}
		if c.Unaware {
			return fray.Errorf(fray.EINVALID, "%s is unaware and has no turn; make them aware first.", c)
		}
	}
	return tx.Emit(EventDeclared, namesData{Names: order})
}

// placeOpts reads the before= or after= of a command that places c in
// the order of play, and returns whom it gives.
func (s *State) placeOpts(cmd fray.Command, c *fray.Combatant) (before, after fray.CombatantID, err error) {
	b, hasB := cmd.Opts[engine.KeyBefore]
	a, hasA := cmd.Opts[engine.KeyAfter]
	if hasB && hasA {
		return "", "", fray.Errorf(fray.EINVALID, "Give before= or after=, not both.")
	}
	for _, p := range []struct {
		v   string
		has bool
		out *fray.CombatantID
	}{{b, hasB, &before}, {a, hasA, &after}} {
		if !p.has {
			continue
		}
		o, err := s.Lookup(p.v)
		if err != nil {
			return "", "", err
		}
		if o.ID == c.ID {
			return "", "", fray.Errorf(fray.EINVALID, "%s cannot be placed next to themself.", o)
		}
		if o.Kind == fray.KindEnvironment || o.Unaware {
			return "", "", fray.Errorf(fray.EINVALID, "%s has no place in the order of play to stand next to.", o)
		}
		*p.out = o.ID
	}
	return before, after, nil
}

func (s *State) decideAware(tx *txn, cmd fray.Command) error {
	c, err := s.character(cmd.Arg(0), "become aware")
	if err != nil {
		return err
	}
	if !c.Unaware {
		return fray.Errorf(fray.EINVALID, "%s is already aware.", c)
	}
	before, after, err := s.placeOpts(cmd, c)
	if err != nil {
		return err
	}
	return tx.Emit(EventAware, placeData{Name: c.ID, Before: before, After: after})
}

// initiativeOf returns the combatant initiative NAME rolls for, before
// the start.
func (s *State) initiativeOf(cmd fray.Command) (*fray.Combatant, error) {
	if s.Started {
		return nil, fray.Errorf(fray.EINVALID, "Initiative is rolled at the start; the encounter has already started.")
	}
	return s.character(cmd.Arg(0), "roll for the order of play")
}

func (s *State) decideInitiative(tx *txn, cmd fray.Command, r fray.Roller) error {
	c, err := s.initiativeOf(cmd)
	if err != nil {
		return err
	}
	var roll fray.Roll
	switch {
	case len(cmd.Args) == 2 && strings.Contains(cmd.Arg(1), ","):
		fs, err := engine.ParseFaces(cmd.Arg(1))
		if err != nil {
			return err
		}
		roll, err = engine.RollFaces(c.Name, "2d6", fs)
		if err != nil {
			return err
		}
	case len(cmd.Args) == 2:
		n, err := strconv.Atoi(cmd.Arg(1))
		if err != nil {
			return fray.Errorf(fray.EINVALID, "%q is not a die roll; give the faces (6,3) or their total (9).", cmd.Arg(1))
		}
		roll, err = engine.RollTotal(c.Name, "2d6", n)
		if err != nil {
			return err
		}
	default:
		roll, err = r.Roll(c.Name, "2d6")
		if err != nil {
			return err
		}
		if roll.Source == fray.RollSeeded {
			return fray.Errorf(fray.EINVALID, "initiative enters physical dice: give the faces (initiative %s 6,3) or their total.", c)
		}
	}
	return tx.Emit(EventInitiative, fray.NameData{Who: c.ID}, roll)
}

func (s *State) decideStart(tx *txn, cmd fray.Command, r fray.Roller) error {
	p, err := s.planStart(cmd)
	if err != nil {
		return err
	}
	if p.mode == "declared" {
		order := make([]fray.CombatantID, len(p.aware))
		for i, c := range p.aware {
			order[i] = c.ID
		}
		return tx.Emit(fray.EventStarted, startData{Mode: p.mode, Order: order})
	}
	// The odds are worked out before the dice are rolled (E-6).
	o := s.initiativeOdds(cmd.String(), p)
	order, rolls, err := s.rollOrder(p, r)
	if err != nil {
		return err
	}
	return tx.EmitOdds(fray.EventStarted, startData{Mode: p.mode, Order: order}, o, rolls...)
}

// checkTurn checks an optional NAME against whose turn it is.
func (s *State) checkTurn(cmd fray.Command) (*Turn, error) {
	if err := s.needStarted(); err != nil {
		return nil, err
	}
	t := s.current()
	if len(cmd.Args) == 1 {
		c, err := s.Lookup(cmd.Arg(0))
		if err != nil {
			return nil, err
		}
		if c.ID != t.ID {
			return nil, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", fray.Mention(s.NameOf(t.ID)), c)
		}
	}
	return t, nil
}

func (s *State) decideNext(tx *txn, cmd fray.Command) error {
	t, err := s.checkTurn(cmd)
	if err != nil {
		return err
	}
	note := cmd.Opts["note"]
	if len(note) > 200 {
		return fray.Errorf(fray.ETOOLARGE, "note= is longer than 200 bytes.")
	}
	if m := s.mentions(note, s.NameOf(t.ID)); m != nil {
		return tx.Emit(EventTurnEnded, turnNoted{Name: t.ID, Note: note, Mentions: m})
	}
	return tx.Emit(EventTurnEnded, turnData{Name: t.ID, Note: note})
}

func (s *State) decideDelay(tx *txn, cmd fray.Command) error {
	t, err := s.checkTurn(cmd)
	if err != nil {
		return err
	}
	c := s.ByID(t.ID)
	if err := active(c, "delay"); err != nil {
		return err
	}
	switch {
	case t.Env:
		return fray.Errorf(fray.EINVALID, "%s is the environment, which always acts last and cannot delay.", c)
	case t.Kind == kindDelayed:
		return fray.Errorf(fray.EINVALID, "%s is already taking a delayed turn and cannot delay it again.", c)
	}
	return tx.Emit(EventDelayed, fray.NameData{Who: c.ID})
}

func (s *State) decideInterrupt(tx *txn, cmd fray.Command) error {
	c, err := s.character(cmd.Arg(0), "delay")
	if err != nil {
		return err
	}
	if err := active(c, "take a delayed turn"); err != nil {
		return err
	}
	if err := s.needStarted(); err != nil {
		return err
	}
	if _, ok := s.Held[c.ID]; !ok {
		return fray.Errorf(fray.EINVALID, "%s holds no delayed turn, so there is nothing to interrupt with.", c)
	}
	cur := s.current()
	if b, ok := cmd.Opts[engine.KeyBefore]; ok {
		o, err := s.Lookup(b)
		if err != nil {
			return err
		}
		if o.ID != cur.ID {
			return fray.Errorf(fray.EINVALID, "A delayed turn pre-empts the turn about to be taken, which is %s's, not %s's; use next until %s's turn comes.", fray.Mention(s.NameOf(cur.ID)), o, o)
		}
	}
	return tx.Emit(EventInterrupt, fray.NameData{Who: c.ID})
}

// force records in tx a forced action; about lists the other combatants its
// note mentions when the rules wrote the note (nil: the note is the
// GM's, read for the names it mentions).
func (s *State) force(tx *txn, cmd fray.Command, about []fray.CombatantID) error {
	c, err := s.character(cmd.Arg(0), "force an action")
	if err != nil {
		return err
	}
	if err := s.needStarted(); err != nil {
		return err
	}
	note := cmd.Opts["note"]
	if len(note) > 200 {
		return fray.Errorf(fray.ETOOLARGE, "note= is longer than 200 bytes.")
	}
	if err := active(c, "force an action"); err != nil {
		return err
	}
	switch {
	case c.Unaware:
		return fray.Errorf(fray.EINVALID, "%s is unaware and cannot act.", c)
	case s.currentID() == c.ID:
		return fray.Errorf(fray.EINVALID, "It is %s's own turn; a forced action is taken before or after one's turn.", c)
	case s.Forced[c.ID] == s.Round:
		return fray.Errorf(fray.EINVALID, "%s has already forced an action in round %d; only once per round.", c, s.Round)
	case !slices.Contains(s.Order, c.ID):
		return fray.Errorf(fray.EINVALID, "%s has no place in the order of play.", c)
	}
	held, idx, round := s.forceCost(c.ID)
	spends := "round " + itoa(round)
	switch {
	case held:
		spends = "held"
	case idx >= 0:
		spends = "this round"
	}
	if about == nil {
		about = s.mentions(note, c.Name)
	}
	if about != nil {
		return tx.Emit(EventForced, forcedNoted{Name: c.ID, Note: note, Mentions: about, Spends: spends})
	}
	return tx.Emit(EventForced, forcedData{Name: c.ID, Note: note, Spends: spends})
}

func (s *State) decideReorder(tx *txn, cmd fray.Command) error {
	c, err := s.character(cmd.Arg(0), "be reordered")
	if err != nil {
		return err
	}
	if c.Unaware {
		return fray.Errorf(fray.EINVALID, "%s is unaware and has no place in the order of play.", c)
	}
	before, after, err := s.placeOpts(cmd, c)
	if err != nil {
		return err
	}
	if before == "" && after == "" {
		return fray.Errorf(fray.EINVALID, "Usage: reorder NAME after=NAME (or before=NAME).")
	}
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; declare the order with order NAME … instead.")
	}
	return tx.Emit(EventReordered, placeData{Name: c.ID, Before: before, After: after})
}
