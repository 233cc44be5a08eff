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
// result, the Health (or minions) lost and left; harm and healing at the
// GM's word.
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
			text += ", " + strconv.Itoa(d.Lost) + what + " lost" + engine.HealthAfter(s, t, d.Opponent)
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
		text := t.Who(d.Who) + verb + strconv.Itoa(d.N) + what + engine.HealthAfter(s, t, d.Who)
		if d.Defeats {
			text += ", defeated"
		}
		return fray.Told{Text: text + "."}, true
	}
	return fray.Told{}, false
}
