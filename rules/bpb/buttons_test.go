package bpb_test

import (
	"testing"

	"fray"
	"fray/rules/bpb"
	"fray/rules/rulestest"
)

// TestHints checks the page's buttons for bpb against those the page made
// before the system declared them (web/static/systems.js, written out
// here as was): on every set of markers a slot may carry, with the slot's
// combatant current, someone else or nobody, by id and by name; on the
// turn; on a card, aware or not; and the forms and the way the order is
// set before the start.
func TestHints(t *testing.T) {
	h := bpb.New().Hints()
	q := rulestest.Word
	b := rulestest.ButtonLine
	was := func(v fray.View, s fray.Slot) []string {
		var out []string
		if s.Has(fray.MarkEnvironment) || s.Has(fray.MarkUnaware) {
			return out
		}
		if s.Has(fray.MarkDelayed) && !s.Has(fray.MarkCurrent) && !s.Has(fray.MarkActed) && v.Current != s.Name {
			out = append(out, b("interrupt", "interrupt "+q(s.Name), s.Name+" interrupts: take the delayed turn now"))
		}
		if !s.Has(fray.MarkLost) && !s.Has(fray.MarkForced) {
			out = append(out, b("force", "force "+q(s.Name), "Force an action for "+s.Name))
		}
		return out
	}
	turn := []string{b("next", `next "Blue Shift"`, "Next: end Blue Shift's turn"), b("delay", `delay "Blue Shift"`, "Delay Blue Shift's turn")}
	card := func(c fray.Combatant) []string {
		if !c.Unaware {
			return nil
		}
		return []string{b("aware", "aware "+q(c.Name), c.Name+" becomes aware")}
	}
	err := rulestest.CheckHints(h, rulestest.PageWas{Slot: was, Turn: turn, Card: card, Forms: []string{"reorder"}, Declare: true})
	if err != nil {
		t.Error(err)
	}
}
