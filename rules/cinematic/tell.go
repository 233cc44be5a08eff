package cinematic

import (
	"strconv"

	"fray"
	"fray/engine"
)

// Tell says the system's events in its own terms (fray.Teller): a roll
// with its dice, value, total against the difficulty and outcome, the
// Life Points an attack took and what is left.
func (s *System) Tell(t fray.Tale) (fray.Told, bool) {
	ev := t.Event
	switch ev.Type {
	case EventRolled:
		var d rollData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Who)
		switch {
		case d.Target != "":
			text += " attacks " + t.Who(d.Target)
			if d.Weapon != "" {
				text += " with " + d.Weapon
			}
		case d.What != "":
			text += " rolls " + d.Roll + " (" + d.What + ")"
		default:
			text += " rolls " + d.Roll
		}
		text += ": "
		if !t.Redacted {
			if len(ev.Rolls) > 0 {
				text += fray.DiceText(ev.Rolls[0]) + engine.Bonus(d.Value) + " = "
			}
			text += strconv.Itoa(d.Total) + " against "
			if d.Defence != "" && len(ev.Rolls) > 1 {
				// The defender's roll sets the difficulty (C-2).
				text += t.Who(d.Target) + "'s " + d.Defence + " " + fray.DiceText(ev.Rolls[1]) + engine.Bonus(d.DefValue) + " = "
			}
			text += strconv.Itoa(d.Difficulty) + " — "
		}
		text += d.Band
		if !t.Redacted && d.Dealt > 0 {
			text += ", " + strconv.Itoa(d.Dealt) + " damage"
		}
		if d.Note != "" {
			text += " (" + d.Note + ")"
		}
		return engine.TellRolled(t, text), true
	case EventWaits:
		var d waitData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Attacker) + " attacks " + t.Who(d.Target)
		if d.Weapon != "" {
			text += " with " + d.Weapon
		}
		if !t.Redacted && len(ev.Rolls) > 0 {
			text += ": " + fray.DiceText(ev.Rolls[0]) + engine.Bonus(d.Value) + " = " + strconv.Itoa(d.Total)
		}
		text += ", waiting for " + t.Who(d.Target) + "'s answer (dodge, parry or take)"
		return engine.TellRolled(t, text), true
	case EventDamaged:
		var d damageData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		if t.Redacted {
			return fray.Told{Text: t.Who(d.Who) + "'s Life Points change."}, true
		}
		var text string
		if d.Amount >= 0 {
			text = t.Who(d.Who) + " loses " + strconv.Itoa(d.Amount) + " Life Points"
			if d.By != "" {
				text += " to " + t.Who(d.By)
			}
		} else {
			text = t.Who(d.Who) + " regains " + strconv.Itoa(-d.Amount) + " Life Points"
		}
		return fray.Told{Text: text + engine.HealthAfter(s, t, d.Who) + "."}, true
	}
	return s.tellPlay(t)
}
