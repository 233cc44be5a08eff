package web_test

import (
	"testing"

	"fray"
	"fray/web"
)

// TestRedactOddsForPlayers checks that players get a roll's result but not
// the odds it had, which against an NPC would give away its stats.
func TestRedactOddsForPlayers(t *testing.T) {
	ev := fray.Event{Seq: 1, Type: "queue.attacked", Data: []byte(`{"attacker":"Ann","target":"Bear"}`),
		Odds: &fray.Odds{Command: "attack Ann Bear with=sword", Target: 11}}
	_, gm := web.Redact(fray.RoleGM, nil, fray.View{}, []fray.Event{ev})
	if len(gm) != 1 || gm[0].Odds == nil {
		t.Errorf("the GM lost the odds: %+v", gm)
	}
	_, pl := web.Redact(fray.RolePlayer, map[string]bool{}, fray.View{}, []fray.Event{ev})
	if len(pl) != 1 || pl[0].Odds != nil {
		t.Errorf("a player got the odds: %+v", pl)
	}
}
