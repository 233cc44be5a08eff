package vv_test

import (
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/vv"
)

// longLog plays a long encounter: four characters acting, moving and
// holding until the log holds n events.
func longLog(tb testing.TB, n int) *engine.Engine {
	tb.Helper()
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	lines := []string{"add A agility=30 move=90", "add B agility=20 move=60", "add C agility=15 move=40", "add D agility=10 move=30", "start"}
	cycle := []string{"move 1", "act", "next", "hold", "interrupt A", "act", "next", "next"}
	for i := 0; len(e.Log()) < n; i++ {
		var line string
		if i < len(lines) {
			line = lines[i]
		} else {
			line = cycle[i%len(cycle)]
		}
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			tb.Fatal(err)
		}
		e.Do(cmd) // some are refused; that is fine
	}
	return e
}

// BenchmarkApply measures applying one event of a long encounter (goal:
// < 1 µs).
func BenchmarkApply(b *testing.B) {
	evs := longLog(b, 10_000).Log()
	var sts []fray.State
	sys := vv.New()
	st := sys.NewState()
	for _, ev := range evs {
		sts = append(sts, st.Clone())
		_ = sys.Apply(st, ev)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := 5 + i%(len(evs)-5)
		if j == 5 {
			b.StopTimer()
			st = sts[5].Clone()
			b.StartTimer()
		}
		_ = sys.Apply(st, evs[j])
	}
}

// BenchmarkReplay10k measures rebuilding a state from a 10,000-event log
// (goal: < 20 ms).
func BenchmarkReplay10k(b *testing.B) {
	evs := longLog(b, 10_000).Log()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := engine.Replay(vv.New(), rand.New(rand.NewPCG(1, 1)), evs); err != nil {
			b.Fatal(err)
		}
	}
}
