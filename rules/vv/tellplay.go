package vv

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// The events of the turn and its phases (V-1 to V-7): a turn begins
// with everyone's initiative and ends with the upkeep paid, a character
// acts, moves, holds their action or is done on their phase, held
// actions interrupt, a facing changes, a character drops prone or gets
// up, and what the GM declares (surprise, initiative dice, upkeep, the
// order of ties, Power spent).

// tellTurn says a turn beginning with everyone's initiative.
func (s *System) tellTurn(t fray.Tale, d TurnData) fray.Told {
	return engine.TellRolled(t, turnWords(t, d))
}

// tellTurnEnded says a turn ending, with the upkeep paid and not paid.
func (s *System) tellTurnEnded(t fray.Tale, d TurnEndData) fray.Told {
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
	return fray.Told{Text: text + "."}
}

// tellActed says a character acting, on their phase and at the Power it
// costs.
func (s *System) tellActed(t fray.Tale, d ActData) fray.Told {
	text := t.Who(d.Who) + " acts"
	if !t.Redacted {
		if d.Phase > 0 {
			text += " on phase " + strconv.Itoa(d.Phase)
		}
		if d.Cost > 0 {
			text += ", spending " + power(d.Cost)
		}
	}
	return fray.Told{Text: text + "."}
}

// tellMoved says a character moving.
func (s *System) tellMoved(t fray.Tale, d MoveData) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Who) + " moves."}
	}
	return fray.Told{Text: t.Who(d.Who) + " moves " + distance(d.Inches) + "."}
}

// tellHeld says a character holding their action.
func (s *System) tellHeld(t fray.Tale, d HeldData) fray.Told {
	text := t.Who(d.Who) + " holds their action"
	if d.Open {
		text += ", their turn open until it is used or lapses"
	}
	return fray.Told{Text: text + "."}
}

// tellDone says a character done for the phase.
func (s *System) tellDone(t fray.Tale, d fray.NameData) fray.Told {
	return fray.Told{Text: t.Who(d.Who) + " is done for this phase."}
}

// tellInterrupted says held actions interrupting a character.
func (s *System) tellInterrupted(t fray.Tale, d InterruptData) fray.Told {
	verb := " interrupt "
	if len(d.Who) == 1 {
		verb = " interrupts "
	}
	text := kit.Names(t, d.Who) + verb + t.Who(d.Before) + " with a held action"
	if d.Phase > 0 && !t.Redacted {
		text += ", on phase " + strconv.Itoa(d.Phase)
	}
	return fray.Told{Text: text + "."}
}

// tellFacing says a facing changed, or a character dropping prone, and
// the Power it cost off their own phase.
func (s *System) tellFacing(t fray.Tale, d FacingData) fray.Told {
	text := t.Who(d.Who)
	switch {
	case t.Event.Type == EventProne:
		text += " drops prone"
	case d.Dir != "":
		text += " turns to face " + d.Dir
	default:
		text += " changes facing"
	}
	if d.Cost > 0 && !t.Redacted {
		text += " off their own phase, on phase " + strconv.Itoa(d.Phase) + ", spending " + power(d.Cost)
	}
	return fray.Told{Text: text + "."}
}

// tellStood says a character getting up from prone.
func (s *System) tellStood(t fray.Tale, d fray.NameData) fray.Told {
	return fray.Told{Text: t.Who(d.Who) + " gets up from prone."}
}

// tellSurprise says who the GM declares surprised.
func (s *System) tellSurprise(t fray.Tale, d NamesData) fray.Told {
	if len(d.Who) == 0 {
		return fray.Told{Text: "Nobody is surprised."}
	}
	return fray.Told{Text: "Surprised, having failed to notice the ambush: " + kit.Names(t, d.Who) + "."}
}

// tellInitiative says an initiative die entered for the next roll.
func (s *System) tellInitiative(t fray.Tale, d DieData) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(d.Who) + "'s initiative die is entered for the next roll."}
	}
	return engine.TellRolled(t, t.Who(d.Who)+"'s initiative die for the next roll is "+InitiativeDice+" "+strconv.Itoa(d.Die))
}

// tellUpkeep says the upkeep a character pays between turns.
func (s *System) tellUpkeep(t fray.Tale, d UpkeepData) fray.Told {
	switch {
	case t.Redacted:
		return fray.Told{Text: t.Who(d.Who) + "'s upkeep between turns changes."}
	case d.Power <= 0:
		return fray.Told{Text: t.Who(d.Who) + " pays no upkeep between turns now."}
	}
	return fray.Told{Text: t.Who(d.Who) + " pays " + power(d.Power) + " upkeep between turns."}
}

// tellTiebreak says the GM's order for ties.
func (s *System) tellTiebreak(t fray.Tale, d NamesData) fray.Told {
	return kit.TellTiebreak(t, d.Who)
}

// tellHoldLapsed says a held action lapsing unused.
func (s *System) tellHoldLapsed(t fray.Tale, d fray.NameData) fray.Told {
	return fray.Told{Text: t.Who(d.Who) + "'s held action lapses unused, and their turn ends."}
}

// tellSpent says Power spent at the GM's word.
func (s *System) tellSpent(t fray.Tale, d SpendData) fray.Told {
	text := t.Who(d.Who) + " spends "
	if t.Redacted {
		text += "Power"
	} else {
		text += power(d.Power)
	}
	if d.Note != "" {
		text += " (" + d.Note + ")"
	}
	return fray.Told{Text: text + "."}
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
