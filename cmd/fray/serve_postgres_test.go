package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"fray/postgres/pgtest"
)

// startServe runs fray serve with args until the test ends, and returns
// the URL it prints and its output so far.
func startServe(t *testing.T, args ...string) (base string, out *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- MainContext(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), &stdout, &stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("fray serve: exit %d:\n%s", code, stderr.String())
			}
		case <-time.After(time.Minute):
			t.Error("fray serve did not stop within a minute")
		}
	})
	re := regexp.MustCompile(`open (http://127\.0\.0\.1:\d+/)`)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stdout.String()); m != nil {
			return m[1], &stdout
		}
		select {
		case code := <-done:
			done <- code
			t.Fatalf("fray serve exited %d:\n%s%s", code, stdout.String(), stderr.String())
		default:
		}
	}
	t.Fatalf("no URL printed within a minute:\n%s%s", stdout.String(), stderr.String())
	return "", nil
}

// call sends a request with a JSON body (none when body is "") and
// decodes the JSON answer into out, returning the status.
func call(t *testing.T, method, u, token, body string, out any) int {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
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
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, u, res.StatusCode, b, err)
		}
	}
	return res.StatusCode
}

// TestServePostgres runs fray serve on a new PostgreSQL database: it
// creates the tables, keeps an encounter and its commands, refuses a
// stale one, never prints the password, and a second server started on
// the same database afterwards reads the encounter back.
func TestServePostgres(t *testing.T) {
	db := pgtest.NewDatabase(t)
	base, out := startServe(t, "--db", db)
	if u, err := url.Parse(db); err == nil {
		if pw, ok := u.User.Password(); ok && strings.Contains(out.String(), pw) {
			t.Errorf("fray serve printed the database password:\n%s", out.String())
		}
	}
	if !strings.Contains(out.String(), "encounters in postgres://") {
		t.Errorf("fray serve does not say it keeps the encounters in PostgreSQL:\n%s", out.String())
	}
	var enc struct {
		ID, Name, Token string
		Revision        int
	}
	if code := call(t, "POST", base+"api/encounters", "", `{"rules":"bpb","name":"Docks"}`, &enc); code != http.StatusCreated || enc.ID == "" {
		t.Fatalf("create: %d %+v", code, enc)
	}
	var cmd struct{ Revision int }
	if code := call(t, "POST", base+"api/encounters/"+enc.ID+"/commands", enc.Token, `{"command":"add Ann side=pc","revision":0}`, &cmd); code != http.StatusOK || cmd.Revision < 1 {
		t.Fatalf("command: %d, revision %d", code, cmd.Revision)
	}
	if code := call(t, "POST", base+"api/encounters/"+enc.ID+"/commands", enc.Token, `{"command":"add Bo side=pc","revision":0}`, nil); code != http.StatusConflict {
		t.Errorf("a command at a stale revision: %d, want 409", code)
	}

	// Another server on the same database, as when one is restarted or a
	// second one shares the load, sees what the first one acknowledged.
	other, _ := startServe(t, "--db", db)
	for _, b := range []string{base, other} {
		var got struct {
			ID, Name string
			Revision int
		}
		if code := call(t, "GET", b+"api/encounters/"+enc.ID, enc.Token, "", &got); code != http.StatusOK {
			t.Fatalf("GET the encounter from %s: %d", b, code)
		}
		if got.ID != enc.ID || got.Name != "Docks" || got.Revision != cmd.Revision {
			t.Errorf("from %s: %+v, want %s \"Docks\" at revision %d", b, got, enc.ID, cmd.Revision)
		}
	}
}
