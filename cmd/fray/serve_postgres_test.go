package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"fray/postgres/pgtest"
)

// call sends a request with a JSON body (none when body is "") and
// decodes the JSON answer into out, returning the status.
func call(t *testing.T, method, u, token, body string, out any) int {
	t.Helper()
	var b any
	if body != "" {
		b = json.RawMessage(body)
	}
	status, answer := httpCall(t, method, u, token, b)
	if out != nil && status < 300 {
		if err := json.Unmarshal(answer, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, u, status, answer, err)
		}
	}
	return status
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
