package cinematic_test

import (
	"testing"

	"fray"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

// TestHints checks the page's buttons for cinematic against those the page made
// before the system declared them (web/static/systems.js, written out
// here as was): on every set of markers a slot may carry, with the slot's
// combatant current, someone else or nobody, by id and by name; on the
// turn; on a card, aware or not; and the forms and the way the order is
// set before the start.
func TestHints(t *testing.T) {
	h := cinematic.New().Hints()
	q := rulestest.Word
	b := rulestest.ButtonLine
	was := func(v fray.View, s fray.Slot) []string {
		if s.Name == v.Current || v.Current == "" {
			return nil
		}
		return []string{b("defend", "defend "+q(s.Name)+" against="+q(v.Current), s.Name+" defends against "+v.Current)}
	}
	turn := []string{b("attack", "attack", "Blue Shift attacks"), b("next", "next", "Next: end Blue Shift's turn")}
	card := func(fray.Combatant) []string { return nil }
	err := rulestest.CheckHints(h, rulestest.PageWas{Slot: was, Turn: turn, Card: card, Forms: []string{"attack", "full"}, Declare: false})
	if err != nil {
		t.Error(err)
	}
}
