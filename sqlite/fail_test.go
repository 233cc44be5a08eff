package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fray"
	"fray/sqlite"
)

// readOnly makes the file at path read-only to this process: mode 0444,
// and, when the test runs as root (whom the mode does not stop), the
// immutable attribute, taken off again when the test ends. It skips the
// test when neither can be had.
func readOnly(t *testing.T, path string) {
	t.Helper()
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		return
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("running as root, whom mode 0444 does not stop, and chattr +i %s failed: %v %s", path, err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
}

// TestFailOpenReadOnly: Open refuses a database file it cannot write,
// naming it, rather than open a store whose every write fails.
func TestFailOpenReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fray.db")
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	readOnly(t, path)
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
		t.Fatalf("%s is still writable", path)
	}
	s, err = sqlite.Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open took a read-only file")
	}
	if !errors.Is(err, sqlite.ErrNotWritable) || !strings.Contains(err.Error(), path) {
		t.Errorf("Open: %v; want an error naming %s that wraps ErrNotWritable", err, path)
	}
}

// TestFailFull: a write that finds no room (SQLite's max_page_count, which
// fails it with SQLITE_FULL as a full disk does) is a storage_full
// *fray.Error and writes nothing; with room again, writes go on.
func TestFailFull(t *testing.T) {
	s := open(t)
	defer s.Close()
	ctx := context.Background()
	now := fray.TruncateTime(time.Now())
	enc := fray.EncounterRecord{ID: "full", Rules: "bpb", Created: now}
	if err := s.CreateEncounter(ctx, enc); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LimitFileSize(0); err != nil {
		t.Fatal(err)
	}
	data := fmt.Sprintf(`{"pad":%q}`, strings.Repeat("x", 500))
	rev := 0
	var err error
	for rev < 10_000 {
		ev := fray.EventRecord{Seq: rev + 1, Type: "pad", Data: []byte(data), Time: now}
		if _, err = s.AppendEvents(ctx, enc.ID, rev, []fray.EventRecord{ev}); err != nil {
			break
		}
		rev++
	}
	if code := fray.ErrorCode(err); code != "storage_full" || !strings.Contains(fray.ErrorMessage(err), "full") {
		t.Fatalf("an append to a full database: %v (code %q), want storage_full", err, code)
	}
	if got, err := s.Encounter(ctx, enc.ID); err != nil || got.Revision != rev {
		t.Fatalf("after the refused append: revision %d, %v; want %d", got.Revision, err, rev)
	}
	// Encounters and tokens have tables of their own, which may have room
	// for a few more rows.
	for i := 0; ; i++ {
		err = s.CreateEncounter(ctx, fray.EncounterRecord{ID: fmt.Sprintf("e%d", i), Rules: "bpb", Name: strings.Repeat("y", 150), Created: now})
		if err != nil || i == 10_000 {
			break
		}
	}
	if code := fray.ErrorCode(err); code != "storage_full" {
		t.Errorf("creating encounters in a full database: %v (code %q), want storage_full", err, code)
	}
	if _, err := s.LimitFileSize(1 << 40); err != nil {
		t.Fatal(err)
	}
	ev := fray.EventRecord{Seq: rev + 1, Type: "pad", Data: []byte(data), Time: now}
	if got, err := s.AppendEvents(ctx, enc.ID, rev, []fray.EventRecord{ev}); err != nil || got != rev+1 {
		t.Errorf("an append with room again: %d, %v", got, err)
	}
}
