package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"fray"
	"fray/engine"
)

// FuzzDecodeEvent checks that a log line decodes exactly as encoding/json
// decodes it, errors included.
func FuzzDecodeEvent(f *testing.F) {
	for _, s := range []string{
		`{"seq":1,"step":1,"type":"added","command":"add Ann side=pc","data":{"combatant":{"name":"Ann","kind":"character","side":"pc"}}}`,
		`{"seq":4,"step":4,"type":"started","command":"start roll=9","data":{"order":["Ann","Bear"],"scores":{"Ann":14}},"rolls":[{"for":"Ann","expr":"1d20","dice":[12],"total":12,"source":"faces"}]}`,
		`{"seq":6,"step":0,"type":"undo","data":{"step":5}}`, `{}`, `{"seq":01}`, `{"type":"a\"b"}`, `{"data":null,"rolls":null}`,
		`{"data":{"a":[1,{"b":"}"}]}}`, `{"seq":1,}`, `{"Seq":2}`, `{"data":{"a":tru}}`, `{"seq":-0}`, `{"command":"é"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, errGot := engine.DecodeEvent(b)
		var want fray.Event
		errWant := json.Unmarshal(b, &want)
		if (errGot == nil) != (errWant == nil) {
			t.Fatalf("%q: error %v, encoding/json %v", b, errGot, errWant)
		}
		if errWant == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %#v\nwant %#v", b, got, want)
		}
	})
}
