package web

// These tests are inside the package: the pool's trace is the seam that
// holds a distribution in its worker, so that a full pool is a state the
// test makes, not a race it hopes to win.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"fray"
	"fray/dice"
	"fray/rules/queue"
	"fray/sqlite"
)

// workServer starts a real server over a SQLite store, with the default
// limits but no rate limit, changed by change.
func workServer(t *testing.T, change func(*Limits)) (*Server, string) {
	t.Helper()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "fray.db"))
	if err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits()
	lim.Rate = 0
	if change != nil {
		change(&lim)
	}
	srv, err := New(Config{Store: store, Systems: map[string]func() fray.System{queue.ID: func() fray.System { return queue.New() }}, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
		store.Close()
	})
	return srv, hs.URL
}

// answer is a reply: its status, headers and body.
type answer struct {
	status int
	header http.Header
	body   []byte
	err    error // the request failed
}

// code returns the error code of a refusal.
func (a answer) code() string {
	var e errorBody
	json.Unmarshal(a.body, &e)
	return e.Error.Code
}

func (a answer) String() string {
	if a.err != nil {
		return a.err.Error()
	}
	return fmt.Sprintf("%d %s", a.status, bytes.TrimSpace(a.body))
}

// call sends a request with ctx; body nil for none.
func call(ctx context.Context, method, url string, body []byte) answer {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return answer{err: err}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, header: res.Header, body: b, err: err}
}

// prob asks base for the distribution of expr.
func prob(ctx context.Context, base, expr string) answer {
	return call(ctx, "GET", base+"/api/prob?expr="+url.QueryEscape(expr), nil)
}

// async runs f in a goroutine; the channel gives its answer.
func async(f func() answer) <-chan answer {
	c := make(chan answer, 1)
	go func() { c <- f() }()
	return c
}

// hold watches a server's pool: it records each step of the requests
// through it, and holds the first request to start computing in its
// worker until release.
type hold struct {
	steps   chan string
	held    atomic.Bool
	wait    chan struct{}
	release func()
}

func holdPool(t *testing.T, srv *Server) *hold {
	h := &hold{steps: make(chan string, 64), wait: make(chan struct{})}
	var once sync.Once
	h.release = func() { once.Do(func() { close(h.wait) }) }
	t.Cleanup(h.release) // before the server closes: it waits for its requests
	srv.work().trace = func(step string) {
		h.steps <- step
		if step == "start" && h.held.CompareAndSwap(false, true) {
			<-h.wait
		}
	}
	return h
}

// next waits for the next step of a request through the pool and checks
// it is want.
func (h *hold) next(t *testing.T, want string) {
	t.Helper()
	if got := <-h.steps; got != want {
		t.Fatalf("the pool's next step is %q, want %q", got, want)
	}
}

// expensiveExpr needs more work than cheapDistWork, and little enough to
// be quick with the whole budget; cheapExpr needs less.
const (
	expensiveExpr   = "35d100"
	expensiveMean   = 35 * 50.5
	expensiveValues = 35*99 + 1
	cheapExpr       = "3d6!"
)

// TestWorkExprsAreWhatTheySay checks the premise of the tests below: the
// dice package finds expensiveExpr past cheapDistWork, and cheapExpr
// within it.
func TestWorkExprsAreWhatTheySay(t *testing.T) {
	for expr, want := range map[string]bool{expensiveExpr: true, cheapExpr: false, "4d6kh3": false, "10d10>=8f1": false, "20d6!": false} {
		d, err := dice.MustParse(expr).Dist(dice.DistOptions{MaxWork: cheapDistWork})
		if got := expensive(d, err, 0); got != want {
			t.Errorf("%s: expensive is %v (%v), want %v", expr, got, err, want)
		}
	}
}

// TestWorkPoolFull checks that with every worker busy and no room to
// wait, an expensive distribution is refused 503 with Retry-After, naming
// the budgets, and that the refusal changed nothing: once the worker is
// free the same request is answered.
func TestWorkPoolFull(t *testing.T) {
	srv, base := workServer(t, func(l *Limits) { l.Workers, l.WorkQueue, l.MaxClientWork = 1, 0, 0 })
	h := holdPool(t, srv)
	ctx := t.Context()
	first := async(func() answer { return prob(ctx, base, expensiveExpr) })
	h.next(t, "start")

	a := prob(ctx, base, expensiveExpr)
	if a.status != http.StatusServiceUnavailable || a.code() != EBUSY || a.header.Get("Retry-After") != "1" || !strings.Contains(string(a.body), "(Workers, WorkQueue)") {
		t.Fatalf("with the pool full: %v, Retry-After %q; want 503 busy naming Workers and WorkQueue, Retry-After 1", a, a.header.Get("Retry-After"))
	}

	h.release()
	if a := <-first; a.status != http.StatusOK {
		t.Fatalf("the held distribution: %v", a)
	}
	again := prob(ctx, base, expensiveExpr)
	h.next(t, "start")
	if again.status != http.StatusOK {
		t.Fatalf("once the worker is free: %v", again)
	}
	var got ProbResult
	json.Unmarshal(again.body, &got)
	if got.Expr != expensiveExpr || math.Abs(got.Mean-expensiveMean) > 1e-6 || len(got.Dist) != expensiveValues {
		t.Fatalf("got %s with mean %g over %d values, want mean %g over %d", got.Expr, got.Mean, len(got.Dist), expensiveMean, expensiveValues)
	}
}

// TestWorkCheapWhileFull checks that a cheap distribution does not wait
// behind expensive ones: it is answered while the pool is full, and at
// the automatic depth with the depth and mass cut off of the whole
// budget.
func TestWorkCheapWhileFull(t *testing.T) {
	srv, base := workServer(t, func(l *Limits) { l.Workers, l.WorkQueue, l.MaxClientWork = 1, 0, 0 })
	h := holdPool(t, srv)
	ctx := t.Context()
	first := async(func() answer { return prob(ctx, base, expensiveExpr) })
	h.next(t, "start")
	if a := prob(ctx, base, expensiveExpr); a.status != http.StatusServiceUnavailable {
		t.Fatalf("the pool is not full: %v", a)
	}

	for _, expr := range []string{cheapExpr, "4d6kh3", "2d20kl1+5", "10d10>=8f1"} {
		a := prob(ctx, base, expr)
		if a.status != http.StatusOK {
			t.Fatalf("%s with the pool full: %v", expr, a)
		}
		var got ProbResult
		json.Unmarshal(a.body, &got)
		e := dice.MustParse(expr)
		d, err := e.Dist(dice.DistOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if want := NewProbResult(e, d); got.Depth != want.Depth || got.Truncated != want.Truncated || got.Mean != want.Mean {
			t.Errorf("%s: depth %d, truncated %g, mean %g; the whole budget gives %d, %g, %g", expr, got.Depth, got.Truncated, got.Mean, want.Depth, want.Truncated, want.Mean)
		}
	}
	h.release()
	if a := <-first; a.status != http.StatusOK {
		t.Fatalf("the held distribution: %v", a)
	}
}

// TestWorkClientLimit checks MaxClientWork: a client address with that
// many expensive requests in flight is refused 429 naming it, while
// another address is served, and the refused client is served again
// once its first request is done.
func TestWorkClientLimit(t *testing.T) {
	srv, base := workServer(t, func(l *Limits) { l.Workers, l.WorkQueue, l.MaxClientWork = 4, 4, 1 })
	h := holdPool(t, srv)
	ctx := t.Context()
	first := async(func() answer { return prob(ctx, base, expensiveExpr) })
	h.next(t, "start")

	a := prob(ctx, base, expensiveExpr)
	if a.status != http.StatusTooManyRequests || a.code() != ERATELIMITED || a.header.Get("Retry-After") == "" || !strings.Contains(string(a.body), "MaxClientWork") {
		t.Fatalf("a second expensive request of one client: %v, Retry-After %q; want 429 rate_limited naming MaxClientWork, with Retry-After", a, a.header.Get("Retry-After"))
	}
	if a := prob(ctx, base, cheapExpr); a.status != http.StatusOK {
		t.Fatalf("a cheap distribution is not expensive work: %v", a)
	}
	// An import is expensive work too: refused before the log is read.
	if a := call(ctx, "POST", base+"/api/encounters/import", []byte("{}\n")); a.status != http.StatusTooManyRequests || a.code() != ERATELIMITED || !strings.Contains(string(a.body), "MaxClientWork") {
		t.Fatalf("an import while the client's expensive work is in flight: %v; want 429 naming MaxClientWork", a)
	}

	// Another client address, through the same server.
	req := httptest.NewRequestWithContext(ctx, "GET", "/api/prob?expr="+expensiveExpr, nil)
	req.RemoteAddr = "192.0.2.7:4321"
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	h.next(t, "start")
	if rec.Code != http.StatusOK {
		t.Fatalf("another client: %d %s", rec.Code, rec.Body)
	}

	h.release()
	if a := <-first; a.status != http.StatusOK {
		t.Fatalf("the held distribution: %v", a)
	}
	if a := prob(ctx, base, expensiveExpr); a.status != http.StatusOK {
		t.Fatalf("once its first request is done: %v", a)
	}
	h.next(t, "start")
}

// TestWorkWait checks WorkWait: a distribution that waits that long for a
// worker is refused 503 naming it, with Retry-After.
func TestWorkWait(t *testing.T) {
	srv, base := workServer(t, func(l *Limits) {
		l.Workers, l.WorkQueue, l.MaxClientWork = 1, 1, 0
		l.WorkWait = 1 // the worker is held: no wait is short enough to race
	})
	h := holdPool(t, srv)
	ctx := t.Context()
	first := async(func() answer { return prob(ctx, base, expensiveExpr) })
	h.next(t, "start")

	a := prob(ctx, base, expensiveExpr)
	h.next(t, "wait")
	h.next(t, "quit")
	if a.status != http.StatusServiceUnavailable || a.code() != EBUSY || a.header.Get("Retry-After") != "1" || !strings.Contains(string(a.body), "(WorkWait)") {
		t.Fatalf("past WorkWait: %v, Retry-After %q; want 503 busy naming WorkWait, Retry-After 1", a, a.header.Get("Retry-After"))
	}
	h.release()
	if a := <-first; a.status != http.StatusOK {
		t.Fatalf("the held distribution: %v", a)
	}
}

// TestWorkClientGoneFreesPlace checks that the request's context is
// honoured: a waiting client that goes away frees its place in the
// queue, which the next request takes instead of being refused.
func TestWorkClientGoneFreesPlace(t *testing.T) {
	srv, base := workServer(t, func(l *Limits) { l.Workers, l.WorkQueue, l.MaxClientWork, l.WorkWait = 1, 1, 0, 0 })
	h := holdPool(t, srv)
	ctx := t.Context()
	first := async(func() answer { return prob(ctx, base, expensiveExpr) })
	h.next(t, "start")

	gone, cancel := context.WithCancel(ctx)
	waiting := async(func() answer { return prob(gone, base, expensiveExpr) })
	h.next(t, "wait")
	if a := prob(ctx, base, expensiveExpr); a.status != http.StatusServiceUnavailable || !strings.Contains(string(a.body), "WorkQueue") {
		t.Fatalf("with the queue full: %v; want 503 naming WorkQueue", a)
	}
	cancel()
	if a := <-waiting; a.err == nil {
		t.Fatalf("the cancelled request was answered: %v", a)
	}
	h.next(t, "quit") // the server saw the client go

	next := async(func() answer { return prob(ctx, base, expensiveExpr) })
	h.next(t, "wait") // it takes the freed place, not a refusal
	h.release()
	for _, c := range []<-chan answer{first, next} {
		if a := <-c; a.status != http.StatusOK {
			t.Fatalf("a distribution once the worker is free: %v", a)
		}
	}
}

// rolls posts a roll request.
func rolls(t *testing.T, base, body string) answer {
	t.Helper()
	a := call(t.Context(), "POST", base+"/api/roll", []byte(body))
	if a.err != nil {
		t.Fatal(a.err)
	}
	return a
}

// TestRollRequestDice checks MaxRequestDice: a roll request is refused
// 413 naming it when its rolls name more dice than it in all, before any
// is rolled, and when the dice that exploded or rerolled take the answer
// past it; a request at the budget is answered in full.
func TestRollRequestDice(t *testing.T) {
	// The request: 129 bytes of expression, 378 MB of answer.
	flood := strings.Repeat("10000d100000+", 9) + "10000d100000"
	_, base := workServer(t, nil)
	a := rolls(t, base, `{"expr":"`+flood+`","count":100}`)
	if a.status != http.StatusRequestEntityTooLarge || a.code() != fray.ETOOLARGE || !strings.Contains(string(a.body), "10000000 dice (100 rolls of 100000), more than 100000 (MaxRequestDice)") {
		t.Fatalf("the 129-byte flood: %v; want 413 too_large naming MaxRequestDice and the numbers", a)
	}

	_, base = workServer(t, func(l *Limits) { l.MaxRequestDice = 1000 })
	tests := []struct {
		name, body string
		rolls      int    // the rolls answered, or 0 for a refusal
		want       string // in the refusal
	}{
		{"at the budget", `{"expr":"10d6","count":100}`, 100, ""},
		{"pools in parentheses", `{"expr":"(2d6+3)*2d%-dF+5d4","count":100}`, 100, ""},
		{"one roll", `{"expr":"1000d6"}`, 1, ""},
		{"past it by the count", `{"expr":"11d6","count":100}`, 0, "1100 dice (100 rolls of 11), more than 1000 (MaxRequestDice)"},
		{"past it in one roll", `{"expr":"1001d6"}`, 0, "The expression rolls 1001 dice, more than 1000 (MaxRequestDice)."},
		{"past it by explosions", `{"expr":"100d2!","count":10,"seed":1}`, 0, "exploded or rerolled: more than 1000 (MaxRequestDice)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := rolls(t, base, tc.body)
			if tc.rolls == 0 {
				if a.status != http.StatusRequestEntityTooLarge || a.code() != fray.ETOOLARGE || !strings.Contains(string(a.body), tc.want) {
					t.Fatalf("got %v, want 413 too_large with %q", a, tc.want)
				}
				return
			}
			if a.status != http.StatusOK {
				t.Fatalf("got %v", a)
			}
			var many []dice.Result
			if tc.rolls == 1 {
				many = make([]dice.Result, 1)
				json.Unmarshal(a.body, &many[0])
			} else {
				json.Unmarshal(a.body, &many)
			}
			if len(many) != tc.rolls || many[0].Expr == "" {
				t.Fatalf("%d rolls answered, want %d", len(many), tc.rolls)
			}
		})
	}
}

// TestExprDice checks the count of dice a roll names, read from the
// expression's explanation: every pool's dice, before explosions.
func TestExprDice(t *testing.T) {
	for expr, want := range map[string]int{
		"d6": 1, "4d6kh3": 4, "3d6+2d8": 5, "(2d6+3)*2d%-dF": 5, "12d{0,1,0,1,0,2}": 12,
		"4d6r1dl1": 4, "10d10>=8f1": 10, "3d6!": 3, "2d6!!": 2, "5": 0, "2*(1d8!>=7-1)": 1,
		"10000d100000+10000d6": 20000, "2d{-1,0,1}min0": 2, "4d6r<=2kh3+1d20": 5,
	} {
		if got := exprDice(dice.MustParse(expr)); got != want {
			t.Errorf("%s: %d dice, want %d", expr, got, want)
		}
	}
}
