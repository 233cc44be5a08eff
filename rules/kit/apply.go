package kit

import (
	"fray"
	"fray/engine"
)

// StateOf returns st as a system's own state, of type *S (P), or an
// internal error naming the system (such as "Cinematic Unisystem") when st
// is another system's state or nil: kit.StateOf[State](st, "P&P").
func StateOf[S any, P interface {
	*S
	fray.State
}](st fray.State, system string) (P, error) {
	s, ok := st.(P)
	if !ok || s == nil {
		return nil, fray.Errorf(fray.EINTERNAL, "The state is not a %s state.", system)
	}
	return s, nil
}

// Roster is what a system does with its own bookkeeping of the combatants
// when one of the events every system shares changes them (see
// ApplyShared). A nil hook does nothing.
type Roster struct {
	// Added places the combatant of an EventAdded, already in the
	// encounter's Combatants, in the system's own bookkeeping.
	Added func(d *fray.AddedData)
	// Removed drops the combatant of an EventRemoved, already gone from
	// the encounter's Combatants.
	Removed func(id fray.CombatantID)
	// Set follows an EventSet, once the setting has changed.
	Set func()
}

// ApplyShared applies ev to enc when it is one of the events every system
// shares (engine.ApplyShared: added, removed, renamed, set, noted,
// conditions …), then calls the hook of r that the event calls for.
// handled reports whether ev was such an event; when it is not, the
// system applies ev itself.
func ApplyShared(enc *fray.Encounter, ev fray.Event, r Roster) (handled bool, err error) {
	added, removed, handled, err := engine.ApplyShared(enc, ev)
	if !handled || err != nil {
		return handled, err
	}
	switch {
	case added != nil:
		if r.Added != nil {
			r.Added(added)
		}
	case removed != "":
		if r.Removed != nil {
			r.Removed(removed)
		}
	case ev.Type == fray.EventSet:
		if r.Set != nil {
			r.Set()
		}
	}
	return true, nil
}

// ApplyStarted applies the EventStarted ev: it sets *started, refusing an
// encounter started already.
func ApplyStarted(started *bool, ev fray.Event) error {
	if *started {
		return fray.Errorf(fray.EINVALID, "Event %d starts an encounter already started.", ev.Seq)
	}
	*started = true
	return nil
}
