package fray_test

import (
	"reflect"
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

func TestForPlayers(t *testing.T) {
	v := fray.View{
		Rules: "bpb", Started: true, Round: 2, Current: "Lurker",
		Order:   []fray.Slot{{Name: "Ann", Markers: []string{fray.MarkActed}}, {Name: "Lurker", Markers: []string{fray.MarkCurrent}}, {Name: "Bob"}},
		Next:    []fray.Slot{{Name: "Ann"}, {Name: "Lurker"}, {Name: "Bob"}},
		History: []fray.RoundTurns{{Round: 1, Turns: []string{"Ann", "Lurker (forced)", "Bob"}}, {Round: 2, Turns: []string{"Ann", "Lurker"}}},
		Combatants: []fray.Combatant{
			{Name: "Ann", Side: fray.SidePC}, {Name: "Lurker", Hidden: true}, {Name: "Bob"},
		},
	}
	p := v.ForPlayers()
	want := fray.View{
		Rules: "bpb", Started: true, Round: 2, Current: "",
		Order:      []fray.Slot{{Name: "Ann", Markers: []string{fray.MarkActed}}, {Name: "Bob"}},
		Next:       []fray.Slot{{Name: "Ann"}, {Name: "Bob"}},
		History:    []fray.RoundTurns{{Round: 1, Turns: []string{"Ann", "Bob"}}, {Round: 2, Turns: []string{"Ann"}}},
		Combatants: []fray.Combatant{{Name: "Ann", Side: fray.SidePC}, {Name: "Bob"}},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("ForPlayers:\n got %+v\nwant %+v", p, want)
	}
	if len(v.Order) != 3 || len(v.History[0].Turns) != 3 {
		t.Error("ForPlayers changed the GM's view")
	}
}
