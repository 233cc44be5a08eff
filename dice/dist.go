package dice

import "math"

// DistOptions controls how a distribution is computed.
type DistOptions struct {
	// Depth is the explosion and reroll depth: at most Depth extra rolls per
	// die, as in RollDepth. 0 chooses it: the smallest depth whose Truncated
	// mass is below 1e-12, or the deepest that MaxExplodeDepth and the work
	// limit allow.
	Depth int
	// MaxWork bounds the arithmetic spent, in multiply-adds; 0 means
	// MaxDistWork.
	MaxWork int64
}

// Dist is the exact probability distribution of an expression's value, in
// float64: each probability is within 1e-12 of the exact rational one.
// Probabilities under 1e-150 (values no roll will ever show) are taken as
// 0, which keeps the arithmetic fast and changes nothing else.
type Dist struct {
	// Min is the value of P[0], the least value with a probability above 0.
	Min int
	// P[i] is the probability of the value Min+i. P has no leading or
	// trailing zeros.
	P []float64
	// Truncated is the probability that some die reached the depth cap, so
	// that rolling without a cap could have gone on (see "Depth" in the
	// package documentation).
	Truncated float64
	// Depth is the depth used, or 0 when nothing in the expression explodes
	// or rerolls with r.
	Depth int
}

// truncGoal is the Truncated mass under which the automatic depth stops.
const truncGoal = 1e-12

// Dist computes the exact distribution of the expression's value at the
// depth opts asks for. Rolling the expression with RollDepth or TotalDepth
// at that depth gives each value with exactly these odds (up to float64
// rounding, within 1e-12). An expression whose distribution would be too
// large or too costly is refused before any work is done, with an *Error
// whose Limit is LimitDistSize, LimitDistWork or LimitExplodeDepth.
func (e *Expr) Dist(opts DistOptions) (*Dist, error) {
	maxWork := opts.MaxWork
	if maxWork <= 0 {
		maxWork = MaxDistWork
	}
	faces := faceCache{}
	depth, used, err := e.chooseDepth(opts.Depth, maxWork, faces)
	if err != nil {
		return nil, err
	}
	c := &calc{e: e, depth: depth, maxWork: maxWork, faces: faces}
	x, err := c.node(e.root)
	if err != nil {
		return nil, err
	}
	for i, p := range x.p {
		x.p[i] = min(p, 1) // rounding can pass 1 by an ulp or two
	}
	d := &Dist{Min: x.lo, P: x.p, Truncated: c.truncated()}
	if used {
		d.Depth = depth
	}
	return d, nil
}

// usesDepth reports whether the pool's result depends on the depth.
func (n *poolNode) usesDepth() bool {
	return n.explode || (len(n.reroll) > 0 && !n.rerollOnce)
}

// depthPool returns the first pool whose result depends on the depth, or
// nil.
func (e *Expr) depthPool() *poolNode {
	for _, p := range e.pools {
		if p.usesDepth() {
			return p
		}
	}
	return nil
}

// chooseDepth checks or chooses the depth of a distribution and makes sure,
// by a dry run that does the bookkeeping but none of the arithmetic, that
// the distribution fits the limits at that depth. used tells whether the
// depth matters at all.
func (e *Expr) chooseDepth(req int, maxWork int64, faces faceCache) (depth int, used bool, err error) {
	p := e.depthPool()
	pos := 0
	if p != nil {
		pos = p.at
	}
	switch {
	case req < 0:
		return 0, false, errorf(e.src, pos, "the depth must be at least 1, or 0 to choose it")
	case req > MaxExplodeDepth:
		return 0, false, limitf(e.src, pos, LimitExplodeDepth, "a depth of %d is more than the limit of %d", req, MaxExplodeDepth)
	}
	dry := func(d int) error {
		c := &calc{e: e, depth: d, maxWork: maxWork, dry: true, faces: faces}
		_, err := c.node(e.root)
		return err
	}
	if p == nil || req > 0 {
		depth = max(req, 1)
		return depth, p != nil, dry(depth)
	}
	goal := MaxExplodeDepth
	for d := 1; d < MaxExplodeDepth; d++ {
		if e.truncAt(d, faces) < truncGoal {
			goal = d
			break
		}
	}
	if dry(goal) == nil {
		return goal, true, nil
	}
	if err := dry(1); err != nil {
		return 0, false, err
	}
	// The work grows with the depth: find the deepest that fits.
	lo, hi := 1, goal // dry(lo) passes, dry(hi) fails
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if dry(mid) == nil {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, true, nil
}

// truncAt returns the probability that some die of the expression reaches
// the cap at depth d.
func (e *Expr) truncAt(d int, faces faceCache) float64 {
	var logOK float64
	for _, p := range e.pools {
		if p.count > 0 {
			logOK += float64(p.count) * math.Log1p(-faces.get(p).fc.capProb(d, p))
		}
	}
	return -math.Expm1(logOK)
}

// faceClasses counts a pool's faces by whether they reroll and whether they
// explode.
type faceClasses struct {
	sides int
	// n[r][x] counts faces that reroll (r = 1) or not and explode (x = 1)
	// or not.
	n [2][2]int
}

// faceTable tells, for each face of a pool, whether it rerolls and whether
// it explodes, with the counts of each kind.
type faceTable struct {
	fc faceClasses
	// kind[f-1] is 1 if face f rerolls, plus 2 if it explodes.
	kind []uint8
}

// A faceCache holds the face tables of an expression's pools, worked out
// once for all the runs of one distribution.
type faceCache map[*poolNode]*faceTable

func (c faceCache) get(n *poolNode) *faceTable {
	if t := c[n]; t != nil {
		return t
	}
	t := &faceTable{fc: faceClasses{sides: n.die.sides}, kind: make([]uint8, n.die.sides)}
	for f := 1; f <= n.die.sides; f++ {
		r, x := 0, 0
		if n.rerolls(f) {
			r = 1
		}
		if n.explode && n.expCond.match(&n.die, f) {
			x = 1
		}
		t.fc.n[r][x]++
		t.kind[f-1] = uint8(r | x<<1)
	}
	c[n] = t
	return t
}

// rollProbs returns the probability that a roll of the pool ends on a given
// face that is not rerolled (px) and on a given face that is (py); the
// latter happens only when the rerolls run out (r, and then the die is
// capped) or after the one reroll of ro.
func (n *poolNode) rollProbs(fc faceClasses, depth int) (px, py float64) {
	s := float64(fc.sides)
	m := fc.n[1][0] + fc.n[1][1]
	if m == 0 {
		return 1 / s, 0
	}
	rho := float64(m) / s
	if n.rerollOnce {
		return (1 + rho) / s, rho / s
	}
	sum, pow := 0.0, 1.0
	for range depth {
		sum += pow
		pow *= rho
	}
	sum += pow // Σ_{j=0}^{depth} rho^j; pow = rho^depth
	return sum / s, pow / s
}

// capProb returns the probability that one die of the pool (with every
// roll its explosions add) reaches a cap at depth d.
func (fc faceClasses) capProb(d int, n *poolNode) float64 {
	px, py := n.rollProbs(fc, d)
	capped := !n.rerollOnce // a face left standing by r is capped
	var a, ac, b, bc float64
	a = float64(fc.n[0][0]) * px
	b = float64(fc.n[0][1]) * px
	if capped {
		ac = float64(fc.n[1][0]) * py
		bc = float64(fc.n[1][1]) * py
	} else {
		a += float64(fc.n[1][0]) * py
		b += float64(fc.n[1][1]) * py
	}
	if !n.explode {
		return min(ac+bc, 1)
	}
	// t is the probability of a cap from the k-th extra roll on; at k = d
	// every explosion is capped.
	t := ac + b + bc
	for range d {
		t = ac + bc + b*t
	}
	return min(t, 1) // rounding can pass 1
}

// Max returns the largest value with a probability above 0.
func (d *Dist) Max() int { return d.Min + len(d.P) - 1 }

// Prob returns the probability of the value v.
func (d *Dist) Prob(v int) float64 {
	i := v - d.Min
	if i < 0 || i >= len(d.P) {
		return 0
	}
	return d.P[i]
}

// AtLeast returns the probability of a value of v or more.
func (d *Dist) AtLeast(v int) float64 {
	i := min(max(v-d.Min, 0), len(d.P))
	return min(sumTail(d.P[i:]), 1)
}

// AtMost returns the probability of a value of v or less.
func (d *Dist) AtMost(v int) float64 {
	i := min(max(v-d.Min+1, 0), len(d.P))
	s, c := 0.0, 0.0
	for _, p := range d.P[:i] {
		s, c = twoSum(s, p, c)
	}
	return min(s+c, 1)
}

// Cumulative returns, for each i, the probability of a value of at most
// Min+i and of at least Min+i: a table's two tail columns in one pass, with
// compensated sums so that small tails keep their precision.
func (d *Dist) Cumulative() (atMost, atLeast []float64) {
	atMost, atLeast = make([]float64, len(d.P)), make([]float64, len(d.P))
	s, c := 0.0, 0.0
	for i, p := range d.P {
		s, c = twoSum(s, p, c)
		atMost[i] = min(s+c, 1)
	}
	s, c = 0, 0
	for i := len(d.P) - 1; i >= 0; i-- {
		s, c = twoSum(s, d.P[i], c)
		atLeast[i] = min(s+c, 1)
	}
	return atMost, atLeast
}

// Mean returns the expected value.
func (d *Dist) Mean() float64 {
	s := 0.0
	for i, p := range d.P {
		s += float64(i) * p
	}
	return float64(d.Min) + s
}

// Variance returns the variance of the value.
func (d *Dist) Variance() float64 {
	m := d.Mean() - float64(d.Min)
	s := 0.0
	for i, p := range d.P {
		x := float64(i) - m
		s += x * x * p
	}
	return s
}

// StdDev returns the standard deviation of the value.
func (d *Dist) StdDev() float64 { return math.Sqrt(d.Variance()) }

// Add returns the distribution of A + B for independent A and B, with the
// greater depth of the two and the probability that either was truncated.
// Its cost grows with len(a.P) × len(b.P).
func Add(a, b *Dist) *Dist { return combine(a, b, false) }

// Sub returns the distribution of A - B for independent A and B: the net
// result of an opposed roll. Depth and Truncated are as for Add.
func Sub(a, b *Dist) *Dist { return combine(a, b, true) }

func combine(a, b *Dist, sub bool) *Dist {
	x := &fdist{lo: a.Min, n: len(a.P), p: a.P}
	y := &fdist{lo: b.Min, n: len(b.P), p: b.P}
	x.count()
	y.count()
	if sub {
		y = y.neg()
	}
	z := convolve(x, y)
	for i, p := range z.p {
		z.p[i] = min(p, 1)
	}
	return &Dist{
		Min:       z.lo,
		P:         z.p,
		Truncated: a.Truncated + b.Truncated - a.Truncated*b.Truncated,
		Depth:     max(a.Depth, b.Depth),
	}
}
