package queue_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

// E-4 across a reaction and undo: in seed 004's example a condition
// until the start of Johann's next turn outlives his reaction (not a
// turn) and the turns of everyone he dropped below, and ends when his
// turn does begin, last in the queue; undoing that step gives it back.
func TestE4_ConditionAcrossReaction(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
	run(t, e, setup+"\nact major\nnext\nact major\nnext\nact major")
	run(t, e, `condition Melvina shielded until=start:Johann mod=1 on=defence`)
	run(t, e, `react Johann to="Brigand #2"`)
	has := func() bool { return melvina(e) != nil }
	// Brigand #2, then Melvina, Pet Bear, Brigand #1 and Brigand #2 take
	// their turns before Johann's comes.
	for i, who := range []string{"Melvina", "Pet Bear", "Brigand #1", "Brigand #2"} {
		run(t, e, "next")
		if cur := e.View().Current; cur != who || !has() {
			t.Fatalf("step %d: %s current, shielded %v; want %s and shielded", i, cur, has(), who)
		}
	}
	before := *melvina(e)
	state := e.State().Clone()
	run(t, e, "next")
	if cur := e.View().Current; cur != "Johann" || has() {
		t.Errorf("%s current, shielded %v: Johann's turn began, so it ends", cur, has())
	}
	if _, err := e.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := melvina(e); got == nil || !reflect.DeepEqual(*got, before) || !reflect.DeepEqual(e.State(), state) {
		t.Errorf("undo gave back %+v, want %+v", got, before)
	}
}

func melvina(e *engine.Engine) *fray.Condition {
	for _, c := range e.View().Combatants {
		if c.Name == "Melvina" {
			return c.Condition("shielded")
		}
	}
	return nil
}
