package queue

import (
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// tellPlay says the events of the queue: initiative
// entered, the queue formed at the start, an action taken, a turn ended
// at the bottom of the queue, a Reaction, a combatant's weapons, an
// Injury chosen and a move to another Zone.
func (s *System) tellPlay(t fray.Tale) (fray.Told, bool) {
	ev := t.Event
	switch ev.Type {
	case EventTiebreak:
		var d namesData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return kit.TellTiebreak(t, d.Names), true
	case EventInitiative:
		var d initGroup
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		who := t.Who(fray.CombatantID(d.Key))
		if g, ok := strings.CutPrefix(d.Key, groupKey); ok {
			if len(ev.Rolls) > 0 && strings.EqualFold(ev.Rolls[0].For, g) {
				g = ev.Rolls[0].For // the group's name as written
			}
			who = "The group " + g
			if len(d.Members) > 0 {
				who += " (" + kit.Names(t, d.Members) + ")"
			}
		}
		text := who + " rolls initiative"
		if len(ev.Rolls) > 0 {
			text += ": " + fray.RollText(ev.Rolls[0])
		}
		return fray.Told{Text: text + "."}, true
	case fray.EventStarted:
		var d startData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := "The fight starts"
		if len(d.Order) > 0 {
			parts := make([]string, len(d.Order))
			for i, id := range d.Order {
				parts[i] = t.Who(id)
				if n, ok := d.Scores[id]; ok && !t.Redacted {
					parts[i] += " " + strconv.Itoa(n)
				}
			}
			text += "; the queue from the top: " + strings.Join(parts, ", ")
		}
		return engine.TellRolled(t, text), true
	case EventActed:
		var d actNoted
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Name) + " takes " + article(d.Kind) + " action"
		if d.Note != "" {
			text += " (" + d.Note + ")"
		}
		return fray.Told{Text: text + "."}, true
	case EventTurnEnded:
		var d fray.NameData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Who) + "'s turn ends; they go to the bottom of the queue."}, true
	case EventReacted:
		var d reactNoted
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Name) + " reacts to " + t.Who(d.To)
		if d.For != "" {
			text += " for " + t.Who(d.For)
		}
		if d.Note != "" {
			text += " (" + d.Note + ")"
		}
		return fray.Told{Text: text + "."}, true
	case EventArmed:
		var d armedData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		who := kit.Named(t, d.Name)
		if len(d.Weapons) == 0 {
			return fray.Told{Text: who + " carries no weapon."}, true
		}
		ws := make([]string, len(d.Weapons))
		for i, w := range d.Weapons {
			ws[i] = w.Name + " (" + string(w.Weight)
			if w.Special != "" {
				ws[i] += ", " + w.Special
			}
			ws[i] += ")"
		}
		return fray.Told{Text: who + " is armed: " + strings.Join(ws, ", ") + "."}, true
	case EventInjured:
		var d injuryData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Name) + " takes the Injury " + d.Injury + "."}, true
	case EventMoved:
		var d movedData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		if t.Redacted {
			return fray.Told{Text: t.Who(d.Name) + " moves to another Zone."}, true
		}
		return fray.Told{Text: t.Who(d.Name) + " moves to zone " + strconv.Itoa(d.Zone) + "."}, true
	}
	return fray.Told{}, false
}

// article says an action's kind with its article, as the rules name it:
// "a Major", "a Minor".
func article(kind string) string {
	switch kind {
	case Major:
		return "a Major"
	case Minor:
		return "a Minor"
	}
	if kind == "" {
		return "an"
	}
	return "a " + kind
}
