package kit_test

import (
	"testing"

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
