package cinematic

import (
	"fray"
	"fray/rules/kit"
)

// SimMoves returns the moves open in st (fray.Simulator): before the
// start, start; an attack that waits, its target's take (which keeps the
// defence), then dodge and parry, which spend one (C-2, C-4) and which
// only a cautious target chooses (SimGuard); a Consciousness or Survival test that is due, that test
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
		args := []string{d.Name}
		for _, word := range []string{RollTake, RollDodge, RollParry} {
			buf = append(buf, fray.SimMove{Kind: fray.SimAnswer, Actor: d.ID, Target: d.ID, Cmd: fray.Command{Name: word, Args: args}})
		}
		return buf
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

// SimExpect returns the attack's expected damage: the Mean of its exact
// odds, worked out without building them (planned.meanDamage).
func (*System) SimExpect(st fray.State, m fray.SimMove) (float64, bool) {
	s, err := get(st)
	if err != nil {
		return 0, false
	}
	cmd := m.Cmd
	var p planned
	if err := s.planAttackInto(&p, cmd); err != nil {
		return 0, false
	}
	return p.meanDamage(), true
}

// SimGuard returns the chance that the dodge or parry m, answering the
// attack that waits, negates its hit: that the defence total beats the
// attack's known total (C-4: ties to the defender), from the odds odds
// dodge NAME gives. When taking the attack would not hit (a total below
// 9), there is no hit to negate and the chance is 0. It is false when
// the rules would refuse the answer: no defence left this round, a parry
// against a bullet. A cautious target meets it only for a defence that
// costs an extra action (see SimWait).
func (*System) SimGuard(st fray.State, m fray.SimMove) (float64, bool) {
	s, err := get(st)
	if err != nil || s.Waiting == nil || (m.Cmd.Name != RollDodge && m.Cmd.Name != RollParry) {
		return 0, false
	}
	p, err := s.plan(m.Cmd)
	if err != nil {
		return 0, false
	}
	o, err := p.odds("")
	if err != nil {
		return 0, false
	}
	if s.Waiting.Total < TestSuccess {
		return 0, true
	}
	for _, b := range o.Bands {
		if b.Name == p.band(false, 0) {
			return b.P, true
		}
	}
	return 0, true
}

// SimWait returns the attack m made with defence=wait when the target's
// defence would cost an extra action (C-2: the round's free defence
// spent, at the extra action's cumulative −2), so that a cautious target
// answers it with dodge, parry or take once the attack's roll is known;
// the rules settle it with the same dice as the one-command attack. A
// free defence costs nothing, and the rules take it, the better of dodge
// and parry, as for every tactic: then, or when the target cannot defend
// at all, it is false.
func (*System) SimWait(st fray.State, m fray.SimMove) (fray.SimMove, bool) {
	s, err := get(st)
	if err != nil || m.Kind != fray.SimAttack || m.Cmd.Name != RollAttack {
		return m, false
	}
	a, b := s.ByID(m.Actor), s.ByID(m.Target)
	if a == nil || b == nil {
		return m, false
	}
	if act, why := s.canDefend(a, b, b.Unaware); why != "" || act.Kind != ActionExtra {
		return m, false
	}
	opts := make(map[string]string, len(m.Cmd.Opts)+1)
	for k, v := range m.Cmd.Opts {
		opts[k] = v
	}
	opts[OptDefence] = DefenceWait
	m.Cmd.Opts = opts
	return m, true
}
