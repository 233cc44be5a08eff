package kit_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/rules/kit"
)

func TestView(t *testing.T) {
	enc := &fray.Encounter{
		Combatants: []*fray.Combatant{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bo"}},
		Gone:       []fray.Departed{{ID: "c", Name: "Cy"}},
		Settings:   map[string]string{"dice": "house"},
		Started:    true,
		Round:      3,
	}
	v := kit.View("toy", enc, "b")
	want := fray.View{
		Rules: "toy", Started: true, Round: 3, Current: "Bo", CurrentID: "b",
		Order: []fray.Slot{}, History: []fray.RoundTurns{},
		Combatants: []fray.Combatant{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bo"}},
		Settings:   map[string]string{"dice": "house"},
	}
	if d := cmp.Diff(want, v); d != "" {
		t.Errorf("View (-want +got):\n%s", d)
	}
	v.Settings["dice"] = "raw"
	v.Combatants[0].Name = "Anna"
	if enc.Settings["dice"] != "house" || enc.Combatants[0].Name != "Ann" {
		t.Error("the view shares its settings or combatants with the encounter")
	}
	if got := kit.View("toy", enc, "c").Current; got != "Cy" {
		t.Errorf("the current combatant, gone, is %q; want the name they left with, Cy", got)
	}
	enc.Settings = map[string]string{}
	b, err := json.Marshal(kit.View("toy", enc, ""))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); !strings.HasPrefix(got, `{"rules":"toy","started":true,"round":3,"current":"","order":[],"history":[],"combatants":[`) || strings.Contains(got, `"settings"`) || strings.Contains(got, `"current_id"`) {
		t.Errorf("nobody current, no settings: %s", got)
	}
	if got := kit.View("toy", nil, ""); got.Rules != "toy" || got.Order == nil || got.History == nil || got.Combatants != nil {
		t.Errorf("the view without an encounter is %+v", got)
	}
}

func TestBad(t *testing.T) {
	ann := &fray.Combatant{ID: "a", Name: "Ann"}
	err := kit.Bad("toy state: ")("%s holds %d turns", ann, 2)
	var fe *fray.Error
	if !errors.As(err, &fe) || fe.Code != fray.EINTERNAL || fe.Message != "toy state: Ann holds 2 turns" {
		t.Fatalf("Bad = %#v; want EINTERNAL %q", err, "toy state: Ann holds 2 turns")
	}
	if d := cmp.Diff([]fray.CombatantID{"a"}, fe.About); d != "" {
		t.Errorf("About (-want +got):\n%s", d)
	}
}
