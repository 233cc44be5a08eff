package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"fray/sim"
)

// simCall sends a JSON body with the token; it fails the test only when
// the request cannot be made.
func simCall(t *testing.T, ctx context.Context, method, url, token string, body any) answer {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, header: res.Header, body: out, err: err}
}

// simEncounter makes a queue duel on base and returns its id and GM token.
func simEncounter(t *testing.T, base string) (id, token string) {
	t.Helper()
	ctx := t.Context()
	a := simCall(t, ctx, "POST", base+"/api/encounters", "", map[string]string{"rules": "queue", "name": "pool"})
	var c struct{ ID, Token string }
	if err := json.Unmarshal(a.body, &c); err != nil || a.status != http.StatusCreated {
		t.Fatalf("create: %v", a)
	}
	rev := 0
	for _, line := range []string{"add Ann side=pc wits=2 hp=1", "add Bo side=npc wits=1 hp=1", "start"} {
		a := simCall(t, ctx, "POST", base+"/api/encounters/"+c.ID+"/commands", c.Token, map[string]any{"command": line, "revision": rev})
		var d struct{ Revision int }
		if err := json.Unmarshal(a.body, &d); err != nil || a.status != http.StatusOK {
			t.Fatalf("%s: %v", line, a)
		}
		rev = d.Revision
	}
	return c.ID, c.Token
}

// TestSimPool checks that a simulation is expensive work: with the one
// worker held by a distribution and no queue, it is refused 503 naming
// the pool's budgets, and once the worker is free it is answered.
func TestSimPool(t *testing.T) {
	srv, base := workServer(t, func(l *Limits) { l.Workers, l.WorkQueue, l.MaxClientWork = 1, 0, 0 })
	id, token := simEncounter(t, base)
	h := holdPool(t, srv)
	ctx := t.Context()
	first := async(func() answer { return prob(ctx, base, expensiveExpr) })
	h.next(t, "start")
	path := base + "/api/encounters/" + id + "/sim"
	a := simCall(t, ctx, "POST", path, token, map[string]any{"fights": 10})
	if a.status != http.StatusServiceUnavailable || a.code() != EBUSY || a.header.Get("Retry-After") == "" || !strings.Contains(string(a.body), "(Workers, WorkQueue)") {
		t.Fatalf("with the worker held: %v; want 503 busy naming Workers and WorkQueue, with Retry-After", a)
	}
	h.release()
	if a := <-first; a.status != http.StatusOK {
		t.Fatalf("the held distribution: %v", a)
	}
	if a := simCall(t, ctx, "POST", path, token, map[string]any{"fights": 10}); a.status != http.StatusOK {
		t.Fatalf("with the worker free: %v", a)
	}
	h.next(t, "start")
}

// TestSimTime checks MaxSimTime: a simulation of more fights than it can
// play in the time (the most sim takes, some seconds of work against a
// millisecond) is stopped and refused 413 naming it.
func TestSimTime(t *testing.T) {
	_, base := workServer(t, func(l *Limits) { l.MaxSimTime, l.MaxSimFights = time.Millisecond, 0 })
	id, token := simEncounter(t, base)
	a := simCall(t, t.Context(), "POST", base+"/api/encounters/"+id+"/sim", token, map[string]any{"fights": sim.MaxFights})
	if a.status != http.StatusRequestEntityTooLarge || !strings.Contains(string(a.body), "(MaxSimTime)") {
		t.Fatalf("no time: %v; want 413 naming MaxSimTime", a)
	}
}
