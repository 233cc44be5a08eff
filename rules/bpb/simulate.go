package bpb

import (
	"fray"
	"fray/rules/kit"
)

// SimMoves returns the moves open in st (fray.Simulator): before the
// start, start; a hit that waits, the defender's take, then their block
// and dodge (B-8), which cost a forced action (B-7) that only a cautious
// combatant spends (SimGuard); else the current combatant's attacks on
// each standing foe with each power or weapon on the sheet, and next.
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
		args := []string{d.Name}
		for _, word := range []string{"take", RollBlock, RollDodge} {
			buf = append(buf, fray.SimMove{Kind: fray.SimAnswer, Actor: d.ID, Target: d.ID,
				Cmd: fray.Command{Name: word, Args: args}})
		}
		return buf
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
		var names [4]string
		buf = kit.SimAttacks(buf, &s.Encounter, a, s.simDown, kit.AppendSimPowers(names[:0], a, simAttacks), RollAttack, "with")
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
	var t task
	if err := s.planAttackInto(&t, cmd); err != nil {
		return 0, false
	}
	ps, _ := t.roll.bandOdds()
	return t.meanDamage(ps), true
}

// SimGuard returns the chance that the block or dodge m negates the hit
// that waits (B-8: a Prowess or Agility task roll against 8 + the
// attack's rank, +3 with expertise), from the odds odds block NAME gives:
// every band but failure negates. It is false when the rules would
// refuse it: an attack that inflicts no Endurance damage (only the same
// power meets it), or a forced action (B-7) the defender cannot take,
// such as a second in one round.
func (*System) SimGuard(st fray.State, m fray.SimMove) (float64, bool) {
	s := state(st)
	if m.Cmd.Name != RollBlock && m.Cmd.Name != RollDodge {
		return 0, false
	}
	t, err := s.plan(m.Cmd)
	if err != nil {
		return 0, false
	}
	c := t.actor
	cond := CondBlocking
	if m.Cmd.Name == RollDodge {
		cond = CondDodging
	}
	if s.currentID() != c.ID && c.Condition(cond) == nil {
		tx := txn{State: s} // read-only: only whether the rules refuse
		if err := s.force(&tx, fray.Command{Name: "force", Args: []string{c.Name}}, []fray.CombatantID{t.against.Attacker}); err != nil {
			return 0, false
		}
	}
	// Of the bands (TaskRoll.Bands) only the first is a failure.
	ps, _ := t.roll.bandOdds()
	return min(1, max(0, 1-ps[0])), true
}

// SimWait returns false: a Bulletproof Blues hit always waits for the
// defender's answer (B-8), so no attack needs making otherwise.
func (*System) SimWait(fray.State, fray.SimMove) (fray.SimMove, bool) {
	return fray.SimMove{}, false
}
