package vv_test

import (
	"strings"
	"testing"

	"fray"
	"fray/dice"
	"fray/rules/kit"
	"fray/rules/vv"
)

// TestNamedRoll checks the declaration of the to-hit roll by name, and
// one roll and one set of odds worked out by hand: a 20 always misses and
// goes astray; at chance 12, 1 to 12 hit (60%), 13 to 19 miss (35%).
func TestNamedRoll(t *testing.T) {
	var sys fray.System = vv.New()
	nr, ok := sys.(kit.NamedRoller)
	if !ok {
		t.Fatal("vv offers no named roll")
	}
	roll := nr.NamedRoll()
	if err := roll.Check(vv.ID); err != nil {
		t.Fatal(err)
	}
	r, err := roll.MakeRoll(vv.ID, []string{"chance=30", "roll=20"})
	if err != nil {
		t.Fatal(err)
	}
	_, text, err := r.Make(dice.Faces())
	if err != nil || !r.Physical || !strings.Contains(text, "d20: 20: miss") || !strings.Contains(text, "astray") {
		t.Errorf("physical %v, error %v, roll:\n%s", r.Physical, err, text)
	}
	_, text, err = roll.Odds(vv.ID, []string{"chance=12"})
	if err != nil || !strings.Contains(text, "60.000%") || !strings.Contains(text, "35.000%") {
		t.Errorf("error %v, odds:\n%s", err, text)
	}
}
