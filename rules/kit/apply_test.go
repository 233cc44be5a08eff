package kit_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// toyState is a system's state for the tests: the encounter and the ids
// of its own bookkeeping.
type toyState struct {
	fray.Encounter
	ids []fray.CombatantID
}

func (s *toyState) Clone() fray.State { c := *s; return &c }

type otherState struct{}

func (*otherState) Clone() fray.State { return &otherState{} }

func TestStateOf(t *testing.T) {
	s := &toyState{}
	got, err := kit.StateOf[toyState](s, "Toy")
	if err != nil || got != s {
		t.Fatalf("StateOf(its own state) = %p, %v; want %p, nil", got, err, s)
	}
	for name, st := range map[string]fray.State{
		"another system's": &otherState{},
		"nil":              (*toyState)(nil),
		"none":             nil,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := kit.StateOf[toyState](st, "Toy")
			var fe *fray.Error
			if !errors.As(err, &fe) || fe.Code != fray.EINTERNAL || fe.Message != "The state is not a Toy state." {
				t.Errorf("StateOf = %v; want EINTERNAL: The state is not a Toy state.", err)
			}
		})
	}
}

func event(t *testing.T, typ string, data any) fray.Event {
	t.Helper()
	ev, err := fray.NewEvent(typ, data)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestApplyShared(t *testing.T) {
	id := engine.NewCombatantID(1, 1, 0)
	s := &toyState{}
	var log []string
	r := kit.Roster{
		Added: func(d *fray.AddedData) {
			s.ids = append(s.ids, d.Combatant.ID)
			log = append(log, "added "+d.Combatant.Name)
		},
		Removed: func(id fray.CombatantID) {
			s.ids = nil
			log = append(log, "removed "+string(id))
		},
		Set: func() { log = append(log, "set") },
	}
	steps := []struct {
		name    string
		ev      fray.Event
		handled bool
	}{
		{"added", event(t, fray.EventAdded, fray.AddedData{Combatant: fray.Combatant{ID: id, Name: "Kim", Kind: fray.KindCharacter, Side: fray.SidePC}}), true},
		{"set", event(t, fray.EventSet, fray.SetData{Key: "initiative", Value: "rolled"}), true},
		{"started", event(t, fray.EventStarted, nil), false},
		{"removed", event(t, fray.EventRemoved, fray.NameData{Who: id}), true},
	}
	for _, st := range steps {
		handled, err := kit.ApplyShared(&s.Encounter, st.ev, r)
		if err != nil || handled != st.handled {
			t.Fatalf("%s: handled %v, error %v; want %v, nil", st.name, handled, err, st.handled)
		}
	}
	want := []string{"added Kim", "set", "removed " + string(id)}
	if diff := cmp.Diff(want, log); diff != "" {
		t.Errorf("hooks called (-want +got):\n%s", diff)
	}
	if len(s.Combatants) != 0 || s.ids != nil {
		t.Errorf("after the removal: combatants %v, bookkeeping %v; want none", s.Combatants, s.ids)
	}
	// A refused event calls no hook, and nil hooks do nothing.
	log = nil
	if handled, err := kit.ApplyShared(&s.Encounter, event(t, fray.EventRemoved, fray.NameData{Who: id}), r); !handled || err == nil {
		t.Errorf("removing one not present: handled %v, error %v; want true and an error", handled, err)
	}
	lee := event(t, fray.EventAdded, fray.AddedData{Combatant: fray.Combatant{ID: engine.NewCombatantID(1, 2, 0), Name: "Lee", Kind: fray.KindCharacter, Side: fray.SidePC}})
	if handled, err := kit.ApplyShared(&s.Encounter, lee, kit.Roster{}); !handled || err != nil {
		t.Errorf("nil hooks: handled %v, error %v; want true, nil", handled, err)
	}
	if log != nil || len(s.Combatants) != 1 {
		t.Errorf("hooks %v, combatants %d; want no hook and one combatant", log, len(s.Combatants))
	}
}

func TestApplyStarted(t *testing.T) {
	ev := event(t, fray.EventStarted, nil)
	ev.Seq = 7
	started := false
	if err := kit.ApplyStarted(&started, ev); err != nil || !started {
		t.Fatalf("first start: started %v, error %v; want true, nil", started, err)
	}
	err := kit.ApplyStarted(&started, ev)
	if err == nil || err.Error() != "Event 7 starts an encounter already started." {
		t.Errorf("second start: %v; want Event 7 starts an encounter already started.", err)
	}
}
