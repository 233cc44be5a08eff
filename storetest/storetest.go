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
	"strings"
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

func testCreateGet(t *testing.T, s fray.Store) {
	ctx := context.Background()
	enc := Encounter("a-1_Z")
	enc.Name = "Blueshift’s last stand ⚔"
	enc.Revision, enc.Updated = 99, base.Add(time.Hour) // ignored
	mustCreate(t, s, enc)
	got, err := s.Encounter(ctx, enc.ID)
	if err != nil {
		t.Fatalf("Encounter: %v", err)
	}
	want := enc
	want.Created = fray.TruncateTime(enc.Created)
	want.Revision, want.Updated = 0, want.Created
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Encounter (-want +got):\n%s", diff)
	}
	if got.Created.Location() != time.UTC || got.Updated.Location() != time.UTC {
		t.Errorf("times come back in %v and %v, want UTC", got.Created.Location(), got.Updated.Location())
	}
	if got.Created.Nanosecond()%1000 != 0 {
		t.Errorf("Created %v is not truncated to the microsecond", got.Created)
	}
	_, err = s.Encounter(ctx, "nobody")
	wantCode(t, "Encounter(unknown)", err, fray.ENOTFOUND)
	_, err = s.Encounter(ctx, "not an id")
	wantCode(t, "Encounter(bad id)", err, fray.EINVALID)
	_, err = s.Encounter(ctx, "")
	wantCode(t, "Encounter(empty id)", err, fray.EINVALID)
}

func testCreateTaken(t *testing.T, s fray.Store) {
	ctx := context.Background()
	enc := Encounter("taken")
	mustCreate(t, s, enc)
	mustAppend(t, s, "taken", 0, Events(1, 2, "w"))
	other := enc
	other.Name = "Another"
	other.Rules = "vv"
	wantCode(t, "CreateEncounter(taken id)", s.CreateEncounter(ctx, other), fray.ECONFLICT)
	got, err := s.Encounter(ctx, "taken")
	if err != nil {
		t.Fatalf("Encounter: %v", err)
	}
	if got.Name != enc.Name || got.Rules != enc.Rules || got.Revision != 2 {
		t.Errorf("after a refused create: %+v, want the original at revision 2", got)
	}
	checkLog(t, s, "taken", truncated(Events(1, 2, "w")))
}

func testCreateBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	long := strings.Repeat("x", fray.MaxNameLen+1)
	tests := []struct {
		name string
		edit func(e *fray.EncounterRecord)
		code string
	}{
		{"no id", func(e *fray.EncounterRecord) { e.ID = "" }, fray.EINVALID},
		{"space in id", func(e *fray.EncounterRecord) { e.ID = "a b" }, fray.EINVALID},
		{"slash in id", func(e *fray.EncounterRecord) { e.ID = "a/b" }, fray.EINVALID},
		{"unicode id", func(e *fray.EncounterRecord) { e.ID = "é" }, fray.EINVALID},
		{"long id", func(e *fray.EncounterRecord) { e.ID = strings.Repeat("a", fray.MaxIDLen+1) }, fray.ETOOLARGE},
		{"no rules", func(e *fray.EncounterRecord) { e.Rules = "" }, fray.EINVALID},
		{"upper-case rules", func(e *fray.EncounterRecord) { e.Rules = "BPB" }, fray.EINVALID},
		{"long rules", func(e *fray.EncounterRecord) { e.Rules = strings.Repeat("r", fray.MaxRulesLen+1) }, fray.ETOOLARGE},
		{"long name", func(e *fray.EncounterRecord) { e.Name = long }, fray.ETOOLARGE},
		{"very long name", func(e *fray.EncounterRecord) { e.Name = strings.Repeat(long, 5000) }, fray.ETOOLARGE},
		{"long name in runes", func(e *fray.EncounterRecord) { e.Name = strings.Repeat("⚔", fray.MaxNameLen/3+1) }, fray.ETOOLARGE},
		{"bad UTF-8 name", func(e *fray.EncounterRecord) { e.Name = "a\xffb" }, fray.EINVALID},
		{"control in name", func(e *fray.EncounterRecord) { e.Name = "a\nb" }, fray.EINVALID},
		{"NUL in name", func(e *fray.EncounterRecord) { e.Name = "a\x00b" }, fray.EINVALID},
		{"no time", func(e *fray.EncounterRecord) { e.Created = time.Time{} }, fray.EINVALID},
	}
	for _, tt := range tests {
		enc := Encounter("bad")
		tt.edit(&enc)
		wantCode(t, tt.name, s.CreateEncounter(ctx, enc), tt.code)
	}
	list, err := s.Encounters(ctx, fray.EncounterFilter{})
	if err != nil {
		t.Fatalf("Encounters: %v", err)
	}
	if len(list) != 0 {
		t.Errorf("refused creates left %d encounters: %+v", len(list), list)
	}
	// At the limits, a record is good.
	enc := Encounter(strings.Repeat("i", fray.MaxIDLen))
	enc.Rules = strings.Repeat("r", fray.MaxRulesLen)
	enc.Name = strings.Repeat("n", fray.MaxNameLen)
	mustCreate(t, s, enc)
	empty := Encounter("unnamed")
	empty.Name = ""
	mustCreate(t, s, empty)
}

func testCreateTokensAtomic(t *testing.T, s fray.Store) {
	ctx := context.Background()
	gm := GMToken("t1", "gm")
	p := PlayerToken("t1", "Blueshift", "player")
	mustCreate(t, s, Encounter("t1"), gm, p)
	for _, want := range []fray.Token{gm, p} {
		got, err := s.Token(ctx, want.Hash)
		if err != nil {
			t.Fatalf("Token: %v", err)
		}
		if diff := cmp.Diff(truncToken(want), got); diff != "" {
			t.Errorf("Token (-want +got):\n%s", diff)
		}
	}
	refused := []struct {
		name   string
		tokens []fray.Token
		code   string
	}{
		{"hash taken by another encounter", []fray.Token{GMToken("t2", "new"), PlayerToken("t2", "X", "gm")}, fray.ECONFLICT},
		{"hash twice", []fray.Token{GMToken("t2", "same"), PlayerToken("t2", "X", "same")}, fray.ECONFLICT},
		{"token for another encounter", []fray.Token{GMToken("t3", "other")}, fray.EINVALID},
		{"bad token", []fray.Token{{Hash: "abc", Encounter: "t2", Role: fray.RoleGM, Created: base}}, fray.EINVALID},
	}
	for _, tt := range refused {
		wantCode(t, tt.name, s.CreateEncounter(ctx, Encounter("t2"), tt.tokens...), tt.code)
		_, err := s.Encounter(ctx, "t2")
		wantCode(t, tt.name+": encounter after a refused create", err, fray.ENOTFOUND)
		for _, tok := range tt.tokens {
			if tok.Hash == gm.Hash || tok.Hash == "abc" {
				continue
			}
			_, err := s.Token(ctx, tok.Hash)
			wantCode(t, tt.name+": token after a refused create", err, fray.ENOTFOUND)
		}
	}
	// The encounter id is free again, and the first encounter untouched.
	mustCreate(t, s, Encounter("t2"), GMToken("t2", "new"))
	got, err := s.Token(ctx, gm.Hash)
	if err != nil || got.Encounter != "t1" {
		t.Errorf("Token(gm) = %+v, %v; want the token of t1", got, err)
	}
}

func testList(t *testing.T, s fray.Store) {
	ctx := context.Background()
	// Created: e3 newest; e1 and e2 tie and are listed by id; e0 oldest.
	recs := []fray.EncounterRecord{Encounter("e0"), Encounter("e2"), Encounter("e1"), Encounter("e3")}
	recs[0].Created = base.Add(-time.Hour)
	recs[3].Created = base.Add(time.Hour)
	for _, r := range recs {
		mustCreate(t, s, r)
	}
	mustAppend(t, s, "e1", 0, Events(1, 3, "w"))
	ids := func(list []fray.EncounterRecord) []string {
		var out []string
		for _, r := range list {
			out = append(out, r.ID)
		}
		return out
	}
	tests := []struct {
		name string
		f    fray.EncounterFilter
		want []string
	}{
		{"all", fray.EncounterFilter{}, []string{"e3", "e1", "e2", "e0"}},
		{"limit", fray.EncounterFilter{Limit: 2}, []string{"e3", "e1"}},
		{"offset", fray.EncounterFilter{Offset: 1, Limit: 2}, []string{"e1", "e2"}},
		{"offset to the end", fray.EncounterFilter{Offset: 3}, []string{"e0"}},
		{"offset past the end", fray.EncounterFilter{Offset: 4}, nil},
		{"limit past MaxListed", fray.EncounterFilter{Limit: fray.MaxListed + 1}, []string{"e3", "e1", "e2", "e0"}},
	}
	for _, tt := range tests {
		got, err := s.Encounters(ctx, tt.f)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got == nil {
			t.Errorf("%s: a nil list, want an empty one", tt.name)
		}
		if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	all, err := s.Encounters(ctx, fray.EncounterFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		want := r
		switch r.ID {
		case "e1":
			want.Revision, want.Updated = 3, fray.TruncateTime(Events(3, 1, "")[0].Time)
		default:
			want.Revision, want.Updated = 0, r.Created
		}
		if diff := cmp.Diff(want, r); diff != "" {
			t.Errorf("listed %s (-want +got):\n%s", r.ID, diff)
		}
	}
}

func testListFilter(t *testing.T, s fray.Store) {
	ctx := context.Background()
	for i := range 5 {
		e := Encounter(fmt.Sprintf("f%d", i))
		e.Created = base.Add(time.Duration(i) * time.Second)
		mustCreate(t, s, e)
	}
	tests := []struct {
		name string
		ids  []string
		want []string
	}{
		{"some", []string{"f1", "f3"}, []string{"f3", "f1"}},
		{"unknown skipped", []string{"f0", "nobody", "f4"}, []string{"f4", "f0"}},
		{"repeated once", []string{"f2", "f2", "f2"}, []string{"f2"}},
		{"none known", []string{"x", "y"}, nil},
		{"empty, not nil", []string{}, nil},
	}
	for _, tt := range tests {
		got, err := s.Encounters(ctx, fray.EncounterFilter{IDs: tt.ids})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, r.ID)
		}
		if diff := cmp.Diff(tt.want, ids); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	got, err := s.Encounters(ctx, fray.EncounterFilter{IDs: []string{"f0", "f1", "f2", "f3"}, Offset: 1, Limit: 2})
	if err != nil || len(got) != 2 || got[0].ID != "f2" || got[1].ID != "f1" {
		t.Errorf("ids with offset and limit: %+v, %v; want f2, f1", got, err)
	}
}

func testListBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	tests := []struct {
		name string
		f    fray.EncounterFilter
		code string
	}{
		{"negative offset", fray.EncounterFilter{Offset: -1}, fray.EINVALID},
		{"negative limit", fray.EncounterFilter{Limit: -1}, fray.EINVALID},
		{"bad id", fray.EncounterFilter{IDs: []string{"ok", "not ok"}}, fray.EINVALID},
		{"too many ids", fray.EncounterFilter{IDs: make([]string, fray.MaxListed+1)}, fray.ETOOLARGE},
	}
	for _, tt := range tests {
		_, err := s.Encounters(ctx, tt.f)
		wantCode(t, tt.name, err, tt.code)
	}
}

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

func testEvents(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("ev"))
	all := truncated(Events(1, 10, "w"))
	mustAppend(t, s, "ev", 0, Events(1, 10, "w"))
	tests := []struct {
		name        string
		from, limit int
		want        []fray.EventRecord
	}{
		{"all", 1, 0, all},
		{"from the middle", 4, 0, all[3:]},
		{"the last", 10, 0, all[9:]},
		{"past the end", 11, 0, []fray.EventRecord{}},
		{"far past the end", 1 << 40, 0, []fray.EventRecord{}},
		{"a page", 3, 4, all[2:6]},
		{"a page past the end", 8, 5, all[7:]},
		{"one", 5, 1, all[4:5]},
		{"a huge limit", 1, 1 << 40, all},
	}
	for _, tt := range tests {
		got, err := s.Events(ctx, "ev", tt.from, tt.limit)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got == nil {
			t.Errorf("%s: a nil list, want an empty one", tt.name)
		}
		if diff := cmp.Diff(tt.want, got, cmpData); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	mustCreate(t, s, Encounter("empty"))
	got, err := s.Events(ctx, "empty", 1, 0)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("Events of an empty log = %v, %v; want an empty list", got, err)
	}
}

func testEventsBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("ev"))
	tests := []struct {
		name        string
		id          string
		from, limit int
		code        string
	}{
		{"from 0", "ev", 0, 0, fray.EINVALID},
		{"from below 0", "ev", -5, 0, fray.EINVALID},
		{"negative limit", "ev", 1, -1, fray.EINVALID},
		{"bad id", "e v", 1, 0, fray.EINVALID},
		{"unknown encounter", "nobody", 1, 0, fray.ENOTFOUND},
		{"unknown encounter past the end", "nobody", 100, 0, fray.ENOTFOUND},
	}
	for _, tt := range tests {
		_, err := s.Events(ctx, tt.id, tt.from, tt.limit)
		wantCode(t, tt.name, err, tt.code)
	}
}

func testTokens(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("tok"), GMToken("tok", "gm"))
	p1 := PlayerToken("tok", "Blueshift", "p1")
	p2 := PlayerToken("tok", "Ganyeka’s henchmen", "p2")
	for _, p := range []fray.Token{p1, p2} {
		if err := s.CreateToken(ctx, p); err != nil {
			t.Fatalf("CreateToken: %v", err)
		}
	}
	for _, want := range []fray.Token{GMToken("tok", "gm"), p1, p2} {
		got, err := s.Token(ctx, want.Hash)
		if err != nil {
			t.Fatalf("Token: %v", err)
		}
		if diff := cmp.Diff(truncToken(want), got); diff != "" {
			t.Errorf("Token (-want +got):\n%s", diff)
		}
	}
	wantCode(t, "CreateToken(taken hash)", s.CreateToken(ctx, PlayerToken("tok", "Other", "p1")), fray.ECONFLICT)
	got, err := s.Token(ctx, p1.Hash)
	if err != nil || got.Combatant != "Blueshift" {
		t.Errorf("after a refused token: %+v, %v; want Blueshift's", got, err)
	}
	if err := s.DeleteToken(ctx, p1.Hash); err != nil {
		t.Fatalf("DeleteToken: %v", err)
	}
	_, err = s.Token(ctx, p1.Hash)
	wantCode(t, "Token(deleted)", err, fray.ENOTFOUND)
	wantCode(t, "DeleteToken(deleted)", s.DeleteToken(ctx, p1.Hash), fray.ENOTFOUND)
	if _, err := s.Token(ctx, p2.Hash); err != nil {
		t.Errorf("Token(p2) after deleting p1: %v", err)
	}
	// A deleted token's hash may be issued again.
	if err := s.CreateToken(ctx, p1); err != nil {
		t.Errorf("CreateToken(p1 again): %v", err)
	}
}

func testTokensBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("tok"))
	tests := []struct {
		name string
		tok  fray.Token
		code string
	}{
		{"unknown encounter", GMToken("nobody", "a"), fray.ENOTFOUND},
		{"bad encounter id", GMToken("no body", "a"), fray.EINVALID},
		{"no hash", fray.Token{Encounter: "tok", Role: fray.RoleGM, Created: base}, fray.EINVALID},
		{"short hash", fray.Token{Hash: "abcd", Encounter: "tok", Role: fray.RoleGM, Created: base}, fray.EINVALID},
		{"upper-case hash", fray.Token{Hash: strings.ToUpper(fray.HashToken("a")), Encounter: "tok", Role: fray.RoleGM, Created: base}, fray.EINVALID},
		{"not hex", fray.Token{Hash: strings.Repeat("g", 64), Encounter: "tok", Role: fray.RoleGM, Created: base}, fray.EINVALID},
		{"no role", fray.Token{Hash: fray.HashToken("a"), Encounter: "tok", Created: base}, fray.EINVALID},
		{"unknown role", fray.Token{Hash: fray.HashToken("a"), Encounter: "tok", Role: "admin", Created: base}, fray.EINVALID},
		{"GM with a combatant", fray.Token{Hash: fray.HashToken("a"), Encounter: "tok", Role: fray.RoleGM, Combatant: "X", Created: base}, fray.EINVALID},
		{"player without a combatant", PlayerToken("tok", "", "a"), fray.EINVALID},
		{"long combatant", PlayerToken("tok", strings.Repeat("c", fray.MaxNameLen+1), "a"), fray.ETOOLARGE},
		{"control in combatant", PlayerToken("tok", "a\tb", "a"), fray.EINVALID},
		{"no time", fray.Token{Hash: fray.HashToken("a"), Encounter: "tok", Role: fray.RoleGM}, fray.EINVALID},
	}
	for _, tt := range tests {
		wantCode(t, tt.name, s.CreateToken(ctx, tt.tok), tt.code)
		if tt.tok.Hash != "" && fray.ValidateTokenHash(tt.tok.Hash) == nil {
			_, err := s.Token(ctx, tt.tok.Hash)
			wantCode(t, tt.name+": Token after a refused create", err, fray.ENOTFOUND)
		}
	}
	_, err := s.Token(ctx, "x")
	wantCode(t, "Token(malformed hash)", err, fray.EINVALID)
	_, err = s.Token(ctx, fray.HashToken("never issued"))
	wantCode(t, "Token(unknown hash)", err, fray.ENOTFOUND)
	wantCode(t, "DeleteToken(malformed hash)", s.DeleteToken(ctx, "x"), fray.EINVALID)
	wantCode(t, "DeleteToken(unknown hash)", s.DeleteToken(ctx, fray.HashToken("never issued")), fray.ENOTFOUND)
	// A token's secret is not its hash.
	_, err = s.Token(ctx, fray.HashToken(fray.HashToken("a")))
	wantCode(t, "Token(hash of the hash)", err, fray.ENOTFOUND)
}

// testTokensList checks Tokens: every token of one encounter and no
// other's, in the order of creation (then of hash), without the deleted.
func testTokensList(t *testing.T, s fray.Store) {
	ctx := context.Background()
	at := func(tok fray.Token, d time.Duration) fray.Token {
		tok.Created = base.Add(d)
		return tok
	}
	gm := GMToken("a", "gm a")
	// Made in this order, listed by time: gm, p2, p1; p3 and p4 share a
	// time and are listed by hash.
	p1 := at(PlayerToken("a", "c-blueshift", "p1"), 2*time.Second)
	p2 := at(PlayerToken("a", "c-ganyeka", "p2"), time.Second)
	p3 := at(PlayerToken("a", "c-monolith", "p3"), 3*time.Second)
	p4 := at(PlayerToken("a", "c-monolith", "p4"), 3*time.Second)
	mustCreate(t, s, Encounter("a"), gm)
	mustCreate(t, s, Encounter("b"), GMToken("b", "gm b"))
	mustCreate(t, s, Encounter("none"))
	for _, tok := range []fray.Token{p1, p2, p3, p4, at(PlayerToken("b", "c-blueshift", "b1"), time.Second)} {
		if err := s.CreateToken(ctx, tok); err != nil {
			t.Fatalf("CreateToken: %v", err)
		}
	}
	last := []fray.Token{p3, p4}
	if p4.Hash < p3.Hash {
		last = []fray.Token{p4, p3}
	}
	check := func(what, id string, want ...fray.Token) {
		t.Helper()
		got, err := s.Tokens(ctx, id)
		if err != nil {
			t.Fatalf("%s: Tokens(%q): %v", what, id, err)
		}
		if got == nil {
			t.Errorf("%s: Tokens(%q) = nil, want an empty list", what, id)
			return
		}
		truncated := make([]fray.Token, len(want))
		for i, tok := range want {
			truncated[i] = truncToken(tok)
		}
		if diff := cmp.Diff(truncated, got); diff != "" {
			t.Errorf("%s: Tokens(%q) (-want +got):\n%s", what, id, diff)
		}
	}
	check("listing", "a", append([]fray.Token{gm, p2, p1}, last...)...)
	check("another encounter", "b", GMToken("b", "gm b"), at(PlayerToken("b", "c-blueshift", "b1"), time.Second))
	check("no tokens", "none")

	if err := s.DeleteToken(ctx, p1.Hash); err != nil {
		t.Fatalf("DeleteToken: %v", err)
	}
	if err := s.DeleteToken(ctx, gm.Hash); err != nil {
		t.Fatalf("DeleteToken: %v", err)
	}
	check("after DeleteToken", "a", append([]fray.Token{p2}, last...)...)
	check("another encounter after DeleteToken", "b", GMToken("b", "gm b"), at(PlayerToken("b", "c-blueshift", "b1"), time.Second))
	// Listing gives the caller a copy.
	got, err := s.Tokens(ctx, "a")
	if err != nil || len(got) == 0 {
		t.Fatalf("Tokens: %v, %v", got, err)
	}
	got[0].Role = fray.RoleGM
	check("after the caller changed a list", "a", append([]fray.Token{p2}, last...)...)

	_, err = s.Tokens(ctx, "nobody")
	wantCode(t, "Tokens(unknown encounter)", err, fray.ENOTFOUND)
	_, err = s.Tokens(ctx, "no body")
	wantCode(t, "Tokens(bad id)", err, fray.EINVALID)
	_, err = s.Tokens(ctx, "")
	wantCode(t, "Tokens(no id)", err, fray.EINVALID)
}

func testTokenLimit(t *testing.T, s fray.Store) {
	ctx := context.Background()
	many := func(id string, n int) []fray.Token {
		toks := make([]fray.Token, n)
		for i := range toks {
			toks[i] = PlayerToken(id, fmt.Sprint("P", i), fmt.Sprint(id, "/", i))
		}
		return toks
	}
	wantCode(t, "CreateEncounter with MaxTokens+1 tokens", s.CreateEncounter(ctx, Encounter("over"), many("over", fray.MaxTokens+1)...), fray.ETOOLARGE)
	mustCreate(t, s, Encounter("full"), many("full", fray.MaxTokens)...)
	extra := PlayerToken("full", "Extra", "extra")
	wantCode(t, "CreateToken past MaxTokens", s.CreateToken(ctx, extra), fray.ETOOLARGE)
	if err := s.DeleteToken(ctx, fray.HashToken("full/0")); err != nil {
		t.Fatalf("DeleteToken: %v", err)
	}
	if err := s.CreateToken(ctx, extra); err != nil {
		t.Errorf("CreateToken after a delete made room: %v", err)
	}
}

// testUsage checks Usage: the number of encounters exactly, and bytes
// that are at least the event data held and grow by at least each
// append's data; a refused write changes neither.
func testUsage(t *testing.T, s fray.Store) {
	ctx := context.Background()
	usage := func(what string) (int, int64) {
		t.Helper()
		n, b, err := s.Usage(ctx)
		if err != nil {
			t.Fatalf("Usage %s: %v", what, err)
		}
		if b < 0 {
			t.Fatalf("Usage %s: %d bytes", what, b)
		}
		return n, b
	}
	if n, _ := usage("of a new store"); n != 0 {
		t.Errorf("a new store holds %d encounters, want 0", n)
	}
	for i := range 3 {
		id := fmt.Sprint("u", i)
		mustCreate(t, s, Encounter(id), GMToken(id, "gm "+id))
	}
	n, before := usage("after three creates")
	if n != 3 {
		t.Errorf("after three creates Usage reports %d encounters, want 3", n)
	}
	// Refusals add nothing.
	wantCode(t, "create of a taken id", s.CreateEncounter(ctx, Encounter("u0")), fray.ECONFLICT)
	_, err := s.AppendEvents(ctx, "u1", 5, Events(6, 1, "late"))
	wantCode(t, "stale append", err, fray.ECONFLICT)
	if n, _ := usage("after refusals"); n != 3 {
		t.Errorf("after refused writes Usage reports %d encounters, want 3", n)
	}
	// Large events, so that even a store counting pages sees them.
	const size, count = 64 << 10, 8
	filler := strings.Repeat("x", size)
	var data int64
	for i := range 3 {
		evs := make([]fray.EventRecord, count)
		for k := range evs {
			evs[k] = fray.EventRecord{Seq: k + 1, Type: "test.big", Data: json.RawMessage(fmt.Sprintf(`{"k":%d,"s":%q}`, k, filler)), Time: base}
			data += int64(len(evs[k].Data))
		}
		mustAppend(t, s, fmt.Sprint("u", i), 0, evs)
	}
	n, after := usage("after appends")
	if n != 3 {
		t.Errorf("after appends Usage reports %d encounters, want 3", n)
	}
	if after < data {
		t.Errorf("Usage reports %d bytes, less than the %d bytes of event data held", after, data)
	}
	if after-before < data {
		t.Errorf("Usage grew by %d bytes over appends of %d bytes of data", after-before, data)
	}
}

func testCanceled(t *testing.T, s fray.Store) {
	mustCreate(t, s, Encounter("c"))
	mustAppend(t, s, "c", 0, Events(1, 1, "w"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.CreateEncounter(ctx, Encounter("c2")); !errors.Is(err, context.Canceled) {
		t.Errorf("CreateEncounter with a canceled context: %v, want context.Canceled", err)
	}
	if _, err := s.AppendEvents(ctx, "c", 1, Events(2, 1, "w")); !errors.Is(err, context.Canceled) {
		t.Errorf("AppendEvents with a canceled context: %v, want context.Canceled", err)
	}
	if err := s.CreateToken(ctx, GMToken("c", "t")); !errors.Is(err, context.Canceled) {
		t.Errorf("CreateToken with a canceled context: %v, want context.Canceled", err)
	}
	if _, err := s.Events(ctx, "c", 1, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Events with a canceled context: %v, want context.Canceled", err)
	}
	if _, err := s.Tokens(ctx, "c"); !errors.Is(err, context.Canceled) {
		t.Errorf("Tokens with a canceled context: %v, want context.Canceled", err)
	}
	bg := context.Background()
	_, err := s.Encounter(bg, "c2")
	wantCode(t, "encounter created with a canceled context", err, fray.ENOTFOUND)
	_, err = s.Token(bg, fray.HashToken("t"))
	wantCode(t, "token created with a canceled context", err, fray.ENOTFOUND)
	checkLog(t, s, "c", truncated(Events(1, 1, "w")))
}

func testClose(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("c"), GMToken("c", "gm"))
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	calls := []struct {
		name string
		call func() error
	}{
		{"CreateEncounter", func() error { return s.CreateEncounter(ctx, Encounter("d")) }},
		{"Encounter", func() error { _, err := s.Encounter(ctx, "c"); return err }},
		{"Encounters", func() error { _, err := s.Encounters(ctx, fray.EncounterFilter{}); return err }},
		{"AppendEvents", func() error { _, err := s.AppendEvents(ctx, "c", 0, Events(1, 1, "w")); return err }},
		{"Events", func() error { _, err := s.Events(ctx, "c", 1, 0); return err }},
		{"CreateToken", func() error { return s.CreateToken(ctx, GMToken("c", "x")) }},
		{"Token", func() error { _, err := s.Token(ctx, fray.HashToken("gm")); return err }},
		{"Tokens", func() error { _, err := s.Tokens(ctx, "c"); return err }},
		{"DeleteToken", func() error { return s.DeleteToken(ctx, fray.HashToken("gm")) }},
		{"PutSnapshot", func() error { return s.PutSnapshot(ctx, "c", Snapshot(1, "x")) }},
		{"Snapshot", func() error { _, err := s.Snapshot(ctx, "c"); return err }},
		{"Usage", func() error { _, _, err := s.Usage(ctx); return err }},
	}
	for _, c := range calls {
		if err := c.call(); err == nil {
			t.Errorf("%s after Close: no error", c.name)
		}
	}
}
