package vv_test

import (
	"math"
	"testing"

	"fray/rules/rulestest"
	"fray/rules/vv"
)

// TestSimExpectIsOddsMean checks that the expected damage the simulator
// is given for every attack open is the Mean of the attack's odds to the
// last bit (rulestest.CheckSimExpectIsOddsMean).
func TestSimExpectIsOddsMean(t *testing.T) { rulestest.CheckSimExpectIsOddsMean(t, vv.New(), "vv") }

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
