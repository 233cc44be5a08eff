package vv

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"fray"
)

// TestFlatTwins checks that the flat twin a payload is made from when its
// About is empty (see mention.go) has all its other fields, in order and
// with the same tags, and that payload copies every one of them: the
// event must read the same whichever type made it.
func TestFlatTwins(t *testing.T) {
	for _, full := range []interface{ payload() any }{&SpendData{}, &CheckData{}, &FacingData{}} {
		v := reflect.ValueOf(full).Elem()
		ft := v.Type()
		var want []reflect.StructField
		for i := range ft.NumField() {
			f := ft.Field(i)
			if f.Name == "About" {
				continue
			}
			want = append(want, f)
			switch fv := v.Field(i); fv.Kind() {
			case reflect.String:
				fv.SetString(f.Name)
			case reflect.Int:
				fv.SetInt(int64(i + 1))
			default:
				t.Fatalf("%s.%s: a %s, which the test does not fill", ft.Name(), f.Name, fv.Kind())
			}
		}
		twin := full.payload()
		tt := reflect.TypeOf(twin)
		if tt == ft {
			t.Fatalf("%s without About is made from itself, not its flat twin", ft.Name())
		}
		if tt.NumField() != len(want) {
			t.Fatalf("%s has %d fields, want %d (those of %s but About)", tt.Name(), tt.NumField(), len(want), ft.Name())
		}
		for i, f := range want {
			if g := tt.Field(i); g.Name != f.Name || g.Type != f.Type || g.Tag != f.Tag {
				t.Errorf("%s field %d is %s %s %q, want %s %s %q", tt.Name(), i, g.Name, g.Type, g.Tag, f.Name, f.Type, f.Tag)
			}
		}
		a, err := json.Marshal(reflect.ValueOf(full).Elem().Interface())
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(twin)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s encodes as %s, its flat twin as %s", ft.Name(), a, b)
		}
		v.FieldByName("About").Set(reflect.ValueOf([]fray.CombatantID{"someone0"}))
		if got := reflect.TypeOf(full.payload()); got != ft {
			t.Errorf("%s with About is made from %s, want itself", ft.Name(), got)
		}
	}
}
