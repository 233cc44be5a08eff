// Package storetest is the conformance suite for fray.Store: every adapter
// (sqlite, inmem, and any later one) runs the same tests, which check the
// contract written in the doc comments of fray.Store.
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) fray.Store { return inmem.New() })
//	}
//
// Adapters that persist their data also run RunDurable, which closes and
// reopens a store.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"fray"
)

// base is the time the suite's records start from: not UTC, and with
// nanoseconds, so that a store must truncate and convert it.
var base = time.Date(2026, 11, 30, 18, 0, 0, 123456789, time.FixedZone("UTC+2", 2*60*60))

// Run runs the conformance suite. newStore must return a new, empty store
// each time it is called; Run closes every store it gets. The subtests run
// in parallel.
func Run(t *testing.T, newStore func(t *testing.T) fray.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s fray.Store)
	}{
		{"CreateGet", testCreateGet},
		{"CreateTaken", testCreateTaken},
		{"CreateBad", testCreateBad},
		{"CreateTokensAtomic", testCreateTokensAtomic},
		{"List", testList},
		{"ListFilter", testListFilter},
		{"ListBad", testListBad},
		{"AppendInOrder", testAppendInOrder},
		{"AppendStale", testAppendStale},
		{"AppendBad", testAppendBad},
		{"AppendLimits", testAppendLimits},
		{"AppendOwnsData", testAppendOwnsData},
		{"RaceSameSeq", testRaceSameSeq},
		{"RaceWriters", testRaceWriters},
		{"RaceEncounters", testRaceEncounters},
		{"Events", testEvents},
		{"EventsBad", testEventsBad},
		{"Tokens", testTokens},
		{"TokensBad", testTokensBad},
		{"TokensList", testTokensList},
		{"TokenLimit", testTokenLimit},
		{"Snapshots", testSnapshots},
		{"SnapshotsBad", testSnapshotsBad},
		{"SnapshotsRace", testSnapshotsRace},
		{"Usage", testUsage},
		{"Canceled", testCanceled},
		{"Close", testClose},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tt.fn(t, s)
		})
	}
}

// RunDurable checks that a store keeps what it acknowledged when it is
// closed and opened again. newStore must return a function that opens the
// same, initially empty, backing store each time it is called.
func RunDurable(t *testing.T, newStore func(t *testing.T) (open func() fray.Store)) {
	t.Run("Reopen", func(t *testing.T) {
		t.Parallel()
		open := newStore(t)
		ctx := context.Background()
		s := open()
		enc := Encounter("reopen")
		gm := GMToken("reopen", "gm secret")
		mustCreate(t, s, enc, gm)
		evs := Events(1, 5, "w")
		mustAppend(t, s, "reopen", 0, evs)
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}

		s = open()
		defer s.Close()
		want := enc
		want.Created = fray.TruncateTime(want.Created)
		want.Revision = 5
		want.Updated = fray.TruncateTime(evs[4].Time)
		got, err := s.Encounter(ctx, "reopen")
		if err != nil {
			t.Fatalf("Encounter after reopen: %v", err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Encounter after reopen (-want +got):\n%s", diff)
		}
		checkLog(t, s, "reopen", truncated(evs))
		tok, err := s.Token(ctx, gm.Hash)
		if err != nil {
			t.Fatalf("Token after reopen: %v", err)
		}
		if diff := cmp.Diff(truncToken(gm), tok); diff != "" {
			t.Errorf("Token after reopen (-want +got):\n%s", diff)
		}
		if _, err := s.AppendEvents(ctx, "reopen", 4, Events(5, 1, "late")); fray.ErrorCode(err) != fray.ECONFLICT {
			t.Errorf("stale append after reopen: got %v, want ECONFLICT", err)
		}
		mustAppend(t, s, "reopen", 5, Events(6, 1, "w"))
		checkLog(t, s, "reopen", truncated(append(evs, Events(6, 1, "w")...)))
		if err := s.PutSnapshot(ctx, "reopen", Snapshot(6, "after reopen")); err != nil {
			t.Fatalf("PutSnapshot after reopen: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		s = open()
		checkSnapshot(t, s, "reopen", Snapshot(6, "after reopen"))
	})

	// Appends racing with Close either return nil and are kept, or return
	// an error and write nothing.
	t.Run("CloseDuringAppends", func(t *testing.T) {
		t.Parallel()
		open := newStore(t)
		s := open()
		const writers = 8
		for w := range writers {
			mustCreate(t, s, Encounter(fmt.Sprint("w", w)))
		}
		acked := make([]int, writers)
		var wg sync.WaitGroup
		var started atomic.Int64
		for w := range writers {
			wg.Go(func() {
				id := fmt.Sprint("w", w)
				for rev := 0; rev < fray.MaxAppend; rev++ {
					if _, err := s.AppendEvents(context.Background(), id, rev, Events(rev+1, 1, id)); err != nil {
						return
					}
					acked[w] = rev + 1
					started.Add(1)
				}
			})
		}
		// Close once the writers are under way.
		for deadline := time.Now().Add(time.Minute); started.Load() < 4*writers; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("only %d appends returned within a minute", started.Load())
				break
			}
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		wg.Wait()
		s = open()
		defer s.Close()
		for w := range writers {
			id := fmt.Sprint("w", w)
			checkLog(t, s, id, truncated(Events(1, acked[w], id)))
		}
	})
}

// Encounter returns a valid record for a new encounter with the given id.
func Encounter(id string) fray.EncounterRecord {
	return fray.EncounterRecord{ID: id, Rules: "bpb", Name: "Fight at " + id, Seed: 1<<63 + 7, Created: base}
}

// GMToken returns a valid GM token for the encounter id made from secret.
func GMToken(id, secret string) fray.Token {
	return fray.Token{Hash: fray.HashToken(secret), Encounter: id, Role: fray.RoleGM, Created: base}
}

// PlayerToken returns a valid player token for the encounter id, acting
// for combatant, made from secret.
func PlayerToken(id, combatant, secret string) fray.Token {
	return fray.Token{Hash: fray.HashToken(secret), Encounter: id, Role: fray.RolePlayer, Combatant: combatant, Created: base}
}

// Events returns n valid events numbered from seq on; each one's data
// names its writer and number.
func Events(seq, n int, writer string) []fray.EventRecord {
	evs := make([]fray.EventRecord, n)
	for i := range evs {
		s := seq + i
		evs[i] = fray.EventRecord{
			Seq:  s,
			Type: "test.event",
			Data: json.RawMessage(fmt.Sprintf(`{"seq":%d,"writer":%q}`, s, writer)),
			Time: base.Add(time.Duration(s) * time.Millisecond),
		}
	}
	return evs
}

func truncated(evs []fray.EventRecord) []fray.EventRecord {
	out := make([]fray.EventRecord, len(evs))
	for i, ev := range evs {
		ev.Time = fray.TruncateTime(ev.Time)
		out[i] = ev
	}
	return out
}

func truncToken(t fray.Token) fray.Token {
	t.Created = fray.TruncateTime(t.Created)
	return t
}

func mustCreate(t *testing.T, s fray.Store, enc fray.EncounterRecord, tokens ...fray.Token) {
	t.Helper()
	if err := s.CreateEncounter(context.Background(), enc, tokens...); err != nil {
		t.Fatalf("CreateEncounter(%q): %v", enc.ID, err)
	}
}

func mustAppend(t *testing.T, s fray.Store, id string, rev int, evs []fray.EventRecord) {
	t.Helper()
	got, err := s.AppendEvents(context.Background(), id, rev, evs)
	if err != nil {
		t.Fatalf("AppendEvents(%q, %d): %v", id, rev, err)
	}
	if want := rev + len(evs); got != want {
		t.Fatalf("AppendEvents(%q, %d) = revision %d, want %d", id, rev, got, want)
	}
}

// wantCode fails the test unless err is a *fray.Error with the code.
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	var fe *fray.Error
	switch {
	case err == nil:
		t.Errorf("%s: no error, want %s", what, code)
	case !errors.As(err, &fe):
		t.Errorf("%s: %v is not a *fray.Error, want %s", what, err, code)
	case fe.Code != code:
		t.Errorf("%s: code %s (%v), want %s", what, fe.Code, err, code)
	case fe.Message == "":
		t.Errorf("%s: the error has no message", what)
	}
}

// checkLog fails the test unless the whole log of id is want and the
// encounter's revision is its length.
func checkLog(t *testing.T, s fray.Store, id string, want []fray.EventRecord) {
	t.Helper()
	got, err := s.Events(context.Background(), id, 1, 0)
	if err != nil {
		t.Fatalf("Events(%q): %v", id, err)
	}
	if diff := cmp.Diff(want, got, cmpData); diff != "" {
		t.Errorf("log of %q (-want +got):\n%s", id, diff)
	}
	enc, err := s.Encounter(context.Background(), id)
	if err != nil {
		t.Fatalf("Encounter(%q): %v", id, err)
	}
	if enc.Revision != len(want) {
		t.Errorf("revision of %q is %d, want %d", id, enc.Revision, len(want))
	}
}

// cmpData compares event data as text, which reads better in a diff.
var cmpData = cmp.Transformer("string", func(m json.RawMessage) string { return string(m) })
