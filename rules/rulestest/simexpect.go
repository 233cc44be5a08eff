package rulestest

import (
	"cmp"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"fray"
	"fray/engine"
	"fray/sheet"
)

// CheckSimExpectIsOddsMean checks that the expected damage a system
// gives the simulator for every attack open (fray.Simulator.SimExpect,
// worked out without the odds) is the Mean of the attack's odds to the
// last bit, along a fight of the system's example sheets
// (examples/ID-party.yaml and examples/ID-foes.yaml, from a package under
// rules/) played with moves picked at random, as targets lose their
// track and fall: the simulator's choice of attack follows SimExpect, so
// any difference would change what it picks; nor may SimExpect refuse an
// attack the rules would take. Fights are played till at least 50
// attacks are checked (at most 8 fights).
func CheckSimExpectIsOddsMean(t *testing.T, sys fray.System, id string) {
	t.Helper()
	sm, ok := sys.(fray.Simulator)
	if !ok {
		t.Fatalf("%s is not a fray.Simulator", id)
	}
	checked := 0
	// Fights one after another, till enough attacks are checked.
	for fight := uint64(0); fight < 8 && checked < 50; fight++ {
		checked += simExpectFight(t, sys, sm, id, fight)
	}
	if checked < 50 {
		t.Errorf("%d attacks checked in 8 fights, want 50 or more", checked)
	}
}

// simExpectFight plays fight number n of CheckSimExpectIsOddsMean and
// returns how many attacks it checked.
func simExpectFight(t *testing.T, sys fray.System, sm fray.Simulator, id string, n uint64) int {
	t.Helper()
	e := engine.New(sys, rand.New(rand.NewPCG(7+n, 8)))
	dir := filepath.Join("..", "..", "examples")
	for _, f := range []struct{ path, side string }{{filepath.Join(dir, id+"-party.yaml"), fray.SidePC}, {filepath.Join(dir, id+"-foes.yaml"), fray.SideNPC}} {
		cs, err := sheet.Load(f.path, sys, f.side)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Join(cs); err != nil {
			t.Fatal(err)
		}
	}
	pick := rand.New(rand.NewPCG(3+n, 4))
	checked := 0
	for step := 0; step < 300; step++ {
		moves := sm.SimMoves(e.State(), nil)
		if len(moves) == 0 {
			break
		}
		for _, m := range moves {
			if m.Kind != fray.SimAttack {
				continue
			}
			got, ok := sm.SimExpect(e.State(), m)
			o, err := e.Odds(m.Cmd)
			switch {
			case err != nil:
				// The rules refuse it (no action left): SimExpect may
				// still price it, as the simulator sets aside an attack
				// Decide refuses.
				continue
			case !ok:
				t.Fatalf("step %d, %s: SimExpect refuses an attack whose odds are %v", step, m.Cmd, o.Bands)
			}
			if math.Float64bits(got) != math.Float64bits(o.Mean) {
				t.Errorf("step %d, %s: SimExpect %v (%#x), the odds' mean %v (%#x)", step, m.Cmd, got, math.Float64bits(got), o.Mean, math.Float64bits(o.Mean))
			}
			checked++
		}
		// A move the rules take, an attack most often, so that the
		// targets lose their track and fall.
		pick.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		if pick.IntN(5) > 0 {
			slices.SortStableFunc(moves, func(a, b fray.SimMove) int { return cmp.Compare(isAttack(b), isAttack(a)) })
		}
		done := false
		for _, m := range moves {
			if _, err := e.Do(m.Cmd); err == nil {
				done = true
				break
			}
		}
		if !done {
			t.Fatalf("step %d: the rules take none of %v", step, moves)
		}
	}
	return checked
}

// isAttack is 1 for an attack, else 0: attacks sort first, descending.
func isAttack(m fray.SimMove) int {
	if m.Kind == fray.SimAttack {
		return 1
	}
	return 0
}
