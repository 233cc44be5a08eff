package cinematic

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

// ID is the system's id, as given to fray play --rules.
const ID = "cinematic"

// Stances a character may declare at the top of a round (C-7). They are
// wire strings.
const (
	StanceNone    = ""        // the usual free attack and defence
	StanceDefence = "defence" // Full Defence: one extra defence at no penalty, +3 to all defence, no attacks
	StanceOffence = "offence" // Full Offence: +2 to all attacks, no defence
)

// Modifiers of the stances (C-7) and the penalty of each extra action (C-2).
const (
	FullDefenceBonus = 3
	FullOffenceBonus = 2
	ExtraPenalty     = 2
)

// ExtraActions returns the extra actions a Dexterity gives each round
// (C-2): 5–6: 1, 7–8: 2, 9–10: 3, 11–12: 4, 13–14: 5, 15 and up: 6.
func ExtraActions(dex int) int {
	switch {
	case dex < 5:
		return 0
	case dex >= 15:
		return 6
	}
	return (dex - 3) / 2
}

// Event types of the Cinematic Unisystem order of play. They are wire
// strings: never rename one.
const (
	EventRound    = "cinematic.round"    // a round begins in initiative order; data: RoundData
	EventAttack   = "cinematic.attack"   // the current character attacks; data: ActionData
	EventDefence  = "cinematic.defence"  // a character defends; data: ActionData
	EventStance   = "cinematic.stance"   // Full Defence or Full Offence declared; data: StanceData
	EventTurnDone = "cinematic.turn_end" // the current character's turn ends; data: fray.NameData
	EventTiebreak = "cinematic.tiebreak" // the GM's order for full ties; data: NamesData
)

// RoundData is the payload of EventRound.
type RoundData struct {
	Round int      `json:"round"`            // the round beginning, from 1
	Order []string `json:"order" fray:"who"` // its order of play
}

// Kinds of action in ActionData.
const (
	ActionFree  = "free"  // the round's free attack or free defence
	ActionBonus = "bonus" // Full Defence's extra defence at no penalty
	ActionExtra = "extra" // an extra action at a cumulative −2
)

// ActionData is the payload of EventAttack and EventDefence.
type ActionData struct {
	// Name is who attacks or defends.
	Name string `json:"name" fray:"who"`
	// Other is the target of an attack or the attacker defended against,
	// when named.
	Other string `json:"other,omitempty" fray:"who"`
	// Kind is ActionFree, ActionBonus or ActionExtra.
	Kind string `json:"kind"`
	// Modifier is what the action's roll gets: the extra action's
	// penalty plus the stance's bonus.
	Modifier int `json:"modifier"`
}

// StanceData is the payload of EventStance.
type StanceData struct {
	Name   string `json:"name" fray:"who"` // who declares
	Stance string `json:"stance"`          // StanceDefence, StanceOffence or StanceNone
}

// NamesData is a payload naming several combatants.
type NamesData struct {
	Names []string `json:"names" fray:"who"` // the combatants, in order
}

// Char is the Cinematic Unisystem bookkeeping of one combatant for the
// current round.
type Char struct {
	Name     string `json:"name"`               // the combatant
	Stance   string `json:"stance,omitempty"`   // declared for this round (C-7)
	Attacked bool   `json:"attacked,omitempty"` // the free attack is used
	Defended bool   `json:"defended,omitempty"` // the free defence is used
	Bonus    bool   `json:"bonus,omitempty"`    // Full Defence's extra defence is used
	Extras   int    `json:"extras,omitempty"`   // extra actions used
	// Stood reports that the character spent the round standing up from
	// Knocked Down (C-6): no action is left.
	Stood bool `json:"stood,omitempty"`
	// Foes lists who has attacked the character this round, each once,
	// for Outnumbered (C-6).
	Foes []string `json:"foes,omitempty"`
}

// Budget is what a character has left of a round's actions (C-2, C-7).
type Budget struct {
	// Attack and Defence report whether the free attack and the free
	// defence are left and allowed by the stance.
	Attack, Defence bool
	// Bonus reports whether Full Defence's extra defence is left.
	Bonus bool
	// Extras is the extra actions left; Next the penalty of the next one.
	Extras, Next int
}

// State is the state of a Cinematic Unisystem encounter.
type State struct {
	fray.Encounter
	// Chars holds each combatant's actions this round, in the order added.
	Chars []*Char
	// Tiebreak is the GM's order for characters tied on initiative and
	// Dexterity (C-1).
	Tiebreak []string
	// Order is this round's order; Pos the index of the turn in progress,
	// len(Order) when the round is over. Its array is never changed in
	// place (a removal makes a new one), so copies of the state and the
	// history's turns share it.
	Order []string
	Pos   int
	// Begun reports that an action has been taken this round, after which
	// no stance may be declared.
	Begun bool
	// Turn holds the words of the turn in progress, as the history will
	// say it, with the attacks and defences made so far but without the
	// closing parenthesis: "Master (attack on Slayer; Slayer defends";
	// empty until the first. Apply writes each action into it, and makes
	// one string of it when the turn ends; it keeps its room from turn to
	// turn.
	Turn []byte
	// TurnWho lists, each once, the combatants the words of Turn name, the
	// one whose turn it is first, then the targets of attacks, those who
	// defend and those they defend against; nil while the words name
	// nobody but the one whose turn it is.
	TurnWho []string
	// History holds the turns of each round, with the attacks and
	// defences made in each and the combatants each turn names.
	History []HistoryRound
	// Waiting is an attack made with defence=wait, waiting for its
	// target's answer (C-4), or nil.
	Waiting *Waiting `json:"waiting,omitempty"`
}

// HistoryRound is one round of State.History. It is kept smaller than a
// fray.RoundTurns, which View makes of it: a snapshot of the state copies
// the list of every round so far.
type HistoryRound struct {
	Round int           `json:"round"`
	Turns []HistoryTurn `json:"turns"`
}

// HistoryTurn is one turn taken, as the history says it.
type HistoryTurn struct {
	// Text says the turn, beginning with the name of who took it:
	// "Master (attack on Slayer; Slayer defends)".
	Text string `json:"text"`
	// Who lists the combatants Text names, who took the turn first (see
	// fray.RoundTurns.Who). A turn that names its taker alone shares its
	// one name with the round's order.
	Who []string `json:"who"`
}

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State {
	d := &State{
		Encounter: s.CloneEncounter(),
		Tiebreak:  slices.Clone(s.Tiebreak),
		Order:     s.Order,
		Pos:       s.Pos,
		Begun:     s.Begun,
		Turn:      slices.Clone(s.Turn),
		TurnWho:   slices.Clone(s.TurnWho),
	}
	if s.Chars != nil {
		d.Chars = make([]*Char, len(s.Chars))
		for i, c := range s.Chars {
			cc := *c
			cc.Foes = slices.Clone(c.Foes)
			d.Chars[i] = &cc
		}
	}
	if s.Waiting != nil {
		w := *s.Waiting
		w.Modifiers = cloneMods(w.Modifiers)
		d.Waiting = &w
	}
	// A finished round's turns are never changed again, so the copy
	// shares them; only the list and the last round's turns are copied
	// (a turn taken, its names included, is never changed).
	d.History = slices.Clone(s.History)
	if n := len(d.History); n > 0 {
		d.History[n-1].Turns = slices.Clone(d.History[n-1].Turns)
	}
	return d
}

func (s *State) char(name string) *Char {
	for _, c := range s.Chars {
		if fray.SameName(c.Name, name) {
			return c
		}
	}
	return nil
}

// Initiative returns the named combatant's initiative (C-1):
// ⌊Dexterity × 0.5 + Perception + bonus⌋, where bonus is the stat of that
// name (initiative bonuses).
func (s *State) Initiative(name string) int {
	c := s.Find(name)
	if c == nil {
		return 0
	}
	n := c.Stat("dexterity") + 2*(c.Stat("perception")+c.Stat("bonus"))
	if n < 0 {
		return -((-n + 1) / 2)
	}
	return n / 2
}

// Current returns whose turn it is, or "".
func (s *State) Current() string {
	if s.Started && s.Pos < len(s.Order) {
		return s.Order[s.Pos]
	}
	return ""
}

// Budget returns what the named character has left this round.
func (s *State) Budget(name string) Budget {
	c, ch := s.Find(name), s.char(name)
	if c == nil || ch == nil || ch.Stood {
		return Budget{}
	}
	return Budget{
		Attack:  !ch.Attacked && ch.Stance != StanceDefence,
		Defence: !ch.Defended && ch.Stance != StanceOffence,
		Bonus:   ch.Stance == StanceDefence && !ch.Bonus,
		Extras:  max(0, ExtraActions(c.Stat("dexterity"))-ch.Extras),
		Next:    -ExtraPenalty * (ch.Extras + 1),
	}
}

// rank orders the combatants by initiative, then Dexterity, then the GM's
// order, then the order they were added (C-1).
func (s *State) rank() []string {
	var names []string
	for _, c := range s.Combatants {
		names = append(names, c.Name)
	}
	gm := func(n string) int {
		if i := engine.Index(s.Tiebreak, n); i >= 0 {
			return i
		}
		return len(s.Tiebreak)
	}
	slices.SortStableFunc(names, func(a, b string) int {
		if x := s.Initiative(b) - s.Initiative(a); x != 0 {
			return x
		}
		if x := s.Find(b).Stat("dexterity") - s.Find(a).Stat("dexterity"); x != 0 {
			return x
		}
		return gm(a) - gm(b)
	})
	return names
}

// System is the Cinematic Unisystem order of play. The zero value is ready
// to use.
type System struct{}

// New returns the Cinematic Unisystem system.
func New() *System { return &System{} }

var spec = engine.Spec{Stats: []string{"strength", "dexterity", "constitution", "intelligence", "perception", "willpower", "bonus"}}

// ID returns "cinematic".
func (*System) ID() string { return ID }

// Name returns the system's full name.
func (*System) Name() string { return "Cinematic Unisystem variant" }

// NewState returns an empty encounter.
func (*System) NewState() fray.State { return &State{} }

// Commands lists the commands the system accepts.
func (*System) Commands() []fray.CommandDoc {
	return append(engine.SharedDocs(spec),
		fray.CommandDoc{Usage: "order NAME …", Summary: "The GM's order for characters tied on initiative and Dexterity."},
		fray.CommandDoc{Usage: "full NAME defence|offence|none", Summary: "Declare Full Defence or Full Offence at the top of the round (C-7)."},
		fray.CommandDoc{Usage: "start", Summary: "Begin: turns by initiative, ⌊Dexterity × 0.5 + Perception + bonus⌋, highest first (C-1)."},
		fray.CommandDoc{Usage: "attack ATTACKER TARGET with=WEAPON [defence=dodge|parry|none|wait] [shots=1-6] [unaware=yes] [mod=±N] [dmod=±N]",
			Summary: "The current character attacks and the target answers in the same command (C-4): D10 + Dexterity + the weapon's skill against the target's dodge (Dexterity + Kung Fu) or parry (Dexterity + the better of Kung Fu and Getting Medieval; never against bullets), the better of the two unless defence= names one; higher wins, ties to the defender. Both spend their actions (C-2: free, then extra at −2, −4 …; Full Offence +2, Full Defence +3). No defence left, Full Offence, unconscious, tied, or unaware (unaware=yes) without Situational Awareness, or defence=none: no roll, the attack hits on 9+. A hit deals (weapon + success levels − armour) × 2 for bullet, slash and stab against humans, × 1 for bash (C-5). shots=N is a barrage: one roll at −N, one bullet lands per success level (C-8). dice=ATTACK,DEFENCE gives the table's D10s (a blind attacker's Notice check first: dice=NOTICE,ATTACK,DEFENCE). defence=wait rolls the attack alone and waits for the target's own answer (dodge, parry or take; see below). Example: attack Bernie Vamp with=\"Baseball Bat\"."},
		fray.CommandDoc{Usage: "dodge NAME [dmod=±N] | parry NAME [dmod=±N] | take NAME",
			Summary: "The target answers an attack made with defence=wait (C-4), after seeing its total: dodge or parry rolls D10 + the defence against it (higher wins, ties to the defender; no parrying bullets), spending a defence (free, then extra at −2, −4 …), and settles it as the one-command attack would with the same dice; take keeps the defence and the attack hits on 9+. A target who cannot defend (no defence left, Full Offence, unconscious, tied, unaware) is not waited for: the attack is settled at once. While an attack waits, only the answer, condition, clear, note, reveal, undo and queries are taken. dice=D gives the defender's D10. Example: attack Slayer Thug with=punch defence=wait dice=7, then dodge Thug dice=5."},
		fray.CommandDoc{Usage: "attack [TARGET]", Summary: "Without with=: the current character spends an attack, the free one then extra actions at −2, −4, … (C-2), without a roll; act is the same."},
		fray.CommandDoc{Usage: "defend NAME [against=NAME]", Summary: "A character spends a defence without a roll: the free defence, then extra actions at −2, −4, … (C-2)."},
		fray.CommandDoc{Usage: "check NAME STAT[+SKILL] [mod=±N] [vs=N]", Summary: "A task (C-3): D10 + attribute + skill (+ a second attribute: constitution+willpower), or attribute × 2 without one; 9+ succeeds, the total gives success levels (9–10 1, 11–12 2, … 17–20 5, 21–23 6, +1 per 3). vs=N: against an opponent's D10 + N, ties to the opponent. Example: check Bernie \"dexterity+Kung Fu\" mod=-2."},
		fray.CommandDoc{Usage: "test NAME consciousness|survival [minutes=N] [mod=±N]", Summary: "The tests of C-6, prompted after damage: Consciousness at 0 Life Points or fewer, Constitution + Willpower −1 per point below zero (Resistance (Pain) cancels 1 per level), failing: unconscious; Survival at −10 or fewer, −1 per 10 below zero, + Hard to Kill, −1 per minute since the wound (minutes=), failing: dead."},
		fray.CommandDoc{Usage: "damage NAME N [by=NAME] | heal NAME N", Summary: "The GM takes Life Points off or gives them back; Badly Injured and the tests follow (C-5, C-6)."},
		fray.CommandDoc{Usage: "complication NAME blind|bound|tied|down|large [mod=-N] [until=…] [by=NAME]", Summary: "C-6: blind (−5 to all; a Perception + Notice check before each attack; Echolocation unaffected), bound (arms in front: −2 to punches), tied (no attack or defence until free), down (Knocked Down: −4 to attack and defence), large (Size: mod=-N to dodge, −2 unless given). End one with clear NAME CONDITION, free, stand or kipup. Example: complication Vamp down by=Bernie until=end."},
		fray.CommandDoc{Usage: "free NAME [with=Acrobatics|Crime] [mod=±N]", Summary: "A tied character rolls Dexterity + Acrobatics (or Crime); 9+ frees them (C-6)."},
		fray.CommandDoc{Usage: "stand NAME | kipup NAME [mod=±N]", Summary: "Up from Knocked Down (C-6): stand takes the round (no action left); kipup rolls Dexterity + Acrobatics and stands at 2 success levels or more without costing an action."},
		fray.CommandDoc{Usage: "stabilise NAME", Summary: "A medic attends someone at −10 Life Points or fewer: no more Survival tests until hurt again (C-6)."},
		fray.CommandDoc{Usage: "reload NAME [WEAPON] | spend NAME ammo=N [with=WEAPON]", Summary: "Firearms (C-8): reloading fills the clip and is an action (the free attack or an extra); spend takes shots out without a roll. An attack with an empty clip is refused."},
		fray.CommandDoc{Usage: "odds COMMAND …", Summary: "The exact odds of attack (with=; defence=wait gives those of the target's better defence), dodge, parry or take (against the waiting attack's total), check, test, free or kipup before rolling, with every modifier: odds attack Bernie Vamp with=\"Baseball Bat\"."},
		fray.CommandDoc{Usage: "next", Summary: "The current character's turn ends; after the last a new round begins."},
	)
}

func get(st fray.State) (*State, error) {
	s, ok := st.(*State)
	if !ok || s == nil {
		return nil, fray.Errorf(fray.EINTERNAL, "The state is not a Cinematic Unisystem state.")
	}
	return s, nil
}

// Decide returns the events cmd produces in st.
func (sys *System) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s0, err := get(st)
	if err != nil {
		return nil, err
	}
	if err := s0.awaiting(cmd); err != nil {
		return nil, err
	}
	if evs, handled, err := engine.DecideShared(&s0.Encounter, cmd, spec); handled {
		return evs, err
	}
	if evs, handled, err := s0.decideResolution(cmd, r); handled {
		return evs, err
	}
	s := s0.Clone().(*State)
	var evs []fray.Event
	// emit applies an event to the working copy and keeps it; data may
	// be a whole event already made (one carrying rolls and odds).
	emit := func(typ string, data any) error {
		ev, ok := data.(fray.Event)
		if !ok {
			var err error
			if ev, err = fray.NewEvent(typ, data); err != nil {
				return err
			}
		}
		typ = ev.Type
		if err := sys.Apply(s, ev); err != nil {
			return &fray.Error{Code: fray.EINTERNAL, Message: "An event of the " + typ + " kind could not be applied.", Err: err}
		}
		evs = append(evs, ev)
		return nil
	}
	newRound := func() error { return emit(EventRound, RoundData{Round: s.Round + 1, Order: s.rank()}) }
	switch cmd.Name {
	case "start":
		if err := engine.CheckArgs(cmd, 0, 0, "start"); err != nil {
			return nil, err
		}
		if err := engine.CheckOpts(cmd); err != nil {
			return nil, err
		}
		if s.Started {
			return nil, fray.Errorf(fray.EINVALID, "The encounter has already started.")
		}
		if len(s.Combatants) == 0 {
			return nil, fray.Errorf(fray.EINVALID, "There is nobody to fight yet; add combatants first.")
		}
		if err = emit(fray.EventStarted, nil); err == nil {
			err = newRound()
		}
	case "order":
		var names []string
		if names, err = lookupAll(s, cmd, "order NAME … (the GM's order for characters tied on initiative and Dexterity)"); err == nil {
			err = emit(EventTiebreak, NamesData{Names: names})
		}
	case "full":
		err = decideStance(s, cmd, emit)
	case "attack", "act":
		// act, the shared word for spending the turn's budget, attacks.
		err = decideAttack(s, cmd, emit)
	case "defend":
		err = decideDefence(s, cmd, emit)
	case "next":
		if err := engine.CheckArgs(cmd, 0, 1, "next [NAME]"); err != nil {
			return nil, err
		}
		if err := engine.CheckOpts(cmd); err != nil {
			return nil, err
		}
		if !s.Started {
			return nil, fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
		}
		cur := s.Current()
		if cur == "" {
			err = newRound()
			break
		}
		if err := isCurrent(s, cmd.Arg(0)); err != nil {
			return nil, err
		}
		if err = emit(EventTurnDone, fray.NameData{Name: cur}); err == nil && s.Current() == "" {
			err = newRound()
		}
	case "initiative":
		return nil, fray.Errorf(fray.EINVALID, "Cinematic Unisystem initiative is not rolled: it is ⌊Dexterity × 0.5 + Perception + bonus⌋ (C-1).")
	default:
		return nil, fray.Errorf(fray.EINVALID, "Cinematic Unisystem has no command %q; try help.", cmd.Name)
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
}

func lookupAll(s *State, cmd fray.Command, usage string) ([]string, error) {
	if len(cmd.Args) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "Usage: %s.", usage)
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return nil, err
	}
	var names []string
	for _, a := range cmd.Args {
		c, err := s.Lookup(a)
		if err != nil {
			return nil, err
		}
		if engine.Index(names, c.Name) >= 0 {
			return nil, fray.Errorf(fray.EINVALID, "%s is named twice.", c)
		}
		names = append(names, c.Name)
	}
	return names, nil
}

func isCurrent(s *State, name string) error {
	if name == "" {
		return nil
	}
	c, err := s.Lookup(name)
	if err != nil {
		return err
	}
	if cur := s.Current(); !fray.SameName(c.Name, cur) {
		return fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", fray.Mention(cur), c)
	}
	return nil
}

type emitFunc func(typ string, data any) error

func decideStance(s *State, cmd fray.Command, emit emitFunc) error {
	if err := engine.CheckArgs(cmd, 2, 2, "full NAME defence|offence|none"); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return err
	}
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	var stance string
	switch strings.ToLower(cmd.Arg(1)) {
	case "defence", "defense", "fd":
		stance = StanceDefence
	case "offence", "offense", "fo":
		stance = StanceOffence
	case "none":
		stance = StanceNone
	default:
		return fray.Errorf(fray.EINVALID, "full %s %s: say defence, offence or none.", c, engine.Clip(cmd.Arg(1)))
	}
	if s.Started && (s.Pos > 0 || s.Begun) {
		return fray.Errorf(fray.EINVALID, "Full Defence and Full Offence are declared at the top of the round (C-7); round %d is under way.", s.Round)
	}
	return emit(EventStance, StanceData{Name: c.Name, Stance: stance})
}

func decideAttack(s *State, cmd fray.Command, emit emitFunc) error {
	if len(cmd.Args) == 2 {
		return fray.Errorf(fray.EINVALID, "Name the weapon to roll the attack: attack ATTACKER TARGET with=WEAPON (a punch or kick needs none on the sheet).")
	}
	if err := engine.CheckArgs(cmd, 0, 1, cmd.Name+" [TARGET]"); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return err
	}
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	cur := s.Current()
	if cur == "" {
		return fray.Errorf(fray.EINVALID, "Nobody's turn is in progress; use next to begin round %d.", s.Round+1)
	}
	d := ActionData{Name: cur}
	if t := cmd.Arg(0); t != "" {
		c, err := s.Lookup(t)
		if err != nil {
			return err
		}
		if fray.SameName(c.Name, cur) {
			return fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", fray.Mention(cur))
		}
		d.Other = c.Name
	}
	a, err := s.attackAction(cur, d.Other)
	if err != nil {
		return err
	}
	d = a
	return emit(EventAttack, d)
}

func decideDefence(s *State, cmd fray.Command, emit emitFunc) error {
	if err := engine.CheckArgs(cmd, 1, 1, "defend NAME [against=NAME]"); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd, "against"); err != nil {
		return err
	}
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	if s.Current() == "" {
		return fray.Errorf(fray.EINVALID, "Round %d is over; use next to begin round %d.", s.Round, s.Round+1)
	}
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	d := ActionData{Name: c.Name}
	if a, ok := cmd.Opt("against"); ok {
		o, err := s.Lookup(a)
		if err != nil {
			return err
		}
		if fray.SameName(o.Name, c.Name) {
			return fray.Errorf(fray.EINVALID, "%s cannot defend against themselves.", c)
		}
		d.Other = o.Name
	}
	a, err := s.defenceAction(c.Name, d.Other)
	if err != nil {
		return err
	}
	d = a
	return emit(EventDefence, d)
}

// attackAction returns the action name's next attack spends: the free
// attack, else an extra action at its penalty, with Full Offence's bonus
// (C-2, C-7); it refuses an attack under Full Defence or with no action
// left.
func (s *State) attackAction(name, target string) (ActionData, error) {
	d := ActionData{Name: name, Other: target}
	ch, b := s.char(name), s.Budget(name)
	switch {
	case ch == nil:
		return d, fray.Errorf(fray.ENOTFOUND, "There is no combatant named %q.", name)
	case ch.Stance == StanceDefence:
		return d, fray.Errorf(fray.EINVALID, "%s is on Full Defence this round and cannot attack (C-7).", fray.Mention(name))
	case ch.Stood:
		return d, fray.Errorf(fray.EINVALID, "%s spent this round standing up (C-6) and has no action left.", fray.Mention(name))
	case b.Attack:
		d.Kind = ActionFree
	case b.Extras > 0:
		d.Kind, d.Modifier = ActionExtra, b.Next
	default:
		return d, fray.Errorf(fray.EINVALID, "%s has used the free attack and every extra action this round (C-2).", fray.Mention(name))
	}
	if ch.Stance == StanceOffence {
		d.Modifier += FullOffenceBonus
	}
	return d, nil
}

// defenceAction returns the action name's next defence spends: the free
// defence, Full Defence's extra one, else an extra action at its penalty,
// with Full Defence's bonus (C-2, C-7); it refuses a defence under Full
// Offence or with no action left.
func (s *State) defenceAction(name, against string) (ActionData, error) {
	d := ActionData{Name: name, Other: against}
	ch, b := s.char(name), s.Budget(name)
	switch {
	case ch == nil:
		return d, fray.Errorf(fray.ENOTFOUND, "There is no combatant named %q.", name)
	case ch.Stance == StanceOffence:
		return d, fray.Errorf(fray.EINVALID, "%s is on Full Offence this round and cannot defend (C-7); the attack hits on 9+ (C-4).", fray.Mention(name))
	case ch.Stood:
		return d, fray.Errorf(fray.EINVALID, "%s spent this round standing up (C-6) and has no defence left; the attack hits on 9+ (C-4).", fray.Mention(name))
	case b.Defence:
		d.Kind = ActionFree
	case b.Bonus:
		d.Kind = ActionBonus
	case b.Extras > 0:
		d.Kind, d.Modifier = ActionExtra, b.Next
	default:
		return d, fray.Errorf(fray.EINVALID, "%s has no defence left this round (C-2); the attack hits on 9+ (C-4).", fray.Mention(name))
	}
	if ch.Stance == StanceDefence {
		d.Modifier += FullDefenceBonus
	}
	return d, nil
}

// Apply changes st by the event ev.
func (sys *System) Apply(st fray.State, ev fray.Event) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	added, removed, handled, err := engine.ApplyShared(&s.Encounter, ev)
	if handled {
		if err != nil {
			return err
		}
		if added != nil {
			s.Chars = append(s.Chars, &Char{Name: added.Combatant.Name})
			startTracks(s.Combatants[len(s.Combatants)-1])
		}
		if removed != "" {
			s.remove(removed)
		}
		return nil
	}
	switch ev.Type {
	case fray.EventStarted:
		if s.Started {
			return fray.Errorf(fray.EINVALID, "Event %d starts an encounter already started.", ev.Seq)
		}
		s.Started = true
	case EventTiebreak:
		var d NamesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		s.Tiebreak = slices.Clone(d.Names)
	case EventStance:
		var d StanceData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		ch := s.char(d.Name)
		if ch == nil || (d.Stance != StanceNone && d.Stance != StanceDefence && d.Stance != StanceOffence) {
			return fray.Errorf(fray.EINVALID, "Event %d gives %q the stance %q.", ev.Seq, fray.Mention(d.Name), d.Stance)
		}
		ch.Stance = d.Stance
	case EventRound:
		var d RoundData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !s.Started || d.Round != s.Round+1 || s.Current() != "" || s.Waiting != nil {
			return fray.Errorf(fray.EINVALID, "Event %d begins round %d out of sequence.", ev.Seq, d.Round)
		}
		for _, n := range d.Order {
			if s.char(n) == nil {
				return fray.Errorf(fray.EINVALID, "Event %d names %q, who is not present.", ev.Seq, n)
			}
		}
		if d.Round > 1 {
			for _, ch := range s.Chars {
				*ch = Char{Name: ch.Name} // actions and stances last one round
			}
		}
		if s.Round > 0 {
			engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
		}
		// d was decoded for this call (RoundData is not flat), so its
		// order is the state's to keep.
		s.Round, s.Order, s.Pos, s.Begun, s.Turn, s.TurnWho = d.Round, d.Order, 0, false, s.Turn[:0], nil
		s.History = append(s.History, HistoryRound{Round: d.Round, Turns: make([]HistoryTurn, 0, len(d.Order))})
		// Conditions anchored to turn edges end here (E-4).
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	case EventAttack, EventDefence:
		var d ActionData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		ch := s.char(d.Name)
		if ch == nil || s.Current() == "" || (ev.Type == EventAttack && !fray.SameName(d.Name, s.Current())) {
			return fray.Errorf(fray.EINVALID, "Event %d is an action of %q out of turn.", ev.Seq, fray.Mention(d.Name))
		}
		switch {
		case d.Kind == ActionExtra:
			ch.Extras++
		case d.Kind == ActionBonus:
			ch.Bonus = true
		case ev.Type == EventAttack:
			ch.Attacked = true
		default:
			ch.Defended = true
		}
		s.Begun = true
		if ev.Type == EventDefence && fray.SameName(d.Other, s.Current()) {
			d.Other = "" // against the one whose turn it is: implied
		}
		s.Turn = appendAction(s.turnSoFar(), ev.Type, d)
		if ev.Type == EventDefence {
			s.mention(d.Name)
		}
		s.mention(d.Other)
	case EventTurnDone:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if cur := s.Current(); cur == "" || !fray.SameName(cur, d.Name) {
			return fray.Errorf(fray.EINVALID, "Event %d ends the turn of %q, whose turn it is not.", ev.Seq, fray.Mention(d.Name))
		}
		if s.Waiting != nil {
			return fray.Errorf(fray.EINVALID, "Event %d ends %q's turn while an attack waits for %q's answer.", ev.Seq, fray.Mention(d.Name), fray.Mention(s.Waiting.Target))
		}
		t := HistoryTurn{Text: s.Order[s.Pos], Who: s.TurnWho}
		if t.Who == nil {
			t.Who = s.Order[s.Pos : s.Pos+1 : s.Pos+1]
		}
		if len(s.Turn) > 0 {
			t.Text = string(append(s.Turn, ')'))
		}
		s.note(t)
		s.Turn, s.TurnWho = s.Turn[:0], nil
		s.Pos++
		engine.TurnEdge(&s.Encounter, s.Round, d.Name, fray.EdgeEnd)
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	default:
		if handled, err := s.applyResolution(ev); handled {
			return err
		}
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, which Cinematic Unisystem does not know.", ev.Seq, ev.Type)
	}
	return nil
}

// turnSoFar returns the words of the turn in progress ready for one more
// action's: "Master (" before the first, "Master (attack on Slayer; "
// after it.
func (s *State) turnSoFar() []byte {
	if len(s.Turn) == 0 {
		if cap(s.Turn) == 0 {
			s.Turn = make([]byte, 0, 128) // room for most turns
		}
		return append(append(s.Turn, s.Current()...), " ("...)
	}
	return append(s.Turn, "; "...)
}

// say adds words, an action other than an attack or a defence, to the
// turn in progress.
func (s *State) say(words string) { s.Turn = append(s.turnSoFar(), words...) }

// appendAction appends to b an action as the history says it: "attack on
// Vamp", "Vamp defends, extra −2", "Guard defends, Full Defence's extra
// +3". Apply says one action for every event, after the turn's words so
// far (see State.Turn).
func appendAction(b []byte, typ string, d ActionData) []byte {
	if typ == EventDefence {
		b = append(append(b, d.Name...), " defends"...)
	} else {
		b = append(b, "attack"...)
	}
	if d.Other != "" {
		if typ == EventAttack {
			b = append(b, " on "...)
		} else {
			b = append(b, " against "...)
		}
		b = append(b, d.Other...)
	}
	switch d.Kind {
	case ActionExtra:
		b = append(b, ", extra"...)
	case ActionBonus:
		b = append(b, ", Full Defence's extra"...)
	}
	switch {
	case d.Modifier < 0:
		b = strconv.AppendInt(append(b, " −"...), int64(-d.Modifier), 10) // as signed does
	case d.Modifier > 0:
		b = strconv.AppendInt(append(b, " +"...), int64(d.Modifier), 10)
	}
	return b
}

func signed(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return "+" + strconv.Itoa(n)
}

// note records a turn taken in this round's history.
func (s *State) note(t HistoryTurn) {
	if n := len(s.History); n > 0 {
		s.History[n-1].Turns = append(s.History[n-1].Turns, t)
	}
}

// mention records that the words of the turn in progress name the
// combatant name, unless it is the one whose turn it is.
func (s *State) mention(name string) {
	cur := s.Current()
	switch {
	case name == "" || fray.SameName(name, cur) || engine.Index(s.TurnWho, name) >= 0:
	case s.TurnWho == nil:
		s.TurnWho = []string{cur, name}
	default:
		s.TurnWho = append(s.TurnWho, name)
	}
}

func (s *State) remove(name string) {
	if w := s.Waiting; w != nil && (fray.SameName(w.Attacker, name) || fray.SameName(w.Target, name)) {
		s.Waiting = nil
	}
	if i := slices.IndexFunc(s.Chars, func(c *Char) bool { return fray.SameName(c.Name, name) }); i >= 0 {
		s.Chars = slices.Delete(s.Chars, i, i+1)
	}
	if s.Tiebreak = engine.Without(s.Tiebreak, name); len(s.Tiebreak) == 0 {
		s.Tiebreak = nil
	}
	i := engine.Index(s.Order, name)
	if i < 0 {
		return
	}
	s.Order = slices.Delete(slices.Clone(s.Order), i, i+1) // not in place: see Order
	switch {
	case i < s.Pos:
		s.Pos--
	case i == s.Pos:
		s.Turn, s.TurnWho = s.Turn[:0], nil // the next in order begins their turn
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	}
}

// View shows the round's order by initiative with markers and each
// character's actions left, and the next round's order.
func (sys *System) View(st fray.State) fray.View {
	v := fray.View{Rules: ID, History: []fray.RoundTurns{}, Order: []fray.Slot{}}
	s, err := get(st)
	if err != nil {
		return v
	}
	v.Started, v.Round, v.Current = s.Started, s.Round, s.Current()
	v.Combatants = s.CombatantList()
	if len(s.Settings) > 0 {
		v.Settings = maps.Clone(s.Settings)
	}
	if len(s.History) > 0 {
		v.History = make([]fray.RoundTurns, len(s.History))
		for i, h := range s.History {
			v.History[i] = h.view()
		}
	}
	order := s.Order
	if !s.Started {
		order = s.rank()
	}
	for i, n := range order {
		x := fray.Slot{Name: n}
		x.Note, x.Status, x.About = s.budgetWords(n)
		switch {
		case !s.Started:
		case i < s.Pos:
			x.Markers = []string{fray.MarkActed}
		case i == s.Pos:
			x.Markers = []string{fray.MarkCurrent}
		}
		v.Order = append(v.Order, x)
	}
	if s.Started {
		for _, n := range s.rank() {
			v.Next = append(v.Next, fray.Slot{Name: n, Note: "initiative " + strconv.Itoa(s.Initiative(n))})
		}
	}
	return v
}

// view returns the round as the view shows it. Its Who stops at the last
// turn that names anyone besides its taker, and is nil in a round where
// no turn does.
func (h HistoryRound) view() fray.RoundTurns {
	r := fray.RoundTurns{Round: h.Round, Turns: make([]string, len(h.Turns))}
	last := -1
	for i, t := range h.Turns {
		r.Turns[i] = t.Text
		if len(t.Who) > 1 {
			last = i
		}
	}
	if last >= 0 {
		r.Who = make([][]string, last+1)
		for i, t := range h.Turns[:last+1] {
			r.Who[i] = slices.Clone(t.Who)
		}
	}
	return r
}

// budgetWords says a character's initiative, Life Points, conditions,
// the answer due, stance and actions left: "initiative 9, LP 40/42,
// attack, defence, 3 extra (next −2)", and the other combatants those
// words name (about). The words from Life Points on are the status, which
// players see only on a player character's slot (fray.Slot.Status); the
// note before them is the initiative alone. The slot says them in that
// order, note then status, so its words stay those of one list. A
// character without Life Points has no status: the note says it all.
func (s *State) budgetWords(name string) (note, status string, about []string) {
	ch, b := s.char(name), s.Budget(name)
	note = "initiative " + strconv.Itoa(s.Initiative(name))
	var w []string
	c := s.Find(name)
	if t, ok := c.Tracks[TrackLife]; ok {
		w = append(w, "LP "+strconv.Itoa(t.Value)+"/"+strconv.Itoa(t.Max))
	}
	for _, x := range c.Conditions {
		w = append(w, x.Name)
	}
	if x := s.waitWords(name); x != "" {
		w = append(w, x)
		about = []string{s.Waiting.Attacker}
	}
	switch ch.Stance {
	case StanceDefence:
		w = append(w, "Full Defence")
	case StanceOffence:
		w = append(w, "Full Offence")
	}
	if b.Attack {
		w = append(w, "attack")
	}
	if b.Defence {
		w = append(w, "defence")
	}
	if b.Bonus {
		w = append(w, "extra defence")
	}
	if b.Extras > 0 {
		w = append(w, strconv.Itoa(b.Extras)+" extra (next "+signed(b.Next)+")")
	}
	if !b.Attack && !b.Defence && !b.Bonus && b.Extras == 0 {
		w = append(w, "no actions left")
	}
	if _, ok := c.Tracks[TrackLife]; ok {
		return note, strings.Join(w, ", "), about
	}
	return strings.Join(append([]string{note}, w...), ", "), "", about
}

// Check reports a broken invariant of st.
func (sys *System) Check(st fray.State) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINTERNAL, "Cinematic Unisystem state: "+format, args...)
	}
	if s.Started != (s.Round >= 1) {
		return bad("started is %v in round %d", s.Started, s.Round)
	}
	if len(s.Chars) != len(s.Combatants) {
		return bad("%d combatants but %d characters", len(s.Combatants), len(s.Chars))
	}
	for i, ch := range s.Chars {
		c := s.Combatants[i]
		if !fray.SameName(ch.Name, c.Name) {
			return bad("character %d is %q, combatant %d is %q", i, ch.Name, i, c.Name)
		}
		if ch.Extras < 0 || ch.Extras > ExtraActions(c.Stat("dexterity")) {
			return bad("%s used %d extra actions with Dexterity %d", c.Name, ch.Extras, c.Stat("dexterity"))
		}
		if (ch.Stance == StanceDefence && ch.Attacked) || (ch.Stance == StanceOffence && ch.Defended) || (ch.Bonus && ch.Stance != StanceDefence) {
			return bad("%s acted against the stance %q", c.Name, ch.Stance)
		}
	}
	if s.Pos < 0 || s.Pos > len(s.Order) {
		return bad("turn %d of %d", s.Pos, len(s.Order))
	}
	if w := s.Waiting; w != nil && (s.char(w.Target) == nil || !fray.SameName(w.Attacker, s.Current())) {
		return bad("%s's attack on %s waits, but it is %q's turn", w.Attacker, w.Target, s.Current())
	}
	for i, n := range s.Order {
		if s.char(n) == nil {
			return bad("the order names %q, who is not present", n)
		}
		if engine.Index(s.Order[i+1:], n) >= 0 {
			return bad("%s has two turns in one round", n)
		}
	}
	return nil
}
