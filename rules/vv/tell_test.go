package vv_test

import (
	"testing"

	"fray/rules/rulestest"
	"fray/rules/vv"
)

// TestTell plays examples/vv-brawl.fray and checks the log in words,
// each event told in the state before it. Checked by hand: Tank's 10 on the d20 is at most his chance 10, a hit; of the 9 damage 3 come off Vex's Power and 6 off her Hit Points, 16 → 10.
func TestTell(t *testing.T) {
	rulestest.CheckTold(t, vv.New(), "../../examples/vv-brawl.fray",
		"Tank attacks Vex with Slam: 1d20 10 against 10 or less — hit, 9 damage dealt (3 to Power, 6 to Hit Points): hit points 16 → 10",
	)
}
