package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"fray"
)

// A snapshot is what an engine needs to carry on from the first Seq events
// of a log without reading them: the state they give and the shape of the
// log (which steps they hold, which are applied and which may be redone).
// A server stores one every so often (fray.Store.PutSnapshot), so that a
// long encounter loads as its snapshot and the events after it (Resume)
// rather than as every event replayed. A snapshot is a cache: when it
// cannot serve (another format, a state of another shape, a tail that
// reaches before it), the whole log is replayed instead, and the answer
// is the same.

// SnapshotFormat is the format of the snapshots Snapshot writes. It is a
// wire number: a snapshot of another format is not read (ErrStale), and
// the log is replayed instead.
const SnapshotFormat = 1

// ErrWholeLog is wrapped by the errors of an engine resumed from a
// snapshot (Resume) when what was asked needs events from before it: undo
// or redo of a step the snapshot covers, Export. Complete gives it those
// events; nothing has changed when it is returned.
var ErrWholeLog = errors.New("the events before the snapshot are needed")

// ErrStale is wrapped by Resume's error when a snapshot cannot serve:
// written in another format, for another system or for a state of another
// shape (an older fray's), or malformed. Replay the whole log instead.
var ErrStale = errors.New("the snapshot cannot serve")

// snapshotData is a snapshot as it is encoded. Its JSON names are wire
// strings: never rename one.
type snapshotData struct {
	Format int    `json:"format"`
	System string `json:"system"`
	// Shape fingerprints the Go type of the system's state (stateShape):
	// a state of another shape is never read into this one.
	Shape string `json:"shape"`
	Seq   int    `json:"seq"`
	// Steps holds the steps' spans in runs of three numbers: how many
	// steps in a row have the same shape, how many events (undo and redo)
	// stand before each one since the end of the step before it, and how
	// many events each holds. Most logs are a few runs.
	Steps []int `json:"steps"`
	// Active holds the applied steps in runs of two numbers: the first
	// step of a run of consecutive steps, and the last.
	Active []int           `json:"active"`
	Redo   []int           `json:"redo"`
	State  json.RawMessage `json:"state"`
}

// spanRuns encodes spans as snapshotData.Steps.
func spanRuns(spans []stepSpan) []int {
	var out []int
	end := 0
	for _, sp := range spans {
		gap := sp.first - end
		if k := len(out); k > 0 && out[k-2] == gap && out[k-1] == sp.n {
			out[k-3]++
		} else {
			out = append(out, 1, gap, sp.n)
		}
		end = sp.first + sp.n
	}
	return out
}

// runSpans decodes spanRuns' runs, or reports false when they are
// malformed or reach past seq events.
func runSpans(runs []int, seq int) ([]stepSpan, bool) {
	if len(runs)%3 != 0 {
		return nil, false
	}
	var out []stepSpan
	end := 0
	for i := 0; i < len(runs); i += 3 {
		count, gap, n := runs[i], runs[i+1], runs[i+2]
		if count < 1 || gap < 0 || n < 1 || count > seq || (gap+n)*count > seq-end {
			return nil, false
		}
		for range count {
			out = append(out, stepSpan{end + gap, n})
			end += gap + n
		}
	}
	return out, true
}

// stepRuns encodes a list of steps as snapshotData.Active.
func stepRuns(steps []int) []int {
	var out []int
	for _, s := range steps {
		if k := len(out); k > 0 && out[k-1]+1 == s {
			out[k-1] = s
		} else {
			out = append(out, s, s)
		}
	}
	return out
}

// runSteps decodes stepRuns' runs of steps from 1 to max, or reports
// false when they are malformed.
func runSteps(runs []int, max int) ([]int, bool) {
	if len(runs)%2 != 0 {
		return nil, false
	}
	var out []int
	for i := 0; i < len(runs); i += 2 {
		if runs[i] < 1 || runs[i] > runs[i+1] || runs[i+1] > max || runs[i+1]-runs[i] >= max {
			return nil, false
		}
		for s := runs[i]; s <= runs[i+1]; s++ {
			out = append(out, s)
		}
	}
	return out, true
}

// Snapshot encodes what the engine needs to carry on from its whole log as
// it stands (see Resume). The state is encoded as JSON: a system's state
// must keep everything in exported fields.
func (e *Engine) Snapshot() ([]byte, error) {
	st, err := json.Marshal(e.st)
	if err != nil {
		return nil, &fray.Error{Code: fray.EINTERNAL, Message: "The encounter's state could not be encoded.", Err: err}
	}
	b, err := json.Marshal(snapshotData{
		Format: SnapshotFormat, System: e.sys.ID(), Shape: stateShape(e.st),
		Seq: len(e.events), Steps: spanRuns(e.steps), Active: stepRuns(e.active), Redo: e.redo, State: st,
	})
	if err != nil {
		return nil, &fray.Error{Code: fray.EINTERNAL, Message: "The encounter's snapshot could not be encoded.", Err: err}
	}
	return b, nil
}

// Resume returns an engine for the encounter whose log begins with the
// events snap covers (see Snapshot) and goes on with tail, the events
// after them, as Replay would have it after the whole log. It reads none
// of the events before the snapshot: what needs them is refused with
// ErrWholeLog until Complete gives them. An error wrapping ErrStale or
// ErrWholeLog means the snapshot cannot serve this log: replay it whole.
func Resume(sys fray.System, rng *rand.Rand, snap []byte, tail []fray.Event) (*Engine, error) {
	// One pass decodes the state into the system's own type too: a
	// snapshot is read once, not first as raw JSON and then again.
	st := sys.NewState()
	var d struct {
		snapshotData
		State fray.State `json:"state"`
	}
	d.State = st
	if err := json.Unmarshal(snap, &d); err != nil {
		return nil, stale("it is malformed: %v", err)
	}
	switch {
	case d.Format != SnapshotFormat:
		return nil, stale("its format is %d, not %d", d.Format, SnapshotFormat)
	case d.System != sys.ID():
		return nil, stale("it is of the rules %q, not %q", d.System, sys.ID())
	case d.Shape != stateShape(st):
		return nil, stale("its state has another shape")
	case d.Seq < 1 || d.Seq > MaxEvents:
		return nil, stale("its log is malformed")
	}
	if d.State != st {
		return nil, stale("its state is missing or malformed")
	}
	e := &Engine{sys: sys, rng: rng, st: st, off: d.Seq}
	var ok bool
	if e.steps, ok = runSpans(d.Steps, d.Seq); !ok {
		return nil, stale("its steps are malformed")
	}
	if e.active, ok = runSteps(d.Active, len(e.steps)); !ok {
		return nil, stale("its applied steps are malformed")
	}
	seen := make([]bool, len(e.steps)+1)
	for _, step := range slices.Concat(e.active, d.Redo) {
		if step < 1 || step > len(e.steps) || seen[step] {
			return nil, stale("its steps are malformed")
		}
		seen[step] = true
	}
	e.redo = d.Redo
	// The events before the snapshot are not held: their places stand
	// empty, so that a step's span still indexes the log.
	e.events = make([]fray.Event, d.Seq, d.Seq+len(tail))
	e.snaps = []snapshot{{len(e.active), st.Clone()}}
	if err := e.extend(tail); err != nil {
		return nil, err
	}
	return e, nil
}

func stale(format string, args ...any) error {
	return &fray.Error{Code: fray.EINTERNAL, Message: "The encounter's snapshot cannot serve.",
		Err: fmt.Errorf("%w: %s", ErrStale, fmt.Sprintf(format, args...))}
}

func wholeLog(what string) error {
	return &fray.Error{Code: fray.EINTERNAL, Message: "The encounter's older events are needed to " + what + ".",
		Err: fmt.Errorf("%s: %w", what, ErrWholeLog)}
}

// Whole reports whether the engine holds its whole log: false for an
// engine resumed from a snapshot (Resume) until Complete.
func (e *Engine) Whole() bool { return e.off == 0 }

// Complete gives an engine resumed from a snapshot the events its
// snapshot covers, older[i] being event i+1, so that it holds its whole
// log; it replays them all and checks that they agree with the
// snapshot. For an engine that holds its whole log it does nothing. On
// error the engine is as it was.
func (e *Engine) Complete(older []fray.Event) error {
	if e.off == 0 {
		return nil
	}
	if len(older) != e.off {
		return &fray.Error{Code: fray.EINTERNAL, Message: "The encounter's older events do not match its snapshot.",
			Err: fmt.Errorf("complete: %d events for a snapshot of %d", len(older), e.off)}
	}
	full, err := Replay(e.sys, e.rng, slices.Concat(older, e.events[e.off:]))
	if err != nil {
		return err
	}
	if !slices.Equal(full.active, e.active) || !slices.Equal(full.redo, e.redo) || !slices.Equal(full.steps, e.steps) {
		return &fray.Error{Code: fray.EINTERNAL, Message: "The encounter's older events do not match its snapshot.",
			Err: errors.New("complete: the log's steps differ from the snapshot's")}
	}
	e.st, e.events, e.snaps, e.since, e.off = full.st, full.events, full.snaps, full.since, 0
	return nil
}

// Extend applies events another writer appended to the log after the
// engine's last, as Replay would have applied them at the end of the
// whole log: evs[0] must be numbered one past the engine's last event.
// On error the engine must not be used again (replay the log instead).
func (e *Engine) Extend(evs []fray.Event) error { return e.extend(evs) }

func (e *Engine) extend(evs []fray.Event) error {
	for _, ev := range evs {
		if want := len(e.events) + 1; ev.Seq != want {
			return fray.Errorf(fray.EINVALID, "Event %d is numbered %d.", want, ev.Seq)
		}
		if ev.Format < fray.FormatIDs {
			// An older event is rewritten in the light of the whole log.
			return wholeLog("read event " + strconv.Itoa(ev.Seq) + " of an older format")
		}
		if err := e.preload(&ev); err != nil {
			return err
		}
		switch ev.Type {
		case fray.EventUndo, fray.EventRedo:
			step, err := e.actedOn(ev)
			if err != nil {
				return err
			}
			if ev.Type == fray.EventUndo {
				if len(e.active)-1 < e.snaps[0].depth {
					return wholeLog("undo a step the snapshot covers")
				}
				e.active = e.active[:len(e.active)-1]
				e.redo = append(e.redo, step)
				e.events = append(e.events, ev)
				e.rebuild()
				continue
			}
			sp := e.steps[step-1]
			if sp.first < e.off {
				return wholeLog("redo a step the snapshot covers")
			}
			if err := e.applyAll(e.events[sp.first : sp.first+sp.n]); err != nil {
				return err
			}
			e.redo = e.redo[:len(e.redo)-1]
			e.active = append(e.active, step)
			e.events = append(e.events, ev)
			e.since += sp.n
		default:
			if err := e.place(ev, len(e.events)); err != nil {
				return err
			}
			if err := e.applyAll([]fray.Event{ev}); err != nil {
				return err
			}
			if !ev.Hidden && concernsHidden(e.encounter(), ev.About) {
				ev.Hidden = true
			}
			e.events = append(e.events, ev)
			e.since++
		}
		e.maybeSnap(len(e.active))
	}
	return nil
}

// applyAll applies evs to the state, as a log's events are applied.
func (e *Engine) applyAll(evs []fray.Event) error {
	for _, ev := range evs {
		if err := e.sys.Apply(e.st, ev); err != nil {
			return &fray.Error{Code: fray.EINVALID, Message: "Event " + strconv.Itoa(ev.Seq) + " (" + ev.Type + ") cannot be applied: " + fray.ErrorMessage(err), Err: err}
		}
	}
	return nil
}

// shapes caches stateShape's answers by type.
var shapes sync.Map // reflect.Type → string

// stateShape fingerprints the Go type of st: the names, kinds, JSON tags
// and element types of everything it holds, so that a snapshot of a state
// whose type has since changed is never read into the new one.
func stateShape(st fray.State) string {
	t := reflect.TypeOf(st)
	if v, ok := shapes.Load(t); ok {
		return v.(string)
	}
	var b strings.Builder
	describeType(&b, t, map[reflect.Type]bool{})
	sum := sha256.Sum256([]byte(b.String()))
	s := hex.EncodeToString(sum[:12])
	shapes.Store(t, s)
	return s
}

func describeType(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	b.WriteString(t.Kind().String())
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Array {
			fmt.Fprintf(b, "[%d]", t.Len())
		}
		b.WriteByte('(')
		describeType(b, t.Elem(), seen)
		b.WriteByte(')')
	case reflect.Map:
		b.WriteByte('(')
		describeType(b, t.Key(), seen)
		b.WriteByte(',')
		describeType(b, t.Elem(), seen)
		b.WriteByte(')')
	case reflect.Struct:
		b.WriteString(t.PkgPath() + "." + t.Name())
		if seen[t] {
			return
		}
		seen[t] = true
		b.WriteByte('{')
		for i := range t.NumField() {
			f := t.Field(i)
			fmt.Fprintf(b, "%s %q ", f.Name, f.Tag.Get("json"))
			describeType(b, f.Type, seen)
			b.WriteByte(';')
		}
		b.WriteByte('}')
	}
}
