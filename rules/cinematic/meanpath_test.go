package cinematic_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

// TestSimExpectIsOddsMean checks that the expected damage the simulator
// is given for every attack open is the Mean of the attack's odds to the
// last bit (rulestest.CheckSimExpectIsOddsMean).
func TestSimExpectIsOddsMean(t *testing.T) {
	rulestest.CheckSimExpectIsOddsMean(t, cinematic.New(), "cinematic")
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
