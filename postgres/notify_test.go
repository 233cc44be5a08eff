package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"fray"
	"fray/postgres"
	"fray/postgres/pgtest"
	"fray/storetest"
)

// noticeWait bounds the wait for one notice: far more than PostgreSQL
// takes, so that a machine ten times slower passes too.
const noticeWait = time.Minute

// next returns the next notice on ch, failing the test when none comes
// within noticeWait or ch is closed.
func next(t *testing.T, ch <-chan fray.Notice) fray.Notice {
	t.Helper()
	select {
	case n, ok := <-ch:
		if !ok {
			t.Fatal("the notice channel was closed")
		}
		return n
	case <-time.After(noticeWait):
		t.Fatalf("no notice within %v", noticeWait)
	}
	return fray.Notice{}
}

// closed waits for ch to be closed, failing the test when it is not
// within noticeWait; notices still in it are skipped.
func closed(t *testing.T, ch <-chan fray.Notice) {
	t.Helper()
	deadline := time.After(noticeWait)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatalf("the notice channel was not closed within %v", noticeWait)
		}
	}
}

// sql runs one statement on a connection of its own to url and returns
// the rows it affected.
func sql(t *testing.T, url, stmt string, args ...any) int64 {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tag, err := conn.Exec(ctx, stmt, args...)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	return tag.RowsAffected()
}

// TestPostgresNotify: a store announces the appends another store on
// the same database commits, in order, once listening (after a first
// notice for every encounter), and none for an append refused.
func TestPostgresNotify(t *testing.T) {
	url := pgtest.NewDatabase(t)
	a, b := open(t, url), open(t, url)
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	ch, err := a.Notify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := next(t, ch); !n.All() {
		t.Fatalf("first notice %+v, want one for every encounter", n)
	}
	for _, id := range []string{"one", "two"} {
		if err := b.CreateEncounter(ctx, storetest.Encounter(id)); err != nil {
			t.Fatal(err)
		}
	}
	var want []fray.Notice
	appendAt := func(id string, rev, n int) {
		t.Helper()
		if _, err := b.AppendEvents(ctx, id, rev, storetest.Events(rev+1, n, "w")); err != nil {
			t.Fatal(err)
		}
		want = append(want, fray.Notice{Encounter: id, Revision: rev + n})
	}
	appendAt("one", 0, 1)
	appendAt("two", 0, 3)
	if _, err := b.AppendEvents(ctx, "one", 0, storetest.Events(1, 1, "late")); fray.ErrorCode(err) != fray.ECONFLICT {
		t.Fatalf("a stale append: %v, want ECONFLICT", err)
	}
	appendAt("one", 1, 2)
	appendAt("two", 3, 1)
	var got []fray.Notice
	for range want {
		got = append(got, next(t, ch))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("notices (-want +got):\n%s", d)
	}
}

// TestPostgresNotifyPayloads: a notification on the store's channel that
// another program sent, which the store cannot read, stands for every
// encounter.
func TestPostgresNotifyPayloads(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := open(t, url)
	defer s.Close()
	ch, err := s.Notify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	next(t, ch)
	for _, tc := range []struct {
		payload string
		want    fray.Notice
	}{
		{"enc-1 7", fray.Notice{Encounter: "enc-1", Revision: 7}},
		{"", fray.Notice{}},
		{"garbage", fray.Notice{}},
		{"enc-1 0", fray.Notice{}},
		{"enc-1 -3", fray.Notice{}},
		{"enc 1 7", fray.Notice{}},
		{"bad!id 7", fray.Notice{}},
	} {
		sql(t, url, `SELECT pg_notify('fray_appends', $1)`, tc.payload)
		if got := next(t, ch); got != tc.want {
			t.Errorf("payload %q: %+v, want %+v", tc.payload, got, tc.want)
		}
	}
}

// TestPostgresNotifyGroup: a group of appends notifies for each append
// it commits, with the revision it moved its encounter to, and for none
// it refuses.
func TestPostgresNotifyGroup(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := open(t, url)
	defer s.Close()
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c"} {
		if err := s.CreateEncounter(ctx, storetest.Encounter(id)); err != nil {
			t.Fatal(err)
		}
	}
	ch, err := s.Notify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	next(t, ch)
	if _, err := postgres.InGroup(s,
		postgres.Append{ID: "a", Revision: 0, Events: storetest.Events(1, 2, "a")},
		postgres.Append{ID: "b", Revision: 4, Events: storetest.Events(5, 1, "stale")},
		postgres.Append{ID: "c", Revision: 0, Events: storetest.Events(1, 1, "c")},
		postgres.Append{ID: "a", Revision: 2, Events: storetest.Events(3, 1, "a")}); err != nil {
		t.Fatal(err)
	}
	// Then a lone append, so that a notice the group should not have
	// sent would come before its notice.
	if _, err := s.AppendEvents(ctx, "b", 0, storetest.Events(1, 1, "b")); err != nil {
		t.Fatal(err)
	}
	want := map[fray.Notice]bool{{Encounter: "a", Revision: 2}: true, {Encounter: "a", Revision: 3}: true, {Encounter: "c", Revision: 1}: true}
	for len(want) > 0 {
		n := next(t, ch)
		if !want[n] {
			t.Fatalf("notice %+v, want one of %v", n, want)
		}
		delete(want, n)
	}
	if n := next(t, ch); n != (fray.Notice{Encounter: "b", Revision: 1}) {
		t.Fatalf("after the group: %+v, want b at 1", n)
	}
}

// TestPostgresNotifyReconnect: when the listening connection is lost,
// the store connects again and says every encounter may have changed,
// then announces appends as before.
func TestPostgresNotifyReconnect(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := open(t, url)
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateEncounter(ctx, storetest.Encounter("e")); err != nil {
		t.Fatal(err)
	}
	ch, err := s.Notify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	next(t, ch)
	for round := 1; round <= 2; round++ {
		if n := sql(t, url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE application_name = 'fray listen' AND datname = current_database()`); n < 1 {
			t.Fatalf("round %d: terminated %d listening connections, want at least 1", round, n)
		}
		// An append while no connection listens is covered by the
		// notice for every encounter that follows the new connection.
		if _, err := s.AppendEvents(ctx, "e", round-1, storetest.Events(round, 1, "w")); err != nil {
			t.Fatal(err)
		}
		n := next(t, ch)
		if !n.All() {
			// The old connection heard the append before it was lost.
			if n != (fray.Notice{Encounter: "e", Revision: round}) {
				t.Fatalf("round %d: notice %+v", round, n)
			}
			n = next(t, ch)
		}
		if !n.All() {
			t.Fatalf("round %d: notice %+v after the connection was lost, want one for every encounter", round, n)
		}
	}
	if _, err := s.AppendEvents(ctx, "e", 2, storetest.Events(3, 1, "w")); err != nil {
		t.Fatal(err)
	}
	if n := next(t, ch); n != (fray.Notice{Encounter: "e", Revision: 3}) {
		t.Errorf("after reconnecting: %+v, want e at 3", n)
	}
}

// TestPostgresNotifyClose: a notice channel is closed when its context
// ends or the store closes, and a closed store refuses Notify.
func TestPostgresNotifyClose(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := open(t, url)
	ctx, cancel := context.WithCancel(context.Background())
	ch1, err := s.Notify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ch2, err := s.Notify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	next(t, ch1)
	cancel()
	closed(t, ch1)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	closed(t, ch2)
	if _, err := s.Notify(context.Background()); err == nil {
		t.Error("Notify on a closed store: no error")
	}
	var _ fray.Notifier = (*postgres.Store)(nil)
}
