package rulestest

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"fray"
	"fray/engine"
)

// BenchEvents is the length of the log Bench measures on.
const BenchEvents = 10_000

// BenchScript is a realistic encounter for Bench: Setup (adding the
// combatants and starting) runs once, then Round runs over and over until
// the log holds BenchEvents events. Commands the rules refuse at that point
// are skipped. Neither may undo or redo.
type BenchScript struct {
	Setup string
	Round string
}

// Bench runs the performance benchmarks every system shares, each a
// sub-benchmark of b, on the log the script makes under newSystem's rules
// (the engine's goals: an event applies in under 1 µs, and replaying or
// undoing on a 10,000-event log takes under 20 ms):
//
//   - Apply: applying one event of the log to the state built from the
//     events before it, per event;
//   - Replay10k: rebuilding the state from the log (engine.Replay);
//   - Replay10kJSON: the same from the log as read back from JSON Lines,
//     whose payloads are decoded rather than copied, as after a restart;
//   - Undo10k: undoing the last step of the log (the redo that follows
//     each is not timed).
//
// A system's bench_test.go calls it:
//
//	func BenchmarkRules(b *testing.B) { rulestest.Bench(b, newSystem, script) }
func Bench(b *testing.B, newSystem func() fray.System, s BenchScript) {
	e := BenchLog(b, newSystem, s)
	evs := e.Log()
	b.Run("Apply", func(b *testing.B) { benchApply(b, newSystem(), evs) })
	b.Run("Replay10k", func(b *testing.B) { benchReplay(b, newSystem, evs) })
	b.Run("Replay10kJSON", func(b *testing.B) {
		var buf bytes.Buffer
		if err := engine.WriteEvents(&buf, evs); err != nil {
			b.Fatal(err)
		}
		decoded := make([]fray.Event, 0, len(evs))
		for _, line := range bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n")) {
			ev, err := engine.DecodeEvent(line)
			if err != nil {
				b.Fatal(err)
			}
			decoded = append(decoded, ev)
		}
		benchReplay(b, newSystem, decoded)
	})
	b.Run("Undo10k", func(b *testing.B) {
		e := BenchLog(b, newSystem, s)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := e.Undo(); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if _, err := e.Redo(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	})
}

// BenchLog plays the script s (see BenchScript) under newSystem's rules
// until the log holds BenchEvents events, and returns the engine.
func BenchLog(tb testing.TB, newSystem func() fray.System, s BenchScript) *engine.Engine {
	tb.Helper()
	e := engine.New(newSystem(), rand.New(rand.NewPCG(1, 2)))
	parse := func(text string) []fray.Command {
		var cmds []fray.Command
		for i, line := range strings.Split(text, "\n") {
			cmd, err := engine.ParseCommand(line)
			if err != nil {
				tb.Fatalf("line %d: %v", i+1, err)
			}
			if cmd.Name == engine.CmdUndo || cmd.Name == engine.CmdRedo {
				tb.Fatalf("line %d: a benchmark script may not %s", i+1, cmd.Name)
			}
			if cmd.Name != "" && !engine.IsQuery(cmd.Name) {
				cmds = append(cmds, cmd)
			}
		}
		return cmds
	}
	setup, round := parse(s.Setup), parse(s.Round)
	for _, cmd := range setup {
		if _, err := e.Do(cmd); err != nil {
			tb.Fatalf("setup: %s: %v", cmd.String(), err)
		}
	}
	if len(round) == 0 {
		tb.Fatal("the benchmark script has no round")
	}
	for len(e.Log()) < BenchEvents {
		n := len(e.Log())
		for _, cmd := range round {
			_, _ = e.Do(cmd) // refusals are expected and change nothing
			if len(e.Log()) >= BenchEvents {
				break
			}
		}
		if len(e.Log()) == n {
			tb.Fatal("the rules refuse every command of the benchmark script's round")
		}
	}
	return e
}

// benchApply applies the log's events one per iteration, from the state
// built by the events before; at the end of the log it starts again from
// a new state (untimed).
func benchApply(b *testing.B, sys fray.System, evs []fray.Event) {
	st := sys.NewState()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(evs)
		if j == 0 && i > 0 {
			b.StopTimer()
			st = sys.NewState()
			b.StartTimer()
		}
		if err := sys.Apply(st, evs[j]); err != nil {
			b.Fatalf("event %d (%s): %v", evs[j].Seq, evs[j].Type, err)
		}
	}
}

func benchReplay(b *testing.B, newSystem func() fray.System, evs []fray.Event) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := engine.Replay(newSystem(), rand.New(rand.NewPCG(1, 1)), evs); err != nil {
			b.Fatal(err)
		}
	}
}
