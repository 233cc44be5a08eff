package bpb_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
)

// setUp returns a new engine after the script's lines, which must all be
// accepted.
func setUp(t testing.TB, script string) *engine.Engine {
	t.Helper()
	e := newEngine()
	for _, l := range strings.Split(script, "\n") {
		if strings.TrimSpace(l) != "" {
			doLine(t, e, l)
		}
	}
	return e
}

// startOdds returns the odds of line (a start command) in e.
func startOdds(t testing.TB, e *engine.Engine, line string) fray.Odds {
	t.Helper()
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatalf("odds %s: %v", line, err)
	}
	return o
}

// startedOrder reads the order of play a start event rolled, by the
// names the combatants have in e.
func startedOrder(t testing.TB, e *engine.Engine, evs []fray.Event) []string {
	t.Helper()
	for _, ev := range evs {
		if ev.Type == fray.EventStarted {
			var d struct {
				Order []fray.CombatantID `json:"order"`
			}
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				t.Fatal(err)
			}
			return engine.NamesOf(base(e), d.Order)
		}
	}
	t.Fatalf("no start event in %v", evs)
	return nil
}

// Of the 1296 pairs of 2d6, 146 are ties (1² + 2² + … + 6² + … + 1² =
// 146) and (1296 − 146) / 2 = 575 are won by each side.
const (
	tieWin  = (1296.0 + 146) / 2 / 1296 // 721/1296: wins the ties too
	tieLose = (1296.0 - 146) / 2 / 1296 // 575/1296
)

// B-4: the odds of who acts first in the rolled order, worked out by hand
// from 2d6 + Perception + Super-speed and our tie rules (the higher
// Perception, then PCs, then the GM's order declared before the start,
// then the order added).
func TestB4_RolledOrderOdds(t *testing.T) {
	tests := []struct {
		name, setup string
		want        []fray.Band
		mods        []fray.Modifier
	}{
		{"PCs win ties", "add Ann side=pc perception=3\nadd Bob perception=3",
			[]fray.Band{{Name: "Ann first", P: tieWin}, {Name: "Bob first", P: tieLose}},
			[]fray.Modifier{{Source: "Ann: Perception", Value: 3}, {Source: "Bob: Perception", Value: 3}}},
		// Both add 3, so the ties go to Bob's Perception 3 over Ann's 2,
		// ahead of Ann being a PC.
		{"higher Perception wins ties", "add Ann side=pc perception=2 superspeed=1\nadd Bob perception=3",
			[]fray.Band{{Name: "Ann first", P: tieLose}, {Name: "Bob first", P: tieWin}},
			[]fray.Modifier{{Source: "Ann: Perception + Super-speed", Value: 3}, {Source: "Bob: Perception", Value: 3}}},
		{"the declared order breaks the rest", "add Ann perception=1\nadd Bob perception=1\norder Bob Ann",
			[]fray.Band{{Name: "Ann first", P: tieLose}, {Name: "Bob first", P: tieWin}},
			[]fray.Modifier{{Source: "Ann: Perception", Value: 1}, {Source: "Bob: Perception", Value: 1}}},
		{"then the order added", "add Ann perception=1\nadd Bob perception=1",
			[]fray.Band{{Name: "Ann first", P: tieWin}, {Name: "Bob first", P: tieLose}},
			nil},
		// Ann's best, 12 + 0, only ties Bob's worst, 2 + 10, and Bob's
		// Perception wins the tie: Ann cannot come first and has no band.
		{"no chance, no band", "add Ann side=pc\nadd Bob perception=10",
			[]fray.Band{{Name: "Bob first", P: 1}},
			[]fray.Modifier{{Source: "Ann: Perception", Value: 0}, {Source: "Bob: Perception", Value: 10}}},
		// Bob adds 1 more, and wins the ties on Perception: Ann comes first
		// when her 2d6 beats his by 2 or more. Of the 1296 pairs, 575 have
		// A > B, and Σ_v n(v)·n(v−1) = 1·2 + 2·3 + 3·4 + 4·5 + 5·6 + 6·5 +
		// 5·4 + 4·3 + 3·2 + 2·1 = 140 have A − B = 1 (n(v) the ways 2d6
		// make v), so 575 − 140 = 435 give Ann the lead and 861 Bob. Cat,
		// unaware, and Rock, the environment, do not roll.
		{"one point apart", "add Ann perception=2\nadd Bob perception=3\nadd Cat aware=no perception=9\nadd Rock kind=environment",
			[]fray.Band{{Name: "Ann first", P: 435.0 / 1296}, {Name: "Bob first", P: 861.0 / 1296}},
			[]fray.Modifier{{Source: "Ann: Perception", Value: 2}, {Source: "Bob: Perception", Value: 3}}},
		{"alone", "add Ann perception=2", []fray.Band{{Name: "Ann first", P: 1}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := setUp(t, tt.setup)
			o := startOdds(t, e, "odds start order=rolled")
			if o.Command != "start order=rolled" || o.Roll != bpb.RollInitiative || o.For != "" || o.Expr != "2d6 + Perception + Super-speed each" || o.TargetKind != "" {
				t.Errorf("odds %+v", o)
			}
			if len(o.Bands) != len(tt.want) {
				t.Fatalf("bands %v, want %v", o.Bands, tt.want)
			}
			for i, b := range tt.want {
				if o.Bands[i].Name != b.Name || math.Abs(o.Bands[i].P-b.P) > 1e-12 {
					t.Errorf("band %d: %v, want %v", i, o.Bands[i], b)
				}
			}
			// Each modifier declares whom its source names.
			for i, m := range o.Modifiers {
				name, _, _ := strings.Cut(m.Source, ":")
				if !reflect.DeepEqual(m.Who, []string{name}) {
					t.Errorf("modifier %q declares %q", m.Source, m.Who)
				}
				o.Modifiers[i].Who = nil
			}
			if tt.mods != nil && !reflect.DeepEqual(o.Modifiers, tt.mods) {
				t.Errorf("modifiers %v, want %v", o.Modifiers, tt.mods)
			}
		})
	}
}

// facesRoller plays back a fixed list of faces, two per roll of 2d6.
type facesRoller struct {
	faces []int
	next  *int
}

func (f facesRoller) Roll(who, expr string) (fray.Roll, error) {
	i := *f.next
	*f.next += 2
	return engine.RollFaces(who, expr, f.faces[i:i+2])
}

// oracle counts, over every face of every combatant's 2d6 (36^n equally
// likely combinations), how often each combatant comes first in the order
// the start command itself rolls (Decide with those physical dice).
func oracle(t testing.TB, e *engine.Engine, cmd fray.Command, n int) map[string]float64 {
	t.Helper()
	sys := bpb.New()
	faces := make([]int, 2*n)
	count := map[string]int{}
	total := 0
	var walk func(k int)
	walk = func(k int) {
		if k == len(faces) {
			next := 0
			evs, err := sys.Decide(e.State(), cmd, facesRoller{faces, &next})
			if err != nil {
				t.Fatal(err)
			}
			if next != len(faces) {
				t.Fatalf("the start rolled %d dice, not %d", next, len(faces))
			}
			count[startedOrder(t, e, evs)[0]]++
			total++
			return
		}
		for f := 1; f <= 6; f++ {
			faces[k] = f
			walk(k + 1)
		}
	}
	walk(0)
	p := map[string]float64{}
	for k, v := range count {
		p[k] = float64(v) / float64(total)
	}
	return p
}

// oddsCases are encounters whose rolled order has ties of every kind,
// with the number of combatants who roll.
var oddsCases = []struct {
	name, setup string
	rollers     int
}{
	{"two PCs and an NPC", "add Ann side=pc perception=3\nadd Bob perception=3\nadd Cat side=pc perception=2 superspeed=1", 3},
	{"declared order", "add Ann perception=1\nadd Bob perception=1 superspeed=1\nadd Cat perception=2\norder Cat Bob", 3},
	{"unaware and environment", "add Ann side=pc perception=4 superspeed=2\nadd Bob perception=6\nadd Cat aware=no\nadd Rock kind=environment", 2},
	{"far apart", "add Ann perception=0\nadd Bob side=pc perception=4\nadd Cat perception=9", 3},
	{"physical dice entered", "add Ann perception=2\nadd Bob side=pc perception=2\ninitiative Ann 6,6", 2},
}

// B-4, E-6: the odds of the rolled order agree exactly with a brute-force
// enumeration of every face of every die through the order code itself.
// Physical dice entered with initiative are known before the start, so
// the enumeration runs over the others' dice only, but the odds are those
// the whole roll had (every 2d6 in full): that case is checked against
// the same encounter without the entered dice.
func TestB4_InitiativeOddsMatchEnumeration(t *testing.T) {
	cmd := fray.Command{Name: "start", Opts: map[string]string{"order": "rolled"}}
	for _, tt := range oddsCases {
		t.Run(tt.name, func(t *testing.T) {
			e := setUp(t, tt.setup)
			o := startOdds(t, e, "start order=rolled")
			checkSum(t, o)
			if strings.Contains(tt.setup, "initiative") {
				bare := setUp(t, strings.Split(tt.setup, "\ninitiative")[0])
				if want := startOdds(t, bare, "start order=rolled"); !reflect.DeepEqual(o, want) {
					t.Errorf("odds with entered dice %v, want the whole roll's %v", o, want)
				}
				e = bare
			}
			got := oracle(t, e, cmd, tt.rollers)
			for _, c := range e.View().Combatants {
				if p := got[c.Name]; math.Abs(p-o.P(c.Name+" first")) > 1e-12 {
					t.Errorf("%s first: odds %v, enumeration %v", c.Name, o.P(c.Name+" first"), p)
				}
			}
			for _, b := range o.Bands {
				if b.P <= 0 {
					t.Errorf("band %v has no chance", b)
				}
			}
		})
	}
}

func checkSum(t *testing.T, o fray.Odds) {
	t.Helper()
	sum := 0.0
	for _, b := range o.Bands {
		sum += b.P
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("bands %v sum to %v", o.Bands, sum)
	}
}

// B-4, E-6: the odds of the rolled order agree with the frequencies of
// 100,000 seeded starts (within 5 standard errors).
func TestB4_InitiativeOddsMatchSeededRolls(t *testing.T) {
	cmd := fray.Command{Name: "start", Opts: map[string]string{"order": "rolled"}}
	sys := bpb.New()
	for i, tt := range oddsCases[:4] {
		t.Run(tt.name, func(t *testing.T) {
			e := setUp(t, tt.setup)
			o := startOdds(t, e, "start order=rolled")
			n := 100000
			if testing.Short() {
				n = 10000
			}
			r := seededRoller{rand.New(rand.NewPCG(7, uint64(i)))}
			count := map[string]int{}
			for range n {
				evs, err := sys.Decide(e.State(), cmd, r)
				if err != nil {
					t.Fatal(err)
				}
				count[startedOrder(t, e, evs)[0]]++
			}
			for _, c := range e.View().Combatants {
				p := o.P(c.Name + " first")
				se := math.Sqrt(p * (1 - p) / float64(n))
				if got := float64(count[c.Name]) / float64(n); math.Abs(got-p) > 5*se+1e-9 {
					t.Errorf("%s first: odds %v, %d seeded starts %v (5 SE = %v)", c.Name, p, n, got, 5*se)
				}
			}
		})
	}
}

// E-6: the start that rolls the order records the odds it had, worked
// out before the dice, whether they are seeded, given with dice= or
// entered with initiative; the setting order=rolled rolls at a plain
// start.
func TestE6_StartRecordsInitiativeOdds(t *testing.T) {
	const party = "add Ann side=pc perception=3\nadd Bob perception=3 superspeed=1\nadd Cat aware=no"
	tests := []struct{ name, setup, start, command string }{
		{"seeded", "", "start order=rolled", "start order=rolled"},
		{"dice=", "", "start order=rolled dice=6,1,2,2", "start order=rolled"},
		{"entered", "initiative Bob 3,3", "start order=rolled", "start order=rolled"},
		{"setting", "set order=rolled", "start", "start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := setUp(t, party+"\n"+tt.setup)
			want := startOdds(t, setUp(t, party), "start order=rolled")
			want.Command = tt.command
			evs := doLine(t, e, tt.start)
			if len(evs) != 1 || evs[0].Odds == nil {
				t.Fatalf("events %v record no odds", evs)
			}
			if !reflect.DeepEqual(*evs[0].Odds, want) {
				t.Errorf("recorded odds %+v, want %+v", *evs[0].Odds, want)
			}
			if tt.name == "dice=" {
				// Ann 6+1+3 = 10 against Bob 2+2+3+1 = 8.
				if got := startedOrder(t, e, evs); !reflect.DeepEqual(got, []string{"Ann", "Bob"}) {
					t.Errorf("order %v", got)
				}
			}
		})
	}
	// The declared order rolls nothing and records no odds.
	e := setUp(t, party)
	if evs := doLine(t, e, "start"); evs[0].Odds != nil {
		t.Errorf("a declared start records odds %v", evs[0].Odds)
	}
}

// E-6: odds start answers without rolling, changing or logging anything,
// and refuses what start refuses, in the same words; a start in the
// declared order has no odds.
func TestE6_OddsStartChangesNothing(t *testing.T) {
	e := setUp(t, "add Ann side=pc perception=3\nadd Bob perception=3\ninitiative Ann 4,4")
	before, n := e.State().Clone(), len(e.Log())
	for _, line := range []string{"odds start order=rolled", "odds start"} {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Do(cmd); line == "odds start order=rolled" && err != nil {
			t.Errorf("%s: %v", line, err)
		}
		if len(e.Log()) != n || !reflect.DeepEqual(before, e.State()) {
			t.Errorf("%s changed the encounter", line)
		}
	}
	refusals := []struct{ setup, cmd, want string }{
		{"add Ann", "start", "rolls no dice in the declared order"},
		{"add Ann\nset order=rolled", "start order=declared", "rolls no dice"},
		{"add Ann", "start order=fast", "order=fast is not allowed"},
		{"add Ann aware=no\nadd Rock kind=environment", "start order=rolled", "Nobody is aware"},
		{"add Ann\nstart", "start order=rolled", "already started"},
		{"add Ann", "start order=rolled speed=3", "does not know the key speed="},
	}
	for _, tt := range refusals {
		e := setUp(t, tt.setup)
		cmd, err := engine.ParseCommand(tt.cmd)
		if err != nil {
			t.Fatal(err)
		}
		before := e.State().Clone()
		_, err = e.Odds(cmd)
		if err == nil || !strings.Contains(fray.ErrorMessage(err), tt.want) {
			t.Errorf("odds %s: %v, want %q", tt.cmd, err, tt.want)
		}
		if !reflect.DeepEqual(before, e.State()) {
			t.Errorf("odds %s changed the encounter", tt.cmd)
		}
		if !strings.Contains(tt.want, "rolls no dice") {
			// The engine checks start's words before Decide, as it
			// checks odds start's before Odds.
			_, derr := e.Do(cmd)
			if derr == nil || fray.ErrorMessage(derr) != fray.ErrorMessage(err) {
				t.Errorf("start refuses %v, odds start %v", derr, err)
			}
		}
	}
}

// tenParties is an encounter of ten combatants of assorted Perception
// and Super-speed, for the rolled order.
func tenParties(t testing.TB) *engine.Engine {
	var b strings.Builder
	for i := range 10 {
		side := "npc"
		if i%3 == 0 {
			side = "pc"
		}
		fmt.Fprintf(&b, "add P%d side=%s perception=%d superspeed=%d\n", i, side, i%4, i%3)
	}
	return setUp(t, b.String())
}

// The bands of ten combatants sum to 1.
func TestB4_TenPartiesSumToOne(t *testing.T) {
	o := startOdds(t, tenParties(t), "start order=rolled")
	checkSum(t, o)
	if len(o.Modifiers) != 10 {
		t.Errorf("modifiers %v", o.Modifiers)
	}
}

// The odds of the rolled order of ten combatants.
func BenchmarkInitiativeOdds(b *testing.B) {
	e := tenParties(b)
	sys := bpb.New()
	cmd := fray.Command{Name: "start", Opts: map[string]string{"order": "rolled"}}
	st := e.State()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sys.Odds(st, cmd); err != nil {
			b.Fatal(err)
		}
	}
}

// E-6, B-4: odds initiative NAME before the start are the odds of the
// 2d6 it rolls when no die is given: each aware combatant's chance to act
// first in a rolled order, as odds start order=rolled gives them, for
// NAME. A die already given, or an encounter already started, has none.
func TestE6_OddsOfInitiative(t *testing.T) {
	const party = "add Ann side=pc perception=3\nadd Bob perception=3 superspeed=1"
	e := setUp(t, party)
	want := startOdds(t, setUp(t, party), "start order=rolled")
	got := startOdds(t, e, "odds initiative Ann")
	want.For, want.Command = "Ann", "initiative Ann"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("odds initiative Ann = %+v, want %+v", got, want)
	}
	for line, words := range map[string]string{
		"odds initiative Ann 6,3": "rolled already",
		"odds initiative Nobody":  `no combatant named "Nobody"`,
	} {
		cmd, _ := engine.ParseCommand(line)
		if _, err := e.Odds(cmd); err == nil || !strings.Contains(err.Error(), words) {
			t.Errorf("%s: %v, want %q", line, err, words)
		}
	}
	doLine(t, e, "start")
	cmd, _ := engine.ParseCommand("odds initiative Ann")
	if _, err := e.Odds(cmd); err == nil || !strings.Contains(err.Error(), "already started") {
		t.Errorf("after the start: %v", err)
	}
}
