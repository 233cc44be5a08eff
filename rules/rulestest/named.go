package rulestest

import (
	"strings"
	"testing"

	"fray"
	"fray/dice"
	"fray/rules/kit"
)

// NamedRollCase is a system's named roll worked out by hand: one roll
// from dice given at the table and the odds of another, each with words
// its text must hold.
type NamedRollCase struct {
	// Roll is the roll's key=value words, the table's faces among them.
	Roll []string
	// RollHolds lists what the roll's text must hold.
	RollHolds []string
	// Odds is the key=value words whose odds are asked for.
	Odds []string
	// OddsHolds lists what the odds' text must hold.
	OddsHolds []string
}

// CheckNamedRoll checks that sys offers a named roll (kit.NamedRoller)
// whose declaration is well formed (kit.NamedRoll.Check) and that it
// answers c as worked out by hand, and returns the roll.
func CheckNamedRoll(t *testing.T, sys fray.System, c NamedRollCase) kit.NamedRoll {
	t.Helper()
	nr, ok := sys.(kit.NamedRoller)
	if !ok {
		t.Fatalf("%s offers no named roll", sys.ID())
	}
	roll := nr.NamedRoll()
	if err := roll.Check(sys.ID()); err != nil {
		t.Fatal(err)
	}
	r, err := roll.MakeRoll(sys.ID(), c.Roll)
	if err != nil {
		t.Fatalf("roll %q: %v", c.Roll, err)
	}
	_, text, err := r.Make(dice.Faces())
	if err != nil || !r.Physical {
		t.Errorf("roll %q: physical %v, error %v", c.Roll, r.Physical, err)
	}
	for _, want := range c.RollHolds {
		if !strings.Contains(text, want) {
			t.Errorf("roll %q lacks %q:\n%s", c.Roll, want, text)
		}
	}
	_, text, err = roll.Odds(sys.ID(), c.Odds)
	if err != nil {
		t.Errorf("odds %q: %v", c.Odds, err)
	}
	for _, want := range c.OddsHolds {
		if !strings.Contains(text, want) {
			t.Errorf("odds %q lack %q:\n%s", c.Odds, want, text)
		}
	}
	return roll
}
