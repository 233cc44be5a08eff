package fray

import (
	"reflect"
	"strings"
	"sync"
)

// Declared references. A payload field that names or identifies a
// combatant says so with the struct tag
//
//	fray:"who"
//
// on a field of type string (a name), []string, CombatantID or
// []CombatantID, at any depth of structs, pointers and slices of them.
// Fields of type CombatantID count without the tag. An event records the
// combatants its payload refers to, and those it rolled for, in
// Event.About; what a player may see of the event follows from that
// declaration and from visibility over ids, never from a search of its
// words. A payload whose words mention a combatant (a turn's note such as
// "blocks attack by Ganyeka", say) must therefore hold that combatant in a
// declared field too.

// TagWho is the value of the fray struct tag that declares a reference
// to a combatant. In events of format 3 (FormatIDs) such a field holds the
// combatant's id; in older events, its name.
const TagWho = "who"

// TagName is the value of the fray struct tag on a field that holds a
// combatant's name as words to show, kept beside its id (such as
// Condition.By beside Condition.ByID): it declares the combatant as
// TagWho does, and stays a name in every format. The option id=KEY names
// the JSON key of the id beside it, which the engine fills when it
// rewrites an older event (fray:"name,id=by_id").
const TagName = "name"

// tagKind returns the kind a fray struct tag gives a field: TagWho,
// TagName or "".
func tagKind(tag string) string {
	kind, _, _ := strings.Cut(tag, ",")
	return kind
}

// Refs returns the combatant names and ids that the value v declares (see
// TagWho), in the order of its fields.
func Refs(v any) (names []string, ids []CombatantID) {
	if v == nil {
		return nil, nil
	}
	r := collectRefs(v, refs{})
	return r.names, r.ids
}

// collectRefs adds what v declares to r.
func collectRefs(v any, r refs) refs {
	if v == nil {
		return r
	}
	rv := reflect.ValueOf(v)
	if p := planFor(rv.Type(), false, 0); p != nil {
		r = p(rv, r)
	}
	return r
}

// refs is what a plan has collected so far; passed and returned by value,
// so that collecting allocates only the lists themselves.
type refs struct {
	names []string
	ids   []CombatantID
}

// A plan collects what one type declares; nil for a type that declares
// nothing. Plans are made once per type, so Refs reads a payload without
// looking at its type again.
type plan func(v reflect.Value, r refs) refs

type planKey struct {
	t      reflect.Type
	tagged bool
}

var (
	idType     = reflect.TypeFor[CombatantID]()
	plans      sync.Map // planKey → plan (nil included)
	maxRefDeep = 8
)

func planFor(t reflect.Type, tagged bool, depth int) plan {
	key := planKey{t, tagged}
	if p, ok := plans.Load(key); ok {
		return p.(plan)
	}
	p := makePlan(t, tagged, depth)
	plans.Store(key, p)
	return p
}

func makePlan(t reflect.Type, tagged bool, depth int) plan {
	if depth > maxRefDeep {
		return nil
	}
	if t == idType {
		return func(v reflect.Value, r refs) refs {
			if id := CombatantID(v.String()); id != "" {
				r.ids = append(r.ids, id)
			}
			return r
		}
	}
	switch t.Kind() {
	case reflect.String:
		if !tagged {
			return nil
		}
		return func(v reflect.Value, r refs) refs {
			if s := v.String(); s != "" {
				r.names = append(r.names, s)
			}
			return r
		}
	case reflect.Pointer:
		elem := planFor(t.Elem(), tagged, depth+1)
		if elem == nil {
			return nil
		}
		return func(v reflect.Value, r refs) refs {
			if !v.IsNil() {
				r = elem(v.Elem(), r)
			}
			return r
		}
	case reflect.Slice, reflect.Array:
		elem := planFor(t.Elem(), tagged, depth+1)
		if elem == nil {
			return nil
		}
		return func(v reflect.Value, r refs) refs {
			for i := range v.Len() {
				r = elem(v.Index(i), r)
			}
			return r
		}
	case reflect.Struct:
		type field struct {
			i int
			p plan
		}
		var fields []field
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if p := planFor(f.Type, tagKind(f.Tag.Get("fray")) != "", depth+1); p != nil {
				fields = append(fields, field{i, p})
			}
		}
		if fields == nil {
			return nil
		}
		return func(v reflect.Value, r refs) refs {
			for _, f := range fields {
				r = f.p(v.Field(f.i), r)
			}
			return r
		}
	}
	return nil
}
