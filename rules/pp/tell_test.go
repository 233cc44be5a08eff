package pp_test

import (
	"testing"

	"fray/rules/pp"
	"fray/rules/rulestest"
)

// TestTell plays examples/pp-combat.fray and checks the log in words,
// each event told in the state before it. Checked by hand: Paragon's Might dice 6, 4, 2, 2, 1, 3 count 2 + 1 + 1 + 1 = 5 successes (a 6 is two, a 2 or 4 one), Doctor Vile's 4, 6, 1 count 3.
func TestTell(t *testing.T) {
	rulestest.CheckTold(t, pp.New(), "../../examples/pp-combat.fray",
		"Paragon rolls might against Doctor Vile's might: 5 successes to 3 — success with a complication, 2 Health lost",
	)
}
