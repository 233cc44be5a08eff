package queue

import (
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Tell says the system's events in its own terms (fray.Teller): an
// attack with its d20, bonus and the score it needed, the damage it did
// and the hit points of whoever suffered it, before and after; a check;
// damage and healing at the GM's word, with the hit points before and
// after; the queue and what moves in it.
func (s *System) Tell(t fray.Tale) (fray.Told, bool) {
	return tellers.Tell(s, t)
}

// tellers holds the teller of each event type the system says.
var tellers = kit.Tellers[*System]{
	EventAttacked: kit.Tells((*System).tellAttacked),
	EventChecked:  kit.Tells((*System).tellChecked),
	EventDamaged:  kit.Tells((*System).tellDamaged),
	EventHealed:   kit.Tells((*System).tellHealed),

	EventTiebreak:     kit.Tells((*System).tellTiebreak),
	EventInitiative:   kit.Tells((*System).tellInitiative),
	fray.EventStarted: kit.Tells((*System).tellStarted),
	EventActed:        kit.Tells((*System).tellActed),
	EventTurnEnded:    kit.Tells((*System).tellTurnEnded),
	EventReacted:      kit.Tells((*System).tellReacted),
	EventArmed:        kit.Tells((*System).tellArmed),
	EventInjured:      kit.Tells((*System).tellInjured),
	EventMoved:        kit.Tells((*System).tellMoved),
}

// tellAttacked says an attack: the d20, bonus and score it needed, the
// damage and hit points of whoever suffered it, and the Injury it dealt.
func (s *System) tellAttacked(t fray.Tale, d attackData) fray.Told {
	text := t.Who(d.Attacker) + " attacks " + t.Who(d.Target)
	if d.Weapon != "" {
		text += " with " + d.Weapon
	}
	text += ": "
	rolls := t.Event.Rolls
	switch {
	case t.Redacted:
	case d.ToHit > 0 && len(rolls) > 0:
		text += fray.DiceText(rolls[0]) + engine.Bonus(d.Bonus) + " = " + strconv.Itoa(d.Score) + " against " + strconv.Itoa(d.Need) + " — "
		rolls = rolls[1:]
	default:
		text += "the GM rules it a "
	}
	switch {
	case !d.Hit:
		text += "miss"
	case t.Redacted:
		text += "hit"
	default:
		text += "hit, " + strconv.Itoa(d.Damage) + " damage dealt"
		if len(rolls) > 0 {
			text += " (" + fray.DiceText(rolls[len(rolls)-1]) + ")"
		}
		hurt := d.Target
		if d.SufferedBy != "" && d.SufferedBy != d.Target {
			// One who reacted for the target took it.
			hurt = d.SufferedBy
			text += " to " + t.Who(hurt)
		}
		text += s.hpAfter(t, hurt)
	}
	if d.Injury != "" {
		text += "; " + d.Injury
	} else if d.Incapacitates {
		text += "; incapacitated"
	}
	return engine.TellRolled(t, text)
}

// tellChecked says a check: the d20, bonus and score it needed.
func (s *System) tellChecked(t fray.Tale, d checkData) fray.Told {
	ev := t.Event
	text := t.Who(d.Name) + " checks"
	if d.Vs != "" {
		text += " against " + t.Who(d.Vs)
	}
	text += ": "
	if len(ev.Rolls) > 0 && !t.Redacted {
		r := ev.Rolls[0]
		text += fray.DiceText(r) + engine.Bonus(d.Bonus) + " = " + strconv.Itoa(d.Score) + " against " + strconv.Itoa(d.Need) + " — "
	}
	if d.Success {
		text += "success"
	} else {
		text += "failure"
	}
	return engine.TellRolled(t, text)
}

// tellDamaged says damage at the GM's word, with the hit points before
// and after.
func (s *System) tellDamaged(t fray.Tale, d damagedData) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Name) + " takes damage."}
	}
	return fray.Told{Text: t.Who(d.Name) + " takes " + strconv.Itoa(d.Damage) + " damage" + s.hpAfter(t, d.Name) + "."}
}

// tellHealed says healing at the GM's word, with the hit points before
// and after.
func (s *System) tellHealed(t fray.Tale, d healedData) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Name) + " is healed."}
	}
	return fray.Told{Text: t.Who(d.Name) + " regains " + strconv.Itoa(d.Healed) + " hit points" + s.hpAfter(t, d.Name) + "."}
}

// hpAfter says the hit points of who before and after the tale's event,
// as engine.HealthAfter says a health track: ": hp 12 → 7". Hit points
// lost are the system's own record (a sheet's hp track holds only where
// they start), so they are read from its state before the event and
// from a clone with the event applied. It is "" when the tale has no
// state (a log told without one), or who has no hit points, or had none
// left to lose.
func (s *System) hpAfter(t fray.Tale, who fray.CombatantID) string {
	st, next, ok := kit.Around[*State](s, t)
	if !ok || st.ByID(who) == nil || next.ByID(who) == nil {
		return ""
	}
	before, had := st.hpOf(st.ByID(who))
	after, has := next.hpOf(next.ByID(who))
	if !had || !has || before == 0 && after == 0 {
		// Nothing left to lose: the injury the hit deals says it.
		return ""
	}
	return ": " + StatHP + " " + strconv.Itoa(before) + " → " + strconv.Itoa(after)
}
