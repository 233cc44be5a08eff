package dice

import (
	"math"
	"slices"
)

// tiny is the probability under which an entry of a distribution is set to
// zero. Dropping such entries changes no probability by more than about
// 1e-144 in all, and it keeps every product of two entries a normal float64
// (subnormal arithmetic is slow on most processors).
const tiny = 1e-150

// maxKeepStates bounds the table of the keep/drop computation.
const maxKeepStates = 4 * MaxDistSize

// fdist is a distribution held densely from lo. In a dry run p is nil and
// n and nz are upper bounds on the width and on the count of nonzero
// entries; otherwise n = len(p), nz counts the entries above 0 and p has no
// leading or trailing zeros.
type fdist struct {
	lo int
	n  int
	nz int
	p  []float64
}

func (x *fdist) hi() int { return x.lo + x.n - 1 }

// count sets n and nz from p.
func (x *fdist) count() {
	x.n = len(x.p)
	x.nz = 0
	for _, v := range x.p {
		if v != 0 {
			x.nz++
		}
	}
}

// tidy zeroes the entries below tiny, trims zeros at both ends and counts.
func (x *fdist) tidy() *fdist {
	i, j := 0, len(x.p)
	for k, v := range x.p {
		if v < tiny {
			x.p[k] = 0
		}
	}
	for i < j && x.p[i] == 0 {
		i++
	}
	for j > i && x.p[j-1] == 0 {
		j--
	}
	// An empty result is a part of a distribution too unlikely to hold.
	x.p = x.p[i:j]
	x.lo += i
	x.count()
	return x
}

// neg returns the distribution of -X.
func (x *fdist) neg() *fdist {
	y := &fdist{lo: -x.hi(), n: x.n, nz: x.nz}
	if x.p != nil {
		y.p = make([]float64, x.n)
		for i, v := range x.p {
			y.p[x.n-1-i] = v
		}
	}
	return y
}

func point(v int) *fdist { return &fdist{lo: v, n: 1, nz: 1, p: []float64{1}} }

// convolve returns the distribution of X + Y for independent X and Y.
func convolve(x, y *fdist) *fdist {
	if x.n == 0 || y.n == 0 {
		return &fdist{p: []float64{}}
	}
	if x.nz > y.nz {
		x, y = y, x
	}
	// x is the sparser: run over its nonzero entries.
	z := &fdist{lo: x.lo + y.lo, p: make([]float64, x.n+y.n-1)}
	for i, a := range x.p {
		if a == 0 {
			continue
		}
		out := z.p[i : i+len(y.p)]
		for j, b := range y.p {
			out[j] += a * b
		}
	}
	return z.tidy()
}

// convCost is the number of multiply-adds convolve spends.
func convCost(x, y *fdist) float64 {
	return float64(min(x.nz*y.n, y.nz*x.n))
}

// calc computes the distribution of an expression at one depth. In a dry
// run it only follows the shapes of the distributions, to check sizes and
// count the work before any is done.
type calc struct {
	e       *Expr
	depth   int
	dry     bool
	work    float64
	maxWork int64
	logOK   float64 // log of the probability that no die reaches a cap
	faces   faceCache
}

func (c *calc) truncated() float64 {
	if t := -math.Expm1(c.logOK); t > 0 {
		return t
	}
	return 0 // not -0
}

// charge adds w multiply-adds to the work done, refusing to pass the limit.
func (c *calc) charge(pos int, w float64) error {
	c.work += w
	if c.work > float64(c.maxWork) {
		return limitf(c.e.src, pos, LimitDistWork, "the distribution needs more than %d steps of work (MaxDistWork); lower the dice, the sides or the depth", c.maxWork)
	}
	return nil
}

// alloc returns an empty distribution over [lo, hi], refusing one wider
// than MaxDistSize. In a dry run nothing is allocated.
func (c *calc) alloc(pos, lo, hi int) (*fdist, error) {
	n := hi - lo + 1
	if n > MaxDistSize || n < 1 {
		return nil, limitf(c.e.src, pos, LimitDistSize, "this part of the distribution spans %d values, more than the limit of %d (MaxDistSize)", hi-lo+1, MaxDistSize)
	}
	x := &fdist{lo: lo, n: n, nz: n}
	if !c.dry {
		x.p = make([]float64, n)
	}
	return x, nil
}

// node returns the distribution of n.
func (c *calc) node(n node) (*fdist, error) {
	switch n := n.(type) {
	case *numNode:
		return point(n.val), nil
	case *negNode:
		x, err := c.node(n.x)
		if err != nil {
			return nil, err
		}
		return x.neg(), nil
	case *binNode:
		x, err := c.node(n.x)
		if err != nil {
			return nil, err
		}
		y, err := c.node(n.y)
		if err != nil {
			return nil, err
		}
		switch n.op {
		case '+':
			return c.add(n.at, x, y)
		case '-':
			return c.add(n.at, x, y.neg())
		default:
			return c.pairs(n, x, y)
		}
	case *poolNode:
		return c.pool(n)
	}
	panic("dice: unknown node")
}

// add returns the distribution of X + Y.
func (c *calc) add(pos int, x, y *fdist) (*fdist, error) {
	if err := c.charge(pos, convCost(x, y)); err != nil {
		return nil, err
	}
	z, err := c.alloc(pos, x.lo+y.lo, x.hi()+y.hi())
	if err != nil || c.dry {
		return z, err
	}
	return convolve(x, y), nil
}

// pairs returns the distribution of X * Y or X / Y.
func (c *calc) pairs(n *binNode, x, y *fdist) (*fdist, error) {
	f := func(a, b int) int { return a * b }
	if n.op == '/' {
		if y.lo <= 0 && y.hi() >= 0 {
			return nil, errorf(c.e.src, n.at, "the divisor can be zero (it ranges from %d to %d)", y.lo, y.hi())
		}
		f = floorDiv
	}
	if err := c.charge(n.at, float64(x.nz)*float64(y.nz)); err != nil {
		return nil, err
	}
	lo, hi := corners(x.lo, x.hi(), y.lo, y.hi(), f)
	z, err := c.alloc(n.at, lo, hi)
	if err != nil || c.dry {
		return z, err
	}
	// Many pairs can land on one value: sum with compensation.
	comp := make([]float64, len(z.p))
	for i, a := range x.p {
		if a == 0 {
			continue
		}
		for j, b := range y.p {
			if b != 0 {
				k := f(x.lo+i, y.lo+j) - lo
				z.p[k], comp[k] = twoSum(z.p[k], a*b, comp[k])
			}
		}
	}
	for k := range z.p {
		z.p[k] += comp[k]
	}
	return z.tidy(), nil
}

// pool returns the distribution of a pool's contribution.
func (c *calc) pool(n *poolNode) (*fdist, error) {
	if n.count == 0 {
		return point(0), nil
	}
	// A die's value is the sum over its rolls of each roll's contribution:
	// its clamped value, or its score when ! counts successes die by die.
	perRoll := n.succ != nil && n.explode && !n.compound
	contrib := func(f int) int {
		v := n.clamp(n.die.value(f))
		if perRoll {
			return n.score(v)
		}
		return v
	}
	ft := c.faces.get(n)
	fc := ft.fc
	if err := c.charge(n.at, float64(2*n.die.sides)); err != nil {
		return nil, err
	}
	t := fc.capProb(c.depth, n)
	c.logOK += float64(n.count) * math.Log1p(-t)

	// One roll: a holds the rolls that stop, b those that explode.
	px, py := n.rollProbs(fc, c.depth)
	const none = math.MaxInt
	alo, ahi, blo, bhi := none, -none, none, -none
	for f := 1; f <= n.die.sides; f++ {
		v := contrib(f)
		if ft.kind[f-1]&2 != 0 {
			blo, bhi = min(blo, v), max(bhi, v)
		} else {
			alo, ahi = min(alo, v), max(ahi, v)
		}
	}
	a, err := c.alloc(n.at, alo, ahi)
	if err != nil {
		return nil, err
	}
	var b *fdist
	if n.explode {
		if b, err = c.alloc(n.at, blo, bhi); err != nil {
			return nil, err
		}
	}
	// The faces are filled in even in a dry run (the work is small and
	// bounded) so that the count of nonzero entries is exact.
	ap, bp := a.p, []float64(nil)
	if ap == nil {
		ap = make([]float64, a.n)
	}
	if b != nil {
		if bp = b.p; bp == nil {
			bp = make([]float64, b.n)
		}
	}
	// Count the faces of each kind at each value, then weigh the counts,
	// so that a value many faces share gets its probability in one product.
	na, nb := make([][2]int, len(ap)), make([][2]int, len(bp))
	for f := 1; f <= n.die.sides; f++ {
		r := ft.kind[f-1] & 1
		v := contrib(f)
		if ft.kind[f-1]&2 != 0 {
			nb[v-b.lo][r]++
		} else {
			na[v-a.lo][r]++
		}
	}
	for i, k := range na {
		ap[i] = float64(k[0])*px + float64(k[1])*py
	}
	for i, k := range nb {
		bp[i] = float64(k[0])*px + float64(k[1])*py
	}
	a.p = ap
	a.tidy()
	if b != nil {
		b.p = bp
		b.tidy()
	}
	if c.dry {
		// a and b keep their exact shapes; their entries are not needed.
		a.p, b = nil, shapeOf(b)
	}

	x := a
	if n.explode {
		if x, err = c.chain(n.at, a, b); err != nil {
			return nil, err
		}
	}
	g := func(v int) int { return v }
	if n.succ != nil && !perRoll {
		g = n.score
	}
	if n.keep != nil {
		k, high := n.keep.kept(n.count)
		switch {
		case k == 0:
			return point(0), nil
		case k < n.count:
			return c.keep(n, x, g, k, high)
		}
	}
	if n.succ != nil && !perRoll {
		if x, err = c.mapValues(n, x, g); err != nil {
			return nil, err
		}
	}
	return c.power(n.at, x, n.count)
}

func shapeOf(x *fdist) *fdist {
	if x == nil {
		return nil
	}
	return &fdist{lo: x.lo, n: x.n, nz: x.nz}
}

// chain returns the distribution of one die with its explosions, given the
// rolls that stop (a) and those that explode (b): with C_depth = a + b (at
// the cap every roll stands), C_k = a + b * C_{k+1}, and the die is C_0.
func (c *calc) chain(pos int, a, b *fdist) (*fdist, error) {
	x, err := c.union(pos, a, b)
	if err != nil {
		return nil, err
	}
	for range c.depth {
		if b.n == 0 {
			// Every explosion is too unlikely to hold: the die is a.
			return a, nil
		}
		if err := c.charge(pos, convCost(b, x)); err != nil {
			return nil, err
		}
		bx := &fdist{lo: b.lo + x.lo, n: b.n + x.n - 1}
		bx.nz = bx.n
		if bx.n > MaxDistSize {
			return nil, limitf(c.e.src, pos, LimitDistSize, "one die of this pool can take %d values, more than the limit of %d (MaxDistSize)", bx.n, MaxDistSize)
		}
		if !c.dry {
			bx = convolve(b, x)
		}
		if x, err = c.union(pos, a, bx); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// union returns the sum of two parts of a distribution, either of which
// may be empty.
func (c *calc) union(pos int, a, b *fdist) (*fdist, error) {
	switch {
	case a.n == 0:
		return b, nil
	case b.n == 0:
		return a, nil
	}
	if err := c.charge(pos, float64(a.n+b.n)); err != nil {
		return nil, err
	}
	x, err := c.alloc(pos, min(a.lo, b.lo), max(a.hi(), b.hi()))
	if err != nil || c.dry {
		return x, err
	}
	for _, y := range []*fdist{a, b} {
		for i, v := range y.p {
			x.p[y.lo-x.lo+i] += v
		}
	}
	return x.tidy(), nil
}

// mapValues returns the distribution of g(X), where g is a score in -1..1.
func (c *calc) mapValues(n *poolNode, x *fdist, g func(int) int) (*fdist, error) {
	if err := c.charge(n.at, float64(x.n)); err != nil {
		return nil, err
	}
	if c.dry {
		return &fdist{lo: -1, n: 3, nz: 3}, nil
	}
	y := &fdist{lo: -1, p: make([]float64, 3)}
	var comp [3]float64
	for i, v := range x.p {
		if v != 0 {
			k := g(x.lo+i) + 1
			y.p[k], comp[k] = twoSum(y.p[k], v, comp[k])
		}
	}
	for k := range y.p {
		y.p[k] += comp[k]
	}
	return y.tidy(), nil
}

// power returns the distribution of the sum of k independent copies of X,
// by repeated convolution or by repeated squaring, whichever costs less.
func (c *calc) power(pos int, x *fdist, k int) (*fdist, error) {
	if k == 1 {
		return x, nil
	}
	lo, hi := k*x.lo, k*x.hi()
	if x.n > MaxDistSize || (hi-lo+1) > MaxDistSize {
		return nil, limitf(c.e.src, pos, LimitDistSize, "the distribution of this pool spans %d values, more than the limit of %d (MaxDistSize)", hi-lo+1, MaxDistSize)
	}
	seq, sq := seqCost(x, k), squareCost(x, k)
	if err := c.charge(pos, min(seq, sq)); err != nil {
		return nil, err
	}
	if c.dry {
		return &fdist{lo: lo, n: hi - lo + 1, nz: hi - lo + 1}, nil
	}
	if seq <= sq {
		return powerSeq(x, k), nil
	}
	var acc *fdist
	for p := x; ; {
		if k&1 == 1 {
			if acc == nil {
				acc = p
			} else {
				acc = convolve(acc, p)
			}
		}
		k >>= 1
		if k == 0 {
			return acc, nil
		}
		p = convolve(p, p)
	}
}

// powerSeq sums k copies of X one at a time, in two buffers used in turn.
func powerSeq(x *fdist, k int) *fdist {
	size := k*(x.n-1) + 1
	bufs := [2][]float64{make([]float64, size), make([]float64, size)}
	acc, lo := bufs[0][:x.n], x.lo
	copy(acc, x.p)
	for step := 1; step < k; step++ {
		out := bufs[step&1][:len(acc)+x.n-1]
		clear(out)
		for i, a := range x.p {
			if a == 0 {
				continue
			}
			o := out[i : i+len(acc)]
			for j, b := range acc {
				o[j] += a * b
			}
		}
		// Zero what fell under tiny and trim the ends.
		i, j := len(out), 0
		for t, v := range out {
			if v < tiny {
				out[t] = 0
			} else {
				i, j = min(i, t), t+1
			}
		}
		if i >= j {
			i, j = 0, 0
		}
		acc, lo = out[i:j], lo+x.lo+i
	}
	z := &fdist{lo: lo, p: slices.Clone(acc)}
	return z.tidy()
}

// seqCost is the work of summing k copies of X one at a time, counting
// every sum as dense.
func seqCost(x *fdist, k int) float64 {
	w := 0.0
	for i := 1; i < k; i++ {
		accN := float64(i*(x.n-1) + 1)
		w += min(accN*float64(x.nz), float64(x.n)*accN)
	}
	return w
}

// squareCost is the work of summing k copies of X by repeated squaring.
func squareCost(x *fdist, k int) float64 {
	w := 0.0
	pn, pnz := float64(x.n), float64(x.nz)
	an, anz := 0.0, 0.0
	for {
		if k&1 == 1 {
			if an == 0 {
				an, anz = pn, pnz
			} else {
				w += min(anz*pn, pnz*an)
				an = an + pn - 1
				anz = an
			}
		}
		k >>= 1
		if k == 0 {
			return w
		}
		w += pnz * pn
		pn = 2*pn - 1
		pnz = pn
	}
}

// keep returns the distribution of the sum of g over the k highest (or
// lowest) of a pool's dice, each distributed as X.
//
// The dice are assigned to the distinct values of X from the most preferred
// down. Given that j dice are assigned so far, each of the N-j others lies
// at or below the current value v, so the number exactly at v is binomial
// with q = P(v)/P(≤ v). A state is (j < k, sum of g over the j dice); once
// k dice are assigned, the sum is final and leaves the table.
func (c *calc) keep(n *poolNode, x *fdist, g func(int) int, k int, high bool) (*fdist, error) {
	N := n.count
	// The values in order of preference, with their probabilities.
	type vp struct {
		v int
		p float64
	}
	var vals []vp
	if c.dry {
		// Shapes only: every value of the span may occur.
		for v := x.lo; v <= x.hi(); v++ {
			vals = append(vals, vp{v, 1})
		}
	} else {
		for i, p := range x.p {
			if p != 0 {
				vals = append(vals, vp{x.lo + i, p})
			}
		}
	}
	if high {
		// vals runs from low to high; prefer the highest first.
		slices.Reverse(vals)
	}
	gmin, gmax := math.MaxInt, math.MinInt
	for _, vv := range vals {
		gmin, gmax = min(gmin, g(vv.v)), max(gmax, g(vv.v))
	}
	G := gmax - gmin
	outN := k*G + 1
	if float64(k)*float64(G)+1 > MaxDistSize {
		return nil, limitf(c.e.src, n.at, LimitDistSize, "keeping %d dice spans %.0f values, more than the limit of %d (MaxDistSize)", k, float64(k)*float64(G)+1, MaxDistSize)
	}
	// Row j holds the sums of j dice, from j*gmin; its entries with mass
	// lie within j times the range of g over the values seen so far.
	states, sj, s1, binom := 0.0, 0.0, 0.0, 0.0
	for j := 0; j < k; j++ {
		states += float64(j)*float64(G) + 1
		sj += float64(j) * float64(k-j+1)
		s1 += float64(k - j + 1)
		binom += float64(N - j + 1)
	}
	if states > maxKeepStates {
		return nil, limitf(c.e.src, n.at, LimitDistSize, "keeping %d of %d dice needs a table of %.0f entries, more than %d (MaxDistSize)", k, N, states, maxKeepStates)
	}
	work := 0.0
	lo, hi := math.MaxInt, math.MinInt
	for _, vv := range vals {
		lo, hi = min(lo, g(vv.v)), max(hi, g(vv.v))
		work += float64(hi-lo)*sj + s1 + binom
	}
	if err := c.charge(n.at, work); err != nil {
		return nil, err
	}
	if c.dry {
		return &fdist{lo: k * gmin, n: outN, nz: outN}, nil
	}
	// cum[i] is the probability of vals[i] or anything after it, summed
	// from the far end so that small tails keep their precision.
	cum := make([]float64, len(vals)+1)
	s, comp := 0.0, 0.0
	for i := len(vals) - 1; i >= 0; i-- {
		s, comp = twoSum(s, vals[i].p, comp)
		cum[i] = s + comp
	}
	rows := make([][]float64, k)
	for j := range rows {
		rows[j] = make([]float64, j*G+1)
	}
	// Row j has mass only in rows[j][wlo[j]:whi[j]].
	wlo, whi := make([]int, k), make([]int, k)
	rows[0][0], whi[0] = 1, 1
	out := &fdist{lo: k * gmin, p: make([]float64, outN)}
	pmf := make([]float64, N+1)
	for i, vv := range vals {
		q, qc := vv.p/cum[i], cum[i+1]/cum[i]
		gi := g(vv.v) - gmin
		for j := k - 1; j >= 0; j-- {
			if wlo[j] >= whi[j] {
				continue
			}
			row := rows[j][wlo[j]:whi[j]]
			b := binomial(pmf, N-j, q, qc)
			r := k - j // this many more dice complete the kept set
			if tail := sumTail(b[min(r, len(b)):]); tail != 0 {
				at := r*gi + wlo[j]
				dst := out.p[at : at+len(row)]
				for s, mass := range row {
					dst[s] += mass * tail
				}
			}
			for cc := 1; cc < r && cc < len(b); cc++ {
				pc := b[cc]
				if pc == 0 {
					continue
				}
				at, to := cc*gi+wlo[j], j+cc
				dst := rows[to][at : at+len(row)]
				for s, mass := range row {
					dst[s] += mass * pc
				}
				if wlo[to] >= whi[to] {
					wlo[to], whi[to] = at, at+len(row)
				} else {
					wlo[to], whi[to] = min(wlo[to], at), max(whi[to], at+len(row))
				}
			}
			p0 := b[0]
			first, last := len(row), 0
			for s, mass := range row {
				mass *= p0
				if mass < tiny {
					mass = 0
				} else {
					first, last = min(first, s), s+1
				}
				row[s] = mass
			}
			if first >= last {
				wlo[j], whi[j] = 0, 0
			} else {
				wlo[j], whi[j] = wlo[j]+first, wlo[j]+last
			}
		}
	}
	return out.tidy(), nil
}

// binomial fills buf with the probabilities of 0..n successes in n trials
// of probability q (qc = 1-q, given separately for precision) and returns
// the filled part. It starts from the mode and normalises, so that nothing
// underflows where it matters.
func binomial(buf []float64, n int, q, qc float64) []float64 {
	b := buf[:n+1]
	clear(b)
	switch {
	case qc <= 0:
		b[n] = 1
		return b
	case q <= 0:
		b[0] = 1
		return b
	}
	mode := min(int(float64(n+1)*q), n)
	r := q / qc
	b[mode] = 1
	for c := mode; c < n; c++ {
		v := b[c] * float64(n-c) / float64(c+1) * r
		if v < 1e-200 {
			break
		}
		b[c+1] = v
	}
	for c := mode; c > 0; c-- {
		v := b[c] * float64(c) / float64(n-c+1) / r
		if v < 1e-200 {
			break
		}
		b[c-1] = v
	}
	sum := sumTail(b)
	for c, v := range b {
		v /= sum
		if v < tiny {
			v = 0
		}
		b[c] = v
	}
	return b
}

// twoSum adds x to the running sum s with compensation c (Neumaier's
// variant of Kahan summation) and returns the new sum and compensation;
// the total is s + c.
func twoSum(s, x, c float64) (float64, float64) {
	t := s + x
	if math.Abs(s) >= math.Abs(x) {
		c += (s - t) + x
	} else {
		c += (x - t) + s
	}
	return t, c
}

// sumTail returns the sum of p, from the last entry to the first, with
// compensation.
func sumTail(p []float64) float64 {
	s, c := 0.0, 0.0
	for i := len(p) - 1; i >= 0; i-- {
		s, c = twoSum(s, p[i], c)
	}
	return s + c
}
