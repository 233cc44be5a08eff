package dice

import (
	"fmt"
	"slices"
	"sync"
)

// Source gives uniformly distributed random integers in [0, n). A
// *rand.Rand from math/rand/v2 is a Source; its IntN has no modulo bias.
// Pass a seeded one to make rolls reproducible.
type Source interface {
	IntN(n int) int
}

// Die is one die as rolled, with what happened to it.
type Die struct {
	// Pool is the index of the pool (in source order) the die belongs to.
	Pool int `json:"pool"`
	// Face is the physical face rolled (1..sides); for a compounded die, the
	// first roll's face.
	Face int `json:"face"`
	// Value is what the die is worth after clamping; for a compounded die,
	// the sum of all its rolls.
	Value int `json:"value"`
	// Rolls lists every face of a compounded (!!) die, in order.
	Rolls []int `json:"rolls,omitempty"`
	// Rerolled marks a roll set aside by r or ro; it does not count.
	Rerolled bool `json:"rerolled,omitempty"`
	// Exploded marks a die whose roll triggered another.
	Exploded bool `json:"exploded,omitempty"`
	// Extra marks a die added by the explosion of the die before it.
	Extra bool `json:"extra,omitempty"`
	// Capped marks a die that would have exploded or rerolled again but had
	// reached the depth limit.
	Capped bool `json:"capped,omitempty"`
	// Dropped marks a die left out by keep or drop.
	Dropped bool `json:"dropped,omitempty"`
	// Success and Failure mark dice counted by a success count.
	Success bool `json:"success,omitempty"`
	Failure bool `json:"failure,omitempty"`
}

// PoolTotal is the subtotal of one pool of dice.
type PoolTotal struct {
	// Expr is the pool's canonical notation.
	Expr string `json:"expr"`
	// Pos is the byte offset of the pool in the expression's source.
	Pos int `json:"pos"`
	// Total is what the pool contributes to the expression.
	Total int `json:"total"`
}

// Result is a roll of an expression that shows its work.
type Result struct {
	// Expr is the expression's canonical notation.
	Expr string `json:"expr"`
	// Total is the value of the expression.
	Total int `json:"total"`
	// Pools holds each pool's subtotal, in source order.
	Pools []PoolTotal `json:"pools"`
	// Dice holds every die rolled, in the order rolled, including dice
	// that were rerolled or dropped.
	Dice []Die `json:"dice"`
}

// Roll rolls the expression, recording every die; a die explodes or rerolls
// at most MaxExplodeDepth extra times.
func (e *Expr) Roll(src Source) (*Result, error) {
	return e.RollDepth(src, MaxExplodeDepth)
}

// RollDepth is like Roll with at most depth extra rolls per die (a depth
// below 0 counts as 0; above MaxExplodeDepth, as MaxExplodeDepth).
func (e *Expr) RollDepth(src Source, depth int) (*Result, error) {
	return e.rollInto(src, depth, &resultBuf{})
}

// RollWith rolls the expression as Roll does and gives the result to f,
// which must keep nothing of it (neither the result nor its pools, dice
// or their rolls) past its return: their memory serves later rolls, so
// that rolling a few dice allocates nothing.
func (e *Expr) RollWith(src Source, f func(*Result)) error {
	buf, _ := resultBufs.Get().(*resultBuf)
	if buf == nil {
		buf = &resultBuf{}
	} else {
		// As a new one, but for the room of a larger roll's dice, which
		// rollInto overwrites die by die.
		*buf = resultBuf{more: buf.more[:0]}
	}
	defer resultBufs.Put(buf)
	res, err := e.rollInto(src, MaxExplodeDepth, buf)
	if err != nil {
		return err
	}
	f(res)
	return nil
}

// resultBufs holds the buffers RollWith lends.
var resultBufs sync.Pool

// rollInto is RollDepth, the result made in buf, which is zero.
func (e *Expr) rollInto(src Source, depth int, buf *resultBuf) (*Result, error) {
	st := newStream(src)
	r := &roller{st: &st, depth: clampDepth(depth), rec: true, pools: e.pools}
	res := &buf.res
	res.Expr = e.canon
	r.res = res
	res.Pools = buf.pools[:0:len(buf.pools)]
	if len(e.pools) > len(buf.pools) {
		res.Pools = make([]PoolTotal, 0, len(e.pools))
	}
	dice := 0
	for i, p := range e.pools {
		res.Pools = append(res.Pools, PoolTotal{Expr: e.poolText[i], Pos: p.at})
		dice += max(p.count, 0)
	}
	res.Dice = buf.dice[:0:len(buf.dice)]
	if dice > len(buf.dice) {
		if n := min(dice, 64); cap(buf.more) < n {
			buf.more = make([]Die, 0, n)
		}
		res.Dice = buf.more[:0]
	}
	res.Total = r.eval(e.root)
	if len(res.Dice) == 0 {
		res.Dice = nil // as a roll of no dice always had it
	}
	if fs, ok := src.(*FaceSource); ok && fs.err != nil {
		return nil, fs.err
	}
	return res, nil
}

// resultBuf holds a Result with room for the pools and dice of a small
// roll, so that rolling one allocates once; more is the room for the dice
// of a larger one, which a buffer RollWith lends again keeps (past a
// roll's dice it may hold an earlier roll's until they are overwritten:
// at most 64 dice).
type resultBuf struct {
	res   Result
	pools [2]PoolTotal
	dice  [4]Die
	more  []Die
}

// Total rolls the expression and returns only its value. It records nothing
// and, for pools of up to 64 dice, allocates nothing.
func (e *Expr) Total(src Source) int {
	st := newStream(src)
	if e.prog != nil {
		return e.prog.run(&st)
	}
	r := roller{st: &st, depth: MaxExplodeDepth, pools: e.pools}
	return r.eval(e.root)
}

// TotalDepth is like Total with at most depth extra rolls per die.
func (e *Expr) TotalDepth(src Source, depth int) int {
	st := newStream(src)
	r := roller{st: &st, depth: clampDepth(depth), pools: e.pools}
	return r.eval(e.root)
}

func clampDepth(d int) int { return min(max(d, 0), MaxExplodeDepth) }

type roller struct {
	st    *stream
	depth int
	rec   bool
	res   *Result
	pools []*poolNode
}

func (r *roller) eval(n node) int {
	switch n := n.(type) {
	case *numNode:
		return n.val
	case *negNode:
		return -r.eval(n.x)
	case *binNode:
		x, y := r.eval(n.x), r.eval(n.y)
		switch n.op {
		case '+':
			return x + y
		case '-':
			return x - y
		case '*':
			return x * y
		default:
			return floorDiv(x, y)
		}
	case *poolNode:
		return r.pool(n)
	}
	return 0
}

// face rolls one physical face, applying the pool's rerolls.
func (r *roller) face(n *poolNode, pool int) (f int, capped bool) {
	f = r.st.face()
	if len(n.reroll) == 0 {
		return f, false
	}
	limit := r.depth
	if n.rerollOnce {
		limit = 1
	}
	for k := 0; n.rerolls(f); k++ {
		if k == limit {
			return f, !n.rerollOnce
		}
		if r.rec {
			r.res.Dice = append(r.res.Dice, Die{Pool: pool, Face: f, Value: n.clamp(n.die.value(f)), Rerolled: true})
		}
		f = r.st.face()
	}
	return f, false
}

// rerolls reports whether face f is rolled again.
func (n *poolNode) rerolls(f int) bool {
	for _, c := range n.reroll {
		if c.match(&n.die, f) {
			return true
		}
	}
	return false
}

// pool rolls a pool and returns its contribution.
func (r *roller) pool(n *poolNode) int {
	idx := 0
	if r.rec {
		idx = slices.Index(r.pools, n)
	}
	var total int
	r.st.use(&n.bat)
	if !r.rec && n.count1 != nil {
		// The common case, kept tight: one table look-up a die.
		total = r.st.sum(n.count1, n.count)
		return total
	}
	if n.keep == nil {
		for range n.count {
			total += r.die(n, idx)
		}
	} else {
		total = r.keep(n, idx)
	}
	if r.rec {
		r.res.Pools[idx].Total = total
	}
	return total
}

// die rolls one die of a pool with its explosions and returns what it
// contributes when there is no keep modifier.
func (r *roller) die(n *poolNode, pool int) int {
	if n.compound || !n.explode {
		v, at := r.single(n, pool)
		return r.scoreAt(n, v, at)
	}
	f, capped := r.face(n, pool)
	total := 0
	for k := 0; ; k++ {
		v := n.clamp(n.die.value(f))
		more := n.expCond.match(&n.die, f)
		if more && k == r.depth {
			capped, more = true, false
		}
		at := r.record(Die{Pool: pool, Face: f, Value: v, Extra: k > 0, Capped: capped, Exploded: more})
		total += r.scoreAt(n, v, at)
		if !more {
			return total
		}
		f, capped = r.face(n, pool)
	}
}

// single rolls one die that stands alone: a plain die, or a compounded die
// with all its explosions added in. It records the die unscored and returns
// its value and its index in the record (-1 when not recording).
func (r *roller) single(n *poolNode, pool int) (v, at int) {
	f, capped := r.face(n, pool)
	v = n.clamp(n.die.value(f))
	if !n.explode {
		return v, r.record(Die{Pool: pool, Face: f, Value: v, Capped: capped})
	}
	d := Die{Pool: pool, Face: f, Capped: capped}
	if r.rec {
		d.Rolls = []int{f}
	}
	for k := 0; n.expCond.match(&n.die, f); k++ {
		if k == r.depth {
			d.Capped = true
			break
		}
		d.Exploded = true
		f, capped = r.face(n, pool)
		d.Capped = d.Capped || capped
		v += n.clamp(n.die.value(f))
		if r.rec {
			d.Rolls = append(d.Rolls, f)
		}
	}
	d.Value = v
	return v, r.record(d)
}

// record appends d to the result when recording and returns its index, or
// -1 when not recording.
func (r *roller) record(d Die) int {
	if !r.rec {
		return -1
	}
	r.res.Dice = append(r.res.Dice, d)
	return len(r.res.Dice) - 1
}

// scoreAt returns what one counted die of value v contributes, marking the
// recorded die at index at (if any) as a success or failure.
func (r *roller) scoreAt(n *poolNode, v, at int) int {
	if n.succ == nil {
		return v
	}
	if at >= 0 {
		d := &r.res.Dice[at]
		d.Success = n.succ.test(v)
		d.Failure = n.fails != nil && n.fails.test(v)
	}
	return n.score(v)
}

// keep rolls a pool with a keep or drop modifier (the parser refuses ! with
// keep, so each die stands alone). Without recording it works in a stack
// buffer for pools of up to 64 dice.
func (r *roller) keep(n *poolNode, pool int) int {
	k, high := n.keep.kept(n.count)
	if r.rec {
		first := len(r.res.Dice)
		for range n.count {
			r.single(n, pool)
		}
		return r.markKept(n, first, k, high)
	}
	var buf [64]int
	vals := buf[:0]
	if n.count > len(buf) {
		vals = make([]int, 0, n.count)
	}
	for range n.count {
		v, _ := r.single(n, pool)
		vals = append(vals, v)
	}
	slices.Sort(vals)
	if high {
		vals = vals[len(vals)-k:]
	} else {
		vals = vals[:k]
	}
	total := 0
	for _, v := range vals {
		total += r.scoreAt(n, v, -1)
	}
	return total
}

// markKept marks the dropped dice among the recorded dice from index first
// on, scores the kept ones and returns the pool's total.
func (r *roller) markKept(n *poolNode, first, k int, high bool) int {
	var idx []int
	for i := first; i < len(r.res.Dice); i++ {
		if !r.res.Dice[i].Rerolled {
			idx = append(idx, i)
		}
	}
	dice := r.res.Dice
	// Order by value, highest first when keeping the highest; among equal
	// values the earlier die ranks first, so the later one is dropped.
	slices.SortStableFunc(idx, func(a, b int) int {
		if high {
			return dice[b].Value - dice[a].Value
		}
		return dice[a].Value - dice[b].Value
	})
	total := 0
	for j, i := range idx {
		if j >= k {
			dice[i].Dropped = true
			continue
		}
		total += r.scoreAt(n, dice[i].Value, i)
	}
	return total
}

// FaceSource plays back physical dice rolled at the table. Each call to IntN
// takes the next face, so the faces must be given in the order the
// expression rolls its dice (left to right, explosions and rerolls right
// after the die that caused them).
type FaceSource struct {
	faces []int
	next  int
	err   error
}

// Faces returns a Source that yields the given physical faces in order.
func Faces(faces ...int) *FaceSource {
	return &FaceSource{faces: faces}
}

// IntN returns the next face minus one. When the faces run out, or a face
// does not fit the die, it records an error (reported by Err and by Roll)
// and returns 0.
func (s *FaceSource) IntN(n int) int {
	if s.err != nil {
		return 0
	}
	if s.next >= len(s.faces) {
		s.err = fmt.Errorf("physical dice: %d given, but the roll needs more", len(s.faces))
		return 0
	}
	f := s.faces[s.next]
	s.next++
	if f < 1 || f > n {
		s.err = fmt.Errorf("physical dice: die %d shows %d, but that die has faces 1 to %d", s.next, f, n)
		return 0
	}
	return f - 1
}

// Err reports the first problem met, if any.
func (s *FaceSource) Err() error { return s.err }

// Unused returns how many faces were given but not yet taken.
func (s *FaceSource) Unused() int { return len(s.faces) - s.next }
