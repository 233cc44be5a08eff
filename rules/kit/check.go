package kit

import (
	"slices"

	"fray"
)

// CheckRoster reports the first broken invariant that enc and recs, a
// system's entries for its combatants (its Chars), share with every
// system that keeps such entries: the encounter is started exactly when
// its round is 1 or more, and recs hold one entry for each combatant, in
// the combatants' order. round names the system's round ("round", "page",
// "turn"); bad words the report (the system's internal error).
func CheckRoster[E Keyed](enc *fray.Encounter, recs []E, round string, bad func(format string, args ...any) error) error {
	if enc.Started != (enc.Round >= 1) {
		return bad("started is %v in %s %d", enc.Started, round, enc.Round)
	}
	if len(recs) != len(enc.Combatants) {
		return bad("%d combatants but %d entries of their own", len(enc.Combatants), len(recs))
	}
	for i, x := range recs {
		if c := enc.Combatants[i]; x.Key() != c.ID {
			return bad("entry %d is %s's, combatant %d is %s (%q)", i, x.Key(), i, c.ID, c.Name)
		}
	}
	return nil
}

// CheckOrder reports the first broken invariant of r in enc: the turn in
// progress is within the order, which holds each combatant once, and the
// order and the GM's order hold only combatants present (present reports
// whether one is). round names the system's round, bad words the report,
// as in CheckRoster.
func (r *Rounds) CheckOrder(enc *fray.Encounter, present func(fray.CombatantID) bool, round string, bad func(format string, args ...any) error) error {
	if r.Pos < 0 || r.Pos > len(r.Order) {
		return bad("turn %d of %d", r.Pos, len(r.Order))
	}
	for i, id := range r.Order {
		if !present(id) {
			return bad("the order holds %s (%q), who is not present", id, enc.NameOf(id))
		}
		if slices.Contains(r.Order[i+1:], id) {
			return bad("%s has two turns in one %s", enc.NameOf(id), round)
		}
	}
	for _, id := range r.Tiebreak {
		if !present(id) {
			return bad("the GM's order holds %s (%q), who is not present", id, enc.NameOf(id))
		}
	}
	return nil
}
