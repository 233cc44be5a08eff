package pp_test

import (
	"slices"
	"testing"

	"fray"
	"fray/rules/pp"
)

// TestHints checks the page's buttons for pp against those the page made
// before the system declared them (web/static/systems.js, written out
// here as was): on every set of markers a slot may carry, with the slot's
// combatant current, someone else or nobody, by id and by name; on the
// turn; on a card, aware or not; and the forms and the way the order is
// set before the start.
func TestHints(t *testing.T) {
	h := pp.New().Hints()
	b := func(action, cmd, aria string) string { return action + " | " + cmd + " | " + aria }
	was := func(fray.View, fray.Slot) []string { return nil }
	turn := []string{b("act", `act "Blue Shift"`, "Blue Shift takes an action"), b("next", "next", "Next: end Blue Shift's turn")}
	card := func(fray.Combatant) []string { return nil }
	forms, declare := []string(nil), false
	marks := []string{fray.MarkActed, fray.MarkCurrent, fray.MarkDelayed, fray.MarkHeld, fray.MarkForced,
		fray.MarkLost, fray.MarkEnvironment, fray.MarkReacted, fray.MarkUnaware}
	for bits := range 1 << len(marks) {
		var ms []string
		for i, m := range marks {
			if bits&(1<<i) != 0 {
				ms = append(ms, m)
			}
		}
		for _, ids := range []bool{false, true} {
			for _, cur := range []fray.CombatantID{"", "c1", "c2"} {
				v := fray.View{Started: true, Current: map[fray.CombatantID]string{"c1": "Blue Shift", "c2": "Ganyeka"}[cur]}
				s := fray.Slot{Name: "Blue Shift", Markers: ms}
				if ids {
					v.CurrentID, s.ID = cur, "c1"
				}
				var got []string
				for _, x := range h.Buttons {
					if x.OnSlotOf(v, s) {
						cmd, aria := x.Fill(v.Current, s.Name)
						got = append(got, b(x.Action, cmd, aria))
					}
				}
				if want := was(v, s); !slices.Equal(got, want) {
					t.Errorf("slot %v, current %q (ids %v):\n got %q\nwant %q", ms, v.Current, ids, got, want)
				}
			}
		}
	}

	v := fray.View{Started: true, Current: "Blue Shift", CurrentID: "c1"}
	var got []string
	for _, x := range h.Buttons {
		if x.OnTurnOf(v) {
			cmd, aria := x.Fill(v.Current, "")
			got = append(got, b(x.Action, cmd, aria))
		}
		if x.OnTurnOf(fray.View{Started: true}) || x.OnTurnOf(fray.View{Current: "Blue Shift"}) {
			t.Errorf("%s shows on the turn of nobody, or before the start", x.Action)
		}
	}
	if !slices.Equal(got, turn) {
		t.Errorf("turn:\n got %q\nwant %q", got, turn)
	}

	for _, unaware := range []bool{false, true} {
		c := fray.Combatant{ID: "c2", Name: "Ganyeka", Unaware: unaware}
		var got []string
		for _, x := range h.Buttons {
			if x.OnCardOf(fray.View{}, c) {
				cmd, aria := x.Fill("", c.Name)
				got = append(got, b(x.Action, cmd, aria))
			}
		}
		if want := card(c); !slices.Equal(got, want) {
			t.Errorf("card of %+v:\n got %q\nwant %q", c, got, want)
		}
	}
	if !slices.Equal(h.Forms, forms) || h.Declare != declare {
		t.Errorf("forms %q, declare %v; want %q, %v", h.Forms, h.Declare, forms, declare)
	}
}
