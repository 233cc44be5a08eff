package pp

import (
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// The events of the order of play and of the challenges beyond a
// check and harm: a combatant's role, a page beginning in Edge order, an
// action taken, a turn ending, the GM's order for ties, the rolls of a
// same-goal check of three or more, a contest begun and each exchange,
// an assist, a group action, Resolve spent after a roll, a defining
// moment declared, a new scene and a new story.

// tellRole says a combatant's role.
func (s *System) tellRole(t fray.Tale, d RoleData) fray.Told {
	text := kit.Named(t, d.Name) + " is " + roleWords(d.Role)
	if d.Minion {
		text += ", a minion, who acts after everyone else"
	}
	return fray.Told{Text: text + "."}
}

// tellRound says a page beginning, in Edge order.
func (s *System) tellRound(t fray.Tale, d RoundData) fray.Told {
	return kit.TellRound(t, "Page", d)
}

// tellActed says an action taken, and the dice a second or later one
// in the turn costs.
func (s *System) tellActed(t fray.Tale, d ActData) fray.Told {
	if d.Nth <= 1 || t.Redacted {
		return fray.Told{Text: t.Who(d.Who) + " takes an action."}
	}
	return fray.Told{Text: t.Who(d.Who) + " takes their " + ordinal(d.Nth) + " action this turn, at −" + strconv.Itoa(2*(d.Nth-1)) + "d."}
}

// tellTurnDone says a turn ending.
func (s *System) tellTurnDone(t fray.Tale, d fray.NameData) fray.Told {
	return kit.TellTurnEnds(t, d.Who)
}

// tellTiebreak says the GM's order for ties.
func (s *System) tellTiebreak(t fray.Tale, d NamesData) fray.Told {
	return kit.TellTiebreak(t, d.Who)
}

// tellSides says the rolls of a same-goal check of three or more.
func (s *System) tellSides(t fray.Tale, d SidesData) fray.Told {
	parts := make([]string, len(d.Sides))
	for i, x := range d.Sides {
		parts[i] = t.Who(x.Who) + " (" + kit.Title(x.Trait) + ")"
		if !t.Redacted {
			parts[i] += " " + plural(x.Successes, "success", "successes")
		}
	}
	return fray.Told{Text: "The same-goal roll, as named: " + strings.Join(parts, ", ") + "."}
}

// tellContest says a contest begun.
func (s *System) tellContest(t fray.Tale, d ContestData) fray.Told {
	text := t.Who(d.A) + "'s " + kit.Title(d.TraitA) + " and " + t.Who(d.B) + "'s " + kit.Title(d.TraitB)
	if len(d.More) > 0 {
		text += " (with " + kit.Names(t, d.More) + ", rolling " + kit.Title(d.TraitB) + ")"
	}
	text += " begin a contest"
	if !t.Redacted && d.Exchanges > 0 {
		text += " of " + strconv.Itoa(d.Exchanges) + " exchanges"
	}
	return fray.Told{Text: text + "."}
}

// tellDefining says a defining moment declared, and what it costs.
func (s *System) tellDefining(t fray.Tale, d DefiningData) fray.Told {
	text := t.Who(d.Who) + " declares a defining moment"
	switch d.Cost {
	case KeyOneShot:
		text += " at the one-shot cost"
	case "":
	default:
		text += ", giving up 1d of " + kit.Title(d.Cost) + " afterwards"
	}
	return fray.Told{Text: text + "."}
}

// tellAssisted says an assist roll.
func (s *System) tellAssisted(t fray.Tale, d AssistData) fray.Told {
	return engine.TellRolled(t, assistText(t, d))
}

// tellGrouped says a group action.
func (s *System) tellGrouped(t fray.Tale, d GroupData) fray.Told {
	return engine.TellRolled(t, groupText(t, d))
}

// tellExchanged says an exchange of a contest.
func (s *System) tellExchanged(t fray.Tale, d ExchangeData) fray.Told {
	return engine.TellRolled(t, exchangeText(t, d))
}

// tellSpent says Resolve spent after a roll, and what more an attack's
// target lost by it.
func (s *System) tellSpent(t fray.Tale, d SpentData) fray.Told {
	return engine.TellRolled(t, spentText(t, d)+s.spentHarm(t, d))
}

// assistText says an assist roll (P-6): "Whisper assists Gatecrasher
// with Agility: 4 successes against Hard (2), 2 net — +1d to Gatecrasher's next roll, but
// a better helper's +4d counts".
func assistText(t fray.Tale, d AssistData) string {
	text := t.Who(d.Helper) + " assists " + t.Who(d.For) + " with " + kit.Title(d.Trait)
	if d.Cost != "" {
		text += " in a defining moment"
	}
	if t.Redacted {
		if !d.Kept {
			text += ", but a better helper's assist counts"
		}
		return text
	}
	text += ": " + plural(d.Successes, "success", "successes") + " against " + ThresholdName(AssistThreshold) + ", " + strconv.Itoa(d.Net) + " net — +" + strconv.Itoa(d.Bonus) + "d to " + t.Who(d.For) + "'s next roll"
	switch {
	case d.Bonus > 0 && !d.Kept:
		text += ", but a better helper's +" + strconv.Itoa(d.Before) + "d counts"
	case d.Bonus > 0 && d.Before > 0:
		text += ", the best helper's, replacing +" + strconv.Itoa(d.Before) + "d"
	}
	return text
}

// groupText says a group action (P-7): "Gatecrasher, Citizen Soldier,
// Whisper act as a group with Might against Daunting (3): 9, 4 and 1
// successes; after sharing Gatecrasher +3, Citizen Soldier +1, Whisper
// +1 — 3 of 3 succeed".
func groupText(t fray.Tale, d GroupData) string {
	text := kit.Names(t, d.Who) + " act as a group with " + kit.Title(d.Trait)
	if t.Redacted {
		return text
	}
	text += " against " + ThresholdName(d.Threshold)
	if len(d.Successes) == len(d.Who) {
		n := make([]string, len(d.Successes))
		for i, x := range d.Successes {
			n[i] = strconv.Itoa(x)
		}
		text += ": " + strings.Join(n, ", ") + " successes"
	}
	if len(d.Nets) == len(d.Who) {
		parts := make([]string, len(d.Nets))
		won := 0
		for i, x := range d.Nets {
			parts[i] = t.Who(d.Who[i]) + " " + signed(x)
			if x >= 1 {
				won++
			}
		}
		text += "; net after sharing " + strings.Join(parts, ", ") + " — " + strconv.Itoa(won) + " of " + strconv.Itoa(len(d.Nets)) + " succeed"
	}
	return text
}

// exchangeText says an exchange of a contest (P-8), its contestants
// named from the contest in the tale's state: "Exchange 2 of 3:
// Gatecrasher 2 successes to Whisper's 4 — Whisper wins it". A redacted tale has
// only who won: "An exchange of the contest: Whisper wins it".
func exchangeText(t fray.Tale, d ExchangeData) string {
	text := "An exchange of the contest"
	if !t.Redacted && d.N > 0 {
		text = "Exchange " + strconv.Itoa(d.N) + " of the contest: "
		if c := contestOf(t); c.A != "" && c.B != "" {
			if d.N <= c.Exchanges {
				text = "Exchange " + strconv.Itoa(d.N) + " of " + strconv.Itoa(c.Exchanges) + ": "
			} else {
				text = "Exchange " + strconv.Itoa(d.N) + ", the tied last one again: "
			}
			text += t.Who(c.A) + " " + plural(d.SuccessesA, "success", "successes") + " to " + t.Who(c.B) + "'s " + strconv.Itoa(d.SuccessesB)
		} else {
			text += plural(d.SuccessesA, "success", "successes") + " to " + strconv.Itoa(d.SuccessesB)
		}
		for _, x := range d.More {
			text += " to " + strconv.Itoa(x.Successes)
		}
	}
	return text + " — " + exchangeOutcome(t, d)
}

// exchangeOutcome says how an exchange came out and what follows: "Whisper
// wins it; +2d to Whisper in the next", "a tie; the contest is drawn".
func exchangeOutcome(t fray.Tale, d ExchangeData) string {
	text := "a tie"
	if d.Winner != "" {
		text = t.Who(d.Winner) + " wins it"
	}
	c := contestOf(t)
	switch {
	case d.Over && d.Outcome != "":
		text += "; " + t.Who(d.Outcome) + " wins the contest and describes its outcome"
	case d.Over:
		text += "; the contest is drawn"
	case d.Winner != "":
		text += "; +" + strconv.Itoa(ContestCarry) + "d to " + t.Who(d.Winner) + " in the next"
	case c.Exchanges > 0 && d.N >= c.Exchanges && !t.Redacted:
		text += "; the last exchange is tied, so it is rolled again"
	}
	return text
}

// contestOf returns the contest under way in the tale's state, the zero
// Contest when the tale has no state.
func contestOf(t fray.Tale) Contest {
	if st, ok := t.State.(*State); ok {
		return st.Res.Contest
	}
	return Contest{}
}

// spentText says Resolve spent after a roll (P-4, P-5): "Gatecrasher
// spends 2 Resolve for more dice on the roll: 9 successes now, 3 net —
// success"; on an exchange, an assist or a group action, the successes
// and how that roll now comes out.
func spentText(t fray.Tale, d SpentData) string {
	text := t.Who(d.Who) + " spends "
	if t.Redacted {
		text += "Resolve"
	} else {
		text += strconv.Itoa(d.Resolve) + " Resolve"
	}
	text += map[string]string{HowDice: " for more dice", HowReroll: " to reroll", HowExplode: " to make their 6s explode"}[d.How]
	text += map[string]string{LastCheck: " on the roll", LastExchange: " on the exchange", LastAssist: " on the assist", LastGroup: " on the group action"}[d.Of]
	if t.Redacted {
		if r := orBand(d.Shown, d.Result, d.Band); r != "" && d.Of == LastCheck {
			text += " — " + r
		}
		return text
	}
	text += ": " + plural(d.Successes, "success", "successes") + " now"
	switch {
	case d.Of == LastCheck:
		text += ", " + strconv.Itoa(d.Net) + " net"
		if r := orBand(d.Shown, d.Result, d.Band); r != "" {
			text += " — " + r
		}
	case d.Of == LastExchange && d.Exchange != nil:
		text += " — " + exchangeOutcome(t, *d.Exchange)
	case d.Of == LastAssist && d.Assist != nil:
		text += " — +" + strconv.Itoa(d.Assist.Bonus) + "d to " + t.Who(d.Assist.For) + "'s next roll"
		if d.Assist.Bonus > 0 && !d.Assist.Kept {
			text += ", but a better helper's +" + strconv.Itoa(d.Assist.Before) + "d counts"
		}
	case d.Of == LastGroup && d.Group != nil:
		won := 0
		for _, x := range d.Group.Nets {
			if x >= 1 {
				won++
			}
		}
		text += " — " + strconv.Itoa(won) + " of " + strconv.Itoa(len(d.Group.Nets)) + " succeed"
	}
	return text
}

// spentHarm says what more an attack's target lost once Resolve spent
// on the attack's roll has settled it again, as Tell says an attack's
// harm: ", 1 more minion lost: 1 → 0 standing"; "" for any other roll,
// when nothing more is lost, or redacted.
func (s *System) spentHarm(t fray.Tale, d SpentData) string {
	st, ok := t.State.(*State)
	if !ok || t.Redacted || d.Of != LastCheck || d.Lost <= 0 {
		return ""
	}
	last := st.Res.Last
	more := d.Lost - last.Lost
	if last.Kind != KindAttack || last.Opponent == "" || more <= 0 {
		return ""
	}
	what := " more Health"
	switch {
	case last.Minion && more == 1:
		what = " more minion"
	case last.Minion:
		what = " more minions"
	}
	return ", " + strconv.Itoa(more) + what + " lost" + s.standingAfter(t, last.Opponent)
}

// orBand returns the first of a roll's results that is not "": the one
// shown, the traditional result, the band.
func orBand(shown, result, band string) string {
	for _, r := range []string{shown, result, band} {
		if r != "" {
			return r
		}
	}
	return ""
}

// roleWords says a role with its article: "a hero", "an extra".
func roleWords(role string) string {
	switch role {
	case "":
		return "in the fight"
	case RoleExtra:
		return "an extra"
	}
	return "a " + role
}

// ordinal says n as an ordinal: "2nd", "3rd", "11th".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
