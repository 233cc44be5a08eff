package engine_test

import (
	"testing"

	"fray"
	"fray/engine"
)

// TestTellShared checks the words of the events every system shares,
// said once in the engine: names come from the reader (a renamed
// combatant by the new name, one the reader may not know of as
// someone), and a system that tells nothing gets its events said by
// type, whom they concern and their rolls.
func TestTellShared(t *testing.T) {
	names := map[fray.CombatantID]string{"c1": "Ann", "c2": "Vile"}
	name := func(id fray.CombatantID) string { return names[id] }
	ev := func(typ string, data any, rolls ...fray.Roll) fray.Event {
		e, err := fray.NewEvent(typ, data, rolls...)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	tests := []struct {
		name string
		ev   fray.Event
		want string
	}{
		{"a newcomer", ev(fray.EventAdded, fray.AddedData{Combatant: fray.Combatant{ID: "c3", Name: "Bear", Kind: fray.KindCharacter, Side: fray.SideNPC}, After: "c1"}), "Bear joins as an NPC, after Ann."},
		{"a renamed one by the new name", ev(fray.EventRemoved, fray.NameData{Who: "c2"}), "Vile leaves the encounter."},
		{"one the reader may not know of", ev(fray.EventRevealed, fray.NameData{Who: "c9"}), "someone is shown to players."},
		{"a condition with its end", ev(fray.EventCondition, fray.ConditionData{Who: "c1", Condition: fray.Condition{
			Name: "distracted", By: "Ganyeka", ByID: "c2", Once: true,
			Modifiers: []fray.Modifier{{Source: "distracted", Value: 3, On: fray.AppliesAttacked}},
			Until:     &fray.Anchor{Round: 2, Edge: fray.EdgeEnd},
		}}), "Ann is distracted (by Vile; +3 on attacked; once) until the end of round 2."},
		{"a condition cleared", ev(fray.EventCleared, fray.ClearedData{Who: "c1", Condition: "prone"}), "Ann is no longer prone."},
		{"a rename", ev(fray.EventRenamed, fray.RenamedData{ID: "c2", Name: "Ganyeka", To: "Vile"}), "Ganyeka is now called Vile."},
		{"a setting", ev(fray.EventSet, fray.SetData{Key: "success", Value: "expertise"}), "Setting success is now expertise."},
		{"an undo", ev(fray.EventUndo, fray.StepData{Step: 8}), "Undid step 8."},
		{"a system's event it does not tell", func() fray.Event {
			e := ev("toy.attacked", fray.NameData{Who: "c1"}, fray.Roll{Who: "c1", For: "Ann", Expr: "2d6", Dice: []int{6, 1}, Total: 7, Source: fray.RollFaces})
			e.About = []fray.CombatantID{"c1", "c2"}
			return e
		}(), "Ann rolls 2d6 6, 1 = 7 (faces entered)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := engine.Tell(toySystem{}, fray.Tale{Event: tt.ev, Name: name})
			if got.Text != tt.want {
				t.Errorf("told %q, want %q", got.Text, tt.want)
			}
		})
	}
	// A player's redacted condition has lost its round (the numbers of
	// someone whose numbers they may not see): its end is said without
	// one, never as round 0.
	for _, tt := range []struct {
		until *fray.Anchor
		want  string
	}{
		{&fray.Anchor{Edge: fray.EdgeEnd}, "Vile is dazed until the end of a round."},
		{&fray.Anchor{Edge: fray.EdgeEnd, ID: "c1"}, "Vile is dazed until the end of Ann's turn."},
		{&fray.Anchor{Edge: fray.EdgeEnd, ID: "c1", Round: 3}, "Vile is dazed until the end of Ann's turn (round 3 or later)."},
	} {
		e := ev(fray.EventCondition, fray.ConditionData{Who: "c2", Condition: fray.Condition{Name: "dazed", Until: tt.until}})
		if got := engine.Tell(toySystem{}, fray.Tale{Event: e, Name: name, Redacted: true}).Text; got != tt.want {
			t.Errorf("redacted: told %q, want %q", got, tt.want)
		}
	}
}

// toySystem is a System that tells nothing itself; Tell reads only its
// type.
type toySystem struct{ fray.System }
