package bpb

import (
	"fray"
	"fray/rules/kit"
)

// SimMoves returns the moves open in st (fray.Simulator): before the
// start, start; a hit that waits, the defender's take (a block or dodge
// costs a forced action, which the default tactic never spends); else the
// current combatant's attacks on each standing foe with each power or
// weapon on the sheet, and next.
func (*System) SimMoves(st fray.State, buf []fray.SimMove) []fray.SimMove {
	s := state(st)
	if !s.Started {
		return append(buf, fray.SimMove{Kind: fray.SimEnd, Cmd: fray.Command{Name: "start"}})
	}
	if h := s.Pending; h != nil {
		d := s.ByID(h.Defender)
		if d == nil {
			return buf
		}
		return append(buf, fray.SimMove{Kind: fray.SimAnswer, Actor: d.ID, Target: d.ID,
			Cmd: fray.Command{Name: "take", Args: []string{d.Name}}})
	}
	t := s.current()
	if t == nil {
		return buf
	}
	a := s.ByID(t.ID)
	if a == nil {
		return buf
	}
	if a.Condition(CondOut) == nil && !t.Env {
		buf = kit.SimAttacks(buf, &s.Encounter, a, s.simDown, kit.SimPowers(a, simAttacks), RollAttack, "with")
	}
	return append(buf, fray.SimMove{Kind: fray.SimEnd, Actor: a.ID, Cmd: fray.Command{Name: "next"}})
}

// SimDown reports whether c is out (0 Endurance, B-2).
func (*System) SimDown(_ fray.State, c *fray.Combatant) bool { return c.Condition(CondOut) != nil }

// SimHealth returns c's Endurance and its most.
func (*System) SimHealth(_ fray.State, c *fray.Combatant) (left, most int) {
	e := endurance(c)
	return e.Value, e.Max
}

func (s *State) simDown(c *fray.Combatant) bool { return c.Condition(CondOut) != nil }

// simAttacks reports whether a power of the sheet attacks: a power or a
// weapon (not a skill).
func simAttacks(p *fray.Power) bool {
	return p.Kind != fray.PowerKindSkill && p.Kind != fray.PowerKindTalent
}

// SimExpect returns the attack's expected Endurance damage, from its
// exact odds.
func (*System) SimExpect(st fray.State, m fray.SimMove) (float64, bool) {
	s := state(st)
	cmd := m.Cmd
	t, err := s.planAttack(cmd)
	if err != nil {
		return 0, false
	}
	return t.odds("").Mean, true
}
