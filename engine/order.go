package engine

import (
	"slices"

	"fray"
)

// The order helpers work on orders of names or of ids (fray.CombatantID,
// compared exactly: ids have one case).

// Index returns the position of name in order, compared without regard to
// case, or -1.
func Index[T ~string](order []T, name T) int {
	return slices.IndexFunc(order, func(s T) bool { return fray.SameName(string(s), string(name)) })
}

// Without returns order without name (a new slice; order is unchanged).
func Without[T ~string](order []T, name T) []T {
	out := make([]T, 0, len(order))
	for _, s := range order {
		if !fray.SameName(string(s), string(name)) {
			out = append(out, s)
		}
	}
	return out
}

// InsertAt returns a new order with name inserted at position i (clamped
// to the order's bounds).
func InsertAt[T ~string](order []T, i int, name T) []T {
	i = min(max(i, 0), len(order))
	out := make([]T, 0, len(order)+1)
	out = append(out, order[:i]...)
	out = append(out, name)
	return append(out, order[i:]...)
}

// Place returns a new order with name (taken out first, if present) put
// just before the combatant before, or just after the combatant after, or
// at position def when both are empty. A before or after that is not in
// the order is an ENOTFOUND error.
func Place[T ~string](order []T, name, before, after T, def int) ([]T, error) {
	out := Without(order, name)
	switch {
	case before != "":
		i := Index(out, before)
		if i < 0 {
			return nil, fray.Errorf(fray.ENOTFOUND, "%s is not in the order of play.", fray.Mention(string(before)))
		}
		return InsertAt(out, i, name), nil
	case after != "":
		i := Index(out, after)
		if i < 0 {
			return nil, fray.Errorf(fray.ENOTFOUND, "%s is not in the order of play.", fray.Mention(string(after)))
		}
		return InsertAt(out, i+1, name), nil
	}
	return InsertAt(out, def, name), nil
}

// Ranked is one entry of a rolled order: a name and the keys it is sorted
// by, most important first, each higher-first.
type Ranked struct {
	Name string
	Keys []int
}

// SortRanked sorts entries by their keys, highest first, comparing the
// first key, then the second, and so on; entries equal on every key keep
// their order (so put them in the GM's tiebreak order first).
func SortRanked(entries []Ranked) {
	slices.SortStableFunc(entries, func(a, b Ranked) int {
		for i := 0; i < len(a.Keys) && i < len(b.Keys); i++ {
			if a.Keys[i] != b.Keys[i] {
				if a.Keys[i] > b.Keys[i] {
					return -1
				}
				return 1
			}
		}
		return 0
	})
}

// Tiebreak returns the ids of enc's combatants in the GM's tiebreak
// order: those in tiebreak first, in that order, then the others in the
// order they were added.
func Tiebreak(enc *fray.Encounter, tiebreak []fray.CombatantID) []fray.CombatantID {
	out := make([]fray.CombatantID, 0, len(enc.Combatants))
	for _, id := range tiebreak {
		if c := enc.ByID(id); c != nil && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, c := range enc.Combatants {
		if !slices.Contains(out, c.ID) {
			out = append(out, c.ID)
		}
	}
	return out
}

// IDs returns the ids of the combatants the rules call by the given names
// (see fray.Encounter.IDOf), "" for a name that is nobody's.
func IDs(enc *fray.Encounter, names []string) []fray.CombatantID {
	if names == nil {
		return nil
	}
	out := make([]fray.CombatantID, len(names))
	for i, n := range names {
		out[i] = enc.IDOf(n)
	}
	return out
}

// NamesOf returns the names of the combatants ids, present or gone (see
// fray.Encounter.NameOf).
func NamesOf(enc *fray.Encounter, ids []fray.CombatantID) []string {
	if ids == nil {
		return nil
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = enc.NameOf(id)
	}
	return out
}

// Names returns the names of the combatants named by cmd's positional
// words, refusing unknown and repeated names.
func Names(enc *fray.Encounter, args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for _, a := range args {
		c, err := enc.Lookup(a)
		if err != nil {
			return nil, err
		}
		if Index(out, c.Name) >= 0 {
			return nil, fray.Errorf(fray.EINVALID, "%s is named twice.", c)
		}
		out = append(out, c.Name)
	}
	return out, nil
}
