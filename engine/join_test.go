package engine_test

import (
	"reflect"
	"testing"

	"fray"
)

// Join adds whole sheets in one step that undo takes back and replay
// rebuilds.
func TestJoin(t *testing.T) {
	e := newBPB(t)
	before := e.State().Clone()
	c := fray.Combatant{Name: "Ganyeka's lieutenant", Stats: map[string]int{"agility": 5},
		Tracks: map[string]fray.Track{"endurance": {Value: 10, Max: 12}},
		Powers: []fray.Power{{Name: "Blast", Kind: fray.PowerKindWeapon, Rank: 9, Range: "ranged"}}, Expertise: []string{"dodging"}}
	evs, err := e.Join([]fray.Combatant{c, {Name: "Rock", Kind: fray.KindEnvironment}})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].Step != evs[1].Step || evs[0].Type != fray.EventAdded {
		t.Fatalf("events %+v", evs)
	}
	got := e.View().Combatants[4]
	if got.Side != fray.SideNPC || got.Kind != fray.KindCharacter || got.Power("blast").Rank != 9 || got.Tracks["endurance"].Value != 10 {
		t.Errorf("joined %+v", got)
	}
	do(t, e, "undo")
	if !reflect.DeepEqual(before, e.State()) {
		t.Errorf("undo did not take the whole step back")
	}
	if _, err := e.Join([]fray.Combatant{{Name: "Ganyeka"}}); fray.ErrorCode(err) != fray.ECONFLICT {
		t.Errorf("a second Ganyeka: %v", err)
	}
	if _, err := e.Join([]fray.Combatant{{Name: "X"}, {Name: "x"}}); fray.ErrorCode(err) != fray.ECONFLICT {
		t.Errorf("X twice: %v", err)
	}
	if _, err := e.Join([]fray.Combatant{{Name: " X"}}); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("a blank name: %v", err)
	}
	if !reflect.DeepEqual(before, e.State()) {
		t.Errorf("a refused join changed the encounter")
	}
}
