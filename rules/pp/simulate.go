package pp

import (
	"fray"
	"fray/rules/kit"
)

// simTraits are the traits a simulated character may attack with.
var simTraits = []string{"agility", "intellect", "might", "perception", "toughness", "willpower"}

// SimMoves returns the moves open in st (fray.Simulator): before the
// start, start; else one attack by the current character on each
// standing foe with each of the six traits, resisted by the defender's
// best defence, and next. Resolve is never spent: the default tactic
// spends nothing.
func (*System) SimMoves(st fray.State, buf []fray.SimMove) []fray.SimMove {
	s, err := get(st)
	if err != nil {
		return buf
	}
	if !s.Started {
		return append(buf, fray.SimMove{Kind: fray.SimEnd, Cmd: fray.Command{Name: "start"}})
	}
	a := s.ByID(s.current())
	if a == nil {
		return append(buf, fray.SimMove{Kind: fray.SimEnd, Cmd: fray.Command{Name: "next"}})
	}
	if !s.simDown(a) {
		buf = kit.SimAttacks(buf, &s.Encounter, a, s.simDown, simTraits, "attack", KeyWith)
	}
	return append(buf, fray.SimMove{Kind: fray.SimEnd, Actor: a.ID, Cmd: fray.Command{Name: "next"}})
}

// SimDown reports whether c is defeated: at 0 Health, or every minion
// of a band down (P-10).
func (*System) SimDown(st fray.State, c *fray.Combatant) bool {
	s, err := get(st)
	return err == nil && s.simDown(c)
}

// SimHealth returns c's Health left and its Health; for a band of
// minions, the minions standing and their count.
func (*System) SimHealth(st fray.State, c *fray.Combatant) (left, most int) {
	s, err := get(st)
	if err != nil {
		return 0, 0
	}
	if ch := s.char(c.ID); ch != nil && ch.Minion {
		n, down := minionCount(c), 0
		if r := s.record(c.ID); r != nil {
			down = r.Down
		}
		return max(0, n-down), n
	}
	return s.healthLeft(c.ID), Health(c)
}

func (s *State) simDown(c *fray.Combatant) bool { return s.defeated(c.ID) }

// SimExpect returns the attack's expected harm, from its exact odds.
func (*System) SimExpect(st fray.State, m fray.SimMove) (float64, bool) {
	s, err := get(st)
	if err != nil {
		return 0, false
	}
	cmd := m.Cmd
	d, sides, _, err := s.planAttack(cmd)
	if err != nil {
		return 0, false
	}
	o, err := s.checkOdds(d, sides)
	if err != nil {
		return 0, false
	}
	return o.Mean, true
}
