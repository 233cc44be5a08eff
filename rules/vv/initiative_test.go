package vv_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/vv"
)

// firstOdds returns the chance of each band of the odds of line ("start",
// "next" …) by name, checking that they sum to 1.
func firstOdds(t testing.TB, e *engine.Engine, line string) map[string]float64 {
	t.Helper()
	cmd, err := engine.ParseCommand("odds " + line)
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return bandMap(t, o)
}

func bandMap(t testing.TB, o fray.Odds) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	sum := 0.0
	for _, b := range o.Bands {
		if b.P <= 0 {
			t.Errorf("band %q has P = %v; bands of P 0 are left out", b.Name, b.P)
		}
		out[b.Name] = b.P
		sum += b.P
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("bands %v sum to %v, want 1", o.Bands, sum)
	}
	return out
}

// wantBands compares got with want (band name → probability) within 1e-12.
func wantBands(t *testing.T, what string, got, want map[string]float64) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmp.Comparer(func(x, y float64) bool { return math.Abs(x-y) < 1e-12 })); diff != "" {
		t.Errorf("%s: bands (-want +got):\n%s", what, diff)
	}
}

// applyAll applies evs to a clone of st and returns it.
func applyAll(t testing.TB, sys fray.System, st fray.State, evs []fray.Event) fray.State {
	t.Helper()
	s := st.Clone()
	for _, ev := range evs {
		if err := sys.Apply(s, ev); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// first names who acts first in st's turn, or vv.NobodyFirst.
func first(st fray.State) string {
	if n := st.(*vv.State).Current(); n != "" {
		return vv.FirstBand(n)
	}
	return vv.NobodyFirst
}

// treeRoller rolls the dice of one path through every way a command's
// dice can fall: the faces of path, then a 1 for each die beyond it,
// whose number of faces it records in sides.
type treeRoller struct {
	path  []int
	sides *[]int
}

func (r treeRoller) Roll(forWhom, expr string) (fray.Roll, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(expr, "1d"))
	if err != nil {
		return fray.Roll{}, fmt.Errorf("treeRoller rolls only 1dN, not %q", expr)
	}
	*r.sides = append(*r.sides, n)
	x := 1
	if i := len(*r.sides) - 1; i < len(r.path) {
		x = r.path[i]
	}
	return fray.Roll{For: forWhom, Expr: expr, Dice: []int{x}, Total: x, Source: fray.RollFaces}, nil
}

// tossOutcomes starts the encounter st (every initiative die entered) in
// every way its tie dice can fall, with the order code itself (Decide
// and Apply), and returns who acts first, each way weighted by its
// chance.
func tossOutcomes(t testing.TB, st fray.State) map[string]float64 {
	t.Helper()
	sys := vv.New()
	out := map[string]float64{}
	start := fray.Command{Name: "start"}
	var walk func(path []int, p float64)
	walk = func(path []int, p float64) {
		var sides []int
		evs, err := sys.Decide(st, start, treeRoller{path: path, sides: &sides})
		if err != nil {
			t.Fatal(err)
		}
		if len(sides) > len(path) {
			n := sides[len(path)]
			for x := 1; x <= n; x++ {
				walk(append(slices.Clone(path), x), p/float64(n))
			}
			return
		}
		out[first(applyAll(t, sys, st, evs))] += p
	}
	walk(nil, 1)
	return out
}

// firstByEnumeration is the brute-force oracle: for every combination of
// initiative dice of every character (entered with initiative NAME DIE),
// and every way the tie dice the start then rolls can fall (see
// tossOutcomes), it counts who acts first, each combination weighted by
// its chance.
func firstByEnumeration(t testing.TB, st fray.State) map[string]float64 {
	t.Helper()
	sys := vv.New()
	var names []string
	for _, c := range st.(*vv.State).Combatants {
		if c.Kind != fray.KindEnvironment {
			names = append(names, c.Name)
		}
	}
	combos := int(math.Pow(10, float64(len(names))))
	out := map[string]float64{}
	for k := range combos {
		s := st.Clone()
		x := k
		for _, n := range names {
			cmd := fray.Command{Name: "initiative", Args: []string{n, strconv.Itoa(x%10 + 1)}}
			x /= 10
			evs, err := sys.Decide(s, cmd, nil)
			if err != nil {
				t.Fatal(err)
			}
			s = applyAll(t, sys, s, evs)
		}
		for name, p := range tossOutcomes(t, s) {
			out[name] += p / float64(combos)
		}
	}
	for k, p := range out {
		if p == 0 {
			delete(out, k)
		}
	}
	return out
}

// The odds of odds start agree exactly with the brute-force oracle.
func TestInitiativeOddsBruteForce(t *testing.T) {
	for _, script := range []string{
		// Plain: Agility, then Move Rate on a tie of phase.
		"add A agility=15 move=20\nadd B agility=10\nadd C agility=12 move=30",
		"add A agility=10 move=30\nadd B agility=10 move=20\nadd C agility=11",
		// A full tie, settled by the tie die, then the order added.
		"add A agility=10 move=20\nadd B agility=10 move=20",
		"add A agility=10 move=20\nadd B agility=10 move=20\nadd C agility=10 move=20",
		// The GM's order; A, unranked, goes after the ranked.
		"add A agility=10 move=20\nadd B agility=10 move=20\norder B",
		"add A agility=10 move=20\nadd B agility=10 move=20\nadd C agility=10 move=20\norder C B",
		// Surprise, house rule: Quick (59 → 29) may act first only on
		// the attackers' highest phase; Wary noticed and is not an
		// attacker.
		"add Amb side=npc agility=20\nadd Quick side=pc agility=50\nadd Plain side=pc agility=21\nadd Wary side=pc agility=25\nsurprise Quick Plain",
		// Plain (halved 10–15) and Amb share phases 15 apart: tie dice.
		"add Amb side=npc agility=20\nadd Quick side=pc agility=50\nadd Plain side=pc agility=20\nadd Wary side=pc agility=25\nsurprise Quick Plain",
		// A victim fully tied with the attackers on their highest phase.
		"add Amb side=npc agility=0 move=10\nadd Vic side=pc agility=0 move=10\nsurprise Vic",
		"add Amb side=npc agility=0 move=10\nadd Vic side=pc agility=0 move=10\nadd Wary side=pc agility=-3\nadd Foe side=npc agility=0 move=10\nsurprise Vic",
		// Every side has a victim: whoever noticed is an attacker.
		"add A side=pc agility=10\nadd B side=pc agility=30\nadd C side=npc agility=5\nsurprise B C",
		// No attackers left: the victims only halve theirs.
		"add A agility=10\nadd B agility=30\nadd C agility=5\nsurprise B C\nremove A",
		// Surprise as written: the victim does not roll.
		"add Amb side=npc agility=20\nadd Vic side=pc agility=50\nadd Wary side=pc agility=15\nset surprise=raw\nsurprise Vic",
		// Initiative at 0 or below: no phases, maybe nobody acts.
		"add A agility=-8\nadd B agility=-5 move=10",
	} {
		t.Run(strings.ReplaceAll(script, "\n", "; "), func(t *testing.T) {
			e, _ := newEngine(t, script)
			got := firstOdds(t, e, "start")
			wantBands(t, "odds start", got, firstByEnumeration(t, e.State()))
		})
	}
}

// V-1: 1d10 + Agility, the highest first. A 16–25 and B 11–20: B is first
// only with b > a + 5: 4 + 3 + 2 + 1 = 10 of the 100 pairs (a tie of
// phase goes to A's higher Agility). Odds lists one Agility modifier per
// character.
func TestV1_InitiativeOdds(t *testing.T) {
	e, _ := newEngine(t, "add A agility=15\nadd B agility=10")
	cmd, _ := engine.ParseCommand("odds start")
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	wantBands(t, "odds start", bandMap(t, o), map[string]float64{"A first": 0.9, "B first": 0.1})
	want := fray.Odds{Command: "start", Roll: vv.InitiativeRoll, Expr: "1d10 + Agility each",
		Bands:     o.Bands,
		Modifiers: []fray.Modifier{{Source: "A: Agility", Who: []string{"A"}, Value: 15}, {Source: "B: Agility", Who: []string{"B"}, Value: 10}}}
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("odds (-want +got):\n%s", diff)
	}
	// The d10 a character enters (or rolls) with initiative serves that
	// same roll, so its odds are the same, for the one who rolls it.
	icmd, _ := engine.ParseCommand("odds initiative B")
	io, err := e.Odds(icmd)
	if err != nil {
		t.Fatal(err)
	}
	want.Command, want.For = "initiative B", "B"
	if diff := cmp.Diff(want, io); diff != "" {
		t.Errorf("odds initiative B (-want +got):\n%s", diff)
	}
	// The start records the same odds, and the roll.
	do(t, e, "start")
	ev := turnEvent(t, e)
	if ev.Odds == nil || !cmp.Equal(*ev.Odds, o) {
		t.Errorf("turn event odds %+v, want %+v", ev.Odds, o)
	}
}

// turnEvent returns the latest EventTurn of e's log.
func turnEvent(t *testing.T, e *engine.Engine) fray.Event {
	t.Helper()
	log := e.Log()
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type == vv.EventTurn {
			return log[i]
		}
	}
	t.Fatal("no turn event")
	return fray.Event{}
}

// V-2: ties of phase go to the higher Agility, then the higher Move Rate,
// then the GM's order, then an even toss.
func TestV2_TieOdds(t *testing.T) {
	for _, tt := range []struct {
		script string
		want   map[string]float64
	}{
		// Equal Agility, A moves faster: A is first on a ≥ b, 55 of
		// 100.
		{"add A agility=10 move=30\nadd B agility=10 move=20", map[string]float64{"A first": 0.55, "B first": 0.45}},
		// A full tie: a > b 45 of 100; a = b 10 of 100, then an even
		// toss: 0.45 + 0.1 × 0.5 = 0.5.
		{"add A agility=10 move=20\nadd B agility=10 move=20", map[string]float64{"A first": 0.5, "B first": 0.5}},
		// Three fully tied: a third each.
		{"add A agility=10 move=20\nadd B agility=10 move=20\nadd C agility=10 move=20", map[string]float64{"A first": 1.0 / 3, "B first": 1.0 / 3, "C first": 1.0 / 3}},
		// The GM puts B first on a tie: B on b ≥ a.
		{"add A agility=10 move=20\nadd B agility=10 move=20\norder B A", map[string]float64{"A first": 0.45, "B first": 0.55}},
		// Only B ranked: the ranked go before the unranked.
		{"add A agility=10 move=20\nadd B agility=10 move=20\norder B", map[string]float64{"A first": 0.45, "B first": 0.55}},
	} {
		e, _ := newEngine(t, tt.script)
		wantBands(t, tt.script, firstOdds(t, e, "start"), tt.want)
	}
}

// V-4: Ambusher 21–30 sets the mark; Victim 41–50 halves to 20–25 (20 and
// 25 one way each, 21 … 24 two ways each) and acts first only on the
// mark itself, where its Agility 40 wins: P(h = t) for t = 21 … 25 is
// 0.2, 0.2, 0.2, 0.2, 0.1, each times P(mark = t) = 0.1, so 0.09. As
// written the victim does not roll: no band and no modifier.
func TestV4_SurpriseOdds(t *testing.T) {
	const setup = "add Ambusher side=npc agility=20\nadd Victim side=pc agility=40\nsurprise Victim"
	e, _ := newEngine(t, setup)
	wantBands(t, "house", firstOdds(t, e, "start"), map[string]float64{"Ambusher first": 0.91, "Victim first": 0.09})
	e, _ = newEngine(t, setup+"\nset surprise=raw")
	cmd, _ := engine.ParseCommand("odds start")
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	wantBands(t, "raw", bandMap(t, o), map[string]float64{"Ambusher first": 1})
	if want := []fray.Modifier{{Source: "Ambusher: Agility", Who: []string{"Ambusher"}, Value: 20}}; !cmp.Equal(o.Modifiers, want) {
		t.Errorf("modifiers %v, want %v", o.Modifiers, want)
	}
	// The second turn: no more surprise, everyone rolls in full: Victim
	// 41–50 against 21–30.
	do(t, e, "start\nnext\nnext")
	wantBands(t, "turn 2", bandMap(t, *turnEvent(t, e).Odds), map[string]float64{"Victim first": 1})
}

// V-5: initiative is rerolled by the next that ends a turn, which records
// the odds; odds next answers them beforehand, and refuses while the turn
// goes on. A held action carried over does not count as acting first.
func TestV5_RerollOdds(t *testing.T) {
	e, _ := newEngine(t, "add A agility=15 move=20\nadd B agility=10\ninitiative A 10\ninitiative B 1\nstart")
	// A 25 (25, 10), B 11.
	refuseOdds(t, e, "next", "none to show")
	refuseOdds(t, e, "start", "already started")
	// B on 11, then A on 10, the last slot: its next (or hold) ends the
	// turn.
	do(t, e, "next\nnext")
	refuseOdds(t, e, "next A B", "next")
	before := e.State().Clone()
	got := firstOdds(t, e, "next")
	if diff := cmp.Diff(before, e.State()); diff != "" {
		t.Fatalf("odds next changed the state:\n%s", diff)
	}
	wantBands(t, "odds next", got, map[string]float64{"A first": 0.9, "B first": 0.1})
	wantBands(t, "odds hold", firstOdds(t, e, "hold"), got)
	// A holds the action into turn 2 (house rule); the odds do not
	// count it.
	do(t, e, "hold")
	ev := turnEvent(t, e)
	if ev.Odds == nil || ev.Odds.Command != "hold" {
		t.Fatalf("turn 2 event odds %+v, want the odds of hold", ev.Odds)
	}
	wantBands(t, "turn 2 event", bandMap(t, *ev.Odds), got)
	if st(e).Round != 2 {
		t.Fatalf("turn %d, want 2", st(e).Round)
	}
}

func refuseOdds(t *testing.T, e *engine.Engine, line, want string) {
	t.Helper()
	cmd, err := engine.ParseCommand("odds " + line)
	if err != nil {
		t.Fatal(err)
	}
	before := e.State().Clone()
	_, err = e.Odds(cmd)
	if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), want) {
		t.Errorf("odds %s: error %v, want an EINVALID error containing %q", line, err, want)
	}
	if diff := cmp.Diff(before, e.State()); diff != "" {
		t.Errorf("odds %s changed the state:\n%s", line, diff)
	}
}

// odds start rolls nothing and changes nothing, not even the dice entered
// with initiative, which it does not look at.
func TestOddsStartChangesNothing(t *testing.T) {
	e, _ := newEngine(t, "add A agility=15\nadd B agility=10 move=5\ninitiative A 3\norder B\nsurprise B")
	before := e.State().Clone()
	n := len(e.Log())
	got := firstOdds(t, e, "start")
	if diff := cmp.Diff(before, e.State()); diff != "" {
		t.Errorf("odds start changed the state:\n%s", diff)
	}
	if len(e.Log()) != n {
		t.Errorf("odds start logged %d events", len(e.Log())-n)
	}
	wantBands(t, "odds start", got, firstByEnumeration(t, e.State()))
}

// Physical dice, entered with initiative or given with start dice=, still
// record the odds the roll had before any die was known.
func TestInitiativeOddsPhysicalDice(t *testing.T) {
	want := map[string]float64{"A first": 0.9, "B first": 0.1}
	for _, script := range []string{
		"add A agility=15\nadd B agility=10\ninitiative A 1\ninitiative B 10\nstart",
		"add A agility=15\nadd B agility=10\nstart dice=1,10",
	} {
		e, _ := newEngine(t, script)
		ev := turnEvent(t, e)
		if ev.Odds == nil {
			t.Fatalf("%s: no odds recorded", script)
		}
		wantBands(t, script, bandMap(t, *ev.Odds), want)
		// A 16, B 20: B acts first, the 10% outcome.
		if got := st(e).Current(); got != "B" {
			t.Errorf("%s: %s acts first, want B", script, got)
		}
	}
}

// The odds of odds start agree with the frequencies of 100,000 seeded
// starts within 5 standard errors.
func TestInitiativeOddsSeeded(t *testing.T) {
	e, _ := newEngine(t, "add Amb side=npc agility=0 move=10\nadd Vic side=pc agility=0 move=10\nadd Wary side=pc agility=-2\nadd Foe side=npc agility=3\nsurprise Vic")
	want := firstOdds(t, e, "start")
	sys := vv.New()
	r := seededRoller{rand.New(rand.NewPCG(5, 6))}
	const n = 100000
	count := map[string]int{}
	start := fray.Command{Name: "start"}
	for range n {
		evs, err := sys.Decide(e.State(), start, r)
		if err != nil {
			t.Fatal(err)
		}
		count[first(applyAll(t, sys, e.State(), evs))]++
	}
	for name := range count {
		if _, ok := want[name]; !ok {
			t.Errorf("%s %d times, but the odds give it no band", name, count[name])
		}
	}
	for name, p := range want {
		se := math.Sqrt(p * (1 - p) / n)
		if got := float64(count[name]) / n; math.Abs(got-p) > 5*se+1e-9 {
			t.Errorf("%s: %v of %d seeded starts, odds %v (5 SE = %v)", name, got, n, p, 5*se)
		}
	}
}

// The odds lines of the vv golden transcripts of fray play, proved by the
// brute-force oracle on the examples' characters. vv-brawl: Vex 17–26,
// Tank 9–18, Crate 1–10; Tank is first only on 8 + b > 16 + a, a = 1 and
// b = 10: 1%. vv-resolution (turns 1 and 2 alike): Jack 20–29 wins ties
// on his Agility 19, Blaze 15–24, Grue 13–22, Brick 11–20 never first;
// P(Jack) = 0.1 × (0.6 × 0.8 + 0.7 × 0.9 + 0.8 + 0.9 + 6) = 0.881.
func TestInitiativeOddsOfTheExamples(t *testing.T) {
	for _, tt := range []struct{ script, want string }{
		{`add Vex agility=16 move=40 power=30 level=3 hits=2 hp=16 attack=Bolt:1d8:energy:11:ranged,Choke:1d6:gas:9:ranged
add Tank side=pc agility=8 move=30 power=50 level=2 hits=4 hp=28 attack=Slam:1d10:kinetic:10:close protection=kinetic:3,gas:1
add Crate level=0 hits=10 hp=20 notes="a crate of machine parts"`,
			"Vex first 99.0%, Tank first 1.0%"},
		{`add "Jack B. Nimble" side=pc agility=19 move=90
add Brick side=pc agility=10 move=40
add "Doctor Blaze" agility=14 move=40
add Grue agility=12 move=40`,
			"Jack B. Nimble first 88.1%, Doctor Blaze first 9.9%, Grue first 2.0%"},
	} {
		e, _ := newEngine(t, tt.script)
		cmd, _ := engine.ParseCommand("odds start")
		o, err := e.Odds(cmd)
		if err != nil {
			t.Fatal(err)
		}
		oracle := firstByEnumeration(t, e.State())
		wantBands(t, tt.want, bandMap(t, o), oracle)
		var parts []string
		for _, b := range o.Bands {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", b.Name, 100*oracle[b.Name]))
		}
		if got := strings.Join(parts, ", "); got != tt.want {
			t.Errorf("golden line %q, oracle %q", tt.want, got)
		}
	}
}

// BenchmarkInitiativeOdds works out the odds of the initiative roll of ten
// characters, two pairs of them fully tied.
func BenchmarkInitiativeOdds(b *testing.B) {
	var script strings.Builder
	for i := range 10 {
		fmt.Fprintf(&script, "add C%d agility=%d move=%d\n", i, 10+i/2*3, 20+i%3)
	}
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	for _, line := range strings.Split(strings.TrimSpace(script.String()), "\n") {
		cmd, _ := engine.ParseCommand(line)
		if _, err := e.Do(cmd); err != nil {
			b.Fatal(err)
		}
	}
	cmd, _ := engine.ParseCommand("odds start")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Odds(cmd); err != nil {
			b.Fatal(err)
		}
	}
}

// V-2: "Only if that is also tied do we resort to a die toss." A toss is
// even: two characters tied on phase, Agility and Move Rate, whom the GM
// has not ordered, each go first half the time, both in the dice rolled
// (every way the toss can fall, enumerated) and in the odds: 0.45 + 0.1 ×
// 0.5 = 0.5 each.
func TestV2_FullTieTossIsEven(t *testing.T) {
	e, _ := newEngine(t, "add A agility=10 move=20\nadd B agility=10 move=20")
	wantBands(t, "odds start", firstOdds(t, e, "start"), map[string]float64{"A first": 0.5, "B first": 0.5})
	do(t, e, "initiative A 5\ninitiative B 5")
	wantBands(t, "the toss", tossOutcomes(t, e.State()), map[string]float64{"A first": 0.5, "B first": 0.5})
	// However many are tied: 40 alike, 1/40 each.
	var script strings.Builder
	want := map[string]float64{}
	for i := range 40 {
		fmt.Fprintf(&script, "add C%d agility=10 move=20\n", i)
		want[fmt.Sprintf("C%d first", i)] = 1.0 / 40
	}
	e, _ = newEngine(t, script.String())
	wantBands(t, "40 tied", firstOdds(t, e, "start"), want)
}
