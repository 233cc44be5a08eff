package kit

import "fray"

// Copyable is a pointer to a system's state, as the copies below make
// it: kit copies its encounter, and the state copies the rest itself.
type Copyable[S any] interface {
	*S
	fray.BaseState
	// CopyRest copies all of the state but its encounter into d, in the
	// memory d has where it has room (none, for a new state).
	CopyRest(d *S)
}

// Clone returns a deep copy of s: fray.State's Clone.
func Clone[S any, P Copyable[S]](s P) P {
	d := P(new(S))
	*d.Base() = s.Base().CloneEncounter()
	s.CopyRest(d)
	return d
}

// Scratch returns a copy of s for Decide to apply its events to, cheaper
// than Clone: it shares the combatants' sheets (ScratchEncounter), which
// Apply never changes in place. It is fray.SheetSharer's CloneSharing.
func Scratch[S any, P Copyable[S]](s P) P {
	d := P(new(S))
	*d.Base() = ScratchEncounter(s.Base())
	s.CopyRest(d)
	return d
}

// ScratchInto is Scratch made in the memory of d, a state that Scratch or
// ScratchInto returned, which its caller owns and no longer uses (nor
// anything it holds); Scratch when d is nil.
func ScratchInto[S any, P Copyable[S]](s, d P) P {
	if d == nil {
		return Scratch(s)
	}
	ScratchEncounterInto(d.Base(), s.Base())
	s.CopyRest(d)
	return d
}

// ScratchSpare is ScratchInto with the spare state fray.SpareSharer's
// CloneSharingInto is given: made in spare's memory when it is a state of
// the same system, else anew.
func ScratchSpare[S any, P Copyable[S]](s P, spare fray.State) P {
	d, _ := spare.(P)
	return ScratchInto(s, d)
}
