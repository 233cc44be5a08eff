package bpb

import (
	"slices"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// TargetDifficulty is what a task roll's odds aim at (fray.Odds.TargetKind).
// It is a wire string.
const TargetDifficulty = "difficulty"

// two6 is the distribution of 2d6, worked out once by package dice.
var two6 = func() [13]float64 {
	var p [13]float64
	d := kit.FixedDist(TaskDice)
	for v := 2; v <= 12; v++ {
		p[v] = d.Prob(v)
	}
	return p
}()

// odds returns the odds of the planned roll, damage distribution
// included for an attack.
func (t *task) odds(cmdText string) fray.Odds {
	r := t.roll
	o := fray.Odds{
		Command:    cmdText,
		For:        t.actor.Name,
		Roll:       t.d.Roll,
		Expr:       r.Expr(),
		Target:     r.Difficulty,
		TargetKind: TargetDifficulty,
		Modifiers:  t.modifiers(),
	}
	bands := r.Bands()
	var dmgP [3]float64
	var dmgV [3]int
	ps, mean := r.bandOdds()
	o.Bands = make([]fray.Band, len(bands))
	for i, b := range bands {
		o.Bands[i] = fray.Band{Name: bandName(t.d.Roll, b), P: ps[i]}
	}
	o.Mean = mean
	if t.d.Roll == RollAttack {
		o.DistOf, o.Mean = fray.DistDamage, t.meanDamage(ps)
		for i, b := range bands {
			dmgV[i], dmgP[i] = t.damageFor(b), ps[i]
		}
		// Bands with the same damage share a point.
		for i := range bands {
			if dmgP[i] == 0 {
				continue
			}
			merged := false
			for j := range o.Dist {
				if o.Dist[j].V == dmgV[i] {
					o.Dist[j].P += dmgP[i]
					merged = true
				}
			}
			if !merged {
				o.Dist = append(o.Dist, fray.Point{V: dmgV[i], P: dmgP[i]})
			}
		}
		slices.SortFunc(o.Dist, func(a, b fray.Point) int { return a.V - b.V })
	} else {
		o.Dist = make([]fray.Point, 0, 11)
		for v := 2; v <= 12; v++ {
			o.Dist = append(o.Dist, fray.Point{V: v + r.Bonus(), P: two6[v]})
		}
	}
	return o
}

// meanDamage returns the expected damage of a planned attack whose bands
// (TaskRoll.Bands) have the chances ps: the mean its odds give, summed in
// the same order to the last bit, without building them.
func (t *task) meanDamage(ps [3]float64) float64 {
	mean := 0.0
	for i, b := range [3]TaskBand{TaskFailure, TaskSuccess, t.roll.high()} {
		if ps[i] != 0 {
			mean += float64(t.damageFor(b)) * ps[i]
		}
	}
	return mean
}

// bandName says a band of a kind of roll in its own words.
func bandName(roll string, b TaskBand) string {
	switch roll {
	case RollAttack:
		switch b {
		case TaskFailure:
			return "miss"
		case TaskSuccess:
			return "hit"
		case TaskRemarkable:
			return "remarkable hit"
		case TaskExtreme:
			return "extreme hit"
		}
	case RollBlock, RollDodge:
		switch b {
		case TaskFailure:
			return "fails"
		case TaskSuccess:
			return "negates"
		case TaskRemarkable:
			return "negates (remarkable)"
		case TaskExtreme:
			return "negates, extreme: reorders"
		}
	}
	return string(b)
}

// Odds returns the exact odds of the roll a command would make (E-6):
// a task roll, or the rolled order of play at the start (B-4).
func (*System) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	s := state(st)
	switch cmd.Name {
	case "start":
		return s.startOdds(cmd)
	case RollInitiative:
		return s.initiativeRollOdds(cmd)
	}
	t, err := s.plan(cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	return t.odds(cmd.String()), nil
}

// initiativeRollOdds returns the odds of the roll initiative NAME makes
// when no die is given: the 2d6 of a rolled order (B-4), whose odds are
// each aware combatant's chance to act first, as odds start order=rolled
// gives them. Faces already rolled have no odds.
func (s *State) initiativeRollOdds(cmd fray.Command) (fray.Odds, error) {
	c, err := s.initiativeOf(cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	if len(cmd.Args) > 1 {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s's die is rolled already (%s), so it has no odds.", c, engine.Clip(cmd.Arg(1)))
	}
	p, err := s.planStart(fray.Command{Name: "start", Opts: map[string]string{SettingOrder: "rolled"}})
	if err != nil {
		return fray.Odds{}, err
	}
	o := s.initiativeOdds(cmd.String(), p)
	o.For = c.Name
	return o, nil
}
