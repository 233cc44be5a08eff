package vv

import (
	"maps"
	"slices"

	"fray"
	"fray/rules/kit"
)

// Settings of a V&V encounter, changed with "set KEY=VALUE". Each switches
// one of the "-B." house rules (the default) to the rules as written.
const (
	SetHeld     = "held"     // V-3: house (saved to the next action, across turns) or raw (within the turn)
	SetSurprise = "surprise" // V-4: house (halved initiative, early actions lost) or raw (no actions on turn 1)
	SetMovement = "movement" // V-6: house (Move Rate per action, one carry) or raw (spread at will)
	// SetTies is V-2: house (equal Agility acts simultaneously, listed by
	// Move Rate, the GM's order, then a die toss, the blows landing
	// together) or raw (Agility, then the GM's order, then a die toss,
	// one after another, without Move Rate).
	SetTies = "ties"
)

// Values of the settings.
const (
	House = "house" // the "-B." house rule, the default
	RAW   = "raw"   // the rules as written
)

// Stats a V&V combatant may be added with. Agility sets initiative, move is
// the Move Rate in inches per turn and power the Power score; the others are
// kept for the GM and the to-hit and damage rules.
var stats = []string{"agility", "move", "power", "strength", "endurance", "intelligence", "charisma", "level", "hits"}

// PhaseStep is the number of phases between two actions of one character
// in a turn (V-1).
const PhaseStep = 15

// ExtraActionCost is the Power each action after the first in a turn costs
// (V-1), and the cost of an off-phase facing change or drop to prone (V-7).
const ExtraActionCost = 2

// Statuses of a slot in a turn's schedule. They are wire strings.
const (
	slotPending = ""        // still to come
	slotCurrent = "current" // reached: its owner is acting (or has been interrupted)
	slotActed   = "acted"   // the action was taken on its phase
	slotPassed  = "passed"  // the phase went by without an action (declined)
	slotHeld    = "held"    // the action was saved for later (V-3)
	slotLost    = "lost"    // lost to surprise (V-4)
)

// Slot is one action phase of one character in the current turn.
type Slot struct {
	Phase  int              `json:"phase"`            // the phase counted
	ID     fray.CombatantID `json:"id"`               // who acts on it
	Status string           `json:"status,omitempty"` // pending (""), current, acted, passed, held or lost
	// Nth counts the character's action phases this turn, from 1.
	Nth int `json:"nth"`
	// Tied reports that another character with the same Agility acts on
	// the same phase: the two act simultaneously (V-2).
	Tied bool `json:"tied,omitempty"`
	// Group numbers, from 1 in each turn, the characters acting
	// simultaneously on one phase (the tied slots of one Agility, under
	// ties=house); 0 for a slot acting alone.
	Group int `json:"group,omitempty"`
}

// Blow is the damage of an attack made by a character acting
// simultaneously with others (V-2): it lands on its target
// when the last of them is done (AttackData.Simultaneous).
type Blow struct {
	Who fray.CombatantID `json:"name"` // the target
	By  fray.CombatantID `json:"by"`   // the attacker
	// Phase and Group say where the attack was made (Slot.Group).
	Phase int `json:"phase"`
	Group int `json:"group"`
	// ToHits and ToPower are the damage to Hit Points and to Power.
	ToHits  int `json:"to_hits,omitempty"`
	ToPower int `json:"to_power,omitempty"`
}

// Hold is an action saved for later (V-3).
type Hold struct {
	// Turn and Phase say where the action was saved.
	Turn  int `json:"turn"`
	Phase int `json:"phase"`
	// Performed counts the actions its owner performed in Turn; it is
	// frozen when that turn ends, and decides whether using the hold costs
	// Power.
	Performed int `json:"performed"`
	// Move is the inches its owner had left to move in the phase it was
	// saved in, frozen with Performed, and less what they move with it in
	// a later turn: the move a held action carried into the next turn has
	// (V-3, V-6, house rules).
	Move int `json:"move,omitempty"`
}

// Activation is what a character has done since they last began acting:
// on their own phase or with a held action.
type Activation struct {
	Moved bool  `json:"moved,omitempty"` // moved before acting
	Acted bool  `json:"acted,omitempty"` // took the action
	After bool  `json:"after,omitempty"` // moved after acting
	Hold  *Hold `json:"hold,omitempty"`  // the held action being used, when interrupting
	Cost  int   `json:"cost,omitempty"`  // the Power the action cost
	// Inches is how far the character moved before acting, which adds to
	// the range of an attack made with the action (V-9).
	Inches int `json:"inches,omitempty"`
	// Open reports that the action was just saved with the turn kept
	// open for conditions (HeldData.Open): finishing does not end the
	// turn; using the action or its lapse does (V-3, E-4).
	Open bool `json:"open,omitempty"`
}

// Char is the V&V bookkeeping of one combatant.
type Char struct {
	// ID is the combatant's id.
	ID fray.CombatantID `json:"id"`
	// Victim marks an ambush victim who failed to notice (V-4).
	Victim bool `json:"victim,omitempty"`
	// Die is a physical initiative die entered for the next roll, 0 if none.
	Die int `json:"die,omitempty"`
	// Upkeep is the Power spent between turns (V-5).
	Upkeep int `json:"upkeep,omitempty"`
	// Spent is the Power spent so far in the encounter.
	Spent int `json:"spent,omitempty"`
	// PowerLost is the damage taken to Power by rolling with the punch
	// (V-13).
	PowerLost int `json:"power_lost,omitempty"`
	// Init is this turn's initiative total, Rolled whether one was rolled
	// and Halved whether surprise halved it.
	Init   int  `json:"init"`
	Rolled bool `json:"rolled,omitempty"`
	Halved bool `json:"halved,omitempty"`
	// Actions counts the action phases received this turn (lost ones
	// excluded), Performed the actions taken this turn.
	Actions   int `json:"actions"`
	Performed int `json:"performed"`
	// ActedPhase is the phase of this turn on which the character last
	// took an action, 0 if none.
	ActedPhase int `json:"acted_phase,omitempty"`
	// Held lists the saved actions, oldest first (house rule: at most one).
	Held []Hold `json:"held,omitempty"`
	// Movement (V-6). Allot is the Move Rate per action this turn;
	// PhaseMove the inches available in the latest own phase reached and
	// PhaseUsed the inches used of it; Reached the number of that phase
	// among the character's phases; Moved the inches moved this turn.
	Allot     int `json:"allot"`
	PhaseMove int `json:"phase_move"`
	PhaseUsed int `json:"phase_used"`
	Reached   int `json:"reached"`
	Moved     int `json:"moved"`
	// Act is the current or interrupted activation.
	Act Activation `json:"act"`
	// FacingPhase is the phase of this turn of the last off-phase facing
	// change (V-7), 0 if none.
	FacingPhase int `json:"facing_phase,omitempty"`
	// Facing is the direction last named with facing, if any.
	Facing string `json:"facing,omitempty"`
	// Prone reports that the character lies prone; they get up only on
	// their own phase (V-7).
	Prone bool `json:"prone,omitempty"`
}

// Key returns the id of the character's combatant (kit.Keyed).
func (c *Char) Key() fray.CombatantID { return c.ID }

// State is the state of a V&V encounter. Encounter.Round counts turns.
type State struct {
	fray.Encounter
	// Chars holds each combatant's bookkeeping, in the order added.
	Chars []*Char
	// Tiebreak is the GM's order for characters tied on Agility and Move
	// Rate (V-2), set with the order command; it applies from the next
	// turn rolled.
	Tiebreak []fray.CombatantID
	// Ties holds this turn's tie rolls by combatant, for characters tied
	// on Agility and Move Rate whom Tiebreak does not order.
	Ties map[fray.CombatantID]int
	// Sched is this turn's action phases, in the order they are taken.
	Sched []Slot
	// Cur is the index in Sched of the slot in progress; len(Sched) when
	// the turn's phases are over.
	Cur int
	// Intr lists the characters interrupting with held actions now; the
	// first is acting (V-3).
	Intr []fray.CombatantID
	// IntrPhase is the phase the interrupters act on when it is one where
	// nobody else acts (InterruptData.Phase); 0 for the slot's.
	IntrPhase int
	// Pending holds the blows of the simultaneous group acting now, in
	// the order struck, to land when its last member is done (V-2).
	Pending []Blow
	// History holds the actions taken in each turn before the latest, in
	// chunks of historyChunk turns (the last may hold fewer), and Latest
	// those of the latest turn begun (Round 0 before the first). They are
	// kept by id and put into words when viewed (see TurnLog.view), so
	// that every turn shows its combatants' names as they are now. A
	// turn in History is never changed again, so copies of the state
	// share its chunks (see clone and pushHistory).
	History [][]TurnLog
	Latest  TurnLog
}

// TurnLog is the history of one turn: the actions taken, in order.
type TurnLog struct {
	Round int
	Turns []Turn
}

// Turn is one entry of a turn's history: who did what. View puts it into
// the words a table says (see Turn.appendWords), with its combatants'
// names as they are when viewed.
type Turn struct {
	// Who is the combatant who took it.
	Who fray.CombatantID
	// What is the kind of entry (turn*).
	What uint8
	// Taken reports, of a held action used, that the action was taken.
	Taken bool
	// Phase is the phase it was on (0 for none); Power the Power it cost,
	// was spent or paid as upkeep, or the damage to Power of a blow that
	// landed, Hits its damage to Hit Points.
	Phase int
	Power int
	Hits  int
	// By is the attacker of a blow that landed.
	By fray.CombatantID
	// HoldTurn and HoldPhase say where a held action was saved.
	HoldTurn  int
	HoldPhase int
	// Said is the note of Power spent and whom it mentions; nil for none.
	// It is never changed once made, so copies of the state share it.
	Said *Said
}

// Said is a note someone typed, as typed, and the other combatants it
// mentions.
type Said struct {
	Note  string
	About []fray.CombatantID
}

// Kinds of Turn (Turn.What).
const (
	turnActed    uint8 = iota // acted on their phase: "Ann (36)", "Ann (21, 2 Power)"
	turnHeld                  // saved the action: "Ann (36, held)"
	turnDeclined              // let the phase go: "Ann (36, declined)"
	turnLost                  // lost to surprise: "Ann (36, lost to surprise)"
	turnUsed                  // used a held action: "Ann (30, held action from phase 36)"
	turnKept                  // put a held action back: "Ann (30, held action kept)"
	turnLapsed                // a held action lapsed (house rule): "Ann (held action from phase 36 lapsed)"
	turnEndLost               // a held action lost at the turn's end (as written)
	turnUpkeep                // paid upkeep: "Ann (upkeep, 2 Power)"
	turnUnpaid                // an upkeep not paid, which ends
	turnSpent                 // spent Power: "Ann (3 Power spent on phase 30: Force Field)"
	turnLanded                // a simultaneous blow landed: "Ann (6 Hit Points from Bo's attack on phase 20, …)"
)

// historyChunk is how many turns a chunk of State.History holds when
// full; the first grows to it from firstChunk, as a slice grows.
const (
	historyChunk = 128
	firstChunk   = 16
)

// pushHistory moves the latest turn, if any, to the history, when the
// next one begins. A chunk with no room left, because it is shared with
// another state (see clone) or not yet grown to historyChunk, is copied
// into a larger one before it is appended to; a full one is followed by
// a new one.
func (s *State) pushHistory() {
	if s.Latest.Round == 0 {
		return
	}
	n := len(s.History)
	switch {
	case n == 0:
		s.History = make([][]TurnLog, 1, 8)
		s.History[0] = make([]TurnLog, 0, firstChunk)
		n = 1
	case len(s.History[n-1]) == historyChunk:
		s.History = append(s.History, make([]TurnLog, 0, historyChunk))
		n++
	case len(s.History[n-1]) == cap(s.History[n-1]):
		last := s.History[n-1]
		s.History[n-1] = append(make([]TurnLog, 0, min(historyChunk, max(firstChunk, 2*len(last)))), last...)
	}
	s.History[n-1] = append(s.History[n-1], s.Latest)
}

func newState() *State { return &State{Ties: map[fray.CombatantID]int{}} }

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State { return kit.Clone(s) }

// CloneSharing returns a copy of the state that shares the combatants'
// sheets with it (fray.SheetSharer).
func (s *State) CloneSharing() fray.State { return kit.Scratch(s) }

// CloneSharingInto is CloneSharing made in the memory of spare
// (fray.SpareSharer).
func (s *State) CloneSharingInto(spare fray.State) fray.State { return kit.ScratchSpare(s, spare) }

// working returns a copy of the state for Decide to decide a command on
// and drop, made as kit.ScratchInto makes it in d (nil for none), whose
// latest turn holds none of the entries before the command: nobody reads
// the history of such a copy, and the first entry recorded after those,
// which the copy shares with the state, would copy them all.
func (s *State) working(d *State) *State {
	w := kit.ScratchInto(s, d)
	w.Latest.Turns = nil
	return w
}

// CopyRest copies all of the state but its encounter into d, in the
// memory d has where it has room (none, for a new state): kit.Copyable.
func (s *State) CopyRest(d *State) {
	d.Tiebreak = kit.CloneInto(d.Tiebreak, s.Tiebreak)
	d.Sched = kit.CloneInto(d.Sched, s.Sched)
	d.Cur = s.Cur
	d.Intr = kit.CloneInto(d.Intr, s.Intr)
	d.IntrPhase = s.IntrPhase
	d.Pending = kit.CloneInto(d.Pending, s.Pending)
	if d.Ties == nil {
		d.Ties = make(map[fray.CombatantID]int, len(s.Ties))
	} else {
		clear(d.Ties)
	}
	maps.Copy(d.Ties, s.Ties)
	d.Chars = kit.CloneEachInto(d.Chars, s.Chars, func(c *Char) {
		c.Held = slices.Clone(c.Held)
		if c.Act.Hold != nil {
			h := *c.Act.Hold
			c.Act.Hold = &h
		}
	})
	// The turns before the latest are never changed again, so the copy
	// shares their chunks: only the list of chunks is copied, with the
	// last capped at its length, so that each state copies it before
	// appending (pushHistory). The latest turn's entries are only ever
	// appended to, never changed (nor the notes they point to), so the
	// copy shares them too, capped at their length (record).
	d.History = kit.CloneInto(d.History, s.History)
	if n := len(d.History); n > 0 {
		d.History[n-1] = slices.Clip(d.History[n-1])
	}
	d.Latest = TurnLog{Round: s.Latest.Round, Turns: slices.Clip(s.Latest.Turns)}
}

// char returns the bookkeeping of the combatant id, or nil.
func (s *State) char(id fray.CombatantID) *Char { return kit.Find(s.Chars, id) }

// combatant returns the combatant id and their bookkeeping, or nils.
func (s *State) combatant(id fray.CombatantID) (*fray.Combatant, *Char) {
	for i, ch := range s.Chars {
		if ch.ID == id {
			if i < len(s.Combatants) && s.Combatants[i].ID == id {
				return s.Combatants[i], ch
			}
			return s.ByID(id), ch
		}
	}
	return nil, nil
}

// Current returns the name of the character acting now, or "".
func (s *State) Current() string {
	if id := s.current(); id != "" {
		return s.NameOf(id)
	}
	return ""
}

// current returns the id of the character acting now, or "".
func (s *State) current() fray.CombatantID {
	if !s.Started {
		return ""
	}
	if len(s.Intr) > 0 {
		return s.Intr[0]
	}
	if s.Cur < len(s.Sched) {
		return s.Sched[s.Cur].ID
	}
	return ""
}

// Phase returns the phase being counted, or 0 when the turn's phases are
// over: the phase held actions are used on, when it is one where nobody
// else acts (V-3), else the phase of the slot in progress.
func (s *State) Phase() int {
	if s.Started && len(s.Intr) > 0 && s.IntrPhase > 0 {
		return s.IntrPhase
	}
	if s.Started && s.Cur < len(s.Sched) {
		return s.Sched[s.Cur].Phase
	}
	return 0
}

// Phases returns the named character's action phases this turn, highest
// first, lost ones included.
func (s *State) Phases(name string) []int {
	c := s.Find(name)
	if c == nil {
		return nil
	}
	var out []int
	for _, sl := range s.Sched {
		if sl.ID == c.ID {
			out = append(out, sl.Phase)
		}
	}
	return out
}

// Power returns the named character's current Power: the power stat (or a
// sheet's power track) less the Power spent and the damage rolled with
// (V-13).
func (s *State) Power(name string) int {
	if c := s.Find(name); c != nil {
		return s.power(c)
	}
	return 0
}

// power returns the combatant's current Power (see Power).
func (s *State) power(c *fray.Combatant) int {
	ch := s.char(c.ID)
	if ch == nil {
		return 0
	}
	base, ok := c.Stats["power"]
	if !ok {
		base = c.Tracks[TrackPower].Value
	}
	return base - ch.Spent - ch.PowerLost
}

// MoveLeft returns how many inches the named character may still move now
// under the encounter's movement rule (V-6).
func (s *State) MoveLeft(name string) int {
	if c := s.Find(name); c != nil {
		return s.moveLeft(c.ID)
	}
	return 0
}

// moveLeft returns how many inches the combatant id may still move now
// (see MoveLeft).
func (s *State) moveLeft(id fray.CombatantID) int {
	c, ch := s.combatant(id)
	if c == nil || ch == nil || !s.Started {
		return 0
	}
	if s.Setting(SetMovement, House) == RAW {
		return max(0, moveRate(c)-ch.Moved)
	}
	if h := ch.Act.Hold; h != nil && h.Turn != s.Round {
		return max(0, h.Move) // carried from an earlier turn (V-3)
	}
	return max(0, ch.PhaseMove-ch.PhaseUsed)
}

// Holding returns how many held actions the named character has.
func (s *State) Holding(name string) int {
	if c := s.Find(name); c != nil {
		if ch := s.char(c.ID); ch != nil {
			return len(ch.Held)
		}
	}
	return 0
}

// tracksPower reports whether the combatant's Power is tracked: whether
// they were added with a power stat or have a sheet's power track.
func tracksPower(c *fray.Combatant) bool {
	if _, ok := c.Stats["power"]; ok {
		return true
	}
	_, ok := c.Tracks[TrackPower]
	return ok
}

// moveRate is the combatant's Move Rate in inches per turn: the move stat
// of add, or a sheet's moverate.
func moveRate(c *fray.Combatant) int {
	if v, ok := c.Stats["move"]; ok {
		return v
	}
	return c.Stats["moverate"]
}
