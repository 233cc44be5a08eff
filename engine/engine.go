// Package engine is fray's event-sourced core. It turns commands into events
// through a fray.System (decide), applies events to the system's state
// (apply), keeps the log, undoes and redoes any step exactly by replaying
// the log from the nearest snapshot, and reads and writes the log as JSON
// Lines. It also holds the helpers every system shares: the command-line
// word parser, the handling of add, remove, set and note, physical dice,
// and order-of-play utilities.
package engine

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"fray"
)

// Commands the engine handles itself; a System never sees them.
const (
	CmdUndo    = "undo"    // take back the last step
	CmdRedo    = "redo"    // restore the last step taken back
	CmdShow    = "show"    // show the order of play
	CmdHistory = "history" // show the turns taken per round
	CmdLog     = "log"     // show the event log
	CmdHelp    = "help"    // list the commands
)

// The odds command (CmdOdds, in odds.go) is a query too: Do checks that
// the odds can be given and records nothing; Engine.Odds returns them.

// IsQuery reports whether the command word only reads the encounter
// (show, history, log, help, odds): Do accepts it and records nothing, and
// the caller shows what was asked for.
func IsQuery(name string) bool {
	switch name {
	case CmdShow, CmdHistory, CmdLog, CmdHelp, CmdOdds:
		return true
	}
	return false
}

// snapEvery is how many applied events may separate two snapshots of the
// state; undo replays at most this many events after the nearest one.
const snapEvery = 128

// MaxEvents is the most events one encounter's log may hold.
const MaxEvents = 1 << 20

// Engine runs one encounter under one system. It is not safe for use by
// several goroutines at once.
type Engine struct {
	sys fray.System
	rng *rand.Rand
	st  fray.State

	// Seed is written in the log's header by Export so that a resumed
	// encounter can be reproduced; the engine does not otherwise use it.
	Seed uint64

	events []fray.Event // the whole log, undo and redo included
	steps  []stepSpan   // steps[i] spans the events of step i+1
	active []int        // the applied steps, in order
	redo   []int        // undone steps that redo may restore, last on top
	snaps  []snapshot   // states after active[:depth], depth increasing
	since  int          // events applied since the last snapshot
	off    int          // events not held, before a snapshot resumed from (Resume)

	payloads map[string]any // the payload types by event type (protos)

	decls  []fray.CommandDecl // Decls(sys), read on the first command
	declAt map[string]int     // the index in decls of each command word
}

type stepSpan struct{ first, n int }

type snapshot struct {
	depth int
	st    fray.State
}

// New returns an engine for a new, empty encounter under sys that rolls
// dice with rng. The engine never uses a global random source.
func New(sys fray.System, rng *rand.Rand) *Engine {
	st := sys.NewState()
	return &Engine{sys: sys, rng: rng, st: st, snaps: []snapshot{{0, st.Clone()}}}
}

// System returns the engine's rule system.
func (e *Engine) System() fray.System { return e.sys }

// State returns the current state. The caller must not change it.
func (e *Engine) State() fray.State { return e.st }

// View returns the system's view of the current state.
func (e *Engine) View() fray.View { return e.sys.View(e.st) }

// Log returns the whole event log, undone steps and the undo and redo
// events included. The caller must not change it. An engine resumed from
// a snapshot does not hold the events it covers until Complete: its Log
// begins after them (see Whole).
func (e *Engine) Log() []fray.Event { return e.events[e.off:] }

// Steps returns how many steps are applied and how many may be redone.
func (e *Engine) Steps() (applied, redoable int) { return len(e.active), len(e.redo) }

// Applied returns the events of the applied steps in the order they
// apply: the log without the undo and redo events and without the steps
// taken back. Replaying them gives the current state. An engine that does
// not hold its whole log (Whole) leaves out the steps before its snapshot.
func (e *Engine) Applied() []fray.Event {
	var out []fray.Event
	for _, step := range e.active {
		sp := e.steps[step-1]
		if sp.first < e.off {
			continue
		}
		out = append(out, e.events[sp.first:sp.first+sp.n]...)
	}
	return out
}

// Encounter returns the shared part of the current state, or nil for a
// system whose state does not embed fray.Encounter. The caller must not
// change it.
func (e *Engine) Encounter() *fray.Encounter { return e.encounter() }

func (e *Engine) encounter() *fray.Encounter {
	if b, ok := e.st.(fray.BaseState); ok {
		return b.Base()
	}
	return nil
}

// Do carries out one command as the GM (see DoAs).
func (e *Engine) Do(cmd fray.Command) ([]fray.Event, error) { return e.DoAs(fray.GM, cmd) }

// DoAs carries out one command sent by the viewer v: it decides the
// events, applies them and appends them to the log, and returns them.
// Names in the command resolve as v may name combatants (see
// fray.Encounter.Resolve): a player naming a combatant hidden from players
// gets the answer a name nobody has gets. undo and redo are handled here;
// show, history, log and help (see IsQuery) record nothing and return no
// events. On any error the encounter is left exactly as it was.
func (e *Engine) DoAs(v fray.Viewer, cmd fray.Command) ([]fray.Event, error) {
	if enc := e.encounter(); enc != nil && !v.IsGM() {
		enc.Asker = &v
		defer func() { enc.Asker = nil }()
	}
	return e.do(cmd)
}

// Decls returns the declarations of every command the engine's system
// accepts (see Decls). The caller must not change them.
func (e *Engine) Decls() []fray.CommandDecl {
	if e.decls == nil {
		e.decls = Decls(e.sys)
		e.declAt = make(map[string]int, len(e.decls))
		for i, d := range e.decls {
			e.declAt[d.Name] = i
		}
	}
	return e.decls
}

// checkDecl refuses cmd when no declaration names its word, with the
// nearest word, or when its words do not fit its declaration
// (fray.CommandDecl.Check); it returns the declaration.
func (e *Engine) checkDecl(cmd fray.Command) (fray.CommandDecl, error) {
	ds := e.Decls()
	i, ok := e.declAt[cmd.Name]
	if !ok {
		return checkDecl(e.sys, ds, cmd) // another case, or no such word
	}
	return ds[i], ds[i].Check(cmd)
}

func (e *Engine) do(cmd fray.Command) ([]fray.Event, error) {
	if cmd.Name == "" {
		return nil, fray.Errorf(fray.EINVALID, "The command is empty.")
	}
	if own := cmd.Name == CmdUndo || cmd.Name == CmdRedo || IsQuery(cmd.Name); own && cmd.Name != CmdOdds {
		if _, err := e.checkDecl(cmd); err != nil {
			return nil, err
		}
	}
	switch {
	case cmd.Name == CmdUndo:
		return e.Undo()
	case cmd.Name == CmdRedo:
		return e.Redo()
	case cmd.Name == CmdOdds:
		_, err := e.odds(cmd)
		return nil, err
	case IsQuery(cmd.Name):
		return nil, nil
	}
	if len(e.events) >= MaxEvents {
		return nil, fray.Errorf(fray.ETOOLARGE, "The encounter's log holds %d events, the limit (MaxEvents).", MaxEvents)
	}
	text := cmd.String()
	d, err := e.checkDecl(WithoutDice(cmd))
	if err != nil {
		return nil, err
	}
	cmd.Name = d.Name // the word as declared, whatever its case
	r, cmd, err := newRoller(e.rng, cmd)
	if err != nil {
		return nil, err
	}
	evs, err := e.sys.Decide(e.st, cmd, r)
	if err != nil {
		return nil, err
	}
	if err := r.finish(cmd.Name); err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		return nil, nil
	}
	i := slices.IndexFunc(evs, func(ev fray.Event) bool { return ev.Type == stepBreak })
	if i < 0 {
		return e.commit(cmd.Name, text, evs)
	}
	if i == 0 || i == len(evs)-1 || slices.ContainsFunc(evs[i+1:], func(ev fray.Event) bool { return ev.Type == stepBreak }) {
		return nil, &fray.Error{Code: fray.EINTERNAL, Message: "The " + cmd.Name + " command split its events badly.",
			Err: fmt.Errorf("a step break at %d of %d events", i, len(evs))}
	}
	return e.commitTwo(cmd.Name, evs[i].Command, evs[:i], text, evs[i+1:])
}

// stepBreak is the type of the mark StepBreak makes; it is never recorded.
const stepBreak = "engine.step"

// StepBreak returns the mark a system's Decide puts between the events of
// two steps, when one command makes two: before it, a step of its own
// whose command text is text; after it, the command's own step. It is for
// what a command settles on its way, such as a hit still waiting for a
// defence that the next command takes: recorded as its own step ("take
// Monolith"), undoing the command does not undo the hit. At most one mark
// may stand in a command's events, with events on both sides.
func StepBreak(text string) fray.Event { return fray.Event{Type: stepBreak, Command: text} }

// commitTwo commits evs1 as a step whose command text is text1, then evs2
// as one whose text is text2; on any error the encounter is left exactly
// as it was, the first step included.
func (e *Engine) commitTwo(name, text1 string, evs1 []fray.Event, text2 string, evs2 []fray.Event) ([]fray.Event, error) {
	redo := slices.Clone(e.redo)
	nEvents, nSteps, nActive, since := len(e.events), len(e.steps), len(e.active), e.since
	first, err := e.commit(name, text1, evs1)
	if err != nil {
		return nil, err
	}
	second, err := e.commit(name, text2, evs2)
	if err != nil {
		e.events, e.steps, e.active = e.events[:nEvents], e.steps[:nSteps], e.active[:nActive]
		e.redo, e.since = redo, since
		e.rebuild()
		return nil, err
	}
	return slices.Concat(first, second), nil
}

// commit numbers evs as one new step whose command text is text, applies
// them and appends them to the log; on any error the encounter is left
// exactly as it was.
func (e *Engine) commit(name, text string, evs []fray.Event) ([]fray.Event, error) {
	step := len(e.steps) + 1
	first := len(e.events)
	for i := range evs {
		evs[i].Seq = first + i + 1
		evs[i].Step = step
		evs[i].Command = ""
	}
	evs[0].Command = text
	enc := e.encounter()
	var taken map[fray.CombatantID]bool
	about := make([]fray.CombatantID, 0, 2*len(evs))
	for i := range evs {
		if enc != nil {
			var err error
			if evs[i].Type == fray.EventAdded && taken == nil {
				taken = map[fray.CombatantID]bool{}
			}
			if about, err = stamp(enc, e.Seed, &evs[i], taken, about); err != nil {
				e.rebuild()
				return nil, &fray.Error{Code: fray.EINTERNAL, Message: "The " + name + " command produced an event that cannot be recorded.", Err: err}
			}
		}
		if err := e.sys.Apply(e.st, evs[i]); err != nil {
			e.rebuild() // put the state back as it was
			return nil, &fray.Error{Code: fray.EINTERNAL, Message: "The " + name + " command produced an event the rules cannot apply.", Err: err}
		}
		evs[i].Hidden = concernsHidden(enc, evs[i].About)
	}
	e.events = append(e.events, evs...)
	e.steps = append(e.steps, stepSpan{first, len(evs)})
	e.active = append(e.active, step)
	e.redo = e.redo[:0]
	e.since += len(evs)
	e.maybeSnap(len(e.active))
	return evs, nil
}

// concernsHidden reports whether any of the combatants about is hidden
// from players in enc, present or gone (see fray.Event.Hidden).
func concernsHidden(enc *fray.Encounter, about []fray.CombatantID) bool {
	if enc == nil {
		return false
	}
	for _, id := range about {
		if c := enc.ByID(id); c != nil {
			if c.Hidden {
				return true
			}
			continue
		}
		for _, g := range enc.Gone {
			if g.ID == id && g.Hidden {
				return true
			}
		}
	}
	return false
}

// WithoutDice returns cmd without the options dice= and roll=, which the
// Roller reads and no declaration lists: the words a declaration checks.
func WithoutDice(cmd fray.Command) fray.Command {
	_, d := cmd.Opts[OptDice]
	_, r := cmd.Opts[OptRoll]
	if !d && !r {
		return cmd
	}
	cmd.Opts = maps.Clone(cmd.Opts)
	delete(cmd.Opts, OptDice)
	delete(cmd.Opts, OptRoll)
	return cmd
}

// Undo takes back the last applied step and returns the EventUndo event
// that records it.
func (e *Engine) Undo() ([]fray.Event, error) {
	if len(e.active) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "There is nothing to undo.")
	}
	if len(e.active)-1 < e.snaps[0].depth {
		return nil, wholeLog("undo a step the snapshot covers")
	}
	step := e.active[len(e.active)-1]
	ev, err := e.meta(fray.EventUndo, step)
	if err != nil {
		return nil, err
	}
	e.active = e.active[:len(e.active)-1]
	e.redo = append(e.redo, step)
	e.events = append(e.events, ev)
	e.rebuild()
	return []fray.Event{ev}, nil
}

// Redo restores the last undone step and returns the EventRedo event that
// records it. A new command clears what can be redone.
func (e *Engine) Redo() ([]fray.Event, error) {
	if len(e.redo) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "There is nothing to redo.")
	}
	step := e.redo[len(e.redo)-1]
	sp := e.steps[step-1]
	if sp.first < e.off {
		return nil, wholeLog("redo a step the snapshot covers")
	}
	ev, err := e.meta(fray.EventRedo, step)
	if err != nil {
		return nil, err
	}
	for _, x := range e.events[sp.first : sp.first+sp.n] {
		if err := e.sys.Apply(e.st, x); err != nil {
			e.rebuild()
			return nil, &fray.Error{Code: fray.EINTERNAL, Message: "A step cannot be redone.", Err: err}
		}
	}
	e.redo = e.redo[:len(e.redo)-1]
	e.active = append(e.active, step)
	e.events = append(e.events, ev)
	e.since += sp.n
	e.maybeSnap(len(e.active))
	return []fray.Event{ev}, nil
}

func (e *Engine) meta(typ string, step int) (fray.Event, error) {
	if len(e.events) >= MaxEvents {
		return fray.Event{}, fray.Errorf(fray.ETOOLARGE, "The encounter's log holds %d events, the limit (MaxEvents).", MaxEvents)
	}
	ev, err := fray.NewEvent(typ, fray.StepData{Step: step})
	ev.Seq, ev.Format = len(e.events)+1, fray.FormatIDs
	return ev, err
}

// maybeSnap takes a snapshot of the state after the first depth applied
// steps when enough events have been applied since the last one.
func (e *Engine) maybeSnap(depth int) {
	if e.since >= snapEvery {
		e.snaps = append(e.snaps, snapshot{depth, e.st.Clone()})
		e.since = 0
	}
}

// rebuild recomputes the state from the nearest snapshot at or below the
// applied steps, dropping the snapshots above them.
func (e *Engine) rebuild() {
	n := len(e.snaps)
	for n > 1 && e.snaps[n-1].depth > len(e.active) {
		n--
	}
	e.snaps = e.snaps[:n]
	s := e.snaps[n-1]
	e.st = s.st.Clone()
	e.since = 0
	for _, step := range e.active[s.depth:] {
		sp := e.steps[step-1]
		for _, ev := range e.events[sp.first : sp.first+sp.n] {
			// The events were applied before, so they apply again.
			_ = e.sys.Apply(e.st, ev)
		}
		e.since += sp.n
	}
}
