package bpb_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
)

// seedBand classifies a task roll by the words of the seed, written out
// again here rather than taken from the package: 2d6 + the value, +3 with
// expertise, against the difficulty; under it a failure, at it or over a
// success, and 3 or more over it an extreme success, except that in
// success mode expertise a character without expertise rolls a remarkable
// success there instead.
func seedBand(a, b, value, difficulty int, expertise bool, mode string) string {
	total := a + b + value
	if expertise {
		total += 3
	}
	switch {
	case total < difficulty:
		return "failure"
	case total < difficulty+3:
		return "success"
	case mode == "expertise" && !expertise:
		return "remarkable"
	}
	return "extreme"
}

// seedCounts counts, over the 36 equally likely faces of 2d6, the rolls
// in each band and each total, and the sum of the totals.
func seedCounts(value, difficulty int, expertise bool, mode string) (bands, totals map[string]int, sum int) {
	bands, totals = map[string]int{}, map[string]int{}
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			bands[seedBand(a, b, value, difficulty, expertise, mode)]++
			total := a + b + value
			if expertise {
				total += 3
			}
			totals[strconv.Itoa(total)]++
			sum += total
		}
	}
	return bands, totals, sum
}

// is36ths reports whether p is the probability n/36: 36p within 1e-9 of
// n, which no other number of 36ths is.
func is36ths(p float64, n int) bool { return math.Abs(36*p-float64(n)) < 1e-9 }

// TestTaskOddsOneSeedOracle checks that the four ways to ask a task roll's
// odds give the same numbers to the last bit (a command's odds, the odds
// its event records, the named roll and TaskRoll.Odds), and that those
// numbers are the seed's: every band's count of the 36 rolls of 2d6, the
// mean and the distribution of the total, over values, difficulties,
// success modes and expertise.
func TestTaskOddsOneSeedOracle(t *testing.T) {
	const rank = 6 // Monolith's prowess; mod= moves the value from it
	named := bpb.New().NamedRoll()
	sys := bpb.New()
	cases := 0
	for _, mode := range []string{"open", "expertise"} {
		e := setUp(t, "set success="+mode+"\nadd Monolith prowess="+strconv.Itoa(rank))
		for value := -14; value <= 18; value++ {
			for _, diff := range []int{0, 2, 5, 8, 10, 11, 12, 13, 14, 15, 17, 20, 25, 40} {
				for _, exp := range []bool{false, true} {
					cases++
					name := fmt.Sprintf("mode %s, value %d, difficulty %d, expertise %v", mode, value, diff, exp)
					line := fmt.Sprintf("check Monolith prowess difficulty=%d mod=%d", diff, value-rank)
					words := []string{"value=" + strconv.Itoa(value), "difficulty=" + strconv.Itoa(diff), "mode=" + mode}
					if exp {
						line += " expertise=yes"
						words = append(words, "expertise=yes")
					}
					cmd, err := engine.ParseCommand(line)
					if err != nil {
						t.Fatal(err)
					}
					asked, err := e.Odds(cmd)
					if err != nil {
						t.Fatalf("%s: odds: %v", name, err)
					}
					evs, err := sys.Decide(e.State(), cmd, facesRoller{faces: []int{3, 4}, next: new(int)})
					if err != nil || len(evs) == 0 || evs[0].Odds == nil {
						t.Fatalf("%s: decide: %v, %d events", name, err, len(evs))
					}
					rec, _ := json.Marshal(evs[0].Odds)
					want, _ := json.Marshal(asked)
					if string(rec) != string(want) {
						t.Errorf("%s: the event records odds\n%s\nbut odds gives\n%s", name, rec, want)
					}
					objs, _, err := named.Odds("bpb", words)
					if err != nil {
						t.Fatalf("%s: named roll: %v", name, err)
					}
					no := objs[0].(*bpb.TaskOdds)
					tr, err := bpb.TaskRoll{Value: value, Difficulty: diff, Expertise: exp, Mode: bpb.TaskMode(mode)}.Odds()
					if err != nil {
						t.Fatal(err)
					}

					bands, totals, sum := seedCounts(value, diff, exp, mode)
					high := "extreme"
					if mode == "expertise" && !exp {
						high = "remarkable"
					}
					order := []string{"failure", "success", high}
					if len(asked.Bands) != 3 || len(no.Bands) != 3 || len(tr.Bands) != 3 {
						t.Fatalf("%s: %d, %d and %d bands, want 3 each", name, len(asked.Bands), len(no.Bands), len(tr.Bands))
					}
					for i, b := range order {
						if asked.Bands[i].Name != b || string(no.Bands[i].Band) != b || string(tr.Bands[i].Band) != b {
							t.Errorf("%s: band %d is %q, %q and %q, want %q", name, i, asked.Bands[i].Name, no.Bands[i].Band, tr.Bands[i].Band, b)
						}
						p := asked.Bands[i].P
						if no.Bands[i].P != p || tr.Bands[i].P != p {
							t.Errorf("%s: P(%s) is %v by odds, %v by the named roll, %v by TaskRoll.Odds", name, b, p, no.Bands[i].P, tr.Bands[i].P)
						}
						if !is36ths(p, bands[b]) {
							t.Errorf("%s: P(%s) = %v, want %d/36", name, b, p, bands[b])
						}
					}
					if no.Mean != asked.Mean || tr.Mean != asked.Mean {
						t.Errorf("%s: mean %v by odds, %v by the named roll, %v by TaskRoll.Odds", name, asked.Mean, no.Mean, tr.Mean)
					}
					if !is36ths(asked.Mean, sum) {
						t.Errorf("%s: mean %v, want %d/36", name, asked.Mean, sum)
					}
					if len(asked.Dist) != len(totals) {
						t.Errorf("%s: %d totals in the distribution, want %d", name, len(asked.Dist), len(totals))
					}
					for _, pt := range asked.Dist {
						if n := totals[strconv.Itoa(pt.V)]; n == 0 || !is36ths(pt.P, n) {
							t.Errorf("%s: P(total %d) = %v, want %d/36", name, pt.V, pt.P, n)
						}
					}
					if asked.Expr != tr.Expr || no.Expr != tr.Expr || asked.Target != diff || asked.TargetKind != bpb.TargetDifficulty {
						t.Errorf("%s: odds of %s against %d (%s), named roll %s, want %s against %d", name, asked.Expr, asked.Target, asked.TargetKind, no.Expr, tr.Expr, diff)
					}
				}
			}
		}
	}
	if cases != 2*33*14*2 {
		t.Errorf("%d cases checked", cases)
	}
}

// The odds an attack records are its task roll's, band by band.
func TestAttackOddsAreTheTaskOdds(t *testing.T) {
	e := seeded(t)
	cmd, err := engine.ParseCommand("attack Blueshift Ganyeka with=punch mod=-1")
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := bpb.New().Decide(e.State(), cmd, facesRoller{faces: []int{3, 4}, next: new(int)})
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Value, Mods, Difficulty int
		Expertise               bool
	}
	if err := evs[0].Decode(&d); err != nil {
		t.Fatal(err)
	}
	tr, err := bpb.TaskRoll{Value: d.Value + d.Mods, Difficulty: d.Difficulty, Expertise: d.Expertise}.Odds()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"miss", "hit", "extreme hit"}
	for i, b := range o.Bands {
		if b.Name != names[i] || b.P != tr.Bands[i].P || !reflect.DeepEqual(evs[0].Odds.Bands[i], b) {
			t.Errorf("band %d: odds %+v, event %+v, task roll %+v", i, b, evs[0].Odds.Bands[i], tr.Bands[i])
		}
	}
	if o.DistOf != fray.DistDamage {
		t.Errorf("an attack's odds are of %q, want %q", o.DistOf, fray.DistDamage)
	}
}
