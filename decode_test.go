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

// filledList is a listPayload already holding lists, which encoding/json
// decodes into in place.
func filledList() listPayload {
	return listPayload{Names: []string{"old", "older"}, Items: []listItem{{Name: "o", Init: 9, Lost: []int{9, 8}}}}
}

// FuzzDecode checks that Event.Decode, which reads flat payloads (and
// lists of them) without encoding/json, gives exactly what encoding/json
// gives, errors included, into new values and into values already set.
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
		errGot := fray.Event{Type: "t", Data: data}.Decode(&got)
		errWant := json.Unmarshal(data, &want)
		if (errGot == nil) != (errWant == nil) {
			t.Fatalf("%q: Decode error %v, encoding/json error %v", data, errGot, errWant)
		}
		if errWant == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: Decode gives %+v, encoding/json %+v", data, got, want)
		}
		for _, fill := range []func() listPayload{func() listPayload { return listPayload{} }, filledList} {
			gotL, wantL := fill(), fill()
			errGot := fray.Event{Type: "t", Data: data}.Decode(&gotL)
			errWant := json.Unmarshal(data, &wantL)
			if (errGot == nil) != (errWant == nil) {
				t.Fatalf("%q: Decode error %v, encoding/json error %v", data, errGot, errWant)
			}
			if errWant == nil && !reflect.DeepEqual(gotL, wantL) {
				t.Fatalf("%q: Decode gives %#v, encoding/json %#v", data, gotL, wantL)
			}
		}
	})
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
