package sim

import (
	"math"

	"fray"
)

// SetExactBudgets sets the budgets of Exact (MaxExactStates,
// MaxExactBranches, MaxExactWork) for a test, and returns a function
// that puts them back.
func SetExactBudgets(states, branches, work int) (restore func()) {
	old := budgets
	budgets.states, budgets.branches, budgets.work = states, branches, work
	return func() { budgets = old }
}

// BruteForce returns each side's chance to win the fight Run would play
// from cfg, and the chance that none does, by playing every draw
// sequence of the whole fight in turn with Run's own fight loop: no
// state is remembered and no two paths are merged. It gives up (false)
// past limit fights. It is the tests' oracle for Exact.
func BruteForce(cfg Config, limit int) (wins []float64, unfinished float64, ok bool, err error) {
	p, _, err := newPlan(cfg)
	if err != nil {
		return nil, 0, false, err
	}
	f := p.newFighter()
	var rep replay
	f.roller.src = &rep
	// Sums of many small chances, compensated (Neumaier) so that their
	// rounding stays far below the tests' 1e-12.
	sums := make([]neumaier, len(p.sides)+1)
	for n := 0; ; n++ {
		if n == limit {
			return nil, 0, false, nil
		}
		rep.at = 0
		t := p.newTally()
		if err := f.safeFight(0, 0, t); err != nil {
			return nil, 0, false, err
		}
		pr := rep.chance()
		won := len(p.sides)
		for i, w := range t.wins {
			if w > 0 {
				won = i
			}
		}
		sums[won].add(pr)
		if !rep.advance() {
			for _, s := range sums[:len(p.sides)] {
				wins = append(wins, s.sum+s.c)
			}
			return wins, sums[len(p.sides)].sum + sums[len(p.sides)].c, true, nil
		}
	}
}

// neumaier is a compensated sum.
type neumaier struct{ sum, c float64 }

func (n *neumaier) add(x float64) {
	t := n.sum + x
	if math.Abs(n.sum) >= math.Abs(x) {
		n.c += (n.sum - t) + x
	} else {
		n.c += (x - t) + n.sum
	}
	n.sum = t
}

// KeyBytes returns what the exact solver writes of x for a state's key.
func KeyBytes(x any) []byte { return newKeyWriter(newKeyTypes(), false).write(nil, x) }

// OnKey has f given each state the exact solver keys, with who has
// attacked and what it wrote for the key, until the returned function is
// called.
func OnKey(f func(st fray.State, acted fray.CombatantID, written []byte)) (restore func()) {
	keyed = f
	return func() { keyed = nil }
}

// SetExactHeld sets MaxExactHeld's budget for a test, and returns a
// function that puts it back.
func SetExactHeld(held int) (restore func()) {
	old := budgets.held
	budgets.held = held
	return func() { budgets.held = old }
}

// OnPeakHeld has f told the most states each exact solve held at once,
// until the returned function is called.
func OnPeakHeld(f func(int)) (restore func()) {
	peakHeld = f
	return func() { peakHeld = nil }
}
