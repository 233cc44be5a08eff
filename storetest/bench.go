package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"fray"
)

// BenchData is an event the size of a typical one (a bpb attack with its
// roll), for the stores' benchmarks.
var BenchData = json.RawMessage(`{"seq":1,"step":1,"type":"bpb.attacked","command":"attack Blueshift Brigand roll=14",` +
	`"data":{"name":"Blueshift","target":"Brigand #2","hit":true,"damage":3},` +
	`"rolls":[{"for":"Blueshift","expr":"3d6","dice":[6,5,3],"total":14,"source":"faces"}]}`)

// BenchAppendParallel appends one event of BenchData per call to s from
// about writers goroutines (a multiple of GOMAXPROCS), each to an
// encounter of its own that it creates, so that appends never conflict,
// as a busy server's are; it reports appends/s. The appends wait for
// their commit, so that a store that commits them in groups shows it.
func BenchAppendParallel(b *testing.B, s fray.Store, writers int) {
	ctx := context.Background()
	par := max(1, writers/runtime.GOMAXPROCS(0))
	for i := range par * runtime.GOMAXPROCS(0) {
		if err := s.CreateEncounter(ctx, Encounter(fmt.Sprint("b", i))); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	b.SetParallelism(par)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint("b", next.Add(1)-1)
		rev := 0
		for pb.Next() {
			ev := fray.EventRecord{Seq: rev + 1, Type: "bpb.attacked", Data: BenchData, Time: time.Now()}
			if _, err := s.AppendEvents(ctx, id, rev, []fray.EventRecord{ev}); err != nil {
				b.Error(err)
				return
			}
			rev++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
}
