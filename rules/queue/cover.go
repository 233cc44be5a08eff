package queue

import (
	"slices"

	"fray"
)

// Taking the damage for an ally (Q-3, Q-5). Seed 004: "Johann uses a
// class ability of his to suffer the damage instead of an ally in his
// zone (an abstraction for distances on the battlefield) - but it costs
// him a Reaction." A reaction for an ally, react NAME to=ATTACKER
// for=ALLY, is that Reaction: when ATTACKER's attack then hits ALLY, the
// damage lands on NAME instead, and so does all that follows from it —
// Incapacitated when it takes NAME's last hit points, an Injury when NAME
// has none left, the weapon's special on a Black 6. The attack's
// event says who suffered it (attackData.SufferedBy); Apply reads that
// and never looks for a reaction, so a log recorded before keeps its
// damage where it fell.
//
// Rulings where the seed is silent (ours), from its words around them:
//   - The reaction comes before the attack is entered, as "instead" says
//     (ALLY never takes the damage) and as a Reaction "attempts to
//     counter" an action; at a table the players see the dice ("he
//     scores so well he could oneshot poor Melvina") and the attack is
//     entered with them (dice=). Once ATTACKER's attack has hit ALLY
//     this turn, a reaction for ALLY to ATTACKER is refused: the damage
//     is dealt.
//   - The attack is aimed at ALLY: it hits on 10 + ALLY's Wits. Only its
//     damage moves, judged on NAME's hit points (the odds of
//     Incapacitating, or of an Injury, are NAME's); injury= on the
//     attack names NAME's Injury.
//   - It answers ATTACKER's action this turn: the cover holds for the rest
//     of ATTACKER's turn, for ATTACKER's attacks on ALLY (the GM's damage
//     is no attack and stays where the GM puts it). A reaction answering
//     another's reaction makes no attack to suffer: for= is refused there.
//   - One suffers the damage for ALLY: a second reaction for ALLY to the
//     same ATTACKER in the same turn is refused. A reactor who has died
//     or left since suffers nothing; the damage stays with ALLY. One
//     Incapacitated since still suffers it, as an Injury; one with no
//     hit points recorded has none to lose, and the attack is refused.
//   - A miss moves nothing, and the Reaction is spent all the same ("it
//     costs him a Reaction"): NAME still stands right below ATTACKER.

// coverer returns who suffers the damage of the attack of att on tgt
// instead of tgt: the first to have reacted to att for tgt this turn
// (react … to=att for=tgt), while present and not dead; nil for none.
// Only the current actor attacks, so only their attacks are covered.
func (s *State) coverer(att, tgt fray.CombatantID) *fray.Combatant {
	if att == "" || att != s.current() {
		return nil
	}
	for _, t := range s.reactionsThisTurn() {
		if t.To != att || t.For != tgt {
			continue
		}
		if c := s.ByID(t.ID); c != nil && !s.dead(c) {
			return c
		}
	}
	return nil
}

// reactionsThisTurn returns the reactions taken during the current turn,
// in the order taken: the entries of Turns after the last turn's own (a
// turn's entry has no To).
func (s *State) reactionsThisTurn() []Turn {
	for i := len(s.Turns) - 1; i >= 0; i-- {
		if s.Turns[i].To == "" {
			return s.Turns[i+1:]
		}
	}
	return nil
}

// checkCover checks a reaction by r to o for ally (react … for=), o
// being the current actor or a reaction to them: it takes the damage of
// an attack still to come, of the current actor, on ally.
func (s *State) checkCover(r, o, ally *fray.Combatant) error {
	cur := s.ByID(s.current())
	switch {
	case o.ID != cur.ID:
		return fray.Errorf(fray.EINVALID, "%s is reacting and makes no attack; a reaction for an ally suffers the damage of the attack it answers instead, so it answers %s, whose turn it is.", o, cur)
	case ally.ID == o.ID:
		return fray.Errorf(fray.EINVALID, "%s makes the attack; for= names the ally it is aimed at.", o)
	}
	if c := s.coverer(o.ID, ally.ID); c != nil {
		return fray.Errorf(fray.EINVALID, "%s already suffers the damage of %s's attack on %s instead.", c, o, ally)
	}
	if slices.Contains(s.Hits, ally.ID) {
		return fray.Errorf(fray.EINVALID, "%s's attack has already hit %s: the damage is dealt. To suffer it instead, %s reacts before the attack: undo it, react, then enter the attack again with its dice (dice=).", o, ally, r)
	}
	return nil
}
