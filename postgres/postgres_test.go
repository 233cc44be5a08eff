package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"fray"
	"fray/postgres"
	"fray/postgres/pgtest"
	"fray/storetest"
)

// open opens a store on the database at url, closed when the test ends.
func open(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestPostgresStore(t *testing.T) {
	pgtest.ServerURL(t) // skip once, not in every subtest
	storetest.Run(t, func(t *testing.T) fray.Store { return open(t, pgtest.NewDatabase(t)) })
}

func TestPostgresDurable(t *testing.T) {
	pgtest.ServerURL(t)
	storetest.RunDurable(t, func(t *testing.T) func() fray.Store {
		url := pgtest.NewDatabase(t)
		return func() fray.Store { return open(t, url) }
	})
}

// schemaVersions returns the number of rows of schema_version and the
// highest version among them.
func schemaVersions(t *testing.T, url string) (n, v int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, `SELECT count(*), coalesce(max(version), 0) FROM schema_version`).Scan(&n, &v); err != nil {
		t.Fatalf("read schema_version: %v", err)
	}
	return n, v
}

func TestPostgresMigrations(t *testing.T) {
	url := pgtest.NewDatabase(t)
	open(t, url).Close()
	// Opening again applies nothing twice.
	open(t, url).Close()
	want := postgres.SchemaVersion()
	if n, v := schemaVersions(t, url); n != want || v != want || want < 2 {
		t.Errorf("schema_version holds %d rows up to %d, want %d up to %d", n, v, want, want)
	}
	// A database written by a newer fray is refused.
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `INSERT INTO schema_version (version, applied) VALUES ($1, now())`, want+1); err != nil {
		t.Fatal(err)
	}
	if s, err := postgres.Open(ctx, url); fray.ErrorCode(err) != fray.EINVALID {
		if err == nil {
			s.Close()
		}
		t.Errorf("Open of a newer schema: %v, want EINVALID", err)
	}
}

// TestPostgresOpenTogether opens several stores at once on a new
// database, as servers starting together do: the advisory lock lets one
// migrate while the others wait, and every migration is applied once.
func TestPostgresOpenTogether(t *testing.T) {
	url := pgtest.NewDatabase(t)
	const servers = 4
	errs := make([]error, servers)
	stores := make([]*postgres.Store, servers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range servers {
		wg.Go(func() {
			<-start
			stores[i], errs[i] = postgres.Open(context.Background(), url)
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open %d: %v", i, err)
			continue
		}
		stores[i].Close()
	}
	if n, v := schemaVersions(t, url); n != postgres.SchemaVersion() || v != postgres.SchemaVersion() {
		t.Errorf("schema_version holds %d rows up to %d, want %d", n, v, postgres.SchemaVersion())
	}
}

// TestPostgresTwoServers races appends at one revision through two
// stores on one database, as two servers would: each round exactly one
// is accepted, and the others learn the revision it made.
func TestPostgresTwoServers(t *testing.T) {
	url := pgtest.NewDatabase(t)
	a, b := open(t, url), open(t, url)
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	if err := a.CreateEncounter(ctx, storetest.Encounter("shared")); err != nil {
		t.Fatal(err)
	}
	stores := []fray.Store{a, b, a, b}
	const rounds = 20
	for r := range rounds {
		start := make(chan struct{})
		errs := make([]error, len(stores))
		var wg sync.WaitGroup
		for w, s := range stores {
			wg.Go(func() {
				<-start
				_, errs[w] = s.AppendEvents(ctx, "shared", r, storetest.Events(r+1, 1, fmt.Sprint(w)))
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for w, err := range errs {
			switch cur, ok := fray.CurrentRevision(err); {
			case err == nil:
				won++
			case fray.ErrorCode(err) != fray.ECONFLICT || !ok || cur != r+1:
				t.Errorf("round %d, writer %d: %v (revision %d, %v); want ECONFLICT at %d", r+1, w, err, cur, ok, r+1)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d writers appended, want 1", r+1, won)
		}
	}
	for _, s := range []fray.Store{a, b} {
		evs, err := s.Events(ctx, "shared", 1, 0)
		if err != nil || len(evs) != rounds {
			t.Fatalf("Events: %d events, %v; want %d", len(evs), err, rounds)
		}
	}
}

func TestPostgresSnapshots(t *testing.T) {
	s := open(t, pgtest.NewDatabase(t))
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateEncounter(ctx, storetest.Encounter("snap")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendEvents(ctx, "snap", 0, storetest.Events(1, 5, "w")); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateEncounter(ctx, storetest.Encounter("bare")); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 123456789, time.FixedZone("UTC-5", -5*60*60))
	snap := func(seq int, data string) fray.SnapshotRecord {
		return fray.SnapshotRecord{Seq: seq, Data: []byte(data), Created: at.Add(time.Duration(seq) * time.Second)}
	}
	kept := func(r fray.SnapshotRecord) fray.SnapshotRecord {
		r.Created = fray.TruncateTime(r.Created)
		return r
	}
	_, err := s.Snapshot(ctx, "snap")
	if fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("Snapshot before any: %v, want ENOTFOUND", err)
	}
	tests := []struct {
		name string
		id   string
		put  fray.SnapshotRecord
		code string              // of PutSnapshot, "" for none
		want fray.SnapshotRecord // the snapshot kept afterwards
	}{
		{"first", "snap", snap(2, "two"), "", kept(snap(2, "two"))},
		{"newer replaces", "snap", snap(4, "four"), "", kept(snap(4, "four"))},
		{"older ignored", "snap", snap(3, "three"), "", kept(snap(4, "four"))},
		{"equal ignored", "snap", snap(4, "other four"), "", kept(snap(4, "four"))},
		{"at the revision", "snap", snap(5, "five"), "", kept(snap(5, "five"))},
		{"no data", "snap", snap(5, ""), fray.EINVALID, kept(snap(5, "five"))},
		{"past the revision", "snap", snap(6, "six"), fray.EINVALID, kept(snap(5, "five"))},
		{"seq 0", "snap", snap(0, "zero"), fray.EINVALID, kept(snap(5, "five"))},
		{"too large", "snap", snap(5, strings.Repeat("x", fray.MaxSnapshotData+1)), fray.ETOOLARGE, kept(snap(5, "five"))},
		{"unknown encounter", "nobody", snap(1, "x"), fray.ENOTFOUND, kept(snap(5, "five"))},
		{"bad id", "no body", snap(1, "x"), fray.EINVALID, kept(snap(5, "five"))},
		{"empty log", "bare", snap(1, "x"), fray.EINVALID, kept(snap(5, "five"))},
	}
	for _, tt := range tests {
		err := s.PutSnapshot(ctx, tt.id, tt.put)
		if got := fray.ErrorCode(err); err != nil && got != tt.code || err == nil && tt.code != "" {
			t.Errorf("%s: PutSnapshot: %v, want code %q", tt.name, err, tt.code)
		}
		got, err := s.Snapshot(ctx, "snap")
		if err != nil {
			t.Fatalf("%s: Snapshot: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Snapshot (-want +got):\n%s", tt.name, diff)
		}
	}
	big := snap(6, strings.Repeat("b", fray.MaxSnapshotData))
	if _, err := s.AppendEvents(ctx, "snap", 5, storetest.Events(6, 1, "w")); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSnapshot(ctx, "snap", big); err != nil {
		t.Fatalf("PutSnapshot of MaxSnapshotData bytes: %v", err)
	}
	if got, err := s.Snapshot(ctx, "snap"); err != nil || got.Seq != 6 || len(got.Data) != fray.MaxSnapshotData {
		t.Errorf("Snapshot after the largest: seq %d, %d bytes, %v", got.Seq, len(got.Data), err)
	}
	for _, id := range []string{"bare", "nobody"} {
		if _, err := s.Snapshot(ctx, id); fray.ErrorCode(err) != fray.ENOTFOUND {
			t.Errorf("Snapshot(%s): %v, want ENOTFOUND", id, err)
		}
	}
	if _, err := s.Snapshot(ctx, "no body"); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("Snapshot(bad id): %v, want EINVALID", err)
	}
	s.Close()
	if err := s.PutSnapshot(ctx, "snap", snap(6, "x")); err == nil {
		t.Errorf("PutSnapshot after Close: no error")
	}
	if _, err := s.Snapshot(ctx, "snap"); err == nil {
		t.Errorf("Snapshot after Close: no error")
	}
}

// TestPostgresMapErr checks how the store reports PostgreSQL's failures;
// it needs no server.
func TestPostgresMapErr(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	bg := context.Background()
	netErr := errors.New("read tcp: connection reset")
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		code string
		is   error // the error the result must wrap
	}{
		{"disk full", bg, &pgconn.PgError{Code: "53100", Message: "could not extend file"}, fray.ESTORAGEFULL, nil},
		{"program limit", bg, &pgconn.PgError{Code: "54000", Message: "row is too big"}, fray.ETOOLARGE, nil},
		{"too many columns", bg, &pgconn.PgError{Code: "54011", Message: "too many columns"}, fray.ETOOLARGE, nil},
		{"other PostgreSQL error", bg, &pgconn.PgError{Code: "XX000", Message: "internal"}, fray.EINTERNAL, nil},
		{"refusal unchanged", bg, fray.Errorf(fray.ECONFLICT, "Taken."), fray.ECONFLICT, nil},
		{"network", bg, netErr, fray.EINTERNAL, netErr},
		{"network once canceled", canceled, netErr, fray.EINTERNAL, context.Canceled},
		{"canceled", canceled, fmt.Errorf("acquire: %w", context.Canceled), fray.EINTERNAL, context.Canceled},
	}
	for _, tt := range tests {
		err := postgres.MapErr(tt.ctx, "append events", tt.err)
		if got := fray.ErrorCode(err); got != tt.code {
			t.Errorf("%s: code %s (%v), want %s", tt.name, got, err, tt.code)
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: %v does not wrap %v", tt.name, err, tt.is)
		}
		if tt.code != fray.EINTERNAL && fray.ErrorMessage(err) == "" {
			t.Errorf("%s: no message for users", tt.name)
		}
	}
}

// TestPostgresOpenBadURL needs no server: what is not a PostgreSQL URL is
// refused before any connection.
func TestPostgresOpenBadURL(t *testing.T) {
	for _, u := range []string{"", "fray.db", "/var/lib/fray/fray.db", "mysql://db/fray", "host=db user=fray"} {
		if s, err := postgres.Open(context.Background(), u); fray.ErrorCode(err) != fray.EINVALID {
			if err == nil {
				s.Close()
			}
			t.Errorf("Open(%q): %v, want EINVALID", u, err)
		}
	}
}

func TestPostgresIsURL(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"postgres://db/fray", true},
		{"postgresql://u:p@db:5432/fray?sslmode=disable", true},
		{"fray.db", false},
		{"./postgres://x", false},
		{"POSTGRES://db", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := postgres.IsURL(tt.s); got != tt.want {
			t.Errorf("IsURL(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestPostgresRedacted(t *testing.T) {
	got := postgres.Redacted("postgres://fray:secret@db:5432/fray?sslmode=disable")
	if strings.Contains(got, "secret") || !strings.Contains(got, "db:5432/fray") {
		t.Errorf("Redacted = %q, want the URL without its password", got)
	}
}

// TestPostgresGroupCommit has 64 writers append to 8 encounters at once,
// each retrying at the revision its conflict names, so that appends are
// committed in groups: every acknowledged append must be in its log, once,
// in order, with no gap, and appends to an unknown encounter or at a stale
// revision in the same groups must be refused alone.
func TestPostgresGroupCommit(t *testing.T) {
	s := open(t, pgtest.NewDatabase(t))
	defer s.Close()
	ctx := context.Background()
	const encounters, writers, each = 8, 64, 15
	for e := range encounters {
		if err := s.CreateEncounter(ctx, storetest.Encounter(fmt.Sprint("g", e))); err != nil {
			t.Fatal(err)
		}
	}
	acked := make([][]string, encounters) // the data of each acknowledged append, by encounter
	var mu sync.Mutex
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			<-start
			id := fmt.Sprint("g", w%encounters)
			rev := 0
			for i := 0; i < each; {
				tag := fmt.Sprintf("w%d-%d", w, i)
				next, err := s.AppendEvents(ctx, id, rev, storetest.Events(rev+1, 1, tag))
				if err == nil {
					mu.Lock()
					acked[w%encounters] = append(acked[w%encounters], tag)
					mu.Unlock()
					rev, i = next, i+1
					continue
				}
				cur, ok := fray.CurrentRevision(err)
				if fray.ErrorCode(err) != fray.ECONFLICT || !ok || cur <= rev {
					t.Errorf("%s at %d: %v", id, rev, err)
					return
				}
				rev = cur
			}
		})
		if w%8 == 0 {
			wg.Go(func() {
				<-start
				if _, err := s.AppendEvents(ctx, "nobody", 0, storetest.Events(1, 1, "x")); fray.ErrorCode(err) != fray.ENOTFOUND {
					t.Errorf("an append to an unknown encounter: %v", err)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	for e := range encounters {
		evs, err := s.Events(ctx, fmt.Sprint("g", e), 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != len(acked[e]) || len(evs) != writers/encounters*each {
			t.Fatalf("g%d: %d events, %d acknowledged, want %d", e, len(evs), len(acked[e]), writers/encounters*each)
		}
		seen := map[string]bool{}
		for i, ev := range evs {
			if ev.Seq != i+1 {
				t.Fatalf("g%d: event %d has seq %d", e, i+1, ev.Seq)
			}
			var d struct{ Writer string }
			if err := json.Unmarshal(ev.Data, &d); err != nil || seen[d.Writer] {
				t.Fatalf("g%d: event %d is %s (%v): unreadable or twice", e, ev.Seq, ev.Data, err)
			}
			seen[d.Writer] = true
		}
		for _, tag := range acked[e] {
			if !seen[tag] {
				t.Errorf("g%d: the acknowledged append %s is not in the log", e, tag)
			}
		}
	}
	if postgres.Grouped(s) == 0 {
		t.Error("no append was committed in a group of more than one")
	}
	t.Logf("%d appends committed in groups", postgres.Grouped(s))
}

// TestPostgresGroupAllOrNothing commits a group whose last append fails
// at the server (its event takes a seq the log holds already, which the
// unique key refuses once the revision has moved): the group is one
// transaction, so nothing of it stays, not even the appends before the
// one that failed, and each encounter keeps its revision and its log.
func TestPostgresGroupAllOrNothing(t *testing.T) {
	s := open(t, pgtest.NewDatabase(t))
	defer s.Close()
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c"} {
		if err := s.CreateEncounter(ctx, storetest.Encounter(id)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AppendEvents(ctx, "c", 0, storetest.Events(1, 2, "before")); err != nil {
		t.Fatal(err)
	}
	bad := storetest.Events(3, 1, "bad")
	bad[0].Seq = 1 // at revision 2, the next event is 3
	rows, err := postgres.InGroup(s,
		postgres.Append{ID: "a", Revision: 0, Events: storetest.Events(1, 1, "a")},
		postgres.Append{ID: "b", Revision: 0, Events: storetest.Events(1, 3, "b")},
		postgres.Append{ID: "c", Revision: 2, Events: bad})
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" {
		t.Fatalf("the group gave rows %v, error %v; want the unique key's refusal (23505)", rows, err)
	}
	for id, want := range map[string]int{"a": 0, "b": 0, "c": 2} {
		evs, err := s.Events(ctx, id, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != want {
			t.Errorf("%s: %d events after the failed group, want %d", id, len(evs), want)
		}
		// The revision is unmoved too: an append at the old one is taken.
		if _, err := s.AppendEvents(ctx, id, want, storetest.Events(want+1, 1, "after")); err != nil {
			t.Errorf("%s: an append at revision %d after the failed group: %v", id, want, err)
		}
	}
	// And a group that fails nowhere commits every append.
	rows, err = postgres.InGroup(s,
		postgres.Append{ID: "a", Revision: 1, Events: storetest.Events(2, 1, "a2")},
		postgres.Append{ID: "b", Revision: 1, Events: storetest.Events(2, 2, "b2")})
	if err != nil || !cmp.Equal(rows, []int64{1, 2}) {
		t.Fatalf("a good group gave rows %v, error %v; want [1 2]", rows, err)
	}
}

// TestPostgresGroupRounds commits a group that appends to one encounter
// three times, in order, once at a revision already taken: each append
// sees the revision the one before it left, as if each were alone.
func TestPostgresGroupRounds(t *testing.T) {
	s := open(t, pgtest.NewDatabase(t))
	defer s.Close()
	ctx := context.Background()
	for _, id := range []string{"a", "b"} {
		if err := s.CreateEncounter(ctx, storetest.Encounter(id)); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := postgres.InGroup(s,
		postgres.Append{ID: "b", Revision: 0, Events: storetest.Events(1, 1, "b1")},
		postgres.Append{ID: "a", Revision: 0, Events: storetest.Events(1, 1, "a1")},
		postgres.Append{ID: "a", Revision: 1, Events: storetest.Events(2, 2, "a2")},
		postgres.Append{ID: "a", Revision: 1, Events: storetest.Events(2, 1, "late")},
		postgres.Append{ID: "a", Revision: 3, Events: storetest.Events(4, 1, "a3")})
	if err != nil || !cmp.Equal(rows, []int64{1, 1, 2, 0, 1}) {
		t.Fatalf("rows %v, error %v; want [1 1 2 0 1]", rows, err)
	}
	evs, err := s.Events(ctx, "a", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		var d struct{ Writer string }
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(ev.Seq, d.Writer))
	}
	if want := []string{"1a1", "2a2", "3a2", "4a3"}; !cmp.Equal(got, want) {
		t.Errorf("a's log %v, want %v", got, want)
	}
}
