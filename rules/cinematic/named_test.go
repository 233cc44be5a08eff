package cinematic_test

import (
	"strings"
	"testing"

	"fray"
	"fray/dice"
	"fray/rules/cinematic"
	"fray/rules/kit"
)

// TestNamedRoll checks the declaration of the test roll by name, and one
// roll and one set of odds worked out by hand: D10 6 + 7 = 13 against
// D10 3 + 5 = 8 hits with 3 success levels (13 is 9 + 4: levels at 9,
// 11, 13); D10 + 7 fails only on a 1, 10%.
func TestNamedRoll(t *testing.T) {
	var sys fray.System = cinematic.New()
	nr, ok := sys.(kit.NamedRoller)
	if !ok {
		t.Fatal("cinematic offers no named roll")
	}
	roll := nr.NamedRoll()
	if err := roll.Check(cinematic.ID); err != nil {
		t.Fatal(err)
	}
	r, err := roll.MakeRoll(cinematic.ID, []string{"value=7", "vs=5", "roll=6", "vs-roll=3"})
	if err != nil {
		t.Fatal(err)
	}
	_, text, err := r.Make(dice.Faces())
	if err != nil || !r.Physical || !strings.Contains(text, "attacker: D10 6 + 7 = 13 (3 success levels)") || !strings.Contains(text, "hit, 3 success levels") {
		t.Errorf("physical %v, error %v, roll:\n%s", r.Physical, err, text)
	}
	_, text, err = roll.Odds(cinematic.ID, []string{"value=7"})
	if err != nil || !strings.Contains(text, "success 90.000%") {
		t.Errorf("error %v, odds:\n%s", err, text)
	}
}
