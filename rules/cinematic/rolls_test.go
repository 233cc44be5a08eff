package cinematic_test

import (
	"math"
	"strings"
	"testing"

	"fray/dice"
	"fray/rules/cinematic"
)

func TestSuccessLevels(t *testing.T) {
	tests := []struct{ total, want int }{
		{-5, 0}, {8, 0}, {9, 1}, {10, 1}, {11, 2}, {12, 2}, {13, 3}, {14, 3}, {15, 4}, {16, 4},
		{17, 5}, {20, 5}, {21, 6}, {23, 6}, {24, 7}, {26, 7}, {27, 8}, {29, 8}, {30, 9}, {32, 9},
		{33, 10}, {35, 10}, {36, 11}, {38, 11}, {39, 12}, {41, 12}, {42, 13},
	}
	for _, tt := range tests {
		if got := cinematic.SuccessLevels(tt.total); got != tt.want {
			t.Errorf("SuccessLevels(%d) = %d, want %d", tt.total, got, tt.want)
		}
	}
}

func TestTestRoll(t *testing.T) {
	tests := []struct {
		name     string
		roll     cinematic.TestRoll
		att, def int
		success  bool
		levels   int
		band     string
	}{
		{"8 fails", cinematic.TestRoll{Value: 7}, 1, 0, false, 0, "failure"},
		{"9 succeeds", cinematic.TestRoll{Value: 7}, 2, 0, true, 1, "1 success level"},
		{"11 is 2", cinematic.TestRoll{Value: 7}, 4, 0, true, 2, "2 success levels"},
		{"0 is 10", cinematic.TestRoll{Value: 7}, 0, 0, true, 5, "5 success levels"},
		{"tie to the defender", cinematic.TestRoll{Value: 7, Opposed: true, Defence: 5}, 4, 6, false, 0, "defended"},
		{"one higher hits", cinematic.TestRoll{Value: 7, Opposed: true, Defence: 5}, 5, 6, true, 2, "hit, 2 success levels"},
		{"low totals, higher hits", cinematic.TestRoll{Value: 3, Opposed: true}, 4, 6, true, 0, "hit, 0 success levels"},
		{"lower is defended", cinematic.TestRoll{Value: 12, Opposed: true, Defence: 12}, 9, 10, false, 0, "defended"},
	}
	for _, tt := range tests {
		r, err := tt.roll.FromDice(tt.att, tt.def)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if r.Success != tt.success || r.Levels != tt.levels || r.Band != tt.band {
			t.Errorf("%s: got success %v, %d levels, %q; want %v, %d, %q", tt.name, r.Success, r.Levels, r.Band, tt.success, tt.levels, tt.band)
		}
		wantDice := 1
		if tt.roll.Opposed {
			wantDice = 2
			if r.Defence == nil || r.Defence.Total != r.Defence.Roll+tt.roll.Defence {
				t.Errorf("%s: defence %+v", tt.name, r.Defence)
			}
		}
		if len(r.Dice) != wantDice || r.Total != r.Attack.Roll+tt.roll.Value {
			t.Errorf("%s: %d dice, total %d", tt.name, len(r.Dice), r.Total)
		}
	}
}

func TestTestRollBad(t *testing.T) {
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"no dice", func() error { _, err := cinematic.TestRoll{Value: 3}.Roll(dice.Faces()); return err }, "physical dice"},
		{"two dice alone", func() error { _, err := cinematic.TestRoll{Value: 3}.Roll(dice.Faces(3, 4)); return err }, "takes 1"},
		{"one die opposed", func() error {
			_, err := cinematic.TestRoll{Value: 3, Opposed: true}.Roll(dice.Faces(3))
			return err
		}, "physical dice"},
		{"face 11", func() error { _, err := cinematic.TestRoll{}.FromDice(11, 0); return err }, "faces 1 to 10"},
		{"huge", func() error { _, err := cinematic.TestRoll{Value: 1 << 40}.Odds(); return err }, "within"},
	}
	for _, tt := range tests {
		err := tt.run()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// levelsByTable reads the success-level table of SPEC C-3 row by row.
func levelsByTable(total int) int {
	rows := []struct{ lo, hi, levels int }{
		{9, 10, 1}, {11, 12, 2}, {13, 14, 3}, {15, 16, 4}, {17, 20, 5},
		{21, 23, 6}, {24, 26, 7}, {27, 29, 8}, {30, 32, 9}, {33, 35, 10},
	}
	for _, r := range rows {
		if total >= r.lo && total <= r.hi {
			return r.levels
		}
	}
	if total > 35 {
		return 10 + (total-33)/3
	}
	return 0
}

// TestTestOddsBruteForce enumerates the 10 (or 100) rolls of the dice.
func TestTestOddsBruteForce(t *testing.T) {
	for value := -4; value <= 30; value++ {
		for _, opposed := range []bool{false, true} {
			for defence := -2; defence <= 14; defence += 4 {
				roll := cinematic.TestRoll{Value: value, Opposed: opposed, Defence: defence}
				fail, levels := 0, map[int]int{}
				for a := 1; a <= 10; a++ {
					for d := 1; d <= 10; d++ {
						at := a + value
						won := at >= 9
						if opposed {
							won = at > d+defence
						}
						if won {
							levels[levelsByTable(at)]++
						} else {
							fail++
						}
					}
				}
				o, err := roll.Odds()
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(o.Fail-float64(fail)/100) > 1e-12 || math.Abs(o.Success+o.Fail-1) > 1e-12 {
					t.Errorf("%+v: fail %v, success %v; want fail %d/100", roll, o.Fail, o.Success, fail)
				}
				sum := 0.0
				if b := o.Bands[0]; b.Success || b.P != o.Fail {
					t.Errorf("%+v: first band %+v, want the failure", roll, b)
				}
				for _, l := range o.Bands[1:] {
					sum += l.P
					if math.Abs(l.P-float64(levels[l.Levels])/100) > 1e-12 {
						t.Errorf("%+v: P(%d levels) = %v, want %d/100", roll, l.Levels, l.P, levels[l.Levels])
					}
					delete(levels, l.Levels)
				}
				for l, n := range levels {
					t.Errorf("%+v: %d levels (%d/100) missing", roll, l, n)
				}
				if math.Abs(sum+o.Fail-1) > 1e-12 || math.Abs(sum-o.Success) > 1e-12 {
					t.Errorf("%+v: sums to %v", roll, sum)
				}
				if !opposed {
					break
				}
			}
		}
	}
}
