package queue_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"fray/dice"
	"fray/rules/queue"
)

func TestDamage(t *testing.T) {
	tests := []struct {
		weight     queue.DamageWeight
		red, black int
		want       int
		special    bool
	}{
		{queue.DamageLight, 3, 5, 3, false},
		{queue.DamageLight, 5, 3, 3, false},
		{queue.DamageMedium, 3, 5, 3, false},
		{queue.DamageMedium, 5, 3, 5, false},
		{queue.DamageHeavy, 3, 5, 5, false},
		{queue.DamageHeavy, 5, 3, 5, false},
		{queue.DamageLight, 2, 6, 2, true},
		{queue.DamageMedium, 2, 6, 2, true},
		{queue.DamageHeavy, 2, 6, 6, true},
		{queue.DamageHeavy, 6, 2, 6, false},
		{queue.DamageLight, 4, 4, 4, false},
		{queue.DamageLight, 1, 1, 1, false},
	}
	for _, tt := range tests {
		r, err := queue.DamageRoll{Weight: tt.weight}.FromDice(tt.red, tt.black)
		if err != nil {
			t.Fatal(err)
		}
		if r.Red != tt.red || r.Black != tt.black || r.Damage != tt.want || r.Special != tt.special {
			t.Errorf("%s Red %d Black %d: got %+v, want damage %d, special %v", tt.weight, tt.red, tt.black, r, tt.want, tt.special)
		}
		if len(r.Dice) != 2 || r.Dice[0].Face != tt.red || r.Dice[1].Face != tt.black {
			t.Errorf("%s Red %d Black %d: dice %+v", tt.weight, tt.red, tt.black, r.Dice)
		}
	}
}

func TestDamageRollSeeded(t *testing.T) {
	src := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		r, err := queue.DamageRoll{Weight: queue.DamageHeavy}.Roll(src)
		if err != nil {
			t.Fatal(err)
		}
		if r.Red != r.Dice[0].Face || r.Black != r.Dice[1].Face || r.Damage != max(r.Red, r.Black) || r.Special != (r.Black == 6) {
			t.Fatalf("inconsistent roll %+v", r)
		}
	}
}

func TestDamageBad(t *testing.T) {
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"weight", func() error { _, err := queue.DamageRoll{Weight: "huge"}.Odds(); return err }, "light, medium or heavy"},
		{"roll weight", func() error { _, err := queue.DamageRoll{}.Roll(dice.Faces(1, 2)); return err }, "light, medium or heavy"},
		{"one die", func() error { _, err := queue.DamageRoll{Weight: queue.DamageLight}.Roll(dice.Faces(1)); return err }, "physical dice"},
		{"three dice", func() error {
			_, err := queue.DamageRoll{Weight: queue.DamageLight}.Roll(dice.Faces(1, 2, 3))
			return err
		}, "takes 2"},
		{"face 0", func() error { _, err := queue.DamageRoll{Weight: queue.DamageLight}.FromDice(0, 2); return err }, "faces 1 to 6"},
	}
	for _, tt := range tests {
		err := tt.run()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestParseDamageWeight(t *testing.T) {
	for _, w := range queue.DamageWeights() {
		if got, err := queue.ParseDamageWeight(string(w)); err != nil || got != w {
			t.Errorf("ParseDamageWeight(%q) = %q, %v", w, got, err)
		}
	}
	if _, err := queue.ParseDamageWeight("Heavy"); err == nil {
		t.Error("ParseDamageWeight(Heavy) succeeded")
	}
}

// TestDamageOddsClosedForm checks the odds against the counts worked out by
// hand: the lower of two d6 is d in 13−2d of the 36 rolls, the higher in
// 2d−1; a Black 6 makes the lower die Red (one roll per value), the higher
// a 6 (six rolls) and Red any value (one roll each).
func TestDamageOddsClosedForm(t *testing.T) {
	count := map[queue.DamageWeight]func(d int) (all, special int){
		queue.DamageLight:  func(d int) (int, int) { return 13 - 2*d, 1 },
		queue.DamageMedium: func(d int) (int, int) { return 6, 1 },
		queue.DamageHeavy: func(d int) (int, int) {
			if d == 6 {
				return 11, 6
			}
			return 2*d - 1, 0
		},
	}
	mean := map[queue.DamageWeight]float64{queue.DamageLight: 91.0 / 36, queue.DamageMedium: 3.5, queue.DamageHeavy: 161.0 / 36}
	for _, w := range queue.DamageWeights() {
		o, err := queue.DamageRoll{Weight: w}.Odds()
		if err != nil {
			t.Fatal(err)
		}
		if len(o.Values) != 6 {
			t.Fatalf("%s: %d values, want 6", w, len(o.Values))
		}
		sum, sumSpecial := 0.0, 0.0
		for i, v := range o.Values {
			all, special := count[w](i + 1)
			if v.Damage != i+1 || math.Abs(v.P-float64(all)/36) > 1e-12 || math.Abs(v.PSpecial-float64(special)/36) > 1e-12 {
				t.Errorf("%s: %+v, want damage %d P %d/36, with special %d/36", w, v, i+1, all, special)
			}
			sum += v.P
			sumSpecial += v.PSpecial
		}
		if math.Abs(sum-1) > 1e-12 || math.Abs(o.Special-1.0/6) > 1e-12 || math.Abs(sumSpecial-o.Special) > 1e-12 {
			t.Errorf("%s: values sum to %v, special %v (joint sum %v), want 1 and 1/6", w, sum, o.Special, sumSpecial)
		}
		if math.Abs(o.Mean-mean[w]) > 1e-12 {
			t.Errorf("%s: mean %v, want %v", w, o.Mean, mean[w])
		}
	}
}
