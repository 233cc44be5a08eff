package vv_test

import (
	"testing"

	"fray/rules/rulestest"
	"fray/rules/vv"
)

// TestNamedRoll checks the declaration of the to-hit roll by name, and
// one roll and one set of odds worked out by hand: a 20 always misses and
// goes astray; at chance 12, 1 to 12 hit (60%), 13 to 19 miss (35%).
func TestNamedRoll(t *testing.T) {
	rulestest.CheckNamedRoll(t, vv.New(), rulestest.NamedRollCase{
		Roll: []string{"chance=30", "roll=20"}, RollHolds: []string{"d20: 20: miss", "astray"},
		Odds: []string{"chance=12"}, OddsHolds: []string{"60.000%", "35.000%"},
	})
}
