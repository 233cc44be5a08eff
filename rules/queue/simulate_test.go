package queue_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
	"fray/rules/rulestest"
)

// TestSimulator checks the moves, the word for down and the track the
// simulator reads (fray.Simulator).
func TestSimulator(t *testing.T) {
	rulestest.Sim(t, func() fray.System { return queue.New() }, rulestest.SimCase{
		Setup: "add Ann side=pc wits=2 hp=6 weapon=sword:medium\nadd Bo side=npc wits=1 hp=5 weapon=club:medium\ninitiative Ann 15\ninitiative Bo 3\nstart",
		Actor: "Ann", Victim: "Bo", Down: "damage Bo 5"})
}

// TestSimExpect checks an attack's expected damage worked out by hand:
// Ann (Wits 2) hits Bo (Wits 1) on 9+ on the d20, 12 faces in 20 (seed
// 004: d20 + Wits against 10 + the target's Wits), and a medium weapon
// deals Red, 3.5 on average: 0.6 × 3.5 = 2.1.
func TestSimExpect(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	for _, line := range []string{"add Ann side=pc wits=2 hp=6 weapon=sword:medium", "add Bo side=npc wits=1 hp=5 weapon=club:medium", "initiative Ann 15", "initiative Bo 3", "start"} {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Do(cmd); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	sys := queue.New()
	ms := sys.SimMoves(e.State(), nil)
	if len(ms) != 2 || ms[0].Kind != fray.SimAttack || ms[1].Cmd.Name != "next" {
		t.Fatalf("moves = %v, want Ann's attack on Bo, then next", ms)
	}
	x, ok := sys.SimExpect(e.State(), ms[0])
	if !ok || math.Abs(x-2.1) > 1e-9 {
		t.Errorf("expected damage = %v, %v; want 2.1", x, ok)
	}
}
