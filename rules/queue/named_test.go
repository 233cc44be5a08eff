package queue_test

import (
	"strings"
	"testing"

	"fray"
	"fray/dice"
	"fray/rules/kit"
	"fray/rules/queue"
)

// TestNamedRoll checks the declaration of the damage roll by name, and
// one roll and one set of odds worked out by hand: a heavy weapon deals
// the higher of Red 2 and Black 6, 6, and Black 6 is special; it deals 6
// whenever either die is a 6, 11 of 36.
func TestNamedRoll(t *testing.T) {
	var sys fray.System = queue.New()
	nr, ok := sys.(kit.NamedRoller)
	if !ok {
		t.Fatal("queue offers no named roll")
	}
	roll := nr.NamedRoll()
	if err := roll.Check(queue.ID); err != nil {
		t.Fatal(err)
	}
	r, err := roll.MakeRoll(queue.ID, []string{"weapon=heavy", "red=2", "black=6"})
	if err != nil {
		t.Fatal(err)
	}
	_, text, err := r.Make(dice.Faces())
	if err != nil || !r.Physical || !strings.Contains(text, "6 damage; Black 6: the weapon's special effect triggers") {
		t.Errorf("physical %v, error %v, roll:\n%s", r.Physical, err, text)
	}
	objs, text, err := roll.Odds(queue.ID, []string{"weapon=heavy"})
	if err != nil || len(objs) != 1 || !strings.Contains(text, "6 damage   30.556%") {
		t.Errorf("error %v, %d objects, odds:\n%s", err, len(objs), text)
	}
}
