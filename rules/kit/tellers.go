package kit

import "fray"

// Tellers is the table by which a system says its events in its own
// terms (fray.Teller): for each event type, the teller of its events,
// made by Tells from a function of the decoded payload. S is the system,
// which a teller passes on to engine's helpers or applies the event with
// (a track after damage). Several types may share one teller, which then
// reads t.Event.Type.
type Tellers[S any] map[string]func(sys S, t fray.Tale) (fray.Told, bool)

// Tells returns the teller of events whose payload decodes into a D: it
// decodes the payload and says it with say, and says nothing (false) of
// an event whose payload does not decode.
func Tells[S, D any](say func(sys S, t fray.Tale, d D) fray.Told) func(S, fray.Tale) (fray.Told, bool) {
	return func(sys S, t fray.Tale) (fray.Told, bool) {
		var d D
		if t.Event.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return say(sys, t, d), true
	}
}

// Says returns the teller of events whose type is all there is to say
// of them: it says text, whatever the payload (none at all, as a fight's
// start has in several systems).
func Says[S any](text string) func(S, fray.Tale) (fray.Told, bool) {
	return func(S, fray.Tale) (fray.Told, bool) { return fray.Told{Text: text}, true }
}

// Tell says t.Event by the teller of its type, and false when the table
// has none for it: the whole of a system's Tell.
func (ts Tellers[S]) Tell(sys S, t fray.Tale) (fray.Told, bool) {
	tell, ok := ts[t.Event.Type]
	if !ok {
		return fray.Told{}, false
	}
	return tell(sys, t)
}

// Around returns the state the tale's event applies to, as the system's
// own state P, and a clone of it with the event applied by sys: how a
// teller reads what the system itself records of a combatant (hit points
// lost, minions down) before and after the event. ok is false when the
// tale has no such state (a log told without one) or the event does not
// apply to it.
func Around[P fray.State](sys fray.System, t fray.Tale) (before, after P, ok bool) {
	if before, ok = t.State.(P); !ok {
		return before, after, false
	}
	next := before.Clone()
	if sys.Apply(next, t.Event) != nil {
		return before, after, false
	}
	after, ok = next.(P)
	return before, after, ok
}
