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
// best defence, and next. After an attack that harmed its target, the
// target's Resolve spent on the roll (P-4: a die for a point, or the
// roll again for a point) is listed last, as defences (fray.SimDefend),
// which only a cautious target takes (SimGuard): every other tactic
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
	buf = append(buf, fray.SimMove{Kind: fray.SimEnd, Actor: a.ID, Cmd: fray.Command{Name: "next"}})
	return s.simDefences(buf)
}

// simSpends are the ways a simulated target spends Resolve on an attack
// that harmed it, each for 1 point.
var simSpends = []map[string]string{{KeyResolve: "1"}, nil}

// simDefences appends the defences open to the target of the last roll,
// when it was an attack that harmed them and they have Resolve left: spend
// NAME resolve=1 and spend NAME reroll.
func (s *State) simDefences(buf []fray.SimMove) []fray.SimMove {
	r := &s.Res
	if !r.HasLast || r.LastOf != LastCheck || r.Last.Kind != KindAttack || r.Last.Same || r.Last.Lost <= 0 {
		return buf
	}
	d := s.ByID(r.Last.Opponent)
	if d == nil || s.resolveLeft(d.ID) < 1 {
		return buf
	}
	for _, opts := range simSpends {
		args := []string{d.Name}
		if opts == nil {
			args = append(args, HowReroll)
		}
		buf = append(buf, fray.SimMove{Kind: fray.SimDefend, Actor: d.ID, Target: d.ID, Cmd: fray.Command{Name: "spend", Args: args, Opts: opts}})
	}
	return buf
}

// SimGuard returns the chance that the Resolve spent by m, the target's
// on the attack that harmed them, leaves the attack doing no harm: the
// "no harm" band of the odds odds spend NAME … gives (the roll settled
// again with the target's new successes, P-4). It is false when the
// rules would refuse the spending.
func (*System) SimGuard(st fray.State, m fray.SimMove) (float64, bool) {
	s, err := get(st)
	if err != nil || m.Kind != fray.SimDefend || m.Cmd.Name != "spend" {
		return 0, false
	}
	sp, sd, how, n, err := s.planSpend(m.Cmd)
	if err != nil {
		return 0, false
	}
	o, err := s.spendOdds(sp, sd, how, n)
	if err != nil || len(o.Bands) == 0 {
		return 0, false
	}
	return o.Bands[0].P, true
}

// SimWait returns false: a Pocket Heroes attack is settled at once,
// resisted by the target's best defence; the target's answer is the
// Resolve it spends afterwards (SimDefend).
func (*System) SimWait(fray.State, fray.SimMove) (fray.SimMove, bool) {
	return fray.SimMove{}, false
}

// SimTrack returns c's Health (as SimHealth gives it) or Resolve left,
// with the most: Resolve spent is kept apart from the sheet's track.
func (sys *System) SimTrack(st fray.State, c *fray.Combatant, name string) (left, most int, ok bool) {
	s, err := get(st)
	if err != nil {
		return 0, 0, false
	}
	switch name {
	case "health":
		left, most = sys.SimHealth(st, c)
		return left, most, true
	case StatResolve:
		if _, ok := c.Stats[StatResolve]; !ok {
			if _, ok := c.Tracks[StatResolve]; !ok {
				return 0, 0, false
			}
		}
		return s.resolveLeft(c.ID), resolveOf(c), true
	}
	t, ok := c.Tracks[name]
	return t.Value, t.Max, ok
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
	r := s.record(c.ID)
	if ch := s.char(c.ID); ch != nil && ch.Minion {
		n, down := minionCount(c), 0
		if r != nil {
			down = r.Down
		}
		return max(0, n-down), n
	}
	h, w := Health(c), 0 // healthLeft, with c and r looked up once
	if r != nil {
		w = r.Wounds
	}
	return max(0, h-w), h
}

func (s *State) simDown(c *fray.Combatant) bool { return s.isDefeated(c) }

// SimExpect returns the attack's expected harm: the Mean of its exact
// odds, worked out without building them (meanHarm).
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
	mean, err := s.meanHarm(d, sides[:])
	if err != nil {
		return 0, false
	}
	return mean, true
}
