package main

import (
	"bytes"
	"context"
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
// does: it creates the database, prints the URL, answers, and exits 0.
func TestServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "fray.db")
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- MainContext(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db}, strings.NewReader(""), &stdout, &stderr)
	}()
	url := regexp.MustCompile(`open (http://127\.0\.0\.1:\d+/)`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := url.FindStringSubmatch(stdout.String()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		cancel()
		t.Fatalf("no URL printed:\n%s%s", stdout.String(), stderr.String())
	}
	res, err := http.Post(base+"api/encounters", "application/json", strings.NewReader(`{"rules":"bpb"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Errorf("create: %d", res.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("fray serve did not stop")
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
