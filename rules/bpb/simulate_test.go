package bpb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/rules/rulestest"
	"fray/sheet"
	"fray/sim"
)

// TestSimulator checks the moves, the word for down and the track the
// simulator reads (fray.Simulator).
func TestSimulator(t *testing.T) {
	rulestest.Sim(t, func() fray.System { return bpb.New() }, rulestest.SimCase{
		Party: "../../examples/bpb-party.yaml", Foes: "../../examples/bpb-foes.yaml",
		Setup: "order Blueshift Monolith Ganyeka \"Ganyeka's henchmen\"\nstart",
		Actor: "Blueshift", Victim: "Ganyeka", Down: "damage Ganyeka 24"})
}

// duel returns an engine where Bo (Prowess 8, a close Punch of rank 4)
// and Ann (Prowess prowess, Agility 3, no power) have started, Bo first.
func duel(t *testing.T, prowess int) *engine.Engine {
	t.Helper()
	sheets := fmt.Sprintf(`- name: Ann
  side: pc
  stats: {brawn: 3, agility: 3, accuracy: 3, prowess: %d, perception: 3, willpower: 3}
  tracks: {endurance: 20}
- name: Bo
  side: npc
  stats: {brawn: 3, agility: 3, accuracy: 3, prowess: 8, perception: 3, willpower: 3}
  tracks: {endurance: 20}
  powers:
    - {name: Punch, rank: 4, range: close}
`, prowess)
	sys := bpb.New()
	cs, err := sheet.Parse("duel.yaml", []byte(sheets), sys, fray.SidePC)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	if _, err := e.Join(cs); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"order Bo Ann", "start"} {
		cmd, _ := engine.ParseCommand(line)
		if _, err := e.Do(cmd); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	return e
}

// TestSimGuard checks the odds of a forced block and dodge against a
// hit that waits, worked out by hand (B-8): Bo's Punch of rank 4 is
// blocked on a Prowess task roll, dodged on an Agility one, against
// 8 + 4 = 12. Ann with Prowess 8 blocks on 4+ on 2d6, 33 in 36; with
// Agility 3 she dodges on 9+, 10 in 36. The answers are listed take
// first, which costs nothing.
func TestSimGuard(t *testing.T) {
	e := duel(t, 8)
	cmd, _ := engine.ParseCommand("attack Bo Ann with=Punch dice=6,6")
	if _, err := e.Do(cmd); err != nil {
		t.Fatal(err)
	}
	sys := bpb.New()
	ms := sys.SimMoves(e.State(), nil)
	var words []string
	for _, m := range ms {
		if m.Kind != fray.SimAnswer {
			t.Errorf("%s: kind %s, want answer", m.Cmd, m.Kind)
		}
		words = append(words, m.Cmd.String())
	}
	if strings.Join(words, "; ") != "take Ann; block Ann; dodge Ann" {
		t.Fatalf("moves = %q, want take, block and dodge by Ann", words)
	}
	for _, tt := range []struct {
		m    fray.SimMove
		want float64
	}{{ms[1], 33.0 / 36}, {ms[2], 10.0 / 36}} {
		p, ok := sys.SimGuard(e.State(), tt.m)
		if !ok || math.Abs(p-tt.want) > 1e-12 {
			t.Errorf("%s: negates %v, %v; want %v", tt.m.Cmd, p, ok, tt.want)
		}
	}
	if _, ok := sys.SimGuard(e.State(), ms[0]); ok {
		t.Error("take has odds of negating the hit")
	}
}

// TestSimCautious checks that a cautious Ann blocks when the odds are
// better than even and takes the hit otherwise. In one round Bo attacks
// Ann once; with Prowess 8 her block negates 33 hits in 36 (see
// TestSimGuard), so she takes 3/36 of the harm a focus-weakest Ann
// takes. With Prowess 3 the block (9+, 10 in 36) and the dodge (the
// same) are worse than even: a cautious Ann takes every hit, and the
// fights are those of focus-weakest, die for die.
func TestSimCautious(t *testing.T) {
	play := func(prowess int, tactic sim.Tactic) sim.Result {
		e := duel(t, prowess)
		r, err := sim.Run(context.Background(), sim.Config{System: e.System(), State: e.State(), Fights: 5000, Seed: 7, Rounds: 1,
			Tactics: map[string]sim.Tactic{fray.SidePC: tactic}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	plain, careful := play(8, sim.FocusWeakest), play(8, sim.Cautious)
	got, want := careful.Combatants[0].Taken/plain.Combatants[0].Taken, 3.0/36
	if plain.Combatants[0].Taken < 1 || math.Abs(got-want) > 0.03 {
		t.Errorf("a cautious Ann takes %v of the harm, want about %v (%v and %v)", got, want, careful.Combatants[0].Taken, plain.Combatants[0].Taken)
	}
	plain, careful = play(3, sim.FocusWeakest), play(3, sim.Cautious)
	careful.Sides[0].Tactic = sim.FocusWeakest
	for i := range careful.Combatants {
		careful.Combatants[i].Tactic = plain.Combatants[i].Tactic
	}
	a, _ := json.Marshal(plain)
	b, _ := json.Marshal(careful)
	if string(a) != string(b) {
		t.Errorf("with odds worse than even, cautious plays\n%s\nand focus-weakest\n%s", b, a)
	}
}

// TestSimExpectIsOddsMean checks that the expected damage the simulator
// is given for every attack open is the Mean of the attack's odds to the
// last bit (rulestest.CheckSimExpectIsOddsMean).
func TestSimExpectIsOddsMean(t *testing.T) { rulestest.CheckSimExpectIsOddsMean(t, bpb.New(), "bpb") }
