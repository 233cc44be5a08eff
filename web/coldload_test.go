package web_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fray"
	"fray/engine"
	"fray/rules/queue"
	"fray/sqlite"
	"fray/web"
)

// coldEvents is how many events the cold-load benchmark's encounter
// holds.
const coldEvents = 10_000

// BenchmarkColdLoad10k measures a cold load: a server that has never
// seen the encounter answers GET /api/encounters/{id} for one whose log
// holds 10,000 events in a SQLite file, with the snapshots a server
// stores as it goes (web.SnapshotEvery): it reads the newest snapshot and
// the events after it, and writes the view. Each iteration is a new
// server on the same file (the file's pages are in the operating
// system's cache, as on a server that restarted). The sub-benchmark
// whole-log has no snapshot: the server replays all 10,000 events.
//
//	go test -run '^$' -bench ColdLoad -benchtime 20x ./web
func BenchmarkColdLoad10k(b *testing.B) {
	b.Run("snapshot", func(b *testing.B) { benchColdLoad(b, true) })
	b.Run("whole-log", func(b *testing.B) { benchColdLoad(b, false) })
}

func benchColdLoad(b *testing.B, snapshots bool) {
	store, err := sqlite.Open(filepath.Join(b.TempDir(), "fray.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	cfg := web.Config{Store: store, Systems: systems, Limits: web.DefaultLimits()}
	cfg.Limits.Rate = 0
	first, err := web.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	rec := httptest.NewRecorder()
	first.ServeHTTP(rec, httptest.NewRequest("POST", "/api/encounters", strings.NewReader(`{"rules":"queue","name":"Long"}`)))
	var c created
	if err := json.Unmarshal(rec.Body.Bytes(), &c); err != nil || rec.Code != http.StatusCreated {
		b.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	first.Close()
	appendLong(b, store, c.ID, snapshots)

	for b.Loop() {
		b.StopTimer()
		srv, err := web.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		req := httptest.NewRequest("GET", "/api/encounters/"+c.ID, nil)
		req.Header.Set("Authorization", "Bearer "+c.Token)
		rec := httptest.NewRecorder()
		b.StartTimer()
		srv.ServeHTTP(rec, req)
		b.StopTimer()
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"revision":`) {
			b.Fatalf("cold load: %d %.200s", rec.Code, rec.Body)
		}
		srv.Close()
		b.StartTimer()
	}
}

// appendLong appends a queue encounter of coldEvents events to the log
// of id: two combatants, then turn after turn; with snapshots, it stores
// the newest snapshot a server would have taken as it went.
func appendLong(b *testing.B, store fray.Store, id string, snapshots bool) {
	b.Helper()
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 1)))
	for _, l := range []string{"add Ann side=pc wits=2", "add Bear wits=1", "start"} {
		cmd, _ := engine.ParseCommand(l)
		if _, err := e.Do(cmd); err != nil {
			b.Fatal(err)
		}
	}
	next, _ := engine.ParseCommand("next")
	var snap fray.SnapshotRecord
	for len(e.Log()) < coldEvents {
		before := len(e.Log())
		if _, err := e.Do(next); err != nil {
			b.Fatal(err)
		}
		if n := len(e.Log()); n <= coldEvents && n/web.SnapshotEvery > before/web.SnapshotEvery {
			data, err := e.Snapshot()
			if err != nil {
				b.Fatal(err)
			}
			snap = fray.SnapshotRecord{Seq: n, Data: data, Created: time.Unix(1, 0)}
		}
	}
	evs := e.Log()[:coldEvents]
	rev := 0
	for len(evs) > 0 {
		n := min(len(evs), fray.MaxAppend)
		recs := make([]fray.EventRecord, n)
		for i, ev := range evs[:n] {
			r, err := fray.NewEventRecord(ev, time.Unix(0, 0))
			if err != nil {
				b.Fatal(err)
			}
			recs[i] = r
		}
		got, err := store.AppendEvents(context.Background(), id, rev, recs)
		if err != nil || got != rev+n {
			b.Fatalf("append at %d: %d, %v", rev, got, err)
		}
		rev = got
		evs = evs[n:]
	}
	if snapshots {
		if err := store.PutSnapshot(context.Background(), id, snap); err != nil {
			b.Fatal(err)
		}
	}
}
