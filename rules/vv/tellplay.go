package vv

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// tellPlay says the events of the turn and its phases (V-1 to V-7): a
// turn begins with everyone's initiative and ends with the upkeep paid,
// a character acts, moves, holds their action or is done on their phase,
// held actions interrupt, a facing changes, a character drops prone or
// gets up, and what the GM declares (surprise, initiative dice, upkeep,
// the order of ties, Power spent).
func (s *System) tellPlay(t fray.Tale) (fray.Told, bool) {
	ev := t.Event
	switch ev.Type {
	case fray.EventStarted:
		return fray.Told{Text: "The fight starts."}, true
	case EventTurn:
		var d TurnData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return engine.TellRolled(t, turnWords(t, d)), true
	case EventTurnEnded:
		var d TurnEndData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := "Turn " + strconv.Itoa(d.Turn) + " ends"
		if t.Redacted || d.Turn <= 0 {
			text = "The turn ends"
		}
		if len(d.Upkeep) > 0 {
			text += "; upkeep paid: " + upkeeps(t, d.Upkeep)
		}
		if len(d.Unpaid) > 0 {
			text += "; upkeep not paid, so it ends: " + upkeeps(t, d.Unpaid)
		}
		return fray.Told{Text: text + "."}, true
	case EventActed:
		var d ActData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Who) + " acts"
		if !t.Redacted {
			if d.Phase > 0 {
				text += " on phase " + strconv.Itoa(d.Phase)
			}
			if d.Cost > 0 {
				text += ", spending " + power(d.Cost)
			}
		}
		return fray.Told{Text: text + "."}, true
	case EventMoved:
		var d MoveData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		if t.Redacted {
			return fray.Told{Text: t.Who(d.Who) + " moves."}, true
		}
		return fray.Told{Text: t.Who(d.Who) + " moves " + distance(d.Inches) + "."}, true
	case EventHeld:
		var d HeldData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Who) + " holds their action"
		if d.Open {
			text += ", their turn open until it is used or lapses"
		}
		return fray.Told{Text: text + "."}, true
	case EventDone:
		var d fray.NameData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Who) + " is done for this phase."}, true
	case EventInterrupted:
		var d InterruptData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		verb := " interrupt "
		if len(d.Who) == 1 {
			verb = " interrupts "
		}
		text := kit.Names(t, d.Who) + verb + t.Who(d.Before) + " with a held action"
		if d.Phase > 0 && !t.Redacted {
			text += ", on phase " + strconv.Itoa(d.Phase)
		}
		return fray.Told{Text: text + "."}, true
	case EventFacing, EventProne:
		var d FacingData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Who)
		switch {
		case ev.Type == EventProne:
			text += " drops prone"
		case d.Dir != "":
			text += " turns to face " + d.Dir
		default:
			text += " changes facing"
		}
		if d.Cost > 0 && !t.Redacted {
			text += " off their own phase, on phase " + strconv.Itoa(d.Phase) + ", spending " + power(d.Cost)
		}
		return fray.Told{Text: text + "."}, true
	case EventStood:
		var d fray.NameData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Who) + " gets up from prone."}, true
	case EventSurprise:
		var d NamesData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		if len(d.Who) == 0 {
			return fray.Told{Text: "Nobody is surprised."}, true
		}
		return fray.Told{Text: "Surprised, having failed to notice the ambush: " + kit.Names(t, d.Who) + "."}, true
	case EventInitiative:
		var d DieData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		if t.Redacted {
			return fray.Told{Text: t.Who(d.Who) + "'s initiative die is entered for the next roll."}, true
		}
		return engine.TellRolled(t, t.Who(d.Who)+"'s initiative die for the next roll is "+InitiativeDice+" "+strconv.Itoa(d.Die)), true
	case EventUpkeep:
		var d UpkeepData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		switch {
		case t.Redacted:
			return fray.Told{Text: t.Who(d.Who) + "'s upkeep between turns changes."}, true
		case d.Power <= 0:
			return fray.Told{Text: t.Who(d.Who) + " pays no upkeep between turns now."}, true
		}
		return fray.Told{Text: t.Who(d.Who) + " pays " + power(d.Power) + " upkeep between turns."}, true
	case EventTiebreak:
		var d NamesData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return kit.TellTiebreak(t, d.Who), true
	case EventHoldLapsed:
		var d fray.NameData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Who) + "'s held action lapses unused, and their turn ends."}, true
	case EventSpent:
		var d SpendData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.Who) + " spends "
		if t.Redacted {
			text += "Power"
		} else {
			text += power(d.Power)
		}
		if d.Note != "" {
			text += " (" + d.Note + ")"
		}
		return fray.Told{Text: text + "."}, true
	}
	return fray.Told{}, false
}

// turnWords says a turn beginning with everyone's initiative, highest
// first: "Turn 2 begins; initiative: Ann 14, Bo 9 (halved; loses phase
// 9), Cy no phases (surprised)". A redacted tale has no numbers: "A new turn
// begins; initiative rolled for Ann, Bo".
func turnWords(t fray.Tale, d TurnData) string {
	if t.Redacted || d.Turn <= 0 {
		var who []fray.CombatantID
		for _, c := range d.Chars {
			who = append(who, c.Who)
		}
		if len(who) == 0 {
			return "A new turn begins"
		}
		return "A new turn begins; initiative for " + kit.Names(t, who)
	}
	chars := slices.Clone(d.Chars)
	slices.SortStableFunc(chars, func(a, b TurnChar) int {
		switch {
		case a.Rolled != b.Rolled && a.Rolled:
			return -1
		case a.Rolled != b.Rolled:
			return 1
		}
		return b.Init - a.Init
	})
	parts := make([]string, len(chars))
	for i, c := range chars {
		p := t.Who(c.Who)
		if !c.Rolled {
			parts[i] = p + " no phases (surprised)"
			continue
		}
		p += " " + strconv.Itoa(c.Init)
		var notes []string
		if c.Halved {
			notes = append(notes, "halved")
		}
		if c.Entered {
			notes = append(notes, "die entered")
		}
		if len(c.Lost) > 0 {
			lost := make([]string, len(c.Lost))
			for j, n := range c.Lost {
				lost[j] = strconv.Itoa(n)
			}
			word := "phase "
			if len(lost) > 1 {
				word = "phases "
			}
			notes = append(notes, "loses "+word+strings.Join(lost, ", "))
		}
		if len(notes) > 0 {
			p += " (" + strings.Join(notes, "; ") + ")"
		}
		parts[i] = p
	}
	text := "Turn " + strconv.Itoa(d.Turn) + " begins"
	if len(parts) > 0 {
		text += "; initiative: " + strings.Join(parts, ", ")
	}
	return text
}

// upkeeps says who pays what between turns: "Grue 2 Power, Vex 1
// Power"; a redacted tale names them only.
func upkeeps(t fray.Tale, us []UpkeepData) string {
	parts := make([]string, len(us))
	for i, u := range us {
		parts[i] = t.Who(u.Who)
		if !t.Redacted {
			parts[i] += " " + power(u.Power)
		}
	}
	return strings.Join(parts, ", ")
}

// power says an amount of Power: "2 Power".
func power(n int) string { return strconv.Itoa(n) + " Power" }

// distance says a distance in inches: "1 inch", "10 inches".
func distance(n int) string {
	if n == 1 {
		return "1 inch"
	}
	return strconv.Itoa(n) + " inches"
}
