package dice

import (
	"strconv"
	"strings"
)

// A node is one element of a parsed expression. Every node knows the byte
// offset in the source where it starts, its canonical notation, and the
// smallest and largest value it can take at a given explosion depth.
type node interface {
	// pos is the byte offset of the node in the source text.
	pos() int
	// write appends the canonical notation of the node to b.
	write(b *strings.Builder)
}

// numNode is an integer literal.
type numNode struct {
	at  int
	val int
}

// negNode is unary minus.
type negNode struct {
	at int
	x  node
}

// binNode is one of + - * / between two expressions. Division rounds down
// (towards negative infinity).
type binNode struct {
	at   int
	op   byte // '+', '-', '*' or '/'
	x, y node
}

// DieKind tells how a die's faces are numbered and valued.
type DieKind uint8

// The kinds of die.
const (
	Standard DieKind = iota // dS: faces 1..S, each worth its number
	Percent                 // d%: faces 1..100
	Fudge                   // dF: three faces worth -1, 0, +1
	Custom                  // d{a,b,...}: face i is worth the i-th listed value
)

// die describes one kind of die. A die has Sides physical faces numbered
// 1..Sides; rolling picks one uniformly. The value of face i is i for
// Standard and Percent dice, i-2 for Fudge dice and values[i-1] for Custom dice.
type die struct {
	kind   DieKind
	sides  int
	values []int // Custom only
}

// value returns the value of physical face f (1-based).
func (d *die) value(f int) int {
	switch d.kind {
	case Fudge:
		return f - 2
	case Custom:
		return d.values[f-1]
	default:
		return f
	}
}

// maxValue and minValue return the extreme face values.
func (d *die) maxValue() int {
	m := d.value(1)
	for f := 2; f <= d.sides; f++ {
		m = max(m, d.value(f))
	}
	return m
}

func (d *die) minValue() int {
	m := d.value(1)
	for f := 2; f <= d.sides; f++ {
		m = min(m, d.value(f))
	}
	return m
}

// CmpOp is a comparison in a compare point.
type CmpOp uint8

// The comparisons of a compare point.
const (
	Eq CmpOp = iota // =N
	Lt              // <N
	Le              // <=N
	Gt              // >N
	Ge              // >=N
)

var cmpText = [...]string{Eq: "=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

// compare is a compare point such as >=5. By default it tests a die's value;
// with face set (written @ before the comparison, as in !@6) it tests the
// physical face number instead, which matters on custom dice whose faces
// carry other values.
type compare struct {
	op   CmpOp
	n    int
	face bool
}

// match reports whether face f of d meets the compare point.
func (c compare) match(d *die, f int) bool {
	v := f
	if !c.face {
		v = d.value(f)
	}
	return c.test(v)
}

// test applies the comparison to a plain number.
func (c compare) test(v int) bool {
	switch c.op {
	case Lt:
		return v < c.n
	case Le:
		return v <= c.n
	case Gt:
		return v > c.n
	case Ge:
		return v >= c.n
	default:
		return v == c.n
	}
}

// KeepOp selects which dice of a pool count.
type KeepOp uint8

// The keep and drop modifiers.
const (
	KeepHigh KeepOp = iota // khN: keep the N highest
	KeepLow                // klN: keep the N lowest
	DropHigh               // dhN: drop the N highest
	DropLow                // dlN: drop the N lowest
)

var keepText = [...]string{KeepHigh: "kh", KeepLow: "kl", DropHigh: "dh", DropLow: "dl"}

// poolNode is NdS with its modifiers. Whatever order the modifiers are
// written in, they apply in this order:
//
//  1. reroll (r, ro) on the face just rolled;
//  2. explode (!, !!) on the face that stands after rerolling;
//  3. clamp (min, max) of each rolled value;
//  4. keep or drop (kh kl dh dl) among the pool's dice;
//  5. count successes (>=N …) and failures (f…) among the dice kept,
//     otherwise sum the values kept.
type poolNode struct {
	at    int
	count int
	die   die

	reroll     []compare // faces that are rolled again; empty for none
	rerollOnce bool      // ro: at most one reroll per die

	explode  bool
	compound bool    // !!: exploded rolls add into one die
	expCond  compare // valid when explode is set
	expSet   bool    // expCond was written, not the default

	minClamp, maxClamp *int

	keep  *keepMod
	succ  *compare // success compare point; nil means sum values
	fails *compare // failure compare point; only with succ

	// Filled in once parsed, for rolling fast:
	bat    batch // how to draw faces of this die in batches
	value  []int // value[f]: face f's value after clamping, for dice of up to tableSides faces
	count1 []int // count1[f]: what face f contributes alone (value or score); nil with reroll, explode or keep
}

// tableSides is the most faces for which a pool keeps per-face tables.
const tableSides = 256

// prepare fills in the tables used for rolling.
func (n *poolNode) prepare() {
	n.bat = newBatch(n.die.sides)
	if n.die.sides > tableSides {
		return
	}
	n.value = make([]int, n.die.sides+1)
	for f := 1; f <= n.die.sides; f++ {
		n.value[f] = n.clamp(n.die.value(f))
	}
	if len(n.reroll) > 0 || n.explode || n.keep != nil {
		return
	}
	n.count1 = make([]int, n.die.sides+1)
	for f := 1; f <= n.die.sides; f++ {
		n.count1[f] = n.value[f]
		if n.succ != nil {
			n.count1[f] = n.score(n.value[f])
		}
	}
}

// keepMod is a keep or drop modifier.
type keepMod struct {
	op KeepOp
	n  int
}

// kept returns how many of n dice are kept and whether the highest are kept.
func (k *keepMod) kept(n int) (count int, high bool) {
	switch k.op {
	case KeepHigh:
		return min(k.n, n), true
	case KeepLow:
		return min(k.n, n), false
	case DropHigh:
		return max(n-k.n, 0), false
	default:
		return max(n-k.n, 0), true
	}
}

func (n *numNode) pos() int  { return n.at }
func (n *negNode) pos() int  { return n.at }
func (n *binNode) pos() int  { return n.at }
func (n *poolNode) pos() int { return n.at }

func (n *numNode) write(b *strings.Builder) { b.WriteString(strconv.Itoa(n.val)) }

func (n *negNode) write(b *strings.Builder) {
	b.WriteByte('-')
	writeOperand(b, n.x, precUnary, false)
}

func (n *binNode) write(b *strings.Builder) {
	p := precOf(n.op)
	writeOperand(b, n.x, p, false)
	b.WriteByte(n.op)
	writeOperand(b, n.y, p, true)
}

// Operator precedence, loosest first.
const (
	precAdd = iota + 1
	precMul
	precUnary
	precAtom
)

func precOf(op byte) int {
	if op == '*' || op == '/' {
		return precMul
	}
	return precAdd
}

func nodePrec(n node) int {
	switch n := n.(type) {
	case *binNode:
		return precOf(n.op)
	case *negNode:
		return precUnary
	case *numNode:
		if n.val < 0 {
			return precUnary
		}
	}
	return precAtom
}

// writeOperand writes x as an operand of an operator with precedence p,
// adding parentheses where the canonical form needs them. Operators are left
// associative, so a right operand of equal precedence is parenthesised.
func writeOperand(b *strings.Builder, x node, p int, right bool) {
	xp := nodePrec(x)
	if xp < p || (right && xp == p) || (p == precUnary && xp == precUnary) {
		b.WriteByte('(')
		x.write(b)
		b.WriteByte(')')
		return
	}
	x.write(b)
}

func (c compare) write(b *strings.Builder, bareEq bool) {
	if c.face {
		b.WriteByte('@')
	}
	// A bare number stands for =N after r and !, but only when unsigned:
	// 1d6!-1 is an explosion followed by minus one.
	if c.op != Eq || !bareEq || c.n < 0 {
		b.WriteString(cmpText[c.op])
	}
	b.WriteString(strconv.Itoa(c.n))
}

func (n *poolNode) write(b *strings.Builder) {
	b.WriteString(strconv.Itoa(n.count))
	b.WriteByte('d')
	switch n.die.kind {
	case Percent:
		b.WriteByte('%')
	case Fudge:
		b.WriteByte('F')
	case Custom:
		b.WriteByte('{')
		for i, v := range n.die.values {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(v))
		}
		b.WriteByte('}')
	default:
		b.WriteString(strconv.Itoa(n.die.sides))
	}
	for _, c := range n.reroll {
		b.WriteByte('r')
		if n.rerollOnce {
			b.WriteByte('o')
		}
		c.write(b, true)
	}
	if n.explode {
		b.WriteByte('!')
		if n.compound {
			b.WriteByte('!')
		}
		// The explosion's compare point is written when it is not the
		// default, or when a success count follows (so that the count is not
		// read back as the explosion's compare point).
		if n.expSet || n.succ != nil {
			n.expCond.write(b, true)
		}
	}
	if n.minClamp != nil {
		b.WriteString("min")
		b.WriteString(strconv.Itoa(*n.minClamp))
	}
	if n.maxClamp != nil {
		b.WriteString("max")
		b.WriteString(strconv.Itoa(*n.maxClamp))
	}
	if n.keep != nil {
		b.WriteString(keepText[n.keep.op])
		b.WriteString(strconv.Itoa(n.keep.n))
	}
	if n.succ != nil {
		n.succ.write(b, false)
	}
	if n.fails != nil {
		b.WriteByte('f')
		n.fails.write(b, true)
	}
}
