package fray_test

import (
	"testing"

	"fray"
)

func TestRoundTurnsString(t *testing.T) {
	r := fray.RoundTurns{Round: 3, Turns: []string{"Ganyeka", "Monolith", "Blueshift (delayed)", "Ganyeka's henchmen"}}
	if got, want := r.String(), "Round 3: Ganyeka, Monolith, Blueshift (delayed), Ganyeka's henchmen"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := (fray.RoundTurns{Round: 7, Turns: []string{}}).String(), "Round 7:"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSlotString(t *testing.T) {
	for _, tc := range []struct {
		s    fray.Slot
		want string
	}{
		{fray.Slot{Name: "Ann"}, "Ann"},
		{fray.Slot{Name: "Ann", Markers: []string{fray.MarkCurrent}, Note: "major"}, "Ann (current, major)"},
		{fray.Slot{Name: "Bear", Note: "major", Status: "hp 6/10"}, "Bear (major, hp 6/10)"},
		{fray.Slot{Name: "Bear", Status: "hp 6/10"}, "Bear (hp 6/10)"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.s, got, tc.want)
		}
	}
}
