package pp_test

import (
	"testing"

	"fray"
	"fray/rules/pp"
	"fray/rules/rulestest"
)

// TestToldAll checks that every event the examples make is told in words
// of its own, and every type the system makes too. The words of
// hand-built events are checked against their payloads, as the GM and
// as a player read them.
func TestToldAll(t *testing.T) {
	ids := func(names ...fray.CombatantID) []fray.CombatantID { return names }
	given := []fray.Event{
		rulestest.ToldEvent(pp.EventRole, `{"name":"Goons","role":"extra","minion":true}`, ids("Goons")),
		rulestest.ToldEvent(pp.EventRound, `{"round":3,"order":["Ann","Zed"]}`, ids("Ann", "Zed")),
		rulestest.ToldEvent(pp.EventActed, `{"name":"Zed","nth":3}`, ids("Zed")),
		rulestest.ToldEvent(pp.EventDefining, `{"name":"Ann","cost":"oneshot"}`, ids("Ann")),
		rulestest.ToldEvent(pp.EventDefining, `{"name":"Ann","cost":"might"}`, ids("Ann")),
		rulestest.ToldEvent(pp.EventContest, `{"a":"Ann","b":"Zed","trait_a":"agility","trait_b":"might","exchanges":3}`, ids("Ann", "Zed")),
		rulestest.ToldEvent(pp.EventExchanged, `{"n":2,"successes_a":1,"successes_b":4,"winner":"Zed","over":true,"outcome":"Zed","pool_a":{"dice":3},"pool_b":{"dice":5}}`, ids("Zed")),
		rulestest.ToldEvent(pp.EventAssisted, `{"helper":"Bo","for":"Ann","trait":"might","pool":{"dice":4},"successes":3,"net":1,"bonus":1,"kept":true}`, ids("Bo", "Ann")),
		rulestest.ToldEvent(pp.EventGrouped, `{"trait":"might","threshold":2,"names":["Ann","Bo"],"successes":[5,1],"nets":[2,1],"given":["Ann to Bo: 2"]}`, ids("Ann", "Bo")),
		rulestest.ToldEvent(pp.EventSpent, `{"name":"Ann","resolve":2,"how":"dice","successes":6,"sixes":1,"net":3,"band":"actor narrates","result":"success"}`, ids("Ann")),
		rulestest.ToldEvent(pp.EventScene, "", nil),
		rulestest.ToldEvent(pp.EventStory, "", nil),
	}
	told := rulestest.CheckToldAll(t, pp.New(), rulestest.ToldExamples(t, "pp"), given, fray.EventStarted, pp.EventScene, pp.EventStory)
	for _, c := range []struct {
		typ  string
		want []string
	}{
		{pp.EventRole, []string{"Goons is an extra, a minion, who acts after everyone else."}},
		{pp.EventRound, []string{"Page 3: Ann, Zed act in that order."}},
		{rulestest.Redacted + pp.EventRound, []string{"A new page: Ann, Zed act in that order."}},
		// The third action of a turn is at −2d for each of the two before (P-2).
		{pp.EventActed, []string{"Zed takes their 3rd action this turn, at −4d."}},
		{rulestest.Redacted + pp.EventActed, []string{"Zed takes an action."}},
		{pp.EventDefining, []string{"Ann declares a defining moment at the one-shot cost.", "Ann declares a defining moment, giving up 1d of Might afterwards."}},
		{pp.EventContest, []string{"Ann's Agility and Zed's Might begin a contest of 3 exchanges."}},
		{rulestest.Redacted + pp.EventContest, []string{"Ann's Agility and Zed's Might begin a contest."}},
		{pp.EventExchanged, []string{"Exchange 2 of the contest: 1 success to 4 — Zed wins it; Zed wins the contest and describes its outcome."}},
		{rulestest.Redacted + pp.EventExchanged, []string{"An exchange of the contest — Zed wins it; Zed wins the contest and describes its outcome."}},
		{pp.EventAssisted, []string{"Bo assists Ann with Might: 3 successes against Hard (2), 1 net — +1d to Ann's next roll."}},
		// 5 and 1 against 2; 2 handed over leaves nets of +2 and +1: both succeed.
		{pp.EventGrouped, []string{"Ann, Bo act as a group with Might against Hard (2): 5, 1 successes; net after sharing Ann +2, Bo +1 — 2 of 2 succeed."}},
		{rulestest.Redacted + pp.EventGrouped, []string{"Ann, Bo act as a group with Might."}},
		{pp.EventSpent, []string{"Ann spends 2 Resolve for more dice on the roll: 6 successes now, 3 net — success."}},
		{rulestest.Redacted + pp.EventSpent, []string{"Ann spends Resolve for more dice on the roll — success."}},
		{pp.EventScene, []string{"A new scene begins."}},
		{pp.EventStory, []string{"A new story begins."}},
	} {
		rulestest.ToldWant(t.Errorf, told, c.typ, c.want...)
	}
}
