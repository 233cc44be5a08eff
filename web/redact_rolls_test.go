package web

import (
	"encoding/json"
	"strings"
	"testing"

	"fray"
)

// A roll that does not say by id whom it is for is not taken for a
// player character's: an event stored by an older fray whose contest
// exchange declared only its winner, a player character, still had an
// NPC's pool and dice in it, under a label ("Vile (might 912d)"). A
// player gets the event without its numbers and without that roll; a
// roll a player character's id declares stays.
func TestRedactUndeclaredRolls(t *testing.T) {
	enc := &fray.Encounter{Combatants: []*fray.Combatant{
		{ID: "pcpcpcpc", Name: "Gatecrasher", Side: fray.SidePC},
		{ID: "npcnpcnp", Name: "Vile", Side: fray.SideNPC},
	}}
	s := NewSight(nil, enc)
	data, _ := json.Marshal(map[string]any{"n": 1, "winner": "pcpcpcpc", "pool_b": map[string]int{"dice": 912}})
	old := fray.Event{Seq: 3, Step: 2, Type: "pp.exchanged", Data: data, About: []fray.CombatantID{"pcpcpcpc"}, Rolls: []fray.Roll{
		{For: "Gatecrasher (might 12d)", Expr: "12d6", Dice: []int{6, 5}, Total: 2},
		{For: "Vile (might 912d)", Expr: "912d6", Dice: []int{6, 6}, Total: 2},
	}}
	got := redactEvents(s, []fray.Event{old})
	if len(got) != 1 {
		t.Fatalf("got %d events", len(got))
	}
	b, _ := json.Marshal(got[0])
	if strings.Contains(string(b), "912") || len(got[0].Rolls) != 0 {
		t.Errorf("a player reads %s", b)
	}

	declared := old
	declared.About = []fray.CombatantID{"pcpcpcpc"}
	declared.Rolls = []fray.Roll{{For: "Gatecrasher (might 12d)", Who: "pcpcpcpc", Expr: "12d6", Dice: []int{6, 5}, Total: 2}}
	got = redactEvents(s, []fray.Event{declared})
	if len(got) != 1 || len(got[0].Rolls) != 1 || !strings.Contains(string(got[0].Data), "912") {
		t.Errorf("a player character's own declared roll: %+v", got)
	}
}
