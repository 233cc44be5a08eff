package vv

import (
	"strconv"

	"fray"
	"fray/engine"
)

// Tell says the system's events in its own terms (fray.Teller): an
// attack with its d20 against the chance it needed, the damage and where
// it went, the Hit Points after; a percentile check; damage and healing.
func (s *System) Tell(t fray.Tale) (fray.Told, bool) {
	ev := t.Event
	switch ev.Type {
	case EventAttacked:
		var d AttackData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Attacker) + " attacks " + t.Who(d.Target)
		if d.Power != "" {
			text += " with " + d.Power
		}
		text += ": "
		if !t.Redacted && len(ev.Rolls) > 0 {
			text += fray.DiceText(ev.Rolls[0]) + " against " + strconv.Itoa(d.Needed) + " or less — "
		}
		text += d.Band
		switch {
		case t.Redacted || d.Band == "miss":
		case d.Effect && d.Affects:
			text += ", the effect takes hold"
		case d.Effect:
		case d.Damage > 0:
			text += ", " + strconv.Itoa(d.Damage) + " damage dealt"
			if d.ToPower > 0 || d.ToHits > 0 {
				text += " (" + strconv.Itoa(d.ToPower) + " to Power, " + strconv.Itoa(d.ToHits) + " to Hit Points)"
			}
			text += engine.HealthAfter(s, t, d.Target)
		}
		return engine.TellRolled(t, text), true
	case EventChecked:
		var d CheckData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Who) + " checks"
		if d.Note != "" {
			text += " (" + d.Note + ")"
		}
		if !t.Redacted {
			text += ": d% " + strconv.Itoa(d.Roll) + " against " + strconv.Itoa(d.Chance) + "%"
		}
		return engine.TellRolled(t, text+" — "+d.Band), true
	case EventDamaged:
		var d DamageData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		note := ""
		if d.Protection > 0 {
			note = " (" + strconv.Itoa(d.Amount) + " less " + strconv.Itoa(d.Protection) + " protection)"
		}
		return engine.TellDamage(s, t, d.Who, d.Damage, note), true
	case EventHealed:
		var d HealData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return engine.TellHeal(s, t, d.Who, d.Hits, "Hit Points"), true
	}
	return s.tellPlay(t)
}
