package rulestest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"

	"fray"
	"fray/engine"
)

// CheckSnapshots plays the script s and checks that an engine resumed
// from a snapshot taken after any of its commands (engine.Snapshot,
// engine.Resume) with the rest of the log is the engine that replays the
// whole log: the same state, view, steps and next snapshot; that undoing
// every step from there agrees step by step, the resumed engine asking
// for the older events (engine.ErrWholeLog) only when a step reaches
// before its snapshot, and carrying on once given them (Complete); and
// that a command after the resume gives the same events.
func CheckSnapshots(newSystem func() fray.System, s Script) error {
	e := engine.New(newSystem(), rand.New(rand.NewPCG(7, 11)))
	var cuts []int
	for i, line := range strings.Split(s.Text, "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			return fmt.Errorf("line %d: %v", i+1, err)
		}
		if cmd.Name == "" {
			continue
		}
		if evs, err := e.Do(cmd); err == nil && len(evs) > 0 {
			cuts = append(cuts, len(e.Log()))
		}
	}
	log := e.Log()
	if len(cuts) == 0 {
		return fmt.Errorf("%s records no event", s.Name)
	}
	// A handful of cuts spread over the script, the last one included.
	var picked []int
	for q := 1; q <= 6; q++ {
		c := cuts[q*(len(cuts)-1)/6]
		if len(picked) == 0 || picked[len(picked)-1] != c {
			picked = append(picked, c)
		}
	}
	for _, cut := range picked {
		if err := checkSnapshotAt(newSystem, log, cut); err != nil {
			return fmt.Errorf("%s, resumed after event %d of %d: %v", s.Name, cut, len(log), err)
		}
	}
	return nil
}

func checkSnapshotAt(newSystem func() fray.System, log []fray.Event, cut int) error {
	replay := func(evs []fray.Event) (*engine.Engine, error) {
		return engine.Replay(newSystem(), rand.New(rand.NewPCG(3, uint64(len(evs)))), clone(evs))
	}
	head, err := replay(log[:cut])
	if err != nil {
		return fmt.Errorf("replay the head: %v", err)
	}
	snap, err := head.Snapshot()
	if err != nil {
		return fmt.Errorf("snapshot: %v", err)
	}
	whole, err := replay(log)
	if err != nil {
		return fmt.Errorf("replay: %v", err)
	}
	r, err := engine.Resume(newSystem(), rand.New(rand.NewPCG(3, uint64(len(log)))), snap, clone(log[cut:]))
	if errors.Is(err, engine.ErrWholeLog) {
		// The tail redoes or undoes a step the snapshot covers: a server
		// replays the whole log then. Check that it says so truly.
		if !reachesBack(log, cut) {
			return fmt.Errorf("resume asks for the whole log, but the rest of the log stays after the snapshot: %v", err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("resume: %v", err)
	}
	if r.Whole() {
		return fmt.Errorf("a resumed engine says it holds its whole log")
	}
	if err := checkSnapshotUndone(replay, log[:cut]); err != nil {
		return err
	}
	for undone := 0; ; undone++ {
		if err := sameEngines(whole, r); err != nil {
			return fmt.Errorf("after %d undos: %v", undone, err)
		}
		if a, _ := whole.Steps(); a == 0 {
			break
		}
		if _, err := whole.Do(fray.Command{Name: engine.CmdUndo}); err != nil {
			return fmt.Errorf("undo the replayed engine: %v", err)
		}
		_, err := r.Do(fray.Command{Name: engine.CmdUndo})
		if errors.Is(err, engine.ErrWholeLog) {
			a, _ := r.Steps()
			if a2, _ := head.Steps(); a != a2 {
				return fmt.Errorf("undo asks for the whole log with %d steps applied, after the snapshot's %d", a, a2)
			}
			if err := r.Complete(clone(log[:cut])); err != nil {
				return fmt.Errorf("complete: %v", err)
			}
			if !r.Whole() {
				return fmt.Errorf("a completed engine says it does not hold its whole log")
			}
			_, err = r.Do(fray.Command{Name: engine.CmdUndo})
		}
		if err != nil {
			return fmt.Errorf("undo the resumed engine: %v", err)
		}
	}
	return nil
}

// checkSnapshotUndone checks a snapshot taken just after an undo: the
// resumed engine may redo the step, once given the events before the
// snapshot, exactly as the engine that replayed them.
func checkSnapshotUndone(replay func([]fray.Event) (*engine.Engine, error), head []fray.Event) error {
	want, err := replay(head)
	if err != nil {
		return fmt.Errorf("replay the head: %v", err)
	}
	if a, _ := want.Steps(); a == 0 {
		return nil
	}
	if _, err := want.Do(fray.Command{Name: engine.CmdUndo}); err != nil {
		return fmt.Errorf("undo: %v", err)
	}
	snap, err := want.Snapshot()
	if err != nil {
		return fmt.Errorf("snapshot after an undo: %v", err)
	}
	got, err := engine.Resume(want.System(), rand.New(rand.NewPCG(3, 1)), snap, nil)
	if err != nil {
		return fmt.Errorf("resume after an undo: %v", err)
	}
	if err := sameEngines(want, got); err != nil {
		return fmt.Errorf("resumed after an undo: %v", err)
	}
	if _, err := got.Do(fray.Command{Name: engine.CmdRedo}); !errors.Is(err, engine.ErrWholeLog) {
		return fmt.Errorf("redo of a step the snapshot covers: got %v, want ErrWholeLog", err)
	}
	if err := sameEngines(want, got); err != nil {
		return fmt.Errorf("after a refused redo: %v", err)
	}
	if err := got.Complete(clone(want.Log())); err != nil {
		return fmt.Errorf("complete after an undo: %v", err)
	}
	for _, e := range []*engine.Engine{want, got} {
		if _, err := e.Do(fray.Command{Name: engine.CmdRedo}); err != nil {
			return fmt.Errorf("redo: %v", err)
		}
	}
	if err := sameEngines(want, got); err != nil {
		return fmt.Errorf("resumed after an undo, then redone: %v", err)
	}
	return nil
}

// sameEngines compares what a server reads of two engines: their
// states (as a snapshot encodes them), views, steps and the last events.
func sameEngines(want, got *engine.Engine) error {
	a1, r1 := want.Steps()
	a2, r2 := got.Steps()
	if a1 != a2 || r1 != r2 {
		return fmt.Errorf("%d applied and %d redoable steps, want %d and %d", a2, r2, a1, r1)
	}
	if !reflect.DeepEqual(want.View(), got.View()) {
		return fmt.Errorf("another view:\n%s", diff(want.View(), got.View()))
	}
	s1, err1 := want.Snapshot()
	s2, err2 := got.Snapshot()
	if err1 != nil || err2 != nil {
		return fmt.Errorf("snapshot: %v, %v", err1, err2)
	}
	if !bytes.Equal(s1, s2) {
		return fmt.Errorf("another state:\n%s", diff(want.State(), got.State()))
	}
	l1, l2 := want.Log(), got.Log()
	if len(l2) > len(l1) || !reflect.DeepEqual(l1[len(l1)-len(l2):], l2) {
		return fmt.Errorf("another log: %d events held of %d", len(l2), len(l1))
	}
	return nil
}

// reachesBack reports whether an undo or redo after event cut of log acts
// on a step that began before it.
func reachesBack(log []fray.Event, cut int) bool {
	first := map[int]int{} // step → seq of its first event
	for _, ev := range log {
		if ev.Step > 0 {
			if _, ok := first[ev.Step]; !ok {
				first[ev.Step] = ev.Seq
			}
		}
	}
	for _, ev := range log[cut:] {
		if ev.Type != fray.EventUndo && ev.Type != fray.EventRedo {
			continue
		}
		var d fray.StepData
		if err := ev.Decode(&d); err == nil && first[d.Step] <= cut {
			return true
		}
	}
	return false
}

func clone(evs []fray.Event) []fray.Event { return append([]fray.Event(nil), evs...) }
