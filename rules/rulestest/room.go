package rulestest

import (
	"fmt"
	"reflect"
	"sort"

	"fray"
)

// span is the memory that the elements of a slice reachable in a state
// take ([lo, hi), its length's worth), with where the slice was found.
type span struct {
	lo, hi uintptr
	path   string
}

// spans returns the memory of the elements of every slice reachable from
// v, sorted by where it starts.
func spans(v reflect.Value) []span {
	var out []span
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem(), path)
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() {
				walk(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()))
			}
		case reflect.Slice:
			if v.IsNil() {
				return
			}
			if size := v.Type().Elem().Size(); size > 0 && v.Len() > 0 {
				out = append(out, span{v.Pointer(), v.Pointer() + uintptr(v.Len())*size, path})
			}
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	walk(v, "")
	sort.Slice(out, func(i, j int) bool { return out[i].lo < out[j].lo })
	return out
}

// within reports whether [lo, hi) lies inside one of the spans ss.
func within(ss []span, lo, hi uintptr) bool {
	for _, s := range ss {
		if s.lo <= lo && hi <= s.hi {
			return true
		}
	}
	return false
}

// checkAppends reports memory that two copies of the state orig, each
// changed since by the events evs (a and b), both hold as elements of
// their slices where neither orig nor evs held any: both appended into
// the room past the length of one slice they shared, so each overwrote
// the other's. A copy must own the slices it appends to, or share them
// capped at their length (slices.Clip). What they hold where orig or
// the events hold elements is theirs, shared and never changed, and
// fine.
func checkAppends(what string, orig any, evs []fray.Event, a, b any) error {
	os := append(spans(reflect.ValueOf(orig)), spans(reflect.ValueOf(evs))...)
	as, bs := spans(reflect.ValueOf(a)), spans(reflect.ValueOf(b))
	j := 0
	for _, x := range as {
		for j < len(bs) && bs[j].hi <= x.lo {
			j++
		}
		for _, y := range bs[j:] {
			if y.lo >= x.hi {
				break
			}
			if lo, hi := max(x.lo, y.lo), min(x.hi, y.hi); lo < hi && !within(os, lo, hi) {
				return fmt.Errorf("%s: two copies of one state hold their %s and %s in the same memory, where the state held none: each appended into the room of a slice they shared, over the other", what, x.path, y.path)
			}
		}
	}
	return nil
}
