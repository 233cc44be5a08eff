package vv

import (
	"fray"
	"fray/rules/kit"
)

// SimMoves returns the moves open in st (fray.Simulator): before the
// start, start; else the acting character's attacks on each standing foe
// with each attack power (one with damage dice), and next. A held action
// is never offered: holding costs the turn's action now (V-3), and the
// default tactic spends nothing.
//
// Villains & Vigilantes has no defence for the cautious tactic either:
// a hit is settled by the attacker's roll alone (V-8 … V-12), a held
// action interrupts rather than negates, and evasion, which the seed
// leaves to a Maneuvers section it does not give, is not played; so vv
// implements no fray.SimGuarder, and a cautious combatant attacks as
// focus-weakest and takes every hit.
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
	if !simDown(a) {
		buf = kit.SimAttacks(buf, &s.Encounter, a, simDown, kit.SimPowers(a, simAttacks), "attack", KeyWith)
	}
	return append(buf, fray.SimMove{Kind: fray.SimEnd, Actor: a.ID, Cmd: fray.Command{Name: "next"}})
}

// SimDown reports whether c is down: at 0 Hit Points or below,
// incapacitated (V-13).
func (*System) SimDown(_ fray.State, c *fray.Combatant) bool { return simDown(c) }

// SimHealth returns c's Hit Points (never below 0) and most.
func (*System) SimHealth(_ fray.State, c *fray.Combatant) (left, most int) {
	t := c.Tracks[TrackHitPoints]
	return max(0, t.Value), t.Max
}

func simDown(c *fray.Combatant) bool {
	hp, ok := hitPoints(c)
	return ok && hp <= 0
}

// simAttacks reports whether a power attacks a track: it has damage dice
// and no special effect (a power with one does no damage, V-12; whether
// its effect, such as sleep, takes a target out is the GM's ruling).
func simAttacks(p *fray.Power) bool {
	return p.Kind != fray.PowerKindSkill && p.Dice != "" && p.Special == ""
}

// SimExpect returns the attack's expected damage: the Mean of its exact
// odds, worked out without building them (attackPlan.meanDamage).
func (*System) SimExpect(st fray.State, m fray.SimMove) (float64, bool) {
	s, err := get(st)
	if err != nil {
		return 0, false
	}
	cmd := m.Cmd
	p, err := s.planAttack(cmd, false)
	if err != nil {
		return 0, false
	}
	mean, err := p.meanDamage()
	if err != nil {
		return 0, false
	}
	return mean, true
}
