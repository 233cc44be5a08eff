package rulestest

import (
	"fmt"
	"slices"
	"strings"

	"fray"
)

// PageWas is what a system's page showed before the system declared its
// view hints (fray.Hints), written out for CheckHints as an oracle: each
// button a line made by ButtonLine.
type PageWas struct {
	// Slot gives the buttons on the slot s of the view v.
	Slot func(v fray.View, s fray.Slot) []string
	// Turn gives the turn's buttons while Blue Shift's turn it is.
	Turn []string
	// Card gives the buttons on the card of c.
	Card func(c fray.Combatant) []string
	// Forms and Declare are the forms shown and whether order declares
	// the order before the start.
	Forms   []string
	Declare bool
}

// ButtonLine is one button as PageWas and CheckHints compare them: what it
// does, the command it sends and its accessible name.
func ButtonLine(action, command, aria string) string {
	return action + " | " + command + " | " + aria
}

// Word returns name as a command word: quoted when it has to be.
func Word(name string) string {
	return strings.TrimPrefix(fray.Command{Name: "x", Args: []string{name}}.String(), "x ")
}

// CheckHints reports how the hints h show buttons other than the page
// showed them (was): on a slot, for every set of the markers a slot may
// carry, with the slot's combatant current, someone else or nobody, by id
// and by name; on the turn, and never while nobody's turn it is or before
// the start; on a card, aware or not; and the forms and declare.
func CheckHints(h fray.Hints, was PageWas) error {
	var errs []string
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
						got = append(got, ButtonLine(x.Action, cmd, aria))
					}
				}
				if want := was.Slot(v, s); !slices.Equal(got, want) {
					errs = append(errs, fmt.Sprintf("slot %v, current %q (ids %v):\n got %q\nwant %q", ms, v.Current, ids, got, want))
				}
			}
		}
	}
	v := fray.View{Started: true, Current: "Blue Shift", CurrentID: "c1"}
	var got []string
	for _, x := range h.Buttons {
		if x.OnTurnOf(v) {
			cmd, aria := x.Fill(v.Current, "")
			got = append(got, ButtonLine(x.Action, cmd, aria))
		}
		if x.OnTurnOf(fray.View{Started: true}) || x.OnTurnOf(fray.View{Current: "Blue Shift"}) {
			errs = append(errs, x.Action+" shows on the turn of nobody, or before the start")
		}
	}
	if !slices.Equal(got, was.Turn) {
		errs = append(errs, fmt.Sprintf("turn:\n got %q\nwant %q", got, was.Turn))
	}
	for _, unaware := range []bool{false, true} {
		c := fray.Combatant{ID: "c2", Name: "Ganyeka", Unaware: unaware}
		var got []string
		for _, x := range h.Buttons {
			if x.OnCardOf(fray.View{}, c) {
				cmd, aria := x.Fill("", c.Name)
				got = append(got, ButtonLine(x.Action, cmd, aria))
			}
		}
		if want := was.Card(c); !slices.Equal(got, want) {
			errs = append(errs, fmt.Sprintf("card of %+v:\n got %q\nwant %q", c, got, want))
		}
	}
	if !slices.Equal(h.Forms, was.Forms) || h.Declare != was.Declare {
		errs = append(errs, fmt.Sprintf("forms %q, declare %v; want %q, %v", h.Forms, h.Declare, was.Forms, was.Declare))
	}
	if len(errs) > 10 {
		errs = append(errs[:10], fmt.Sprintf("(and %d more)", len(errs)-10))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}
