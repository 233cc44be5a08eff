package bpb

import (
	"cmp"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Tell says the system's events in its own terms (fray.Teller): a task
// roll with its dice, bonus, total against the difficulty and outcome,
// the damage an attack does and the Endurance after it; the order of
// play, experience, and vehicles under a character's control.
func (s *System) Tell(t fray.Tale) (fray.Told, bool) {
	return tellers.Tell(s, t)
}

// tellers holds the teller of each event type the system says.
var tellers = kit.Tellers[*System]{
	EventTask:       kit.Tells(tellTask),
	EventDamaged:    kit.Tells((*System).tellDamage),
	EventDelayed:    kit.Tells(tellTurn),
	EventInterrupt:  kit.Tells(tellTurn),
	EventStaggered:  kit.Tells(tellTurn),
	EventInitiative: kit.Tells(tellTurn),
	EventTurnEnded:  kit.Tells(tellTurnEnded),
	EventForced:     kit.Tells(tellForced),
	EventReordered:  kit.Tells(tellPlace),
	EventAware:      kit.Tells(tellPlace),
	EventDeclared: kit.Tells(func(_ *System, t fray.Tale, d namesData) fray.Told {
		return fray.Told{Text: "The GM declares the order of play: " + names(t, d.Names) + "."}
	}),
	fray.EventStarted: kit.Tells(tellStarted),
	EventAwarded:      kit.Tells(tellAwarded),
	EventSpent:        kit.Tells(tellSpent),
	EventControlled:   kit.Tells((*System).tellControlled),
	EventMoved:        kit.Tells((*System).tellMoved),
}

// tellTurn says a turn delayed, an interruption, a turn lost to a
// stagger, or the roll for the order of play.
func tellTurn(_ *System, t fray.Tale, d fray.NameData) fray.Told {
	ev := t.Event
	if ev.Type == EventInitiative {
		text := t.Who(d.Who) + " rolls for the order of play"
		if len(ev.Rolls) > 0 {
			text += ": " + fray.RollText(ev.Rolls[0])
		}
		return fray.Told{Text: text + "."}
	}
	return fray.Told{Text: t.Who(d.Who) + map[string]string{
		EventDelayed:   " delays their turn.",
		EventInterrupt: " takes their delayed turn now.",
		EventStaggered: " is staggered and loses their next turn.",
	}[ev.Type]}
}

// tellTurnEnded says a turn's end, with its note.
func tellTurnEnded(_ *System, t fray.Tale, d turnNoted) fray.Told {
	s := t.Who(d.Name) + "'s turn ends"
	if d.Note != "" {
		s += " (" + d.Note + ")"
	}
	return fray.Told{Text: s + "."}
}

// tellForced says a forced action, and the turn it spends.
func tellForced(_ *System, t fray.Tale, d forcedNoted) fray.Told {
	s := t.Who(d.Name) + " forces an action"
	if d.Note != "" {
		s += " (" + d.Note + ")"
	}
	if d.Spends != "" {
		s += ", spending their turn " + d.Spends
	}
	return fray.Told{Text: s + "."}
}

// tellPlace says a move in the order from next round, or an unaware
// combatant becoming aware, and where they stand.
func tellPlace(_ *System, t fray.Tale, d placeData) fray.Told {
	s := t.Who(d.Name)
	if t.Event.Type == EventAware {
		s += " becomes aware"
	} else {
		s += " moves in the order from next round"
	}
	switch {
	case d.Before != "":
		s += ", before " + t.Who(d.Before)
	case d.After != "":
		s += ", after " + t.Who(d.After)
	}
	return fray.Told{Text: s + "."}
}

// tellStarted says the start, and the order of play it begins with.
func tellStarted(_ *System, t fray.Tale, d startData) fray.Told {
	s := "The fight starts"
	if len(d.Order) > 0 {
		s += " (" + d.Mode + " order): " + names(t, d.Order)
	}
	return fray.Told{Text: s + ".", Detail: engine.TellDetail(t)}
}

// tellAwarded says experience awarded.
func tellAwarded(_ *System, t fray.Tale, d awardData) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Name) + " is awarded experience (" + d.Award + ")."}
	}
	return fray.Told{Text: t.Who(d.Name) + " is awarded " + kit.Count(d.Points, "point", "points") + " of experience (" + d.Award + ")."}
}

// tellSpent says experience spent.
func tellSpent(_ *System, t fray.Tale, d spendData) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Name) + " spends experience on " + d.On + "."}
	}
	return fray.Told{Text: t.Who(d.Name) + " spends " + kit.Count(d.Points, "point", "points") + " of experience on " + d.On + "."}
}

// names says combatants in order, as the tale's reader knows them.
func names(t fray.Tale, ids []fray.CombatantID) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = t.Who(id)
	}
	return strings.Join(out, ", ")
}

// bandWords says a task's outcome as the roll calls it: an attack hits
// or misses, a block or dodge negates the attack or fails.
func bandWords(roll string, b TaskBand) string {
	switch roll {
	case RollAttack:
		return map[TaskBand]string{TaskFailure: "miss", TaskSuccess: "hit", TaskRemarkable: "remarkable hit (+1 rank)", TaskExtreme: "extreme hit"}[b]
	case RollBlock, RollDodge:
		return map[TaskBand]string{TaskFailure: "fails", TaskSuccess: "negates the attack", TaskRemarkable: "negates the attack", TaskExtreme: "extreme: negates the attack and reorders"}[b]
	}
	return map[TaskBand]string{TaskFailure: "failure", TaskSuccess: "success", TaskRemarkable: "remarkable success", TaskExtreme: "extreme success"}[b]
}

// tellTask says a task roll: "Ganyeka attacks Monolith with blast: 2d6
// 3, 2 = 5 + 7 = 12 against 11 — hit, 3 damage if it lands (odds: hit
// 33%, extreme hit 58%)".
func tellTask(_ *System, t fray.Tale, d taskData) fray.Told {
	who := t.Who(d.Name)
	var s string
	switch d.Roll {
	case RollAttack:
		s = who + " attacks " + t.Who(d.Target)
	case RollBlock, RollDodge:
		s = who + " " + map[string]string{RollBlock: "blocks", RollDodge: "dodges"}[d.Roll] + " " + t.Who(d.Target) + "'s " + cmp.Or(d.Power, "attack")
		if d.For != "" {
			s += " on " + t.Who(d.For)
		}
		if d.With != "" && !strings.EqualFold(d.With, d.Power) {
			s += " with " + d.With
		}
	case RollDistract:
		s = who + " distracts " + t.Who(d.Target)
	default:
		s = who + " checks " + d.Stat
	}
	if d.Roll == RollAttack && d.Power != "" {
		s += " with " + d.Power
	}
	if t.Redacted {
		s += ": " + bandWords(d.Roll, d.Band)
		if len(t.Event.Rolls) > 0 {
			s += " (" + fray.DiceText(t.Event.Rolls[0]) + ")"
		}
		return fray.Told{Text: s + ".", Detail: engine.TellDetail(t)}
	}
	s += ": "
	if len(t.Event.Rolls) > 0 {
		r := t.Event.Rolls[0]
		s += fray.DiceText(r) + engine.Bonus(d.Total-r.Total) + " = "
	}
	s += strconv.Itoa(d.Total) + " against " + strconv.Itoa(d.Difficulty) + " — " + bandWords(d.Roll, d.Band)
	switch {
	case d.Roll != RollAttack || d.Band == TaskFailure:
	case d.Effect:
		s += ", its effect takes hold if it lands"
	case d.Damage > 0:
		s += ", " + strconv.Itoa(d.Damage) + " damage if it lands"
	}
	if d.Band == TaskExtreme && d.Option != "" {
		s += " (" + d.Option + ")"
	}
	s += engine.OddsClause(t)
	var lines []string
	lines = append(lines, d.Stat+" "+strconv.Itoa(d.Value))
	if d.Rank > 0 {
		lines = append(lines, "rank "+strconv.Itoa(d.Rank))
	}
	if d.Mods != 0 {
		lines = append(lines, "modifiers "+strconv.Itoa(d.Mods))
	}
	if d.Expertise {
		lines = append(lines, "expertise")
	}
	lines = append(lines, "difficulty "+strconv.Itoa(d.Difficulty))
	return fray.Told{Text: s + ".", Detail: engine.TellDetail(t, lines...)}
}

// tellDamage says Endurance lost or regained: "Monolith takes 3
// Endurance damage: 30 → 27".
func (s *System) tellDamage(t fray.Tale, d damageData) fray.Told {
	who := t.Who(d.Name)
	if t.Redacted {
		return fray.Told{Text: who + "'s Endurance changes."}
	}
	var text string
	if d.Amount >= 0 {
		text = who + " takes " + strconv.Itoa(d.Amount) + " Endurance damage"
		if d.By != "" {
			text += " from " + t.Who(d.By)
		}
		if d.For != "" {
			text += " in place of " + t.Who(d.For)
		}
	} else {
		text = who + " regains " + strconv.Itoa(-d.Amount) + " Endurance"
	}
	if before, after, ok := engine.TrackChange(s, t, d.Name, TrackEndurance); ok {
		text += ": " + strconv.Itoa(before) + " → " + strconv.Itoa(after)
	}
	return fray.Told{Text: text + "."}
}
