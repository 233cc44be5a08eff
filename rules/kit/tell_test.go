package kit_test

import (
	"testing"

	"fray"
	"fray/rules/kit"
)

func TestTellRound(t *testing.T) {
	name := func(id fray.CombatantID) string {
		if id == "z" {
			return "" // one the reader may not know of
		}
		return map[fray.CombatantID]string{"a": "Ann", "b": "Bo"}[id]
	}
	for _, c := range []struct {
		name     string
		word     string
		d        kit.RoundData
		redacted bool
		want     string
	}{
		{"order", "Round", kit.RoundData{Round: 2, Order: []fray.CombatantID{"b", "a"}}, false, "Round 2: Bo, Ann act in that order."},
		{"alone", "Page", kit.RoundData{Round: 1, Order: []fray.CombatantID{"a"}}, false, "Page 1: Ann acts alone."},
		{"nobody", "Round", kit.RoundData{Round: 4}, false, "Round 4 begins, with nobody to act."},
		{"redacted", "Page", kit.RoundData{Order: []fray.CombatantID{"a", "z"}}, true, "A new page: Ann, someone act in that order."},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := kit.TellRound(fray.Tale{Name: name, Redacted: c.redacted}, c.word, c.d)
			if got.Text != c.want {
				t.Errorf("TellRound says %q, want %q", got.Text, c.want)
			}
		})
	}
}

func TestNamed(t *testing.T) {
	name := func(id fray.CombatantID) string { return map[fray.CombatantID]string{"a": "Ann"}[id] }
	for _, c := range []struct {
		name  string
		about []fray.CombatantID
		held  string
		want  string
	}{
		{"by its id", []fray.CombatantID{"a"}, "Annie", "Ann"},
		{"unknown id", []fray.CombatantID{"z"}, "Zed", fray.Someone},
		{"undeclared", []fray.CombatantID{fray.AboutUndeclared}, "Zed", "Zed"},
		{"nothing", nil, "", fray.Someone},
	} {
		t.Run(c.name, func(t *testing.T) {
			tale := fray.Tale{Event: fray.Event{About: c.about}, Name: name}
			if got := kit.Named(tale, c.held); got != c.want {
				t.Errorf("Named says %q, want %q", got, c.want)
			}
		})
	}
}
