package bpb_test

import (
	"testing"

	"fray"
	"fray/engine"
)

// slotNote returns the note of name's slot in this round's order.
func slotNote(e *engine.Engine, name string) string {
	for _, sl := range e.View().Order {
		if fray.SameName(sl.Name, name) {
			return sl.Note
		}
	}
	return "(no slot)"
}

// Issue 14, item 4 (B-5). The seed: "Any falling objects (including
// characters) fall, and any free-rolling vehicles move, after all
// characters have had the opportunity to use their actions … If any
// object or vehicle is under direct control by a character, then the
// object or vehicle will move when that character moves it or at the end
// of the round, at the character's option. If a character chooses not to
// control a vehicle, then the vehicle will move at the end of the round."
func TestB5_VehiclesAndFalling(t *testing.T) {
	e := newEngine()
	run(t, e, "add Ann side=pc\nadd Bob\nadd Truck kind=environment\nadd Wind kind=environment\norder Ann Bob\nstart")
	// A free-rolling vehicle has nobody to move it on their turn.
	refused(t, e, "move Truck", "Nobody controls Truck")
	refused(t, e, "control Ann by=Bob", "Ann is no vehicle or object")
	refused(t, e, "control Truck by=Wind", "Wind is part of the environment")
	refused(t, e, "control Truck", "Nobody controls Truck")
	doLine(t, e, "control Truck by=Bob")
	refused(t, e, "control Truck by=Bob", "Bob already controls Truck")
	if n := slotNote(e, "Truck"); n != "controlled by Bob: moves now unless moved on their turn" {
		t.Errorf("Truck's slot before it moves: %q", n)
	}
	// Bob's vehicle moves on Bob's turn, not Ann's, once a round.
	refused(t, e, "move Truck", "it is not Bob's turn")
	// Ann starts to fall on her turn: she falls on the environment's
	// turn, the first of them still to come (the Truck's).
	doLine(t, e, `fall Ann note="off the overpass"`)
	c := condition(e, "Ann", "falling")
	if c == nil || c.Until == nil || c.Until.Edge != fray.EdgeEnd || c.Until.Name != "Truck" || c.Until.Round != 1 || c.Note != "off the overpass" {
		t.Fatalf("Ann falling: %+v", c)
	}
	run(t, e, "next Ann")
	doLine(t, e, `move Truck note="swerves under Ann"`)
	refused(t, e, "move Truck", "Truck has already moved this round")
	if n := slotNote(e, "Truck"); n != "moved on Bob's turn" {
		t.Errorf("Truck's slot after it moved: %q", n)
	}
	run(t, e, "next Bob")
	// The Truck's turn: Ann is still falling until it ends.
	if condition(e, "Ann", "falling") == nil {
		t.Errorf("Ann stopped falling before the environment's turn ended")
	}
	run(t, e, "next Truck")
	if condition(e, "Ann", "falling") != nil {
		t.Errorf("Ann still falling after the environment's turn")
	}
	// Round 2: Bob gives control up, and the Truck moves at the end of
	// the round again; a fall during the Wind's own turn ends with it.
	run(t, e, "next Wind\ncontrol Truck")
	if n := slotNote(e, "Truck"); n != "" {
		t.Errorf("Truck's slot with nobody at the wheel: %q", n)
	}
	run(t, e, "next Ann\nnext Bob\nnext Truck")
	doLine(t, e, "fall Bob")
	if c := condition(e, "Bob", "falling"); c == nil || c.Until.Name != "Wind" || c.Note != "falls on the environment's turn" {
		t.Errorf("Bob falling on the Wind's turn: %+v", c)
	}
	// Without an environment, a fall ends with the round.
	e = newEngine()
	run(t, e, "add Ann side=pc\nstart")
	doLine(t, e, "fall Ann")
	if c := condition(e, "Ann", "falling"); c == nil || c.Until.Name != "" || c.Until.Edge != fray.EdgeEnd {
		t.Errorf("Ann falling with no environment: %+v", c)
	}
	run(t, e, "next Ann")
	if condition(e, "Ann", "falling") != nil {
		t.Errorf("Ann still falling after the round")
	}
	// Removing the controller gives the vehicle up.
	e = newEngine()
	run(t, e, "add Ann side=pc\nadd Truck kind=environment\ncontrol Truck by=Ann\nstart\nremove Ann")
	refused(t, e, "move Truck", "Nobody controls Truck")
}
