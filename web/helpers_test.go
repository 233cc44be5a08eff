package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fray"
	"fray/rules/bpb"
	"fray/rules/cinematic"
	"fray/rules/pp"
	"fray/rules/queue"
	"fray/rules/vv"
	"fray/sqlite"
	"fray/web"
)

// systems is the list cmd/fray serves, wired here as cmd/fray wires it.
var systems = map[string]func() fray.System{
	bpb.ID:       func() fray.System { return bpb.New() },
	queue.ID:     func() fray.System { return queue.New() },
	vv.ID:        func() fray.System { return vv.New() },
	cinematic.ID: func() fray.System { return cinematic.New() },
	pp.ID:        func() fray.System { return pp.New() },
}

// env is a real server on 127.0.0.1:0 over a SQLite file in t.TempDir().
type env struct {
	url    string
	srv    *web.Server
	store  *sqlite.Store
	client *http.Client
}

// start starts a server; change edits its config first.
func start(t testing.TB, change func(*web.Config)) *env {
	t.Helper()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "fray.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := web.Config{Store: store, Systems: systems, Limits: web.DefaultLimits()}
	cfg.Limits.Rate = 0 // no rate limit unless a test sets one
	if change != nil {
		change(&cfg)
	}
	srv, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	hs.RegisterOnShutdown(srv.Close)
	go hs.Serve(ln)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		store.Close()
	})
	tr := &http.Transport{MaxIdleConnsPerHost: 256}
	t.Cleanup(tr.CloseIdleConnections)
	return &env{url: "http://" + ln.Addr().String(), srv: srv, store: store, client: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// reply is one answer: its status and body.
type reply struct {
	Status int
	Body   []byte
	Header http.Header
}

// json decodes the body into v.
func (r reply) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// code returns the error code of a refusal.
func (r reply) code() string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	json.Unmarshal(r.Body, &e)
	return e.Error.Code
}

// do sends a request with a raw body (nil for none) and a token ("" for none).
func (e *env) do(t testing.TB, method, path, token string, body []byte) reply {
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
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
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

// send sends v as JSON.
func (e *env) send(t testing.TB, method, path, token string, v any) reply {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return e.do(t, method, path, token, b)
}

// created is the answer to a create.
type created struct {
	ID       string `json:"id"`
	Rules    string `json:"rules"`
	Name     string `json:"name"`
	Revision int    `json:"revision"`
	Token    string `json:"token"`
}

// create makes an encounter and returns it.
func (e *env) create(t testing.TB, rules, name string) created {
	t.Helper()
	r := e.send(t, "POST", "/api/encounters", "", map[string]string{"rules": rules, "name": name})
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var c created
	r.decode(t, &c)
	return c
}

// done is the answer to a command.
type done struct {
	Revision int          `json:"revision"`
	Events   []fray.Event `json:"events"`
	View     fray.View    `json:"view"`
}

// command sends one command line at revision rev.
func (e *env) command(t testing.TB, id, token, line string, rev int) reply {
	t.Helper()
	return e.send(t, "POST", "/api/encounters/"+id+"/commands", token, map[string]any{"command": line, "revision": rev})
}

// play sends each line at the current revision and fails on a refusal;
// it returns the last answer.
func (e *env) play(t testing.TB, id, token string, rev int, lines ...string) done {
	t.Helper()
	var d done
	d.Revision = rev
	for _, l := range lines {
		r := e.command(t, id, token, l, d.Revision)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", l, r.Status, r.Body)
		}
		d = done{} // decoding into old slices would keep stale fields
		r.decode(t, &d)
	}
	return d
}

// log returns the encounter's exported log.
func (e *env) log(t testing.TB, id, token string) string {
	t.Helper()
	r := e.do(t, "GET", "/api/encounters/"+id+"/log", token, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("log: %d %s", r.Status, r.Body)
	}
	return string(r.Body)
}

// checkLog checks that a log's events are numbered 1, 2, … with no gap
// and no duplicate, and returns how many there are.
func checkLog(t testing.TB, log string) int {
	t.Helper()
	return len(logEvents(t, log))
}

// logEvents decodes a log's events (the lines after its header) and
// checks that they are numbered 1, 2, … with no gap and no duplicate.
func logEvents(t testing.TB, log string) []fray.Event {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(log), "\n")
	evs := make([]fray.Event, 0, len(lines)-1)
	for i, l := range lines[1:] {
		var ev fray.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("log line %d: %v", i+2, err)
		}
		if ev.Seq != i+1 {
			t.Fatalf("log line %d is event %d, want %d", i+2, ev.Seq, i+1)
		}
		evs = append(evs, ev)
	}
	return evs
}

func itoa(n int) string { return strconv.Itoa(n) }

// decodeJSON decodes a response body into v.
func decodeJSON(res *http.Response, v any) error { return json.NewDecoder(res.Body).Decode(v) }
