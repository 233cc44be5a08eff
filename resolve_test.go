package fray_test

import (
	"strings"
	"testing"

	"fray"
)

// TestResolve checks the one place a typed name becomes a combatant: exact
// after NFC, then without regard to case, ambiguity refused, and only the
// combatants the viewer sees as candidates.
func TestResolve(t *testing.T) {
	enc := &fray.Encounter{Combatants: []*fray.Combatant{
		{ID: "annannan", Name: "Ann", Side: fray.SidePC},
		{ID: "silassil", Name: "Silas", Hidden: true},
		{ID: "josejose", Name: "José"},
		{ID: "kimkimki", Name: "Kim"},
		{ID: "kimupper", Name: "KIM"}, // add refuses this; a resolver must not guess
	}}
	player := fray.Viewer{Role: fray.RolePlayer, Combatant: "annannan"}
	tests := []struct {
		name   string
		v      fray.Viewer
		give   string
		want   fray.CombatantID
		code   string
		reason string
	}{
		{"exact", fray.GM, "Ann", "annannan", "", ""},
		{"any case", fray.GM, "aNN", "annannan", "", ""},
		{"a case-fold variant", fray.GM, "ſilas", "silassil", "", ""},
		{"NFD of an NFC name", fray.GM, "Jose\u0301", "josejose", "", ""},
		{"exact beats folded", fray.GM, "KIM", "kimupper", "", ""},
		{"ambiguous", fray.GM, "kim", "", fray.EINVALID, ""},
		{"nobody", fray.GM, "Zed", "", fray.ENOTFOUND, ""},
		{"empty", fray.GM, "", "", fray.EINVALID, ""},
		{"a player names a visible one", player, "ann", "annannan", "", ""},
		{"a player names a hidden one", player, "Silas", "", fray.ENOTFOUND, ""},
		{"a player folds to a hidden one", player, "ſilas", "", fray.ENOTFOUND, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := enc.Resolve(tc.v, tc.give)
			if tc.code != "" {
				if fray.ErrorCode(err) != tc.code {
					t.Fatalf("got %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil || c.ID != tc.want {
				t.Fatalf("got %v, %v; want %s", c, err, tc.want)
			}
		})
	}
	// A hidden name and a name nobody has get the same refusal, word for
	// word, once the name itself is out of it.
	_, hidden := enc.Resolve(player, "Silas")
	_, nobody := enc.Resolve(player, "Zelda")
	h := strings.Replace(fray.ErrorMessage(hidden), "Silas", "X", 1)
	n := strings.Replace(fray.ErrorMessage(nobody), "Zelda", "X", 1)
	if h != n || fray.ErrorCode(hidden) != fray.ErrorCode(nobody) {
		t.Errorf("%q and %q differ", h, n)
	}
	// A name nobody has gets the nearest name the viewer sees, and never
	// a hidden one: "Silus" is one edit from hidden Silas, so a player
	// gets what "Zelda" gets, and the GM the suggestion.
	for _, tc := range []struct {
		v          fray.Viewer
		give, want string
	}{
		{fray.GM, "Anne", `There is no combatant named "Anne"; did you mean Ann?`},
		{fray.GM, "Jsé", `There is no combatant named "Jsé"; did you mean José?`},
		{fray.GM, "Silus", `There is no combatant named "Silus"; did you mean Silas?`},
		{player, "Silus", `There is no combatant named "Silus".`},
		{player, "Annabel", `There is no combatant named "Annabel".`}, // four edits
	} {
		_, err := enc.Resolve(tc.v, tc.give)
		if got := fray.ErrorMessage(err); got != tc.want || fray.ErrorCode(err) != fray.ENOTFOUND {
			t.Errorf("%s as %s: %s %q, want not_found %q", tc.give, tc.v.Role, fray.ErrorCode(err), got, tc.want)
		}
	}
	two := &fray.Encounter{Combatants: []*fray.Combatant{{ID: "b1b1b1b1", Name: "Brigand #1"}}}
	if _, err := two.Resolve(fray.GM, "brigand 1"); !strings.HasSuffix(fray.ErrorMessage(err), `did you mean "Brigand #1"?`) {
		t.Errorf("a name with a space is offered quoted, as a command takes it: %v", err)
	}
	// Lookup resolves as the encounter's asker.
	enc.Asker = &player
	if _, err := enc.Lookup("Silas"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("Lookup as a player found Silas: %v", err)
	}
	enc.Asker = nil
	if c, err := enc.Lookup("Silas"); err != nil || c.ID != "silassil" {
		t.Errorf("Lookup as the GM: %v, %v", c, err)
	}
}

// TestRefs checks what payloads declare: tagged names at any depth and
// every CombatantID.
func TestRefs(t *testing.T) {
	type inner struct {
		Who   string `fray:"who"`
		Words string
	}
	type payload struct {
		Attacker string   `json:"attacker" fray:"who"`
		Targets  []string `json:"targets" fray:"who"`
		Power    string   `json:"power"`
		Nested   []inner
		Ptr      *inner
		ID       fray.CombatantID
		Cond     fray.Condition
	}
	p := payload{
		Attacker: "Ann", Targets: []string{"Bob", "Cy"}, Power: "Blast",
		Nested: []inner{{Who: "Dee", Words: "Eve"}}, Ptr: &inner{Who: "Fay"}, ID: "gggggggg",
		Cond: fray.Condition{Name: "marked", By: "Hal", Until: &fray.Anchor{Name: "Ivy", Edge: fray.EdgeEnd}},
	}
	names, ids := fray.Refs(p)
	want := []string{"Ann", "Bob", "Cy", "Dee", "Fay", "Hal", "Ivy"}
	if len(names) != len(want) {
		t.Fatalf("names %q, want %q", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("names %q, want %q", names, want)
		}
	}
	if len(ids) != 1 || ids[0] != "gggggggg" {
		t.Errorf("ids %q", ids)
	}
	if got := p.Cond.Who(); len(got) != 2 || got[0] != "Hal" || got[1] != "Ivy" {
		t.Errorf("Condition.Who gave %q, which Refs gives as %q", got, names[5:])
	}
	if n, i := fray.Refs(fray.SetData{Key: "mode", Value: "Ann"}); n != nil || i != nil {
		t.Errorf("a payload that declares nothing gave %q %q", n, i)
	}
}
