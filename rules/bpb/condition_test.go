package bpb_test

import (
	"reflect"
	"testing"

	"fray/engine"
	"fray/rules/bpb"
)

// has reports whether name is in cond.
func has(e *engine.Engine, name, cond string) bool { return condition(e, name, cond) != nil }

// E-4 across a delay (B-6): a condition until the end of Blueshift's turn
// lasts while she holds her delayed turn and ends when that turn, taken
// later in the round, ends; if she never takes it, it ends with her next
// regular turn.
func TestE4_ConditionAcrossDelay(t *testing.T) {
	e := seeded(t)
	run(t, e, "condition Monolith shaken until=end:Blueshift mod=-1 on=all\ndelay\nnext Ganyeka")
	if !has(e, "Monolith", "shaken") {
		t.Fatalf("delaying ended Blueshift's turn")
	}
	run(t, e, "interrupt Blueshift")
	if !has(e, "Monolith", "shaken") {
		t.Errorf("the start of the delayed turn ended it")
	}
	run(t, e, "next Blueshift")
	if has(e, "Monolith", "shaken") {
		t.Errorf("the end of Blueshift's delayed turn did not end it")
	}
	// The held turn lapses unused (B-6, ours): the end of her next
	// regular turn, in round 2, ends it.
	e = seeded(t)
	run(t, e, "condition Monolith shaken until=end:Blueshift\ndelay\nnext Ganyeka\nnext Monolith\nnext \"Ganyeka's henchmen\"")
	if v := e.View(); v.Round != 2 || v.Current != "Blueshift" || !has(e, "Monolith", "shaken") {
		t.Fatalf("round %d, %s current, shaken %v", v.Round, v.Current, has(e, "Monolith", "shaken"))
	}
	run(t, e, "next Blueshift")
	if has(e, "Monolith", "shaken") {
		t.Errorf("the end of Blueshift's round 2 turn did not end it")
	}
}

// E-4 across an interrupt: a delayed turn pre-empts the turn it
// interrupts, which has not begun. Monolith's block, which lasts until
// his next action (B-8), still stands when the henchmen's delayed turn
// cuts in before his round 2 turn, and ends when his turn does begin.
func TestE4_ConditionAcrossInterrupt(t *testing.T) {
	e := seeded(t)
	run(t, e, "next Blueshift\nnext Ganyeka\nblock Monolith\nnext Monolith\ndelay\nnext Blueshift\nnext Ganyeka")
	if v := e.View(); v.Round != 2 || v.Current != "Monolith" {
		t.Fatalf("round %d, %s current", v.Round, v.Current)
	}
	run(t, e, `interrupt "Ganyeka's henchmen"`)
	if !has(e, "Monolith", "blocking") {
		t.Fatalf("Monolith's block ended although the henchmen pre-empt his turn")
	}
	// Pistol rank 5: 4 + 5 + 6 = 15 hits Agility 3's 11; the standing
	// block, 2d6 + 8 + 3 against 13, rolls 4 + 4 = 19: extreme.
	evs := doLine(t, e, `attack "Ganyeka's henchmen" Monolith with=pistol dice=5,6,4,4`)
	if d := task(t, evs, bpb.RollBlock); d["band"] != "extreme" {
		t.Errorf("the standing block: %v", d)
	}
	for _, ev := range evs {
		if ev.Type == bpb.EventForced {
			t.Errorf("a standing block forced an action")
		}
	}
	run(t, e, `next "Ganyeka's henchmen"`)
	if v := e.View(); v.Current != "Monolith" || has(e, "Monolith", "blocking") {
		t.Errorf("%s current, blocking %v: Monolith's turn began, so his block ends", v.Current, has(e, "Monolith", "blocking"))
	}
	// An interrupt before anyone's turn begins leaves nothing to give
	// back; undo of the interrupt drops the block again.
	if _, err := e.Undo(); err != nil { // next
		t.Fatal(err)
	}
	if _, err := e.Undo(); err != nil { // attack
		t.Fatal(err)
	}
	if _, err := e.Undo(); err != nil { // interrupt
		t.Fatal(err)
	}
	if v := e.View(); v.Current != "Monolith" || has(e, "Monolith", "blocking") {
		t.Errorf("after undoing the interrupt: %s current, blocking %v", v.Current, has(e, "Monolith", "blocking"))
	}
}

// E-4 across forced turns (B-7): a forced action is the turn it spends.
// A condition until the end of Monolith's turn ends with his forced block
// in round 1, which spends his round 1 turn; one until the start of his
// round 2 turn ends with a forced block that spends that turn in round 1
// already.
func TestE4_ConditionAcrossForcedTurn(t *testing.T) {
	e := seeded(t)
	run(t, e, "next Blueshift\ncondition Blueshift braced until=end:Monolith\nattack Ganyeka Monolith with=blast dice=3,2")
	if !has(e, "Blueshift", "braced") {
		t.Fatalf("braced ended early")
	}
	run(t, e, "block Monolith dice=3,3")
	if has(e, "Blueshift", "braced") {
		t.Errorf("Monolith's forced block, his round 1 turn, did not end braced")
	}
	// After his own round 1 turn, Monolith forces against the henchmen:
	// it spends his round 2 turn.
	e = seeded(t)
	run(t, e, "next Blueshift\nnext Ganyeka\nnext Monolith\ncondition Blueshift braced until=start:Monolith@2\ncondition Ganyeka wary until=start:Monolith@3")
	run(t, e, `attack "Ganyeka's henchmen" Monolith with=pistol dice=5,6`)
	run(t, e, "block Monolith dice=1,1")
	if has(e, "Blueshift", "braced") || !has(e, "Ganyeka", "wary") {
		t.Errorf("after the block forced from round 2: braced %v (want gone), wary %v (want kept)", has(e, "Blueshift", "braced"), has(e, "Ganyeka", "wary"))
	}
	// Round 2 has no turn of Monolith's; round 3's start ends wary.
	run(t, e, `next "Ganyeka's henchmen"`+"\nnext Blueshift\nnext Ganyeka\nnext \"Ganyeka's henchmen\"\nnext Blueshift\nnext Ganyeka")
	if v := e.View(); v.Round != 3 || v.Current != "Monolith" || has(e, "Ganyeka", "wary") {
		t.Errorf("round %d, %s current, wary %v", v.Round, v.Current, has(e, "Ganyeka", "wary"))
	}
}

// E-4 across a reorder (B-9): a condition anchored to Ganyeka's turn
// follows Ganyeka to his new place after Monolith's extreme block.
func TestE4_ConditionAcrossReorder(t *testing.T) {
	e := seeded(t)
	run(t, e, "next Blueshift\nattack Ganyeka Monolith with=blast dice=3,2\nblock Monolith dice=6,4")
	run(t, e, "condition Blueshift inspired until=start:Ganyeka@2 mod=1 on=attack\ncondition Monolith steady until=end:Ganyeka@2")
	run(t, e, "next Ganyeka\nnext \"Ganyeka's henchmen\"\nnext Blueshift")
	// Round 2: Blueshift, Monolith, Ganyeka. Before the block Ganyeka
	// would be current now.
	if v := e.View(); v.Current != "Monolith" || !has(e, "Blueshift", "inspired") {
		t.Fatalf("%s current, inspired %v", v.Current, has(e, "Blueshift", "inspired"))
	}
	run(t, e, "next Monolith")
	if v := e.View(); v.Current != "Ganyeka" || has(e, "Blueshift", "inspired") || !has(e, "Monolith", "steady") {
		t.Errorf("%s current, inspired %v, steady %v: inspired ends at Ganyeka's start, steady at his end", v.Current, has(e, "Blueshift", "inspired"), has(e, "Monolith", "steady"))
	}
	state := e.State().Clone()
	run(t, e, "next Ganyeka")
	if has(e, "Monolith", "steady") {
		t.Errorf("steady outlived the end of Ganyeka's turn in round 2")
	}
	// Undo gives it back exactly.
	if _, err := e.Undo(); err != nil {
		t.Fatal(err)
	}
	if !has(e, "Monolith", "steady") || !reflect.DeepEqual(e.State(), state) {
		t.Errorf("undo did not restore steady")
	}
}

// E-4 and undo (E-3): undoing the step that ended a condition restores it
// exactly; redoing ends it again.
func TestE4_ConditionUndo(t *testing.T) {
	e := seeded(t)
	run(t, e, "condition Monolith shaken until=end:Blueshift mod=-1 on=all by=Blueshift note=rattled\ndelay\nnext Ganyeka\ninterrupt Blueshift")
	before := *condition(e, "Monolith", "shaken")
	state := e.State().Clone()
	run(t, e, "next Blueshift")
	if has(e, "Monolith", "shaken") {
		t.Fatalf("shaken outlived Blueshift's delayed turn")
	}
	if _, err := e.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := condition(e, "Monolith", "shaken"); got == nil || !reflect.DeepEqual(*got, before) || !reflect.DeepEqual(e.State(), state) {
		t.Errorf("undo restored %+v, want %+v", got, before)
	}
	if _, err := e.Redo(); err != nil {
		t.Fatal(err)
	}
	if has(e, "Monolith", "shaken") {
		t.Errorf("redo kept shaken")
	}
	// Undo of a forced block gives back the condition its forced turn
	// ended, and Monolith's turn.
	e = seeded(t)
	run(t, e, "next Blueshift\ncondition Blueshift braced until=end:Monolith\nattack Ganyeka Monolith with=blast dice=3,2")
	state = e.State().Clone()
	run(t, e, "block Monolith dice=3,3")
	if _, err := e.Undo(); err != nil {
		t.Fatal(err)
	}
	if !has(e, "Blueshift", "braced") || !reflect.DeepEqual(e.State(), state) {
		t.Errorf("undo of the forced block: braced %v", has(e, "Blueshift", "braced"))
	}
}
