package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"fray"
	"fray/sqlite"
	"fray/web"
)

// envelope is the JSON of a refusal.
type envelope struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestHeaders: every answer, page or not, refuses to be framed and sends
// no Referer on; the pages keep their own policy for what they load.
func TestHeaders(t *testing.T) {
	e := start(t, nil)
	for _, tc := range []struct {
		path string
		page bool
	}{
		{"/", true},
		{"/play/abc", true},
		{"/static/player.js", false},
		{"/static/style.css", false},
		{"/api/systems", false},
		{"/api/openapi.json", false},
		{"/api/nope", false},
		{"/nope", false},
	} {
		r := e.do(t, "GET", tc.path, "", nil)
		h := r.Header
		if got := h.Get("X-Frame-Options"); got != "DENY" {
			t.Errorf("GET %s: X-Frame-Options %q, want DENY", tc.path, got)
		}
		if got := h.Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("GET %s: Referrer-Policy %q, want no-referrer", tc.path, got)
		}
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("GET %s: Content-Security-Policy %q lacks frame-ancestors 'none'", tc.path, csp)
		}
		if !tc.page {
			continue
		}
		if ct := h.Get("Content-Type"); r.Status != http.StatusOK || !strings.HasPrefix(ct, "text/html") {
			t.Errorf("GET %s: %d %s, want the page", tc.path, r.Status, ct)
		}
		for _, want := range []string{"default-src 'self'", "img-src 'self' data:", "style-src 'self' 'unsafe-inline'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: Content-Security-Policy %q lost %q", tc.path, csp, want)
			}
		}
	}
}

// TestFailRouter: what no route serves (an unknown path, under /api/ or
// not, a missing static file, a known path with the wrong method) is
// refused in the JSON envelope, 405 with its Allow header.
func TestFailRouter(t *testing.T) {
	e := start(t, nil)
	c := e.create(t, "bpb", "Router")
	for _, tc := range []struct {
		method, path string
		status       int
		code         string
		allow        []string // methods the Allow header must list
	}{
		{"GET", "/api/nope", http.StatusNotFound, fray.ENOTFOUND, nil},
		{"POST", "/api/encounters/" + c.ID + "/nope", http.StatusNotFound, fray.ENOTFOUND, nil},
		{"GET", "/nope", http.StatusNotFound, fray.ENOTFOUND, nil},
		{"GET", "/play/", http.StatusNotFound, fray.ENOTFOUND, nil},
		{"GET", "/static/nope.js", http.StatusNotFound, fray.ENOTFOUND, nil},
		{"DELETE", "/api/encounters", http.StatusMethodNotAllowed, web.EMETHOD, []string{"GET", "POST"}},
		{"GET", "/api/encounters/" + c.ID + "/commands", http.StatusMethodNotAllowed, web.EMETHOD, []string{"POST"}},
		{"PUT", "/api/roll", http.StatusMethodNotAllowed, web.EMETHOD, []string{"POST"}},
		{"POST", "/", http.StatusMethodNotAllowed, web.EMETHOD, []string{"GET"}},
	} {
		r := e.do(t, tc.method, tc.path, c.Token, nil)
		var env envelope
		err := json.Unmarshal(r.Body, &env)
		if r.Status != tc.status || err != nil || env.Error.Code != tc.code || env.Error.Message == "" {
			t.Errorf("%s %s: %d %q %s, want %d with the envelope and code %q", tc.method, tc.path, r.Status, r.Header.Get("Content-Type"), r.Body, tc.status, tc.code)
			continue
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q, want application/json", tc.method, tc.path, ct)
		}
		allow := r.Header.Get("Allow")
		for _, m := range tc.allow {
			if !strings.Contains(allow, m) || !strings.Contains(env.Error.Message, m) {
				t.Errorf("%s %s: Allow %q and message %q, want both to name %s", tc.method, tc.path, allow, env.Error.Message, m)
			}
		}
	}
	// The pages stay pages.
	for _, path := range []string{"/", "/play/" + c.ID} {
		if r := e.do(t, "GET", path, "", nil); r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %q, want the HTML page", path, r.Status, r.Header.Get("Content-Type"))
		}
	}
}

// failingStore is a real SQLite store whose event reads, once armed, fail
// part-way: they give keep events in all (the first read gives at most
// that many), then fail, as a disk going bad under a read would.
type failingStore struct {
	*sqlite.Store
	mu    sync.Mutex
	armed bool
	keep  int
}

var errReadFailed = errors.New("test: the disk failed under the read")

func (f *failingStore) arm(keep int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.armed, f.keep = true, keep
}

func (f *failingStore) Events(ctx context.Context, id string, from, limit int) ([]fray.EventRecord, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.armed {
		return f.Store.Events(ctx, id, from, limit)
	}
	if f.keep == 0 {
		return nil, errReadFailed
	}
	if limit == 0 || limit > f.keep {
		limit = f.keep
	}
	recs, err := f.Store.Events(ctx, id, from, limit)
	f.keep -= len(recs)
	return recs, err
}

// startFailing starts a server on a failingStore; change edits its
// config first.
func startFailing(t *testing.T, change func(*web.Config)) (*env, *failingStore) {
	var fs *failingStore
	e := start(t, func(cfg *web.Config) {
		fs = &failingStore{Store: cfg.Store.(*sqlite.Store)}
		cfg.Store = fs
		cfg.Logger = slog.New(slog.DiscardHandler)
		if change != nil {
			change(cfg)
		}
	})
	return e, fs
}

// playSome makes an encounter with a few events and returns it with its
// revision.
func playSome(t *testing.T, e *env) (created, int) {
	c := e.create(t, "bpb", "Export")
	d := e.play(t, c.ID, c.Token, 0, "add Ann side=pc", "add Bob side=npc", "add Cid side=npc", "add Dee side=pc")
	if d.Revision < 4 {
		t.Fatalf("revision %d after four adds", d.Revision)
	}
	return c, d.Revision
}

// TestFailExportBuffered: a log within the import budget is read whole
// before the answer begins, so a store failing part-way is a 500 in the
// envelope, not a 200 with a short log; a log read whole is sent with its
// length.
func TestFailExportBuffered(t *testing.T) {
	e, fs := startFailing(t, nil)
	c, rev := playSome(t, e)

	r := e.do(t, "GET", "/api/encounters/"+c.ID+"/log", c.Token, nil)
	if r.Status != http.StatusOK || checkLog(t, string(r.Body)) != rev {
		t.Fatalf("the whole log: %d, %d events, want 200 and %d:\n%s", r.Status, checkLog(t, string(r.Body)), rev, r.Body)
	}
	if got := r.Header.Get("Content-Length"); got != strconv.Itoa(len(r.Body)) {
		t.Errorf("Content-Length %q for %d bytes", got, len(r.Body))
	}

	fs.arm(2)
	r = e.do(t, "GET", "/api/encounters/"+c.ID+"/log", c.Token, nil)
	var env envelope
	if err := json.Unmarshal(r.Body, &env); r.Status != http.StatusInternalServerError || err != nil || env.Error.Code != fray.EINTERNAL {
		t.Fatalf("a read failing after 2 of %d events: %d %s, want 500 in the envelope", rev, r.Status, r.Body)
	}
	if !strings.Contains(env.Error.Message, "log") || strings.Contains(string(r.Body), errReadFailed.Error()) {
		t.Errorf("message %q: want one about the log, without the cause", env.Error.Message)
	}
}

// TestFailExportStreamed: a log longer than the import budget is streamed;
// a store failing part-way ends it with the envelope as its last line and
// a broken body, which the client sees as a failed transfer.
func TestFailExportStreamed(t *testing.T) {
	e, fs := startFailing(t, func(cfg *web.Config) { cfg.Limits.MaxImport = 64 })
	c, rev := playSome(t, e)

	whole := e.log(t, c.ID, c.Token) // streamed, and whole
	if n := checkLog(t, whole); n != rev {
		t.Fatalf("the whole log has %d events, want %d", n, rev)
	}

	fs.arm(2)
	req, err := http.NewRequest("GET", e.url+"/api/encounters/"+c.ID+"/log", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || err == nil {
		t.Fatalf("a streamed log failing after 2 of %d events: %d, read error %v, want 200 and a broken body:\n%s", rev, res.StatusCode, err, body)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("read error %v, want %v", err, io.ErrUnexpectedEOF)
	}
	var lines []string
	for sc := bufio.NewScanner(bytes.NewReader(body)); sc.Scan(); {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 1+2+1 {
		t.Fatalf("%d lines, want the header, 2 events and the error:\n%s", len(lines), body)
	}
	if checkLog(t, strings.Join(lines[:3], "\n")) != 2 {
		t.Errorf("the lines before the error are not events 1 and 2:\n%s", body)
	}
	var env envelope
	if err := json.Unmarshal([]byte(lines[3]), &env); err != nil || env.Error.Code != fray.EINTERNAL || env.Error.Message == "" {
		t.Errorf("last line %q, want the error envelope", lines[3])
	}
}

// TestFailStorageFull: a database that has no room left (SQLite's
// max_page_count, which fails a write with SQLITE_FULL as a full disk
// does) answers 507 storage_full with a message, writes nothing, and the
// server goes on once there is room again.
func TestFailStorageFull(t *testing.T) {
	e := start(t, func(cfg *web.Config) {
		cfg.Limits.MaxCombatants = 10_000
		cfg.Limits.CreateRate = 0
		cfg.Logger = slog.New(slog.DiscardHandler)
	})
	c := e.create(t, "bpb", "Full")
	if _, err := e.store.LimitFileSize(0); err != nil {
		t.Fatal(err)
	}
	rev := 0
	var r reply
	for i := 0; ; i++ {
		if i == 2000 {
			t.Fatalf("%d commands fitted in a database capped at its size", i)
		}
		name := fmt.Sprintf("c%04d %s", i, strings.Repeat("x", 50))
		if r = e.command(t, c.ID, c.Token, "add "+strconv.Quote(name)+" side=npc", rev); r.Status != http.StatusOK {
			break
		}
		var d done
		r.decode(t, &d)
		rev = d.Revision
	}
	var env envelope
	if err := json.Unmarshal(r.Body, &env); r.Status != http.StatusInsufficientStorage || err != nil || env.Error.Code != web.ESTORAGEFULL || !strings.Contains(env.Error.Message, "full") {
		t.Fatalf("a full database: %d %s, want 507 %s with a message", r.Status, r.Body, web.ESTORAGEFULL)
	}
	var enc struct{ Revision int }
	if g := e.do(t, "GET", "/api/encounters/"+c.ID, c.Token, nil); g.Status != http.StatusOK {
		t.Fatalf("reading the encounter after a full database: %d %s", g.Status, g.Body)
	} else if g.decode(t, &enc); enc.Revision != rev {
		t.Fatalf("revision %d after the refused command, want %d: it was written in part", enc.Revision, rev)
	}
	// New encounters and tokens go to tables of their own, which may have
	// room left in their pages for a few more rows.
	for i := 0; ; i++ {
		r := e.send(t, "POST", "/api/encounters", "", map[string]string{"rules": "bpb", "name": strings.Repeat("y", 150)})
		if r.Status == http.StatusCreated && i < 1000 {
			continue
		}
		if r.Status != http.StatusInsufficientStorage || r.code() != web.ESTORAGEFULL {
			t.Errorf("creating encounter %d in a full database: %d %s, want 507", i, r.Status, r.Body)
		}
		break
	}
	if _, err := e.store.LimitFileSize(1 << 40); err != nil {
		t.Fatal(err)
	}
	e.play(t, c.ID, c.Token, rev, "add Zed side=pc")
	if n := checkLog(t, e.log(t, c.ID, c.Token)); n != rev+1 {
		t.Errorf("the log has %d events, want %d", n, rev+1)
	}
}

// TestFailUTF8: a JSON body with bytes that are not UTF-8 is refused with
// 400, naming the field that holds them and where, rather than read with
// U+FFFD in their place; nothing is done.
func TestFailUTF8(t *testing.T) {
	e := start(t, nil)
	c := e.create(t, "bpb", "Bytes")
	cmds := "/api/encounters/" + c.ID + "/commands"
	for _, tc := range []struct {
		path, body string
		want       string // the message, %d for the byte
	}{
		{cmds, `{"command":"add Ann` + "\xff" + ` side=pc","revision":0}`, `The field "command" is not valid UTF-8 (at byte %d).`},
		{cmds, `{"name":"add","args":["Ann", "B` + "\xfe" + `"],"revision":0}`, `The field "args[1]" is not valid UTF-8 (at byte %d).`},
		{cmds, `{"name":"add","args":["Ann"],"options":{"side":"p` + "\xc3" + `"},"revision":0}`, `The field "options.side" is not valid UTF-8 (at byte %d).`},
		{cmds, `{"comm` + "\xff" + `and":"next","revision":0}`, `A field name in the request body is not valid UTF-8 (at byte %d).`},
		{"/api/encounters", `{"rules":"bpb","name":"Caf` + "\xe9" + `"}`, `The field "name" is not valid UTF-8 (at byte %d).`},
	} {
		// The first byte that is not UTF-8, which ranging decodes as U+FFFD.
		bad := strings.IndexFunc(tc.body, func(r rune) bool { return r == '\uFFFD' })
		r := e.do(t, "POST", tc.path, c.Token, []byte(tc.body))
		var env envelope
		json.Unmarshal(r.Body, &env)
		if want := fmt.Sprintf(tc.want, bad+1); r.Status != http.StatusBadRequest || env.Error.Code != fray.EINVALID || env.Error.Message != want {
			t.Errorf("POST %s %q: %d %s, want 400 %q", tc.path, tc.body, r.Status, r.Body, want)
		}
	}
	// Valid UTF-8, U+FFFD itself included, is read as before.
	e.play(t, c.ID, c.Token, 0, "add Ann\uFFFD side=pc")
	if n := checkLog(t, e.log(t, c.ID, c.Token)); n != 1 {
		t.Errorf("the log has %d events, want only the valid command's", n)
	}
}

// TestBrowserTokenLeavesAddress: the player page takes its token out of
// the address bar (and so the history) once it has read it, and a refresh
// still opens the encounter.
func TestBrowserTokenLeavesAddress(t *testing.T) {
	s := newRealServer(t)
	var c created
	s.api("POST", "/api/encounters", "", map[string]string{"rules": "bpb", "name": "Address"}, &c)
	var d done
	s.api("POST", "/api/encounters/"+c.ID+"/commands", c.Token, map[string]any{"command": "add Ann side=pc", "revision": 0}, &d)
	var p struct {
		Token string `json:"token"`
		Link  string `json:"link"`
	}
	s.api("POST", "/api/encounters/"+c.ID+"/players", c.Token, map[string]string{"combatant": "Ann"}, &p)

	b := newChrome(t)
	player := b.tab(t, "player", true)
	player.do(chromedp.Navigate(s.url + p.Link))
	loaded := `document.getElementById("whose").textContent.includes("Waiting for the GM")`
	player.waitFor("the player page", loaded)
	if href := player.eval(`location.href`); strings.Contains(href, p.Token) || href != s.url+"/play/"+c.ID {
		t.Errorf("the address bar holds %q, want %s/play/%s without the token", href, s.url, c.ID)
	}
	player.do(chromedp.Reload())
	player.waitFor("the player page after a refresh", loaded)
	player.checkConsole()
}
