package sqlite_test

import (
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"fray"
	"fray/sqlite"
	"fray/storetest"
)

// open opens a store in a new file under t.TempDir().
func open(t *testing.T) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "fray.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) fray.Store { return open(t) })
}

func TestDurable(t *testing.T) {
	storetest.RunDurable(t, func(t *testing.T) func() fray.Store {
		path := filepath.Join(t.TempDir(), "fray.db")
		return func() fray.Store {
			s, err := sqlite.Open(path)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			return s
		}
	})
}

func TestOpenCreatesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the file exists before Open: %v", err)
	}
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("Open did not create the file: %v", err)
	}
	if got := s.Path(); got != path {
		t.Errorf("Path() = %q, want %q", got, path)
	}
}

func TestPragmas(t *testing.T) {
	s := open(t)
	defer s.Close()
	tests := []struct{ name, want string }{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"foreign_keys", "1"},
		{"busy_timeout", "10000"},
	}
	for _, tt := range tests {
		w, r, err := sqlite.Pragma(s, tt.name)
		if err != nil {
			t.Fatalf("PRAGMA %s: %v", tt.name, err)
		}
		if w != tt.want || r != tt.want {
			t.Errorf("PRAGMA %s = %q on the writer and %q on a reader, want %q", tt.name, w, r, tt.want)
		}
	}
	if _, r, err := sqlite.Pragma(s, "query_only"); err != nil || r != "1" {
		t.Errorf("PRAGMA query_only on a reader = %q, %v; want 1", r, err)
	}
}

func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fray.db")
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Opening again applies nothing twice.
	s, err = sqlite.Open(path)
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	s.Close()

	db, err := sql.Open("sqlite", sqlite.DSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n, v int
	if err := db.QueryRow(`SELECT count(*), max(version) FROM schema_version`).Scan(&n, &v); err != nil {
		t.Fatalf("read schema_version: %v", err)
	}
	if want := sqlite.SchemaVersion(); n != want || v != want || want < 1 {
		t.Errorf("schema_version holds %d rows up to %d, want %d up to %d", n, v, want, want)
	}
	// A database written by a newer fray is refused.
	if _, err := db.Exec(`INSERT INTO schema_version (version, applied) VALUES (?, 0)`, sqlite.SchemaVersion()+1); err != nil {
		t.Fatal(err)
	}
	if s, err := sqlite.Open(path); fray.ErrorCode(err) != fray.EINVALID {
		if err == nil {
			s.Close()
		}
		t.Errorf("Open of a newer schema: %v, want EINVALID", err)
	}
}

func TestOpenBadPath(t *testing.T) {
	for _, path := range []string{"", ":memory:", "file:x.db", "a?b.db", "a#b"} {
		if s, err := sqlite.Open(path); fray.ErrorCode(err) != fray.EINVALID {
			if err == nil {
				s.Close()
			}
			t.Errorf("Open(%q): %v, want EINVALID", path, err)
		}
	}
	if s, err := sqlite.Open(filepath.Join(t.TempDir(), "no", "such", "dir.db")); err == nil {
		s.Close()
		t.Errorf("Open in a missing directory: no error")
	}
}
