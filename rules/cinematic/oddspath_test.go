package cinematic_test

import (
	"fmt"
	"strconv"
	"testing"

	"fray/rules/cinematic"
)

// TestOddsOnePath checks that a check's odds (what odds CMD shows and its
// event records) and the named roll's are the same numbers to the last
// bit, band by band, alone and opposed: both come from one computation.
// TestTestOddsBruteForce checks those numbers against the 10 (or 100)
// rolls of the dice.
func TestOddsOnePath(t *testing.T) {
	e := sheeted(t, "")
	named := cinematic.New().NamedRoll()
	const base = 6 // Bernie's Dexterity + Kung Fu
	for mod := -8; mod <= 20; mod += 2 {
		for _, vs := range []int{-1, 0, 3, 6, 9, 14, 25} {
			for _, opposed := range []bool{false, true} {
				line := fmt.Sprintf(`check Bernie "dexterity+Kung Fu" mod=%d`, mod)
				words := []string{"value=" + strconv.Itoa(base+mod)}
				if opposed {
					line += " vs=" + strconv.Itoa(vs)
					words = append(words, "vs="+strconv.Itoa(vs))
				}
				cmd := odds(t, e, line)
				objs, _, err := named.Odds("cinematic", words)
				if err != nil {
					t.Fatalf("%v: %v", words, err)
				}
				n := objs[0].(*cinematic.TestOdds)
				var want []float64 // the named roll's bands, but for those no roll reaches
				for i, b := range n.Bands {
					if i == 0 || b.P > 0 {
						want = append(want, b.P)
					}
				}
				if len(cmd.Bands) != len(want) {
					t.Errorf("%s: %d bands, the named roll %d", line, len(cmd.Bands), len(want))
					continue
				}
				for i, b := range cmd.Bands {
					if b.P != want[i] {
						t.Errorf("%s: band %d (%s) P %v, the named roll's %v", line, i, b.Name, b.P, want[i])
					}
				}
				if cmd.Mean != n.Mean || cmd.Expr != n.Expr {
					t.Errorf("%s: %s mean %v, the named roll %s mean %v", line, cmd.Expr, cmd.Mean, n.Expr, n.Mean)
				}
				if !opposed {
					break
				}
			}
		}
	}
}
