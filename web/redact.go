package web

import (
	"encoding/json"
	"strings"

	"fray"
)

// Redact returns what a caller with the given role may see of a view and
// of events, given the names of the combatants kept secret from players
// (lower case; those added hidden and not revealed since, removed ones
// included). It is the one place hidden information is taken out: every
// endpoint and the event stream pass through it.
//
// A GM sees everything. A player sees:
//   - the view without hidden combatants (fray.View.ForPlayers), without
//     any GM note, and without the exact numbers (stats) of NPCs;
//   - only the events that name no secret combatant anywhere in their
//     data or rolls, with no noted events at all, without the command
//     text (which may carry notes= or an NPC's numbers), and with the
//     notes and NPC numbers taken out of added events.
//
// Players do not get the log itself: it is the GM's whole record, and a
// log with events taken out could not be imported (see exportLog).
func Redact(role string, secret map[string]bool, v fray.View, evs []fray.Event) (fray.View, []fray.Event) {
	if role == fray.RoleGM {
		return v, evs
	}
	return redactView(v), redactEvents(secret, evs)
}

func redactView(v fray.View) fray.View {
	p := v.ForPlayers()
	cs := make([]fray.Combatant, len(p.Combatants))
	for i, c := range p.Combatants {
		cs[i] = forPlayers(c)
	}
	p.Combatants = cs
	return p
}

// forPlayers returns what players see of a combatant that is not hidden.
func forPlayers(c fray.Combatant) fray.Combatant {
	c.Notes = ""
	if !c.IsPC() {
		c.Stats = nil
	}
	return c
}

func redactEvents(secret map[string]bool, evs []fray.Event) []fray.Event {
	out := make([]fray.Event, 0, len(evs))
	for _, ev := range evs {
		if ev.Type == fray.EventNoted || mentions(ev, secret) {
			continue
		}
		ev.Command = ""
		if ev.Type == fray.EventAdded {
			var d fray.AddedData
			if ev.Decode(&d) != nil || d.Combatant.Hidden {
				continue
			}
			d.Combatant = forPlayers(d.Combatant)
			clean, err := fray.NewEvent(ev.Type, d, ev.Rolls...)
			if err != nil {
				continue
			}
			ev.Data = clean.Data
		}
		out = append(out, ev)
	}
	return out
}

// mentions reports whether any string in the event's data or rolls holds
// a secret name (compared without regard to case). An event whose data
// cannot be read counts as mentioning one.
func mentions(ev fray.Event, secret map[string]bool) bool {
	if len(secret) == 0 {
		return false
	}
	hit := func(s string) bool {
		s = strings.ToLower(s)
		for name := range secret {
			if strings.Contains(s, name) {
				return true
			}
		}
		return false
	}
	for _, r := range ev.Rolls {
		if hit(r.For) {
			return true
		}
	}
	if len(ev.Data) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(ev.Data, &v) != nil {
		return true
	}
	return walk(v, hit, 0)
}

// walk reports whether f holds for any string (key or value) in v.
func walk(v any, f func(string) bool, depth int) bool {
	if depth > 64 {
		return true
	}
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		for _, e := range x {
			if walk(e, f, depth+1) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if f(k) || walk(e, f, depth+1) {
				return true
			}
		}
	}
	return false
}

// RedactError returns the message of a refusal as a caller with the given
// role may read it: a player gets a plain sentence instead of one that
// names a secret combatant.
func RedactError(role string, secret map[string]bool, msg string) string {
	if role == fray.RoleGM {
		return msg
	}
	lower := strings.ToLower(msg)
	for name := range secret {
		if strings.Contains(lower, name) {
			return "The rules refuse this command now."
		}
	}
	return msg
}
