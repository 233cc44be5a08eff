package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/web"
)

// A server stores a snapshot as a log passes each SnapshotEvery events;
// another server on the same store loads the encounter from it and
// carries on exactly: its view, undo back past the snapshot, and a
// server holding the encounter taking in those undos.
func TestSnapshotsServeColdLoads(t *testing.T) {
	env := start(t, nil)
	c := env.create(t, "queue", "Long")
	d := env.play(t, c.ID, c.Token, 0, "add Ann side=pc wits=2", "add Bear wits=1", "start")
	for d.Revision < web.SnapshotEvery+40 {
		d = env.play(t, c.ID, c.Token, d.Revision, "next")
	}
	ctx := context.Background()
	snap, err := env.store.Snapshot(ctx, c.ID)
	if err != nil {
		t.Fatalf("no snapshot after %d events: %v", d.Revision, err)
	}
	if snap.Seq < web.SnapshotEvery || snap.Seq > web.SnapshotEvery+5 {
		t.Fatalf("snapshot at event %d, want just past %d", snap.Seq, web.SnapshotEvery)
	}

	other := newServer(t, env)
	view := func(srv *web.Server) (int, fray.View) {
		t.Helper()
		req := httptest.NewRequest("GET", "/api/encounters/"+c.ID, nil)
		req.Header.Set("Authorization", "Bearer "+c.Token)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("get: %d %s", rec.Code, rec.Body)
		}
		var got struct {
			Revision int       `json:"revision"`
			View     fray.View `json:"view"`
		}
		(reply{Status: rec.Code, Body: rec.Body.Bytes()}).decode(t, &got)
		return got.Revision, got.View
	}
	rev, want := view(env.srv)
	if got, v := view(other); got != rev || !cmp.Equal(want, v) {
		t.Fatalf("loaded from the snapshot: revision %d, view diff (-want +got):\n%s", got, cmp.Diff(want, v))
	}

	// Undo on the other server, back past the snapshot.
	for range d.Revision - snap.Seq + 3 {
		req := httptest.NewRequest("POST", "/api/encounters/"+c.ID+"/commands", jsonBody(t, map[string]any{"command": "undo", "revision": rev}))
		req.Header.Set("Authorization", "Bearer "+c.Token)
		rec := httptest.NewRecorder()
		other.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("undo at %d: %d %s", rev, rec.Code, rec.Body)
		}
		rev++
	}
	gotRev, got := view(other)
	firstRev, first := view(env.srv) // it takes in the other's undos
	if gotRev != rev || firstRev != rev || !cmp.Equal(first, got) {
		t.Fatalf("after the undos: revisions %d and %d, want %d; view diff (-first +other):\n%s", firstRev, gotRev, rev, cmp.Diff(first, got))
	}

	// A snapshot that cannot serve is passed over: the log says it all.
	bad := fray.SnapshotRecord{Seq: rev, Data: []byte(`{"format":99}`), Created: time.Unix(1, 0)}
	if err := env.store.PutSnapshot(ctx, c.ID, bad); err != nil {
		t.Fatal(err)
	}
	if r, v := view(newServer(t, env)); r != rev || !cmp.Equal(first, v) {
		t.Fatalf("past a bad snapshot: revision %d, view diff (-want +got):\n%s", r, cmp.Diff(first, v))
	}
}

// newServer returns another server on env's store.
func newServer(t *testing.T, env *env) *web.Server {
	t.Helper()
	cfg := web.Config{Store: env.store, Systems: systems, Limits: web.DefaultLimits()}
	cfg.Limits.Rate = 0
	srv, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

func jsonBody(t *testing.T, v any) *bytes.Reader {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}
