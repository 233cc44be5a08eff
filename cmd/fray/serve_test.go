package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"fray/inmem"
	"fray/web"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveAddr finds the address fray serve prints.
var serveAddr = regexp.MustCompile(`open (http://127\.0\.0\.1:\d+/)`)

// serveOutput is fray serve's standard output: it keeps what is written
// and hands over the address the server prints, the first time it shows.
type serveOutput struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	url  chan string
	sent bool
}

// Write keeps p and, the first time the address shows, hands it over.
func (w *serveOutput) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := serveAddr.FindStringSubmatch(w.buf.String()); m != nil && !w.sent {
		w.sent = true
		w.url <- m[1]
	}
	return len(p), nil
}

// String returns everything written.
func (w *serveOutput) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// startServe runs fray serve on 127.0.0.1 with args until the test ends,
// when it checks that the server stopped with exit 0 (as on SIGINT), and
// returns the URL it prints and its output.
func startServe(t *testing.T, args ...string) (base string, out *serveOutput) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out = &serveOutput{url: make(chan string, 1)}
	var errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- MainContext(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), out, &errOut)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("fray serve: exit %d:\n%s", code, errOut.String())
			}
		case <-time.After(time.Minute):
			t.Error("fray serve did not stop within a minute")
		}
	})
	select {
	case base := <-out.url:
		return base, out
	case code := <-done:
		done <- code
		t.Fatalf("fray serve: exit %d before serving:\n%s%s", code, out.String(), errOut.String())
	case <-time.After(time.Minute):
		t.Fatalf("fray serve printed no address in a minute:\n%s%s", out.String(), errOut.String())
	}
	return "", out
}

// httpCall sends a request with body encoded as JSON (none when nil; a
// json.RawMessage goes as it is) and the token, and returns the status
// and the body.
func httpCall(t *testing.T, method, addr, token string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, addr, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, b
}

func TestServeUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve", "--help"}, 0, "fray serve [--addr :8080] [--db fray.db]"},
		{[]string{"help", "serve"}, 0, "Examples:"},
		{[]string{"serve", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"serve", "--port", "1"}, 2, "flag provided but not defined"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(tc.args, strings.NewReader(""), &stdout, &stderr); code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
			t.Errorf("fray %s: exit %d, want %d; output lacks %q:\n%s%s", strings.Join(tc.args, " "), code, tc.code, tc.want, stdout.String(), stderr.String())
		}
	}
}

// TestServe runs fray serve until its context is cancelled, as SIGINT
// does: it creates the database, prints the URL, answers, and exits 0
// (startServe checks the exit).
func TestServe(t *testing.T) {
	base, _ := startServe(t, "--db", filepath.Join(t.TempDir(), "fray.db"))
	if status, body := httpCall(t, "POST", base+"api/encounters", "", map[string]string{"rules": "bpb"}); status != http.StatusCreated {
		t.Errorf("create: %d %s", status, body)
	}
}

// TestRollJSONMatchesAPI: POST /api/roll and GET /api/prob answer with
// what "fray roll --json" and "fray prob --json" print.
func TestRollJSONMatchesAPI(t *testing.T) {
	srv, err := web.New(web.Config{Store: inmem.New(), Systems: systems})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, tc := range []struct {
		cli  []string
		call func() (*http.Response, error)
	}{
		{[]string{"roll", "4d6kh3+1d8!", "--seed", "7", "--json"}, func() (*http.Response, error) {
			return http.Post(ts.URL+"/api/roll", "application/json", strings.NewReader(`{"expr":"4d6kh3+1d8!","seed":7}`))
		}},
		{[]string{"prob", "3d6kh2", "--json"}, func() (*http.Response, error) { return http.Get(ts.URL + "/api/prob?expr=3d6kh2") }},
		{[]string{"prob", "2d6!", "--depth", "2", "--json"}, func() (*http.Response, error) { return http.Get(ts.URL + "/api/prob?expr=2d6!&depth=2") }},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(tc.cli, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("fray %v: exit %d: %s", tc.cli, code, stderr.String())
		}
		res, err := tc.call()
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !bytes.Equal(bytes.TrimSpace(body), bytes.TrimSpace(stdout.Bytes())) {
			t.Errorf("fray %v printed\n%s\nthe API answered %d\n%s", tc.cli, stdout.String(), res.StatusCode, body)
		}
	}
}
