package pp_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/pp"
	"fray/rules/rulestest"
	"fray/sheet"
)

// TestSimExpectIsOddsMean checks that the expected damage the simulator
// is given for every attack open is the Mean of the attack's odds to the
// last bit (rulestest.CheckSimExpectIsOddsMean).
func TestSimExpectIsOddsMean(t *testing.T) { rulestest.CheckSimExpectIsOddsMean(t, pp.New(), "pp") }

// TestSimExpectByHand checks an attack's expected harm worked out by
// hand (P-1: a die's 2 and 4 are 1 success, its 6 two, so a die rolls
// 0, 1 or 2 successes 1/2, 1/3, 1/6 of the time; P-10: 1 Health lost a
// net success, at most what is left). One die of might against a best
// defence of one die: 1 net success on 1−0 (1/6) and 2−1 (1/18), 2 on
// 2−0 (1/12): 1/6 + 1/18 + 2/12 = 7/18 with 3 Health (Willpower 5:
// avg(1, 5)); with 1 Health, the chance of any net success, 11/36.
func TestSimExpectByHand(t *testing.T) {
	for _, tt := range []struct {
		health, willpower int
		want              float64
	}{{3, 5, 7.0 / 18}, {1, 1, 11.0 / 36}} {
		sys := pp.New()
		var sheets string
		for _, who := range []struct{ name, side string }{{"Ann", "pc"}, {"Bo", "npc"}} {
			sheets += fmt.Sprintf("- name: %s\n  side: %s\n  stats: {agility: 1, intellect: 1, might: 1, perception: 1, toughness: 1, willpower: %d}\n", who.name, who.side, tt.willpower)
		}
		cs, err := sheet.Parse("duel.yaml", []byte(sheets), sys, fray.SidePC)
		if err != nil {
			t.Fatal(err)
		}
		e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
		if _, err := e.Join(cs); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Do(fray.Command{Name: "start"}); err != nil {
			t.Fatal(err)
		}
		if h := pp.Health(e.Encounter().Find("Bo")); h != tt.health {
			t.Fatalf("Bo has %d Health, want %d", h, tt.health)
		}
		n := 0
		for _, m := range sys.SimMoves(e.State(), nil) {
			if m.Kind != fray.SimAttack || m.Cmd.Opts[pp.KeyWith] != "might" {
				continue
			}
			n++
			if got, ok := sys.SimExpect(e.State(), m); !ok || math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Health %d, %s: %v, %v; want %v", tt.health, m.Cmd, got, ok, tt.want)
			}
		}
		if n != 1 {
			t.Errorf("Health %d: %d attacks with might, want 1", tt.health, n)
		}
	}
}
