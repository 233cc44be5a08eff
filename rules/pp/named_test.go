package pp_test

import (
	"strings"
	"testing"

	"fray"
	"fray/dice"
	"fray/rules/kit"
	"fray/rules/pp"
)

// TestNamedRoll checks the declaration of the challenge roll by name, and
// one roll and one set of odds worked out by hand: 6 1 4 is 2 + 0 + 1 = 3
// successes, 1 over Hard (2); two dice against Average (1) net −1 when
// both show odd faces, 1/4.
func TestNamedRoll(t *testing.T) {
	var sys fray.System = pp.New()
	nr, ok := sys.(kit.NamedRoller)
	if !ok {
		t.Fatal("pp offers no named roll")
	}
	roll := nr.NamedRoll()
	if err := roll.Check(pp.ID); err != nil {
		t.Fatal(err)
	}
	if !roll.CostlyOdds {
		t.Error("a pool's odds may be costly, but the roll does not say so")
	}
	r, err := roll.MakeRoll(pp.ID, []string{"dice=3", "threshold=hard", "faces=6,1,4"})
	if err != nil {
		t.Fatal(err)
	}
	_, text, err := r.Make(dice.Faces())
	if err != nil || !r.Physical || !strings.Contains(text, "actor rolled 6 1 4: 3 successes") || !strings.Contains(text, "net 3 − 2 = +1") {
		t.Errorf("physical %v, error %v, roll:\n%s", r.Physical, err, text)
	}
	_, text, err = roll.Odds(pp.ID, []string{"dice=2", "threshold=average"})
	if err != nil || !strings.Contains(text, "  -1   25.000%") {
		t.Errorf("error %v, odds:\n%s", err, text)
	}
}
