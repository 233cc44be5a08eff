package dice

import (
	"slices"
	"strconv"
	"strings"
)

// Expr is a parsed dice expression, ready to roll any number of times or to
// turn into an exact distribution. An Expr is immutable and safe for
// concurrent use.
type Expr struct {
	src   string
	root  node
	pools []*poolNode // in source order
	// poolText holds each pool's notation, for Result.Pools.
	poolText []string
	canon    string
	prog     program // what Total runs; nil to walk the tree
}

// String returns the canonical notation of the expression. Parsing it gives
// back an equal expression.
func (e *Expr) String() string { return e.canon }

// Source returns the text the expression was parsed from.
func (e *Expr) Source() string { return e.src }

// Parse reads a dice expression. The error, if any, is an *Error giving the
// position of the problem.
func Parse(src string) (*Expr, error) {
	if len(src) > MaxSource {
		return nil, limitf(src, MaxSource, LimitSource, "the expression is %d bytes long; the limit is %d", len(src), MaxSource)
	}
	p := &parser{src: src, toks: lex(src)}
	root, err := p.parse()
	if err != nil {
		return nil, err
	}
	e := &Expr{src: src, root: root, pools: p.pools}
	var b strings.Builder
	root.write(&b)
	e.canon = b.String()
	e.poolText = make([]string, len(e.pools))
	for i, p := range e.pools {
		var b strings.Builder
		p.write(&b)
		e.poolText[i] = b.String()
	}
	if _, _, err := e.check(root, MaxExplodeDepth); err != nil {
		return nil, err
	}
	e.prog = compile(root)
	return e, nil
}

// MustParse is like Parse but panics on error. It is meant for expressions
// written in the program itself.
func MustParse(src string) *Expr {
	e, err := Parse(src)
	if err != nil {
		panic("dice: MustParse(" + strconv.Quote(src) + "): " + err.Error())
	}
	return e
}

type parser struct {
	src   string
	toks  []token
	i     int
	depth int
	dice  int
	pools []*poolNode
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF && t.kind != tokError {
		p.i++
	}
	return t
}

func (p *parser) is(kind tokKind, val string) bool {
	t := p.peek()
	return t.kind == kind && t.val == val
}

// errAt reports an error at token t; a lexer error token carries its own
// message.
func (p *parser) errAt(t token, format string, args ...any) *Error {
	if t.kind == tokError {
		return errorf(p.src, t.pos, "%s", t.val)
	}
	return errorf(p.src, t.pos, format, args...)
}

func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "the end of the expression"
	case tokNumber:
		return "the number " + t.val
	default:
		return quote(t.val)
	}
}

// parse reads a whole expression:
//
//	input = expr EOF
func (p *parser) parse() (node, error) {
	if p.peek().kind == tokEOF {
		return nil, errorf(p.src, 0, "the expression is empty")
	}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		if t.kind == tokSym && t.val == ")" {
			return nil, p.errAt(t, "this closing parenthesis has no opening one")
		}
		return nil, p.errAt(t, "expected an operator or the end of the expression, found %s", describe(t))
	}
	return n, nil
}

func (p *parser) enter(t token) error {
	p.depth++
	if p.depth > MaxNesting {
		return limitf(p.src, t.pos, LimitNesting, "the expression nests deeper than %d levels", MaxNesting)
	}
	return nil
}

// expr reads a sum:
//
//	expr = term { ("+" | "-") term }
func (p *parser) expr() (node, error) {
	x, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.is(tokSym, "+") || p.is(tokSym, "-") {
		op := p.next()
		y, err := p.term()
		if err != nil {
			return nil, err
		}
		x = &binNode{at: op.pos, op: op.val[0], x: x, y: y}
	}
	return x, nil
}

// term reads a product:
//
//	term = unary { ("*" | "/") unary }
func (p *parser) term() (node, error) {
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.is(tokSym, "*") || p.is(tokSym, "/") {
		op := p.next()
		y, err := p.unary()
		if err != nil {
			return nil, err
		}
		x = &binNode{at: op.pos, op: op.val[0], x: x, y: y}
	}
	return x, nil
}

// unary reads an optionally negated atom:
//
//	unary = "-" unary | atom
func (p *parser) unary() (node, error) {
	t := p.peek()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	if t.kind == tokSym && t.val == "-" {
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &negNode{at: t.pos, x: x}, nil
	}
	return p.atom()
}

// atom reads a number, a pool of dice or a parenthesised expression:
//
//	atom = number | [number] pool | "(" expr ")"
func (p *parser) atom() (node, error) {
	t := p.next()
	switch {
	case t.kind == tokNumber:
		n, err := p.number(t)
		if err != nil {
			return nil, err
		}
		if p.is(tokWord, "d") {
			return p.pool(t.pos, n)
		}
		return &numNode{at: t.pos, val: n}, nil
	case t.kind == tokWord && t.val == "d":
		p.i--
		return p.pool(t.pos, 1)
	case t.kind == tokSym && t.val == "(":
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tokSym || c.val != ")" {
			return nil, p.errAt(c, "expected a closing parenthesis for the one at column %d, found %s", t.pos+1, describe(c))
		}
		return x, nil
	default:
		return nil, p.errAt(t, "expected a number, dice or an opening parenthesis, found %s", describe(t))
	}
}

// number converts a number token, enforcing MaxNumber.
func (p *parser) number(t token) (int, error) {
	if len(t.val) > 10 {
		return 0, limitf(p.src, t.pos, LimitNumber, "the number %s is larger than %d", t.val, MaxNumber)
	}
	n, _ := strconv.Atoi(t.val)
	if n > MaxNumber {
		return 0, limitf(p.src, t.pos, LimitNumber, "the number %s is larger than %d", t.val, MaxNumber)
	}
	return n, nil
}

// signed reads an optionally negative number.
func (p *parser) signed() (int, error) {
	neg := false
	if p.is(tokSym, "-") {
		p.next()
		neg = true
	}
	t := p.next()
	if t.kind != tokNumber {
		return 0, p.errAt(t, "expected a number, found %s", describe(t))
	}
	n, err := p.number(t)
	if neg {
		n = -n
	}
	return n, err
}

// pool reads the die and modifiers after the count:
//
//	pool     = "d" die { modifier }
//	die      = number | "%" | "F" | "f" | "{" signed { "," signed } "}"
//	modifier = "r" ["o"] [point] | "!" ["!"] [point]
//	         | "min" signed | "max" signed
//	         | ("k" | "kh" | "kl" | "dh" | "dl") [number]
//	         | compare | "f" compare
//	point    = ["@"] (compare | number)
//	compare  = ("=" | "<" | "<=" | ">" | ">=") signed
func (p *parser) pool(at, count int) (node, error) {
	dt := p.next() // the "d"
	if count > MaxDice {
		return nil, limitf(p.src, at, LimitDice, "a pool of %d dice is more than the limit of %d", count, MaxDice)
	}
	p.dice += count
	if p.dice > MaxTotalDice {
		return nil, limitf(p.src, at, LimitTotalDice, "the expression rolls more than %d dice in all", MaxTotalDice)
	}
	n := &poolNode{at: at, count: count}
	if err := p.die(dt, &n.die); err != nil {
		return nil, err
	}
	if err := p.modifiers(n); err != nil {
		return nil, err
	}
	n.prepare()
	p.pools = append(p.pools, n)
	return n, nil
}

func (p *parser) die(dt token, d *die) error {
	t := p.next()
	switch {
	case t.kind == tokNumber:
		if len(t.val) > 10 {
			return limitf(p.src, t.pos, LimitSides, "a die of %s sides has more than the limit of %d", t.val, MaxSides)
		}
		s, _ := strconv.Atoi(t.val)
		if s > MaxSides {
			return limitf(p.src, t.pos, LimitSides, "a die of %d sides has more than the limit of %d", s, MaxSides)
		}
		if s < 1 {
			return errorf(p.src, t.pos, "a die needs at least one side")
		}
		*d = die{kind: Standard, sides: s}
	case t.kind == tokSym && t.val == "%":
		*d = die{kind: Percent, sides: 100}
	case t.kind == tokWord && (t.val == "F" || t.val == "f"):
		*d = die{kind: Fudge, sides: 3}
	case t.kind == tokSym && t.val == "{":
		var vals []int
		for {
			if len(vals) == MaxSides {
				return limitf(p.src, p.peek().pos, LimitSides, "a custom die has more than the limit of %d faces", MaxSides)
			}
			v, err := p.signed()
			if err != nil {
				return err
			}
			vals = append(vals, v)
			c := p.next()
			if c.kind == tokSym && c.val == "}" {
				break
			}
			if c.kind != tokSym || c.val != "," {
				return p.errAt(c, "expected a comma or a closing brace in the list of faces, found %s", describe(c))
			}
		}
		*d = die{kind: Custom, sides: len(vals), values: vals}
	default:
		return p.errAt(t, "expected the number of sides, %%, F or {faces} after %q, found %s", dt.val, describe(t))
	}
	return nil
}

func (p *parser) modifiers(n *poolNode) error {
	for {
		t := p.peek()
		dup := func(what string) error {
			return errorf(p.src, t.pos, "this pool already has a %s modifier", what)
		}
		switch {
		case t.kind == tokWord && (t.val == "r" || t.val == "ro"):
			p.next()
			once := t.val == "ro"
			if len(n.reroll) > 0 && once != n.rerollOnce {
				return errorf(p.src, t.pos, "r and ro cannot be mixed in one pool")
			}
			c, ok, err := p.point()
			if err != nil {
				return err
			}
			if !ok {
				c = compare{op: Eq, n: n.die.minValue()}
			}
			n.reroll = append(n.reroll, c)
			n.rerollOnce = once
			if err := p.checkReroll(t, n); err != nil {
				return err
			}
		case t.kind == tokSym && t.val == "!":
			p.next()
			if n.explode {
				return dup("explode")
			}
			n.explode = true
			if p.is(tokSym, "!") {
				p.next()
				n.compound = true
			}
			c, ok, err := p.point()
			if err != nil {
				return err
			}
			if ok {
				n.expCond, n.expSet = c, true
			} else {
				n.expCond = compare{op: Eq, n: n.die.maxValue()}
			}
			if err := p.checkExplode(t, n); err != nil {
				return err
			}
		case t.kind == tokWord && (t.val == "min" || t.val == "max"):
			p.next()
			v, err := p.signed()
			if err != nil {
				return err
			}
			if t.val == "min" {
				if n.minClamp != nil {
					return dup("min")
				}
				n.minClamp = &v
			} else {
				if n.maxClamp != nil {
					return dup("max")
				}
				n.maxClamp = &v
			}
			if n.minClamp != nil && n.maxClamp != nil && *n.minClamp > *n.maxClamp {
				return errorf(p.src, t.pos, "min%d is above max%d", *n.minClamp, *n.maxClamp)
			}
		case t.kind == tokWord && (t.val == "k" || t.val == "kh" || t.val == "kl" || t.val == "dh" || t.val == "dl"):
			p.next()
			if n.keep != nil {
				return dup("keep or drop")
			}
			k := &keepMod{op: map[string]KeepOp{"k": KeepHigh, "kh": KeepHigh, "kl": KeepLow, "dh": DropHigh, "dl": DropLow}[t.val], n: 1}
			if nt := p.peek(); nt.kind == tokNumber {
				p.next()
				v, err := p.number(nt)
				if err != nil {
					return err
				}
				k.n = v
			}
			n.keep = k
		case t.kind == tokSym && isCompare(t.val):
			if n.succ != nil {
				return dup("success count")
			}
			c, err := p.compare()
			if err != nil {
				return err
			}
			n.succ = &c
		case t.kind == tokWord && t.val == "f":
			p.next()
			if n.succ == nil {
				return errorf(p.src, t.pos, "failures (f…) need a success count before them, as in 10d10>=8f1")
			}
			if n.fails != nil {
				return dup("failure count")
			}
			c, ok, err := p.point()
			if err != nil {
				return err
			}
			if !ok {
				return p.errAt(p.peek(), "expected a compare point after f, as in f1 or f<=2, found %s", describe(p.peek()))
			}
			if c.face {
				return errorf(p.src, t.pos, "failures count values, not faces: drop the @")
			}
			n.fails = &c
		default:
			return p.finishPool(n)
		}
	}
}

// finishPool checks the rules that involve several modifiers.
func (p *parser) finishPool(n *poolNode) error {
	if n.keep != nil && n.explode && !n.compound {
		return errorf(p.src, n.at, "keep and drop choose among a pool's dice, and ! adds new dice as it goes; use !! to compound explosions into the die that exploded")
	}
	return nil
}

func isCompare(s string) bool {
	switch s {
	case "=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// compare reads an explicit comparison: ("=" | "<" | "<=" | ">" | ">=") signed.
func (p *parser) compare() (compare, error) {
	t := p.next()
	v, err := p.signed()
	if err != nil {
		return compare{}, err
	}
	op := map[string]CmpOp{"=": Eq, "<": Lt, "<=": Le, ">": Gt, ">=": Ge}[t.val]
	return compare{op: op, n: v}, nil
}

// point reads an optional compare point after r, ro, ! or f. A bare unsigned
// number means equality; "@" makes it test the physical face.
func (p *parser) point() (c compare, ok bool, err error) {
	face := false
	if p.is(tokSym, "@") {
		p.next()
		face = true
	}
	t := p.peek()
	switch {
	case t.kind == tokNumber:
		p.next()
		v, err := p.number(t)
		if err != nil {
			return c, false, err
		}
		return compare{op: Eq, n: v, face: face}, true, nil
	case t.kind == tokSym && isCompare(t.val):
		c, err := p.compare()
		c.face = face
		return c, err == nil, err
	case face:
		return c, false, p.errAt(t, "expected a face number or a comparison after @, found %s", describe(t))
	}
	return c, false, nil
}

// matching counts the faces of d that meet any of the compare points.
// Where a point tests face numbers (a face point, or any point on a die
// whose values are its face numbers) it is an interval of faces, and the
// union of intervals is counted without visiting every face, so that a
// long chain of reroll points on a large die stays cheap. Other dice are
// small (a custom die's faces are written out; Fudge dice have three).
func matching(d *die, cs ...compare) int {
	byFace := d.kind == Standard || d.kind == Percent
	var iv [][2]int
	var rest []compare
	for _, c := range cs {
		if !c.face && !byFace {
			rest = append(rest, c)
			continue
		}
		lo, hi := 1, d.sides
		switch c.op {
		case Eq:
			lo, hi = max(lo, c.n), min(hi, c.n)
		case Lt:
			hi = min(hi, c.n-1)
		case Le:
			hi = min(hi, c.n)
		case Gt:
			lo = max(lo, c.n+1)
		case Ge:
			lo = max(lo, c.n)
		}
		if lo <= hi {
			iv = append(iv, [2]int{lo, hi})
		}
	}
	slices.SortFunc(iv, func(a, b [2]int) int { return a[0] - b[0] })
	k, end := 0, 0
	for _, r := range iv {
		lo := max(r[0], end+1)
		if r[1] >= lo {
			k += r[1] - lo + 1
			end = r[1]
		}
	}
	if len(rest) == 0 {
		return k
	}
	// Value points on a small die: visit the faces the intervals missed.
	for f := 1; f <= d.sides; f++ {
		inIv := false
		for _, r := range iv {
			if f >= r[0] && f <= r[1] {
				inIv = true
				break
			}
		}
		if inIv {
			continue
		}
		for _, c := range rest {
			if c.match(d, f) {
				k++
				break
			}
		}
	}
	return k
}

func (p *parser) checkReroll(t token, n *poolNode) error {
	last := n.reroll[len(n.reroll)-1]
	if matching(&n.die, last) == 0 {
		return errorf(p.src, t.pos, "this reroll matches no face of the die")
	}
	if !n.rerollOnce && matching(&n.die, n.reroll...) == n.die.sides {
		return errorf(p.src, t.pos, "this pool rerolls every face, so it would never stop")
	}
	return nil
}

func (p *parser) checkExplode(t token, n *poolNode) error {
	switch k := matching(&n.die, n.expCond); {
	case k == 0:
		return errorf(p.src, t.pos, "this explosion matches no face of the die")
	case k == n.die.sides:
		return errorf(p.src, t.pos, "this die explodes on every face, so it would never stop")
	}
	return nil
}
