package pp

import (
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Tell says the system's events in its own terms (fray.Teller): a check
// or an attack with each side's dice and successes, the net and the
// result, the Health (or minions) lost and what was left before and
// after; harm and healing at the GM's word, the same; the order of play
// and the other challenges.
func (s *System) Tell(t fray.Tale) (fray.Told, bool) {
	return tellers.Tell(s, t)
}

// tellers holds the teller of each event type the system says.
var tellers = kit.Tellers[*System]{
	EventChecked: kit.Tells((*System).tellChecked),
	EventDamaged: kit.Tells((*System).tellHarm),
	EventHealed:  kit.Tells((*System).tellHarm),

	fray.EventStarted: kit.Says[*System]("The fight starts."),
	EventScene:        kit.Says[*System]("A new scene begins."),
	EventStory:        kit.Says[*System]("A new story begins."),
	EventRole:         kit.Tells((*System).tellRole),
	EventRound:        kit.Tells((*System).tellRound),
	EventActed:        kit.Tells((*System).tellActed),
	EventTurnDone:     kit.Tells((*System).tellTurnDone),
	EventTiebreak:     kit.Tells((*System).tellTiebreak),
	EventSides:        kit.Tells((*System).tellSides),
	EventContest:      kit.Tells((*System).tellContest),
	EventDefining:     kit.Tells((*System).tellDefining),
	EventAssisted:     kit.Tells((*System).tellAssisted),
	EventGrouped:      kit.Tells((*System).tellGrouped),
	EventExchanged:    kit.Tells((*System).tellExchanged),
	EventSpent:        kit.Tells((*System).tellSpent),
}

// tellChecked says a check or an attack: each side's successes, the
// result, and the Health (or minions) it cost the opponent.
func (s *System) tellChecked(t fray.Tale, d CheckData) fray.Told {
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
		text += ": " + plural(d.Successes, "success", "successes")
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
	return engine.TellRolled(t, text)
}

// tellHarm says harm or healing at the GM's word, with what was left
// before and after.
func (s *System) tellHarm(t fray.Tale, d HarmData) fray.Told {
	what := " Health"
	if d.Minion {
		what = " minions"
	}
	verb := " loses "
	if t.Event.Type == EventHealed {
		verb = " regains "
	}
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Who) + verb + "some" + what + "."}
	}
	text := t.Who(d.Who) + verb + strconv.Itoa(d.N) + what + s.standingAfter(t, d.Who)
	if d.Defeats {
		text += ", defeated"
	}
	return fray.Told{Text: text + "."}
}

// standingAfter says what the combatant who can still lose before and
// after the tale's event, as the view counts it (P-10): their Health,
// ": Health 4 → 2" (as engine.HealthAfter says a health track), or for
// minions how many stand, ": 5 → 3 standing". Harm is the system's own
// record (a sheet's health track holds only where it starts), so it is
// read from its state before the event and from a clone with the event
// applied. It is "" when the tale has no state (a log told without one).
func (s *System) standingAfter(t fray.Tale, who fray.CombatantID) string {
	st, next, ok := kit.Around[*State](s, t)
	if !ok || st.ByID(who) == nil || next.ByID(who) == nil {
		return ""
	}
	before, minion := st.standing(who)
	after, _ := next.standing(who)
	if minion {
		return ": " + strconv.Itoa(before) + " → " + strconv.Itoa(after) + " standing"
	}
	return ": Health " + strconv.Itoa(before) + " → " + strconv.Itoa(after)
}
