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

// TestMeanDamage checks an attack's expected damage worked out by hand:
// on a hit a light weapon deals the lower of Red and Black (91/36 on
// average: 11 pairs show 1, 9 show 2, … 1 shows 6), a medium one Red
// (3.5), a heavy one the higher (161/36); a d20 + 2 against 12 hits on
// 10 or more, 11 faces in 20; a miss by the GM's ruling deals nothing.
// It is the mean of the attack's odds, to the last bit.
func TestMeanDamage(t *testing.T) {
	for _, c := range []struct {
		a    queue.Attack
		want float64
	}{
		{queue.Attack{Weight: queue.DamageLight, Ruling: queue.RulingHit, HP: 5}, 91.0 / 36},
		{queue.Attack{Weight: queue.DamageMedium, Ruling: queue.RulingHit, HP: 5}, 3.5},
		{queue.Attack{Weight: queue.DamageHeavy, Ruling: queue.RulingHit, HP: 5}, 161.0 / 36},
		{queue.Attack{Weight: queue.DamageMedium, Ruling: queue.RulingMiss, HP: 5}, 0},
		{queue.Attack{Weight: queue.DamageMedium, Bonus: 2, Need: 12, HP: 5}, 11.0 / 20 * 3.5},
	} {
		got, err := c.a.MeanDamage()
		if err != nil {
			t.Fatalf("%+v: %v", c.a, err)
		}
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%+v: mean %v, want %v", c.a, got, c.want)
		}
		o, err := c.a.Odds()
		if err != nil {
			t.Fatal(err)
		}
		if got != o.MeanDamage {
			t.Errorf("%+v: mean %v, odds' %v", c.a, got, o.MeanDamage)
		}
	}
	if _, err := (queue.Attack{Weight: "feather"}).MeanDamage(); err == nil {
		t.Error("a weight of feather has a mean damage")
	}
}

// TestSimExpectIsOddsMean checks that the expected damage the simulator
// is given for every attack open is the Mean of the attack's odds to the
// last bit (rulestest.CheckSimExpectIsOddsMean).
func TestSimExpectIsOddsMean(t *testing.T) {
	rulestest.CheckSimExpectIsOddsMean(t, queue.New(), "queue")
}
