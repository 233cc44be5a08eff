package sim_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/sheet"
	"fray/sim"
)

// duels holds, by system, the sheets of a duel with short tracks and
// small pools of dice: the pc's, then the npc's.
var duels = map[string][2]string{
	"bpb": {`
  - name: Ann
    stats: {brawn: 4, agility: 6, accuracy: 6, prowess: 6, perception: 6, willpower: 5}
    tracks: {endurance: 3}
    powers:
      - {name: Punch, rank: 5, range: close, damage: stunning}`, `
  - name: Bo
    stats: {brawn: 4, agility: 5, accuracy: 5, prowess: 5, perception: 5, willpower: 5}
    tracks: {endurance: 3}
    powers:
      - {name: Strike, rank: 5, range: close, damage: stunning}`},
	"cinematic": {`
  - name: Ann
    stats: {strength: 2, dexterity: 3, constitution: 2, intelligence: 2, perception: 3, willpower: 3}
    tracks: {life points: 4}
    skills:
      - {name: Kung Fu, rank: 2}
    weapons:
      - {name: Stick, rank: 3, damage: bash, skill: Kung Fu}`, `
  - name: Bo
    stats: {strength: 2, dexterity: 2, constitution: 2, intelligence: 2, perception: 3, willpower: 3}
    tracks: {life points: 4}
    skills:
      - {name: Kung Fu, rank: 2}
    weapons:
      - {name: Stick, rank: 3, damage: bash, skill: Kung Fu}`},
	"pp": {`
  - name: Ann
    stats: {agility: 1, intellect: 1, might: 1, perception: 1, toughness: 1, willpower: 1}
    tracks: {resolve: 1, health: 2}`, `
  - name: Bo
    stats: {agility: 1, intellect: 1, might: 1, perception: 1, toughness: 1, willpower: 1}
    tracks: {resolve: 1, health: 2}`},
	"queue": {`
  - name: Ann
    stats: {wits: 2}
    tracks: {hp: 2}
    weapons:
      - {name: Sword, rank: 0, weight: medium}`, `
  - name: Bo
    stats: {wits: 1}
    tracks: {hp: 2}
    weapons:
      - {name: Club, rank: 0, weight: medium}`},
	"vv": {`
  - name: Ann
    stats: {strength: 10, endurance: 10, agility: 12, intelligence: 10, charisma: 10, level: 1, moverate: 30, basichits: 1}
    tracks: {hit points: 3}
    powers:
      - {name: Punch, rank: 6, range: close, damage: kinetic, dice: 1d4, skill: HTH}
    skills:
      - {name: HTH, rank: 6}`, `
  - name: Bo
    stats: {strength: 10, endurance: 10, agility: 11, intelligence: 10, charisma: 10, level: 1, moverate: 30, basichits: 1}
    tracks: {hit points: 3}
    powers:
      - {name: Punch, rank: 6, range: close, damage: kinetic, dice: 1d4, skill: HTH}
    skills:
      - {name: HTH, rank: 6}`},
}

// duelRounds is the round cap of each system's duel, small enough that
// its exact solve is quick.
var duelRounds = map[string]int{"bpb": 3, "cinematic": 2, "pp": 2, "queue": 3, "vv": 1}

// duel returns the state of the system's duel (duels), started, with
// each pair of strings of edit replaced in its sheets (old, new, …).
func duel(tb testing.TB, id string, edit ...string) (fray.System, fray.State) {
	tb.Helper()
	sys := systems[id]()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	dir := tb.TempDir()
	for i, side := range []string{fray.SidePC, fray.SideNPC} {
		path := filepath.Join(dir, side+".yaml")
		if err := os.WriteFile(path, []byte("rules: "+id+"\ncharacters:"+strings.NewReplacer(edit...).Replace(duels[id][i])+"\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
		cs, err := sheet.Load(path, sys, side)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := e.Join(cs); err != nil {
			tb.Fatal(err)
		}
	}
	// Started here, with the engine's seeded dice: the order of play is
	// settled, so the exact solve starts from one state.
	if _, err := e.Do(fray.Command{Name: "start"}); err != nil {
		tb.Fatal(err)
	}
	return sys, e.State()
}

func exact(tb testing.TB, cfg sim.Config) sim.ExactResult {
	tb.Helper()
	r, err := sim.Exact(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	if !r.Exact {
		tb.Fatalf("not exact: %s", r.Why)
	}
	return r
}

// TestExactQueueByHand checks a duel worked out by hand (the duel of
// TestSimQueueDuel): with 1 hit point any hit takes the target out; Ann
// (Wits 2) hits Bo (Wits 1) on 9+ on the d20, 12 faces in 20, and Bo
// hits Ann on 11+, 10 in 20; Ann goes first in every round. A round
// that ends with both standing has chance 0.4 × 0.5 = 0.2, so over
// three rounds Ann wins 0.6 × (1 + 0.2 + 0.04) = 0.744, Bo wins
// 0.4 × 0.5 × (1 + 0.2 + 0.04) = 0.248, and 0.2³ = 0.008 is unfinished.
func TestExactQueueByHand(t *testing.T) {
	sys, st := prepare(t, "queue", false, `add Ann side=pc wits=2 hp=1 weapon=sword:medium
add Bo side=npc wits=1 hp=1 weapon=club:medium
initiative Ann 15
initiative Bo 3
start`)
	r := exact(t, sim.Config{System: sys, State: st, Rounds: 3})
	want := []float64{0.744, 0.248}
	for i, s := range r.Sides {
		if math.Abs(s.Win-want[i]) > 1e-12 {
			t.Errorf("%s wins %.15f, want %v", s.Side, s.Win, want[i])
		}
	}
	if math.Abs(r.Unfinished-0.008) > 1e-12 {
		t.Errorf("unfinished %.15f, want 0.008", r.Unfinished)
	}
	if r.Sides[0].Side != fray.SidePC || r.Sides[1].Side != fray.SideNPC {
		t.Errorf("sides %v, want pc then npc", r.Sides)
	}
}

// TestExactWorkers checks that a solve gives the same result, to the
// last bit, and reaches the same states, however many workers find the
// states: the chances are added up in one order whoever found them.
func TestExactWorkers(t *testing.T) {
	for _, id := range []string{"bpb", "cinematic", "pp", "queue", "vv"} {
		t.Run(id, func(t *testing.T) {
			sys, st := duel(t, id)
			cfg := sim.Config{System: sys, State: st, Rounds: duelRounds[id], Workers: 1}
			one := exact(t, cfg)
			for _, w := range []int{2, 8} {
				cfg.Workers = w
				if got := exact(t, cfg); !reflect.DeepEqual(got, one) {
					t.Errorf("%d workers: %+v\n1 worker: %+v", w, got, one)
				}
			}
		})
	}
}

// TestExactProgress checks that an exact solve tells of its progress:
// states found and moves decided, never falling, never past what the
// solve reports.
func TestExactProgress(t *testing.T) {
	sys, st := duel(t, "cinematic")
	type call struct{ states, work int }
	var calls []call
	cfg := sim.Config{System: sys, State: st, Rounds: duelRounds["cinematic"],
		ExactProgress: func(states, work int) { calls = append(calls, call{states, work}) }}
	r := exact(t, cfg)
	if len(calls) < 2 {
		t.Fatalf("%d calls of ExactProgress for %d states", len(calls), r.States)
	}
	for i, c := range calls {
		if c.states < 1 || c.states > r.States || c.work < 1 {
			t.Errorf("call %d: %+v; want 1 to %d states and some moves", i, c, r.States)
		}
		if i > 0 && (c.states < calls[i-1].states || c.work < calls[i-1].work) {
			t.Errorf("call %d: %+v after %+v", i, c, calls[i-1])
		}
	}
}

// TestExactLimit checks that a fight too big is not solved exactly, the
// sentence naming the budget it met (each budget lowered for the test,
// so that it is met at once), and that a bad configuration is an error
// as in Run.
func TestExactLimit(t *testing.T) {
	sys, st := duel(t, "queue")
	cfg := sim.Config{System: sys, State: st, Rounds: duelRounds["queue"]}
	tests := []struct {
		name                   string
		states, branches, work int
		want                   string
	}{
		{"states", 10, sim.MaxExactBranches, sim.MaxExactWork, "more than 10 states (MaxExactStates)"},
		{"branches", sim.MaxExactStates, 100, sim.MaxExactWork, "more than 100 ways (MaxExactBranches)"},
		{"work", sim.MaxExactStates, sim.MaxExactBranches, 1000, "more than 1000 moves decided (MaxExactWork)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer sim.SetExactBudgets(tt.states, tt.branches, tt.work)()
			r, err := sim.Exact(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if r.Exact || !strings.Contains(r.Why, tt.want) {
				t.Errorf("exact %v, why %q; want not exact, naming %q", r.Exact, r.Why, tt.want)
			}
			if len(r.Sides) != 2 || r.Sides[0].Win != 0 || r.Sides[1].Win != 0 || r.Unfinished != 0 {
				t.Errorf("sides %v, unfinished %v; want two sides, nothing claimed", r.Sides, r.Unfinished)
			}
		})
	}
	t.Run("held", func(t *testing.T) {
		defer sim.SetExactHeld(2)()
		r, err := sim.Exact(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if want := "more than 2 states held at once (MaxExactHeld)"; r.Exact || !strings.Contains(r.Why, want) {
			t.Errorf("exact %v, why %q; want not exact, naming %q", r.Exact, r.Why, want)
		}
	})
	// Within the budgets the same fight is solved, holding few states.
	peak := 0
	defer sim.OnPeakHeld(func(n int) { peak = n })()
	if r := exact(t, cfg); r.States <= 10 {
		t.Errorf("the duel reaches %d states, want more than the 10 of the test", r.States)
	}
	if peak < 3 || peak > 100 {
		t.Errorf("the duel held %d states at once, want from 3 (more than the 2 of the test) to 100", peak)
	}
	_, err := sim.Exact(context.Background(), sim.Config{System: sys, State: st, Rounds: sim.MaxRounds + 1})
	if err == nil || !strings.Contains(err.Error(), "MaxRounds") {
		t.Errorf("err = %v, want one naming MaxRounds", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sim.Exact(ctx, cfg); err == nil {
		t.Error("a cancelled solve gave no error")
	}
}

// BenchmarkExact solves each system's duel exactly.
func BenchmarkExact(b *testing.B) {
	for _, id := range []string{"bpb", "cinematic", "pp", "queue", "vv"} {
		b.Run(id, func(b *testing.B) {
			sys, st := duel(b, id)
			cfg := sim.Config{System: sys, State: st, Rounds: duelRounds[id]}
			b.ReportAllocs()
			for b.Loop() {
				exact(b, cfg)
			}
		})
	}
}
