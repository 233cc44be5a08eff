package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	sqlite3 "modernc.org/sqlite/lib"

	"fray"
)

// How the store fails when its file or its disk will not take a write: at
// Open, a file this process may not write is refused (ErrNotWritable)
// rather than opened to fail every write later; afterwards a write that
// finds no room left is a *fray.Error with the code storage_full, which
// web answers 507, rather than an internal error.

// ErrNotWritable is wrapped by the error Open returns when this process
// cannot write the database: the file, or the folder that must hold its
// -wal and -shm files beside it, is read-only to it (or cannot be
// created there).
var ErrNotWritable = errors.New("the database cannot be written")

// openWriter brings the schema of the database on db, the write
// connection, up to date, then proves that the connection can write: a
// write that changes no row still needs the write lock and a writable
// file, and it is rolled back, so it leaves nothing behind.
func openWriter(ctx context.Context, db *sql.DB) error {
	if err := migrate(ctx, db); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write probe: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET applied = applied WHERE version < 0`); err != nil {
		return fmt.Errorf("write probe: %w", err)
	}
	return nil
}

// openError wraps an error met opening the database at path, with
// ErrNotWritable when SQLite could not write or create the file.
func openError(path string, err error) error {
	switch sqliteCode(err) & 0xff {
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN:
		return fmt.Errorf("open %s: %w: %w", path, ErrNotWritable, err)
	}
	return fmt.Errorf("open %s: %w", path, storageFull(path, err))
}

// storageFull returns err, from a write to the database at path, as a
// storage_full *fray.Error when it says the disk (or the file's size
// limit, see LimitFileSize) left no room: SQLITE_FULL, which SQLite
// reports when a write meets ENOSPC, or an I/O error, which SQLite also
// reports for ENOSPC outside a plain write (an fsync, the -shm file
// growing), when the database's folder has no room left. Refusals, which
// are *fray.Error already, and other errors pass unchanged.
func storageFull(path string, err error) error {
	if err == nil || fray.ErrorCode(err) != fray.EINTERNAL {
		return err
	}
	code := sqliteCode(err) & 0xff
	if code != sqlite3.SQLITE_FULL && !errors.Is(err, syscall.ENOSPC) && (code != sqlite3.SQLITE_IOERR || !noSpace(filepath.Dir(path))) {
		return err
	}
	return &fray.Error{Code: fray.ESTORAGEFULL, Message: "The server's disk is full (or its database reached its size limit): nothing was written.", Err: err}
}

// full is storageFull for the store's file.
func (s *Store) full(err error) error { return storageFull(s.path, err) }

// noSpace reports whether the folder dir has no room left for a small
// file, which the driver's I/O errors cannot say (they carry no errno).
func noSpace(dir string) bool {
	f, err := os.CreateTemp(dir, ".fray-space-*")
	if err != nil {
		return errors.Is(err, syscall.ENOSPC)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	_, err = f.Write(make([]byte, 64<<10))
	return errors.Is(err, syscall.ENOSPC)
}

// LimitFileSize caps the database file at about bytes and returns the
// cap set: SQLite's max_page_count on the write connection, which cannot
// be set below the file's current size (0 caps it there). A write that
// needs the file to grow past it then fails as on a full disk, with a
// storage_full *fray.Error, and writes nothing. The cap lasts as long as
// the write connection, the life of the store.
func (s *Store) LimitFileSize(bytes int64) (int64, error) {
	ctx := context.Background()
	var size int64
	if err := s.w.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&size); err != nil {
		return 0, fmt.Errorf("limit the file size: %w", err)
	}
	var pages int64
	if err := s.w.QueryRowContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, max(1, bytes/size))).Scan(&pages); err != nil {
		return 0, fmt.Errorf("limit the file size: %w", err)
	}
	return pages * size, nil
}
