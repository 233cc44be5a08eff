package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fray"
	"fray/engine"
	"fray/postgres"
	"fray/postgres/pgtest"
	"fray/rules/bpb"
	"fray/sqlite"
)

// migrateFixture fills store with three encounters played by the engine
// (one with a player token and a snapshot, one with an empty log) and
// returns their ids.
func migrateFixture(t *testing.T, store fray.Store) []string {
	t.Helper()
	ctx := context.Background()
	created := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	ids := []string{"duel", "brawl", "empty"}
	scripts := [][]string{
		{"add Blueshift side=pc", "add Ganyeka side=npc", "order Blueshift Ganyeka", "start", "next Blueshift"},
		{"add A side=pc", "add B side=npc", "add C side=npc", "order A B C", "start"},
		nil,
	}
	for i, id := range ids {
		rec := fray.EncounterRecord{ID: id, Rules: "bpb", Name: "fight " + id, Seed: uint64(40 + i), Created: created.Add(time.Duration(i) * time.Minute)}
		gm := fray.Token{Hash: fray.HashToken("gm-" + id), Encounter: id, Role: fray.RoleGM, Created: rec.Created}
		if err := store.CreateEncounter(ctx, rec, gm); err != nil {
			t.Fatal(err)
		}
		e := engine.New(bpb.New(), rand.New(rand.NewPCG(rec.Seed, 0)))
		for _, line := range scripts[i] {
			cmd, err := engine.ParseCommand(line)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Do(cmd); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
		}
		appendAll(t, store, id, 0, e.Log(), rec.Created)
	}
	evs, err := store.Events(ctx, "duel", 1, 1)
	if err != nil || len(evs) != 1 {
		t.Fatalf("read the first event: %v", err)
	}
	first, err := engine.DecodeEvent(evs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	player := fray.Token{Hash: fray.HashToken("player-duel"), Encounter: "duel", Role: fray.RolePlayer, Combatant: string(first.About[0]), Created: created}
	if err := store.CreateToken(ctx, player); err != nil {
		t.Fatal(err)
	}
	if err := store.PutSnapshot(ctx, "duel", fray.SnapshotRecord{Seq: 2, Data: []byte(`{"format":1}`), Created: created}); err != nil {
		t.Fatal(err)
	}
	return ids
}

// appendAll appends evs to the log of id, which is at revision rev.
func appendAll(t *testing.T, store fray.Store, id string, rev int, evs []fray.Event, at time.Time) {
	t.Helper()
	if len(evs) == 0 {
		return
	}
	var recs []fray.EventRecord
	for i, ev := range evs {
		ev.Seq = rev + 1 + i
		r, err := fray.NewEventRecord(ev, at.Add(time.Duration(ev.Seq)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if _, err := store.AppendEvents(context.Background(), id, rev, recs); err != nil {
		t.Fatal(err)
	}
}

// sameStores fails unless dst holds each encounter of ids as src does:
// the record, every event byte for byte, the tokens and the snapshot.
func sameStores(t *testing.T, src, dst fray.Store, ids []string) {
	t.Helper()
	ctx := context.Background()
	for _, id := range ids {
		a, err := src.Encounter(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		b, err := dst.Encounter(ctx, id)
		if err != nil {
			t.Fatalf("%s is not in the target: %v", id, err)
		}
		if a.Rules != b.Rules || a.Name != b.Name || a.Seed != b.Seed || !a.Created.Equal(b.Created) || a.Revision != b.Revision || !a.Updated.Equal(b.Updated) {
			t.Errorf("%s: the target's record %+v, the source's %+v", id, b, a)
		}
		ea, _ := src.Events(ctx, id, 1, 0)
		eb, err := dst.Events(ctx, id, 1, 0)
		if err != nil || len(ea) != len(eb) {
			t.Fatalf("%s: %d events in the target (%v), %d in the source", id, len(eb), err, len(ea))
		}
		for i := range ea {
			if ea[i].Seq != eb[i].Seq || ea[i].Type != eb[i].Type || !bytes.Equal(ea[i].Data, eb[i].Data) || !ea[i].Time.Equal(eb[i].Time) {
				t.Errorf("%s: event %d differs:\n%s\n%s", id, ea[i].Seq, ea[i].Data, eb[i].Data)
			}
		}
		ta, _ := src.Tokens(ctx, id)
		tb, err := dst.Tokens(ctx, id)
		if err != nil || len(ta) != len(tb) {
			t.Fatalf("%s: %d tokens in the target (%v), %d in the source", id, len(tb), err, len(ta))
		}
		for i := range ta {
			if ta[i].Hash != tb[i].Hash || ta[i].Role != tb[i].Role || ta[i].Combatant != tb[i].Combatant {
				t.Errorf("%s: token %d is %+v in the target, %+v in the source", id, i, tb[i], ta[i])
			}
		}
		sa, errA := src.Snapshot(ctx, id)
		sb, errB := dst.Snapshot(ctx, id)
		if fray.ErrorCode(errA) != fray.ErrorCode(errB) || sa.Seq != sb.Seq || !bytes.Equal(sa.Data, sb.Data) {
			t.Errorf("%s: snapshot %d %s (%v) in the target, %d %s (%v) in the source", id, sb.Seq, sb.Data, errB, sa.Seq, sa.Data, errA)
		}
	}
}

func runMigrate(t *testing.T, args ...string) (code int, out, errOut string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code = Main(append([]string{"migrate"}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// testMigrate copies an SQLite file into target and checks the copy, a
// second run, a run after the source grew, and a target that diverged.
func testMigrate(t *testing.T, target string, open func() fray.Store) {
	from := filepath.Join(t.TempDir(), "old.db")
	src, err := sqlite.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	ids := migrateFixture(t, src)
	total := 0
	for _, id := range ids {
		rec, err := src.Encounter(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		total += rec.Revision
	}
	src.Close()
	if total < 10 {
		t.Fatalf("the fixture holds %d events; the scripts make more", total)
	}

	code, out, errOut := runMigrate(t, "--from", from, "--to", target, "--dry-run")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("would copy 3 encounters (%d events)", total)) {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runMigrate(t, "--from", from, "--to", target)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("copied 3 encounters (%d events); 0 extended, 0 already there, 0 failed", total)) {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	src, err = sqlite.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst := open()
	sameStores(t, src, dst, ids)
	dst.Close()

	// Again: nothing to do.
	if code, out, errOut = runMigrate(t, "--from", from, "--to", target); code != 0 || !strings.Contains(out, "copied 0 encounters (0 events); 0 extended, 3 already there") {
		t.Fatalf("second run: exit %d\n%s%s", code, out, errOut)
	}

	// The old server took two more commands and issued a player token:
	// only those move.
	ctx := context.Background()
	rec, _ := src.Encounter(ctx, "brawl")
	note1, _ := fray.NewEvent(fray.EventNoted, fray.NoteData{Note: "the lights go out"})
	note2, _ := fray.NewEvent(fray.EventNoted, fray.NoteData{Note: "sirens"})
	appendAll(t, src, "brawl", rec.Revision, []fray.Event{note1, note2}, rec.Created)
	tok := fray.Token{Hash: fray.HashToken("gm2-brawl"), Encounter: "brawl", Role: fray.RoleGM, Created: rec.Created}
	if err := src.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut = runMigrate(t, "--from", from, "--to", target); code != 0 || !strings.Contains(out, "brawl (bpb, \"fight brawl\"): 2 new events added") ||
		!strings.Contains(out, "copied 0 encounters (2 events); 1 extended, 2 already there") {
		t.Fatalf("after the source grew: exit %d\n%s%s", code, out, errOut)
	}
	dst = open()
	sameStores(t, src, dst, ids)

	// The target took a command of its own: that encounter is reported
	// and left alone, the others are fine, and the exit is 1.
	rec, _ = dst.Encounter(ctx, "duel")
	own, _ := fray.NewEvent(fray.EventNoted, fray.NoteData{Note: "written on the new server"})
	appendAll(t, dst, "duel", rec.Revision, []fray.Event{own}, rec.Created)
	dst.Close()
	srec, _ := src.Encounter(ctx, "duel")
	other, _ := fray.NewEvent(fray.EventNoted, fray.NoteData{Note: "written on the old one"})
	appendAll(t, src, "duel", srec.Revision, []fray.Event{other}, srec.Created)
	code, out, errOut = runMigrate(t, "--from", from, "--to", target)
	if code != 1 || !strings.Contains(out, "duel (bpb): not copied: The target's log differs from the source's at event 6") ||
		!strings.Contains(out, "1 failed") {
		t.Fatalf("diverged: exit %d\n%s%s", code, out, errOut)
	}
	dst = open()
	defer dst.Close()
	got, _ := dst.Events(ctx, "duel", rec.Revision+1, 0)
	if len(got) != 1 || !strings.Contains(string(got[0].Data), "written on the new server") {
		t.Errorf("the diverged encounter was changed: %d events after %d", len(got), rec.Revision)
	}
}

func TestMigrateSQLite(t *testing.T) {
	to := filepath.Join(t.TempDir(), "new.db")
	testMigrate(t, to, func() fray.Store {
		s, err := sqlite.Open(to)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestMigratePostgres(t *testing.T) {
	url := pgtest.NewDatabase(t)
	testMigrate(t, url, func() fray.Store {
		s, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestMigrateUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "name both databases"},
		{[]string{"--from", "a.db"}, 2, "name both databases"},
		{[]string{"--from", "a.db", "--to", "a.db"}, 2, "both name a.db"},
		{[]string{"--from", "a.db", "--to", "b.db", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--from", filepath.Join(dir, "missing.db"), "--to", filepath.Join(dir, "b.db")}, 1, "missing.db cannot be read: no such file or directory"},
	} {
		code, out, errOut := runMigrate(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("migrate %q: exit %d, stderr %q (stdout %q); want exit %d and one line with %q", tc.args, code, errOut, out, tc.code, tc.want)
		}
	}
	if fileExists(filepath.Join(dir, "missing.db")) || fileExists(filepath.Join(dir, "b.db")) {
		t.Error("a refused migration created a database file")
	}
	if code, out, _ := runMigrate(t, "--help"); code != 0 && !strings.Contains(out, "fray migrate --from") {
		t.Errorf("--help: exit %d", code)
	}
}
