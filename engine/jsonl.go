package engine

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"

	"fray"
)

// The log's JSON Lines format: a header line, then one event per line.
// These are wire strings: never rename one.
const (
	// LogSchema names the format in the header's "schema" field.
	LogSchema = "fray.log"
	// LogVersion is the format's version; Import refuses a newer one.
	//
	// Version 2 gives every combatant an id (fray.Combatant.ID, in the
	// added event) and every event the ids it concerns (fray.Event.About).
	// A version 1 log still imports: each combatant gets an id derived
	// from the event that added it (the same at every import), and its
	// events, which declare nothing, are the GM's alone.
	//
	// Version 3 identifies combatants by id in events' payloads too
	// (every field declared fray.TagWho) and says whom a roll is for
	// (fray.Roll.Who); each event carries its format (fray.Event.Format).
	// Events of versions 1 and 2 are rewritten into it as they are read
	// (see Upgrade), so a version 3 log may begin with older events.
	LogVersion = 3
)

// MaxLogLine is the longest line Import reads, in bytes.
const MaxLogLine = 1 << 20

// Header is the first line of an exported log.
type Header struct {
	Schema  string `json:"schema"`
	Version int    `json:"version"`
	Rules   string `json:"rules"`
	Seed    uint64 `json:"seed,omitempty"`
}

// Export writes the whole log as JSON Lines: a Header line, then every
// event, undone steps and undo and redo events included.
func (e *Engine) Export(w io.Writer) error {
	if e.off > 0 {
		return wholeLog("export the log")
	}
	bw := bufio.NewWriter(w)
	if err := WriteHeader(bw, Header{Schema: LogSchema, Version: LogVersion, Rules: e.sys.ID(), Seed: e.Seed}); err != nil {
		return err
	}
	if err := WriteEvents(bw, e.events); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteHeader writes h as one JSON line.
func WriteHeader(w io.Writer, h Header) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteEvents writes each event as one JSON line.
func WriteEvents(w io.Writer, evs []fray.Event) error {
	for _, ev := range evs {
		b, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// Import reads a log written by Export and returns an engine whose state is
// rebuilt by applying it under sys, without rolling any die. sys must be
// the system the log names. When rng is nil, the engine continues with a
// source seeded from the header's seed and the log's length.
func Import(r io.Reader, sys fray.System, rng *rand.Rand) (*Engine, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLogLine)
	line := 0
	bad := func(format string, args ...any) error {
		e := fray.Errorf(fray.EINVALID, format, args...)
		e.Message = "Log line " + strconv.Itoa(line) + ": " + e.Message
		return e
	}
	var h Header
	var evs []fray.Event
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		if line == 1 {
			if err := json.Unmarshal(b, &h); err != nil || h.Schema != LogSchema {
				return nil, bad("the log does not start with a %s header.", LogSchema)
			}
			if h.Version < 1 || h.Version > LogVersion {
				return nil, bad("the log's format version %d is not supported (this fray reads up to %d).", h.Version, LogVersion)
			}
			if h.Rules != sys.ID() {
				return nil, bad("the log is for the rules %q, not %q.", h.Rules, sys.ID())
			}
			continue
		}
		if len(evs) >= MaxEvents {
			return nil, fray.Errorf(fray.ETOOLARGE, "The log holds more than %d events (MaxEvents).", MaxEvents)
		}
		ev, err := DecodeEvent(b)
		if err != nil {
			return nil, bad("this is not an event.")
		}
		if ev.Seq != len(evs)+1 {
			return nil, bad("event number %d is out of sequence; expected %d.", ev.Seq, len(evs)+1)
		}
		if h.Version < 2 {
			undeclared(&ev)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fray.Errorf(fray.ETOOLARGE, "Log line %d is longer than %d bytes (MaxLogLine).", line+1, MaxLogLine)
		}
		return nil, &fray.Error{Code: fray.EINVALID, Message: "The log could not be read.", Err: err}
	}
	if line == 0 {
		return nil, fray.Errorf(fray.EINVALID, "The log is empty.")
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(h.Seed, uint64(len(evs))))
	}
	e := New(sys, rng)
	e.Seed = h.Seed
	if err := e.load(evs); err != nil {
		return nil, err
	}
	return e, nil
}

// Replay returns an engine rebuilt from events (as returned by Log) under
// sys, without rolling any die. The engine keeps evs as its log,
// rewriting events older than format 3 (see Upgrade) and marking those
// that concerned a hidden combatant (fray.Event.Hidden) where an older log
// did not.
func Replay(sys fray.System, rng *rand.Rand, evs []fray.Event) (*Engine, error) {
	e := New(sys, rng)
	if err := e.load(evs); err != nil {
		return nil, err
	}
	return e, nil
}

// load checks the structure of a whole log, works out which steps are
// applied, and applies them. Events older than format 3 are rewritten
// into it first (Upgrade).
func (e *Engine) load(evs []fray.Event) error {
	for _, ev := range evs {
		if ev.Format < fray.FormatIDs {
			if err := Upgrade(e.sys, evs); err != nil {
				return err
			}
			break
		}
	}
	for i := range evs {
		if err := e.preload(&evs[i]); err != nil {
			return err
		}
	}
	for i, ev := range evs {
		if ev.Seq != i+1 {
			return fray.Errorf(fray.EINVALID, "Event %d is numbered %d.", i+1, ev.Seq)
		}
		switch ev.Type {
		case fray.EventUndo, fray.EventRedo:
			step, err := e.actedOn(ev)
			if err != nil {
				return err
			}
			if ev.Type == fray.EventUndo {
				e.active = e.active[:len(e.active)-1]
				e.redo = append(e.redo, step)
			} else {
				e.redo = e.redo[:len(e.redo)-1]
				e.active = append(e.active, step)
			}
		default:
			if err := e.place(ev, i); err != nil {
				return err
			}
		}
	}
	e.events = evs
	for depth, step := range e.active {
		sp := e.steps[step-1]
		for i := sp.first; i < sp.first+sp.n; i++ {
			ev := evs[i]
			if err := e.sys.Apply(e.st, ev); err != nil {
				e.reset()
				return &fray.Error{Code: fray.EINVALID, Message: "Event " + strconv.Itoa(ev.Seq) + " (" + ev.Type + ") cannot be applied: " + fray.ErrorMessage(err), Err: err}
			}
			// A log written before events recorded it learns here which
			// concerned a hidden combatant (a recorded mark stays).
			if !ev.Hidden && concernsHidden(e.encounter(), ev.About) {
				evs[i].Hidden = true
			}
		}
		e.since += sp.n
		// Snapshots serve undo, which goes back from the end: far from
		// the end they are taken eight times less often.
		if left := len(evs) - (sp.first + sp.n); left > 16*snapEvery && e.since < 8*snapEvery {
			continue
		}
		e.maybeSnap(depth + 1)
	}
	return nil
}

// actedOn returns the step the undo or redo event ev acts on, checking
// that it is the last applied step (undo) or the last undone one (redo).
func (e *Engine) actedOn(ev fray.Event) (int, error) {
	var d fray.StepData
	if err := ev.Decode(&d); err != nil {
		return 0, err
	}
	if ev.Type == fray.EventUndo {
		if len(e.active) == 0 || e.active[len(e.active)-1] != d.Step {
			return 0, fray.Errorf(fray.EINVALID, "Event %d undoes step %d, which is not the last applied step.", ev.Seq, d.Step)
		}
	} else if len(e.redo) == 0 || e.redo[len(e.redo)-1] != d.Step {
		return 0, fray.Errorf(fray.EINVALID, "Event %d redoes step %d, which is not the last undone step.", ev.Seq, d.Step)
	}
	return d.Step, nil
}

// place counts ev, the event at index i of the log, in its step: the
// first of a new step (which clears what may be redone) or the next of
// the last one.
func (e *Engine) place(ev fray.Event, i int) error {
	switch {
	case ev.Step == len(e.steps)+1:
		e.steps = append(e.steps, stepSpan{i, 1})
		e.active = append(e.active, ev.Step)
		e.redo = e.redo[:0]
	case ev.Step == len(e.steps) && ev.Step > 0 && e.steps[ev.Step-1].first+e.steps[ev.Step-1].n == i:
		e.steps[ev.Step-1].n++
	default:
		return fray.Errorf(fray.EINVALID, "Event %d belongs to step %d, out of sequence.", ev.Seq, ev.Step)
	}
	return nil
}

func (e *Engine) reset() {
	e.st = e.sys.NewState()
	e.events, e.steps, e.active, e.redo = nil, nil, nil, nil
	e.snaps = []snapshot{{0, e.st.Clone()}}
	e.since = 0
}

// undeclared marks an event of a version 1 log, which declares nothing,
// as the GM's alone (fray.AboutUndeclared), unless it is one of the events
// that concern nobody.
func undeclared(ev *fray.Event) {
	switch ev.Type {
	case fray.EventUndo, fray.EventRedo, fray.EventSet:
		ev.About = nil
	default:
		ev.About = []fray.CombatantID{fray.AboutUndeclared}
	}
}
