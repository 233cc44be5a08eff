package engine_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"fray"
	"fray/engine"
)

// twoStep is the coin system with commands that make two steps: settle
// notes A, then B, each in a step of its own; the others split their
// events badly or fail in the second step.
type twoStep struct{ coin }

func (twoStep) Commands() []fray.CommandDecl {
	ds := engine.SharedDecls(engine.Spec{})
	for _, w := range []string{"settle", "lead", "trail", "twice", "fail"} {
		ds = append(ds, fray.CommandDecl{Name: w, Send: fray.SendGM, Summary: "A test of two steps."})
	}
	return ds
}

func (s twoStep) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	enc := &st.(*coinState).Encounter
	note := func(name, text string) fray.Event {
		ev, _ := fray.NewEvent(fray.EventNoted, fray.NoteData{Who: enc.Find(name).ID, Note: text})
		return ev
	}
	brk := engine.StepBreak("note A settled")
	switch cmd.Name {
	case "settle":
		return []fray.Event{note("A", "settled"), brk, note("B", "after")}, nil
	case "lead":
		return []fray.Event{brk, note("B", "after")}, nil
	case "trail":
		return []fray.Event{note("A", "settled"), brk}, nil
	case "twice":
		return []fray.Event{note("A", "1"), brk, note("A", "2"), brk, note("B", "3")}, nil
	case "fail":
		bad, _ := fray.NewEvent("coin.nothing", struct{}{})
		return []fray.Event{note("A", "settled"), brk, bad}, nil
	}
	return s.coin.Decide(st, cmd, r)
}

func (s twoStep) Apply(st fray.State, ev fray.Event) error {
	if ev.Type == "coin.nothing" {
		return fray.Errorf(fray.EINVALID, "Nothing to apply.")
	}
	return s.coin.Apply(st, ev)
}

// TestStepBreak checks engine.StepBreak: the events before the mark are a
// step of their own, with the mark's command text; undo takes back the
// command's step alone, then the first; a mark first, last or twice is
// an internal error, and a failure in the second step leaves the
// encounter exactly as it was, the first step and what redo held
// included.
func TestStepBreak(t *testing.T) {
	e := engine.New(twoStep{}, rand.New(rand.NewPCG(1, 2)))
	do(t, e, "add A", "add B", "note B kept", "undo")
	if _, redo := e.Steps(); redo != 1 {
		t.Fatalf("redoable steps %d", redo)
	}
	before, logLen := e.State().Clone(), len(e.Log())
	for _, w := range []string{"lead", "trail", "twice", "fail"} {
		cmd, _ := engine.ParseCommand(w)
		_, err := e.Do(cmd)
		if fray.ErrorCode(err) != fray.EINTERNAL {
			t.Errorf("%s: %v, want an internal error", w, err)
		}
		if applied, redo := e.Steps(); applied != 2 || redo != 1 || len(e.Log()) != logLen || !reflect.DeepEqual(before, e.State()) {
			t.Errorf("%s changed the encounter: %d applied, %d redoable, %d events", w, applied, redo, len(e.Log()))
		}
	}

	evs := do(t, e, "settle")
	if len(evs) != 2 || evs[0].Step != 4 || evs[0].Command != "note A settled" || evs[1].Step != 5 || evs[1].Command != "settle" {
		t.Fatalf("settle: %+v", evs)
	}
	if applied, _ := e.Steps(); applied != 4 {
		t.Fatalf("%d steps applied, want 4", applied)
	}
	notes := func() string {
		enc := e.Encounter()
		return enc.Find("A").Notes + "/" + enc.Find("B").Notes
	}
	want := []string{"settled/after", "settled/", "/"}
	for i, w := range want {
		if got := notes(); got != w {
			t.Errorf("after %d undos: notes %q, want %q", i, got, w)
		}
		if i < len(want)-1 {
			do(t, e, "undo")
		}
	}
	if got := len(e.Applied()); got != 2 {
		t.Errorf("Applied holds %d events after the undos, want the two adds", got)
	}
	do(t, e, "redo", "redo")
	if got := notes(); got != "settled/after" {
		t.Errorf("after two redos: %q", got)
	}
	if got := e.Applied(); len(got) != 4 || got[2].Command != "note A settled" {
		t.Errorf("Applied: %+v", got)
	}
}
