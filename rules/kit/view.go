package kit

import (
	"maps"

	"fray"
)

// View returns what every system's view of enc opens with, for the
// system id to fill in: whether the encounter has started, its round,
// whose turn it is (cur, by id and by the name they have now), the
// combatants, the settings that differ from the defaults (nil when there
// are none), and an order and a history still empty. Without an
// encounter (nil: a state not the system's) it is the view of nobody.
func View(id string, enc *fray.Encounter, cur fray.CombatantID) fray.View {
	if enc == nil {
		return fray.View{Rules: id, Order: []fray.Slot{}, History: []fray.RoundTurns{}}
	}
	v := fray.View{
		Rules:      id,
		Started:    enc.Started,
		Round:      enc.Round,
		Current:    enc.NameOf(cur),
		CurrentID:  cur,
		Order:      []fray.Slot{},
		History:    []fray.RoundTurns{},
		Combatants: enc.CombatantList(),
	}
	if len(enc.Settings) > 0 {
		v.Settings = maps.Clone(enc.Settings)
	}
	return v
}

// Bad returns how a system's Check words a broken invariant: the internal
// error fray.Errorf makes of prefix (the system's name and a colon, with
// no verb of its own) and then format, with args.
func Bad(prefix string) func(format string, args ...any) error {
	return func(format string, args ...any) error {
		return fray.Errorf(fray.EINTERNAL, prefix+format, args...)
	}
}
