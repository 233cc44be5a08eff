package kit_test

import (
	"slices"
	"testing"

	"fray"
	"fray/rules/kit"
)

// copied is a system's state as kit's copies make it: an encounter and
// a list of its own, which CopyRest copies into the memory the copy has.
type copied struct {
	fray.Encounter
	order []fray.CombatantID
}

func (s *copied) Base() *fray.Encounter { return &s.Encounter }
func (s *copied) Clone() fray.State     { return kit.Clone(s) }
func (s *copied) CopyRest(d *copied)    { d.order = kit.CloneInto(d.order, s.order) }

func copiedState() *copied {
	return &copied{
		Encounter: fray.Encounter{Round: 3, Combatants: []*fray.Combatant{
			{ID: "a1", Name: "Ada", Stats: map[string]int{"hp": 5}, Conditions: []fray.Condition{{Name: "prone"}}},
			{ID: "b2", Name: "Bo", Stats: map[string]int{"hp": 7}},
		}},
		order: []fray.CombatantID{"b2", "a1"},
	}
}

// TestCopies checks the three copies: Clone shares nothing with the
// state; Scratch shares the sheets and nothing else; ScratchInto makes
// its copy in the memory of the one it is given, and ScratchSpare in a
// spare of the same type only.
func TestCopies(t *testing.T) {
	s := copiedState()
	full := kit.Clone(s)
	full.Combatants[0].Stats["hp"] = 1
	full.order[0] = "zz"
	if s.Combatants[0].Stats["hp"] != 5 || s.order[0] != "b2" {
		t.Errorf("Clone shares the sheets or the rest: %+v %v", s.Combatants[0].Stats, s.order)
	}
	if full.Round != 3 || len(full.Combatants) != 2 || full.Combatants[1].Name != "Bo" {
		t.Errorf("Clone = %+v; want the state", full.Encounter)
	}

	sc := kit.Scratch(s)
	if sc.Combatants[0] == s.Combatants[0] {
		t.Error("Scratch shares the combatants themselves")
	}
	sc.Combatants[0].Conditions[0].Name = "grappled"
	sc.order[1] = "zz"
	if s.Combatants[0].Conditions[0].Name != "prone" || s.order[1] != "a1" {
		t.Errorf("Scratch shares the conditions or the rest: %+v %v", s.Combatants[0].Conditions, s.order)
	}
	sc.Combatants[0].Stats["hp"] = 2 // shared: Apply never does this
	if s.Combatants[0].Stats["hp"] != 2 {
		t.Error("Scratch copies the sheets; want them shared")
	}
	s.Combatants[0].Stats = map[string]int{"hp": 5}

	again := kit.ScratchInto(s, sc)
	if again != sc || again.Combatants[0] != sc.Combatants[0] {
		t.Error("ScratchInto makes a new copy; want it made in the one given")
	}
	if again.Combatants[0].Conditions[0].Name != "prone" || !slices.Equal(again.order, s.order) || again.Combatants[0].Stats["hp"] != 5 {
		t.Errorf("ScratchInto = %+v %v; want the state", again.Combatants[0], again.order)
	}
	if d := kit.ScratchInto(s, nil); d == nil || d == sc || !slices.Equal(d.order, s.order) {
		t.Errorf("ScratchInto(nil) = %v; want a new copy", d)
	}

	if d := kit.ScratchSpare(s, fray.State(sc)); d != sc {
		t.Error("ScratchSpare does not use a spare of its type")
	}
	type other struct{ fray.State }
	if d := kit.ScratchSpare(s, other{}); d == sc || d == nil || d.Round != 3 {
		t.Errorf("ScratchSpare with a spare of another type = %v; want a new copy", d)
	}
	if d := kit.ScratchSpare(s, nil); d == nil || d.Round != 3 {
		t.Errorf("ScratchSpare(nil) = %v; want a new copy", d)
	}
}
