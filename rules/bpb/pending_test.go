package bpb_test

import (
	"testing"

	"fray/engine"
	"fray/rules/bpb"
)

// A hit waiting for a defence that the next command settles is taken in a
// step of its own, before that command's: undoing the command leaves the
// hit taken, and a second undo leaves it waiting again, for the defender
// to block or dodge after all. Redo brings both back in order.
func TestPendingHitIsItsOwnStep(t *testing.T) {
	e := seeded(t)
	doLine(t, e, "next Blueshift")
	doLine(t, e, "attack Ganyeka Monolith with=blast dice=2,3") // 12 against 11: a hit, 9 − armour 6 = 3
	pending := func() bool { return e.State().(*bpb.State).Pending != nil }
	if !pending() {
		t.Fatal("the hit does not wait for Monolith's defence")
	}
	applied, _ := e.Steps()
	evs := doLine(t, e, "next Ganyeka")
	if now, _ := e.Steps(); now != applied+2 {
		t.Fatalf("next settling a hit made %d steps, want 2", now-applied)
	}
	if evs[0].Command != "take Monolith" || evs[0].Step+1 != evs[len(evs)-1].Step || evs[len(evs)-1].Type == "" {
		t.Errorf("the steps: first %q step %d, last step %d", evs[0].Command, evs[0].Step, evs[len(evs)-1].Step)
	}
	if enduranceOf(e, "Monolith") != 27 || pending() || e.View().Current != "Monolith" {
		t.Fatalf("after next: Endurance %d, pending %v, current %s", enduranceOf(e, "Monolith"), pending(), e.View().Current)
	}

	doLine(t, e, "undo")
	if enduranceOf(e, "Monolith") != 27 || pending() || e.View().Current != "Ganyeka" {
		t.Errorf("undoing next: Endurance %d, pending %v, current %s; want the hit taken and Ganyeka's turn back",
			enduranceOf(e, "Monolith"), pending(), e.View().Current)
	}
	doLine(t, e, "undo")
	if enduranceOf(e, "Monolith") != 30 || !pending() {
		t.Errorf("undoing the take: Endurance %d, pending %v; want the hit waiting again", enduranceOf(e, "Monolith"), pending())
	}
	doLine(t, e, "redo")
	doLine(t, e, "redo")
	if enduranceOf(e, "Monolith") != 27 || pending() || e.View().Current != "Monolith" {
		t.Errorf("redo, redo: Endurance %d, pending %v, current %s", enduranceOf(e, "Monolith"), pending(), e.View().Current)
	}

	// A command the rules refuse settles nothing, in any step.
	e = seeded(t)
	doLine(t, e, "next Blueshift")
	doLine(t, e, "attack Ganyeka Monolith with=blast dice=2,3")
	applied, _ = e.Steps()
	cmd, _ := engine.ParseCommand("delay Blueshift")
	if _, err := e.Do(cmd); err == nil {
		t.Fatal("Blueshift delayed out of turn")
	}
	if now, _ := e.Steps(); now != applied || !pending() {
		t.Errorf("a refused command made %d steps; pending %v", now-applied, pending())
	}
}
