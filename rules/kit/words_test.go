package kit_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/rules/kit"
)

func TestTitle(t *testing.T) {
	for in, want := range map[string]string{"": "", "agility": "Agility", "Willpower": "Willpower", "x": "X"} {
		if got := kit.Title(in); got != want {
			t.Errorf("Title(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestQuoteName(t *testing.T) {
	for in, want := range map[string]string{"Kim": "Kim", "Big Kim": `"Big Kim"`} {
		if got := kit.QuoteName(in); got != want {
			t.Errorf("QuoteName(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestStat(t *testing.T) {
	c := &fray.Combatant{Name: "Big Kim", Stats: map[string]int{"agility": 4}}
	if v, err := kit.Stat(c, "agility", " rank"); v != 4 || err != nil {
		t.Errorf("Stat(agility) = %d, %v; want 4, nil", v, err)
	}
	cases := []struct{ suffix, want string }{
		{" rank", `Big Kim has no Willpower rank; give it with add "Big Kim" willpower=N or a sheet.`},
		{"", `Big Kim has no Willpower; give it with add "Big Kim" willpower=N or a sheet.`},
	}
	for _, tc := range cases {
		_, err := kit.Stat(c, "willpower", tc.suffix)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Stat(willpower, %q) = %v; want %s", tc.suffix, err, tc.want)
		}
	}
}

func TestLookupTwo(t *testing.T) {
	enc := &fray.Encounter{Combatants: []*fray.Combatant{{ID: "c1", Name: "Kim"}, {ID: "c2", Name: "Ganyeka"}}}
	a, b, err := kit.LookupTwo(enc, fray.Command{Name: "attack", Args: []string{"kim", "Ganyeka"}})
	if err != nil || a.ID != "c1" || b.ID != "c2" {
		t.Fatalf("LookupTwo(kim Ganyeka) = %v, %v, %v; want Kim, Ganyeka", a, b, err)
	}
	for _, args := range [][]string{{"Nobody", "Kim"}, {"Kim", "Nobody"}} {
		if a, b, err := kit.LookupTwo(enc, fray.Command{Name: "attack", Args: args}); err == nil || a != nil || b != nil {
			t.Errorf("LookupTwo(%q) = %v, %v, %v; want an error", args, a, b, err)
		}
	}
}

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
