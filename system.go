package fray

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// System is one rule system's order of play and resolution: bpb, queue, vv,
// cinematic or pp. The engine (package engine) owns the event log, the
// random source, undo and redo; a System owns the rules. It is a pure,
// event-sourced state machine in three parts:
//
//   - Decide turns a command into events. It reads the state, checks the
//     command against the rules and returns the events that record what
//     happens, with every die result in Event.Rolls (rolled through the
//     Roller it is given, never through a random source of its own). It
//     must not change the state. A refusal (out of turn, an unknown name,
//     a second force in a round, an unknown key, …) is a *Error naming
//     what is wrong, usually EINVALID or ENOTFOUND; the engine then
//     records nothing.
//   - Apply changes the state by one event. It must be deterministic and
//     must not roll: applying the same events to NewState() always gives
//     the same state, which is how the engine replays a log, undoes a step
//     and imports a file. Apply is called for events Decide produced, in
//     order, and for events read back from a log; an event it cannot use
//     is an EINVALID error. Apply should be fast (the engine replays
//     thousands of events to undo a step).
//   - View shows the state: whose turn it is, this round's order with
//     markers, the next round's predicted order, and the history of turns
//     taken per round in the seeds' words.
//
// A system never sees the commands undo, redo, show, history, log and
// help: the engine handles them. It does see every other command,
// including add and remove, and handles them with the engine's shared
// helpers (engine.DecideAdd and friends) so that every system speaks the
// same command words (SPEC E-7). Options dice= and roll= are removed from
// the command before Decide is called: they feed the Roller instead.
//
// States are values of the system's own type, usually a struct that
// embeds Encounter. Clone must return a deep copy that shares no memory
// with the original, and states must be comparable with reflect.DeepEqual
// (the conformance suite in rules/rulestest checks that replaying a log,
// or undoing and redoing a step, gives a state deeply equal to the
// original). Keep maps and slices either nil or non-nil consistently
// between Clone and Apply so that the comparison holds.
//
// Check reports a broken invariant of the state (two combatants current at
// once, a turn lost and taken, …) as an EINTERNAL error; the conformance
// suite calls it after every command of its random runs.
//
// Events are made with NewEvent and read back with Event.Decode. Keep the
// payloads of frequent events flat (strings, numbers and booleans only):
// those are copied instead of decoded, which keeps Apply well under a
// microsecond. Event type names are wire strings, prefixed with the
// system's id ("bpb.delayed"), and never renamed.
//
// Every system passes the conformance suite: call
// rulestest.Run(t, func() fray.System { return New() }, scripts…) from a
// test, with scripts (such as the examples/ files) that reach its rules.
// See rules/bpb and rules/queue for complete systems.
type System interface {
	// ID returns the system's short id, such as "bpb".
	ID() string
	// Name returns the system's full name, such as "Bulletproof Blues 2e".
	Name() string
	// NewState returns the state of a new, empty encounter.
	NewState() State
	// Decide returns the events that cmd produces in st, without changing st.
	Decide(st State, cmd Command, r Roller) ([]Event, error)
	// Apply changes st by the event ev.
	Apply(st State, ev Event) error
	// View returns the order of play of st.
	View(st State) View
	// Check reports a broken invariant of st, or nil.
	Check(st State) error
	// Commands declares the commands the system accepts, the shared ones
	// included (engine.SharedDecls): the engine refuses any other word,
	// and a command whose words do not fit its declaration, before
	// Decide sees it.
	Commands() []CommandDecl
}

// State is the state of one encounter under one System. Each system
// defines its own state type; the engine only stores, clones and passes it
// back to the system.
type State interface {
	// Clone returns a deep copy of the state.
	Clone() State
}

// SheetSharer is a State whose copies may share their combatants' sheets
// (stats, tracks, powers, expertise, protection and qualities) and the
// modifiers and ends of their conditions: its system's Apply never
// changes a sheet in place but gives the combatant a new map or slice
// with the change (the writers of package rules/kit), and it replaces a
// condition whole, never its modifiers or its end in place, so
// applying events to such a copy leaves the original as it was. The
// conformance suite (rules/rulestest) checks this on every command of
// every script. Such a copy is what Decide works on and what the
// simulator applies a move's events to, many times a fight: it costs a
// fraction of Clone.
type SheetSharer interface {
	State
	// CloneSharing returns a copy of the state that shares each
	// combatant's sheet with it, and nothing else.
	CloneSharing() State
}

// SpareSharer is a SheetSharer that can make its copy in the memory of an
// earlier one, which saves the allocations of a copy made and dropped
// many times over (the exact solver's, for each way the dice fall).
type SpareSharer interface {
	SheetSharer
	// CloneSharingInto returns what CloneSharing does, made in the
	// memory of spare where it can: spare is a copy that CloneSharing or
	// CloneSharingInto made of a state of the same system, which the
	// caller owns and no longer uses, nor anything it holds; nil for
	// none.
	CloneSharingInto(spare State) State
}

// CloneForApply returns a copy of st to apply events to: one that shares
// the combatants' sheets when st is a SheetSharer, else a deep copy.
func CloneForApply(st State) State {
	if s, ok := st.(SheetSharer); ok {
		return s.CloneSharing()
	}
	return st.Clone()
}

// CloneForApplyInto is CloneForApply made in the memory of spare when st
// is a SpareSharer (see CloneSharingInto; spare may be nil).
func CloneForApplyInto(st, spare State) State {
	if s, ok := st.(SpareSharer); ok {
		return s.CloneSharingInto(spare)
	}
	return CloneForApply(st)
}

// Encounter is the part of a state every system shares: the combatants,
// the settings and the round counter. Systems embed it in their states
// and use engine's helpers to keep it up to date.
type Encounter struct {
	// Combatants lists every combatant in the order they were added.
	Combatants []*Combatant `json:"combatants"`
	// Gone lists the combatants removed from the encounter, in the order
	// they left, as they were when they left: their ids stay theirs, and
	// what players may know of them stays as it was.
	Gone []Departed `json:"gone,omitempty"`
	// Settings holds the encounter's settings by key, when changed from
	// the system's defaults with "set KEY=VALUE".
	Settings map[string]string `json:"settings,omitempty"`
	// Started reports whether the encounter has begun.
	Started bool `json:"started"`
	// Round is the current round, from 1; 0 before the start.
	Round int `json:"round"`

	// Asker is who sends the command being decided, set by the engine
	// for the length of one Decide (nil otherwise, and always in a state
	// that is stored or compared). Lookup resolves names as the asker
	// may: a player cannot name a combatant hidden from players.
	Asker *Viewer `json:"-"`
}

// Departed is what an encounter keeps of a removed combatant.
type Departed struct {
	ID     CombatantID `json:"id"`
	Name   string      `json:"name"`
	Side   string      `json:"side"`
	Hidden bool        `json:"hidden,omitempty"`
}

// Base returns e itself. A state that embeds Encounter has this method
// too, which lets the engine reach the shared part of any system's state
// (see BaseState).
func (e *Encounter) Base() *Encounter { return e }

// BaseState is a State that embeds Encounter.
type BaseState interface {
	State
	Base() *Encounter
}

// Find returns the combatant whose name is name, compared without regard
// to case, or nil. It is for names the rules hold themselves; a name a
// person typed goes through Lookup.
func (e *Encounter) Find(name string) *Combatant {
	for _, c := range e.Combatants {
		if SameName(c.Name, name) {
			return c
		}
	}
	return nil
}

// IDOf returns the id of the combatant the rules call name (a name held
// in a payload, not one a person typed: see Lookup): a present one, else
// the last to leave by that name; "" for none.
func (e *Encounter) IDOf(name string) CombatantID {
	if name == "" {
		return ""
	}
	if c := e.Find(name); c != nil {
		return c.ID
	}
	for i := len(e.Gone) - 1; i >= 0; i-- {
		if SameName(e.Gone[i].Name, name) {
			return e.Gone[i].ID
		}
	}
	return ""
}

// ByID returns the combatant with the given id, or nil.
func (e *Encounter) ByID(id CombatantID) *Combatant {
	if id == "" {
		return nil
	}
	for _, c := range e.Combatants {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// NameOf returns the name of the combatant with the given id, present or
// gone, or "" when there is none.
func (e *Encounter) NameOf(id CombatantID) string {
	if c := e.ByID(id); c != nil {
		return c.Name
	}
	for _, g := range e.Gone {
		if g.ID == id {
			return g.Name
		}
	}
	return ""
}

// Lookup returns the combatant a typed name names, or an error. It is the
// one place a name becomes a combatant (see Resolve); it resolves as
// the encounter's Asker may, and as the GM when there is none.
func (e *Encounter) Lookup(name string) (*Combatant, error) {
	v := GM
	if e.Asker != nil {
		v = *e.Asker
	}
	return e.Resolve(v, name)
}

// Resolve returns the combatant that name names for the viewer v: the one
// whose name is name exactly after Unicode NFC normalisation, else the one
// whose name is name without regard to case. A name that matches several
// combatants without regard to case, and none exactly, is refused as
// ambiguous. Only the combatants v sees are candidates, so naming a
// combatant hidden from v gets exactly the ENOTFOUND error that a name
// nobody has gets.
func (e *Encounter) Resolve(v Viewer, name string) (*Combatant, error) {
	if name == "" {
		return nil, Errorf(EINVALID, "A combatant's name is missing.")
	}
	n := NormName(name)
	// The name as it is kept (the engine keeps names normalized, and no
	// two that differ only in case), found without folding any.
	for _, c := range e.Combatants {
		if c.Name == n && v.Sees(c) {
			return c, nil
		}
	}
	var folded []*Combatant
	for _, c := range e.Combatants {
		if !v.Sees(c) {
			continue
		}
		cn := NormName(c.Name)
		if cn == n {
			return c, nil
		}
		if strings.EqualFold(cn, n) {
			folded = append(folded, c)
		}
	}
	switch len(folded) {
	case 1:
		return folded[0], nil
	case 0:
		return nil, Errorf(ENOTFOUND, "There is no combatant named %q%s", clipName(name), e.nearName(v, name))
	}
	names := make([]string, len(folded))
	for i, c := range folded {
		names[i] = strconv.Quote(c.Name)
	}
	return nil, Errorf(EINVALID, "%q names %s; give the name exactly.", clipName(name), strings.Join(names, " and "))
}

// nearName returns "; did you mean NAME?" with the name nearest to name
// among the combatants v sees (see Nearest), or "." when none is near. A
// hidden combatant is never offered, so the answer to a name near one is
// the answer to a name near nobody.
func (e *Encounter) nearName(v Viewer, name string) string {
	var names []string
	for _, c := range e.Combatants {
		if v.Sees(c) {
			names = append(names, c.Name)
		}
	}
	near := Nearest(names, name)
	if near == "" {
		return "."
	}
	if strings.ContainsAny(near, " \t\"") {
		near = strconv.Quote(near)
	}
	return "; did you mean " + near + "?"
}

// NormName returns name in Unicode normal form C, the form in which names
// are compared and kept.
func NormName(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return norm.NFC.String(name)
		}
	}
	return name // ASCII is in every normal form
}

// clipName shortens a name quoted back in a message to 64 bytes.
func clipName(s string) string { return clipTo(s, 64) }

// Setting returns the value of a setting, or def when it is not set.
func (e *Encounter) Setting(key, def string) string {
	if v, ok := e.Settings[key]; ok {
		return v
	}
	return def
}

// CloneEncounter returns a deep copy of e.
func (e *Encounter) CloneEncounter() Encounter {
	d := *e
	if e.Combatants != nil {
		d.Combatants = make([]*Combatant, len(e.Combatants))
		for i, c := range e.Combatants {
			d.Combatants[i] = c.Clone()
		}
	}
	d.Gone = slices.Clone(e.Gone)
	if e.Settings != nil {
		d.Settings = make(map[string]string, len(e.Settings))
		for k, v := range e.Settings {
			d.Settings[k] = v
		}
	}
	return d
}

// CombatantList returns copies of the combatants, for a View.
func (e *Encounter) CombatantList() []Combatant {
	out := make([]Combatant, len(e.Combatants))
	for i, c := range e.Combatants {
		out[i] = *c.Clone()
	}
	return out
}
