package kit_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/rules/kit"
)

func TestSetTrack(t *testing.T) {
	c := &fray.Combatant{Name: "Kim"}
	kit.SetTrack(c, "life", fray.Track{Value: 3, Max: 10})
	kit.SetTrack(c, "ammo", fray.Track{Value: 6, Max: 6})
	kit.SetTrack(c, "life", fray.Track{Value: 2, Max: 10})
	want := map[string]fray.Track{"life": {Value: 2, Max: 10}, "ammo": {Value: 6, Max: 6}}
	if diff := cmp.Diff(want, c.Tracks); diff != "" {
		t.Errorf("tracks (-want +got):\n%s", diff)
	}
}

// TestSheetWritersCopy changes each part of a sheet through kit's writers
// on a copy that shares its maps and slices with the original, as
// fray.SheetSharer's copies do: the original must not change.
func TestSheetWritersCopy(t *testing.T) {
	orig := &fray.Combatant{
		Name:      "Kim",
		Stats:     map[string]int{"agility": 3},
		Tracks:    map[string]fray.Track{"life": {Value: 10, Max: 10}},
		Powers:    make([]fray.Power, 1, 4), // room to grow in place
		Expertise: make([]string, 1, 4),
	}
	orig.Powers[0] = fray.Power{Name: "Punch", Rank: 2}
	orig.Expertise[0] = "boxing"
	was := orig.Clone()
	c := *orig // shares every map and slice
	kit.SetTrack(&c, "life", fray.Track{Value: 4, Max: 10})
	kit.SetStat(&c, "agility", 5)
	kit.SetStat(&c, "strength", 1)
	kit.AddPower(&c, fray.Power{Name: "Kick", Rank: 1})
	kit.AddExpertise(&c, "kicking")
	if p := kit.OwnPower(&c, "punch"); p == nil {
		t.Fatal("OwnPower(punch) = nil")
	} else {
		p.Rank = 3
	}
	if p := kit.OwnPower(&c, "flight"); p != nil {
		t.Errorf("OwnPower(flight) = %+v, want nil", p)
	}
	if diff := cmp.Diff(was, orig); diff != "" {
		t.Errorf("the original changed (-was +now):\n%s", diff)
	}
	// What the other writers did must not be seen by the one after them
	// in the spare room of a shared slice, either.
	orig.Powers = append(orig.Powers, fray.Power{Name: "Grab"})
	orig.Expertise = append(orig.Expertise, "grappling")
	want := fray.Combatant{
		Name:      "Kim",
		Stats:     map[string]int{"agility": 5, "strength": 1},
		Tracks:    map[string]fray.Track{"life": {Value: 4, Max: 10}},
		Powers:    []fray.Power{{Name: "Punch", Rank: 3}, {Name: "Kick", Rank: 1}},
		Expertise: []string{"boxing", "kicking"},
	}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("the copy (-want +got):\n%s", diff)
	}
}
