package dice

import (
	"math"
	"math/big"
)

// maxExactWork bounds the work of ExactDist, in multiply-adds of one
// machine word each: up to about half a second.
const maxExactWork = 1 << 25

// Exact is a distribution with exact rational probabilities.
type Exact struct {
	// Min is the value of P[0].
	Min int
	// P[i] is the probability of the value Min+i; P has no leading or
	// trailing zeros.
	P []*big.Rat
	// Truncated is the probability that some die reached the depth cap.
	Truncated *big.Rat
	// Depth is the depth used, or 0 when nothing in the expression explodes
	// or rerolls with r.
	Depth int
}

// ExactDist computes the distribution of the expression with exact
// rational probabilities, at the given depth (0 chooses it as Dist does).
// It is meant for small and medium expressions: it uses simpler algorithms
// than Dist and a smaller work limit, past which it returns an *Error with
// Limit LimitDistWork.
func (e *Expr) ExactDist(depth int) (*Exact, error) {
	return e.exactDist(depth, maxExactWork)
}

func (e *Expr) exactDist(depth int, maxWork float64) (*Exact, error) {
	faces := faceCache{}
	depth, used, err := e.chooseDepth(depth, MaxDistWork, faces)
	if err != nil {
		return nil, err
	}
	c := &xcalc{e: e, depth: depth, maxWork: maxWork, ok: big.NewRat(1, 1), faces: faces}
	x, err := c.node(e.root)
	if err != nil {
		return nil, err
	}
	ex := &Exact{Min: x.lo, Truncated: new(big.Rat).Sub(big.NewRat(1, 1), c.ok)}
	if used {
		ex.Depth = depth
	}
	for i := range x.num {
		ex.P = append(ex.P, new(big.Rat).SetFrac(&x.num[i], x.den))
	}
	return ex, nil
}

// xdist is a distribution with exact probabilities num[i]/den for the
// values lo+i.
type xdist struct {
	lo  int
	num []big.Int
	den *big.Int
}

func (x *xdist) hi() int { return x.lo + len(x.num) - 1 }

func xpoint(v int) *xdist {
	return &xdist{lo: v, num: []big.Int{*big.NewInt(1)}, den: big.NewInt(1)}
}

// trim drops zero entries at both ends.
func (x *xdist) trim() *xdist {
	i, j := 0, len(x.num)
	for i < j && x.num[i].Sign() == 0 {
		i++
	}
	for j > i && x.num[j-1].Sign() == 0 {
		j--
	}
	x.num = x.num[i:j]
	x.lo += i
	return x
}

func (x *xdist) neg() *xdist {
	n := len(x.num)
	y := &xdist{lo: -x.hi(), num: make([]big.Int, n), den: x.den}
	for i := range x.num {
		y.num[n-1-i].Set(&x.num[i])
	}
	return y
}

// xcalc computes exact distributions.
type xcalc struct {
	e       *Expr
	depth   int
	work    float64
	maxWork float64
	ok      *big.Rat // probability that no die reaches a cap
	faces   faceCache
}

// chargeMul counts ops products of two numbers each about as long as den,
// at a Karatsuba-like cost.
func (c *xcalc) chargeMul(pos int, ops int, den *big.Int) error {
	return c.chargeBits(pos, ops, float64(den.BitLen()))
}

// chargeBits counts ops products of two numbers of the given length.
func (c *xcalc) chargeBits(pos int, ops int, bits float64) error {
	words := 1 + bits/64
	c.work += float64(ops) * math.Pow(words, 1.6)
	return c.charge(pos, 0, nil)
}

// charge counts ops multiply-adds on numbers about as long as den.
func (c *xcalc) charge(pos int, ops int, den *big.Int) error {
	if ops > 0 {
		c.work += float64(ops) * float64(1+den.BitLen()/64)
	}
	if c.work > c.maxWork {
		return limitf(c.e.src, pos, LimitDistWork, "the exact distribution needs more than %d steps of work; use the floating-point one", int64(c.maxWork))
	}
	return nil
}

func (c *xcalc) alloc(pos, lo, hi int, den *big.Int) (*xdist, error) {
	if n := hi - lo + 1; n > MaxDistSize {
		return nil, limitf(c.e.src, pos, LimitDistSize, "this part of the distribution spans %d values, more than the limit of %d (MaxDistSize)", n, MaxDistSize)
	}
	if err := c.charge(pos, hi-lo+1, den); err != nil {
		return nil, err
	}
	return &xdist{lo: lo, num: make([]big.Int, hi-lo+1), den: den}, nil
}

func (c *xcalc) node(n node) (*xdist, error) {
	switch n := n.(type) {
	case *numNode:
		return xpoint(n.val), nil
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
			return c.conv(n.at, x, y)
		case '-':
			return c.conv(n.at, x, y.neg())
		default:
			return c.pairs(n, x, y)
		}
	case *poolNode:
		return c.pool(n)
	}
	panic("dice: unknown node")
}

// conv returns the distribution of X + Y.
func (c *xcalc) conv(pos int, x, y *xdist) (*xdist, error) {
	den := new(big.Int).Mul(x.den, y.den)
	if err := c.charge(pos, len(x.num)*len(y.num), den); err != nil {
		return nil, err
	}
	z, err := c.alloc(pos, x.lo+y.lo, x.hi()+y.hi(), den)
	if err != nil {
		return nil, err
	}
	var t big.Int
	for i := range x.num {
		if x.num[i].Sign() == 0 {
			continue
		}
		for j := range y.num {
			t.Mul(&x.num[i], &y.num[j])
			z.num[i+j].Add(&z.num[i+j], &t)
		}
	}
	return z.trim(), nil
}

// pairs returns the distribution of X * Y or X / Y.
func (c *xcalc) pairs(n *binNode, x, y *xdist) (*xdist, error) {
	f := func(a, b int) int { return a * b }
	if n.op == '/' {
		if y.lo <= 0 && y.hi() >= 0 {
			return nil, errorf(c.e.src, n.at, "the divisor can be zero (it ranges from %d to %d)", y.lo, y.hi())
		}
		f = floorDiv
	}
	den := new(big.Int).Mul(x.den, y.den)
	if err := c.charge(n.at, len(x.num)*len(y.num), den); err != nil {
		return nil, err
	}
	lo, hi := corners(x.lo, x.hi(), y.lo, y.hi(), f)
	z, err := c.alloc(n.at, lo, hi, den)
	if err != nil {
		return nil, err
	}
	var t big.Int
	for i := range x.num {
		for j := range y.num {
			if x.num[i].Sign() != 0 && y.num[j].Sign() != 0 {
				k := f(x.lo+i, y.lo+j) - lo
				t.Mul(&x.num[i], &y.num[j])
				z.num[k].Add(&z.num[k], &t)
			}
		}
	}
	return z.trim(), nil
}

// pool returns the exact distribution of a pool's contribution, following
// the same steps as calc.pool with simpler algorithms.
func (c *xcalc) pool(n *poolNode) (*xdist, error) {
	if n.count == 0 {
		return xpoint(0), nil
	}
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
	S := big.NewInt(int64(n.die.sides))
	m := big.NewInt(int64(fc.n[1][0] + fc.n[1][1]))
	// One roll ends on a face that is not rerolled with probability
	// px/den, on one that is with py/den.
	den, px, py := new(big.Int).Set(S), big.NewInt(1), big.NewInt(0)
	switch {
	case m.Sign() == 0:
	case n.rerollOnce:
		den.Mul(S, S)
		px.Add(S, m)
		py.Set(m)
	default:
		// den = S^(L+1), px = Σ_{j=0}^{L} m^j S^(L-j), py = m^L.
		L := c.depth
		px.SetInt64(0)
		mj := big.NewInt(1)
		for j := 0; j <= L; j++ {
			t := new(big.Int).Exp(S, big.NewInt(int64(L-j)), nil)
			px.Add(px, t.Mul(t, mj))
			if j < L {
				mj.Mul(mj, m)
			}
		}
		py.Set(mj)
		den.Exp(S, big.NewInt(int64(L+1)), nil)
	}
	if err := c.charge(n.at, n.die.sides, den); err != nil {
		return nil, err
	}
	if err := c.truncate(n.at, n, fc, den, px, py); err != nil {
		return nil, err
	}

	lo, hi := [2]int{1 << 62, 1 << 62}, [2]int{-1 << 62, -1 << 62}
	kind := func(f int) int { return int(ft.kind[f-1] >> 1) }
	for f := 1; f <= n.die.sides; f++ {
		v, k := contrib(f), kind(f)
		lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
	}
	var ab [2]*xdist
	for k := range ab {
		if lo[k] > hi[k] {
			continue
		}
		x, err := c.alloc(n.at, lo[k], hi[k], den)
		if err != nil {
			return nil, err
		}
		ab[k] = x
	}
	for f := 1; f <= n.die.sides; f++ {
		p := px
		if ft.kind[f-1]&1 != 0 {
			p = py
		}
		v, k := contrib(f), kind(f)
		ab[k].num[v-ab[k].lo].Add(&ab[k].num[v-ab[k].lo], p)
	}
	a, b := ab[0].trim(), ab[1]
	x := a
	if n.explode {
		b.trim()
		var err error
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
			return xpoint(0), nil
		case k < n.count:
			return c.keep(n, x, g, k, high)
		}
	}
	if n.succ != nil && !perRoll {
		y := &xdist{lo: -1, num: make([]big.Int, 3), den: x.den}
		for i := range x.num {
			j := g(x.lo+i) + 1
			y.num[j].Add(&y.num[j], &x.num[i])
		}
		x = y.trim()
	}
	acc := x
	for range n.count - 1 {
		var err error
		if acc, err = c.conv(n.at, acc, x); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// truncate multiplies c.ok by the probability that none of the pool's dice
// reaches a cap.
func (c *xcalc) truncate(pos int, n *poolNode, fc faceClasses, den, px, py *big.Int) error {
	frac := func(k int, p *big.Int) *big.Rat {
		t := new(big.Int).Mul(big.NewInt(int64(k)), p)
		return new(big.Rat).SetFrac(t, den)
	}
	a, b := frac(fc.n[0][0], px), frac(fc.n[0][1], px)
	ac, bc := frac(fc.n[1][0], py), frac(fc.n[1][1], py)
	if n.rerollOnce {
		a.Add(a, ac)
		b.Add(b, bc)
		ac, bc = new(big.Rat), new(big.Rat)
	}
	stuck := new(big.Rat).Add(ac, bc) // capped by r on this roll
	t := new(big.Rat).Set(stuck)
	if n.explode {
		t.Add(t, b) // at the cap, an explosion is capped too
		for range c.depth {
			t.Mul(t, b)
			t.Add(t, stuck)
		}
	}
	if t.Sign() == 0 {
		return nil
	}
	// (1-t)^count is about count times as long as t.
	if err := c.chargeBits(pos, 1, float64(n.count)*float64(t.Denom().BitLen())); err != nil {
		return err
	}
	ok := new(big.Rat).Sub(big.NewRat(1, 1), t)
	pow := new(big.Rat).SetFrac(
		new(big.Int).Exp(ok.Num(), big.NewInt(int64(n.count)), nil),
		new(big.Int).Exp(ok.Denom(), big.NewInt(int64(n.count)), nil))
	c.ok.Mul(c.ok, pow)
	return nil
}

// chain returns the distribution of one die with its explosions:
// C_depth = a + b, C_k = a + b * C_{k+1}, the die is C_0.
func (c *xcalc) chain(pos int, a, b *xdist) (*xdist, error) {
	x, err := c.alloc(pos, min(a.lo, b.lo), max(a.hi(), b.hi()), a.den)
	if err != nil {
		return nil, err
	}
	for _, y := range []*xdist{a, b} {
		for i := range y.num {
			x.num[y.lo-x.lo+i].Add(&x.num[y.lo-x.lo+i], &y.num[i])
		}
	}
	for range c.depth {
		bx, err := c.conv(pos, b, x)
		if err != nil {
			return nil, err
		}
		y, err := c.alloc(pos, min(a.lo, bx.lo), max(a.hi(), bx.hi()), bx.den)
		if err != nil {
			return nil, err
		}
		copy(y.num[bx.lo-y.lo:], bx.num)
		for i := range a.num {
			t := new(big.Int).Mul(&a.num[i], x.den)
			y.num[a.lo-y.lo+i].Add(&y.num[a.lo-y.lo+i], t)
		}
		x = y.trim()
	}
	return x, nil
}

// keep returns the distribution of the sum of g over the k most preferred
// (highest, or lowest) of n.count dice distributed as X, by summing over
// the value t of the k-th preferred die, the number a of dice preferred to
// it and the number e of dice equal to it:
//
//	P = Σ C(N,a) C(N-a,e) P(=t)^e P(after t)^(N-a-e) · (X before t)^{*a} shifted by (k-a)·g(t)
//
// where (X before t)^{*a} is the a-fold sum of g over the preferred values,
// with their probabilities (not conditioned).
func (c *xcalc) keep(n *poolNode, x *xdist, g func(int) int, k int, high bool) (*xdist, error) {
	N := n.count
	var vals []int // the values of X in order of preference, as indices
	for i := range x.num {
		if x.num[i].Sign() != 0 {
			vals = append(vals, i)
		}
	}
	if high {
		for i, j := 0, len(vals)-1; i < j; i, j = i+1, j-1 {
			vals[i], vals[j] = vals[j], vals[i]
		}
	}
	gmin, gmax := 1<<62, -1<<62
	for _, i := range vals {
		gmin, gmax = min(gmin, g(x.lo+i)), max(gmax, g(x.lo+i))
	}
	if err := c.chargeBits(n.at, 1, float64(N)*float64(x.den.BitLen())); err != nil {
		return nil, err
	}
	den := new(big.Int).Exp(x.den, big.NewInt(int64(N)), nil)
	out, err := c.alloc(n.at, k*gmin, k*gmax, den)
	if err != nil {
		return nil, err
	}
	after := new(big.Int)
	for _, i := range vals {
		after.Add(after, &x.num[i])
	}
	for ti, t := range vals {
		eq := &x.num[t]
		after.Sub(after, eq)
		gt := g(x.lo + t)
		// u is the a-fold sum of g over the values before t, in g-space
		// from a*gmin.
		u := &xdist{lo: 0, num: []big.Int{*big.NewInt(1)}, den: big.NewInt(1)}
		for a := 0; a < k && a <= N; a++ {
			// E = C(N,a) Σ_{e=k-a}^{N-a} C(N-a,e) eq^e after^(N-a-e): each
			// term is about as long as den times 2^N.
			bits := float64(den.BitLen() + N)
			if err := c.chargeBits(n.at, 4*(N-a+1), bits); err != nil {
				return nil, err
			}
			if err := c.charge(n.at, len(u.num), den); err != nil {
				return nil, err
			}
			E := binomSum(N-a, k-a, eq, after)
			E.Mul(E, new(big.Int).Binomial(int64(N), int64(a)))
			if E.Sign() != 0 {
				// The sum is a·gmin + i from u, plus (k-a)·g(t).
				base := a*gmin + (k-a)*gt - out.lo
				var p big.Int
				for i := range u.num {
					p.Mul(&u.num[i], E)
					out.num[base+i].Add(&out.num[base+i], &p)
				}
			}
			if ti == 0 {
				break // nothing is preferred to the first value
			}
			// u = u * (g over the values before t), in g-space.
			w := &xdist{lo: 0, num: make([]big.Int, len(u.num)+gmax-gmin)}
			if err := c.charge(n.at, len(u.num)*ti, den); err != nil {
				return nil, err
			}
			for _, j := range vals[:ti] {
				off := g(x.lo+j) - gmin
				for i := range u.num {
					var p big.Int
					p.Mul(&u.num[i], &x.num[j])
					w.num[off+i].Add(&w.num[off+i], &p)
				}
			}
			u = w
		}
	}
	return out.trim(), nil
}

// binomSum returns Σ_{e=lo}^{n} C(n,e) p^e q^(n-e), running e down from n
// so that every step is a product or an exact quotient by a small number.
func binomSum(n, lo int, p, q *big.Int) *big.Int {
	sum := new(big.Int)
	switch {
	case lo > n || p.Sign() == 0:
		return sum // every term has p^e with e >= lo >= 1
	case q.Sign() == 0:
		return sum.Exp(p, big.NewInt(int64(n)), nil) // only e = n
	}
	pPow := new(big.Int).Exp(p, big.NewInt(int64(n)), nil)
	qPow, binom, t := big.NewInt(1), big.NewInt(1), new(big.Int)
	for e := n; ; e-- {
		t.Mul(binom, pPow)
		sum.Add(sum, t.Mul(t, qPow))
		if e == lo {
			return sum
		}
		pPow.Quo(pPow, p)
		qPow.Mul(qPow, q)
		binom.Mul(binom, big.NewInt(int64(e)))
		binom.Quo(binom, big.NewInt(int64(n-e+1)))
	}
}
