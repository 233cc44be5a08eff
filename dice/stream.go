package dice

import (
	"math/bits"
	"math/rand/v2"
)

// batch describes how to draw many faces of one die from a single 64-bit
// random number: k faces of n sides each, p = n^k possible outcomes, and t,
// the rejection threshold (2^64 mod p) that removes all bias.
//
// The method is Lemire's multiply-and-reject extended to a batch: for a
// uniform 64-bit x, the high words of x·n, then of (its low word)·n, and so
// on k times, are the base-n digits of ⌊x·p / 2^64⌋, and the last low word
// is x·p mod 2^64. Rejecting x when that low word is below t makes the
// number, and so each digit, exactly uniform. The low word can be checked
// at once (one wrapping multiply), so digits are then taken one at a time,
// only as many as the roll needs.
type batch struct {
	n    uint64
	k    int
	p, t uint64
}

func newBatch(sides int) batch {
	n := uint64(sides)
	b := batch{n: n, k: 1, p: n}
	for {
		hi, lo := bits.Mul64(b.p, n)
		if hi != 0 || b.k == 64 {
			break
		}
		b.p = lo
		b.k++
	}
	b.t = -b.p % b.p
	return b
}

// stream hands out faces. When the Source is a *rand.Rand it draws several
// faces from each 64-bit number (see batch); otherwise, as for physical dice,
// it asks the Source for each face in turn. Both ways are exactly uniform.
// Call use before drawing faces of a new die.
type stream struct {
	src  Source
	rr   *rand.Rand
	cur  *batch
	n    uint64 // cur.n
	x    uint64
	left int // faces left in x
}

func newStream(src Source) stream {
	rr, _ := src.(*rand.Rand)
	return stream{src: src, rr: rr}
}

// use switches the stream to faces of the die b, dropping what is left of
// the current batch if it was for another die.
func (s *stream) use(b *batch) {
	if s.cur != b {
		s.cur, s.n, s.left = b, b.n, 0
	}
}

// face returns a face from 1 to n of the die last passed to use.
func (s *stream) face() int {
	if s.left == 0 {
		return s.refill()
	}
	s.left--
	hi, lo := bits.Mul64(s.x, s.n)
	s.x = lo
	return int(hi) + 1
}

func (s *stream) refill() int {
	b := s.cur
	if s.rr == nil {
		return s.src.IntN(int(b.n)) + 1
	}
	x := s.rr.Uint64()
	for x*b.p < b.t {
		x = s.rr.Uint64()
	}
	hi, lo := bits.Mul64(x, b.n)
	s.x, s.left = lo, b.k-1
	return int(hi) + 1
}

// sum draws count faces of the current die and adds up table[face]. It is
// face in a loop, with the stream's state held in registers.
func (s *stream) sum(table []int, count int) int {
	t := 0
	x, left, n := s.x, s.left, s.n
	for range count {
		if left == 0 {
			s.x, s.left = x, 0
			t += table[s.refill()]
			x, left = s.x, s.left
			continue
		}
		left--
		hi, lo := bits.Mul64(x, n)
		x = lo
		t += table[hi+1]
	}
	s.x, s.left = x, left
	return t
}

// fill draws len(buf) faces of the current die and stores table[face] in
// buf.
func (s *stream) fill(buf, table []int) {
	x, left, n := s.x, s.left, s.n
	for i := range buf {
		if left == 0 {
			s.x, s.left = x, 0
			buf[i] = table[s.refill()]
			x, left = s.x, s.left
			continue
		}
		left--
		hi, lo := bits.Mul64(x, n)
		x = lo
		buf[i] = table[hi+1]
	}
	s.x, s.left = x, left
}

// sumMinMax draws count (at least one) faces of the current die and returns
// the sum, the least and the greatest of table[face], for keeping all dice
// but one, or just one, without storing them.
func (s *stream) sumMinMax(table []int, count int) (sum, lo, hi int) {
	x, left, n := s.x, s.left, s.n
	for i := range count {
		var v int
		if left == 0 {
			s.x, s.left = x, 0
			v = table[s.refill()]
			x, left = s.x, s.left
		} else {
			left--
			h, l := bits.Mul64(x, n)
			x = l
			v = table[h+1]
		}
		if i == 0 {
			lo, hi = v, v
		}
		sum += v
		lo, hi = min(lo, v), max(hi, v)
	}
	s.x, s.left = x, left
	return sum, lo, hi
}
