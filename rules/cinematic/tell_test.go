package cinematic_test

import (
	"testing"

	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

// TestTell plays examples/cinematic-brawl.fray and checks the log in words,
// each event told in the state before it. Checked by hand: Slayer's
// 7 + Dexterity 7 = 14 against Thug's dodge, 5 + 3 = 8 (C-2); an attack
// that waits for the answer, 6 + 7 = 13 (C-4).
func TestTell(t *testing.T) {
	rulestest.CheckTold(t, cinematic.New(), "../../examples/cinematic-brawl.fray",
		"Slayer attacks Thug with punch: 1d10 7 + 7 = 14 against Thug's dodge 1d10 5 + 3 = 8 — hit, 3 success levels, 9 damage",
		"Slayer attacks Thug with punch: 1d10 6 + 7 = 13, waiting for Thug's answer",
	)
}
