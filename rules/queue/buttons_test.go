package queue_test

import (
	"testing"

	"fray"
	"fray/rules/queue"
	"fray/rules/rulestest"
)

// TestHints checks the page's buttons for queue against those the page made
// before the system declared them (web/static/systems.js, written out
// here as was): on every set of markers a slot may carry, with the slot's
// combatant current, someone else or nobody, by id and by name; on the
// turn; on a card, aware or not; and the forms and the way the order is
// set before the start.
func TestHints(t *testing.T) {
	h := queue.New().Hints()
	q := rulestest.Word
	b := rulestest.ButtonLine
	was := func(v fray.View, s fray.Slot) []string {
		if s.Name == v.Current || v.Current == "" {
			return nil
		}
		return []string{b("react", "react "+q(s.Name)+" to="+q(v.Current), s.Name+" reacts to "+v.Current)}
	}
	turn := []string{b("major", `act "Blue Shift" major`, "Blue Shift takes a Major action"),
		b("minor", `act "Blue Shift" minor`, "Blue Shift takes a Minor action"),
		b("next", `next "Blue Shift"`, "Next: Blue Shift goes to the bottom of the queue")}
	card := func(fray.Combatant) []string { return nil }
	err := rulestest.CheckHints(h, rulestest.PageWas{Slot: was, Turn: turn, Card: card, Forms: []string(nil), Declare: false})
	if err != nil {
		t.Error(err)
	}
}
