package dice

// check walks the tree and returns bounds [lo, hi] on its value when every
// die makes at most depth extra rolls. It refuses a divisor that can be zero
// and any part whose bounds pass MaxMagnitude, so rolling never overflows.
func (e *Expr) check(n node, depth int) (lo, hi int, err error) {
	switch n := n.(type) {
	case *numNode:
		lo, hi = n.val, n.val
	case *negNode:
		l, h, err := e.check(n.x, depth)
		if err != nil {
			return 0, 0, err
		}
		lo, hi = -h, -l
	case *binNode:
		xl, xh, err := e.check(n.x, depth)
		if err != nil {
			return 0, 0, err
		}
		yl, yh, err := e.check(n.y, depth)
		if err != nil {
			return 0, 0, err
		}
		switch n.op {
		case '+':
			lo, hi = xl+yl, xh+yh
		case '-':
			lo, hi = xl-yh, xh-yl
		case '*':
			if float64(max(-xl, xh))*float64(max(-yl, yh)) > MaxMagnitude {
				return 0, 0, limitf(e.src, n.pos(), LimitMagnitude, "this product can pass the limit of %d", MaxMagnitude)
			}
			lo, hi = corners(xl, xh, yl, yh, func(a, b int) int { return a * b })
		default:
			if yl <= 0 && yh >= 0 {
				return 0, 0, errorf(e.src, n.at, "the divisor can be zero (it ranges from %d to %d)", yl, yh)
			}
			lo, hi = corners(xl, xh, yl, yh, floorDiv)
		}
	case *poolNode:
		dl, dh := n.dieBounds(depth)
		lo, hi = mulBounds(n.keptCount(), dl, dh)
	}
	if lo < -MaxMagnitude || hi > MaxMagnitude {
		return 0, 0, limitf(e.src, n.pos(), LimitMagnitude, "this part of the expression can reach %d, past the limit of %d", pick(hi > MaxMagnitude, hi, lo), MaxMagnitude)
	}
	return lo, hi, nil
}

func pick(c bool, a, b int) int {
	if c {
		return a
	}
	return b
}

// corners returns the least and greatest of f over the corners of a box;
// enough for * and for / with a divisor of one sign. The inputs are within
// MaxMagnitude, so products fit in an int64.
func corners(xl, xh, yl, yh int, f func(a, b int) int) (lo, hi int) {
	a, b, c, d := f(xl, yl), f(xl, yh), f(xh, yl), f(xh, yh)
	return min(a, b, c, d), max(a, b, c, d)
}

// mulBounds returns the bounds of the sum of k terms each in [l, h].
func mulBounds(k, l, h int) (lo, hi int) {
	return k * l, k * h
}

// floorDiv divides rounding towards negative infinity.
func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// keptCount is the number of dice whose values count in the pool's result,
// not counting dice added by ! explosions.
func (n *poolNode) keptCount() int {
	if n.keep == nil {
		return n.count
	}
	k, _ := n.keep.kept(n.count)
	return k
}

// rollBounds returns the bounds of one rolled value after clamping.
func (n *poolNode) rollBounds() (lo, hi int) {
	lo, hi = n.die.minValue(), n.die.maxValue()
	return n.clamp(lo), n.clamp(hi)
}

// clamp applies the pool's min and max modifiers to a rolled value.
func (n *poolNode) clamp(v int) int {
	if n.minClamp != nil && v < *n.minClamp {
		v = *n.minClamp
	}
	if n.maxClamp != nil && v > *n.maxClamp {
		v = *n.maxClamp
	}
	return v
}

// score is what one die of the given value contributes when successes are
// counted: +1 for a success, -1 for a failure, 0 otherwise.
func (n *poolNode) score(v int) int {
	s := 0
	if n.succ.test(v) {
		s++
	}
	if n.fails != nil && n.fails.test(v) {
		s--
	}
	return s
}

// dieBounds returns bounds on what one die of the pool (with its explosions)
// contributes to the pool's result.
func (n *poolNode) dieBounds(depth int) (lo, hi int) {
	rolls := 1
	if n.explode {
		rolls = depth + 1
	}
	l, h := n.rollBounds()
	if n.succ != nil {
		// Each physical die scores at most once; a compounded die once.
		sl, sh := 0, 1
		if n.fails != nil {
			sl = -1
		}
		if n.compound {
			return sl, sh
		}
		return rolls * sl, rolls * sh
	}
	return min(l, rolls*l), max(h, rolls*h)
}

// contrib is what one counted die of value v adds to the pool: its value,
// or its score when successes are counted.
func (n *poolNode) contrib(v int) int {
	if n.succ == nil {
		return v
	}
	return n.score(v)
}

// plain reports whether the pool has no modifiers: it is the sum of its
// dice's values.
func (n *poolNode) plain() bool {
	return len(n.reroll) == 0 && !n.explode && n.minClamp == nil && n.maxClamp == nil && n.keep == nil && n.succ == nil
}
