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

// FuzzDecode checks that Event.Decode, which reads flat payloads without
// encoding/json, gives exactly what encoding/json gives, errors included.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"name":"Blueshift"}`, `{"name":"Ganyeka's henchmen","note":"blocks","count":-3,"small":127,"ok":true}`,
		`{}`, ` { "name" : "a" , "Plain":"b" } `, `{"name":"a\"b"}`, `{"NAME":"x"}`, `{"count":01}`, `{"count":-0}`,
		`{"small":128}`, `{"ok":truex}`, `{"name":null}`, `{"name":"x",}`, `{"name":"é"}`, "{\"name\":\"\xff\"}",
		`{"count":1.5}`, `{"count":1e2}`, `{"-":"x"}`, `{"name":"a"}x`, `[1]`, `{"name":"a","name":"b"}`,
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
