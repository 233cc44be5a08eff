package queue_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

// facesRoller plays back one d20 face per roll, in order, as physical
// dice do; calls counts the rolls asked for.
type facesRoller struct {
	faces []int
	calls int
}

func (f *facesRoller) Roll(forWhom, expr string) (fray.Roll, error) {
	face := 1
	if f.calls < len(f.faces) {
		face = f.faces[f.calls]
	}
	f.calls++
	return engine.RollFaces(forWhom, expr, []int{face})
}

// startOrder reads the queue a start event forms, by id.
func startOrder(t testing.TB, evs []fray.Event) []fray.CombatantID {
	t.Helper()
	var d struct {
		Order []fray.CombatantID `json:"order"`
	}
	if len(evs) != 1 || evs[0].Type != fray.EventStarted {
		t.Fatalf("start gave %v", evs)
	}
	if err := evs[0].Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d.Order
}

// partyOf names the party a combatant rolls with: their group, or them.
func partyOf(st *queue.State, name string) string {
	if c := st.Find(name); c.Group != "" {
		return c.Group
	}
	return name
}

// bruteFirst is the oracle of the queue roll's odds: it enumerates every
// face of every d20 the start rolls, has the order code itself (Decide)
// form the queue from those physical dice, and counts who heads it. It
// returns the exact chance of each "NAME first" band.
func bruteFirst(t testing.TB, st *queue.State) map[string]float64 {
	t.Helper()
	sys := queue.New()
	start := fray.Command{Name: "start"}
	count := &facesRoller{}
	if _, err := sys.Decide(st, start, count); err != nil {
		t.Fatal(err)
	}
	n := count.calls
	faces := make([]int, n)
	for i := range faces {
		faces[i] = 1
	}
	total := int(math.Pow(20, float64(n)))
	counts := map[string]int{}
	for range total {
		evs, err := sys.Decide(st, start, &facesRoller{faces: faces})
		if err != nil {
			t.Fatal(err)
		}
		counts[partyOf(st, st.NameOf(startOrder(t, evs)[0]))+" first"]++
		for i := n - 1; i >= 0; i-- {
			if faces[i] < 20 {
				faces[i]++
				break
			}
			faces[i] = 1
		}
	}
	out := map[string]float64{}
	for k, c := range counts {
		out[k] = float64(c) / float64(total)
	}
	return out
}

// stateOf runs script on a new encounter and returns its state.
func stateOf(t testing.TB, script string) *queue.State {
	t.Helper()
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	tt, ok := t.(*testing.T)
	if !ok {
		for _, line := range strings.Split(script, "\n") {
			if cmd, err := engine.ParseCommand(line); err == nil && cmd.Name != "" {
				if _, err := e.Do(cmd); err != nil {
					t.Fatal(err)
				}
			}
		}
		return e.State().(*queue.State)
	}
	run(tt, e, script)
	return e.State().(*queue.State)
}

// checkBands checks odds' bands against the oracle's chances, exactly
// (within float64 rounding), in the order the parties were added, with
// no band of chance 0, and summing to 1.
func checkBands(t *testing.T, o fray.Odds, want map[string]float64, order []string) {
	t.Helper()
	var names []string
	sum := 0.0
	for _, b := range o.Bands {
		names = append(names, b.Name)
		sum += b.P
		if math.Abs(b.P-want[b.Name]) > 1e-12 {
			t.Errorf("%s: odds %v, enumeration %v", b.Name, b.P, want[b.Name])
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("bands sum to %v", sum)
	}
	var wantNames []string
	for _, n := range order {
		if want[n+" first"] > 0 {
			wantNames = append(wantNames, n+" first")
		}
	}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("bands %v, want %v", names, wantNames)
	}
}

// the odds of start (each party's chance to head the queue) agree
// exactly with enumerating every face of every d20 and forming the queue
// with the order code, for two and three parties: PCs winning equal
// scores, the GM's tiebreak order (order) settling the rest, a group
// rolling once with its best member's Wits, and a party that cannot come
// first.
func TestQ1_StartOddsBruteForce(t *testing.T) {
	tests := []struct {
		name, script string
		parties      []string // in the order they were added
	}{
		{"PC against NPC", "add Ann side=pc wits=2\nadd Bear wits=1", []string{"Ann", "Bear"}},
		{"NPC ahead of PC", "add Bear wits=4\nadd Ann side=pc wits=1 bonus=1", []string{"Bear", "Ann"}},
		{"three equal, GM's order", "add A wits=0\nadd B wits=0\nadd C wits=0\norder C B", []string{"A", "B", "C"}},
		{"group rolls once", "add Ann side=pc wits=1\nadd \"Brigand #1\" group=Brigands wits=3\nadd Dan side=pc wits=3\nadd \"Brigand #2\" group=Brigands\norder Dan", []string{"Ann", "Brigands", "Dan"}},
		{"a party that cannot come first", "add Ann wits=25\nadd Bob side=pc\nadd Cid wits=6", []string{"Ann", "Bob", "Cid"}},
		{"PC group member", "add A group=G\nadd B side=pc group=G wits=-2\nadd C wits=0", []string{"G", "C"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := stateOf(t, tt.script)
			o, err := queue.New().Odds(st, fray.Command{Name: "start"})
			if err != nil {
				t.Fatal(err)
			}
			checkBands(t, o, bruteFirst(t, st), tt.parties)
		})
	}
}

// Q-1 by hand: Ann (PC, +2) against the bear (+1). Ann comes first when
// a + 2 ≥ b + 1 (PCs win equal scores), so b ≤ a + 1: a + 1 faces of b
// for a = 1 … 19 (2 + … + 20 = 209) and all 20 for a = 20, 229 of the 400
// pairs. Three equal NPCs with order C B: C first on a tie with anyone,
// B with A. C: Σ_t (1/20)(t/20)² = 2870/8000; A (losing every tie):
// Σ_t (1/20)((t−1)/20)² = 2470/8000; B the rest, 2660/8000.
func TestQ1_StartOddsByHand(t *testing.T) {
	tests := []struct {
		script string
		want   map[string]float64
	}{
		{"add Ann side=pc wits=2\nadd Bear wits=1", map[string]float64{"Ann first": 229.0 / 400, "Bear first": 171.0 / 400}},
		{"add A\nadd B\nadd C\norder C B", map[string]float64{"A first": 2470.0 / 8000, "B first": 2660.0 / 8000, "C first": 2870.0 / 8000}},
		{"add Ann wits=25\nadd Bob side=pc", map[string]float64{"Ann first": 1}},
	}
	for _, tt := range tests {
		o, err := queue.New().Odds(stateOf(t, tt.script), fray.Command{Name: "start"})
		if err != nil {
			t.Fatal(err)
		}
		if len(o.Bands) != len(tt.want) {
			t.Errorf("%q: bands %v, want %v", tt.script, o.Bands, tt.want)
		}
		for name, p := range tt.want {
			if math.Abs(o.P(name)-p) > 1e-12 {
				t.Errorf("%q: %s %v, want %v", tt.script, name, o.P(name), p)
			}
		}
	}
}

// the odds of start agree with the queues of 100,000 seeded starts
// of the same encounter, within 5 standard errors.
func TestQ1_StartOddsSeeded(t *testing.T) {
	st := stateOf(t, `add Johann side=pc wits=3
add Melvina side=pc wits=2
add "Brigand #1" group=Brigands wits=2
add "Brigand #2" group=Brigands wits=1
add "Pet Bear" wits=1 bonus=2
order Melvina`)
	sys := queue.New()
	start := fray.Command{Name: "start"}
	o, err := sys.Odds(st, start)
	if err != nil {
		t.Fatal(err)
	}
	r := seededRoller{rand.New(rand.NewPCG(4, 20))}
	const n = 100000
	counts := map[string]int{}
	for range n {
		evs, err := sys.Decide(st, start, r)
		if err != nil {
			t.Fatal(err)
		}
		counts[partyOf(st, st.NameOf(startOrder(t, evs)[0]))+" first"]++
	}
	for _, b := range o.Bands {
		se := math.Sqrt(b.P * (1 - b.P) / n)
		if got := float64(counts[b.Name]) / n; math.Abs(got-b.P) > 5*se+1e-9 {
			t.Errorf("%s: %v of %d seeded starts, odds %v (5 SE = %v)", b.Name, got, n, b.P, 5*se)
		}
		delete(counts, b.Name)
	}
	if len(counts) > 0 {
		t.Errorf("came first without a band: %v", counts)
	}
}

// Q-1, E-6: the start event records the odds the queue roll had, worked
// out before the dice: for everyone, one modifier per party (its Wits, a
// group's best), also when the dice are physical (entered with initiative
// NAME DIE, or dice= on start): the odds are those of the roll itself.
func TestQ1_StartRecordsOdds(t *testing.T) {
	setup := "add Ann side=pc wits=2\nadd \"Brigand #1\" group=Brigands wits=1\nadd \"Brigand #2\" group=Brigands wits=1 bonus=1\n"
	for _, line := range []string{"start", "start dice=3,17", "initiative Ann 12\ninitiative \"Brigand #2\" 5\nstart", "initiative Ann 12\nstart roll=9"} {
		e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
		run(t, e, setup+line)
		ev := lastEvent(t, e, fray.EventStarted)
		// Ann +2 (PC) against the brigands +2 (Brigand #2's Wits 1 and
		// bonus 1): Ann first when a ≥ b, 210 of the 400 pairs.
		want := fray.Odds{
			Command: "start", Roll: "initiative", Expr: "1d20 + Wits each",
			Bands: []fray.Band{
				{Name: "Ann first", P: 210.0 / 400, Who: []string{"Ann"}},
				{Name: "Brigands first", P: 190.0 / 400, Who: []string{"Brigands", "Brigand #1", "Brigand #2"}},
			},
			Modifiers: []fray.Modifier{
				{Source: "Ann: Wits", Who: []string{"Ann"}, Value: 2},
				{Source: "Brigands: Wits + bonus", Who: []string{"Brigands", "Brigand #1", "Brigand #2"}, Value: 2},
			},
		}
		if ev.Odds == nil {
			t.Fatalf("%s: no odds recorded", line)
		}
		got := *ev.Odds
		for i := range got.Bands {
			if i < len(want.Bands) && math.Abs(got.Bands[i].P-want.Bands[i].P) < 1e-12 {
				got.Bands[i].P = want.Bands[i].P
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: odds %+v, want %+v", line, got, want)
		}
	}
}

// odds start and odds initiative NAME show the odds without rolling,
// changing or logging anything, and refuse what start and initiative
// would refuse, in the same words.
func TestQ1_OddsStartChangesNothing(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	refuse(t, e, "odds start", "Nobody is in the encounter")
	run(t, e, "add Ann side=pc wits=2\nadd Bear wits=1\ninitiative Bear 7\norder Bear")
	for _, line := range []string{"odds start", "odds initiative Ann"} {
		before := e.State().Clone()
		n := len(e.Log())
		cmd, _ := engine.ParseCommand(line)
		if _, err := e.Do(cmd); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if len(e.Log()) != n || !reflect.DeepEqual(before, e.State()) {
			t.Errorf("%s changed the encounter", line)
		}
	}
	refuse(t, e, "odds start now", "start")
	refuse(t, e, "odds start dice=4,5", "odds rolls nothing")
	refuse(t, e, "odds initiative Ann 14", "a die's face has no odds")
	refuse(t, e, "odds initiative Zed", `no combatant named "Zed"`)
	run(t, e, "start")
	refuse(t, e, "odds start", "already started")
	refuse(t, e, "odds initiative Ann", "the queue is already formed")
	refuse(t, e, "odds next", "no odds")
}

// odds initiative NAME: the chance that NAME's party heads the queue and
// the distribution of its score. Ann (+4, wits 3 and bonus 1) against
// Bob (+0): Ann first when a + 4 ≥ b (no PC here, and Ann is first in
// the order of adding): a + 4 faces for a = 1 … 16 (5 + … + 20 = 200) and
// 20 for a = 17 … 20 (80), 280 of 400. A brigand's odds are the group's.
func TestQ1_InitiativeOdds(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e, "add Ann wits=3 bonus=1\nadd Bob\nadd \"Brigand #1\" group=Brigands wits=5\nadd \"Brigand #2\" group=Brigands wits=9")
	cmd, _ := engine.ParseCommand("odds initiative Ann")
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if o.Expr != "1d20+4" || o.For != "Ann" || len(o.Dist) != 20 || o.Dist[0].V != 5 || math.Abs(o.Mean-14.5) > 1e-12 {
		t.Errorf("odds %+v", o)
	}
	st := e.State().(*queue.State)
	all := bruteFirst(t, st)
	if len(o.Bands) != 2 || o.Bands[1].Name != "Ann first" || math.Abs(o.P("Ann first")-all["Ann first"]) > 1e-12 || math.Abs(o.P("Ann not first")+o.P("Ann first")-1) > 1e-12 {
		t.Errorf("bands %v, enumeration %v", o.Bands, all["Ann first"])
	}
	cmd, _ = engine.ParseCommand(`odds initiative "Brigand #1"`)
	if o, err = e.Odds(cmd); err != nil {
		t.Fatal(err)
	}
	if o.For != "Brigands" || o.Expr != "1d20+9" || math.Abs(o.P("Brigands first")-all["Brigands first"]) > 1e-12 {
		t.Errorf("a brigand's odds %+v, enumeration %v", o, all["Brigands first"])
	}
	e2 := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e2, "add Ann wits=3 bonus=1\nadd Bob")
	cmd, _ = engine.ParseCommand("odds initiative Bob")
	if o, err = e2.Odds(cmd); err != nil {
		t.Fatal(err)
	}
	if math.Abs(o.P("Ann first")) > 0 || math.Abs(o.P("Bob not first")-280.0/400) > 1e-12 {
		t.Errorf("Bob's odds %+v", o)
	}
}

// The odds lines of the queue's golden transcripts of fray play
// (cmd/fray/testdata/play) are the oracle's: each example's encounter,
// without its physical dice, is enumerated face by face through the
// order code, and the line fray play prints is built from those counts.
func TestInitiativeOddsOfTheExamples(t *testing.T) {
	tests := []struct{ golden, script string }{
		{"queue-brigands", mustRead("../../examples/queue-brigands.fray")},
		{"queue-johann", mustRead("../../examples/queue-johann.fray")},
		{"queue-json", "add Ann side=pc wits=2\nadd Bear wits=1\ninitiative Ann 12\nstart roll=9"},
	}
	// The oracle's answers by encounter: what start rolls depends only on
	// who is in it (names, sides, groups, Wits and bonus) and the GM's
	// order, so two examples with the same encounter share one
	// enumeration.
	oracle := map[string]map[string]float64{}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			// The encounter as it stands at start, without the dice.
			var lines []string
			for _, line := range strings.Split(tt.script, "\n") {
				if strings.HasPrefix(line, "start") {
					break
				}
				if !strings.HasPrefix(line, "initiative ") {
					lines = append(lines, line)
				}
			}
			st := stateOf(t, strings.Join(lines, "\n"))
			key := fmt.Sprint(st.Tiebreak)
			for _, c := range st.Combatants {
				key += fmt.Sprintf("|%q %s %q %d %d", c.Name, c.Side, c.Group, c.Stat("wits"), c.Stat("bonus"))
			}
			want, ok := oracle[key]
			if !ok {
				want = bruteFirst(t, st)
				oracle[key] = want
			}
			o, err := queue.New().Odds(st, fray.Command{Name: "start"})
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			var mods []string
			var order []string
			seen := map[string]bool{}
			for _, c := range st.Combatants {
				if p := partyOf(st, c.Name); !seen[p] {
					seen[p] = true
					order = append(order, p)
					parts = append(parts, fmt.Sprintf("%s first %.1f%%", p, 100*want[p+" first"]))
				}
			}
			checkBands(t, o, want, order)
			for _, m := range o.Modifiers {
				mods = append(mods, m.String())
			}
			gold, err := os.ReadFile("../../cmd/fray/testdata/play/" + tt.golden + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			if tt.golden == "queue-json" {
				// The JSON transcript carries the odds in the start
				// event (229/400 and 171/400, TestQ1_StartOddsByHand).
				for _, l := range strings.Split(string(gold), "\n") {
					if !strings.Contains(l, `"type":"started"`) {
						continue
					}
					var out struct{ Events []fray.Event }
					if err := json.Unmarshal([]byte(l), &out); err != nil || len(out.Events) != 1 || out.Events[0].Odds == nil {
						t.Fatalf("%s.golden: the start event has no odds: %v", tt.golden, err)
					}
					checkBands(t, *out.Events[0].Odds, want, order)
					return
				}
				t.Fatalf("%s.golden has no start event", tt.golden)
			}
			line := "  odds: " + strings.Join(parts, ", ") + " (1d20 + Wits each; " + strings.Join(mods, "; ") + ")\n"
			if !strings.Contains(string(gold), line) {
				t.Errorf("%s.golden lacks the line\n%s", tt.golden, line)
			}
		})
	}
}

// BenchmarkInitiativeOdds works out the odds of start for 10 parties.
func BenchmarkInitiativeOdds(b *testing.B) {
	var script []string
	for i := range 10 {
		script = append(script, fmt.Sprintf("add C%d wits=%d side=%s", i, i%4, []string{"pc", "npc"}[i%2]))
	}
	st := stateOf(b, strings.Join(script, "\n"))
	sys := queue.New()
	start := fray.Command{Name: "start"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sys.Odds(st, start); err != nil {
			b.Fatal(err)
		}
	}
}
