package engine

import (
	"slices"
	"testing"

	"fray"
)

func TestMentions(t *testing.T) {
	enc := func() *fray.Encounter {
		return &fray.Encounter{
			Combatants: []*fray.Combatant{
				{ID: "jack", Name: "Jack"},
				{ID: "nimble", Name: "Jack B. Nimble"},
				{ID: "ganyeka", Name: "Ganyeka"},
				{ID: "henchmen", Name: "Ganyeka's henchmen"},
				{ID: "spy", Name: "Spy", Hidden: true},
				{ID: "zoe", Name: "Zoë"},
				{ID: "r2", Name: "R2"},
			},
			Gone: []fray.Departed{
				{ID: "orc", Name: "Orc"},
				{ID: "lurker", Name: "Lurker", Hidden: true},
			},
		}
	}
	player := &fray.Viewer{Role: fray.RolePlayer, Combatant: "jack"}
	tests := []struct {
		name   string
		asker  *fray.Viewer
		text   string
		except []string
		want   []string
	}{
		{name: "empty", text: "", want: nil},
		{name: "nobody", text: "swings wildly", want: nil},
		{name: "whole word", text: "hits Jack", want: []string{"Jack"}},
		{name: "not inside a word", text: "Jackal, Orcish, Ganyekas, Spyglass", want: nil},
		{name: "digit is part of a word", text: "R22 and R2D2", want: nil},
		{name: "underscore is part of a word", text: "jack_knife", want: nil},
		{name: "case ignored", text: "JACK and ganYEKA", want: []string{"Jack", "Ganyeka"}},
		{name: "order of first occurrence", text: "Ganyeka, then Jack, then Ganyeka", want: []string{"Ganyeka", "Jack"}},
		{name: "longest first", text: "jack b. nimble jumps", want: []string{"Jack B. Nimble"}},
		{name: "short one elsewhere", text: "Jack B. Nimble trips Jack", want: []string{"Jack B. Nimble", "Jack"}},
		{name: "apostrophe", text: "Ganyeka's henchmen charge", want: []string{"Ganyeka's henchmen"}},
		{name: "possessive", text: "Ganyeka's axe falls", want: []string{"Ganyeka"}},
		{name: "curly apostrophe", text: "Ganyeka’s axe falls", want: []string{"Ganyeka"}},
		{name: "except", text: "Jack hits Ganyeka", except: []string{"jack"}, want: []string{"Ganyeka"}},
		{name: "except several", text: "Jack hits Ganyeka", except: []string{"Ganyeka", "Jack"}, want: nil},
		{name: "non-ASCII, case and NFC", text: "ZOE\u0308 waves; zoë too", want: []string{"Zoë"}},
		{name: "hidden for the GM", text: "the Spy lurks", want: []string{"Spy"}},
		{name: "hidden for the GM asker", asker: &fray.GM, text: "the Spy lurks", want: []string{"Spy"}},
		{name: "hidden for a player", asker: player, text: "the Spy lurks", want: nil},
		{name: "removed", text: "the orc fled", want: []string{"Orc"}},
		{name: "removed for a player", asker: player, text: "the orc fled", want: []string{"Orc"}},
		{name: "removed hidden for the GM", text: "the Lurker is gone", want: []string{"Lurker"}},
		{name: "removed hidden for a player", asker: player, text: "the Lurker is gone", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := enc()
			e.Asker = tt.asker
			if got := Mentions(e, tt.text, tt.except...); !slices.Equal(got, tt.want) {
				t.Errorf("Mentions(%q, except %q) = %q, want %q", tt.text, tt.except, got, tt.want)
			}
		})
	}
}

func TestMentionsGoneTwice(t *testing.T) {
	// A name both present and removed is the present combatant's; one
	// removed twice is the latest's.
	enc := &fray.Encounter{
		Combatants: []*fray.Combatant{{ID: "b", Name: "Bandit"}},
		Gone: []fray.Departed{
			{ID: "a", Name: "bandit"},
			{ID: "w1", Name: "wolf"},
			{ID: "w2", Name: "Wolf"},
		},
	}
	want := []string{"Bandit", "Wolf"}
	if got := Mentions(enc, "BANDIT and WOLF"); !slices.Equal(got, want) {
		t.Errorf("Mentions = %q, want %q", got, want)
	}
}
