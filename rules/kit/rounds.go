package kit

import (
	"slices"

	"fray"
	"fray/engine"
)

// RoundData is the payload of a system's event that begins a round (a
// page, in P&P's words) in its order of play.
type RoundData struct {
	Round int                `json:"round"` // the round beginning, from 1
	Order []fray.CombatantID `json:"order"` // its order of play
}

// NamesData is a payload that concerns several combatants, such as the
// GM's order for full ties.
type NamesData struct {
	Who []fray.CombatantID `json:"names"` // the combatants, in order
}

// Rounds is the order of play of the systems whose rounds are turns taken
// one after another in an order the system ranks anew each round (in
// Cinematic Unisystem, by initiative; in P&P, by Edge). A system's state
// embeds it, so that its fields keep their names in the state's JSON.
type Rounds struct {
	// Tiebreak is the GM's order for characters tied on the system's
	// ranking.
	Tiebreak []fray.CombatantID
	// Order is this round's order of play; Pos the index of the turn in
	// progress, len(Order) when the round is over. Its array is never
	// changed in place (a removal makes a new one), so that copies of the
	// state share it.
	Order []fray.CombatantID
	Pos   int
}

// Clone returns a copy of r for a copy of its state: the tiebreak copied,
// the order shared.
func (r *Rounds) Clone() Rounds {
	return Rounds{Tiebreak: slices.Clone(r.Tiebreak), Order: r.Order, Pos: r.Pos}
}

// Current returns the id of whose turn it is, or "" when no turn is in
// progress (before the start, and once the round is over).
func (r *Rounds) Current() fray.CombatantID {
	if r.Pos < len(r.Order) {
		return r.Order[r.Pos]
	}
	return ""
}

// Begin begins the round numbered round of enc, in the order given (the
// system checked it): the turn edges of the round before end, and those of
// the new round and of its first turn start (E-4).
func (r *Rounds) Begin(enc *fray.Encounter, round int, order []fray.CombatantID) {
	if enc.Round > 0 {
		engine.TurnEdge(enc, enc.Round, "", fray.EdgeEnd)
	}
	enc.Round, r.Order, r.Pos = round, order, 0
	engine.TurnEdge(enc, round, "", fray.EdgeStart)
	if cur := r.Current(); cur != "" {
		engine.TurnEdge(enc, round, cur, fray.EdgeStart)
	}
}

// EndTurn ends the turn in progress in enc, and the next in order's turn
// begins: their turn edges end and start (E-4).
func (r *Rounds) EndTurn(enc *fray.Encounter) {
	cur := r.Current()
	r.Pos++
	engine.TurnEdge(enc, enc.Round, cur, fray.EdgeEnd)
	if next := r.Current(); next != "" {
		engine.TurnEdge(enc, enc.Round, next, fray.EdgeStart)
	}
}

// Drop takes the combatant id out of the tiebreak and the order. i is
// where they stood in the order, -1 when not in it; at where their turn
// stood: -1 taken, 0 in progress (the next in order's turn is now in
// progress), 1 to come. The turn in progress stays the same one when it
// was not theirs.
func (r *Rounds) Drop(id fray.CombatantID) (i, at int) {
	if r.Tiebreak = engine.Without(r.Tiebreak, id); len(r.Tiebreak) == 0 {
		r.Tiebreak = nil
	}
	i = slices.Index(r.Order, id)
	if i < 0 {
		return -1, 0
	}
	r.Order = slices.Delete(slices.Clone(r.Order), i, i+1) // not in place: see Order
	switch {
	case i < r.Pos:
		r.Pos--
		return i, -1
	case i == r.Pos:
		return i, 0
	}
	return i, 1
}

// CheckCurrent checks that name, when not "", names the combatant of enc
// whose turn it is.
func (r *Rounds) CheckCurrent(enc *fray.Encounter, name string) error {
	if name == "" {
		return nil
	}
	c, err := enc.Lookup(name)
	if err != nil {
		return err
	}
	if cur := r.Current(); c.ID != cur {
		return fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", fray.Mention(enc.NameOf(cur)), c)
	}
	return nil
}

// CheckStart checks that the encounter enc may start: not started yet,
// with someone to fight.
func CheckStart(enc *fray.Encounter) error {
	if enc.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has already started.")
	}
	if len(enc.Combatants) == 0 {
		return fray.Errorf(fray.EINVALID, "There is nobody to fight yet; add combatants first.")
	}
	return nil
}

// DecideStart decides "start" in tx: the encounter enc starts (if it may:
// CheckStart), and its first round begins with an event of the type round
// in the order rank gives (the system's ranking of the combatants).
func DecideStart[S fray.State](tx *Txn[S], enc *fray.Encounter, round string, rank func() []fray.CombatantID) error {
	if err := CheckStart(enc); err != nil {
		return err
	}
	if err := tx.Emit(fray.EventStarted, nil); err != nil {
		return err
	}
	return tx.Emit(round, RoundData{Round: enc.Round + 1, Order: rank()})
}

// DecideOrder decides "order NAME …" in tx: an event of the type typ gives
// the GM's order for full ties, the combatants of enc the words name.
func DecideOrder[S fray.State](tx *Txn[S], enc *fray.Encounter, typ string, names []string) error {
	names, err := engine.Names(enc, names)
	if err != nil {
		return err
	}
	return tx.Emit(typ, NamesData{Who: engine.IDs(enc, names)})
}
