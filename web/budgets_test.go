package web_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"fray"
	"fray/inmem"
	"fray/web"
)

// clock is a Config.Now that moves only when a test moves it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// loopback is the proxy every test request comes through when a test
// trusts it.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// quiet is a logger for servers whose warnings a test provokes.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// doFrom sends a request as if through a proxy for the client xff (the
// X-Forwarded-For header; "" for none).
func (e *env) doFrom(t testing.TB, xff, method, path, token string, body []byte) reply {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{Status: res.StatusCode, Body: b, Header: res.Header}
}

// createFrom creates an encounter for the client xff.
func (e *env) createFrom(t testing.TB, xff string) created {
	t.Helper()
	r := e.doFrom(t, xff, "POST", "/api/encounters", "", []byte(`{"rules":"queue"}`))
	if r.Status != http.StatusCreated {
		t.Fatalf("create from %s: %d %s", xff, r.Status, r.Body)
	}
	var c created
	r.decode(t, &c)
	return c
}

// refused fails the test unless r is a refusal with the status and code
// whose message names the budget.
func refused(t testing.TB, what string, r reply, status int, code, budget string) {
	t.Helper()
	if r.Status != status || r.code() != code || !bytes.Contains(r.Body, []byte("("+budget+")")) {
		t.Fatalf("%s: got %d %s, want %d %s naming %s", what, r.Status, r.Body, status, code, budget)
	}
}

// TestBudgetClientAddr: whom a request counts against, with and without
// trusted proxies; what a client writes into X-Forwarded-For itself is
// never read.
func TestBudgetClientAddr(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:ffff::/48")}
	tests := []struct {
		name   string
		trust  []netip.Prefix
		remote string
		xff    []string
		want   string
	}{
		{"direct", nil, "198.51.100.7:5000", nil, "198.51.100.7"},
		{"direct ignores the header", nil, "198.51.100.7:5000", []string{"203.0.113.9"}, "198.51.100.7"},
		{"untrusted proxy", proxies, "198.51.100.7:5000", []string{"203.0.113.9"}, "198.51.100.7"},
		{"trusted proxy", proxies, "10.1.2.3:5000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"trusted proxy without header", proxies, "10.1.2.3:5000", nil, "10.1.2.3"},
		{"spoofed left entries", proxies, "10.1.2.3:5000", []string{"1.1.1.1, 2.2.2.2, 203.0.113.9"}, "203.0.113.9"},
		{"chain of proxies", proxies, "10.1.2.3:5000", []string{"203.0.113.9, 10.9.9.9"}, "203.0.113.9"},
		{"several headers", proxies, "10.1.2.3:5000", []string{"1.1.1.1", "203.0.113.9, 10.9.9.9"}, "203.0.113.9"},
		{"only proxies", proxies, "10.1.2.3:5000", []string{"10.7.7.7, 10.9.9.9"}, "10.7.7.7"},
		{"garbage behind proxies", proxies, "10.1.2.3:5000", []string{"nonsense, 10.9.9.9"}, "10.9.9.9"},
		{"entry with port", proxies, "10.1.2.3:5000", []string{"203.0.113.9:4711"}, "203.0.113.9"},
		{"IPv6 client as its /64", proxies, "10.1.2.3:5000", []string{"[2001:db8:1:2:3:4:5:6]:80"}, "2001:db8:1:2::/64"},
		{"IPv6 proxy", proxies, "[2001:db8:ffff::1]:443", []string{"2001:db8:1:2::9"}, "2001:db8:1:2::/64"},
		{"IPv4-mapped", nil, "[::ffff:198.51.100.7]:5000", nil, "198.51.100.7"},
		{"not an address", nil, "pipe", nil, "pipe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := web.New(web.Config{Store: inmem.New(), Systems: systems, TrustProxy: tt.trust, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest("GET", "/api/systems", nil)
			r.RemoteAddr = tt.remote
			for _, h := range tt.xff {
				r.Header.Add("X-Forwarded-For", h)
			}
			if got := web.ClientAddr(s, r); got != tt.want {
				t.Errorf("client of %s with X-Forwarded-For %q = %q, want %q", tt.remote, tt.xff, got, tt.want)
			}
		})
	}
}

// TestBudgetProxyBuckets: behind a trusted proxy two clients have a rate
// bucket each; past the burst one is refused and the other is not.
func TestBudgetProxyBuckets(t *testing.T) {
	clk := newClock()
	e := start(t, func(c *web.Config) {
		c.Now = clk.now
		c.TrustProxy = loopback
		c.Limits.Rate, c.Limits.Burst = 1, 2
	})
	// GET /api/encounters with no token costs the address, then says 401.
	for range 2 {
		if r := e.doFrom(t, "203.0.113.1", "GET", "/api/encounters", "", nil); r.Status != http.StatusUnauthorized {
			t.Fatalf("within the burst: %d %s", r.Status, r.Body)
		}
	}
	refused(t, "past the burst", e.doFrom(t, "203.0.113.1", "GET", "/api/encounters", "", nil), http.StatusTooManyRequests, web.ERATELIMITED, "Rate")
	if r := e.doFrom(t, "203.0.113.2", "GET", "/api/encounters", "", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("another client behind the proxy: %d %s", r.Status, r.Body)
	}
	clk.add(time.Second)
	if r := e.doFrom(t, "203.0.113.1", "GET", "/api/encounters", "", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("a second later: %d %s", r.Status, r.Body)
	}
}

// TestBudgetSpoofedForwardedFor: a client cannot escape its bucket by
// writing X-Forwarded-For, neither straight to an untrusting server nor
// through a trusted proxy (which appends the address it sees).
func TestBudgetSpoofedForwardedFor(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trust []netip.Prefix
		xff   func(i int) string
	}{
		{"no trusted proxy", nil, func(i int) string { return fmt.Sprintf("198.51.100.%d", i) }},
		{"through a trusted proxy", loopback, func(i int) string { return fmt.Sprintf("198.51.100.%d, 203.0.113.1", i) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t, func(c *web.Config) {
				c.Now = newClock().now
				c.TrustProxy = tc.trust
				c.Logger = quiet
				c.Limits.Rate, c.Limits.Burst = 1, 3
			})
			for i := range 3 {
				if r := e.doFrom(t, tc.xff(i), "GET", "/api/encounters", "", nil); r.Status != http.StatusUnauthorized {
					t.Fatalf("request %d: %d %s", i, r.Status, r.Body)
				}
			}
			refused(t, "a fourth address written in the header", e.doFrom(t, tc.xff(3), "GET", "/api/encounters", "", nil), http.StatusTooManyRequests, web.ERATELIMITED, "Rate")
		})
	}
}

// TestBudgetMintedTokens: player tokens minted from one address share
// its bucket; more tokens give no more requests.
func TestBudgetMintedTokens(t *testing.T) {
	e := start(t, func(c *web.Config) {
		c.Now = newClock().now
		c.Limits.Rate, c.Limits.Burst = 1, 12
	})
	enc := e.create(t, "queue", "")                                                                                                                 // 1
	e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc", "add Bo side=pc", "add Cy side=pc")                                                          // 4
	toks := []string{e.link(t, enc.ID, enc.Token, "Ann").Token, e.link(t, enc.ID, enc.Token, "Bo").Token, e.link(t, enc.ID, enc.Token, "Cy").Token} // 7
	for i := range 5 {                                                                                                                              // 12: the burst is spent, though each token has made at most two
		if r := e.do(t, "GET", "/api/encounters/"+enc.ID, toks[i%3], nil); r.Status != http.StatusOK {
			t.Fatalf("request %d: %d %s", i, r.Status, r.Body)
		}
	}
	refused(t, "a token with a full bucket of its own", e.do(t, "GET", "/api/encounters/"+enc.ID, toks[2], nil), http.StatusTooManyRequests, web.ERATELIMITED, "Rate")
}

// openFrom opens an event stream for the client xff and returns its
// status and, while it is open, the function that closes it.
func (e *env) openFrom(t testing.TB, xff, id, token string) (reply, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", e.url+"/api/encounters/"+id+"/events?token="+token, nil)
	if err != nil {
		t.Fatal(err)
	}
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	res, err := e.client.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		defer cancel()
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return reply{Status: res.StatusCode, Body: b, Header: res.Header}, nil
	}
	closed := false
	done := func() {
		if !closed {
			closed = true
			cancel()
			res.Body.Close()
		}
	}
	t.Cleanup(done)
	return reply{Status: res.StatusCode, Header: res.Header}, done
}

// mustOpen opens a stream and fails unless it is served.
func (e *env) mustOpen(t testing.TB, xff, id, token string) func() {
	t.Helper()
	r, done := e.openFrom(t, xff, id, token)
	if r.Status != http.StatusOK {
		t.Fatalf("stream for %s: %d %s", xff, r.Status, r.Body)
	}
	return done
}

// eventually opens a stream until it is served, for a slot a closed
// stream frees once the server has seen it close; it fails after a
// minute.
func (e *env) eventually(t testing.TB, xff, id, token string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		r, done := e.openFrom(t, xff, id, token)
		if r.Status == http.StatusOK {
			done()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream is still refused after a minute: %d %s", r.Status, r.Body)
		}
		time.Sleep(5 * time.Millisecond) // poll: the server notices a closed stream on its own time
	}
}

// TestBudgetClientStreams: a client that mints player tokens and fills
// its stream budget is refused past it, naming MaxClientStreams; another
// encounter's GM, from another address, still opens a stream; a stream
// closed frees its slot.
func TestBudgetClientStreams(t *testing.T) {
	e := start(t, func(c *web.Config) {
		c.TrustProxy = loopback
		c.Limits.MaxClientStreams, c.Limits.MaxEncounterStreams, c.Limits.MaxSubscribers = 3, 10, 10
	})
	const greedy, gm = "198.51.100.66", "203.0.113.5"
	enc := e.createFrom(t, greedy)
	e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc", "add Bo side=pc", "add Cy side=pc")
	toks := []string{enc.Token, e.link(t, enc.ID, enc.Token, "Ann").Token, e.link(t, enc.ID, enc.Token, "Bo").Token, e.link(t, enc.ID, enc.Token, "Cy").Token}
	var first func()
	for i, tok := range toks[:3] {
		if done := e.mustOpen(t, greedy, enc.ID, tok); i == 0 {
			first = done
		}
	}
	r, _ := e.openFrom(t, greedy, enc.ID, toks[3])
	refused(t, "a fourth stream from one client", r, http.StatusTooManyRequests, web.ERATELIMITED, "MaxClientStreams")
	if r.Header.Get("Retry-After") == "" {
		t.Errorf("the refusal has no Retry-After")
	}

	other := e.createFrom(t, gm)
	e.mustOpen(t, gm, other.ID, other.Token)

	first()
	e.eventually(t, greedy, enc.ID, toks[3])
}

// TestBudgetEncounterStreams: one encounter's streams are capped, from
// any number of clients, and another encounter is not.
func TestBudgetEncounterStreams(t *testing.T) {
	e := start(t, func(c *web.Config) {
		c.TrustProxy = loopback
		c.Limits.MaxClientStreams, c.Limits.MaxEncounterStreams, c.Limits.MaxSubscribers = 10, 2, 10
	})
	enc := e.create(t, "queue", "")
	e.mustOpen(t, "198.51.100.1", enc.ID, enc.Token)
	e.mustOpen(t, "198.51.100.2", enc.ID, enc.Token)
	r, _ := e.openFrom(t, "198.51.100.3", enc.ID, enc.Token)
	refused(t, "a third stream on the encounter", r, http.StatusTooManyRequests, web.ERATELIMITED, "MaxEncounterStreams")
	other := e.create(t, "queue", "")
	e.mustOpen(t, "198.51.100.3", other.ID, other.Token)
}

// TestBudgetSubscribers: past the server's streams the answer is 503
// EBUSY naming MaxSubscribers, with Retry-After.
func TestBudgetSubscribers(t *testing.T) {
	e := start(t, func(c *web.Config) {
		c.TrustProxy = loopback
		c.Limits.MaxClientStreams, c.Limits.MaxEncounterStreams, c.Limits.MaxSubscribers = 10, 10, 2
	})
	a, b := e.create(t, "queue", ""), e.create(t, "queue", "")
	e.mustOpen(t, "198.51.100.1", a.ID, a.Token)
	e.mustOpen(t, "198.51.100.2", b.ID, b.Token)
	r, _ := e.openFrom(t, "198.51.100.3", a.ID, a.Token)
	refused(t, "a stream past the server's", r, http.StatusServiceUnavailable, web.EBUSY, "MaxSubscribers")
	if r.Header.Get("Retry-After") == "" {
		t.Errorf("the refusal has no Retry-After")
	}
}

// smallLog returns an exported log of an encounter with n events.
func smallLog(t testing.TB, e *env, n int) []byte {
	t.Helper()
	enc := e.create(t, "queue", "")
	e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc wits=2")
	for rev := 1; rev < n; rev++ {
		e.play(t, enc.ID, enc.Token, rev, fmt.Sprintf("note Ann n%d", rev))
	}
	log := e.log(t, enc.ID, enc.Token)
	if got := checkLog(t, log); got != n {
		t.Fatalf("the log holds %d events, want %d", got, n)
	}
	return []byte(log)
}

// count returns the encounters the server's store holds.
func (e *env) count(t testing.TB) int {
	t.Helper()
	n, _, err := e.store.Usage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBudgetCreateRate: one client creates or imports at most CreateRate
// encounters an hour, an hour's worth at once; a refusal names the
// budget and creates nothing; a request refused for another reason
// costs nothing; another client has its own bucket.
func TestBudgetCreateRate(t *testing.T) {
	clk := newClock()
	e := start(t, func(c *web.Config) {
		c.Now = clk.now
		c.TrustProxy = loopback
		c.Limits.CreateRate = 3
	})
	const a, b = "198.51.100.1", "198.51.100.2"
	log := smallLog(t, e, 2) // from 127.0.0.1: its own bucket
	if r := e.doFrom(t, a, "POST", "/api/encounters", "", []byte(`{"rules":"nope"}`)); r.Status != http.StatusBadRequest {
		t.Fatalf("unknown rules: %d %s", r.Status, r.Body)
	}
	e.createFrom(t, a)
	e.createFrom(t, a)
	if r := e.doFrom(t, a, "POST", "/api/encounters/import", "", log); r.Status != http.StatusCreated {
		t.Fatalf("import within the budget: %d %s", r.Status, r.Body)
	}
	n := e.count(t)
	refused(t, "a fourth create", e.doFrom(t, a, "POST", "/api/encounters", "", []byte(`{"rules":"queue"}`)), http.StatusTooManyRequests, web.ERATELIMITED, "CreateRate")
	r := e.doFrom(t, a, "POST", "/api/encounters/import", "", log)
	refused(t, "a fourth import", r, http.StatusTooManyRequests, web.ERATELIMITED, "CreateRate")
	if r.Header.Get("Retry-After") == "" {
		t.Errorf("the refusal has no Retry-After")
	}
	if got := e.count(t); got != n {
		t.Errorf("refusals left %d encounters, want %d", got, n)
	}
	e.createFrom(t, b)
	clk.add(21 * time.Minute) // a third of an hour and more: one encounter
	e.createFrom(t, a)
	refused(t, "a second one after 21 minutes", e.doFrom(t, a, "POST", "/api/encounters", "", []byte(`{"rules":"queue"}`)), http.StatusTooManyRequests, web.ERATELIMITED, "CreateRate")
}

// TestBudgetMaxEncounters: past MaxEncounters a create and an import are
// answered 507 ESTORAGEFULL naming it, and nothing is written.
func TestBudgetMaxEncounters(t *testing.T) {
	e := start(t, func(c *web.Config) { c.Logger = quiet; c.Limits.MaxEncounters = 2 })
	e.create(t, "queue", "")
	log := smallLog(t, e, 3) // the second
	refused(t, "a third create", e.send(t, "POST", "/api/encounters", "", map[string]string{"rules": "queue"}), http.StatusInsufficientStorage, web.ESTORAGEFULL, "MaxEncounters")
	refused(t, "an import", e.do(t, "POST", "/api/encounters/import", "", log), http.StatusInsufficientStorage, web.ESTORAGEFULL, "MaxEncounters")
	if n := e.count(t); n != 2 {
		t.Errorf("the store holds %d encounters, want 2", n)
	}
}

// TestBudgetMaxStoredBytes: over a real SQLite file, once the store
// holds MaxStoredBytes a command, a create and an import are answered
// 507 ESTORAGEFULL naming it, and the log is as it was.
func TestBudgetMaxStoredBytes(t *testing.T) {
	e := start(t, func(c *web.Config) {
		_, used, err := c.Store.Usage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		c.Now = newClock().now // the figure is never read again: the server counts
		c.Logger = quiet
		c.Limits.MaxStoredBytes = used + 32<<10
	})
	log := smallLog(t, e, 3)
	enc := e.create(t, "queue", "")
	d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc")
	// Fill the store with ever smaller notes, until even the smallest
	// is refused.
	for _, size := range []int{900, 90, 9, 1} {
		note := `note Ann "` + strings.Repeat("n", size) + `"`
		var r reply
		for range 100 {
			if r = e.command(t, enc.ID, enc.Token, note, d.Revision); r.Status != http.StatusOK {
				break
			}
			d = done{}
			r.decode(t, &d)
		}
		refused(t, fmt.Sprintf("a note of %d bytes past the budget", size), r, http.StatusInsufficientStorage, web.ESTORAGEFULL, "MaxStoredBytes")
	}
	got := e.do(t, "GET", "/api/encounters/"+enc.ID, enc.Token, nil)
	var after struct{ Revision int }
	got.decode(t, &after)
	if after.Revision != d.Revision || checkLog(t, e.log(t, enc.ID, enc.Token)) != d.Revision {
		t.Errorf("after the refusal the encounter is at %d, want %d", after.Revision, d.Revision)
	}
	n := e.count(t)
	refused(t, "a create", e.send(t, "POST", "/api/encounters", "", map[string]string{"rules": "queue"}), http.StatusInsufficientStorage, web.ESTORAGEFULL, "MaxStoredBytes")
	refused(t, "an import", e.do(t, "POST", "/api/encounters/import", "", log), http.StatusInsufficientStorage, web.ESTORAGEFULL, "MaxStoredBytes")
	if got := e.count(t); got != n {
		t.Errorf("refusals left %d encounters, want %d", got, n)
	}
	// Commands that write nothing still work.
	if r := e.command(t, enc.ID, enc.Token, "show", d.Revision); r.Status != http.StatusOK {
		t.Errorf("show on a full store: %d %s", r.Status, r.Body)
	}
}

// TestBudgetImportEvents: a log of more than MaxImportEvents events is
// refused with ETOOLARGE naming it, and creates nothing; one of exactly
// that many is imported.
func TestBudgetImportEvents(t *testing.T) {
	e := start(t, func(c *web.Config) { c.Limits.MaxImportEvents = 5 })
	six, five := smallLog(t, e, 6), smallLog(t, e, 5)
	n := e.count(t)
	refused(t, "six events", e.do(t, "POST", "/api/encounters/import", "", six), http.StatusRequestEntityTooLarge, fray.ETOOLARGE, "MaxImportEvents")
	if got := e.count(t); got != n {
		t.Errorf("the refusal left %d encounters, want %d", got, n)
	}
	// Blank lines are not events, as Import reads them.
	five = bytes.ReplaceAll(five, []byte("\n"), []byte("\n\n"))
	if r := e.do(t, "POST", "/api/encounters/import", "", five); r.Status != http.StatusCreated {
		t.Fatalf("five events: %d %s", r.Status, r.Body)
	}
}

// TestBudgetCachedEvents: the cache holds at most MaxCachedEvents events
// between its encounters, forgetting the least recently used first, and
// at most MaxCached encounters; an encounter larger than the budget is
// still served.
func TestBudgetCachedEvents(t *testing.T) {
	e := start(t, func(c *web.Config) { c.Limits.MaxCachedEvents, c.Limits.MaxCached = 10, 3 })
	open := func(enc created) {
		t.Helper()
		if r := e.do(t, "GET", "/api/encounters/"+enc.ID, enc.Token, nil); r.Status != http.StatusOK {
			t.Fatalf("get: %d %s", r.Status, r.Body)
		}
	}
	grow := func(n int) created {
		t.Helper()
		enc := e.create(t, "queue", "")
		d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc")
		for d.Revision < n {
			d = e.play(t, enc.ID, enc.Token, d.Revision, "note Ann x")
		}
		return enc
	}
	check := func(what string, want []string, events int) {
		t.Helper()
		ids, n := web.Cached(e.srv)
		if strings.Join(ids, ",") != strings.Join(want, ",") || n != events {
			t.Fatalf("%s: the cache holds %v with %d events, want %v with %d", what, ids, n, want, events)
		}
	}
	a, b := grow(4), grow(4)
	check("after two encounters of 4", []string{b.ID, a.ID}, 8)
	open(a)
	check("after a is used", []string{a.ID, b.ID}, 8)
	c := grow(4)
	check("after a third of 4", []string{c.ID, a.ID}, 8)
	big := grow(12)
	check("after one of 12", []string{big.ID}, 12)
	open(a)
	check("after a again", []string{a.ID}, 4)
	s1, s2, s3 := grow(1), grow(1), grow(1)
	check("after three of 1", []string{s3.ID, s2.ID, s1.ID}, 3)
	open(big) // the count cap (MaxCached) and the events cap both act
	check("after the big one again", []string{big.ID}, 12)
}

// TestBudgetUsageRefresh: the storage budgets count what this server
// writes at once, and what another process writes to the same store
// once the figure is read again, a minute later.
func TestBudgetUsageRefresh(t *testing.T) {
	clk := newClock()
	e := start(t, func(c *web.Config) { c.Now = clk.now; c.Logger = quiet; c.Limits.MaxEncounters = 3 })
	e.create(t, "queue", "")
	for _, id := range []string{"other-1", "other-2"} { // another process
		if err := e.store.CreateEncounter(context.Background(), fray.EncounterRecord{ID: id, Rules: "queue", Created: clk.now()}); err != nil {
			t.Fatal(err)
		}
	}
	e.create(t, "queue", "") // the server has counted two of its own
	clk.add(time.Minute)
	refused(t, "a create after the figure is read again", e.send(t, "POST", "/api/encounters", "", map[string]string{"rules": "queue"}), http.StatusInsufficientStorage, web.ESTORAGEFULL, "MaxEncounters")
}
