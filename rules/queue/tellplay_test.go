package queue_test

import (
	"testing"

	"fray"
	"fray/rules/queue"
	"fray/rules/rulestest"
)

// TestToldAll checks that every event the examples make is told in words
// of its own, and every type the system declares too: those no example
// makes by hand-built events. The words of hand-built events are checked
// against their payloads, as the GM and as a player read them.
func TestToldAll(t *testing.T) {
	ids := func(names ...fray.CombatantID) []fray.CombatantID { return names }
	given := []fray.Event{
		rulestest.ToldEvent(queue.EventTiebreak, `{"names":["Bo","Ann"]}`, ids("Bo", "Ann")),
		rulestest.ToldEvent(queue.EventMoved, `{"name":"Ann","zone":2}`, ids("Ann")),
		rulestest.ToldEvent(queue.EventActed, `{"name":"Ann","kind":"minor","note":"readies her bow"}`, ids("Ann")),
		rulestest.ToldEvent(queue.EventTurnEnded, `{"name":"Ann"}`, ids("Ann")),
		rulestest.ToldEvent(queue.EventReacted, `{"name":"Bo","to":"Zed","for":"Ann"}`, ids("Bo", "Zed", "Ann")),
		rulestest.ToldEvent(queue.EventArmed, `{"name":"Bo","weapons":[{"name":"club","weight":"medium"},{"name":"axe","weight":"heavy","special":"bleed"}]}`, ids("Bo")),
		rulestest.ToldEvent(queue.EventInjured, `{"name":"Zed","injury":"maimed"}`, ids("Zed")),
		rulestest.ToldEvent(queue.EventInitiative, `{"key":"group:wolves","members":["Wolf 1","Wolf 2"]}`, ids("Wolf 1", "Wolf 2"),
			fray.Roll{For: "Wolves", Expr: "1d20", Dice: []int{12}, Total: 12, Source: fray.RollFaces}),
		rulestest.ToldEvent(fray.EventStarted, `{"order":["Ann","Zed"],"scores":{"Ann":15,"Zed":9}}`, ids("Ann", "Zed")),
	}
	told := rulestest.CheckToldAll(t, queue.New(), rulestest.ToldExamples(t, "queue"), given)
	for _, c := range []struct {
		typ  string
		want []string
	}{
		{queue.EventTiebreak, []string{"The GM breaks ties in this order: Bo, Ann."}},
		{queue.EventMoved, []string{"Ann moves to zone 2."}},
		{rulestest.Redacted + queue.EventMoved, []string{"Ann moves to another Zone."}},
		{queue.EventActed, []string{"Ann takes a Minor action (readies her bow)."}},
		{queue.EventTurnEnded, []string{"Ann's turn ends; they go to the bottom of the queue."}},
		{queue.EventReacted, []string{"Bo reacts to Zed for Ann."}},
		{queue.EventArmed, []string{"Bo is armed: club (medium), axe (heavy, bleed)."}},
		{queue.EventInjured, []string{"Zed takes the Injury maimed."}},
		{queue.EventInitiative, []string{"The group Wolves (Wolf 1, Wolf 2) rolls initiative: 1d20 12 (faces entered)."}},
		{rulestest.Redacted + queue.EventInitiative, []string{"The group wolves (Wolf 1, Wolf 2) rolls initiative."}},
		{fray.EventStarted, []string{"The fight starts; the queue from the top: Ann 15, Zed 9."}},
		{rulestest.Redacted + fray.EventStarted, []string{"The fight starts; the queue from the top: Ann, Zed."}},
	} {
		rulestest.ToldWant(t.Errorf, told, c.typ, c.want...)
	}
}
