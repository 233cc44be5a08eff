package cinematic_test

import (
	"testing"

	"fray"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

// TestToldAll checks that every event the examples make is told in words
// of its own, and every type the system declares too: those no example
// makes by hand-built events. The words of hand-built events are checked
// against their payloads, as the GM and as a player read them.
func TestToldAll(t *testing.T) {
	ids := func(names ...fray.CombatantID) []fray.CombatantID { return names }
	given := []fray.Event{
		rulestest.ToldEvent(cinematic.EventTiebreak, `{"names":["Ann","Bo"]}`, ids("Ann", "Bo")),
		rulestest.ToldEvent(cinematic.EventEngaged, `{"name":"Zed","names":["Ann","Bo"]}`, ids("Zed", "Ann", "Bo")),
		rulestest.ToldEvent(cinematic.EventRound, `{"round":2,"order":["Bo","Zed","Ann"]}`, ids("Bo", "Zed", "Ann")),
		rulestest.ToldEvent(cinematic.EventAttack, `{"name":"Ann","other":"Zed","kind":"extra","modifier":-2}`, ids("Ann", "Zed")),
		rulestest.ToldEvent(cinematic.EventDefence, `{"name":"Zed","other":"Ann","kind":"free","modifier":0}`, ids("Zed", "Ann")),
		rulestest.ToldEvent(cinematic.EventStance, `{"name":"Zed","stance":"offence"}`, ids("Zed")),
		rulestest.ToldEvent(cinematic.EventTurnDone, `{"name":"Ann"}`, ids("Ann")),
		rulestest.ToldEvent(cinematic.EventShot, `{"name":"Ann","weapon":"Shotgun","shots":2}`, ids("Ann")),
		rulestest.ToldEvent(cinematic.EventReloaded, `{"name":"Ann","weapon":"Pistol","kind":"extra","modifier":-2}`, ids("Ann")),
		rulestest.ToldEvent(cinematic.EventStood, `{"name":"Ann"}`, ids("Ann")),
	}
	told := rulestest.CheckToldAll(t, cinematic.New(), rulestest.ToldExamples(t, "cinematic"), given, fray.EventStarted)
	for _, c := range []struct {
		typ  string
		want []string
	}{
		{cinematic.EventTiebreak, []string{"The GM breaks ties in this order: Ann, Bo."}},
		{cinematic.EventEngaged, []string{"The GM declares Ann, Bo attacking Zed this round."}},
		{cinematic.EventRound, []string{"Round 2: Bo, Zed, Ann act in that order."}},
		{rulestest.Redacted + cinematic.EventRound, []string{"A new round: Bo, Zed, Ann act in that order."}},
		{cinematic.EventAttack, []string{"Ann spends an extra attack on Zed (−2 on its roll)."}},
		{rulestest.Redacted + cinematic.EventAttack, []string{"Ann spends an extra attack on Zed."}},
		{cinematic.EventDefence, []string{"Zed spends their free defence against Ann."}},
		{cinematic.EventStance, []string{"Zed takes a Full Offence stance: +2 to every attack and no defence this round."}},
		{cinematic.EventTurnDone, []string{"Ann's turn ends."}},
		{cinematic.EventShot, []string{"Ann fires 2 shots from their Shotgun."}},
		{rulestest.Redacted + cinematic.EventShot, []string{"Ann fires their Shotgun."}},
		{cinematic.EventReloaded, []string{"Ann reloads their Pistol, an extra action (−2)."}},
		{cinematic.EventStood, []string{"Ann stands up, spending the round."}},
		{fray.EventStarted, []string{"The fight starts."}},
	} {
		rulestest.ToldWant(t.Errorf, told, c.typ, c.want...)
	}
}
