package fray_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"fray"
)

type flatPayload struct {
	Name  string `json:"name"`
	Note  string `json:"note,omitempty"`
	Count int    `json:"count"`
	Small int8   `json:"small"`
	OK    bool   `json:"ok"`
	Skip  string `json:"-"`
	Plain string
}

type listItem struct {
	Name string `json:"name"`
	Init int    `json:"init"`
	Lost []int  `json:"lost,omitempty"`
	OK   bool   `json:"ok,omitempty"`
}

type listPayload struct {
	Turn  int        `json:"turn"`
	Names []string   `json:"names"`
	Small []int8     `json:"small,omitempty"`
	Flags []bool     `json:"flags,omitempty"`
	Items []listItem `json:"items"`
}

// FuzzDecode checks that Event.Preload, which reads flat payloads (and
// lists of them) without encoding/json, and then Decode give exactly what
// encoding/json gives, errors included.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"name":"Blueshift"}`, `{"name":"Ganyeka's henchmen","note":"blocks","count":-3,"small":127,"ok":true}`,
		`{}`, ` { "name" : "a" , "Plain":"b" } `, `{"name":"a\"b"}`, `{"NAME":"x"}`, `{"count":01}`, `{"count":-0}`,
		`{"small":128}`, `{"ok":truex}`, `{"name":null}`, `{"name":"x",}`, `{"name":"é"}`, "{\"name\":\"\xff\"}",
		`{"count":1.5}`, `{"count":1e2}`, `{"-":"x"}`, `{"name":"a"}x`, `[1]`, `{"name":"a","name":"b"}`,
		`{"turn":2,"names":["A","Brigand #2"],"items":[{"name":"A","init":36,"lost":[36,21]},{"name":"B","init":-4,"ok":true}]}`,
		`{"names":[],"items":[]}`, ` { "names" : [ "a" , "b" ] , "small" : [ 1 , -128 ] } `, `{"names":null}`,
		`{"names":["a"],"names":["b","c"]}`, `{"names":["a","b"],"names":[]}`, `{"names":["a","b\"c"]}`,
		`{"small":[127,128]}`, `{"flags":[true,false]}`, `{"items":[{"name":"a"},{"lost":[1,]}]}`,
		`{"items":[{"name":"a","x":1}]}`, `{"items":[{"lost":[]}]}`, `{"names":["a",]}`, `{"names":["a"]`,
		`{"items":[[1]]}`, `{"names":"a"}`, `{"items":[{"Name":"a"}]}`,
		`{"name":"a","nth":2}`, `{"nth":"x","name":"a"}`, `{"x":true,"y":false,"z":null,"w":-0}`, `{"x":1.5}`,
		`{"x":01}`, `{"x":-}`, `{"plain":"b"}`, `{"skip":"b"}`, `{"x":"a\"b"}`, `{"x":[1]}`, `{"x":{}}`,
		`{"items":[{"name":"a","x":"y"}],"extra":3}`, `{"nOTe":"n"}`, "{\"\u017fmall\":1}", "{\"x\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		var got, want flatPayload
		errGot := preloaded(data, flatPayload{}).Decode(&got)
		errWant := json.Unmarshal(data, &want)
		if (errGot == nil) != (errWant == nil) {
			t.Fatalf("%q: Preload and Decode error %v, encoding/json error %v", data, errGot, errWant)
		}
		if errWant == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: Preload and Decode give %+v, encoding/json %+v", data, got, want)
		}
		var gotL, wantL listPayload
		errGot = preloaded(data, listPayload{}).Decode(&gotL)
		errWant = json.Unmarshal(data, &wantL)
		if (errGot == nil) != (errWant == nil) {
			t.Fatalf("%q: Preload and Decode error %v, encoding/json error %v", data, errGot, errWant)
		}
		if errWant == nil && !reflect.DeepEqual(gotL, wantL) {
			t.Fatalf("%q: Preload and Decode give %#v, encoding/json %#v", data, gotL, wantL)
		}
	})
}

// preloaded returns an event of payload data preloaded as proto's type;
// a payload that does not fit is left to Decode, which reports it.
func preloaded(data []byte, proto any) fray.Event {
	ev := fray.Event{Type: "t", Data: data}
	_ = ev.Preload(proto)
	return ev
}

// A preloaded payload is copied deeply: what one Decode gives may be
// changed without reaching the next.
func TestPreloadCopiesDeeply(t *testing.T) {
	ev := preloaded([]byte(`{"turn":2,"names":["A","B"],"items":[{"name":"A","init":3,"lost":[3]}]}`), listPayload{})
	var a listPayload
	if err := ev.Decode(&a); err != nil {
		t.Fatal(err)
	}
	a.Names[0], a.Items[0].Lost[0], a.Items[0].Name = "changed", 99, "changed"
	var b listPayload
	if err := ev.Decode(&b); err != nil {
		t.Fatal(err)
	}
	want := listPayload{Turn: 2, Names: []string{"A", "B"}, Items: []listItem{{Name: "A", Init: 3, Lost: []int{3}}}}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("the second Decode gives %+v, want %+v", b, want)
	}
	if err := ev.Preload(listPayload{}); err != nil {
		t.Errorf("a second Preload: %v", err)
	}
	bad := fray.Event{Type: "t", Data: []byte(`{"turn":"x"}`)}
	if err := bad.Preload(listPayload{}); err == nil {
		t.Error("Preload of a payload that does not fit: no error")
	}
}

// A payload NewEvent keeps is a copy: changing what was given to it
// afterwards does not change the event.
func TestNewEventKeepsACopy(t *testing.T) {
	p := listPayload{Names: []string{"A"}}
	ev, err := fray.NewEvent("x", p)
	if err != nil {
		t.Fatal(err)
	}
	p.Names[0] = "changed"
	var got listPayload
	if err := ev.Decode(&got); err != nil || got.Names[0] != "A" {
		t.Errorf("Decode after the caller changed the payload: %+v, %v", got, err)
	}
}

// A payload made by NewEvent decodes to itself, with or without the copy
// NewEvent keeps.
func TestEventRoundTrip(t *testing.T) {
	p := flatPayload{Name: "Brigand #2", Note: "reacts", Count: 3, Small: -2, OK: true}
	ev, err := fray.NewEvent("x", p)
	if err != nil {
		t.Fatal(err)
	}
	var a, b flatPayload
	if err := ev.Decode(&a); err != nil || a != p {
		t.Errorf("Decode = %+v, %v", a, err)
	}
	cold := fray.Event{Type: ev.Type, Data: ev.Data}
	if err := cold.Decode(&b); err != nil || b != p {
		t.Errorf("Decode without the kept copy = %+v, %v", b, err)
	}
}

// deepPayload holds references of every kind an event's payload may
// hold, beside flat fields a copy of the whole struct carries.
type deepPayload struct {
	Name   string
	Inner  flatPayload
	Flats  []flatPayload
	Items  []listItem
	Ptr    *listItem
	PtrNil *listItem
	ByName map[string][]int
	Grid   [2][]string
	Nested struct {
		Turn int
		Tags []string
	}
	Count int
}

func newDeepPayload() deepPayload {
	p := deepPayload{Name: "A", Inner: flatPayload{Name: "in", Count: 1},
		Flats:  []flatPayload{{Name: "f1"}, {Name: "f2", OK: true}},
		Items:  []listItem{{Name: "i", Lost: []int{1, 2}}},
		Ptr:    &listItem{Name: "p", Lost: []int{3}},
		ByName: map[string][]int{"x": {4, 5}},
		Grid:   [2][]string{{"a"}, {"b", "c"}}, Count: 7}
	p.Nested.Turn, p.Nested.Tags = 2, []string{"t"}
	return p
}

// TestDecodeCopiesEveryReference checks that a payload decoded from an
// event shares nothing with the event: changing every part of what one
// Decode gives, through each kind of reference, leaves the next Decode
// as the payload was made.
func TestDecodeCopiesEveryReference(t *testing.T) {
	for _, unrecorded := range []bool{false, true} {
		made := newDeepPayload()
		newEvent := fray.NewEvent
		if unrecorded {
			newEvent = fray.NewUnrecordedEvent
		}
		ev, err := newEvent("x", made)
		if err != nil {
			t.Fatal(err)
		}
		// What was given may change too: the event keeps its own copy.
		made.Flats[0].Name, made.Items[0].Lost[0], made.Ptr.Lost[0] = "changed", 99, 99
		var a deepPayload
		if err := ev.Decode(&a); err != nil {
			t.Fatal(err)
		}
		a.Name, a.Inner.Name, a.Count = "changed", "changed", 99
		a.Flats[1].Name = "changed"
		a.Items[0].Name, a.Items[0].Lost[1] = "changed", 99
		a.Ptr.Name, a.Ptr.Lost[0] = "changed", 99
		a.ByName["x"][0], a.ByName["y"] = 99, nil
		a.Grid[1][0] = "changed"
		a.Nested.Tags[0] = "changed"
		var b deepPayload
		if err := ev.Decode(&b); err != nil {
			t.Fatal(err)
		}
		if want := newDeepPayload(); !reflect.DeepEqual(b, want) {
			t.Errorf("unrecorded %v: the second Decode gives\n%+v\nwant\n%+v", unrecorded, b, want)
		}
	}
}

// TestDecodeLastUse decodes an event marked LastUse: the value it gives
// is the payload the event holds, not a copy (a change to it shows in
// the next Decode), and the event it was marked from still copies.
func TestDecodeLastUse(t *testing.T) {
	for _, unrecorded := range []bool{false, true} {
		newEvent := fray.NewEvent
		if unrecorded {
			newEvent = fray.NewUnrecordedEvent
		}
		ev, err := newEvent("x", newDeepPayload())
		if err != nil {
			t.Fatal(err)
		}
		var a, b, c deepPayload
		if err := fray.LastUse(ev).Decode(&a); err != nil {
			t.Fatal(err)
		}
		a.Items[0].Lost[0] = 99
		if err := fray.LastUse(ev).Decode(&b); err != nil {
			t.Fatal(err)
		}
		if b.Items[0].Lost[0] != 99 {
			t.Errorf("unrecorded %v: a LastUse Decode gave a copy (%v), want the payload itself", unrecorded, b.Items[0].Lost)
		}
		if err := ev.Decode(&c); err != nil {
			t.Fatal(err)
		}
		c.Items[0].Lost[0] = 7
		if err := fray.LastUse(ev).Decode(&b); err != nil || b.Items[0].Lost[0] != 99 {
			t.Errorf("unrecorded %v: a change to a plain Decode's value shows in the payload (%v, %v)", unrecorded, b.Items[0].Lost, err)
		}
	}
}
