package storetest

// This file holds the tests of appending events: in order, stale, refused,
// within the limits, and raced.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fray"
)

func testAppendInOrder(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("log"))
	mustCreate(t, s, Encounter("other"))
	evs := Events(1, 6, "w")
	mustAppend(t, s, "log", 0, evs[:1])
	mustAppend(t, s, "log", 1, evs[1:3])
	mustAppend(t, s, "log", 3, evs[3:])
	checkLog(t, s, "log", truncated(evs))
	enc, err := s.Encounter(ctx, "log")
	if err != nil {
		t.Fatal(err)
	}
	if want := fray.TruncateTime(evs[5].Time); !enc.Updated.Equal(want) {
		t.Errorf("Updated = %v, want the last event's time %v", enc.Updated, want)
	}
	// Logs are separate: another encounter's log starts at 1.
	checkLog(t, s, "other", []fray.EventRecord{})
	mustAppend(t, s, "other", 0, Events(1, 1, "o"))
	checkLog(t, s, "other", truncated(Events(1, 1, "o")))
	checkLog(t, s, "log", truncated(evs))
	// Data of any JSON kind, and of the largest size, is kept as given.
	odd := []fray.EventRecord{
		{Seq: 7, Type: "x", Data: json.RawMessage(` [1, 2,  "three"] `), Time: base},
		{Seq: 8, Type: "~!#", Data: json.RawMessage(`"\u00e9\ud83d\ude00"`), Time: base},
		{Seq: 9, Type: "null", Data: json.RawMessage(`null`), Time: base},
		{Seq: 10, Type: "big", Data: json.RawMessage(`"` + strings.Repeat("b", fray.MaxEventData-2) + `"`), Time: base},
	}
	mustAppend(t, s, "log", 6, odd)
	checkLog(t, s, "log", truncated(append(evs, odd...)))
}

func testAppendStale(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("stale"))
	mustAppend(t, s, "stale", 0, Events(1, 3, "first"))
	tests := []struct {
		name string
		rev  int
	}{
		{"sequence taken", 0},
		{"sequence taken, later", 2},
		{"ahead of the log", 4},
		{"far ahead", 1000},
	}
	for _, tt := range tests {
		cur, err := s.AppendEvents(ctx, "stale", tt.rev, Events(tt.rev+1, 2, "second"))
		wantCode(t, tt.name, err, fray.ECONFLICT)
		if cur != 3 {
			t.Errorf("%s: returned revision %d, want the current 3", tt.name, cur)
		}
		if rev, ok := fray.CurrentRevision(err); !ok || rev != 3 {
			t.Errorf("%s: CurrentRevision = %d, %v; want 3, true", tt.name, rev, ok)
		}
	}
	checkLog(t, s, "stale", truncated(Events(1, 3, "first")))
}

func testAppendBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("bad"))
	mustAppend(t, s, "bad", 0, Events(1, 2, "w"))
	ev := func(edit func(*fray.EventRecord)) []fray.EventRecord {
		evs := Events(3, 3, "bad")
		edit(&evs[1])
		return evs
	}
	tests := []struct {
		name string
		id   string
		rev  int
		evs  []fray.EventRecord
		code string
	}{
		{"no events", "bad", 2, nil, fray.EINVALID},
		{"empty events", "bad", 2, []fray.EventRecord{}, fray.EINVALID},
		{"negative revision", "bad", -1, Events(0, 1, "bad"), fray.EINVALID},
		{"numbered from the wrong place", "bad", 2, Events(4, 2, "bad"), fray.EINVALID},
		{"a gap", "bad", 2, ev(func(e *fray.EventRecord) { e.Seq = 5 }), fray.EINVALID},
		{"a repeat", "bad", 2, ev(func(e *fray.EventRecord) { e.Seq = 3 }), fray.EINVALID},
		{"no type", "bad", 2, ev(func(e *fray.EventRecord) { e.Type = "" }), fray.EINVALID},
		{"space in type", "bad", 2, ev(func(e *fray.EventRecord) { e.Type = "a b" }), fray.EINVALID},
		{"long type", "bad", 2, ev(func(e *fray.EventRecord) { e.Type = strings.Repeat("t", fray.MaxEventTypeLen+1) }), fray.ETOOLARGE},
		{"no data", "bad", 2, ev(func(e *fray.EventRecord) { e.Data = nil }), fray.EINVALID},
		{"bad JSON", "bad", 2, ev(func(e *fray.EventRecord) { e.Data = json.RawMessage(`{"a":`) }), fray.EINVALID},
		{"two JSON values", "bad", 2, ev(func(e *fray.EventRecord) { e.Data = json.RawMessage(`1 2`) }), fray.EINVALID},
		{"huge data", "bad", 2, ev(func(e *fray.EventRecord) {
			e.Data = json.RawMessage(`"` + strings.Repeat("b", fray.MaxEventData) + `"`)
		}), fray.ETOOLARGE},
		{"no time", "bad", 2, ev(func(e *fray.EventRecord) { e.Time = time.Time{} }), fray.EINVALID},
		{"bad id", "b/d", 2, Events(3, 1, "bad"), fray.EINVALID},
		{"unknown encounter", "nobody", 0, Events(1, 1, "bad"), fray.ENOTFOUND},
	}
	for _, tt := range tests {
		_, err := s.AppendEvents(ctx, tt.id, tt.rev, tt.evs)
		wantCode(t, tt.name, err, tt.code)
	}
	checkLog(t, s, "bad", truncated(Events(1, 2, "w")))
	_, err := s.Encounter(ctx, "nobody")
	wantCode(t, "unknown encounter after an append", err, fray.ENOTFOUND)
}

func testAppendLimits(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("lim"))
	_, err := s.AppendEvents(ctx, "lim", 0, Events(1, fray.MaxAppend+1, "w"))
	wantCode(t, "more than MaxAppend events", err, fray.ETOOLARGE)
	_, err = s.AppendEvents(ctx, "lim", fray.MaxLogEvents, Events(fray.MaxLogEvents+1, 1, "w"))
	wantCode(t, "past MaxLogEvents", err, fray.ETOOLARGE)
	checkLog(t, s, "lim", []fray.EventRecord{})
	evs := Events(1, fray.MaxAppend, "w")
	mustAppend(t, s, "lim", 0, evs)
	checkLog(t, s, "lim", truncated(evs))
}

func testAppendOwnsData(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("own"))
	evs := Events(1, 2, "w")
	want := truncated(Events(1, 2, "w"))
	mustAppend(t, s, "own", 0, evs)
	evs[0].Data[2] = 'X' // the caller's buffer, changed after the append
	got, err := s.Events(ctx, "own", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	got[1].Data[2] = 'Y' // a reader's copy, changed
	checkLog(t, s, "own", want)
}

// testRaceSameSeq starts several writers at once, all appending at the
// same revision, round after round: exactly one wins each round.
func testRaceSameSeq(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("race"))
	const rounds, writers = 30, 4
	var want []fray.EventRecord
	for r := range rounds {
		start := make(chan struct{})
		errs := make([]error, writers)
		revs := make([]int, writers)
		var wg sync.WaitGroup
		for w := range writers {
			wg.Go(func() {
				<-start
				revs[w], errs[w] = s.AppendEvents(ctx, "race", r, Events(r+1, 1, fmt.Sprint(w)))
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for w, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("round %d: writers %d and %d both appended event %d", r+1, winner, w, r+1)
			case err == nil:
				winner = w
				if revs[w] != r+1 {
					t.Errorf("round %d: the winner got revision %d, want %d", r+1, revs[w], r+1)
				}
			default:
				wantCode(t, fmt.Sprintf("round %d, loser %d", r+1, w), err, fray.ECONFLICT)
				if cur, ok := fray.CurrentRevision(err); !ok || cur != r+1 {
					t.Errorf("round %d: a loser was told revision %d, %v; want %d", r+1, cur, ok, r+1)
				}
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no writer appended: %v", r+1, errs)
		}
		want = append(want, truncated(Events(r+1, 1, fmt.Sprint(winner)))...)
	}
	checkLog(t, s, "race", want)
}

// testRaceWriters runs writers that each append a batch of events, retrying
// on conflict: every batch lands once, whole, with no gap.
func testRaceWriters(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("writers"))
	const writers, batches, size = 4, 10, 3
	var conflicts atomic.Int64
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			name := fmt.Sprint("w", w)
			for range batches {
				rev := 0
				for tries := 0; ; tries++ {
					if tries > 10*writers*batches {
						t.Errorf("%s gave up after %d conflicts", name, tries)
						return
					}
					cur, err := s.AppendEvents(ctx, "writers", rev, Events(rev+1, size, name))
					if err == nil {
						break
					}
					if fray.ErrorCode(err) != fray.ECONFLICT {
						t.Errorf("%s: %v", name, err)
						return
					}
					conflicts.Add(1)
					rev = cur
				}
			}
		})
	}
	wg.Wait()
	got, err := s.Events(ctx, "writers", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != writers*batches*size {
		t.Fatalf("the log holds %d events, want %d", len(got), writers*batches*size)
	}
	per := map[string]int{}
	for i := 0; i < len(got); i += size {
		var first struct{ Writer string }
		for j, ev := range got[i : i+size] {
			if ev.Seq != i+j+1 {
				t.Fatalf("event %d is numbered %d", i+j+1, ev.Seq)
			}
			var d struct{ Writer string }
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				t.Fatal(err)
			}
			if j == 0 {
				first = d
			} else if d != first {
				t.Fatalf("a batch from %s holds an event of %s at %d", first.Writer, d.Writer, ev.Seq)
			}
		}
		per[first.Writer]++
	}
	for w := range writers {
		if n := per[fmt.Sprint("w", w)]; n != batches {
			t.Errorf("writer w%d has %d batches in the log, want %d", w, n, batches)
		}
	}
	t.Logf("%d conflicts", conflicts.Load())
}

// testRaceEncounters appends to several encounters at once: writers on
// different encounters never conflict.
func testRaceEncounters(t *testing.T, s fray.Store) {
	ctx := context.Background()
	const encounters, appends = 6, 15
	for i := range encounters {
		mustCreate(t, s, Encounter(fmt.Sprint("par", i)))
	}
	var wg sync.WaitGroup
	for i := range encounters {
		wg.Go(func() {
			id := fmt.Sprint("par", i)
			for n := range appends {
				if _, err := s.AppendEvents(ctx, id, n, Events(n+1, 1, id)); err != nil {
					t.Errorf("AppendEvents(%s, %d): %v", id, n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for i := range encounters {
		id := fmt.Sprint("par", i)
		checkLog(t, s, id, truncated(Events(1, appends, id)))
	}
}
