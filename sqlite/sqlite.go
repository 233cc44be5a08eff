// Package sqlite keeps fray's encounters in one SQLite file: the
// fray.Store that `fray serve` uses by default. It uses modernc.org/sqlite,
// a translation of SQLite to pure Go, so fray builds without cgo.
//
// The database runs in WAL mode with synchronous=FULL, so that an append
// that returned is on disk. All writes go through one connection, which
// serialises racing appends; appends that arrive together are committed
// together, in one transaction and one fsync (see append.go). Reads use a
// pool of read-only connections, which WAL lets run beside the writer. The schema is created and updated
// by the numbered migrations embedded from migrations/*.sql.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"fray"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// pragmas are set on every connection, busy_timeout first so that none of
// the others fails at once on a locked database (the driver runs
// busy_timeout first whatever the order here).
//
// synchronous=FULL makes SQLite fsync the WAL at every commit, so an
// acknowledged append survives a power cut or an OS crash, not only the
// process being killed. It costs one fsync per transaction; NORMAL would
// be several times faster in WAL mode but may lose the last commits on
// power loss, which would break fray's promise that an acknowledged
// command is kept.
var pragmas = []string{
	"busy_timeout(10000)",
	"journal_mode(WAL)",
	"foreign_keys(1)",
	"synchronous(FULL)",
}

// Store is a fray.Store in one SQLite file. Open it with Open.
type Store struct {
	path string
	w    *sql.DB // one connection: every write goes through it
	r    *sql.DB // a pool of read-only connections

	// The writer goroutine commits appends in groups (see append.go).
	stmtRevision *sql.Stmt
	stmtInsert   *sql.Stmt
	stmtUpdate   *sql.Stmt
	reqs         chan *appendReq
	writerDone   chan struct{}

	mu     sync.RWMutex // guards closed and sending on reqs
	closed bool
}

var _ fray.Store = (*Store)(nil)

// DSN returns the data source name that opens the file at path with the
// store's pragmas, for database/sql with the driver "sqlite". Writers
// should add "&_txlock=immediate" so that a transaction takes the write
// lock when it begins rather than failing to upgrade to it later.
func DSN(path string) string {
	q := make([]string, len(pragmas))
	for i, p := range pragmas {
		q[i] = "_pragma=" + p
	}
	return path + "?" + strings.Join(q, "&")
}

// Open opens the store in the SQLite file at path, creating the file if
// it does not exist (its directory must), and brings its schema up to
// date. It refuses a file whose schema is newer than this fray knows, and
// one it cannot write, with an error that wraps ErrNotWritable.
func Open(path string) (*Store, error) {
	if path == "" || strings.ContainsAny(path, "?#") || strings.HasPrefix(path, "file:") || path == ":memory:" {
		return nil, fray.Errorf(fray.EINVALID, "The database path %q must name a file, without '?' or '#'.", path)
	}
	w, err := sql.Open("sqlite", DSN(path)+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := openWriter(context.Background(), w); err != nil {
		w.Close()
		return nil, openError(path, err)
	}
	r, err := sql.Open("sqlite", DSN(path)+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	s := &Store{path: path, w: w, r: r, reqs: make(chan *appendReq, maxGroup), writerDone: make(chan struct{})}
	if err := s.prepare(); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	go s.writer()
	return s, nil
}

// Path returns the path of the store's database file.
func (s *Store) Path() string { return s.path }

// migration is one numbered file of migrations/.
type migration struct {
	version int
	name    string
}

// migrations lists the embedded migrations in order of version. Their
// names are NNN_words.sql, numbered from 1 with no gaps.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 {
			return nil, fmt.Errorf("migration %s is not named NNN_words.sql", base)
		}
		ms = append(ms, migration{v, name})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s is numbered %d; expected %d", m.name, m.version, i+1)
		}
	}
	return ms, nil
}

// SchemaVersion is the schema version this package writes: the number of
// its last migration.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// migrate applies the migrations the database lacks, all in one
// transaction, recording each in the schema_version table.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version INTEGER PRIMARY KEY,
		applied INTEGER NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("create schema_version: %w", err)
	}
	var cur int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&cur); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if cur > len(ms) {
		return fray.Errorf(fray.EINVALID, "The database's schema version is %d, newer than this fray's %d; upgrade fray.", cur, len(ms))
	}
	for _, m := range ms[cur:] {
		text, err := migrationFS.ReadFile(m.name)
		if err != nil {
			return fmt.Errorf("read migration %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, string(text)); err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, applied) VALUES (?, ?)`,
			m.version, time.Now().UnixMicro()); err != nil {
			return fmt.Errorf("record migration %s: %w", m.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// micros and fromMicros convert times to and from what the tables hold.
func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// sqliteCode returns the extended SQLite result code of err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()
	}
	return 0
}

func isTaken(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || c == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}

func notFound(id string) error {
	return fray.Errorf(fray.ENOTFOUND, "There is no encounter %q.", id)
}

func tokenNotFound() error {
	return fray.Errorf(fray.ENOTFOUND, "The token is not known.")
}

// CreateEncounter records a new encounter and its tokens in one
// transaction; see fray.Store.
func (s *Store) CreateEncounter(ctx context.Context, enc fray.EncounterRecord, tokens ...fray.Token) (err error) {
	defer func() { err = s.full(err) }()
	if err := enc.Validate(); err != nil {
		return err
	}
	if len(tokens) > fray.MaxTokens {
		return fray.Errorf(fray.ETOOLARGE, "%d tokens are more than one encounter may have (MaxTokens is %d).", len(tokens), fray.MaxTokens)
	}
	for _, t := range tokens {
		if err := t.Validate(); err != nil {
			return err
		}
		if t.Encounter != enc.ID {
			return fray.Errorf(fray.EINVALID, "A token for encounter %q cannot be created with encounter %q.", t.Encounter, enc.ID)
		}
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("create encounter: %w", err)
	}
	defer tx.Rollback()
	created := micros(enc.Created)
	if _, err := tx.ExecContext(ctx, `INSERT INTO encounters (id, rules, name, seed, created, revision, updated)
		VALUES (?, ?, ?, ?, ?, 0, ?)`, enc.ID, enc.Rules, enc.Name, int64(enc.Seed), created, created); err != nil {
		if isTaken(err) {
			return fray.Errorf(fray.ECONFLICT, "The encounter id %q is already taken.", enc.ID)
		}
		return fmt.Errorf("create encounter: %w", err)
	}
	for _, t := range tokens {
		if err := insertToken(ctx, tx, t); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("create encounter: %w", err)
	}
	return nil
}

func insertToken(ctx context.Context, tx *sql.Tx, t fray.Token) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, encounter_id, role, combatant, created) VALUES (?, ?, ?, ?, ?)`,
		t.Hash, t.Encounter, t.Role, t.Combatant, micros(t.Created)); err != nil {
		if isTaken(err) {
			return fray.Errorf(fray.ECONFLICT, "The token is already taken.")
		}
		return fmt.Errorf("create token: %w", err)
	}
	return nil
}

const encounterColumns = `id, rules, name, seed, created, revision, updated`

type scanner interface{ Scan(dest ...any) error }

func scanEncounter(row scanner) (fray.EncounterRecord, error) {
	var e fray.EncounterRecord
	var seed, created, updated int64
	if err := row.Scan(&e.ID, &e.Rules, &e.Name, &seed, &created, &e.Revision, &updated); err != nil {
		return fray.EncounterRecord{}, err
	}
	e.Seed = uint64(seed)
	e.Created, e.Updated = fromMicros(created), fromMicros(updated)
	return e, nil
}

// Encounter returns the encounter with the given id; see fray.Store.
func (s *Store) Encounter(ctx context.Context, id string) (fray.EncounterRecord, error) {
	if err := fray.ValidateID(id); err != nil {
		return fray.EncounterRecord{}, err
	}
	e, err := scanEncounter(s.r.QueryRowContext(ctx, `SELECT `+encounterColumns+` FROM encounters WHERE id = ?`, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fray.EncounterRecord{}, notFound(id)
	case err != nil:
		return fray.EncounterRecord{}, fmt.Errorf("get encounter: %w", err)
	}
	return e, nil
}

// Encounters lists the encounters that match f; see fray.Store.
func (s *Store) Encounters(ctx context.Context, f fray.EncounterFilter) ([]fray.EncounterRecord, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if s.isClosed() {
		return nil, fmt.Errorf("list encounters: %w", errClosed)
	}
	out := []fray.EncounterRecord{}
	if f.IDs != nil && len(f.IDs) == 0 {
		return out, nil
	}
	q := `SELECT ` + encounterColumns + ` FROM encounters`
	var args []any
	if f.IDs != nil {
		q += ` WHERE id IN (SELECT value FROM json_each(?))`
		args = append(args, jsonStrings(f.IDs))
	}
	q += ` ORDER BY created DESC, id LIMIT ? OFFSET ?`
	args = append(args, f.EffectiveLimit(), f.Offset)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list encounters: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEncounter(rows)
		if err != nil {
			return nil, fmt.Errorf("list encounters: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list encounters: %w", err)
	}
	return out, nil
}

// jsonStrings encodes ids, which ValidateID has checked hold no character
// JSON escapes, as a JSON array.
func jsonStrings(ids []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(id))
	}
	b.WriteByte(']')
	return b.String()
}

// errClosed is returned by calls made after Close that would not
// otherwise notice it.
var errClosed = errors.New("sqlite: the store is closed")

// Events returns the events of a log from a sequence number on; see
// fray.Store.
func (s *Store) Events(ctx context.Context, id string, from, limit int) ([]fray.EventRecord, error) {
	if err := fray.ValidateID(id); err != nil {
		return nil, err
	}
	switch {
	case from < 1:
		return nil, fray.Errorf(fray.EINVALID, "Events are numbered from 1, not %d.", from)
	case limit < 0:
		return nil, fray.Errorf(fray.EINVALID, "The limit %d is negative.", limit)
	case limit == 0:
		limit = -1 // SQLite: no limit
	}
	rows, err := s.r.QueryContext(ctx, `SELECT seq, type, data, time FROM events
		WHERE encounter_id = ? AND seq >= ? ORDER BY seq LIMIT ?`, id, from, limit)
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	defer rows.Close()
	out := []fray.EventRecord{}
	for rows.Next() {
		var ev fray.EventRecord
		var data []byte
		var t int64
		if err := rows.Scan(&ev.Seq, &ev.Type, &data, &t); err != nil {
			return nil, fmt.Errorf("read events: %w", err)
		}
		ev.Data, ev.Time = data, fromMicros(t)
		out = append(out, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	if len(out) == 0 {
		// An empty answer may mean an unknown encounter. Encounters are
		// never deleted, so checking after the read is safe.
		if _, err := s.Encounter(ctx, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CreateToken records a token; see fray.Store.
func (s *Store) CreateToken(ctx context.Context, tok fray.Token) (err error) {
	defer func() { err = s.full(err) }()
	if err := tok.Validate(); err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("create token: %w", err)
	}
	defer tx.Rollback()
	var n int
	err = tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM tokens WHERE encounter_id = ?1) FROM encounters WHERE id = ?1`,
		tok.Encounter).Scan(&n)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return notFound(tok.Encounter)
	case err != nil:
		return fmt.Errorf("create token: %w", err)
	case n >= fray.MaxTokens:
		return fray.Errorf(fray.ETOOLARGE, "The encounter already has %d tokens (MaxTokens).", fray.MaxTokens)
	}
	if err := insertToken(ctx, tx, tok); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("create token: %w", err)
	}
	return nil
}

// Token returns the token with the given hash; see fray.Store.
func (s *Store) Token(ctx context.Context, hash string) (fray.Token, error) {
	if err := fray.ValidateTokenHash(hash); err != nil {
		return fray.Token{}, err
	}
	t := fray.Token{Hash: hash}
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT encounter_id, role, combatant, created FROM tokens WHERE hash = ?`, hash).
		Scan(&t.Encounter, &t.Role, &t.Combatant, &created)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fray.Token{}, tokenNotFound()
	case err != nil:
		return fray.Token{}, fmt.Errorf("get token: %w", err)
	}
	t.Created = fromMicros(created)
	return t, nil
}

// Tokens lists the tokens of an encounter in the order they were
// created; see fray.Store. The index tokens_by_encounter finds them; an
// encounter has at most fray.MaxTokens, so sorting them needs no index of
// its own.
func (s *Store) Tokens(ctx context.Context, id string) ([]fray.Token, error) {
	if err := fray.ValidateID(id); err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT hash, role, combatant, created FROM tokens
		WHERE encounter_id = ? ORDER BY created, hash`, id)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	defer rows.Close()
	out := []fray.Token{}
	for rows.Next() {
		t := fray.Token{Encounter: id}
		var created int64
		if err := rows.Scan(&t.Hash, &t.Role, &t.Combatant, &created); err != nil {
			return nil, fmt.Errorf("list tokens: %w", err)
		}
		t.Created = fromMicros(created)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	if len(out) == 0 {
		// An empty answer may mean an unknown encounter. Encounters are
		// never deleted, so checking after the read is safe.
		if _, err := s.Encounter(ctx, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DeleteToken removes the token with the given hash; see fray.Store.
func (s *Store) DeleteToken(ctx context.Context, hash string) (err error) {
	defer func() { err = s.full(err) }()
	if err := fray.ValidateTokenHash(hash); err != nil {
		return err
	}
	res, err := s.w.ExecContext(ctx, `DELETE FROM tokens WHERE hash = ?`, hash)
	if err != nil {
		return fmt.Errorf("delete token: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete token: %w", err)
	} else if n == 0 {
		return tokenNotFound()
	}
	return nil
}

func (s *Store) isClosed() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.closed
}

// Close waits for the appends and queries under way and closes the
// database; see fray.Store.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.reqs)
	s.mu.Unlock()
	<-s.writerDone
	return s.closeDBs()
}

func (s *Store) closeDBs() error {
	var errs []error
	for _, st := range []*sql.Stmt{s.stmtRevision, s.stmtInsert, s.stmtUpdate} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	errs = append(errs, s.w.Close(), s.r.Close())
	return errors.Join(errs...)
}
