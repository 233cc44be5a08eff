package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"fray"
	"fray/engine"
)

// hitData is a payload of the test system below: declared references in
// a field, a list and a map's keys, and words that only look like a name.
type hitData struct {
	Who    string         `json:"who" fray:"who"`
	Others []string       `json:"others,omitempty" fray:"who"`
	Scores map[string]int `json:"scores,omitempty" fray:"who"`
	Inner  *struct {
		Target string `json:"target" fray:"who"`
	} `json:"inner,omitempty"`
	Note string `json:"note,omitempty"`
}

type hitSystem struct{ coin }

func (hitSystem) Payloads() map[string]any { return map[string]any{"test.hit": hitData{}} }

// TestUpgrade: older events' names become the ids of the combatants the
// rules meant then, through removals, undo, redo, renames and a name
// taken again; words that are not declared stay as they are.
func TestUpgrade(t *testing.T) {
	var evs []fray.Event
	ev := func(step int, typ, data string, rolls ...fray.Roll) {
		evs = append(evs, fray.Event{Seq: len(evs) + 1, Step: step, Type: typ, Data: json.RawMessage(data), Rolls: rolls})
	}
	added := func(step int, name, id string) {
		ev(step, fray.EventAdded, `{"combatant":{"id":"`+id+`","name":"`+name+`","kind":"character","side":"npc"}}`)
	}
	added(1, "Ann", "aaaaaaaa")
	added(2, "Bob", "bbbbbbbb")
	ev(3, "test.hit", `{"who":"ann","inner":{"target":"BOB"},"note":"Ann"}`, fray.Roll{For: "Ann", Expr: "1d6", Total: 3})
	ev(4, fray.EventRemoved, `{"name":"Ann"}`)
	ev(0, fray.EventUndo, `{"step":4}`)
	ev(5, "test.hit", `{"who":"Ann"}`)         // present again: aaaa
	ev(6, fray.EventRemoved, `{"name":"Ann"}`) // gone: aaaa
	added(7, "Ann", "cccccccc")                // a new Ann
	ev(8, "test.hit", `{"who":"Ann","others":["Ann","Bob","Nobody"],"scores":{"Ann":1,"Bob":2}}`)
	ev(0, fray.EventUndo, `{"step":8}`)
	ev(0, fray.EventUndo, `{"step":7}`)
	ev(9, "test.hit", `{"who":"Ann"}`) // the new Ann is not there: the last to leave, aaaa
	ev(0, fray.EventRedo, `{"step":7}`)
	ev(10, fray.EventRenamed, `{"id":"bbbbbbbb","name":"Bob","to":"Rob"}`)
	ev(11, "test.hit", `{"who":"Rob","others":["Bob"]}`) // Bob is nobody's name now

	if err := engine.Upgrade(hitSystem{}, evs); err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		3:  `{"inner":{"target":"bbbbbbbb"},"note":"Ann","who":"aaaaaaaa"}`,
		4:  `{"name":"aaaaaaaa"}`,
		6:  `{"who":"aaaaaaaa"}`,
		7:  `{"name":"aaaaaaaa"}`,
		9:  `{"others":["cccccccc","bbbbbbbb","Nobody"],"scores":{"bbbbbbbb":2,"cccccccc":1},"who":"cccccccc"}`,
		12: `{"who":"aaaaaaaa"}`,
		15: `{"others":["Bob"],"who":"bbbbbbbb"}`,
	}
	for _, e := range evs {
		if e.Format != fray.FormatIDs {
			t.Errorf("event %d: format %d", e.Seq, e.Format)
		}
		if w, ok := want[e.Seq]; ok && string(e.Data) != w {
			t.Errorf("event %d: %s\nwant %s", e.Seq, e.Data, w)
		}
	}
	if r := evs[2].Rolls[0]; r.Who != "aaaaaaaa" || r.For != "Ann" {
		t.Errorf("the roll: %+v", r)
	}
	// Events already in the format are left as they are.
	again := append([]fray.Event(nil), evs...)
	if err := engine.Upgrade(hitSystem{}, again); err != nil || !reflect.DeepEqual(again, evs) {
		t.Errorf("a second upgrade changed the events (%v)", err)
	}
}
