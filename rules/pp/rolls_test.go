package pp_test

import (
	"math"
	"strings"
	"testing"

	"fray/dice"
	"fray/rules/pp"
)

// seedFaces is Gatecrasher's roll in the seed's arm-wrestling example.
var seedFaces = []int{1, 2, 2, 2, 3, 3, 3, 5, 5, 5, 6, 6}

func TestP1_SeedTwelveDiceAndAutomatic(t *testing.T) {
	gate, err := pp.Pool{Dice: 12}.Roll(dice.Faces(seedFaces...), false)
	if err != nil {
		t.Fatal(err)
	}
	if gate.Successes != 7 || gate.Rolled != 7 || gate.Auto != 0 || len(gate.Dice) != 12 {
		t.Errorf("Gatecrasher: %+v, want 7 successes from 12 dice", gate)
	}
	soldier, err := pp.Pool{Dice: 12, SetAside: 12}.Roll(dice.Faces(), false)
	if err != nil {
		t.Fatal(err)
	}
	if soldier.Successes != 6 || soldier.Auto != 6 || len(soldier.Dice) != 0 || soldier.Expr != "6" {
		t.Errorf("Citizen Soldier: %+v, want 6 automatic successes and no dice", soldier)
	}
	c := pp.Challenge{Actor: pp.Pool{Dice: 12}, Opponent: &pp.Pool{Dice: 12, SetAside: 12}}
	r, err := c.Roll(dice.Faces(seedFaces...))
	if err != nil {
		t.Fatal(err)
	}
	if r.Successes != 7 || r.Threshold != 6 || r.Net != 1 || r.Band != pp.BandActorEmbellished || r.Result != "success with a complication" {
		t.Errorf("challenge: %+v, want 7 − 6 = 1 net, actor narrates, opponent embellishes", r)
	}
	if r.Band != "actor narrates, opponent embellishes" {
		t.Errorf("band reads %q", r.Band)
	}
}

func TestP3_NarrativeControlAndTraditionalResults(t *testing.T) {
	tests := []struct {
		net  int
		want pp.Band
		trad string
	}{
		{-5, pp.BandOpponent, "failure"},
		{-2, pp.BandOpponent, "failure"},
		{-1, pp.BandOpponentEmbellished, "failure with a silver lining"},
		{0, pp.BandOpponentEmbellished, "failure with a silver lining"},
		{1, pp.BandActorEmbellished, "success with a complication"},
		{2, pp.BandActorEmbellished, "success with a complication"},
		{3, pp.BandActor, "success"},
		{9, pp.BandActor, "success"},
	}
	for _, tt := range tests {
		if got := pp.BandOf(tt.net); got != tt.want || got.Traditional() != tt.trad {
			t.Errorf("BandOf(%d) = %q (%q), want %q (%q)", tt.net, got, got.Traditional(), tt.want, tt.trad)
		}
	}
}

func TestP2_ThresholdNames(t *testing.T) {
	good := []struct {
		in   string
		want int
		name string
	}{
		{"easy", 0, "Easy (0)"}, {"Average", 1, "Average (1)"}, {"HARD", 2, "Hard (2)"},
		{"daunting", 3, "Daunting (3)"}, {"brutal", 4, "Brutal (4)"}, {"inhuman", 5, "Inhuman (5)"},
		{"superhuman", 6, "Superhuman (6)"}, {"8", 8, "Superhuman (8)"}, {"legendary", 9, "Legendary (9)"},
		{"11", 11, "Legendary (11)"}, {"godlike", 12, "Godlike (12)"}, {"20", 20, "Godlike (20)"},
	}
	for _, tt := range good {
		n, err := pp.ParseThreshold(tt.in)
		if err != nil || n != tt.want || pp.ThresholdName(n) != tt.name {
			t.Errorf("ParseThreshold(%q) = %d, %v (%s); want %d (%s)", tt.in, n, err, pp.ThresholdName(n), tt.want, tt.name)
		}
	}
	for _, in := range []string{"", "-1", "tough", "2.5"} {
		if _, err := pp.ParseThreshold(in); err == nil || !strings.Contains(err.Error(), "godlike") {
			t.Errorf("ParseThreshold(%q): error %v, want one listing the names", in, err)
		}
	}
}

func TestPoolRoll(t *testing.T) {
	tests := []struct {
		name      string
		pool      pp.Pool
		swing     bool
		faces     []int
		expr      string
		successes int
		dice      int
		resolve   int
	}{
		{"plain", pp.Pool{Dice: 3}, false, []int{2, 4, 6}, "3d{0,1,0,1,0,2}", 4, 3, 0},
		{"odd faces", pp.Pool{Dice: 3}, false, []int{1, 3, 5}, "3d{0,1,0,1,0,2}", 0, 3, 0},
		{"GM modifier", pp.Pool{Dice: 3, Modifier: -1}, false, []int{6, 6}, "2d{0,1,0,1,0,2}", 4, 2, 0},
		{"desperate 6", pp.Pool{Dice: 2, Modifier: -3}, false, []int{6}, "1d{0,0,0,0,0,1}", 1, 1, 0},
		{"desperate 4", pp.Pool{Dice: 2, Modifier: -3}, false, []int{4}, "1d{0,0,0,0,0,1}", 0, 1, 0},
		{"no trait", pp.Pool{}, false, []int{6}, "1d{0,0,0,0,0,1}", 1, 1, 0},
		// 3 set aside: 1.5 successes, the half rounding up to 2; 2, 2 = 2.
		{"odd set aside", pp.Pool{Dice: 5, SetAside: 3}, false, []int{2, 2}, "2d{0,1,0,1,0,2}+2", 4, 2, 0},
		{"defining moment", pp.Pool{Dice: 2, DefiningMoment: true}, false, []int{6, 6, 3, 2}, "2d{0,1,0,1,0,2}!@6", 5, 4, 0},
		{"swing", pp.Pool{Dice: 3}, true, []int{2, 4, 6}, "3d{0,1,0,1,0,1}", 3, 3, 0},
		{"swing, Resolve to explode", pp.Pool{Dice: 3, Explode: true}, true, []int{6, 6, 1, 2, 3}, "3d{0,1,0,1,0,1}!@6", 3, 5, 0},
		{"Resolve dice", pp.Pool{Dice: 2, Resolve: 2}, false, []int{1, 1, 6, 4}, "2d{0,1,0,1,0,2}+2d{0,1,0,1,0,2}", 3, 2, 2},
		{"Resolve in a defining moment", pp.Pool{Dice: 2, Resolve: 1, DefiningMoment: true}, false, []int{1, 2, 6, 1, 4, 5},
			"2d{0,1,0,1,0,2}!@6+3d{0,1,0,1,0,2}!@6", 4, 2, 4},
		{"all aside with Resolve", pp.Pool{Dice: 4, SetAside: 4, Resolve: 1}, false, []int{6}, "1d{0,1,0,1,0,2}+2", 4, 0, 1},
		{"reroll keeps the better", pp.Pool{Dice: 2, Reroll: true}, false, []int{1, 3, 2, 6}, "2d{0,1,0,1,0,2}", 3, 2, 0},
		{"reroll keeps the first", pp.Pool{Dice: 2, Reroll: true}, false, []int{2, 5, 2, 1}, "2d{0,1,0,1,0,2}", 1, 2, 0},
	}
	for _, tt := range tests {
		if got := tt.pool.Expr(tt.swing); got != tt.expr {
			t.Errorf("%s: Expr = %q, want %q", tt.name, got, tt.expr)
		}
		r, err := tt.pool.Roll(dice.Faces(tt.faces...), tt.swing)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if r.Successes != tt.successes || len(r.Dice) != tt.dice || len(r.ResolveDice) != tt.resolve || (r.OtherRoll != nil) != tt.pool.Reroll {
			t.Errorf("%s: %d successes, %d dice, %d Resolve dice; want %d, %d, %d", tt.name, r.Successes, len(r.Dice), len(r.ResolveDice), tt.successes, tt.dice, tt.resolve)
		}
	}
}

func TestPoolReroll(t *testing.T) {
	r, err := pp.Pool{Dice: 2, Reroll: true}.Roll(dice.Faces(6, 4, 2, 2), false)
	if err != nil {
		t.Fatal(err)
	}
	// First roll 6, 4 = 3 successes; the reroll 2, 2 = 2: the first stands.
	if r.Successes != 3 || r.Dice[0].Face != 6 || r.OtherRoll == nil || r.OtherRoll.Successes != 2 || r.OtherRoll.Dice[0].Face != 2 {
		t.Errorf("got %+v (other %+v), want the first roll kept", r, r.OtherRoll)
	}
}

func TestPoolBad(t *testing.T) {
	tests := []struct {
		name string
		pool pp.Pool
		want string
	}{
		{"negative trait", pp.Pool{Dice: -1}, "0 dice or more"},
		{"modifier +5", pp.Pool{Dice: 3, Modifier: 5}, "+4d"},
		{"modifier -5", pp.Pool{Dice: 3, Modifier: -5}, "−4d"},
		{"set aside too many", pp.Pool{Dice: 3, Modifier: -1, SetAside: 3}, "only 2"},
		{"set aside when desperate", pp.Pool{Dice: 1, Modifier: -2, SetAside: 1}, "fewer than one die"},
		{"negative set aside", pp.Pool{Dice: 3, SetAside: -2}, "0 or more"},
		{"negative Resolve", pp.Pool{Dice: 3, Resolve: -1}, "Resolve"},
	}
	for _, tt := range tests {
		_, err := pp.Challenge{Actor: tt.pool}.Odds()
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "actor") {
			t.Errorf("%s: error %v, want one naming the actor and containing %q", tt.name, err, tt.want)
		}
		_, err = pp.Challenge{Actor: pp.Pool{Dice: 1}, Opponent: &tt.pool}.Roll(dice.Faces(1, 2, 3))
		if err == nil || !strings.Contains(err.Error(), "opponent") {
			t.Errorf("%s as opponent: error %v, want one naming the opponent", tt.name, err)
		}
	}
	if _, err := (pp.Pool{Dice: 2}).Roll(dice.Faces(1, 2, 3), false); err == nil || !strings.Contains(err.Error(), "more physical dice") {
		t.Errorf("three faces for two dice: error %v", err)
	}
	if _, err := (pp.Pool{Dice: 2}).Roll(dice.Faces(1), false); err == nil {
		t.Error("one face for two dice: no error")
	}
}

func TestFromSuccesses(t *testing.T) {
	r, err := pp.Pool{Dice: 6, SetAside: 2}.FromSuccesses(5, false)
	if err != nil || r.Successes != 6 || r.Auto != 1 || r.Rolled != 5 {
		t.Errorf("FromSuccesses(5) = %+v, %v; want 5 + 1 automatic", r, err)
	}
	bad := []struct {
		pool  pp.Pool
		swing bool
		n     int
	}{
		{pp.Pool{Dice: 4}, false, 9}, {pp.Pool{Dice: 4}, true, 5}, {pp.Pool{Dice: 4}, false, -1},
		{pp.Pool{}, false, 2}, {pp.Pool{Dice: 2, SetAside: 2}, false, 1},
	}
	for _, b := range bad {
		if _, err := b.pool.FromSuccesses(b.n, b.swing); err == nil {
			t.Errorf("%+v swing %v: FromSuccesses(%d) succeeded", b.pool, b.swing, b.n)
		}
	}
	if _, err := (pp.Pool{Dice: 1, DefiningMoment: true}).FromSuccesses(40, false); err != nil {
		t.Errorf("exploding pool, 40 successes: %v", err)
	}
}

// oneDie returns the distribution of the successes of one die, built by
// following every chain of faces (a 6 that explodes adds another die) up
// to depth extra dice, where the last 6 stands.
func oneDie(values [6]int, explode bool, depth int) map[int]float64 {
	out := map[int]float64{}
	var walk func(sum int, p float64, extra int)
	walk = func(sum int, p float64, extra int) {
		for face := 1; face <= 6; face++ {
			s, q := sum+values[face-1], p/6
			if face == 6 && explode && extra < depth {
				walk(s, q, extra+1)
				continue
			}
			out[s] += q
		}
	}
	walk(0, 1, 0)
	return out
}

// brutePool enumerates every combination of the pool's dice.
func brutePool(p pp.Pool, swing bool) map[int]float64 {
	values := [6]int{0, 1, 0, 1, 0, 2}
	if swing {
		values = [6]int{0, 1, 0, 1, 0, 1}
	}
	explode := p.DefiningMoment || p.Explode
	die := oneDie(values, explode, 30)
	dist := map[int]float64{p.Auto(): 1}
	add := func(d map[int]float64) {
		next := map[int]float64{}
		for a, pa := range dist {
			for b, pb := range d {
				next[a+b] += pa * pb
			}
		}
		dist = next
	}
	n := p.Rolled()
	if p.Desperate() {
		add(map[int]float64{0: 5.0 / 6, 1: 1.0 / 6})
		n = 0
	}
	for range n + p.ExtraDice() {
		add(die)
	}
	if !p.Reroll {
		return dist
	}
	best := map[int]float64{}
	for a, pa := range dist {
		for b, pb := range dist {
			best[max(a, b)] += pa * pb
		}
	}
	return best
}

func TestChallengeOddsBruteForce(t *testing.T) {
	pools := []pp.Pool{
		{}, {Dice: 1}, {Dice: 2}, {Dice: 3}, {Dice: 4, Modifier: -2}, {Dice: 1, Modifier: -2},
		{Dice: 4, SetAside: 2}, {Dice: 3, SetAside: 3}, {Dice: 2, Resolve: 1}, {Dice: 2, DefiningMoment: true},
		{Dice: 1, Resolve: 1, DefiningMoment: true}, {Dice: 2, Explode: true}, {Dice: 5, Modifier: 4},
		{Dice: 2, Reroll: true}, {Dice: 1, Modifier: -1, Reroll: true}, {Dice: 2, DefiningMoment: true, Reroll: true},
		{Dice: 3, SetAside: 2, Resolve: 1, Reroll: true},
	}
	for _, swing := range []bool{false, true} {
		for _, a := range pools {
			for ti, threshold := range []int{0, 1, 2, 4} {
				opps := []*pp.Pool{nil}
				if ti == 0 {
					opps = append(opps, &pp.Pool{Dice: 2}, &pp.Pool{Dice: 3, SetAside: 2}, &pp.Pool{Dice: 1, DefiningMoment: true})
				}
				for _, opp := range opps {
					c := pp.Challenge{Actor: a, Opponent: opp, Threshold: threshold, Swing: swing}
					want := map[int]float64{}
					for s, p := range brutePool(a, swing) {
						if opp == nil {
							want[s-threshold] += p
							continue
						}
						for s2, p2 := range brutePool(*opp, swing) {
							want[s-s2] += p * p2
						}
					}
					checkOdds(t, c, want)
				}
			}
		}
	}
}

func checkOdds(t *testing.T, c pp.Challenge, want map[int]float64) {
	t.Helper()
	o, err := c.Odds()
	if err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
	name := o.Actor + " vs " + o.Opponent
	// Each side's depth keeps its own cut-off under 1e-12; an opposed
	// roll adds the two.
	if o.Truncated > 2e-12 {
		t.Errorf("%s: truncated %v", name, o.Truncated)
	}
	bands := map[pp.Band]float64{}
	mean := 0.0
	for v, p := range want {
		bands[pp.BandOf(v)] += p
		mean += float64(v) * p
	}
	sum := 0.0
	for _, n := range o.Nets {
		sum += n.P
		if math.Abs(n.P-want[n.Net]) > 1e-12 {
			t.Errorf("%s (threshold %d): P(net %d) = %v, want %v", name, c.Threshold, n.Net, n.P, want[n.Net])
		}
		delete(want, n.Net)
	}
	for v, p := range want {
		if p > 1e-12 {
			t.Errorf("%s: net %d (P %v) missing", name, v, p)
		}
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("%s: nets sum to %v", name, sum)
	}
	sum = 0
	for _, b := range o.Bands {
		sum += b.P
		if math.Abs(b.P-bands[b.Band]) > 1e-12 {
			t.Errorf("%s: P(%s) = %v, want %v", name, b.Band, b.P, bands[b.Band])
		}
	}
	if len(o.Bands) != 4 || math.Abs(sum-1) > 1e-12 {
		t.Errorf("%s: %d bands summing to %v", name, len(o.Bands), sum)
	}
	if math.Abs(o.Mean-mean) > 1e-9 {
		t.Errorf("%s: mean %v, want %v", name, o.Mean, mean)
	}
}

// TestP1_SeedOdds checks the arm-wrestling odds by hand-derived facts: a die
// is worth 2/3 of a success on average, so 12 dice against 6 automatic
// successes average 8 − 6 = 2 net.
func TestP1_SeedOdds(t *testing.T) {
	o, err := pp.Challenge{Actor: pp.Pool{Dice: 12}, Opponent: &pp.Pool{Dice: 12, SetAside: 12}}.Odds()
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(o.Mean-2) > 1e-12 || o.Opponent != "6" {
		t.Errorf("mean %v, opponent %q; want 2 and \"6\"", o.Mean, o.Opponent)
	}
	// 12 dice all odd (1, 3 or 5): 2^-12, the only way to −6 net.
	if n := o.Nets[0]; n.Net != -6 || math.Abs(n.P-math.Pow(0.5, 12)) > 1e-15 {
		t.Errorf("lowest net %+v, want −6 with P 2^-12", n)
	}
}
