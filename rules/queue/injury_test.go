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
