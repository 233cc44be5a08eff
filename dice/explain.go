package dice

import (
	"fmt"
	"strconv"
	"strings"
)

// NumPools returns the number of dice pools in the expression.
func (e *Expr) NumPools() int { return len(e.pools) }

// DieKind returns the kind of die rolled by pool i (in source order).
func (e *Expr) DieKind(i int) DieKind { return e.pools[i].die.kind }

// FaceValue returns what face f of pool i's die is worth before clamping.
func (e *Expr) FaceValue(i, f int) int { return e.pools[i].die.value(f) }

// CountsSuccesses reports whether pool i counts successes rather than
// adding up values.
func (e *Expr) CountsSuccesses(i int) bool { return e.pools[i].succ != nil }

// Explain describes in words how the expression is read: how its operators
// group, and for each pool the steps in the order they apply. It is what
// "fray roll --explain" prints.
func (e *Expr) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", e.canon)
	if _, ok := e.root.(*poolNode); !ok {
		b.WriteString("  grouped: ")
		grouped(&b, e.root, true)
		b.WriteString("\n")
	}
	for _, p := range e.pools {
		var pb strings.Builder
		p.write(&pb)
		fmt.Fprintf(&b, "  %s (column %d):\n", pb.String(), p.at+1)
		for i, s := range p.steps() {
			fmt.Fprintf(&b, "    %d. %s\n", i+1, s)
		}
	}
	return b.String()
}

// grouped writes the expression with every operation in parentheses.
func grouped(b *strings.Builder, n node, top bool) {
	switch n := n.(type) {
	case *binNode:
		if !top {
			b.WriteByte('(')
		}
		grouped(b, n.x, false)
		fmt.Fprintf(b, " %c ", n.op)
		grouped(b, n.y, false)
		if !top {
			b.WriteByte(')')
		}
	case *negNode:
		b.WriteString("-")
		grouped(b, n.x, false)
	default:
		n.write(b)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func (c compare) describe() string {
	what := "a value"
	if c.face {
		what = "a face"
	}
	op := map[CmpOp]string{Eq: "equal to", Lt: "below", Le: "of at most", Gt: "above", Ge: "of at least"}[c.op]
	if c.face {
		op = map[CmpOp]string{Eq: "numbered", Lt: "numbered below", Le: "numbered at most", Gt: "numbered above", Ge: "numbered at least"}[c.op]
	}
	return fmt.Sprintf("%s %s %d", what, op, c.n)
}

// steps lists what the pool does, in the order it is done.
func (p *poolNode) steps() []string {
	var s []string
	var die string
	switch p.die.kind {
	case Percent:
		die = "percentile dice (faces 1 to 100)"
	case Fudge:
		die = "Fudge dice (worth -1, 0 or +1)"
	case Custom:
		vals := make([]string, len(p.die.values))
		for i, v := range p.die.values {
			vals[i] = fmt.Sprintf("%d→%d", i+1, v)
		}
		die = fmt.Sprintf("custom dice of %d faces, worth %s", p.die.sides, strings.Join(vals, " "))
	default:
		die = fmt.Sprintf("dice of %d sides (faces 1 to %d)", p.die.sides, p.die.sides)
		if p.count == 1 {
			die = fmt.Sprintf("die of %d sides (faces 1 to %d)", p.die.sides, p.die.sides)
		}
	}
	if p.count == 1 {
		die = strings.Replace(strings.Replace(die, "dice", "die", 1), "Fudge die", "Fudge die", 1)
	}
	s = append(s, fmt.Sprintf("roll %d %s", p.count, die))
	if len(p.reroll) > 0 {
		conds := make([]string, len(p.reroll))
		for i, c := range p.reroll {
			conds[i] = c.describe()
		}
		if p.rerollOnce {
			s = append(s, "reroll "+strings.Join(conds, " or ")+" once; the new roll stands")
		} else {
			s = append(s, "reroll "+strings.Join(conds, " or ")+", again while it matches (up to the depth limit)")
		}
	}
	if p.explode {
		how := "roll one more die and add it to the pool"
		if p.compound {
			how = "roll again and add the roll into the same die"
		}
		s = append(s, fmt.Sprintf("explode on %s: %s, which may explode in turn (up to the depth limit)", p.expCond.describe(), how))
	}
	if p.minClamp != nil {
		s = append(s, fmt.Sprintf("raise each value below %d to %d", *p.minClamp, *p.minClamp))
	}
	if p.maxClamp != nil {
		s = append(s, fmt.Sprintf("lower each value above %d to %d", *p.maxClamp, *p.maxClamp))
	}
	if p.keep != nil {
		what := map[KeepOp]string{KeepHigh: "keep the highest", KeepLow: "keep the lowest", DropHigh: "drop the highest", DropLow: "drop the lowest"}[p.keep.op]
		s = append(s, fmt.Sprintf("%s %s", what, plural(p.keep.n, "die", "dice")))
	}
	kept := "dice"
	if p.keep != nil {
		kept = "kept dice"
	}
	if p.succ != nil {
		line := fmt.Sprintf("count each of the %s with %s as a success (+1)", kept, p.succ.describe())
		if p.fails != nil {
			line += fmt.Sprintf(" and each with %s as a failure (-1)", p.fails.describe())
		}
		s = append(s, line)
	} else {
		s = append(s, fmt.Sprintf("add up the values of the %s", kept))
	}
	return s
}
