package bench_test

import (
	"math/rand/v2"
	"testing"

	jdice "github.com/justinian/dice"

	"fray/dice"
)

// pairs names the same roll in each library's notation. justinian/dice
// writes "count the dice showing 5 or more" as 12d6v5.
var pairs = []struct{ fray, peer string }{
	{"3d6+4", "3d6+4"},
	{"1d20+5", "1d20+5"},
	{"4d6kh3", "4d6kh3"},
	{"12d6>=5", "12d6v5"},
}

// TestSameRange checks that both libraries read each pair as the same roll:
// every peer result lies in fray's range, and the means agree.
func TestSameRange(t *testing.T) {
	for _, p := range pairs {
		e := dice.MustParse(p.fray)
		d, err := e.Dist(dice.DistOptions{})
		if err != nil {
			t.Fatal(err)
		}
		const n = 20000
		sum := 0
		for range n {
			res, _, err := jdice.Roll(p.peer)
			if err != nil {
				t.Fatalf("justinian/dice %q: %v", p.peer, err)
			}
			v := res.Int()
			if v < d.Min || v > d.Max() {
				t.Fatalf("justinian/dice %q rolled %d, outside fray's %d..%d", p.peer, v, d.Min, d.Max())
			}
			sum += v
		}
		mean := float64(sum) / n
		// Four standard errors of the mean.
		if tol := 4 * d.StdDev() / 141.42; mean < d.Mean()-tol || mean > d.Mean()+tol {
			t.Errorf("%s: justinian/dice mean %.3f, fray exact mean %.3f", p.fray, mean, d.Mean())
		}
	}
}

// BenchmarkFray rolls parsed expressions: the way a program uses fray.
func BenchmarkFray(b *testing.B) {
	for _, p := range pairs {
		e := dice.MustParse(p.fray)
		r := rand.New(rand.NewPCG(1, 2))
		b.Run(p.fray, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.Total(r)
			}
		})
	}
}

// BenchmarkJustinian rolls with github.com/justinian/dice, which parses
// its string (with regular expressions) on every roll: it has no parsed form.
func BenchmarkJustinian(b *testing.B) {
	for _, p := range pairs {
		b.Run(p.fray, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := jdice.Roll(p.peer); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
