package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fray/sqlite"
)

// serveOnce runs fray serve with a context already done: a server that
// starts stops at once and exits 0, so a refusal to start is told from a
// start without waiting for anything.
func serveOnce(t *testing.T, db string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := MainContext(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db}, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String() + stderr.String()
}

// TestFailServeReadOnly: fray serve refuses to start on a database file
// it cannot write, with exit 1 and a message naming the file and what to
// do, instead of serving and answering every write with a 500. The file
// is made read-only for real: mode 0444, and, as root (whom the mode does
// not stop), the immutable attribute too.
func TestFailServeReadOnly(t *testing.T) {
	db := filepath.Join(t.TempDir(), "fray.db")
	if code, out := serveOnce(t, db); code != 0 {
		t.Fatalf("the first run: exit %d:\n%s", code, out)
	}
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chattr", "+i", db).CombinedOutput(); err != nil {
			t.Skipf("running as root, whom mode 0444 does not stop, and chattr +i %s failed: %v %s (TestFailServeUnwritable still covers the refusal)", db, err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", db).Run() })
	}
	code, out := serveOnce(t, db)
	if code != 1 || !strings.Contains(out, db+" must be writable") || !strings.Contains(out, "--db") || strings.Contains(out, "open http") {
		t.Fatalf("serve on a read-only database: exit %d, want 1 with a message naming %s:\n%s", code, db, out)
	}
}

// TestFailServeUnwritable: a database that cannot be created (its folder is
// a file) is refused the same way; this holds whoever runs the test.
func TestFailServeUnwritable(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(notDir, "fray.db")
	if _, err := sqlite.Open(db); err == nil {
		t.Fatal("Open made a database in a file")
	}
	code, out := serveOnce(t, db)
	if code != 1 || !strings.Contains(out, db+" must be writable") {
		t.Fatalf("serve on %s: exit %d, want 1 with a message naming it:\n%s", db, code, out)
	}
}
