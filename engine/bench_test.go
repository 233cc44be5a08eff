package engine_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/rules/queue"
)

// longLog plays n events of a four-combatant Bulletproof Blues encounter:
// the setup, then turn after turn with a delay, an interrupt and a force
// every round.
func longLog(tb testing.TB, n int) *engine.Engine {
	tb.Helper()
	e := engine.New(bpb.New(), rand.New(rand.NewPCG(1, 1)))
	do := func(line string) {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := e.Do(cmd); err != nil {
			tb.Fatalf("%s: %v", line, err)
		}
	}
	for _, l := range []string{"add Blueshift side=pc", "add Ganyeka", "add Monolith side=pc", `add "Ganyeka's henchmen" kind=group`, "add Rubble kind=environment", "start"} {
		do(l)
	}
	// Commands the rules refuse at that point are skipped.
	round := []string{"delay", "next", "next", "interrupt Blueshift", "next", "force Monolith", "next", "next"}
	for i := 0; len(e.Log()) < n; i++ {
		cmd, _ := engine.ParseCommand(round[i%len(round)])
		_, _ = e.Do(cmd)
	}
	return e
}

// BenchmarkApply measures applying one event to a state (goal: < 1 µs).
func BenchmarkApply(b *testing.B) {
	e := longLog(b, 10_000)
	evs := e.Log()
	sys := bpb.New()
	const setup = 6
	st := sys.NewState()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := setup + i%(len(evs)-setup)
		if j == setup {
			b.StopTimer()
			st = sys.NewState()
			for _, ev := range evs[:setup] {
				_ = sys.Apply(st, ev)
			}
			b.StartTimer()
		}
		if err := sys.Apply(st, evs[j]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplay10k measures rebuilding a state from a 10,000-event log
// (goal: < 20 ms).
func BenchmarkReplay10k(b *testing.B) {
	e := longLog(b, 10_000)
	evs := e.Log()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := engine.Replay(bpb.New(), rand.New(rand.NewPCG(1, 1)), evs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUndo10k measures undoing the last step of a 10,000-event log
// (goal: < 20 ms); each iteration undoes and then redoes.
func BenchmarkUndo10k(b *testing.B) {
	e := longLog(b, 10_000)
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
}

// BenchmarkUndoDeep10k measures undoing 100 steps in a row on a
// 10,000-event log, then redoing them, per step.
func BenchmarkUndoDeep10k(b *testing.B) {
	e := longLog(b, 10_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%100 == 0 && i > 0 {
			b.StopTimer()
			for range 100 {
				if _, err := e.Redo(); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
		}
		if _, err := e.Undo(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQueueApply measures applying one Combat Queue event.
func BenchmarkQueueApply(b *testing.B) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 1)))
	for _, l := range []string{"add A side=pc", "add B", "add C group=G", "add D group=G", "start"} {
		cmd, _ := engine.ParseCommand(l)
		if _, err := e.Do(cmd); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; len(e.Log()) < 10_000; i++ {
		line := []string{"act major", "act minor", "react A to=B", "next"}[i%4]
		cmd, _ := engine.ParseCommand(line)
		_, _ = e.Do(cmd)
	}
	evs := e.Log()
	sys := queue.New()
	const setup = 5
	var st fray.State
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := setup + i%(len(evs)-setup)
		if j == setup {
			b.StopTimer()
			st = sys.NewState()
			for _, ev := range evs[:setup] {
				_ = sys.Apply(st, ev)
			}
			b.StartTimer()
		}
		if err := sys.Apply(st, evs[j]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImport10k measures reading a 10,000-event log from JSON Lines
// and rebuilding its state (every payload decoded from JSON).
func BenchmarkImport10k(b *testing.B) {
	e := longLog(b, 10_000)
	var buf bytes.Buffer
	if err := e.Export(&buf); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := engine.Import(bytes.NewReader(data), bpb.New(), nil); err != nil {
			b.Fatal(err)
		}
	}
}
