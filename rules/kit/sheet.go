package kit

import (
	"maps"
	"slices"

	"fray"
)

// A combatant's sheet (its stats, tracks, powers, expertise, protection
// and qualities) is never changed in place by Apply: the writers below
// give the combatant a new map or slice with the change, so that a state
// copied sharing its sheets (fray.SheetSharer) stays as it was when its
// copy's events are applied. Each costs one small copy, made only when
// the sheet changes (a hit, a spend), where a shared copy saves a deep one
// on every move.

// SetTrack sets the track name of c (its Life Points, Endurance, a
// weapon's ammunition …) to t, in a new map of tracks.
func SetTrack(c *fray.Combatant, name string, t fray.Track) {
	tr := make(map[string]fray.Track, len(c.Tracks)+1)
	maps.Copy(tr, c.Tracks)
	tr[name] = t
	c.Tracks = tr
}

// SetStat sets the stat name of c to n, in a new map of stats.
func SetStat(c *fray.Combatant, name string, n int) {
	st := make(map[string]int, len(c.Stats)+1)
	maps.Copy(st, c.Stats)
	st[name] = n
	c.Stats = st
}

// AddPower gives c the power p, in a new list of powers.
func AddPower(c *fray.Combatant, p fray.Power) { c.Powers = append(slices.Clip(c.Powers), p) }

// AddExpertise gives c expertise in name, in a new list of expertise.
func AddExpertise(c *fray.Combatant, name string) {
	c.Expertise = append(slices.Clip(c.Expertise), name)
}

// OwnPower returns c's power named name (fray.Combatant.Power) for the
// caller to change, after giving c a list of powers of its own; nil, and
// c as it was, when c has none of that name.
func OwnPower(c *fray.Combatant, name string) *fray.Power {
	if c.Power(name) == nil {
		return nil
	}
	c.Powers = slices.Clone(c.Powers)
	return c.Power(name)
}
