package dice_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"fray/dice"
)

// enumSource is a dice.Source that walks every path of a roll: each call
// to IntN takes the next choice on the current path, and next moves on to
// the following path, depth first.
type enumSource struct {
	path []choice
	pos  int
	bad  string
}

type choice struct{ n, k int }

func (s *enumSource) IntN(n int) int {
	if s.pos < len(s.path) {
		c := s.path[s.pos]
		if c.n != n && s.bad == "" {
			s.bad = fmt.Sprintf("call %d asked for IntN(%d), earlier IntN(%d)", s.pos, n, c.n)
		}
		s.pos++
		return c.k
	}
	s.path = append(s.path, choice{n, 0})
	s.pos++
	return 0
}

// weight returns the probability of the current path.
func (s *enumSource) weight() *big.Rat {
	d := big.NewInt(1)
	for _, c := range s.path {
		d.Mul(d, big.NewInt(int64(c.n)))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), d)
}

// next moves to the next path; it reports false when all are done.
func (s *enumSource) next() bool {
	s.path = s.path[:s.pos]
	s.pos = 0
	for len(s.path) > 0 {
		last := &s.path[len(s.path)-1]
		if last.k+1 < last.n {
			last.k++
			return true
		}
		s.path = s.path[:len(s.path)-1]
	}
	return false
}

// oracle rolls e along every path at the given depth and returns the exact
// probability of each total and the probability that some die was capped.
func oracle(t *testing.T, e *dice.Expr, depth int) (map[int]*big.Rat, *big.Rat) {
	t.Helper()
	probs := map[int]*big.Rat{}
	capped := new(big.Rat)
	src := &enumSource{}
	for paths := 0; ; paths++ {
		if paths > 500_000 {
			t.Fatalf("%s: too many paths for the oracle", e)
		}
		res, err := e.RollDepth(src, depth)
		if err != nil {
			t.Fatal(err)
		}
		if tot := e.TotalDepth(&replay{path: src.path}, depth); tot != res.Total {
			t.Fatalf("%s: RollDepth gives %d, TotalDepth %d on the same faces", e, res.Total, tot)
		}
		w := src.weight()
		if probs[res.Total] == nil {
			probs[res.Total] = new(big.Rat)
		}
		probs[res.Total].Add(probs[res.Total], w)
		for _, d := range res.Dice {
			if d.Capped {
				capped.Add(capped, w)
				break
			}
		}
		if src.bad != "" {
			t.Fatalf("%s: %s", e, src.bad)
		}
		if !src.next() {
			break
		}
	}
	return probs, capped
}

// replay plays back the choices of one path.
type replay struct {
	path []choice
	i    int
}

func (r *replay) IntN(n int) int {
	c := r.path[r.i]
	r.i++
	return c.k
}

// oracleCases are small expressions, every modifier and most combinations.
var oracleCases = []string{
	"3", "-2", "1d6", "2d6", "3d4", "d%", "dF", "4dF", "2d{0,1,0,1,0,2}", "d{-3,5,5}",
	"1d6+2", "2d4-1d6", "1d6*1d4", "1d6/2", "1d10/1d3", "-1d6", "-(1d4-1d4)", "(1d4+1)*(1d3-2)",
	"1d6/-1d3", "-1d6/1d4", "2d3*-2",
	// reroll
	"1d6r1", "2d6r1", "1d6r<3", "1d6ro1", "2d6ro<3", "1d6r1r2", "1d6ro1ro6", "1d4r@=2", "dFr-1",
	"d{1,1,2}r1", "d{5}ro5", "d{0,1,0,1,0,2}r0",
	// explode
	"1d6!", "2d6!", "1d4!>=3", "1d6!!", "2d6!!", "1d4!!>=3", "2d{0,1,0,1,0,2}!", "2d{0,1,0,1,0,1}!@6",
	"1d{0,1,0,1,0,2}!!@6", "dF!", "1d4!1", "1d3!<2", "1d6!r1", "1d4!!r<2", "1d4!ro1", "1d4r4!4", "1d4ro4!4",
	// clamp
	"2d6min3", "2d6max4", "1d6min2max5", "1d6!max5", "1d6!!min2", "1d4!max2", "3d4!!max3", "dFmin0",
	// keep and drop
	"3d6kh", "3d6kh2", "3d6kl1", "4d4dh1", "4d4dl2", "3d6k5", "3d6dh5", "2d6kl0", "3d4!!kh2", "3d4!!kl1",
	"3d4r1kh2", "3d4ro1dl1", "4dFkh2", "3d{0,1,0,1,0,2}kh2", "3d4min2kl2", "3d4!!max5kh1",
	// successes and failures
	"3d6>=5", "3d6>4f1", "3d6<=2f>=6", "3d6=3f=3", "2d6!>=5", "2d6!6>=5f1", "2d6!!6>=8", "2d6!!6>=8f<3",
	"3d6kh2>=4", "4d6dl1>3f1", "3d4r1>=3", "2d6!@6>=4f2", "3dF>=0f=-1", "2d{0,1,0,1,0,2}>=1", "3d4!!kh2>=5f<=2",
	"2d6min3>=3", "2d4!4>3",
	// mixed
	"1d6!+1d4r1-2", "2d6>=4-1d4>=4", "(1d4!!)*2", "1d6kh1/1d2", "1d4!-1", "0d6+1d4",
	"1d%!", "2d%>=95f<=5", "1d%kl1-1d%", "d{0,1,0,1,0,2}r@1!!@6", "2d{0,1,0,1,0,2}ro@<2!!@6kh1>=1f0",
	"1d6r@1!@=6min2max5>=4f2", "3dF!!kh2", "1d4r1r4!!", "-2d4!!*-1d3", "2d{2,-1,2}!!kl1>0f<0",
}

func TestDistOracle(t *testing.T) {
	for _, src := range oracleCases {
		t.Run(src, func(t *testing.T) { testOracle(t, src) })
	}
}

func testOracle(t *testing.T, src string) {
	e, err := dice.Parse(src)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	for depth := 1; depth <= 3; depth++ {
		want, wantCapped := oracle(t, e, depth)
		name := fmt.Sprintf("%s@%d", src, depth)
		ex, err := e.ExactDist(depth)
		if err != nil {
			t.Errorf("%s: ExactDist: %v", name, err)
			continue
		}
		checkExact(t, name, ex, want, wantCapped)
		d, err := e.Dist(dice.DistOptions{Depth: depth})
		if err != nil {
			t.Errorf("%s: Dist: %v", name, err)
			continue
		}
		checkClose(t, name, d, ex, 1e-12)
	}
}

// checkExact compares an exact distribution with the oracle's.
func checkExact(t *testing.T, name string, ex *dice.Exact, want map[int]*big.Rat, capped *big.Rat) {
	t.Helper()
	got := map[int]*big.Rat{}
	for i, p := range ex.P {
		if p.Sign() < 0 {
			t.Errorf("%s: P(%d) = %s is negative", name, ex.Min+i, p)
		}
		if p.Sign() != 0 {
			got[ex.Min+i] = p
		}
	}
	for v, p := range want {
		if g := got[v]; g == nil || g.Cmp(p) != 0 {
			t.Errorf("%s: exact P(%d) = %v, oracle %s", name, v, g, p)
		}
	}
	for v, p := range got {
		if want[v] == nil {
			t.Errorf("%s: exact P(%d) = %s, but no roll gives %d", name, v, p, v)
		}
	}
	if len(ex.P) > 0 && (ex.P[0].Sign() == 0 || ex.P[len(ex.P)-1].Sign() == 0) {
		t.Errorf("%s: exact distribution has zeros at an end", name)
	}
	if ex.Truncated.Cmp(capped) != 0 {
		t.Errorf("%s: exact Truncated = %s, oracle %s", name, ex.Truncated, capped)
	}
}

// checkClose compares a float distribution with an exact one.
func checkClose(t *testing.T, name string, d *dice.Dist, ex *dice.Exact, tol float64) {
	t.Helper()
	// Dist drops probabilities under 1e-150, so its span may be narrower.
	if d.Min < ex.Min || d.Max() > ex.Min+len(ex.P)-1 {
		t.Errorf("%s: Dist spans %d..%d, exact %d..%d", name, d.Min, d.Max(), ex.Min, ex.Min+len(ex.P)-1)
	}
	for i, p := range ex.P {
		if f, _ := p.Float64(); f > 1e-140 && d.Prob(ex.Min+i) == 0 {
			t.Errorf("%s: P(%d) = 0, exact %g", name, ex.Min+i, f)
		}
	}
	for v := min(d.Min, ex.Min); v <= max(d.Max(), ex.Min+len(ex.P)-1); v++ {
		want := 0.0
		if i := v - ex.Min; i >= 0 && i < len(ex.P) {
			want, _ = ex.P[i].Float64()
		}
		if got := d.Prob(v); math.Abs(got-want) > tol {
			t.Errorf("%s: P(%d) = %.17g, exact %.17g", name, v, got, want)
		}
	}
	want, _ := ex.Truncated.Float64()
	if math.Abs(d.Truncated-want) > tol {
		t.Errorf("%s: Truncated = %.17g, exact %.17g", name, d.Truncated, want)
	}
	if ex.Depth != d.Depth {
		t.Errorf("%s: Depth = %d, exact %d", name, d.Depth, ex.Depth)
	}
}

// TestDistMedium checks larger expressions against ExactDist.
func TestDistMedium(t *testing.T) {
	cases := []struct {
		src   string
		depth int
	}{
		{"30d6", 0},
		{"20d6kh10", 0},
		{"20d6kl7", 0},
		{"15d8dl5", 0},
		{"12d10dh3>=7", 0},
		{"12d{0,1,0,1,0,2}!@6", 3},
		{"12d{0,1,0,1,0,1}!@6", 4},
		{"10d{0,1,0,1,0,2}-8d{0,1,0,1,0,2}", 0},
		{"10d10>=8f1", 0},
		{"8d6!>=6", 5},
		{"6d6!!kh3", 4},
		{"8d6r<3", 3},
		{"10d6ro1kl4", 0},
		{"(4d6kh3)*(2d4)-3d8/2", 0},
		{"40dF", 0},
		{"5d20!!min3max18kh2", 3},
		{"12d6!", 0},
		{"3d6!!", 0},
	}
	for _, tc := range cases {
		e := dice.MustParse(tc.src)
		d, err := e.Dist(dice.DistOptions{Depth: tc.depth})
		if err != nil {
			t.Errorf("%s: Dist: %v", tc.src, err)
			continue
		}
		ex, err := e.ExactDist(d.Depth)
		if err != nil {
			t.Errorf("%s: ExactDist: %v", tc.src, err)
			continue
		}
		checkClose(t, tc.src, d, ex, 1e-12)
	}
}

func TestDistAutoDepth(t *testing.T) {
	for _, tc := range []struct {
		src   string
		depth int
	}{
		{"3d6", 0},
		{"3d6ro1", 0},
		{"1d6!", 15},  // (1/6)^16 < 1e-12 <= (1/6)^15
		{"1d6r1", 15}, // the same odds of rolling 1 sixteen times
		{"1d2!", 39},  // 2^-40 < 1e-12 <= 2^-39
		{"2d2!!", 40}, // two dice: twice the mass
		{"1d100r<100", dice.MaxExplodeDepth},
		{"3d6r<6!6", dice.MaxExplodeDepth}, // every die explodes to the cap
	} {
		d, err := dice.MustParse(tc.src).Dist(dice.DistOptions{})
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if d.Depth != tc.depth {
			t.Errorf("%s: Depth = %d, want %d", tc.src, d.Depth, tc.depth)
		}
		if d.Depth < dice.MaxExplodeDepth && d.Truncated >= 1e-12 {
			t.Errorf("%s: Truncated = %g at the automatic depth", tc.src, d.Truncated)
		}
		if tc.src == "3d6r<6!6" && d.Truncated < 0.999 {
			t.Errorf("%s: Truncated = %g, want about 1", tc.src, d.Truncated)
		}
	}
}

func TestDistLimits(t *testing.T) {
	for _, tc := range []struct {
		src   string
		opts  dice.DistOptions
		limit string
		pos   int // -1: anywhere in the expression
	}{
		{"1000d100000", dice.DistOptions{}, dice.LimitDistSize, 0},
		{"1d6+1000d1000", dice.DistOptions{}, dice.LimitDistWork, 4},
		{"1d6+2d4!+3d6!", dice.DistOptions{Depth: 101}, dice.LimitExplodeDepth, 4},
		{"2*(1d20+7*1d100000)*1d100000", dice.DistOptions{}, dice.LimitDistSize, 1},
		{"10000d100000", dice.DistOptions{}, dice.LimitDistSize, -1},
		{"5000d100kh2500", dice.DistOptions{}, dice.LimitDistSize, -1},
		{"2000d20kh1000", dice.DistOptions{}, dice.LimitDistSize, -1},
		{"2000d6kh1000", dice.DistOptions{}, dice.LimitDistWork, -1},
		{"1d{0,1000000000}", dice.DistOptions{}, dice.LimitDistSize, -1},
		{"1d100000*1d100000", dice.DistOptions{}, dice.LimitDistWork, -1},
		{"1d2*1000000000", dice.DistOptions{}, dice.LimitDistSize, -1},
		{"3d6!", dice.DistOptions{Depth: dice.MaxExplodeDepth + 1}, dice.LimitExplodeDepth, -1},
		{"100d6", dice.DistOptions{MaxWork: 1000}, dice.LimitDistWork, -1},
		{"10000d1000!", dice.DistOptions{}, dice.LimitDistSize, -1},
	} {
		e, err := dice.Parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		// How fast the refusal comes is measured by BenchmarkDistRefusal,
		// not here.
		_, err = e.Dist(tc.opts)
		var de *dice.Error
		if !errors.As(err, &de) || de.Limit != tc.limit {
			t.Errorf("%s: error %v, want the limit %s", tc.src, err, tc.limit)
			continue
		}
		if de.Pos < 0 || de.Pos >= len(tc.src) || (tc.pos >= 0 && de.Pos != tc.pos) {
			t.Errorf("%s: error at %d, want %d", tc.src, de.Pos, tc.pos)
		}
	}
}

// TestDistMoments checks Mean, Variance and the tails on known values.
func TestDistMoments(t *testing.T) {
	d, err := dice.MustParse("2d6").Dist(dice.DistOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean", d.Mean(), 7},
		{"variance", d.Variance(), 35.0 / 6},
		{"P(>=8)", d.AtLeast(8), 15.0 / 36},
		{"P(<=4)", d.AtMost(4), 6.0 / 36},
		{"P(>=2)", d.AtLeast(-5), 1},
		{"P(<=99)", d.AtMost(99), 1},
		{"P(>=13)", d.AtLeast(13), 0},
		{"P(<=1)", d.AtMost(1), 0},
		{"P(7)", d.Prob(7), 6.0 / 36},
		{"P(1)", d.Prob(1), 0},
	} {
		if math.Abs(c.got-c.want) > 1e-14 {
			t.Errorf("2d6 %s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if d.Min != 2 || d.Max() != 12 {
		t.Errorf("2d6 spans %d..%d", d.Min, d.Max())
	}
	atMost, atLeast := d.Cumulative()
	for i := range d.P {
		v := d.Min + i
		if atMost[i] != d.AtMost(v) || atLeast[i] != d.AtLeast(v) {
			t.Errorf("2d6 Cumulative at %d: %v %v, want %v %v", v, atMost[i], atLeast[i], d.AtMost(v), d.AtLeast(v))
		}
	}
}

func TestAddSub(t *testing.T) {
	a, _ := dice.MustParse("5d{0,1,0,1,0,2}!").Dist(dice.DistOptions{Depth: 2})
	b, _ := dice.MustParse("3d{0,1,0,1,0,2}").Dist(dice.DistOptions{})
	for _, tc := range []struct {
		name string
		got  *dice.Dist
		src  string
	}{
		{"Sub", dice.Sub(a, b), "5d{0,1,0,1,0,2}!-3d{0,1,0,1,0,2}"},
		{"Add", dice.Add(a, b), "5d{0,1,0,1,0,2}!+3d{0,1,0,1,0,2}"},
	} {
		want, err := dice.MustParse(tc.src).Dist(dice.DistOptions{Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		if tc.got.Min != want.Min || len(tc.got.P) != len(want.P) || tc.got.Depth != 2 {
			t.Fatalf("%s: %d..%d depth %d, want %d..%d", tc.name, tc.got.Min, tc.got.Max(), tc.got.Depth, want.Min, want.Max())
		}
		for i := range want.P {
			if math.Abs(tc.got.P[i]-want.P[i]) > 1e-15 {
				t.Errorf("%s: P[%d] = %g, want %g", tc.name, i, tc.got.P[i], want.P[i])
			}
		}
		if math.Abs(tc.got.Truncated-want.Truncated) > 1e-16 {
			t.Errorf("%s: Truncated = %g, want %g", tc.name, tc.got.Truncated, want.Truncated)
		}
	}
}

// checkDist checks the invariants of any distribution against seeded rolls.
func checkDist(t *testing.T, e *dice.Expr, d *dice.Dist, rolls int, seed uint64) {
	t.Helper()
	sum := 0.0
	for _, p := range d.P {
		if !(p >= 0 && p <= 1) {
			t.Fatalf("%s: probability %v", e, p)
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Fatalf("%s: probabilities sum to %.17g", e, sum)
	}
	if len(d.P) == 0 || d.P[0] == 0 || d.P[len(d.P)-1] == 0 {
		t.Fatalf("%s: zeros at the ends of P", e)
	}
	if !(d.Truncated >= 0 && d.Truncated <= 1) {
		t.Fatalf("%s: Truncated = %v", e, d.Truncated)
	}
	depth := d.Depth
	if depth == 0 {
		depth = dice.MaxExplodeDepth
	}
	r := rand.New(rand.NewPCG(seed, 1))
	seen := map[int]bool{}
	for range rolls {
		v := e.TotalDepth(r, depth)
		if d.Prob(v) <= 0 {
			t.Fatalf("%s at depth %d: rolled %d, whose probability is %v", e, depth, v, d.Prob(v))
		}
		seen[v] = true
	}
	// A value as likely as 0.2 is missed by 200 rolls with odds of 4e-20.
	for i, p := range d.P {
		if p >= 0.2 && rolls >= 200 && !seen[d.Min+i] {
			t.Fatalf("%s at depth %d: %d has probability %v but %d rolls never gave it", e, depth, d.Min+i, p, rolls)
		}
	}
}

func FuzzDist(f *testing.F) {
	for _, s := range oracleCases {
		f.Add(s)
	}
	for _, s := range []string{
		"4d6kh3", "12d{0,1,0,1,0,2}!@6", "10d10>=8f1", "100d6kh50", "3d6!!kl2", "1d2!!",
		"20d6r<3", "d{-5,0,5}!!min-2kh1", "5dF!>0f<0", "1d100r<100", "2d6!-1d6!", "(2d6)/(1d4+1)",
		"1d1ro1", "2d3!!<2", "3d6r<6!6", "1d1000r1!1", "7d{3,-2,0}!<0kl3>=1f-2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := dice.Parse(src)
		if err != nil {
			return
		}
		d, err := e.Dist(dice.DistOptions{MaxWork: 1 << 22})
		if err != nil {
			var de *dice.Error
			if !errors.As(err, &de) || de.Limit == "" {
				t.Fatalf("%q: error %v names no limit", src, err)
			}
			return
		}
		checkDist(t, e, d, 200, uint64(len(src)))
		// Where the exact distribution is cheap, the two must agree.
		if ex, err := dice.ExactDistWork(e, max(d.Depth, 1), 1<<16); err == nil {
			checkClose(t, src, d, ex, 1e-12)
		}
		if !strings.Contains(src, "d") && len(d.P) != 1 {
			t.Fatalf("%q: a constant has %d values", src, len(d.P))
		}
	})
}

// TestDistLargeExact checks the benchmark expressions, and a few large
// pools, against the exact distribution with a generous work limit.
func TestDistLargeExact(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for _, tc := range []struct {
		src   string
		depth int
	}{
		{"200d{0,1,0,1,0,2}", 0},
		{"200d{0,1,0,1,0,2}!", 3},
		{"50d{0,1,0,1,0,2}-50d{0,1,0,1,0,2}", 0},
		{"100d6kh50", 0},
		{"300d6kl1", 0},
		{"150d10dh30>=6f1", 0},
		{"80d7010=0", 0},
	} {
		e := dice.MustParse(tc.src)
		d, err := e.Dist(dice.DistOptions{Depth: tc.depth})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		ex, err := dice.ExactDistWork(e, max(d.Depth, 1), 1<<30)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		checkClose(t, tc.src, d, ex, 1e-12)
	}
}

// TestDistKeepOne checks keeping one die of many against the closed form
// P(highest <= v) = (v/S)^N.
func TestDistKeepOne(t *testing.T) {
	for _, n := range []int{1, 7, 100, 1000, 10000} {
		for _, s := range []int{2, 6, 20} {
			hi, err := dice.MustParse(fmt.Sprintf("%dd%dkh1", n, s)).Dist(dice.DistOptions{})
			if err != nil {
				t.Fatal(err)
			}
			lo, err := dice.MustParse(fmt.Sprintf("%dd%dkl1", n, s)).Dist(dice.DistOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for v := 1; v <= s; v++ {
				want := math.Pow(float64(v)/float64(s), float64(n))
				if got := hi.AtMost(v); math.Abs(got-want) > 1e-12 {
					t.Errorf("%dd%dkh1: P(<=%d) = %.17g, want %.17g", n, s, v, got, want)
				}
				want = math.Pow(float64(s-v+1)/float64(s), float64(n))
				if got := lo.AtLeast(v); math.Abs(got-want) > 1e-12 {
					t.Errorf("%dd%dkl1: P(>=%d) = %.17g, want %.17g", n, s, v, got, want)
				}
			}
		}
	}
}

func TestExactDistLimits(t *testing.T) {
	for _, tc := range []struct {
		src   string
		depth int
		limit string
	}{
		{"1000d100", 0, dice.LimitDistWork},
		{"60d6!", 0, dice.LimitDistWork},
		{"3d6!", dice.MaxExplodeDepth + 1, dice.LimitExplodeDepth},
		{"1000d100000", 0, dice.LimitDistSize},
		{"2000d6kh1000", 0, dice.LimitDistWork},
	} {
		_, err := dice.MustParse(tc.src).ExactDist(tc.depth)
		var de *dice.Error
		if !errors.As(err, &de) || de.Limit != tc.limit {
			t.Errorf("%s: error %v, want the limit %s", tc.src, err, tc.limit)
		}
	}
	if _, err := dice.MustParse("1d6!").ExactDist(-1); err == nil {
		t.Errorf("ExactDist(-1) gave no error")
	}
	if _, err := dice.MustParse("1d6!").Dist(dice.DistOptions{Depth: -1}); err == nil {
		t.Errorf("Dist at depth -1 gave no error")
	}
}

// TestDistMatchesRolls rolls expressions many times with the fast roller
// (Total, which draws several faces from each random number) and checks the
// counts against Dist with a chi-squared test. The seed is fixed, so the
// test is deterministic; the bound is about six standard deviations.
func TestDistMatchesRolls(t *testing.T) {
	const rolls = 100_000
	for i, src := range []string{
		"3d6+4", "4d6kh3", "2d20kl1", "1d20+5", "12d{0,1,0,1,0,2}", "12d{0,1,0,1,0,1}!@6", "5d6!",
		"3d6!!kh2", "4d10>=7f1", "2d6r1", "1d100", "10d6dl3", "2d6/1d3", "4dF", "6d6ro<3kl3",
		"12d6>=5", "3d6min2max5", "2d10!!10>=15", "8d8kh1-8d8kl1", "d%*2-d%",
		"4d6kh2>=4", "5d10dl2>=7f1", "3d{0,1,0,1,0,2}kh2", "2d6min3kh1", "70d6kh3", "3dFkl2+2",
	} {
		e := dice.MustParse(src)
		d, err := e.Dist(dice.DistOptions{})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		counts := map[int]int{}
		r := rand.New(rand.NewPCG(uint64(i), 7))
		for range rolls {
			v := e.Total(r)
			if d.Prob(v) == 0 {
				t.Fatalf("%s: rolled %d, which Dist says cannot happen", src, v)
			}
			counts[v]++
		}
		// Pool values into bins expecting at least 20 rolls each.
		chi, bins := 0.0, 0
		var obs, exp float64
		for j, p := range d.P {
			obs += float64(counts[d.Min+j])
			exp += p * rolls
			if exp >= 20 || j == len(d.P)-1 {
				chi += (obs - exp) * (obs - exp) / max(exp, 1)
				bins++
				obs, exp = 0, 0
			}
		}
		df := float64(bins - 1)
		if limit := df + 6*math.Sqrt(2*df) + 10; chi > limit {
			t.Errorf("%s: chi-squared %.1f over %d bins, above %.1f: the rolls do not follow Dist", src, chi, bins, limit)
		}
	}
}
