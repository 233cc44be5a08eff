package queue

import (
	"slices"

	"fray"
	"fray/rules/kit"
)

// SimMoves returns the moves open in st (fray.Simulator): before the
// start, start; else the attacks of the combatant at the top of the
// queue on each standing foe with each of their weapons, and next. No
// reaction is ever offered: a reaction costs the reactor their next
// turn's place, and the default tactic spends nothing.
//
// The Combat Queue has no defence for the cautious tactic either: the
// rules give a reaction no roll that negates a hit (a parry's outcome
// is the GM's, Q-3), and the one they play, suffering the damage for an
// ally, moves a hit rather than negating it; so queue implements no
// fray.SimGuarder, and a cautious combatant attacks as focus-weakest and
// takes every hit.
func (*System) SimMoves(st fray.State, buf []fray.SimMove) []fray.SimMove {
	s := state(st)
	if !s.Started {
		return append(buf, fray.SimMove{Kind: fray.SimEnd, Cmd: fray.Command{Name: "start"}})
	}
	a := s.ByID(s.current())
	if a == nil {
		return buf
	}
	if !s.simDown(a) {
		var wbuf [4]Weapon
		var nbuf [4]string
		withs := nbuf[:0]
		for _, w := range s.appendWeapons(wbuf[:0], a) {
			withs = append(withs, w.Name)
		}
		buf = kit.SimAttacks(buf, &s.Encounter, a, s.simDown, withs, "attack", KeyWith)
	}
	return append(buf, fray.SimMove{Kind: fray.SimEnd, Actor: a.ID, Cmd: fray.Command{Name: "next"}})
}

// SimDown reports whether c is out of the fight: Incapacitated (no hit
// points left) or dead.
func (*System) SimDown(st fray.State, c *fray.Combatant) bool { return state(st).simDown(c) }

// SimHealth returns c's hit points left and most.
func (*System) SimHealth(st fray.State, c *fray.Combatant) (left, most int) {
	most, hp, ok := maxHP(c)
	if !ok {
		return 0, most
	}
	if f := state(st).fighter(c.ID); f != nil {
		hp -= f.Damage
	}
	return max(0, hp), most
}

// simDown is incapacitated or dead, with c's record looked up once.
func (s *State) simDown(c *fray.Combatant) bool {
	f := s.fighter(c.ID)
	if f != nil && slices.Contains(f.Injuries, InjuryDead) {
		return true
	}
	_, hp, ok := maxHP(c)
	if f != nil {
		hp -= f.Damage
	}
	return ok && hp <= 0
}

// SimExpect returns the attack's expected damage, from its exact odds.
func (*System) SimExpect(st fray.State, m fray.SimMove) (float64, bool) {
	s := state(st)
	cmd := m.Cmd
	a, _, _, _, err := s.AttackOf(cmd)
	if err != nil {
		return 0, false
	}
	mean, err := a.MeanDamage()
	if err != nil {
		return 0, false
	}
	return mean, true
}
