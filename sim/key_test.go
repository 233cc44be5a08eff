package sim_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"fray"
	"fray/sim"
)

// TestKeyAgreesWithJSON solves each system's duel and checks every state
// the solver keys against its JSON (the form in which a state is stored
// whole): two states written alike for their key must have the same
// JSON, or the solver would take one for the other. And against a new
// key writer's bytes, which remember no sheet.
func TestKeyAgreesWithJSON(t *testing.T) {
	for _, id := range []string{"bpb", "cinematic", "pp", "queue", "vv"} {
		t.Run(id, func(t *testing.T) {
			sys, st := duel(t, id)
			seen := map[string]string{} // written → JSON and acted
			jsons := map[string]bool{}
			restore := sim.OnKey(func(st fray.State, acted fray.CombatantID, written []byte) {
				b, err := json.Marshal(st)
				if err != nil {
					t.Fatal(err)
				}
				j := string(b) + "\n" + string(acted)
				jsons[j] = true
				// The solver's writer remembers the sheets it has
				// written (the duels share them, fray.SheetSharer); a
				// writer that remembers nothing must write the same.
				if fresh := append(sim.KeyBytes(st), acted...); !bytes.Equal(fresh, written) {
					t.Fatalf("the solver wrote %x for a state's key, a new writer %x", written, fresh)
				}
				if old, ok := seen[string(written)]; !ok {
					seen[string(written)] = j
				} else if old != j {
					t.Fatalf("two states are written alike for their key:\n%s\n%s", old, j)
				}
			})
			defer restore()
			exact(t, sim.Config{System: sys, State: st, Rounds: duelRounds[id]})
			if len(seen) < 10 {
				t.Fatalf("only %d states keyed", len(seen))
			}
			// The key may tell apart more states than JSON does (it
			// writes fields JSON omits when empty); today it does not.
			if len(seen) != len(jsons) {
				t.Logf("%d states by key, %d by JSON", len(seen), len(jsons))
			}
		})
	}
}

// keyed is a value of every kind a state's key writes.
type keyed struct {
	Int    int
	Str    string
	Strs   []string
	Ints   []int
	Map    map[string]int
	Nested map[int][]string
	Ptr    *int
	Any    any
	Bool   bool
	Float  float64
	Arr    [2]uint8
	Units  map[keyUnit]bool
	inner      // embedded: JSON writes its fields as keyed's
	Skip   int `json:"-"`
}

type inner struct {
	Depth int
	Next  *keyed
}

type keyUnit struct {
	Group, ID string
}

func (u keyUnit) MarshalText() ([]byte, error) { return []byte(u.Group + "/" + u.ID), nil }

func TestKeyBytes(t *testing.T) {
	one := 1
	zero := 0
	for _, tc := range []struct {
		name string
		a, b keyed
	}{
		{"strings split apart", keyed{Str: "ab", Strs: []string{"c"}}, keyed{Str: "a", Strs: []string{"bc"}}},
		{"nil slice, empty slice", keyed{Ints: nil}, keyed{Ints: []int{}}},
		{"nil map, empty map", keyed{Map: nil}, keyed{Map: map[string]int{}}},
		{"nil pointer, pointer to zero", keyed{Ptr: nil}, keyed{Ptr: &zero}},
		{"pointers to other numbers", keyed{Ptr: &zero}, keyed{Ptr: &one}},
		{"int and string in an interface", keyed{Any: 1}, keyed{Any: "1"}},
		{"nil interface, zero in it", keyed{Any: nil}, keyed{Any: 0}},
		{"negative numbers", keyed{Int: -1}, keyed{Int: 1}},
		{"floats", keyed{Float: 0.1}, keyed{Float: 0.2}},
		{"arrays", keyed{Arr: [2]uint8{1, 2}}, keyed{Arr: [2]uint8{2, 1}}},
		{"map values", keyed{Map: map[string]int{"a": 1, "b": 2}}, keyed{Map: map[string]int{"a": 2, "b": 1}}},
		{"map keys", keyed{Map: map[string]int{"a": 1}}, keyed{Map: map[string]int{"b": 1}}},
		{"embedded fields", keyed{inner: inner{Depth: 1}}, keyed{inner: inner{Depth: 2}}},
		{"a struct that holds itself", keyed{inner: inner{Next: &keyed{Int: 1}}}, keyed{inner: inner{Next: &keyed{Int: 2}}}},
		{"struct map keys", keyed{Units: map[keyUnit]bool{{"a", "b"}: true}}, keyed{Units: map[keyUnit]bool{{"a/b", ""}: true}}},
	} {
		if bytes.Equal(sim.KeyBytes(tc.a), sim.KeyBytes(tc.b)) {
			t.Errorf("%s: %+v and %+v are written alike", tc.name, tc.a, tc.b)
		}
	}
	if !bytes.Equal(sim.KeyBytes(keyed{Skip: 1}), sim.KeyBytes(keyed{Skip: 2})) {
		t.Error(`a field tagged json:"-" is written`)
	}
}

// FuzzKey builds two values from each input, one with its maps filled
// in the opposite order, which must be written alike; and checks that
// the values of two inputs are written alike just when their JSON is the
// same (keyed's JSON omits nothing that tells two of them apart).
func FuzzKey(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(7), uint64(7))
	f.Add(uint64(0), uint64(3))
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		a, b := genKeyed(s1, false, 0), genKeyed(s2, false, 0)
		if !bytes.Equal(sim.KeyBytes(a), sim.KeyBytes(genKeyed(s1, true, 0))) {
			t.Fatalf("the same value, its maps filled in another order, is written otherwise: %+v", a)
		}
		ja, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		jb, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if kEq, jEq := bytes.Equal(sim.KeyBytes(a), sim.KeyBytes(b)), bytes.Equal(ja, jb); kEq != jEq {
			t.Fatalf("written alike %v, same JSON %v:\n%s\n%s", kEq, jEq, ja, jb)
		}
	})
}

// genKeyed makes a keyed from seed, with small numbers and short
// strings so that two seeds often give values that differ in one place.
func genKeyed(seed uint64, reverse bool, depth int) keyed {
	r := rand.New(rand.NewPCG(seed, 9))
	word := func() string { return []string{"", "a", "b", "ab", "a/b"}[r.IntN(5)] }
	var k keyed
	k.Int = r.IntN(5) - 2
	k.Str = word()
	if r.IntN(3) > 0 {
		k.Strs = []string{}
		for range r.IntN(3) {
			k.Strs = append(k.Strs, word())
		}
	}
	if r.IntN(2) == 0 {
		k.Ints = []int{r.IntN(3)}
	}
	type entry struct {
		k string
		v int
	}
	var ents []entry
	for range r.IntN(4) {
		ents = append(ents, entry{word(), r.IntN(3)})
	}
	if len(ents) > 0 || r.IntN(2) == 0 {
		// Later entries win, as in a map filled in order; the reversed
		// fill puts each key's last value last too.
		k.Map = map[string]int{}
		last := map[string]int{}
		for _, e := range ents {
			last[e.k] = e.v
		}
		order := []string{}
		for _, e := range ents {
			order = append(order, e.k)
		}
		if reverse {
			for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
				order[i], order[j] = order[j], order[i]
			}
		}
		for _, key := range order {
			k.Map[key] = last[key]
		}
		sorted := slices.Sorted(maps.Keys(last))
		k.Nested = map[int][]string{}
		for _, key := range order {
			k.Nested[slices.Index(sorted, key)] = []string{key, key + "x"}
		}
	}
	if r.IntN(2) == 0 {
		n := r.IntN(3)
		k.Ptr = &n
	}
	switch r.IntN(3) {
	case 1:
		k.Any = word()
	case 2:
		k.Any = []any{word()}
	}
	k.Bool = r.IntN(2) == 0
	k.Float = float64(r.IntN(3)) / 4
	k.Arr = [2]uint8{uint8(r.IntN(2)), uint8(r.IntN(2))}
	if r.IntN(2) == 0 {
		k.Units = map[keyUnit]bool{{word(), ""}: r.IntN(2) == 0}
	}
	k.Depth = r.IntN(2)
	if depth < 2 && r.IntN(3) == 0 {
		next := genKeyed(r.Uint64(), reverse, depth+1)
		k.Next = &next
	}
	return k
}
