package vv_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/vv"
	"fray/sheet"
)

// TestSimExpectIsOddsMean checks that the expected damage the simulator
// is given for every attack open (SimExpect, worked out without the odds)
// is the Mean of the attack's odds to the last bit, along a fight of the
// example sheets played with moves picked at random, as targets lose
// Health and fall: the simulator's choice of attack follows it, so any
// difference would change what it picks.
func TestSimExpectIsOddsMean(t *testing.T) {
	sys := vv.New()
	e := engine.New(sys, rand.New(rand.NewPCG(7, 8)))
	for _, f := range []struct{ path, side string }{{"../../examples/vv-party.yaml", fray.SidePC}, {"../../examples/vv-foes.yaml", fray.SideNPC}} {
		cs, err := sheet.Load(f.path, sys, f.side)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Join(cs); err != nil {
			t.Fatal(err)
		}
	}
	pick := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for step := 0; step < 300; step++ {
		moves := sys.SimMoves(e.State(), nil)
		if len(moves) == 0 {
			break
		}
		for _, m := range moves {
			if m.Kind != fray.SimAttack {
				continue
			}
			got, ok := sys.SimExpect(e.State(), m)
			o, err := e.Odds(m.Cmd)
			if ok != (err == nil) {
				t.Fatalf("step %d, %s: SimExpect %v, odds %v", step, m.Cmd, ok, err)
			}
			if !ok {
				continue // refused both ways: no actions left
			}
			if math.Float64bits(got) != math.Float64bits(o.Mean) {
				t.Errorf("step %d, %s: SimExpect %v (%#x), the odds' mean %v (%#x)", step, m.Cmd, got, math.Float64bits(got), o.Mean, math.Float64bits(o.Mean))
			}
			checked++
		}
		// A move the rules take, an attack most often, so that the
		// targets lose Health and fall.
		pick.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		if pick.IntN(5) > 0 {
			slices.SortStableFunc(moves, func(a, b fray.SimMove) int { return cmp.Compare(isAttack(b), isAttack(a)) })
		}
		done := false
		for _, m := range moves {
			if _, err := e.Do(m.Cmd); err == nil {
				done = true
				break
			}
		}
		if !done {
			t.Fatalf("step %d: the rules take none of %v", step, moves)
		}
	}
	if checked < 50 {
		t.Errorf("%d attacks checked, want 50 or more", checked)
	}
}

// isAttack is 1 for an attack, else 0: attacks sort first, descending.
func isAttack(m fray.SimMove) int {
	if m.Kind == fray.SimAttack {
		return 1
	}
	return 0
}

// TestAttackMeanDamage checks Attack.MeanDamage, worked out by hand, and
// that it is its Odds' Mean to the last bit. Chance 10: a 20 goes astray
// and 1 to 10 hit, 10 faces in 20 (V-11, V-16). 1d6 less protection 2
// deals 0, 0, 1, 2, 3, 4: 10/6 a hit, 5/6 in all. Behind 50% cover
// (cover protection 1), half the hits strike the cover: 1d6 − 1 − 2
// deals 0, 0, 0, 1, 2, 3, 1 a hit; 1/4 × 10/6 + 1/4 × 1 = 2/3. With pull
// 6 nothing gets through. A Special Attack hits on both dice, 1/4, and
// ignores the cover: 1/4 × 10/6 = 5/12.
func TestAttackMeanDamage(t *testing.T) {
	for _, tt := range []struct {
		a    vv.Attack
		want float64
	}{
		{vv.Attack{Hit: vv.HitRoll{Chance: 10}, Dice: "1d6", Protection: 2}, 5.0 / 6},
		{vv.Attack{Hit: vv.HitRoll{Chance: 10}, Dice: "1d6", Protection: 2, Cover: 50, CoverProtection: 1}, 2.0 / 3},
		{vv.Attack{Hit: vv.HitRoll{Chance: 10}, Dice: "1d6", Pull: 6}, 0},
		{vv.Attack{Hit: vv.HitRoll{Chance: 10}, Dice: "1d6", Protection: 2, Cover: 50, CoverProtection: 1, Special: true}, 5.0 / 12},
	} {
		got, err := tt.a.MeanDamage()
		if err != nil || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%+v: MeanDamage %v, %v; want %v", tt.a, got, err, tt.want)
		}
		o, err := tt.a.Odds()
		if err != nil || math.Float64bits(o.Mean) != math.Float64bits(got) {
			t.Errorf("%+v: MeanDamage %v, the odds' Mean %v (%v)", tt.a, got, o.Mean, err)
		}
	}
	if _, err := (vv.Attack{Hit: vv.HitRoll{Chance: 10}, Dice: "1d"}).MeanDamage(); err == nil {
		t.Errorf("MeanDamage of the dice 1d: no error")
	}
}
