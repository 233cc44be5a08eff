package vv

import (
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Tell says the system's events in its own terms (fray.Teller): an
// attack with its d20 against the chance it needed, the damage and where
// it went, the Hit Points after; a percentile check; damage and healing;
// the turn and its phases.
func (s *System) Tell(t fray.Tale) (fray.Told, bool) {
	return tellers.Tell(s, t)
}

// tellers holds the teller of each event type the system says.
var tellers = kit.Tellers[*System]{
	EventAttacked: kit.Tells((*System).tellAttacked),
	EventChecked:  kit.Tells((*System).tellChecked),
	EventDamaged:  kit.Tells((*System).tellDamaged),
	EventHealed: kit.Tells(func(s *System, t fray.Tale, d HealData) fray.Told {
		return engine.TellHeal(s, t, d.Who, d.Hits, "Hit Points")
	}),

	fray.EventStarted: kit.Says[*System]("The fight starts."),
	EventTurn:         kit.Tells((*System).tellTurn),
	EventTurnEnded:    kit.Tells((*System).tellTurnEnded),
	EventActed:        kit.Tells((*System).tellActed),
	EventMoved:        kit.Tells((*System).tellMoved),
	EventHeld:         kit.Tells((*System).tellHeld),
	EventDone:         kit.Tells((*System).tellDone),
	EventInterrupted:  kit.Tells((*System).tellInterrupted),
	EventFacing:       kit.Tells((*System).tellFacing),
	EventProne:        kit.Tells((*System).tellFacing),
	EventStood:        kit.Tells((*System).tellStood),
	EventSurprise:     kit.Tells((*System).tellSurprise),
	EventInitiative:   kit.Tells((*System).tellInitiative),
	EventUpkeep:       kit.Tells((*System).tellUpkeep),
	EventTiebreak:     kit.Tells((*System).tellTiebreak),
	EventHoldLapsed:   kit.Tells((*System).tellHoldLapsed),
	EventSpent:        kit.Tells((*System).tellSpent),
}

// tellAttacked says an attack: the d20 against the chance it needed, the
// damage and where it went, the Hit Points after.
func (s *System) tellAttacked(t fray.Tale, d AttackData) fray.Told {
	ev := t.Event
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
	return engine.TellRolled(t, text)
}

// tellChecked says a percentile check.
func (s *System) tellChecked(t fray.Tale, d CheckData) fray.Told {
	text := t.Who(d.Who) + " checks"
	if d.Note != "" {
		text += " (" + d.Note + ")"
	}
	if !t.Redacted {
		text += ": d% " + strconv.Itoa(d.Roll) + " against " + strconv.Itoa(d.Chance) + "%"
	}
	return engine.TellRolled(t, text+" — "+d.Band)
}

// tellDamaged says damage, less the protection that stopped some of it.
func (s *System) tellDamaged(t fray.Tale, d DamageData) fray.Told {
	note := ""
	if d.Protection > 0 {
		note = " (" + strconv.Itoa(d.Amount) + " less " + strconv.Itoa(d.Protection) + " protection)"
	}
	return engine.TellDamage(s, t, d.Who, d.Damage, note)
}
