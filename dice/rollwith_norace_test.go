//go:build !race

package dice_test

import (
	"testing"

	"fray/dice"
)

// TestRollWithAllocatesNothing: RollWith lends its result's memory again,
// so rolling the same expression over and over allocates nothing, however
// many plain dice it rolls (up to 64). Without the race detector only: under it
// a sync.Pool drops what it is given at random.
func TestRollWithAllocatesNothing(t *testing.T) {
	r := newRand(1)
	for _, s := range []string{"3d6+4", "12d6>=5", "10d6", "40d10", "64d6"} {
		e := dice.MustParse(s)
		total := 0
		roll := func() {
			if err := e.RollWith(r, func(res *dice.Result) { total += len(res.Dice) }); err != nil {
				t.Fatal(err)
			}
		}
		roll() // the first roll makes the room
		if n := testing.AllocsPerRun(1000, roll); n != 0 {
			t.Errorf("RollWith(%s) allocates %.1f times per roll", s, n)
		}
		if total == 0 {
			t.Errorf("RollWith(%s) gave no dice", s)
		}
	}
}
