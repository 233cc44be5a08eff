package kit_test

import (
	"math"
	"testing"

	"fray/rules/kit"
)

func TestFixedDist(t *testing.T) {
	d := kit.FixedDist("2d6")
	for v, want := range map[int]float64{2: 1.0 / 36, 7: 6.0 / 36, 12: 1.0 / 36, 13: 0} {
		if got := d.Prob(v); math.Abs(got-want) > 1e-12 {
			t.Errorf("P(2d6 = %d) = %v; want %v", v, got, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("FixedDist(2d) did not panic; want a panic for notation that does not parse")
		}
	}()
	kit.FixedDist("2d")
}
