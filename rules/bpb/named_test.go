package bpb_test

import (
	"strings"
	"testing"

	"fray"
	"fray/dice"
	"fray/rules/bpb"
	"fray/rules/kit"
)

// TestNamedRoll checks the declaration of the task roll by name, and one
// roll and one set of odds worked out by hand: 6 + 5 + 4 is 15, three
// over 12, an extreme success in mode open; 2d6 + 4 fails under 12 on 2 to
// 7, 21 of 36.
func TestNamedRoll(t *testing.T) {
	var sys fray.System = bpb.New()
	nr, ok := sys.(kit.NamedRoller)
	if !ok {
		t.Fatal("bpb offers no named roll")
	}
	roll := nr.NamedRoll()
	if err := roll.Check(bpb.ID); err != nil {
		t.Fatal(err)
	}
	r, err := roll.MakeRoll(bpb.ID, []string{"value=4", "difficulty=12", "faces=6,5"})
	if err != nil {
		t.Fatal(err)
	}
	_, text, err := r.Make(dice.Faces())
	if err != nil || !r.Physical || !strings.Contains(text, "dice: 6 5 = 11, + 4 = 15\n  extreme success") || !strings.Contains(text, ": 3 over 12") {
		t.Errorf("physical %v, error %v, roll:\n%s", r.Physical, err, text)
	}
	_, text, err = roll.Odds(bpb.ID, []string{"value=4", "difficulty=12"})
	if err != nil || !strings.Contains(text, "failure   58.333%") {
		t.Errorf("error %v, odds:\n%s", err, text)
	}
}
