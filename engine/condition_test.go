package engine_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
)

const bpbFour = `add Blueshift side=pc
add Ganyeka
add Monolith side=pc
add "Ganyeka's henchmen" kind=group
order Blueshift Ganyeka Monolith "Ganyeka's henchmen"
start`

func newBPB(t *testing.T) *engine.Engine {
	t.Helper()
	e := engine.New(bpb.New(), rand.New(rand.NewPCG(1, 1)))
	for _, l := range splitLines(bpbFour) {
		do(t, e, l)
	}
	return e
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := range len(s) + 1 {
		if i == len(s) || s[i] == '\n' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// has reports whether name is in the condition cond.
func has(e *engine.Engine, name, cond string) bool {
	for _, c := range e.View().Combatants {
		if fray.SameName(c.Name, name) {
			return c.Condition(cond) != nil
		}
	}
	return false
}

func want(t *testing.T, e *engine.Engine, after, name, cond string, in bool) {
	t.Helper()
	if got := has(e, name, cond); got != in {
		t.Errorf("after %s: %s %s = %v, want %v", after, name, cond, got, in)
	}
}

// A condition anchored to the end of Blueshift's turn lasts while she
// delays and ends when she takes the delayed turn and ends it.
func TestConditionAcrossDelay(t *testing.T) {
	e := newBPB(t)
	do(t, e, "condition Ganyeka dazzled until=end:Blueshift", "delay Blueshift")
	want(t, e, "delay", "Ganyeka", "dazzled", true)
	do(t, e, "next Ganyeka")
	want(t, e, "Ganyeka's turn", "Ganyeka", "dazzled", true)
	do(t, e, "interrupt Blueshift")
	want(t, e, "interrupt", "Ganyeka", "dazzled", true)
	do(t, e, "next Blueshift")
	want(t, e, "the delayed turn", "Ganyeka", "dazzled", false)
}

// A delayed turn held into the next round still ends the condition when
// it is taken, not when the round it was delayed in ends.
func TestConditionDelayAcrossRounds(t *testing.T) {
	e := newBPB(t)
	do(t, e, "reorder Blueshift after=Monolith", "condition Ganyeka dazzled until=end:Blueshift", "delay Blueshift", "next", "next", "next")
	want(t, e, "round 1", "Ganyeka", "dazzled", true)
	do(t, e, "interrupt Blueshift")
	want(t, e, "interrupt in round 2", "Ganyeka", "dazzled", true)
	do(t, e, "next Blueshift")
	want(t, e, "the delayed turn in round 2", "Ganyeka", "dazzled", false)
}

// A forced action is a turn: it ends a condition lasting until the start
// of the defender's next action; one set after it lasts past the turn the
// force spent, to the defender's next real turn.
func TestConditionAcrossForce(t *testing.T) {
	e := newBPB(t)
	do(t, e, "next Blueshift", "condition Monolith blocking until=start")
	do(t, e, "force Monolith")
	want(t, e, "force", "Monolith", "blocking", false)
	do(t, e, "condition Monolith blocking until=start", "next Ganyeka")
	want(t, e, "the turn the force spent", "Monolith", "blocking", true)
	do(t, e, "next", "next Blueshift", "next Ganyeka")
	want(t, e, "round 2, Monolith's turn", "Monolith", "blocking", false)
}

// A reorder moves the anchored turn; the condition follows it.
func TestConditionAcrossReorder(t *testing.T) {
	e := newBPB(t)
	do(t, e, "condition Ganyeka dazzled until=start:Monolith@+1", "reorder Monolith before=Blueshift")
	do(t, e, "next", "next", "next")
	want(t, e, "round 1", "Ganyeka", "dazzled", true)
	do(t, e, "next")
	// Round 2 starts with Monolith's turn.
	if v := e.View(); v.Current != "Monolith" {
		t.Fatalf("round 2 starts with %s", v.Current)
	}
	want(t, e, "the start of Monolith's turn in round 2", "Ganyeka", "dazzled", false)
}

// Undo and redo restore a condition's expiry exactly.
func TestConditionUndo(t *testing.T) {
	e := newBPB(t)
	do(t, e, "condition Blueshift hasted until=end")
	before := e.State().Clone()
	do(t, e, "next Blueshift")
	want(t, e, "her turn", "Blueshift", "hasted", false)
	do(t, e, "undo")
	want(t, e, "undo", "Blueshift", "hasted", true)
	if !reflect.DeepEqual(before, e.State()) {
		t.Errorf("undo did not restore the state exactly")
	}
	do(t, e, "redo")
	want(t, e, "redo", "Blueshift", "hasted", false)
	do(t, e, "undo", "clear Blueshift hasted")
	want(t, e, "clear", "Blueshift", "hasted", false)
	do(t, e, "undo")
	want(t, e, "undoing the clear", "Blueshift", "hasted", true)
}

// A round-anchored, once-only condition whose modifier starts next round,
// as a distraction: +3 to the next attack against the target in the
// following round, then gone.
func TestConditionModifiers(t *testing.T) {
	e := newBPB(t)
	do(t, e, "condition Ganyeka distracted by=Blueshift from=next until=round@+1 mod=+3 on=attacked once=yes")
	find := func(n string) *fray.Combatant {
		for _, c := range e.State().(*bpb.State).Combatants {
			if fray.SameName(c.Name, n) {
				return c
			}
		}
		return nil
	}
	if mods, _ := engine.Modifiers(find("Monolith"), find("Ganyeka"), fray.AppliesAttack, 1); len(mods) != 0 {
		t.Errorf("round 1: modifiers %v, want none", mods)
	}
	do(t, e, "next", "next", "next", "next")
	mods, spent := engine.Modifiers(find("Monolith"), find("Ganyeka"), fray.AppliesAttack, 2)
	wantMods := []fray.Modifier{{Source: "Ganyeka distracted (by Blueshift)", Who: []string{"Blueshift", "Ganyeka"}, Value: 3}}
	if !reflect.DeepEqual(mods, wantMods) || len(spent) != 1 || spent[0].Condition != "distracted" {
		t.Errorf("round 2: modifiers %v, spent %v; want %v", mods, spent, wantMods)
	}
	if mods, _ := engine.Modifiers(find("Monolith"), find("Ganyeka"), fray.AppliesDefence, 2); len(mods) != 0 {
		t.Errorf("round 2 defence: modifiers %v, want none", mods)
	}
	want(t, e, "round 2", "Ganyeka", "distracted", true)
	do(t, e, "next", "next", "next", "next")
	want(t, e, "the end of round 2", "Ganyeka", "distracted", false)
}

func TestConditionRefusals(t *testing.T) {
	e := newBPB(t)
	refuse(t, e, "condition Gandalf stunned", `no combatant named "Gandalf"`)
	refuse(t, e, "condition Ganyeka stunned until=soon", "until=soon is not a duration")
	refuse(t, e, "condition Ganyeka stunned until=end:Nobody", `no combatant named "Nobody"`)
	refuse(t, e, "condition Ganyeka stunned until=round@0", "has passed")
	refuse(t, e, "condition Ganyeka stunned mod=lots", "mod=lots is not a whole number")
	refuse(t, e, "condition Ganyeka stunned mod=2 on=sneeze", "condition: on=sneeze is not allowed; use one of all, attack, attacked, defence, check.")
	refuse(t, e, "condition Ganyeka stunned on=attack", "give mod= too")
	refuse(t, e, "condition Ganyeka", "Usage: condition NAME CONDITION")
	refuse(t, e, "clear Ganyeka stunned", "Ganyeka is not stunned")
}

// Removing a combatant ends the conditions anchored to their turns.
func TestConditionAnchorRemoved(t *testing.T) {
	e := newBPB(t)
	do(t, e, "condition Blueshift pinned until=end:Ganyeka", "remove Ganyeka")
	want(t, e, "remove", "Blueshift", "pinned", false)
}
