package kit

import (
	"maps"
	"slices"

	"fray"
)

// Keyed is one combatant's entry in a system's own bookkeeping (a
// system's Char), which names its combatant by id.
type Keyed interface {
	// Key returns the id of the entry's combatant.
	Key() fray.CombatantID
}

// Find returns the entry of xs for the combatant id, or the zero E (nil
// for a pointer) when xs has none.
func Find[E Keyed](xs []E, id fray.CombatantID) E {
	for _, x := range xs {
		if x.Key() == id {
			return x
		}
	}
	var zero E
	return zero
}

// Drop returns xs without the entry for the combatant id, removed in
// place as slices.Delete does; xs as it is when it has none.
func Drop[E Keyed](xs []E, id fray.CombatantID) []E {
	if i := slices.IndexFunc(xs, func(x E) bool { return x.Key() == id }); i >= 0 {
		return slices.Delete(xs, i, i+1)
	}
	return xs
}

// CloneEach returns a copy of xs whose entries are copies of xs's, made
// in one allocation for all, each then given deep (when not nil) to copy
// what the entry shares by reference (its slices and pointers); nil for
// nil. It serves a state's Clone.
func CloneEach[T any](xs []*T, deep func(*T)) []*T {
	if xs == nil {
		return nil
	}
	out := make([]*T, len(xs))
	all := make([]T, len(xs))
	for i, x := range xs {
		all[i] = *x
		if deep != nil {
			deep(&all[i])
		}
		out[i] = &all[i]
	}
	return out
}

// ScratchEncounter returns a copy of e that shares the combatants'
// sheets with it, for a state's CloneSharing (fray.SheetSharer): each
// combatant is copied, with its conditions, but shares its stats, tracks,
// powers and the rest with e, which are changed only by the writers of
// sheet.go, never in place; the settings and the departed are copied.
func ScratchEncounter(e *fray.Encounter) fray.Encounter {
	d := *e
	d.Combatants = CloneEach(e.Combatants, func(c *fray.Combatant) {
		if c.Conditions != nil {
			xs := make([]fray.Condition, len(c.Conditions))
			for i, x := range c.Conditions {
				xs[i] = x.Clone()
			}
			c.Conditions = xs
		}
	})
	d.Gone = slices.Clone(e.Gone)
	d.Settings = maps.Clone(e.Settings)
	return d
}
