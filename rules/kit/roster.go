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
// combatant is copied, with its list of conditions, but shares its stats,
// tracks, powers and the rest with e, which are changed only by the
// writers of sheet.go, never in place, and the modifiers and end of each
// condition, which are replaced with the condition, never changed in
// place; the settings and the departed are copied.
func ScratchEncounter(e *fray.Encounter) fray.Encounter {
	d := *e
	d.Combatants = CloneEach(e.Combatants, func(c *fray.Combatant) {
		c.Conditions = slices.Clone(c.Conditions)
	})
	d.Gone = slices.Clone(e.Gone)
	d.Settings = maps.Clone(e.Settings)
	return d
}

// CloneInto returns a copy of src made in dst's memory where it has room
// (dst a slice its caller owns and no longer uses): nil for nil, and an
// empty slice of no room for an empty one, as slices.Clone gives them.
func CloneInto[S ~[]E, E any](dst, src S) S {
	if src == nil {
		return nil
	}
	if len(src) == 0 {
		return src[:0:0]
	}
	return append(dst[:0], src...)
}

// CloneEachInto is CloneEach made in the entries dst points to, when it
// has as many as xs (dst a copy CloneEach or CloneEachInto made, which
// its caller owns and no longer uses); else it is CloneEach.
func CloneEachInto[T any](dst, xs []*T, deep func(*T)) []*T {
	if len(xs) == 0 || len(dst) != len(xs) {
		return CloneEach(xs, deep)
	}
	for i, x := range xs {
		*dst[i] = *x
		if deep != nil {
			deep(dst[i])
		}
	}
	return dst
}

// ScratchEncounterInto sets dst to what ScratchEncounter(e) returns, made
// in dst's memory where it can: dst is an encounter that ScratchEncounter
// or ScratchEncounterInto made, which its caller owns and no longer uses
// (nor anything it holds).
func ScratchEncounterInto(dst, e *fray.Encounter) {
	cs, gone, settings := dst.Combatants, dst.Gone, dst.Settings
	if len(e.Combatants) == 0 || len(cs) != len(e.Combatants) {
		*dst = ScratchEncounter(e)
		return
	}
	*dst = *e
	for i, c := range e.Combatants {
		conds := cs[i].Conditions
		*cs[i] = *c
		cs[i].Conditions = CloneInto(conds, c.Conditions)
	}
	dst.Combatants = cs
	dst.Gone = CloneInto(gone, e.Gone)
	if e.Settings == nil {
		dst.Settings = nil
	} else {
		if settings == nil {
			settings = make(map[string]string, len(e.Settings))
		}
		clear(settings)
		maps.Copy(settings, e.Settings)
		dst.Settings = settings
	}
}
