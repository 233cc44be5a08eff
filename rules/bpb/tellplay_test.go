package bpb_test

import (
	"testing"

	"fray"
	"fray/rules/bpb"
	"fray/rules/rulestest"
)

// TestToldAll checks that every event the examples make is told in words
// of its own, and every type the system declares too: those no example
// makes by hand-built events, whose words are checked against their
// payloads.
func TestToldAll(t *testing.T) {
	ids := func(names ...fray.CombatantID) []fray.CombatantID { return names }
	given := []fray.Event{
		rulestest.ToldEvent(bpb.EventStaggered, `{"name":"Zed"}`, ids("Zed")),
		rulestest.ToldEvent(bpb.EventInitiative, `{"name":"Ann"}`, ids("Ann"),
			fray.Roll{Who: "Ann", Expr: "2d6", Dice: []int{3, 4}, Total: 7, Source: fray.RollFaces}),
		rulestest.ToldEvent(bpb.EventControlled, `{"vehicle":"Van","by":"Ann"}`, ids("Van", "Ann")),
		rulestest.ToldEvent(bpb.EventControlled, `{"vehicle":"Van"}`, ids("Van")),
		rulestest.ToldEvent(bpb.EventMoved, `{"vehicle":"Van","by":"Ann","note":"into the wall"}`, ids("Van", "Ann")),
		rulestest.ToldEvent(bpb.EventAware, `{"name":"Zed","after":"Ann"}`, ids("Zed", "Ann")),
		rulestest.ToldEvent(bpb.EventAwarded, `{"name":"Ann","award":"defeating Zed","points":2}`, ids("Ann")),
		rulestest.ToldEvent(bpb.EventSpent, `{"name":"Ann","points":3,"on":"agility"}`, ids("Ann")),
	}
	told := rulestest.CheckToldAll(t, bpb.New(), rulestest.ToldExamples(t, "bpb"), given)
	for _, c := range []struct {
		typ  string
		want []string
	}{
		{bpb.EventControlled, []string{"Ann takes control of Van.", "Nobody controls Van now."}},
		{rulestest.Redacted + bpb.EventControlled, []string{"Ann takes control of Van.", "Nobody controls Van now."}},
		{bpb.EventMoved, []string{"Ann moves Van (into the wall)."}},
		{bpb.EventInitiative, []string{"Ann rolls for the order of play: 2d6 3, 4 = 7 (faces entered)."}},
		{rulestest.Redacted + bpb.EventInitiative, []string{"Ann rolls for the order of play."}},
		{bpb.EventAwarded, []string{"Ann is awarded 2 points of experience (defeating Zed)."}},
		{rulestest.Redacted + bpb.EventSpent, []string{"Ann spends experience on agility."}},
	} {
		rulestest.ToldWant(t.Errorf, told, c.typ, c.want...)
	}
}
