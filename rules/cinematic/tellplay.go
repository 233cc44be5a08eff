package cinematic

import (
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// The events of the order of play and of the actions spent (C-2): a
// round begins in initiative order, an attack or a defence spends one of
// the round's actions, a stance is declared, a turn ends, shots are
// fired and a weapon reloaded.

// tellRound says a round beginning, in initiative order.
func (s *System) tellRound(t fray.Tale, d RoundData) fray.Told {
	return kit.TellRound(t, "Round", d)
}

// tellTiebreak says the GM's order for ties.
func (s *System) tellTiebreak(t fray.Tale, d NamesData) fray.Told {
	return kit.TellTiebreak(t, d.Who)
}

// tellTurnDone says a turn ending.
func (s *System) tellTurnDone(t fray.Tale, d fray.NameData) fray.Told {
	return kit.TellTurnEnds(t, d.Who)
}

// tellAction says an attack or a defence spending one of the round's
// actions.
func (s *System) tellAction(t fray.Tale, d ActionData) fray.Told {
	return fray.Told{Text: actionWords(t, t.Event.Type == EventAttack, d) + "."}
}

// tellStance says a stance declared, or dropped.
func (s *System) tellStance(t fray.Tale, d StanceData) fray.Told {
	text := map[string]string{
		StanceDefence: " takes a Full Defence stance: no attacks, +3 to every defence and one extra defence this round",
		StanceOffence: " takes a Full Offence stance: +2 to every attack and no defence this round",
	}[d.Stance]
	if text == "" {
		text = " drops their stance: the usual attack and defence this round"
	}
	return fray.Told{Text: t.Who(d.Who) + text + "."}
}

// tellShot says shots fired, and how many the weapon has left.
func (s *System) tellShot(t fray.Tale, d ammoData) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Who) + " fires their " + d.Weapon + "."}
	}
	text := t.Who(d.Who) + " fires " + shots(d.Shots) + " from their " + d.Weapon
	if _, after, ok := engine.TrackChange(s, t, d.Who, ammoKey(d.Weapon)); ok {
		text += ": " + shots(after) + " left"
	}
	return fray.Told{Text: text + "."}
}

// tellReloaded says a weapon reloaded, and the action it took.
func (s *System) tellReloaded(t fray.Tale, d reloadData) fray.Told {
	text := t.Who(d.Who) + " reloads their " + d.Weapon
	switch {
	case d.Kind == ActionExtra && !t.Redacted:
		text += ", an extra action (" + signed(d.Modifier) + ")"
	case d.Kind == ActionExtra:
		text += ", an extra action"
	default:
		text += " with the round's free action"
	}
	return fray.Told{Text: text + "."}
}

// tellStood says a combatant standing up.
func (s *System) tellStood(t fray.Tale, d fray.NameData) fray.Told {
	return fray.Told{Text: t.Who(d.Who) + " stands up, spending the round."}
}

// tellEngaged says whom the GM declares attacking a combatant this round.
func (s *System) tellEngaged(t fray.Tale, d engagedData) fray.Told {
	if len(d.Engaging) == 0 {
		return fray.Told{Text: "The GM declares nobody attacking " + t.Who(d.Who) + " this round."}
	}
	return fray.Told{Text: "The GM declares " + kit.Names(t, d.Engaging) + " attacking " + t.Who(d.Who) + " this round."}
}

// actionWords says an attack or a defence spent: "Rosa spends their
// free attack on Master", "Master spends an extra defence against Rosa
// (−2)".
func actionWords(t fray.Tale, attack bool, d ActionData) string {
	what, with := "defence", " against "
	if attack {
		what, with = "attack", " on "
	}
	text := t.Who(d.Who) + " spends "
	switch d.Kind {
	case ActionExtra:
		text += "an extra " + what
	case ActionBonus:
		text += "their Full Defence's bonus " + what
	default:
		text += "their free " + what
	}
	if d.Other != "" {
		text += with + t.Who(d.Other)
	}
	if d.Modifier != 0 && !t.Redacted {
		text += " (" + signed(d.Modifier) + " on its roll)"
	}
	return text
}

// shots says a number of shots.
func shots(n int) string {
	if n == 1 {
		return "1 shot"
	}
	return strconv.Itoa(n) + " shots"
}
