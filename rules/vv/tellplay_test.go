package vv_test

import (
	"testing"

	"fray"
	"fray/rules/rulestest"
	"fray/rules/vv"
)

// TestToldAll checks that every event the examples make is told in words
// of its own, and every type the system declares too: those no example
// makes by hand-built events. The words of hand-built events are checked
// against their payloads, as the GM and as a player read them.
func TestToldAll(t *testing.T) {
	ids := func(names ...fray.CombatantID) []fray.CombatantID { return names }
	given := []fray.Event{
		rulestest.ToldEvent(vv.EventTiebreak, `{"names":["Bo","Ann"]}`, ids("Bo", "Ann")),
		rulestest.ToldEvent(vv.EventHoldLapsed, `{"name":"Ann"}`, ids("Ann")),
		rulestest.ToldEvent(vv.EventTurn, `{"turn":2,"chars":[{"name":"Ann","init":9,"rolled":true,"halved":true,"lost":[9]},{"name":"Bo","init":21,"rolled":true,"entered":true},{"name":"Cy","init":0,"rolled":false}]}`, ids("Ann", "Bo", "Cy")),
		rulestest.ToldEvent(vv.EventTurnEnded, `{"turn":2,"upkeep":[{"name":"Bo","power":2}],"unpaid":[{"name":"Cy","power":5}]}`, ids("Bo", "Cy")),
		rulestest.ToldEvent(vv.EventActed, `{"name":"Bo","phase":21,"cost":2}`, ids("Bo")),
		rulestest.ToldEvent(vv.EventMoved, `{"name":"Bo","inches":1}`, ids("Bo")),
		rulestest.ToldEvent(vv.EventHeld, `{"name":"Bo"}`, ids("Bo")),
		rulestest.ToldEvent(vv.EventDone, `{"name":"Bo"}`, ids("Bo")),
		rulestest.ToldEvent(vv.EventInterrupted, `{"names":["Ann","Cy"],"before":"Bo","phase":12}`, ids("Ann", "Cy", "Bo")),
		rulestest.ToldEvent(vv.EventFacing, `{"name":"Ann","dir":"north","cost":2,"phase":14}`, ids("Ann")),
		rulestest.ToldEvent(vv.EventProne, `{"name":"Ann","cost":0,"phase":0}`, ids("Ann")),
		rulestest.ToldEvent(vv.EventStood, `{"name":"Ann"}`, ids("Ann")),
		rulestest.ToldEvent(vv.EventSurprise, `{"names":["Ann","Cy"]}`, ids("Ann", "Cy")),
		rulestest.ToldEvent(vv.EventInitiative, `{"name":"Ann","die":7}`, ids("Ann")),
		rulestest.ToldEvent(vv.EventUpkeep, `{"name":"Bo","power":3}`, ids("Bo")),
		rulestest.ToldEvent(vv.EventSpent, `{"name":"Bo","power":4,"phase":12,"note":"Force Field"}`, ids("Bo")),
	}
	told := rulestest.CheckToldAll(t, vv.New(), rulestest.ToldExamples(t, "vv"), given, fray.EventStarted)
	for _, c := range []struct {
		typ  string
		want []string
	}{
		{vv.EventTiebreak, []string{"The GM breaks ties in this order: Bo, Ann."}},
		{vv.EventHoldLapsed, []string{"Ann's held action lapses unused, and their turn ends."}},
		// Highest initiative first; Cy, surprised, rolled none.
		{vv.EventTurn, []string{"Turn 2 begins; initiative: Bo 21 (die entered), Ann 9 (halved; loses phase 9), Cy no phases (surprised)."}},
		{rulestest.Redacted + vv.EventTurn, []string{"A new turn begins; initiative for Ann, Bo, Cy."}},
		{vv.EventTurnEnded, []string{"Turn 2 ends; upkeep paid: Bo 2 Power; upkeep not paid, so it ends: Cy 5 Power."}},
		{rulestest.Redacted + vv.EventTurnEnded, []string{"The turn ends; upkeep paid: Bo; upkeep not paid, so it ends: Cy."}},
		{vv.EventActed, []string{"Bo acts on phase 21, spending 2 Power."}},
		{rulestest.Redacted + vv.EventActed, []string{"Bo acts."}},
		{vv.EventMoved, []string{"Bo moves 1 inch."}},
		{vv.EventHeld, []string{"Bo holds their action."}},
		{vv.EventDone, []string{"Bo is done for this phase."}},
		{vv.EventInterrupted, []string{"Ann, Cy interrupt Bo with a held action, on phase 12."}},
		{vv.EventFacing, []string{"Ann turns to face north off their own phase, on phase 14, spending 2 Power."}},
		{rulestest.Redacted + vv.EventFacing, []string{"Ann turns to face north."}},
		{vv.EventProne, []string{"Ann drops prone."}},
		{vv.EventStood, []string{"Ann gets up from prone."}},
		{vv.EventSurprise, []string{"Surprised, having failed to notice the ambush: Ann, Cy."}},
		{vv.EventInitiative, []string{"Ann's initiative die for the next roll is 1d10 7."}},
		{vv.EventUpkeep, []string{"Bo pays 3 Power upkeep between turns."}},
		{vv.EventSpent, []string{"Bo spends 4 Power (Force Field)."}},
		{rulestest.Redacted + vv.EventSpent, []string{"Bo spends Power (Force Field)."}},
	} {
		rulestest.ToldWant(t.Errorf, told, c.typ, c.want...)
	}
}
