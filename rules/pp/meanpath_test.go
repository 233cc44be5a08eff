package pp_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/pp"
	"fray/sheet"
)

// TestSimExpectIsOddsMean checks that the expected damage the simulator
// is given for every attack open (SimExpect, worked out without the odds)
// is the Mean of the attack's odds to the last bit, along a fight of the
// example sheets played with moves picked at random, as targets lose
// Health and fall: the simulator's choice of attack follows it, so any
// difference would change what it picks.
func TestSimExpectIsOddsMean(t *testing.T) {
	sys := pp.New()
	e := engine.New(sys, rand.New(rand.NewPCG(7, 8)))
	for _, f := range []struct{ path, side string }{{"../../examples/pp-party.yaml", fray.SidePC}, {"../../examples/pp-foes.yaml", fray.SideNPC}} {
		cs, err := sheet.Load(f.path, sys, f.side)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Join(cs); err != nil {
			t.Fatal(err)
		}
	}
	pick := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for step := 0; step < 300; step++ {
		moves := sys.SimMoves(e.State(), nil)
		if len(moves) == 0 {
			break
		}
		for _, m := range moves {
			if m.Kind != fray.SimAttack {
				continue
			}
			got, ok := sys.SimExpect(e.State(), m)
			o, err := e.Odds(m.Cmd)
			if ok != (err == nil) {
				t.Fatalf("step %d, %s: SimExpect %v, odds %v", step, m.Cmd, ok, err)
			}
			if !ok {
				continue // refused both ways: no actions left
			}
			if math.Float64bits(got) != math.Float64bits(o.Mean) {
				t.Errorf("step %d, %s: SimExpect %v (%#x), the odds' mean %v (%#x)", step, m.Cmd, got, math.Float64bits(got), o.Mean, math.Float64bits(o.Mean))
			}
			checked++
		}
		// A move the rules take, an attack most often, so that the
		// targets lose Health and fall.
		pick.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		if pick.IntN(5) > 0 {
			slices.SortStableFunc(moves, func(a, b fray.SimMove) int { return cmp.Compare(isAttack(b), isAttack(a)) })
		}
		done := false
		for _, m := range moves {
			if _, err := e.Do(m.Cmd); err == nil {
				done = true
				break
			}
		}
		if !done {
			t.Fatalf("step %d: the rules take none of %v", step, moves)
		}
	}
	if checked < 50 {
		t.Errorf("%d attacks checked, want 50 or more", checked)
	}
}

// isAttack is 1 for an attack, else 0: attacks sort first, descending.
func isAttack(m fray.SimMove) int {
	if m.Kind == fray.SimAttack {
		return 1
	}
	return 0
}

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
