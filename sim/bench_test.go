package sim_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/sheet"
	"fray/sim"
)

// fourOnFour returns the state of a four-against-four fight under the
// system id: the example party and foes, each side's sheets taken in
// turn (a second copy named "NAME 2") until it has four.
func fourOnFour(tb testing.TB, id string) (fray.System, fray.State) {
	tb.Helper()
	sys := systems[id]()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	for _, f := range []struct{ path, side string }{{"party", fray.SidePC}, {"foes", fray.SideNPC}} {
		cs, err := sheet.Load("../examples/"+id+"-"+f.path+".yaml", sys, f.side)
		if err != nil {
			tb.Fatal(err)
		}
		var four []fray.Combatant
		for i := 0; len(four) < 4; i++ {
			c := *cs[i%len(cs)].Clone()
			if n := i / len(cs); n > 0 {
				c.Name = fmt.Sprintf("%s %d", c.Name, n+1)
			}
			four = append(four, c)
		}
		if _, err := e.Join(four); err != nil {
			tb.Fatal(err)
		}
	}
	return sys, e.State()
}

// BenchmarkSim plays four-against-four fights of each system; run it
// with -cpu 1,2 to see the fights per second on one and two cores.
func BenchmarkSim(b *testing.B) {
	for _, id := range []string{"bpb", "cinematic", "pp", "queue", "vv"} {
		b.Run(id, func(b *testing.B) {
			sys, st := fourOnFour(b, id)
			b.ReportAllocs()
			b.ResetTimer()
			r, err := sim.Run(context.Background(), sim.Config{System: sys, State: st, Fights: b.N, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if r.Fights != b.N {
				b.Fatalf("fights = %d", r.Fights)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fights/s")
		})
	}
}
