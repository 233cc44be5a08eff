package pp_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/pp"
	"fray/rules/rulestest"
	"fray/sheet"
	"fray/sim"
)

// TestSimulator checks the moves, the word for down and the track the
// simulator reads (fray.Simulator).
func TestSimulator(t *testing.T) {
	rulestest.Sim(t, func() fray.System { return pp.New() }, rulestest.SimCase{
		Party: "../../examples/pp-party.yaml", Foes: "../../examples/pp-foes.yaml",
		Setup: "start", Actor: "Citizen Soldier", Victim: "Gatecrasher", Down: "damage Gatecrasher 10"})
}

// duel returns an engine where Ann (Edge 8, P-10) and Bo (best defence
// def dice, Resolve 2) have started, Ann to act.
func duel(t *testing.T, def int) *engine.Engine {
	t.Helper()
	sheets := fmt.Sprintf(`- name: Ann
  side: pc
  stats: {agility: 3, intellect: 2, might: 3, perception: 5, toughness: 3, willpower: 3}
- name: Bo
  side: npc
  stats: {agility: %[1]d, intellect: 1, might: %[1]d, perception: 1, toughness: %[1]d, willpower: 4}
  tracks: {resolve: 2}
`, def)
	sys := pp.New()
	cs, err := sheet.Parse("duel.yaml", []byte(sheets), sys, fray.SidePC)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	if _, err := e.Join(cs); err != nil {
		t.Fatal(err)
	}
	do(t, e, "start")
	return e
}

// TestSimGuard checks Bo's Resolve spent on an attack that hurt him,
// worked out by hand (P-1: a die's 2 and 4 are 1 success, its 6 two;
// P-4: a point buys a die, or the roll again, the better kept; P-10: 1
// Health lost a net success). Ann's 2 successes against Bo's 1 take 1
// Health; a die more negates it on 2, 4 or 6, 1 in 2. Rerolling his 3
// dice negates it on 2 successes or more: 1 − 1/8 (none) − 3 × 1/3 ×
// 1/4 (one) = 5/8. With 1 die, Ann's 1 success against none: a die more
// or the roll again both negate it on 2, 4 or 6, 1 in 2.
func TestSimGuard(t *testing.T) {
	sys := pp.New()
	for _, tt := range []struct {
		def            int
		attack         string
		resolve, again float64
	}{
		{3, "attack Ann Bo with=might successes=2 vs_successes=1", 0.5, 5.0 / 8},
		{1, "attack Ann Bo with=might successes=1 vs_successes=0", 0.5, 0.5},
	} {
		e := duel(t, tt.def)
		if ms := sys.SimMoves(e.State(), nil); slices.ContainsFunc(ms, func(m fray.SimMove) bool { return m.Kind == fray.SimDefend }) {
			t.Errorf("defences before any attack: %v", ms)
		}
		do(t, e, tt.attack)
		if left, _ := sys.SimHealth(e.State(), e.Encounter().Find("Bo")); left != pp.Health(e.Encounter().Find("Bo"))-1 {
			t.Fatalf("%s: Bo has %d Health left, want 1 less than his most", tt.attack, left)
		}
		var got []string
		for _, m := range sys.SimMoves(e.State(), nil) {
			if m.Kind != fray.SimDefend {
				continue
			}
			got = append(got, m.Cmd.String())
			p, ok := sys.SimGuard(e.State(), m)
			want := tt.resolve
			if m.Cmd.Arg(1) == pp.HowReroll {
				want = tt.again
			}
			if !ok || math.Abs(p-want) > 1e-12 {
				t.Errorf("%s: %s negates %v, %v; want %v", tt.attack, m.Cmd, p, ok, want)
			}
		}
		if strings.Join(got, "; ") != "spend Bo resolve=1; spend Bo reroll" {
			t.Errorf("%s: defences %q, want Bo's resolve=1 and reroll", tt.attack, got)
		}
	}
}

// TestSimCautious checks that a cautious Bo spends Resolve on Ann's
// attacks, and only a cautious one, and that the harm a spending undoes
// is neither dealt nor taken: in a duel, what one deals is what the
// other takes, and what Bo takes is the Health he has lost at the end.
func TestSimCautious(t *testing.T) {
	for _, tactic := range []sim.Tactic{sim.FocusWeakest, sim.Cautious} {
		e := duel(t, 3)
		r, err := sim.Run(context.Background(), sim.Config{System: e.System(), State: e.State(), Fights: 400, Seed: 3, Rounds: 3,
			Tactics: map[string]sim.Tactic{fray.SideNPC: tactic}})
		if err != nil {
			t.Fatal(err)
		}
		ann, bo := r.Combatants[0], r.Combatants[1]
		if math.Abs(ann.Dealt-bo.Taken) > 1e-9 || math.Abs(bo.Dealt-ann.Taken) > 1e-9 || bo.Taken == 0 {
			t.Errorf("%s: Ann dealt %v, Bo took %v; Bo dealt %v, Ann took %v", tactic, ann.Dealt, bo.Taken, bo.Dealt, ann.Taken)
		}
		if math.Abs(bo.Taken-(float64(bo.Most)-bo.Left)) > 1e-9 {
			t.Errorf("%s: Bo took %v, and has %v left of %d", tactic, bo.Taken, bo.Left, bo.Most)
		}
		if spent := bo.Tracks["resolve"] < 2; spent != (tactic == sim.Cautious) {
			t.Errorf("%s: Bo has %v Resolve left of 2", tactic, bo.Tracks["resolve"])
		}
		if bo.Tracks["health"] != bo.Left {
			t.Errorf("%s: Bo's health track %v, his Left %v", tactic, bo.Tracks["health"], bo.Left)
		}
	}
}
