package vv_test

import (
	"math"
	"strings"
	"testing"

	"fray/dice"
	"fray/rules/vv"
)

func TestHitBand(t *testing.T) {
	tests := []struct {
		name string
		roll vv.HitRoll
		face int
		want vv.HitBand
	}{
		{"at the chance", vv.HitRoll{Chance: 12}, 12, vv.HitHit},
		{"one over", vv.HitRoll{Chance: 12}, 13, vv.HitMiss},
		{"1 under a tiny chance", vv.HitRoll{Chance: -3}, 1, vv.HitHit},
		{"2 over a tiny chance", vv.HitRoll{Chance: -3}, 2, vv.HitMiss},
		{"chance 0, face 1", vv.HitRoll{Chance: 0}, 1, vv.HitHit},
		{"19 under a huge chance", vv.HitRoll{Chance: 25}, 19, vv.HitHit},
		{"20 under a huge chance", vv.HitRoll{Chance: 25}, 20, vv.HitAstray},
		{"20 at chance 20", vv.HitRoll{Chance: 20}, 20, vv.HitAstray},
		{"19 at chance 19", vv.HitRoll{Chance: 19}, 19, vv.HitHit},
		{"20 at chance 12", vv.HitRoll{Chance: 12}, 20, vv.HitAstray},
		{"defenceless 19", vv.HitRoll{Chance: -3, Defenceless: true}, 19, vv.HitHit},
		{"defenceless 20", vv.HitRoll{Chance: 30, Defenceless: true}, 20, vv.HitAstray},
	}
	for _, tt := range tests {
		if got := tt.roll.Band(tt.face); got != tt.want {
			t.Errorf("%s: %+v.Band(%d) = %q, want %q", tt.name, tt.roll, tt.face, got, tt.want)
		}
		r, err := tt.roll.FromDie(tt.face)
		if err != nil {
			t.Fatal(err)
		}
		if r.Band != tt.want || r.Total != tt.face || len(r.Dice) != 1 || r.Dice[0].Face != tt.face {
			t.Errorf("%s: FromDie(%d) = %+v", tt.name, tt.face, r)
		}
	}
}

func TestHitRollBad(t *testing.T) {
	for _, faces := range [][]int{{}, {21}, {0}, {3, 4}} {
		if _, err := (vv.HitRoll{Chance: 10}).Roll(dice.Faces(faces...)); err == nil || !strings.Contains(err.Error(), "physical dice") {
			t.Errorf("Roll(Faces(%v)): error %v, want one about physical dice", faces, err)
		}
	}
}

// TestHitOddsBruteForce counts the faces of the d20 by the rule as the seed
// states it.
func TestHitOddsBruteForce(t *testing.T) {
	for chance := -5; chance <= 25; chance++ {
		for _, helpless := range []bool{false, true} {
			roll := vv.HitRoll{Chance: chance, Defenceless: helpless}
			var hit, miss, astray int
			for face := 1; face <= 20; face++ {
				switch {
				case face == 20:
					astray++
				case face == 1, face <= chance, helpless:
					hit++
				default:
					miss++
				}
			}
			o := roll.Odds()
			want := map[vv.HitBand]float64{vv.HitHit: float64(hit) / 20, vv.HitMiss: float64(miss) / 20, vv.HitAstray: float64(astray) / 20}
			sum := 0.0
			for _, b := range o.Bands {
				sum += b.P
				if math.Abs(b.P-want[b.Band]) > 1e-12 {
					t.Errorf("%+v: P(%s) = %v, want %v", roll, b.Band, b.P, want[b.Band])
				}
			}
			if len(o.Bands) != 3 || math.Abs(sum-1) > 1e-12 {
				t.Errorf("%+v: %d bands summing to %v", roll, len(o.Bands), sum)
			}
			if o.P(vv.HitAstray) != 1.0/20 {
				t.Errorf("%+v: P(astray) = %v, want exactly 1/20", roll, o.P(vv.HitAstray))
			}
		}
	}
}
