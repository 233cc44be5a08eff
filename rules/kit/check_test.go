package kit_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/rules/kit"
)

// report is the bad of the checks below: the report as a plain error.
func report(format string, args ...any) error { return fmt.Errorf(format, args...) }

// wantReport checks that err is nil when want is "", else that it holds
// want.
func wantReport(t *testing.T, what string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v, want none", what, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: %v, want one holding %q", what, err, want)
	}
}

// CheckRoster finds the encounter started in no round (or not started in
// one) and entries that do not line up with the combatants.
func TestCheckRoster(t *testing.T) {
	kim, lee := &entry{id: idA}, &entry{id: idB}
	tests := []struct {
		name    string
		started bool
		round   int
		recs    []*entry
		want    string
	}{
		{"in order, started", true, 1, []*entry{kim, lee}, ""},
		{"in order, before the start", false, 0, []*entry{kim, lee}, ""},
		{"started in no page", true, 0, []*entry{kim, lee}, "started is true in page 0"},
		{"page 2, not started", false, 2, []*entry{kim, lee}, "started is false in page 2"},
		{"one missing", true, 1, []*entry{kim}, "2 combatants but 1 entries"},
		{"one too many", true, 1, []*entry{kim, lee, lee}, "2 combatants but 3 entries"},
		{"out of order", true, 1, []*entry{lee, kim}, `entry 0 is ` + string(idB) + `'s, combatant 0 is ` + string(idA) + ` ("Kim")`},
	}
	for _, tt := range tests {
		enc := twoOf()
		enc.Started, enc.Round = tt.started, tt.round
		wantReport(t, tt.name, kit.CheckRoster(enc, tt.recs, "page", report), tt.want)
	}
	// bad's answer is CheckRoster's.
	sentinel := errors.New("broken")
	enc := twoOf()
	if err := kit.CheckRoster(enc, []*entry{kim}, "round", func(string, ...any) error { return sentinel }); err != sentinel {
		t.Errorf("CheckRoster answered %v, not bad's answer", err)
	}
}

// CheckOrder finds a turn beyond the order, someone in the order twice,
// and anyone in the order or the GM's order who is not present.
func TestCheckOrder(t *testing.T) {
	const gone fray.CombatantID = "gone1"
	tests := []struct {
		name string
		r    kit.Rounds
		want string
	}{
		{"a turn in progress", kit.Rounds{Order: []fray.CombatantID{idA, idB}, Pos: 1}, ""},
		{"the round over", kit.Rounds{Order: []fray.CombatantID{idA, idB}, Pos: 2, Tiebreak: []fray.CombatantID{idB, idA}}, ""},
		{"no order yet", kit.Rounds{}, ""},
		{"past the end", kit.Rounds{Order: []fray.CombatantID{idA}, Pos: 2}, "turn 2 of 1"},
		{"before the start", kit.Rounds{Order: []fray.CombatantID{idA}, Pos: -1}, "turn -1 of 1"},
		{"twice", kit.Rounds{Order: []fray.CombatantID{idA, idB, idA}}, "Kim has two turns in one round"},
		{"absent in the order", kit.Rounds{Order: []fray.CombatantID{idA, gone}}, `the order holds gone1 (""), who is not present`},
		{"absent in the GM's order", kit.Rounds{Order: []fray.CombatantID{idA}, Tiebreak: []fray.CombatantID{idB, gone}}, "the GM's order holds gone1"},
	}
	enc := twoOf()
	present := func(id fray.CombatantID) bool {
		return slices.ContainsFunc(enc.Combatants, func(c *fray.Combatant) bool { return c.ID == id })
	}
	for _, tt := range tests {
		wantReport(t, tt.name, tt.r.CheckOrder(enc, present, "round", report), tt.want)
	}
}
