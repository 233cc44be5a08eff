package cinematic

import (
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Tell says the system's events in its own terms (fray.Teller): a roll
// with its dice, value, total against the difficulty and outcome, the
// Life Points an attack took and what is left; the order of play and
// the actions spent.
func (s *System) Tell(t fray.Tale) (fray.Told, bool) {
	return tellers.Tell(s, t)
}

// tellers holds the teller of each event type the system says.
var tellers = kit.Tellers[*System]{
	EventRolled:  kit.Tells((*System).tellRolled),
	EventWaits:   kit.Tells((*System).tellWaits),
	EventDamaged: kit.Tells((*System).tellDamaged),

	fray.EventStarted: kit.Says[*System]("The fight starts."),
	EventRound:        kit.Tells((*System).tellRound),
	EventTiebreak:     kit.Tells((*System).tellTiebreak),
	EventTurnDone:     kit.Tells((*System).tellTurnDone),
	EventAttack:       kit.Tells((*System).tellAction),
	EventDefence:      kit.Tells((*System).tellAction),
	EventStance:       kit.Tells((*System).tellStance),
	EventShot:         kit.Tells((*System).tellShot),
	EventReloaded:     kit.Tells((*System).tellReloaded),
	EventStood:        kit.Tells((*System).tellStood),
	EventEngaged:      kit.Tells((*System).tellEngaged),
}

// tellRolled says a roll or an attack: the dice, value and total against
// the difficulty (the defender's roll, when it sets it), the outcome and
// the damage dealt.
func (s *System) tellRolled(t fray.Tale, d rollData) fray.Told {
	ev := t.Event
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
	return engine.TellRolled(t, text)
}

// tellWaits says an attack that waits for its target's answer.
func (s *System) tellWaits(t fray.Tale, d waitData) fray.Told {
	ev := t.Event
	text := t.Who(d.Attacker) + " attacks " + t.Who(d.Target)
	if d.Weapon != "" {
		text += " with " + d.Weapon
	}
	if !t.Redacted && len(ev.Rolls) > 0 {
		text += ": " + fray.DiceText(ev.Rolls[0]) + engine.Bonus(d.Value) + " = " + strconv.Itoa(d.Total)
	}
	text += ", waiting for " + t.Who(d.Target) + "'s answer (dodge, parry or take)"
	return engine.TellRolled(t, text)
}

// tellDamaged says Life Points lost or regained, and what is left.
func (s *System) tellDamaged(t fray.Tale, d damageData) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Who) + "'s Life Points change."}
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
	return fray.Told{Text: text + engine.HealthAfter(s, t, d.Who) + "."}
}
