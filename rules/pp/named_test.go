package pp_test

import (
	"testing"

	"fray/rules/pp"
	"fray/rules/rulestest"
)

// TestNamedRoll checks the declaration of the challenge roll by name, and
// one roll and one set of odds worked out by hand: 6 1 4 is 2 + 0 + 1 = 3
// successes, 1 over Hard (2); two dice against Average (1) net −1 when
// both show odd faces, 1/4.
func TestNamedRoll(t *testing.T) {
	roll := rulestest.CheckNamedRoll(t, pp.New(), rulestest.NamedRollCase{
		Roll: []string{"dice=3", "threshold=hard", "faces=6,1,4"}, RollHolds: []string{"actor rolled 6 1 4: 3 successes", "net 3 − 2 = +1"},
		Odds: []string{"dice=2", "threshold=average"}, OddsHolds: []string{"  -1   25.000%"},
	})
	if !roll.CostlyOdds {
		t.Error("a pool's odds may be costly, but the roll does not say so")
	}
}
