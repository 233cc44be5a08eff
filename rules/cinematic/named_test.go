package cinematic_test

import (
	"testing"

	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

// TestNamedRoll checks the declaration of the test roll by name, and one
// roll and one set of odds worked out by hand: D10 6 + 7 = 13 against
// D10 3 + 5 = 8 hits with 3 success levels (13 is 9 + 4: levels at 9,
// 11, 13); D10 + 7 fails only on a 1, 10%.
func TestNamedRoll(t *testing.T) {
	rulestest.CheckNamedRoll(t, cinematic.New(), rulestest.NamedRollCase{
		Roll: []string{"value=7", "vs=5", "roll=6", "vs-roll=3"}, RollHolds: []string{"attacker: D10 6 + 7 = 13 (3 success levels)", "hit, 3 success levels"},
		Odds: []string{"value=7"}, OddsHolds: []string{"success 90.000%"},
	})
}
