package cinematic_test

import (
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

// TestSimulator checks the moves, the word for down and the track the
// simulator reads (fray.Simulator).
func TestSimulator(t *testing.T) {
	rulestest.Sim(t, func() fray.System { return cinematic.New() }, rulestest.SimCase{
		Party: "../../examples/cinematic-party.yaml", Foes: "../../examples/cinematic-foes.yaml",
		Setup: "start", Actor: "Rosa", Victim: "Vampire", Down: "damage Vampire 46\ncondition Vampire unconscious"})
}

// TestSimTests checks that a Consciousness test that is due (C-6: at 0
// Life Points or fewer) is the one move open, before anyone's attack.
func TestSimTests(t *testing.T) {
	sys := cinematic.New()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	for _, line := range []string{"add Ann side=pc strength=2 constitution=2 dexterity=3", "add Bo side=npc strength=2 constitution=2 dexterity=2", "start", "damage Bo 26"} {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Do(cmd); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	ms := sys.SimMoves(e.State(), nil)
	if len(ms) != 1 || ms[0].Kind != fray.SimAnswer || ms[0].Cmd.String() != "test Bo consciousness" {
		t.Fatalf("moves = %v, want test Bo consciousness alone", ms)
	}
	if sys.SimDown(e.State(), e.Encounter().Find("Bo")) {
		t.Error("Bo is down before failing the test")
	}
}
