package queue

import (
	"strconv"

	"fray"
	"fray/engine"
)

// Tell says the system's events in its own terms (fray.Teller): an
// attack with its d20, bonus and the score it needed, the damage it did
// and the hit points after; a check; damage and healing at the GM's word.
func (s *System) Tell(t fray.Tale) (fray.Told, bool) {
	ev := t.Event
	switch ev.Type {
	case EventAttacked:
		var d attackData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Attacker) + " attacks " + t.Who(d.Target)
		if d.Weapon != "" {
			text += " with " + d.Weapon
		}
		text += ": "
		rolls := ev.Rolls
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
			text += engine.HealthAfter(s, t, d.Target)
		}
		if d.Injury != "" {
			text += "; " + d.Injury
		} else if d.Incapacitates {
			text += "; incapacitated"
		}
		return engine.TellRolled(t, text), true
	case EventChecked:
		var d checkData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
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
		return engine.TellRolled(t, text), true
	case EventDamaged:
		var d damagedData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return engine.TellDamage(s, t, d.Name, d.Damage, ""), true
	case EventHealed:
		var d healedData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return engine.TellHeal(s, t, d.Name, d.Healed, "hit points"), true
	}
	return fray.Told{}, false
}
