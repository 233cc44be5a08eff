package pp

import (
	"strconv"

	"fray"
	"fray/engine"
)

// successes says a number of successes.
func successes(n int) string {
	if n == 1 {
		return "1 success"
	}
	return strconv.Itoa(n) + " successes"
}

// Tell says the system's events in its own terms (fray.Teller): a check
// or an attack with each side's dice and successes, the net and the
// result, the Health (or minions) lost and what was left before and
// after; harm and healing at the GM's word, the same.
func (s *System) Tell(t fray.Tale) (fray.Told, bool) {
	ev := t.Event
	switch ev.Type {
	case EventChecked:
		var d CheckData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Actor)
		if d.Opponent != "" {
			text += " rolls " + d.Trait + " against " + t.Who(d.Opponent)
			if d.OppTrait != "" {
				text += "'s " + d.OppTrait
			}
		} else {
			text += " rolls " + d.Trait
		}
		if !t.Redacted {
			text += ": " + successes(d.Successes)
			if d.Opponent != "" || d.OppSuccesses > 0 {
				text += " to " + strconv.Itoa(d.OppSuccesses)
			} else if d.Static {
				text += " against " + strconv.Itoa(d.Threshold)
			}
		}
		result := d.Shown
		if result == "" {
			result = d.Result
		}
		if result == "" {
			result = d.Band
		}
		text += " — " + result
		if !t.Redacted && d.Lost > 0 && d.Opponent != "" {
			what := " Health"
			if d.Minion {
				what = " minions"
			}
			text += ", " + strconv.Itoa(d.Lost) + what + " lost" + s.standingAfter(t, d.Opponent)
		}
		return engine.TellRolled(t, text), true
	case EventDamaged, EventHealed:
		var d HarmData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		what := " Health"
		if d.Minion {
			what = " minions"
		}
		verb := " loses "
		if ev.Type == EventHealed {
			verb = " regains "
		}
		if t.Redacted {
			return fray.Told{Text: t.Who(d.Who) + verb + "some" + what + "."}, true
		}
		text := t.Who(d.Who) + verb + strconv.Itoa(d.N) + what + s.standingAfter(t, d.Who)
		if d.Defeats {
			text += ", defeated"
		}
		return fray.Told{Text: text + "."}, true
	}
	return s.tellPlay(t)
}

// standingAfter says what the combatant who can still lose before and
// after the tale's event, as the view counts it (P-10): their Health,
// ": Health 4 → 2" (as engine.HealthAfter says a health track), or for
// minions how many stand, ": 5 → 3 standing". Harm is the system's own
// record (a sheet's health track holds only where it starts), so it is
// read from its state before the event and from a clone with the event
// applied. It is "" when the tale has no state (a log told without one).
func (s *System) standingAfter(t fray.Tale, who fray.CombatantID) string {
	st, ok := t.State.(*State)
	if !ok || st.ByID(who) == nil {
		return ""
	}
	before, minion := st.standing(who)
	next := st.Clone()
	if s.Apply(next, t.Event) != nil {
		return ""
	}
	ns := next.(*State)
	if ns.ByID(who) == nil {
		return ""
	}
	after, _ := ns.standing(who)
	if minion {
		return ": " + strconv.Itoa(before) + " → " + strconv.Itoa(after) + " standing"
	}
	return ": Health " + strconv.Itoa(before) + " → " + strconv.Itoa(after)
}
