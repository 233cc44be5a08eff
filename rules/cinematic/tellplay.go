package cinematic

import (
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// tellPlay says the events of the order of play and of the actions
// spent (C-2): a round begins in initiative order, an attack or a
// defence spends one of the round's actions, a stance is declared, a
// turn ends, shots are fired and a weapon reloaded.
func (s *System) tellPlay(t fray.Tale) (fray.Told, bool) {
	ev := t.Event
	switch ev.Type {
	case fray.EventStarted:
		return fray.Told{Text: "The fight starts."}, true
	case EventRound:
		var d RoundData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return kit.TellRound(t, "Round", d), true
	case EventTiebreak:
		var d NamesData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return kit.TellTiebreak(t, d.Who), true
	case EventTurnDone:
		var d fray.NameData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return kit.TellTurnEnds(t, d.Who), true
	case EventAttack, EventDefence:
		var d ActionData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: actionWords(t, ev.Type == EventAttack, d) + "."}, true
	case EventStance:
		var d StanceData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := map[string]string{
			StanceDefence: " takes a Full Defence stance: no attacks, +3 to every defence and one extra defence this round",
			StanceOffence: " takes a Full Offence stance: +2 to every attack and no defence this round",
		}[d.Stance]
		if text == "" {
			text = " drops their stance: the usual attack and defence this round"
		}
		return fray.Told{Text: t.Who(d.Who) + text + "."}, true
	case EventShot:
		var d ammoData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		if t.Redacted {
			return fray.Told{Text: t.Who(d.Who) + " fires their " + d.Weapon + "."}, true
		}
		text := t.Who(d.Who) + " fires " + shots(d.Shots) + " from their " + d.Weapon
		if _, after, ok := engine.TrackChange(s, t, d.Who, ammoKey(d.Weapon)); ok {
			text += ": " + shots(after) + " left"
		}
		return fray.Told{Text: text + "."}, true
	case EventReloaded:
		var d reloadData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Who) + " reloads their " + d.Weapon
		switch {
		case d.Kind == ActionExtra && !t.Redacted:
			text += ", an extra action (" + signed(d.Modifier) + ")"
		case d.Kind == ActionExtra:
			text += ", an extra action"
		default:
			text += " with the round's free action"
		}
		return fray.Told{Text: text + "."}, true
	case EventStood:
		var d fray.NameData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Who) + " stands up, spending the round."}, true
	case EventEngaged:
		var d engagedData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		if len(d.Engaging) == 0 {
			return fray.Told{Text: "The GM declares nobody attacking " + t.Who(d.Who) + " this round."}, true
		}
		return fray.Told{Text: "The GM declares " + kit.Names(t, d.Engaging) + " attacking " + t.Who(d.Who) + " this round."}, true
	}
	return fray.Told{}, false
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
