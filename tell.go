package fray

import (
	"strconv"
	"strings"
)

// Told is one event in words, as a log shows it: a line, and the full
// breakdown behind it. Field names are wire strings (the events a page
// receives carry them): never rename one.
type Told struct {
	// Text is the event in one sentence in the system's own terms: who
	// did what to whom, the dice, the total against the target, the
	// outcome, the damage and the track after, with the odds it had.
	Text string `json:"text"`
	// Detail is the full breakdown (every modifier, each die), one item a
	// line; empty when the sentence says everything.
	Detail string `json:"detail,omitempty"`
}

// Tale is what an event is told from: the event, the state just before
// it applied, and the names its reader knows.
type Tale struct {
	// Event is the event to tell, as its reader may see it.
	Event Event
	// State is the state just before Event applied, or nil when it is
	// not at hand or the reader may not see it (a player). A teller that
	// wants the state after the event (a track after damage) applies the
	// event to a clone of State itself; without State it says what the
	// event alone says.
	State State
	// Name names a combatant by id as the reader knows them now, so that
	// a combatant renamed since is told by the new name; "" for one the
	// reader may not know of. Nil names nobody.
	Name func(CombatantID) string
	// Redacted reports that the numbers of the event's data, its odds
	// and the rolls made for others were taken out for the reader (a
	// player's view of an event that concerns non-player characters):
	// the teller says who did what and which band came, no number.
	Redacted bool
}

// Someone is how a tale names a combatant its reader may not know of.
const Someone = "someone"

// Who returns the name of the combatant id as the tale's reader knows
// them, else Someone.
func (t Tale) Who(id CombatantID) string {
	if id != "" && t.Name != nil {
		if n := t.Name(id); n != "" {
			return n
		}
	}
	return Someone
}

// Teller is a System that tells its own events in words. A system that is
// not one, or whose Tell reports false for an event, has the event told
// by the engine (engine.Tell) by its type, whom it concerns and its rolls.
type Teller interface {
	// Tell returns the words of t.Event, and false when the system has
	// none for its type. It must not change t.State.
	Tell(t Tale) (Told, bool)
}

// DiceText says a roll's dice: "2d6 6, 1"; a roll whose faces were not
// recorded shows its total: "2d6 7". Whom the roll is for is the
// teller's to say, by the name its reader knows (Tale.Who of Roll.Who).
func DiceText(r Roll) string {
	if len(r.Dice) == 0 {
		return r.Expr + " " + strconv.Itoa(r.Total)
	}
	var b strings.Builder
	b.WriteString(r.Expr)
	for i, d := range r.Dice {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(" ")
		b.WriteString(strconv.Itoa(d))
	}
	return b.String()
}

// RollText says a roll: its dice, their total and whether they were
// entered: "2d6 6, 1 = 7 (faces entered)".
func RollText(r Roll) string {
	s := DiceText(r)
	if len(r.Dice) > 1 || len(r.Dice) == 1 && r.Dice[0] != r.Total {
		s += " = " + strconv.Itoa(r.Total)
	}
	switch r.Source {
	case RollFaces:
		s += " (faces entered)"
	case RollTotal:
		s += " (total entered)"
	}
	return s
}

// OddsText says the odds of a roll's bands in short, in their order:
// "hit 33% · extreme hit 58%".
func OddsText(o Odds) string {
	var parts []string
	for _, b := range o.Bands {
		parts = append(parts, b.Name+" "+Percent(b.P))
	}
	return strings.Join(parts, " · ")
}

// Percent says a probability as a whole percentage, with "<1%" and
// ">99%" for the ends that are not certain.
func Percent(p float64) string {
	switch {
	case p <= 0:
		return "0%"
	case p >= 1:
		return "100%"
	case p < 0.005:
		return "<1%"
	case p > 0.995:
		return ">99%"
	}
	return strconv.Itoa(int(p*100+0.5)) + "%"
}

// OddsDetail says every band and modifier of the odds, one a line, for
// a Told's Detail.
func OddsDetail(o Odds) []string {
	var out []string
	var bands []string
	for _, b := range o.Bands {
		bands = append(bands, b.Name+" "+strconv.FormatFloat(100*b.P, 'f', 1, 64)+"%")
	}
	line := "odds: " + strings.Join(bands, ", ") + " (" + o.Expr
	if o.TargetKind != "" {
		line += " against " + o.TargetKind + " " + strconv.Itoa(o.Target)
	}
	out = append(out, line+")")
	for _, m := range o.Modifiers {
		out = append(out, "modifier: "+m.String())
	}
	return out
}
