package kit_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/rules/kit"
)

type entry struct {
	id   fray.CombatantID
	note string
}

func (e *entry) Key() fray.CombatantID { return e.id }

func TestFindDrop(t *testing.T) {
	a, b, c := &entry{"a1", "first"}, &entry{"b2", "second"}, &entry{"c3", "third"}
	xs := []*entry{a, b, c}
	if got := kit.Find(xs, "b2"); got != b {
		t.Errorf("Find(b2) = %v; want %v", got, b)
	}
	if got := kit.Find(xs, "zz"); got != nil {
		t.Errorf("Find(zz) = %v; want nil", got)
	}
	if got := kit.Find([]*entry(nil), "a1"); got != nil {
		t.Errorf("Find in none = %v; want nil", got)
	}
	cases := []struct {
		name string
		id   fray.CombatantID
		want []string
	}{
		{"middle", "b2", []string{"first", "third"}},
		{"first", "a1", []string{"second", "third"}},
		{"absent", "zz", []string{"first", "second", "third"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range kit.Drop([]*entry{a, b, c}, tc.id) {
				got = append(got, e.note)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Drop(%s) (-want +got):\n%s", tc.id, diff)
			}
		})
	}
}

type deepEntry struct {
	id   fray.CombatantID
	foes []fray.CombatantID
}

func TestCloneEach(t *testing.T) {
	if got := kit.CloneEach([]*deepEntry(nil), nil); got != nil {
		t.Errorf("CloneEach(nil) = %v; want nil", got)
	}
	if got := kit.CloneEach([]*deepEntry{}, nil); got == nil || len(got) != 0 {
		t.Errorf("CloneEach(empty) = %#v; want empty, not nil", got)
	}
	xs := []*deepEntry{{id: "a1", foes: []fray.CombatantID{"b2"}}, {id: "b2"}}
	shallow := kit.CloneEach(xs, nil)
	deep := kit.CloneEach(xs, func(e *deepEntry) { e.foes = slices.Clone(e.foes) })
	for i := range xs {
		if shallow[i] == xs[i] || deep[i] == xs[i] {
			t.Fatalf("entry %d is shared, not copied", i)
		}
	}
	xs[0].id = "zz"
	xs[0].foes[0] = "zz"
	if shallow[0].id != "a1" || deep[0].id != "a1" {
		t.Errorf("the copies' ids changed with the original: %s, %s", shallow[0].id, deep[0].id)
	}
	if shallow[0].foes[0] != "zz" || deep[0].foes[0] != "b2" {
		t.Errorf("foes: shallow %v (want it shared: zz), deep %v (want its own: b2)", shallow[0].foes, deep[0].foes)
	}
}

// TestCloneInto checks that a copy made in another slice's memory is
// slices.Clone's: nil for nil, empty for empty, and the elements.
func TestCloneInto(t *testing.T) {
	room := make([]int, 5, 8)
	for _, src := range [][]int{nil, {}, {1}, {1, 2, 3}, {9, 8, 7, 6, 5, 4, 3, 2, 1}} {
		got := kit.CloneInto(room, src)
		if want := slices.Clone(src); !reflect.DeepEqual(got, want) {
			t.Errorf("CloneInto(%v) = %#v, want %#v", src, got, want)
		}
		if len(src) > 0 {
			got[0] = -1
			if src[0] == -1 {
				t.Errorf("CloneInto(%v) shares its elements", src)
			}
		}
	}
}

// TestScratchEncounterInto makes encounters in the memory of copies of
// others, conditions nil, empty and held among them, and compares them
// with ScratchEncounter's.
func TestScratchEncounterInto(t *testing.T) {
	cond := func(names ...string) []fray.Condition {
		var out []fray.Condition
		for _, n := range names {
			out = append(out, fray.Condition{Name: n})
		}
		return out
	}
	encs := []fray.Encounter{
		{},
		{Combatants: []*fray.Combatant{}},
		{Combatants: []*fray.Combatant{{ID: "a", Conditions: cond("dazed", "prone")}, {ID: "b"}}, Settings: map[string]string{"x": "1"}},
		{Combatants: []*fray.Combatant{{ID: "a", Conditions: []fray.Condition{}}, {ID: "b", Conditions: cond("stunned")}}, Gone: []fray.Departed{{ID: "c"}}, Settings: map[string]string{}},
		{Combatants: []*fray.Combatant{{ID: "a"}, {ID: "b", Conditions: cond("x", "y", "z")}}, Round: 3},
	}
	for i := range encs {
		for j := range encs {
			d := kit.ScratchEncounter(&encs[j])
			kit.ScratchEncounterInto(&d, &encs[i])
			if want := kit.ScratchEncounter(&encs[i]); !reflect.DeepEqual(d, want) {
				t.Errorf("encounter %d made in a copy of %d:\n%+v\nwant\n%+v", i, j, d, want)
			}
		}
	}
}
