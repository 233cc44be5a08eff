package engine_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/rules/queue"
)

// A fight of a few steps under the queue rules, with an undo in it.
func snapshotFight(t *testing.T) *engine.Engine {
	t.Helper()
	e := newQueue()
	do(t, e, "add Johann", "add Brigand side=npc", "start", "undo", "start")
	return e
}

func TestResumeRefusesStaleSnapshots(t *testing.T) {
	e := snapshotFight(t)
	snap, err := e.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		sys  fray.System
		snap []byte
	}{
		{"malformed", queue.New(), []byte(`{"format":`)},
		{"another format", queue.New(), bytes.Replace(snap, []byte(`"format":1`), []byte(`"format":99`), 1)},
		{"another system", bpb.New(), snap},
		{"another shape", queue.New(), bytes.Replace(snap, []byte(`"shape":"`), []byte(`"shape":"0`), 1)},
		{"steps past the snapshot", queue.New(), bytes.Replace(snap, []byte(`"active":[`), []byte(`"active":[99,`), 1)},
		{"state malformed", queue.New(), bytes.Replace(snap, []byte(`"state":{`), []byte(`"state":{"Queue":7,`), 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if bytes.Equal(tt.snap, snap) && tt.sys.ID() == "queue" {
				t.Fatal("the case does not change the snapshot")
			}
			_, err := engine.Resume(tt.sys, rand.New(rand.NewPCG(1, 1)), tt.snap, nil)
			if !errors.Is(err, engine.ErrStale) {
				t.Fatalf("Resume: got %v, want ErrStale", err)
			}
		})
	}
}

func TestResumeCarriesOn(t *testing.T) {
	e := snapshotFight(t)
	snap, err := e.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	cut := len(e.Log())
	do(t, e, "next", "next")
	r, err := engine.Resume(queue.New(), rand.New(rand.NewPCG(5, 5)), snap, e.Log()[cut:])
	if err != nil {
		t.Fatal(err)
	}
	if r.Whole() || len(r.Log()) != len(e.Log())-cut {
		t.Fatalf("resumed: whole %v, %d events held; want false, %d", r.Whole(), len(r.Log()), len(e.Log())-cut)
	}
	if got, want := r.View().Current, e.View().Current; got != want {
		t.Errorf("current after resume: %q, want %q", got, want)
	}
	// Two undos stay after the snapshot; the third reaches before it.
	do(t, r, "undo", "undo")
	_, err = r.Do(fray.Command{Name: engine.CmdUndo})
	if !errors.Is(err, engine.ErrWholeLog) {
		t.Fatalf("undo before the snapshot: got %v, want ErrWholeLog", err)
	}
	if a, _ := r.Steps(); a != 3 {
		t.Errorf("a refused undo changed the steps: %d applied, want 3", a)
	}
	var buf bytes.Buffer
	if err := r.Export(&buf); !errors.Is(err, engine.ErrWholeLog) || buf.Len() != 0 {
		t.Errorf("Export of a resumed engine: %v with %d bytes, want ErrWholeLog and nothing", err, buf.Len())
	}
	if err := r.Complete(e.Log()[:cut-1]); err == nil {
		t.Error("Complete with too few events: no error")
	}
	if err := r.Complete(e.Log()[:cut]); err != nil {
		t.Fatal(err)
	}
	do(t, r, "undo")
	if a, _ := r.Steps(); a != 2 {
		t.Errorf("after the third undo: %d steps applied, want 2", a)
	}
	if !strings.Contains(r.Log()[0].Command, "add Johann") {
		t.Errorf("the completed log begins with %q", r.Log()[0].Command)
	}
}

func TestExtendTakesOthersEvents(t *testing.T) {
	e := snapshotFight(t)
	follower, err := engine.Replay(queue.New(), rand.New(rand.NewPCG(1, 1)), e.Log())
	if err != nil {
		t.Fatal(err)
	}
	n := len(e.Log())
	do(t, e, "next", "undo", "next", "next")
	if err := follower.Extend(e.Log()[n:]); err != nil {
		t.Fatal(err)
	}
	if got, want := follower.View().Current, e.View().Current; got != want {
		t.Errorf("current after Extend: %q, want %q", got, want)
	}
	if err := follower.Extend(e.Log()[n:]); err == nil {
		t.Error("Extend with events out of sequence: no error")
	}
}
