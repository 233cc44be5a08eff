package queue_test

import (
	"testing"

	"fray/rules/queue"
	"fray/rules/rulestest"
)

// TestNamedRoll checks the declaration of the damage roll by name, and
// one roll and one set of odds worked out by hand: a heavy weapon deals
// the higher of Red 2 and Black 6, 6, and Black 6 is special; it deals 6
// whenever either die is a 6, 11 of 36.
func TestNamedRoll(t *testing.T) {
	roll := rulestest.CheckNamedRoll(t, queue.New(), rulestest.NamedRollCase{
		Roll: []string{"weapon=heavy", "red=2", "black=6"}, RollHolds: []string{"6 damage; Black 6: the weapon's special effect triggers"},
		Odds: []string{"weapon=heavy"}, OddsHolds: []string{"6 damage   30.556%"},
	})
	if objs, _, err := roll.Odds(queue.ID, []string{"weapon=heavy"}); err != nil || len(objs) != 1 {
		t.Errorf("the odds of a heavy weapon: %d objects, error %v; want one", len(objs), err)
	}
}
