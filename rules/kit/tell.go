package kit

import (
	"strconv"
	"strings"

	"fray"
)

// The log in words: the sentences the systems share for the events of
// their order of play (a round begins, the GM breaks ties), and the
// helpers their tellers use to name combatants as a tale's reader knows
// them.

// Names says combatants in order, as the tale's reader knows them:
// "Ann, Bo, Cy".
func Names(t fray.Tale, ids []fray.CombatantID) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = t.Who(id)
	}
	return strings.Join(out, ", ")
}

// Named returns the name of the combatant an event names by name rather
// than by id (a payload that follows the EventAdded of a newcomer, whose
// id the rules cannot know): the combatant the event declares first
// (fray.Event.About), as the tale's reader knows them, else name as the
// event holds it.
func Named(t fray.Tale, name string) string {
	for _, id := range t.Event.About {
		if id != fray.AboutUndeclared && id != "" {
			return t.Who(id)
		}
	}
	if name == "" {
		return fray.Someone
	}
	return name
}

// TellRound says that a round begins and its order of play, the round
// called word ("Round", or "Page" in P&P): "Round 2: Ann, Bo, Cy act in
// that order." A redacted tale has no round number: "A new round: …".
func TellRound(t fray.Tale, word string, d RoundData) fray.Told {
	s := word + " " + strconv.Itoa(d.Round)
	if t.Redacted || d.Round <= 0 {
		s = "A new " + strings.ToLower(word)
	}
	switch len(d.Order) {
	case 0:
		return fray.Told{Text: s + " begins, with nobody to act."}
	case 1:
		return fray.Told{Text: s + ": " + t.Who(d.Order[0]) + " acts alone."}
	}
	return fray.Told{Text: s + ": " + Names(t, d.Order) + " act in that order."}
}

// TellTiebreak says the GM's order for combatants tied on the system's
// ranking: "The GM breaks ties in this order: Ann, Bo."
func TellTiebreak(t fray.Tale, ids []fray.CombatantID) fray.Told {
	if len(ids) == 0 {
		return fray.Told{Text: "The GM clears the order for ties."}
	}
	return fray.Told{Text: "The GM breaks ties in this order: " + Names(t, ids) + "."}
}

// TellTurnEnds says that the turn of the combatant who ends: "Ann's turn
// ends."
func TellTurnEnds(t fray.Tale, who fray.CombatantID) fray.Told {
	return fray.Told{Text: t.Who(who) + "'s turn ends."}
}
