package bpb

import (
	"fray"
	"fray/engine"
)

// RollInitiative is the kind of roll of the rolled order of play
// (fray.Odds.Roll). It is a wire string: never rename it.
const RollInitiative = "initiative"

// initiativeExpr is the rolled order's roll in words, per combatant
// (fray.Odds.Expr).
const initiativeExpr = TaskDice + " + Perception + Super-speed each"

// startPlan is what a start command would do, checked but not rolled.
type startPlan struct {
	mode string
	// aware lists the combatants who get a turn, in the GM's tiebreak
	// order (the declared order, then the order they were added).
	aware []*fray.Combatant
}

// planStart checks a start command and says what it would do; Decide and
// Odds share it, so odds start refuses what start refuses, in the same
// words.
func (s *State) planStart(cmd fray.Command) (startPlan, error) {
	if s.Started {
		return startPlan{}, fray.Errorf(fray.EINVALID, "The encounter has already started (round %d).", s.Round)
	}
	p := startPlan{mode: s.Setting(SettingOrder, "declared")}
	if v, ok := cmd.Opts[SettingOrder]; ok {
		if v != "declared" && v != "rolled" {
			return startPlan{}, fray.Errorf(fray.EINVALID, "order=%s is not an order; use order=declared or order=rolled.", v)
		}
		p.mode = v
	}
	for _, id := range engine.Tiebreak(&s.Encounter, s.Declared) {
		if c := s.ByID(id); !c.Unaware && c.Kind != fray.KindEnvironment {
			p.aware = append(p.aware, c)
		}
	}
	if len(p.aware) == 0 {
		return startPlan{}, fray.Errorf(fray.EINVALID, "Nobody is aware, so nobody has a turn; add an aware combatant first.")
	}
	return p, nil
}

// initiativeBonus is what a combatant adds to the 2d6 of the rolled
// order: Perception + Super-speed (B-4).
func initiativeBonus(c *fray.Combatant) int {
	return c.Stat(StatPerception) + c.Stat(StatSuperSpeed)
}

// initiativeKeys ranks a combatant whose 2d6 showed roll: the score, then
// (ours) the higher Perception, then PCs first. Equal on every key, the
// GM's tiebreak order decides (engine.SortRanked keeps it).
func initiativeKeys(c *fray.Combatant, roll int) []int {
	pc := 0
	if c.IsPC() {
		pc = 1
	}
	return []int{roll + initiativeBonus(c), c.Stat(StatPerception), pc}
}

// rollOrder rolls the order of play for the planned start (B-4): 2d6 +
// Perception + Super-speed each (or the physical dice entered with
// initiative), highest first.
func (s *State) rollOrder(p startPlan, r fray.Roller) ([]fray.CombatantID, []fray.Roll, error) {
	rolls := make([]fray.Roll, 0, len(p.aware))
	ranked := make([]engine.Ranked, 0, len(p.aware))
	for _, c := range p.aware {
		roll, ok := s.Initiative[c.ID]
		if ok {
			roll.For = c.Name // the dice entered are for c, called so now
		} else {
			var err error
			roll, err = r.Roll(c.Name, TaskDice)
			if err != nil {
				return nil, nil, err
			}
		}
		rolls = append(rolls, roll)
		// Each entry is labelled with the combatant's id.
		ranked = append(ranked, engine.Ranked{Name: string(c.ID), Keys: initiativeKeys(c, roll.Total)})
	}
	engine.SortRanked(ranked)
	order := make([]fray.CombatantID, len(ranked))
	for i, x := range ranked {
		order[i] = fray.CombatantID(x.Name)
	}
	return order, rolls, nil
}

// initiativeOdds returns the exact chance of each aware combatant to act
// first in the rolled order (E-6), worked out before any die is rolled:
// the physical dice entered with initiative are not yet known when the
// odds are given, so every combatant's 2d6 counts in full. The bands, one
// per combatant who rolls ("NAME first"), follow the order the combatants
// were added in; combatants without a turn (unaware, the environment) do
// not roll and have no band, nor does one who cannot come first (P = 0).
//
// The rolls are independent, so P(i first) = Σ_t P(2d6 = t) ·
// Π_{j≠i} P(j does not beat i's score t + bonus_i), where j beats i on an
// equal score when ahead on the tie rules of the order itself: the higher
// Perception, then a PC, then earlier in the GM's tiebreak order (the
// order declared before the start, then the order added). The GM's choice
// is thus always decided by the state, and no tie is split.
func (s *State) initiativeOdds(cmdText string, p startPlan) fray.Odds {
	type party struct {
		c     *fray.Combatant
		bonus int
		tie   []int // the tie keys after the score, then the tiebreak rank
	}
	parties := make([]party, len(p.aware))
	for i, c := range p.aware {
		k := initiativeKeys(c, 0)[1:]
		parties[i] = party{c: c, bonus: initiativeBonus(c), tie: append(k, -i)}
	}
	// below[v] is P(2d6 < v), for v from 0 to 13.
	var below [14]float64
	for v := 1; v < len(below); v++ {
		below[v] = below[v-1] + two6[v-1]
	}
	lessThan := func(v int) float64 { return below[min(max(v, 0), 13)] }
	at := func(v int) float64 {
		if v < 2 || v > 12 {
			return 0
		}
		return two6[v]
	}
	first := make(map[*fray.Combatant]float64, len(parties))
	for i, a := range parties {
		sum := 0.0
		for t := 2; t <= 12; t++ {
			score := t + a.bonus
			pr := two6[t]
			for j, b := range parties {
				if j == i || pr == 0 {
					continue
				}
				// j does not beat i: a lower score, or the same score and
				// behind i on the tie rules.
				q := lessThan(score - b.bonus)
				if !aheadOnTie(b.tie, a.tie) {
					q += at(score - b.bonus)
				}
				pr *= q
			}
			sum += pr
		}
		first[a.c] = sum
	}
	o := fray.Odds{Command: cmdText, Roll: RollInitiative, Expr: initiativeExpr}
	for _, c := range s.Combatants {
		pr, ok := first[c]
		if !ok {
			continue
		}
		if pr > 0 {
			o.Bands = append(o.Bands, fray.Band{Name: c.Name + " first", P: pr, Who: []string{c.Name}})
		}
		src := c.Name + ": Perception"
		if c.Stat(StatSuperSpeed) != 0 {
			src += " + Super-speed"
		}
		o.Modifiers = append(o.Modifiers, fray.Modifier{Source: src, Who: []string{c.Name}, Value: initiativeBonus(c)})
	}
	return o
}

// aheadOnTie reports whether tie keys a rank ahead of b, highest first.
func aheadOnTie(a, b []int) bool {
	for k := range a {
		if a[k] != b[k] {
			return a[k] > b[k]
		}
	}
	return false
}

// startOdds answers odds start: the odds of the rolled order, or a
// refusal when the start would roll nothing.
func (s *State) startOdds(cmd fray.Command) (fray.Odds, error) {
	p, err := s.planStart(cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	if p.mode != "rolled" {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "start rolls no dice in the declared order, so it has no odds; odds start order=rolled shows the odds of a rolled order.")
	}
	return s.initiativeOdds(cmd.String(), p), nil
}
