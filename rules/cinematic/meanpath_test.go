package cinematic_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
	"fray/sheet"
)

// TestSimExpectIsOddsMean checks that the expected damage the simulator
// is given for every attack open (SimExpect, worked out without the odds)
// is the Mean of the attack's odds to the last bit, along a fight of the
// example sheets played with moves picked at random, as targets lose
// Health and fall: the simulator's choice of attack follows it, so any
// difference would change what it picks.
func TestSimExpectIsOddsMean(t *testing.T) {
	sys := cinematic.New()
	e := engine.New(sys, rand.New(rand.NewPCG(7, 8)))
	for _, f := range []struct{ path, side string }{{"../../examples/cinematic-party.yaml", fray.SidePC}, {"../../examples/cinematic-foes.yaml", fray.SideNPC}} {
		cs, err := sheet.Load(f.path, sys, f.side)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Join(cs); err != nil {
			t.Fatal(err)
		}
	}
	pick := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for step := 0; step < 300; step++ {
		moves := sys.SimMoves(e.State(), nil)
		if len(moves) == 0 {
			break
		}
		for _, m := range moves {
			if m.Kind != fray.SimAttack {
				continue
			}
			got, ok := sys.SimExpect(e.State(), m)
			o, err := e.Odds(m.Cmd)
			if ok != (err == nil) {
				t.Fatalf("step %d, %s: SimExpect %v, odds %v", step, m.Cmd, ok, err)
			}
			if !ok {
				continue // refused both ways: no actions left
			}
			if math.Float64bits(got) != math.Float64bits(o.Mean) {
				t.Errorf("step %d, %s: SimExpect %v (%#x), the odds' mean %v (%#x)", step, m.Cmd, got, math.Float64bits(got), o.Mean, math.Float64bits(o.Mean))
			}
			checked++
		}
		// A move the rules take, an attack most often, so that the
		// targets lose Health and fall.
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
	if checked < 50 {
		t.Errorf("%d attacks checked, want 50 or more", checked)
	}
}

// isAttack is 1 for an attack, else 0: attacks sort first, descending.
func isAttack(m fray.SimMove) int {
	if m.Kind == fray.SimAttack {
		return 1
	}
	return 0
}

// TestSimExpectByHand checks an attack's expected damage worked out by
// hand (C-3, C-4, C-5): A (Dexterity 2, no Kung Fu) punches B (Dexterity
// 1), who dodges: 1d10+2 against 1d10+1, higher wins and ties go to B.
// A's face f wins against B's faces 1 to f; the total f+2 has 0 success
// levels to 8, 1 at 9 and 10, 2 at 11 and 12; a punch deals Strength 2
// plus the levels. Over the 100 pairs of faces: 2 × (1+…+6) + 3 × (7+8)
// + 4 × (9+10) = 163, so 1.63.
func TestSimExpectByHand(t *testing.T) {
	sys := cinematic.New()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	for _, line := range []string{"add A dexterity=2 strength=2 constitution=2 perception=3", "add B dexterity=1 strength=2 constitution=2", "start"} {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Do(cmd); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	cmd, err := engine.ParseCommand("attack A B with=punch")
	if err != nil {
		t.Fatal(err)
	}
	a, b := e.Encounter().Find("A"), e.Encounter().Find("B")
	m := fray.SimMove{Kind: fray.SimAttack, Actor: a.ID, Target: b.ID, Cmd: cmd}
	if got, ok := sys.SimExpect(e.State(), m); !ok || math.Abs(got-1.63) > 1e-12 {
		t.Errorf("%s: %v, %v; want 1.63", cmd, got, ok)
	}
}
