package sim_test

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/rules/cinematic"
	"fray/rules/pp"
	"fray/rules/queue"
	"fray/rules/vv"
	"fray/sheet"
	"fray/sim"
)

// systems are the rule systems under test, by id.
var systems = map[string]func() fray.System{
	"bpb":       func() fray.System { return bpb.New() },
	"cinematic": func() fray.System { return cinematic.New() },
	"pp":        func() fray.System { return pp.New() },
	"queue":     func() fray.System { return queue.New() },
	"vv":        func() fray.System { return vv.New() },
}

// prepare returns the state an encounter reaches from the example sheets
// of the system (party and foes, when party is true) and then the
// script's commands.
func prepare(tb testing.TB, id string, sheets bool, script string) (fray.System, fray.State) {
	tb.Helper()
	sys := systems[id]()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	if sheets {
		for _, f := range []struct{ path, side string }{{"party", fray.SidePC}, {"foes", fray.SideNPC}} {
			cs, err := sheet.Load("../examples/"+id+"-"+f.path+".yaml", sys, f.side)
			if err != nil {
				tb.Fatal(err)
			}
			if _, err := e.Join(cs); err != nil {
				tb.Fatal(err)
			}
		}
	}
	for i, line := range strings.Split(script, "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			tb.Fatalf("line %d: %v", i+1, err)
		}
		if cmd.Name == "" {
			continue
		}
		if _, err := e.Do(cmd); err != nil {
			tb.Fatalf("line %d: %s: %v", i+1, line, err)
		}
	}
	return sys, e.State()
}

func run(tb testing.TB, cfg sim.Config) sim.Result {
	tb.Helper()
	r, err := sim.Run(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestSimExamples plays every system's example party against its example
// foes to the end: no internal error, every fight won or stopped at the
// cap, and the shares adding up.
func TestSimExamples(t *testing.T) {
	for _, id := range []string{"bpb", "cinematic", "pp", "queue", "vv"} {
		t.Run(id, func(t *testing.T) {
			sys, st := prepare(t, id, true, "")
			const n = 200
			r := run(t, sim.Config{System: sys, State: st, Fights: n, Seed: 3, Rounds: 30})
			if r.Fights != n {
				t.Fatalf("fights = %d, want %d", r.Fights, n)
			}
			sum := r.Unfinished
			for _, s := range r.Sides {
				sum += s.Win
				if s.CI95[0] > s.Win || s.CI95[1] < s.Win {
					t.Errorf("side %s: win %v outside its interval %v", s.Side, s.Win, s.CI95)
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("wins and unfinished add up to %v, want 1", sum)
			}
			share := 0.0
			for _, d := range r.Rounds.Dist {
				share += d[1]
				if d[0] < 1 || d[0] > 30 {
					t.Errorf("a fight lasted %v rounds, outside 1 to the cap of 30", d[0])
				}
			}
			if math.Abs(share-1) > 1e-9 {
				t.Errorf("the rounds distribution adds up to %v, want 1", share)
			}
			if len(r.Combatants) == 0 {
				t.Fatal("no combatants reported")
			}
			dealt, taken := 0.0, 0.0
			for _, c := range r.Combatants {
				dealt += c.Dealt
				taken += c.Taken
				if c.Left < 0 || c.Left > float64(c.Most) {
					t.Errorf("%s: %v left of %d", c.Name, c.Left, c.Most)
				}
			}
			if taken == 0 {
				t.Error("nobody took any harm in 200 fights")
			}
			if dealt > taken+1e-9 {
				t.Errorf("harm dealt %v is more than harm taken %v", dealt, taken)
			}
		})
	}
}

// TestSimWorkers checks that a seed gives the same result for 1, 2 and 8
// workers, and another seed another result.
func TestSimWorkers(t *testing.T) {
	for _, id := range []string{"bpb", "queue"} {
		t.Run(id, func(t *testing.T) {
			sys, st := prepare(t, id, true, "")
			var first []byte
			for _, w := range []int{1, 2, 8} {
				r := run(t, sim.Config{System: sys, State: st, Fights: 300, Seed: 11, Workers: w})
				b, err := json.Marshal(r)
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = b
				} else if string(b) != string(first) {
					t.Errorf("workers=%d:\n%s\nworkers=1:\n%s", w, b, first)
				}
			}
			r := run(t, sim.Config{System: sys, State: st, Fights: 300, Seed: 12, Workers: 2})
			b, _ := json.Marshal(r)
			if string(b) == string(first) {
				t.Error("seeds 11 and 12 gave the same result")
			}
		})
	}
}

// TestSimQueueDuel checks a duel worked out by hand. In the Combat Queue
// an attack hits when d20 + the attacker's Wits reaches 10 + the target's
// Wits (seed 004: "11 or more on the d20 hits (10 + her Wits 2 = 12,
// less his Wits 1)"), and with 1 hit point any hit takes the target out.
// Ann (Wits 2) needs 9+ on the d20 against Bo (Wits 1): 12 faces in 20;
// Bo needs 11+: 10 in 20. Ann goes first (initiative 15+2 against
// 3+1), and the two take turns, so Ann wins with
// 0.6 / (1 − 0.4 × 0.5) = 0.75.
func TestSimQueueDuel(t *testing.T) {
	sys, st := prepare(t, "queue", false, `add Ann side=pc wits=2 hp=1 weapon=sword:medium
add Bo side=npc wits=1 hp=1 weapon=club:medium
initiative Ann 15
initiative Bo 3
start`)
	const want = 0.75
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	r := run(t, sim.Config{System: sys, State: st, Fights: n, Seed: 5})
	pc := r.Sides[0]
	if pc.Side != fray.SidePC {
		t.Fatalf("the first side is %q, want pc", pc.Side)
	}
	if want < pc.CI95[0] || want > pc.CI95[1] {
		t.Errorf("Ann wins %v (95%%: %v), want %v inside", pc.Win, pc.CI95, want)
	}
	if r.Unfinished != 0 {
		t.Errorf("unfinished = %v, want 0", r.Unfinished)
	}
}

// TestSimBudgets checks the named limits and bad configurations.
func TestSimBudgets(t *testing.T) {
	sys, st := prepare(t, "queue", true, "")
	onlyPCs, onlyOne := prepare(t, "queue", false, "add Ann side=pc wits=2 hp=1 weapon=sword:medium")
	tests := []struct {
		name string
		cfg  sim.Config
		want string
	}{
		{"no fights", sim.Config{System: sys, State: st, Fights: 0}, "at least 1"},
		{"too many fights", sim.Config{System: sys, State: st, Fights: sim.MaxFights + 1}, "MaxFights"},
		{"too many rounds", sim.Config{System: sys, State: st, Fights: 1, Rounds: sim.MaxRounds + 1}, "MaxRounds"},
		{"negative rounds", sim.Config{System: sys, State: st, Fights: 1, Rounds: -1}, "round cap"},
		{"too many workers", sim.Config{System: sys, State: st, Fights: 1, Workers: sim.MaxWorkers + 1}, "MaxWorkers"},
		{"one side", sim.Config{System: onlyPCs, State: onlyOne, Fights: 1}, "two sides"},
		{"unknown side", sim.Config{System: sys, State: st, Fights: 1, Tactics: map[string]sim.Tactic{"gm": sim.Random}}, `"gm"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sim.Run(context.Background(), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one naming %q", err, tt.want)
			}
		})
	}
}

func TestParseTactics(t *testing.T) {
	good := []struct {
		spec string
		want map[string]sim.Tactic
	}{
		{"", map[string]sim.Tactic{}},
		{"pc=random", map[string]sim.Tactic{"pc": sim.Random}},
		{"PC=Focus-Strongest, npc=focus-weakest", map[string]sim.Tactic{"pc": sim.FocusStrongest, "npc": sim.FocusWeakest}},
		{"npc=cautious,Ann=Cautious", map[string]sim.Tactic{"npc": sim.Cautious, "ann": sim.Cautious}},
	}
	for _, tt := range good {
		got, err := sim.ParseTactics(tt.spec)
		if err != nil {
			t.Errorf("%q: %v", tt.spec, err)
			continue
		}
		if len(got) != len(tt.want) {
			t.Errorf("%q = %v, want %v", tt.spec, got, tt.want)
		}
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("%q: %s = %q, want %q", tt.spec, k, got[k], v)
			}
		}
	}
	for _, spec := range []string{"pc", "=random", "pc=cowardly", "pc=random,npc"} {
		if _, err := sim.ParseTactics(spec); err == nil {
			t.Errorf("%q: no error", spec)
		}
	}
}

// TestWilson checks the interval against values worked out by hand from
// the formula: 50 of 100 gives 0.5 ± 0.0962; 0 of 10 gives [0, 0.2775].
func TestWilson(t *testing.T) {
	tests := []struct {
		k, n   int
		lo, hi float64
	}{
		{50, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
	}
	for _, tt := range tests {
		lo, hi := sim.Wilson(tt.k, tt.n)
		if math.Abs(lo-tt.lo) > 1e-4 || math.Abs(hi-tt.hi) > 1e-4 {
			t.Errorf("Wilson(%d, %d) = %.4f, %.4f; want %.4f, %.4f", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

// TestSimTactics checks whom each tactic attacks: in one round Ann makes
// one attack, on Bo (1 hit point left) under focus-weakest, on Cy (3)
// under focus-strongest, on either under random. The foes have no
// weapon, so they only end their turns.
func TestSimTactics(t *testing.T) {
	sys, st := prepare(t, "queue", false, `add Ann side=pc wits=5 hp=6 weapon=sword:medium
add Bo side=npc wits=0 hp=1
add Cy side=npc wits=0 hp=3
initiative Ann 20
initiative Bo 1
initiative Cy 1
start`)
	tests := []struct {
		tactic sim.Tactic
		bo, cy bool // whether each takes harm in some fight
	}{
		{sim.FocusWeakest, true, false},
		{sim.FocusStrongest, false, true},
		{sim.Random, true, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.tactic), func(t *testing.T) {
			r := run(t, sim.Config{System: sys, State: st, Fights: 400, Seed: 9, Rounds: 1, Tactics: map[string]sim.Tactic{fray.SidePC: tt.tactic}})
			taken := map[string]float64{}
			for _, c := range r.Combatants {
				taken[c.Name] = c.Taken
			}
			if (taken["Bo"] > 0) != tt.bo || (taken["Cy"] > 0) != tt.cy {
				t.Errorf("Bo took %v, Cy %v; want Bo harmed %v, Cy harmed %v", taken["Bo"], taken["Cy"], tt.bo, tt.cy)
			}
			if r.Unfinished == 0 {
				t.Error("one attack in one round finished every fight")
			}
		})
	}
	// A combatant's own tactic, by name in any case, goes before its
	// side's; a name that is neither side nor combatant is refused.
	tac, err := sim.ParseTactics("pc=focus-weakest,ANN=focus-strongest")
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, sim.Config{System: sys, State: st, Fights: 400, Seed: 9, Rounds: 1, Tactics: tac})
	for _, c := range r.Combatants {
		if (c.Name == "Bo" && c.Taken > 0) || (c.Name == "Cy" && c.Taken == 0) {
			t.Errorf("with Ann's own focus-strongest, %s took %v", c.Name, c.Taken)
		}
	}
	_, err = sim.Run(context.Background(), sim.Config{System: sys, State: st, Fights: 10, Tactics: map[string]sim.Tactic{"zed": sim.Random}})
	if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), `"zed"`) {
		t.Errorf("tactics for nobody: %v", err)
	}
}

// brokenQueue is queue with a bug: its attacks panic.
type brokenQueue struct{ *queue.System }

func (b brokenQueue) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	if cmd.Name == "attack" {
		panic("a bug in the rules")
	}
	return b.System.Decide(st, cmd, r)
}

// TestSimPanicIsAnError checks that a panic in a system's rules, on any
// worker, ends the run or the exact solve with an internal error naming
// it rather than the process (a server simulates on its own goroutines).
func TestSimPanicIsAnError(t *testing.T) {
	_, st := prepare(t, "queue", false, "add Ann side=pc wits=2 hp=1 weapon=sword:medium\nadd Bo side=npc wits=1 hp=1 weapon=club:medium\nstart")
	_, err := sim.Run(context.Background(), sim.Config{System: brokenQueue{queue.New()}, State: st, Fights: 50, Seed: 1, Workers: 2})
	if fray.ErrorCode(err) != fray.EINTERNAL || !strings.Contains(err.Error(), "a bug in the rules") {
		t.Fatalf("Run = %v, want an internal error naming the panic", err)
	}
	_, err = sim.Exact(context.Background(), sim.Config{System: brokenQueue{queue.New()}, State: st, Rounds: 3, Workers: 2})
	if fray.ErrorCode(err) != fray.EINTERNAL || !strings.Contains(err.Error(), "a bug in the rules") {
		t.Fatalf("Exact = %v, want an internal error naming the panic", err)
	}
}

// TestSheetTactics checks that a sheet's tactic: takes the names fray sim
// plays, no more and no fewer.
func TestSheetTactics(t *testing.T) {
	var names []string
	for _, tc := range sim.Tactics {
		names = append(names, string(tc))
	}
	if strings.Join(names, ",") != strings.Join(sheet.Tactics, ",") {
		t.Errorf("sim plays %v, sheets name %v", names, sheet.Tactics)
	}
}

// TestSimTracks checks every track of the report. Nobody spends Resolve
// or Power unless cautious, so the pp example's Gatecrasher ends every
// fight with the 3 Resolve of his sheet and the Citizen Soldier with 2,
// and the vv example's Power is never spent; the track that measures harm
// is reported under its own name as Left is.
func TestSimTracks(t *testing.T) {
	tests := []struct {
		id   string
		want map[string]map[string]float64 // exact values, by combatant and track
		has  []string                      // the tracks of every combatant
	}{
		{"pp", map[string]map[string]float64{"Gatecrasher": {"resolve": 3}, "Citizen Soldier": {"resolve": 2}}, []string{"health", "resolve"}},
		{"vv", nil, []string{"hit points", "power"}},
		{"bpb", nil, []string{"endurance"}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			sys, st := prepare(t, tt.id, true, "")
			r := run(t, sim.Config{System: sys, State: st, Fights: 100, Seed: 4, Rounds: 30})
			health := sys.(fray.Sheeter).Sheet().Health
			for _, c := range r.Combatants {
				var names []string
				for name := range c.Tracks {
					names = append(names, name)
				}
				slices.Sort(names)
				if strings.Join(names, ",") != strings.Join(tt.has, ",") {
					t.Errorf("%s: tracks %v, want %v", c.Name, names, tt.has)
				}
				if c.Tracks[health] != c.Left {
					t.Errorf("%s: %s %v, Left %v", c.Name, health, c.Tracks[health], c.Left)
				}
				for name, v := range tt.want[c.Name] {
					if c.Tracks[name] != v {
						t.Errorf("%s: %s %v, want %v", c.Name, name, c.Tracks[name], v)
					}
				}
				if c.Tactic != sim.FocusWeakest {
					t.Errorf("%s: tactic %q, want the default", c.Name, c.Tactic)
				}
			}
			if tt.id == "vv" {
				enc := st.(fray.BaseState).Base() // Run never changes it
				for _, c := range r.Combatants {
					if want := float64(enc.Find(c.Name).Tracks["power"].Value); c.Tracks["power"] != want {
						t.Errorf("%s: power %v, want the sheet's %v", c.Name, c.Tracks["power"], want)
					}
				}
			}
		})
	}
}

// TestSimCautiousExamples plays every system's example with both sides
// cautious: no refusal, no internal error, the shares adding up.
func TestSimCautiousExamples(t *testing.T) {
	for _, id := range []string{"bpb", "cinematic", "pp", "queue", "vv"} {
		t.Run(id, func(t *testing.T) {
			sys, st := prepare(t, id, true, "")
			r := run(t, sim.Config{System: sys, State: st, Fights: 100, Seed: 3, Rounds: 30,
				Tactics: map[string]sim.Tactic{fray.SidePC: sim.Cautious, fray.SideNPC: sim.Cautious}})
			sum := r.Unfinished
			for _, s := range r.Sides {
				sum += s.Win
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("wins and unfinished add up to %v, want 1", sum)
			}
			for _, c := range r.Combatants {
				if c.Tactic != sim.Cautious || c.Taken < 0 || c.Dealt < 0 {
					t.Errorf("%s: tactic %q, dealt %v, taken %v", c.Name, c.Tactic, c.Dealt, c.Taken)
				}
			}
		})
	}
}

// TestSimCautiousWithoutDefences checks that where the rules offer no
// defence that costs something (queue, vv: neither implements
// fray.SimGuarder), cautious plays as focus-weakest, die for die.
func TestSimCautiousWithoutDefences(t *testing.T) {
	for _, id := range []string{"queue", "vv"} {
		t.Run(id, func(t *testing.T) {
			sys, st := prepare(t, id, true, "")
			if _, ok := sys.(fray.SimGuarder); ok {
				t.Fatalf("%s offers defences", id)
			}
			plain := run(t, sim.Config{System: sys, State: st, Fights: 200, Seed: 8})
			careful := run(t, sim.Config{System: sys, State: st, Fights: 200, Seed: 8, Tactics: map[string]sim.Tactic{fray.SidePC: sim.Cautious}})
			careful.Sides[0].Tactic = plain.Sides[0].Tactic
			for i := range careful.Combatants {
				careful.Combatants[i].Tactic = plain.Combatants[i].Tactic
			}
			a, _ := json.Marshal(plain)
			b, _ := json.Marshal(careful)
			if string(a) != string(b) {
				t.Errorf("cautious:\n%s\nfocus-weakest:\n%s", b, a)
			}
		})
	}
}
