package dice

// A compiled expression is a tree of closures that Total calls instead of
// walking the AST: plain pools become tight loops and constants fold into
// the operators that use them. Pools with modifiers call the roller.
type compiled func(src Source) int

func (e *Expr) compile(n node) compiled {
	switch n := n.(type) {
	case *numNode:
		v := n.val
		return func(Source) int { return v }
	case *negNode:
		x := e.compile(n.x)
		return func(s Source) int { return -x(s) }
	case *binNode:
		x := e.compile(n.x)
		if c, ok := n.y.(*numNode); ok {
			v := c.val
			switch n.op {
			case '+':
				return func(s Source) int { return x(s) + v }
			case '-':
				return func(s Source) int { return x(s) - v }
			case '*':
				return func(s Source) int { return x(s) * v }
			}
		}
		y := e.compile(n.y)
		switch n.op {
		case '+':
			return func(s Source) int { return x(s) + y(s) }
		case '-':
			return func(s Source) int { return x(s) - y(s) }
		case '*':
			return func(s Source) int { return x(s) * y(s) }
		default:
			return func(s Source) int { return floorDiv(x(s), y(s)) }
		}
	case *poolNode:
		if !n.plain() {
			return func(s Source) int {
				r := roller{src: s, depth: MaxExplodeDepth}
				return r.pool(n)
			}
		}
		count, sides := n.count, n.die.sides
		switch n.die.kind {
		case Custom:
			vals := n.die.values
			return func(s Source) int {
				t := 0
				for range count {
					t += vals[s.IntN(sides)]
				}
				return t
			}
		case Fudge:
			return func(s Source) int {
				t := -count
				for range count {
					t += s.IntN(3)
				}
				return t
			}
		default:
			return func(s Source) int {
				t := count
				for range count {
					t += s.IntN(sides)
				}
				return t
			}
		}
	}
	return func(Source) int { return 0 }
}
