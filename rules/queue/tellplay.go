package queue

import (
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// The events of the queue: initiative entered, the
// queue formed at the start, an action taken, a turn ended at the bottom
// of the queue, a Reaction, a combatant's weapons, an Injury chosen and
// a move to another Zone.

// tellTiebreak says the GM's order for ties.
func (s *System) tellTiebreak(t fray.Tale, d namesData) fray.Told {
	return kit.TellTiebreak(t, d.Names)
}

// tellInitiative says initiative rolled, by a combatant or a group.
func (s *System) tellInitiative(t fray.Tale, d initGroup) fray.Told {
	ev := t.Event
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
	return fray.Told{Text: text + "."}
}

// tellStarted says the start, and the queue it forms from the top.
func (s *System) tellStarted(t fray.Tale, d startData) fray.Told {
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
	return engine.TellRolled(t, text)
}

// tellActed says an action taken, with its note.
func (s *System) tellActed(t fray.Tale, d actNoted) fray.Told {
	text := t.Who(d.Name) + " takes " + article(d.Kind) + " action"
	if d.Note != "" {
		text += " (" + d.Note + ")"
	}
	return fray.Told{Text: text + "."}
}

// tellTurnEnded says a turn ended at the bottom of the queue.
func (s *System) tellTurnEnded(t fray.Tale, d fray.NameData) fray.Told {
	return fray.Told{Text: t.Who(d.Who) + "'s turn ends; they go to the bottom of the queue."}
}

// tellReacted says a Reaction, and whom it is for.
func (s *System) tellReacted(t fray.Tale, d reactNoted) fray.Told {
	text := t.Who(d.Name) + " reacts to " + t.Who(d.To)
	if d.For != "" {
		text += " for " + t.Who(d.For)
	}
	if d.Note != "" {
		text += " (" + d.Note + ")"
	}
	return fray.Told{Text: text + "."}
}

// tellArmed says a combatant's weapons.
func (s *System) tellArmed(t fray.Tale, d armedData) fray.Told {
	who := kit.Named(t, d.Name)
	if len(d.Weapons) == 0 {
		return fray.Told{Text: who + " carries no weapon."}
	}
	ws := make([]string, len(d.Weapons))
	for i, w := range d.Weapons {
		ws[i] = w.Name + " (" + string(w.Weight)
		if w.Special != "" {
			ws[i] += ", " + w.Special
		}
		ws[i] += ")"
	}
	return fray.Told{Text: who + " is armed: " + strings.Join(ws, ", ") + "."}
}

// tellInjured says an Injury chosen.
func (s *System) tellInjured(t fray.Tale, d injuryData) fray.Told {
	return fray.Told{Text: t.Who(d.Name) + " takes the Injury " + d.Injury + "."}
}

// tellMoved says a move to another Zone.
func (s *System) tellMoved(t fray.Tale, d movedData) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Name) + " moves to another Zone."}
	}
	return fray.Told{Text: t.Who(d.Name) + " moves to zone " + strconv.Itoa(d.Zone) + "."}
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
