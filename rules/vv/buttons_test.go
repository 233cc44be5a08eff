package vv_test

import (
	"testing"

	"fray"
	"fray/rules/rulestest"
	"fray/rules/vv"
)

// TestHints checks the page's buttons for vv against those the page made
// before the system declared them (web/static/systems.js, written out
// here as was): on every set of markers a slot may carry, with the slot's
// combatant current, someone else or nobody, by id and by name; on the
// turn; on a card, aware or not; and the forms and the way the order is
// set before the start.
func TestHints(t *testing.T) {
	h := vv.New().Hints()
	q := rulestest.Word
	b := rulestest.ButtonLine
	was := func(v fray.View, s fray.Slot) []string {
		var out []string
		if s.Has(fray.MarkHeld) && !s.Has(fray.MarkActed) && s.Name != v.Current {
			out = append(out, b("interrupt", "interrupt "+q(s.Name), s.Name+" interrupts with the held action"))
		}
		return out
	}
	turn := []string{b("act", `act "Blue Shift"`, "Blue Shift acts"), b("hold", "hold", "Blue Shift holds the action"),
		b("decline", "decline", "Blue Shift declines the action"), b("next", "next", "Next: Blue Shift is done")}
	card := func(fray.Combatant) []string { return nil }
	err := rulestest.CheckHints(h, rulestest.PageWas{Slot: was, Turn: turn, Card: card, Forms: []string{"move"}, Declare: false})
	if err != nil {
		t.Error(err)
	}
}
