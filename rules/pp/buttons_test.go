package pp_test

import (
	"testing"

	"fray"
	"fray/rules/pp"
	"fray/rules/rulestest"
)

// TestHints checks the page's buttons for pp against those the page made
// before the system declared them (web/static/systems.js, written out
// here as was): on every set of markers a slot may carry, with the slot's
// combatant current, someone else or nobody, by id and by name; on the
// turn; on a card, aware or not; and the forms and the way the order is
// set before the start.
func TestHints(t *testing.T) {
	h := pp.New().Hints()
	b := rulestest.ButtonLine
	was := func(fray.View, fray.Slot) []string { return nil }
	turn := []string{b("act", `act "Blue Shift"`, "Blue Shift takes an action"), b("next", "next", "Next: end Blue Shift's turn")}
	card := func(fray.Combatant) []string { return nil }
	err := rulestest.CheckHints(h, rulestest.PageWas{Slot: was, Turn: turn, Card: card, Forms: []string(nil), Declare: false})
	if err != nil {
		t.Error(err)
	}
}
