package fray_test

import (
	"encoding/json"
	"testing"

	"fray"
)

// A schema's JSON form has the wire names and leaves the derivations out.
func TestSheetSchemaJSON(t *testing.T) {
	sc := fray.SheetSchema{
		Stats: []fray.SheetRange{{Name: "wits", Min: -10, Max: 20, Required: true}},
		Tracks: []fray.SheetRange{{Name: "hp", Min: 0, Max: 100, Derive: func(c *fray.Combatant) (int, bool) {
			return 2 * c.Stat("wits"), true
		}}},
		Rank:    fray.SheetRange{Name: "rank", Min: 0, Max: 5},
		Kinds:   []string{fray.PowerKindWeapon},
		Weights: []string{"light", "heavy"},
	}
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"stats":[{"name":"wits","min":-10,"max":20,"required":true}],` +
		`"tracks":[{"name":"hp","min":0,"max":100,"required":false}],` +
		`"rank":{"name":"rank","min":0,"max":5,"required":false},` +
		`"kinds":["weapon"],"damage":null,"protection":null,"weights":["light","heavy"]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if sc.Stats[0].Derives() || !sc.Tracks[0].Derives() {
		t.Errorf("Derives: wits %v, hp %v; want false, true", sc.Stats[0].Derives(), sc.Tracks[0].Derives())
	}
}
