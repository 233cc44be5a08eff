package cinematic

import (
	"fray"
	"fray/rules/kit"
)

// SimMoves returns the moves open in st (fray.Simulator): before the
// start, start; an attack that waits, its target's take (which keeps the
// defence); a Consciousness or Survival test that is due, that test
// (C-6); else the current character's attacks on each standing foe with
// each weapon on the sheet and a punch, answered as the rules answer
// them when no defence= is given, and next.
func (*System) SimMoves(st fray.State, buf []fray.SimMove) []fray.SimMove {
	s, err := get(st)
	if err != nil {
		return buf
	}
	if !s.Started {
		return append(buf, fray.SimMove{Kind: fray.SimEnd, Cmd: fray.Command{Name: "start"}})
	}
	if w := s.Waiting; w != nil {
		d := s.ByID(w.TargetID)
		if d == nil {
			return buf
		}
		return append(buf, fray.SimMove{Kind: fray.SimAnswer, Actor: d.ID, Target: d.ID, Cmd: fray.Command{Name: RollTake, Args: []string{d.Name}}})
	}
	for _, c := range s.Combatants {
		switch {
		case c.Condition(CondDead) != nil:
		case c.Condition(CondSurvival) != nil:
			return append(buf, fray.SimMove{Kind: fray.SimAnswer, Actor: c.ID, Target: c.ID, Cmd: fray.Command{Name: RollTest, Args: []string{c.Name, "survival"}}})
		case c.Condition(CondConscious) != nil && c.Condition(CondUnconscious) == nil:
			return append(buf, fray.SimMove{Kind: fray.SimAnswer, Actor: c.ID, Target: c.ID, Cmd: fray.Command{Name: RollTest, Args: []string{c.Name, "consciousness"}}})
		}
	}
	a := s.ByID(s.Current())
	if a == nil {
		return buf
	}
	if !simDown(a) {
		withs := append(kit.SimPowers(a, simAttacks), "punch")
		buf = kit.SimAttacks(buf, &s.Encounter, a, simDown, withs, RollAttack, OptWith)
	}
	return append(buf, fray.SimMove{Kind: fray.SimEnd, Actor: a.ID, Cmd: fray.Command{Name: "next"}})
}

// SimDown reports whether c is unconscious or dead (C-6).
func (*System) SimDown(_ fray.State, c *fray.Combatant) bool { return simDown(c) }

// SimHealth returns c's Life Points (never below 0) and most.
func (*System) SimHealth(_ fray.State, c *fray.Combatant) (left, most int) {
	t, _ := life(c)
	return max(0, t.Value), t.Max
}

func simDown(c *fray.Combatant) bool {
	return c.Condition(CondUnconscious) != nil || c.Condition(CondDead) != nil
}

// simAttacks reports whether a sheet's power is a weapon.
func simAttacks(p *fray.Power) bool { return p.Kind == fray.PowerKindWeapon }

// SimExpect returns the attack's expected damage, from its exact odds.
func (*System) SimExpect(st fray.State, m fray.SimMove) (float64, bool) {
	s, err := get(st)
	if err != nil {
		return 0, false
	}
	cmd := m.Cmd
	p, err := s.planAttack(cmd)
	if err != nil {
		return 0, false
	}
	o, err := p.odds("")
	if err != nil {
		return 0, false
	}
	return o.Mean, true
}
