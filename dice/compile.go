package dice

// A program is an expression flattened into postfix steps, which Total runs
// in one loop with a small stack instead of walking the tree: plain pools
// become a table look-up per die, constants fold into the operator that
// uses them, and small keep pools sort in a buffer. Pools with rerolls or
// explosions call the roller. Everything draws the same faces in the same
// order as Roll, so Total and Roll agree for the same seed.
type program []step

type opcode uint8

const (
	opConst    opcode = iota // push val
	opTable                  // push the sum of count1 over the pool's dice
	opKeep                   // push a small keep pool, sorted in a buffer
	opPool                   // push the roller's result for the pool
	opNeg                    // negate the top
	opAdd                    // pop y, x; push x+y (likewise below)
	opSub                    //
	opMul                    //
	opDiv                    //
	opAddConst               // top += val
	opSubConst               // top -= val
	opMulConst               // top *= val
)

type step struct {
	op   opcode
	val  int
	pool *poolNode
}

// maxStack is the deepest stack a program may use; deeper expressions are
// rolled by walking the tree.
const maxStack = 16

// compile flattens the tree, or returns nil when it needs more stack than
// maxStack.
func compile(root node) program {
	var p program
	if depth := p.emit(root); depth > maxStack {
		return nil
	}
	return p
}

// emit appends the steps for n and returns the stack depth they need.
func (p *program) emit(n node) int {
	switch n := n.(type) {
	case *numNode:
		*p = append(*p, step{op: opConst, val: n.val})
		return 1
	case *negNode:
		d := p.emit(n.x)
		*p = append(*p, step{op: opNeg})
		return d
	case *binNode:
		dx := p.emit(n.x)
		if c, ok := n.y.(*numNode); ok && n.op != '/' {
			op := map[byte]opcode{'+': opAddConst, '-': opSubConst, '*': opMulConst}[n.op]
			*p = append(*p, step{op: op, val: c.val})
			return dx
		}
		dy := p.emit(n.y)
		op := map[byte]opcode{'+': opAdd, '-': opSub, '*': opMul, '/': opDiv}[n.op]
		*p = append(*p, step{op: op})
		return max(dx, dy+1)
	case *poolNode:
		switch {
		case n.count1 != nil:
			*p = append(*p, step{op: opTable, pool: n})
		case n.keep != nil && !n.explode && len(n.reroll) == 0 && n.value != nil && n.count <= 16:
			*p = append(*p, step{op: opKeep, pool: n})
		default:
			*p = append(*p, step{op: opPool, pool: n})
		}
		return 1
	}
	return 1
}

// run executes the program with faces from st.
func (p program) run(st *stream) int {
	var stack [maxStack]int
	sp := 0
	for i := range p {
		s := &p[i]
		switch s.op {
		case opConst:
			stack[sp] = s.val
			sp++
		case opTable:
			n := s.pool
			st.use(&n.bat)
			stack[sp] = st.sum(n.count1, n.count)
			sp++
		case opKeep:
			stack[sp] = smallKeep(s.pool, st)
			sp++
		case opPool:
			r := roller{st: st, depth: MaxExplodeDepth}
			stack[sp] = r.pool(s.pool)
			sp++
		case opNeg:
			stack[sp-1] = -stack[sp-1]
		case opAddConst:
			stack[sp-1] += s.val
		case opSubConst:
			stack[sp-1] -= s.val
		case opMulConst:
			stack[sp-1] *= s.val
		default:
			sp--
			x, y := stack[sp-1], stack[sp]
			switch s.op {
			case opAdd:
				x += y
			case opSub:
				x -= y
			case opMul:
				x *= y
			default:
				x = floorDiv(x, y)
			}
			stack[sp-1] = x
		}
	}
	return stack[0]
}

// smallKeep rolls a keep pool of at most 16 dice with no rerolls or
// explosions. Keeping all but one, or just one, needs only the sum and the
// extremes, found without branches; other cases sort the values in a buffer.
func smallKeep(n *poolNode, st *stream) int {
	st.use(&n.bat)
	k, high := n.keep.kept(n.count)
	if n.count > 0 && (k == n.count-1 || k == 1) {
		sum, lo, hi := 0, 0, 0
		if n.succ == nil {
			sum, lo, hi = st.sumMinMax(n.value, n.count)
		} else {
			// Scores are not monotonic in the value: keep the values for
			// choosing, and score them.
			var buf [16]int
			vals := buf[:n.count]
			st.fill(vals, n.value)
			lo, hi = vals[0], vals[0]
			for _, v := range vals {
				sum += n.score(v)
				lo, hi = min(lo, v), max(hi, v)
			}
			lo, hi = n.score(lo), n.score(hi)
		}
		switch {
		case k == n.count-1 && high:
			return sum - lo
		case k == n.count-1:
			return sum - hi
		case high:
			return hi
		default:
			return lo
		}
	}
	var buf [16]int
	vals := buf[:n.count]
	st.fill(vals, n.value)
	// Insertion sort: the fastest for so few.
	for i := 1; i < len(vals); i++ {
		v := vals[i]
		j := i
		for ; j > 0 && vals[j-1] > v; j-- {
			vals[j] = vals[j-1]
		}
		vals[j] = v
	}
	lo, hi := 0, k
	if high {
		lo, hi = n.count-k, n.count
	}
	t := 0
	for _, v := range vals[lo:hi] {
		t += n.contrib(v)
	}
	return t
}
