package queue_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"fray/engine"
	"fray/rules/queue"
)

// against a target already Incapacitated every hit gives an Injury.
// Ann (Wits 3) needs 8 or more on the d20 against 10 + Bob's Wits 1 = 11:
// a hit 13 times in 20. Her sword's special (bleed) comes on a Black 6,
// 1 time in 6. So: miss 7/20; hit with an Injury 13/20 × 5/6 = 65/120;
// with the Injury and bleed 13/20 × 1/6 = 13/120. The odds agree with
// 100,000 seeded rolls of the same command within 4 standard errors, and
// each rolled hit names the Injury the third time only (dead).
func TestQ5_InjuryOddsSeeded(t *testing.T) {
	for _, tt := range []struct {
		name, setup string
		// injury is what a hit gives without a choice: "" while two or
		// more are left (the player chooses), dead when it is the last.
		injury string
	}{
		{"first injury", "attack Ann Bob with=maul hit=yes dice=6,1\nnext\nnext", ""},
		{"third injury", "attack Ann Bob with=maul hit=yes dice=6,1\nnext\nnext\nattack Ann Bob with=dagger hit=yes dice=1,1 injury=scarred\nnext\nnext\nattack Ann Bob with=dagger hit=yes dice=1,1 injury=maimed\nnext\nnext", queue.InjuryDead},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newFight(t, tt.setup)
			st := e.State().(*queue.State)
			if !st.Incapacitated("Bob") || st.Dead("Bob") {
				t.Fatalf("Bob is not Incapacitated and alive: %+v", fighterOf(e, "Bob"))
			}
			cmd, _ := engine.ParseCommand("attack Ann Bob with=sword")
			sys := queue.New()
			o, err := sys.Odds(st, cmd)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]float64{
				queue.BandMiss:                         7.0 / 20,
				queue.BandInjury:                       65.0 / 120,
				queue.BandInjury + ", special (bleed)": 13.0 / 120,
			}
			for _, b := range o.Bands {
				if math.Abs(b.P-want[b.Name]) > 1e-12 {
					t.Errorf("odds of %s: %v, want %v", b.Name, b.P, want[b.Name])
				}
			}
			r := seededRoller{rand.New(rand.NewPCG(5, 7))}
			const n = 100000
			count := map[string]int{}
			for range n {
				evs, err := sys.Decide(st, cmd, r)
				if err != nil {
					t.Fatal(err)
				}
				var d struct {
					Hit       bool   `json:"hit"`
					Triggered bool   `json:"triggered"`
					Injures   bool   `json:"injures"`
					Injury    string `json:"injury"`
				}
				for _, ev := range evs {
					if ev.Type == queue.EventAttacked {
						if err := ev.Decode(&d); err != nil {
							t.Fatal(err)
						}
					}
				}
				band := queue.BandMiss
				if d.Hit {
					if !d.Injures || d.Injury != tt.injury {
						t.Fatalf("a hit on an Incapacitated Bob: injures %v, injury %q, want %q", d.Injures, d.Injury, tt.injury)
					}
					band = queue.BandInjury
					if d.Triggered {
						band += ", special (bleed)"
					}
				}
				count[band]++
			}
			for name, p := range want {
				se := math.Sqrt(p * (1 - p) / n)
				if got := float64(count[name]) / n; math.Abs(got-p) > 4*se {
					t.Errorf("%s: %v of %d seeded rolls, odds %v (4 SE = %v)", name, got, n, p, 4*se)
				}
			}
		})
	}
}

// Q-5 by hand and by enumerating the 20 × 36 faces: Ann's +3 against 11
// hits on 8 or more (13/20). Against 3 hit points a dagger (the lower
// die) Incapacitates when both dice show 3 or more: 4 × 4 = 16 of 36, so
// 13/20 × 16/36; a maul (the higher) when either does: 36 − 2 × 2 = 32 of
// 36. Against a target already Incapacitated every hit is an Injury
// (13/20) and none Incapacitates.
func TestQ5_InjuryOddsBruteForce(t *testing.T) {
	for _, tt := range []struct {
		a             queue.Attack
		incap, injure float64
	}{
		{queue.Attack{Weight: queue.DamageLight, Bonus: 3, Need: 11, HP: 3}, 13.0 / 20 * 16 / 36, 0},
		{queue.Attack{Weight: queue.DamageHeavy, Bonus: 3, Need: 11, HP: 3}, 13.0 / 20 * 32 / 36, 0},
		{queue.Attack{Weight: queue.DamageMedium, Bonus: 3, Need: 11, HP: 0}, 0, 13.0 / 20},
		{queue.Attack{Weight: queue.DamageMedium, Ruling: queue.RulingHit, HP: 0}, 0, 1},
	} {
		o, err := tt.a.Odds()
		if err != nil {
			t.Fatal(err)
		}
		var incap, injure float64
		var n int
		for d := 1; d <= 20; d++ {
			for r := 1; r <= 6; r++ {
				for b := 1; b <= 6; b++ {
					faces := []int{d, r, b}
					if tt.a.Ruling == queue.RulingHit {
						if d > 1 {
							continue
						}
						faces = faces[1:]
					}
					res, err := tt.a.Settle(faces)
					if err != nil {
						t.Fatal(err)
					}
					n++
					if res.Incapacitates {
						incap++
					}
					if res.Injures {
						injure++
					}
				}
			}
		}
		incap, injure = incap/float64(n), injure/float64(n)
		near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
		if !near(o.Incapacitates, tt.incap) || !near(incap, tt.incap) || !near(o.Injures, tt.injure) || !near(injure, tt.injure) {
			t.Errorf("%+v: Incapacitates odds %v, enumeration %v, want %v; Injures odds %v, enumeration %v, want %v",
				tt.a, o.Incapacitates, incap, tt.incap, o.Injures, injure, tt.injure)
		}
	}
}
