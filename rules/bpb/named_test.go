package bpb_test

import (
	"testing"

	"fray/rules/bpb"
	"fray/rules/rulestest"
)

// TestNamedRoll checks the declaration of the task roll by name, and one
// roll and one set of odds worked out by hand: 6 + 5 + 4 is 15, three
// over 12, an extreme success in mode open; 2d6 + 4 fails under 12 on 2 to
// 7, 21 of 36.
func TestNamedRoll(t *testing.T) {
	rulestest.CheckNamedRoll(t, bpb.New(), rulestest.NamedRollCase{
		Roll: []string{"value=4", "difficulty=12", "faces=6,5"}, RollHolds: []string{"dice: 6 5 = 11, + 4 = 15\n  extreme success", ": 3 over 12"},
		Odds: []string{"value=4", "difficulty=12"}, OddsHolds: []string{"failure   58.333%"},
	})
}
