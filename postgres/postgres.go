// Package postgres keeps fray's encounters in a PostgreSQL database: the
// fray.Store that `fray serve --db postgres://…` uses, so that several
// servers can share one database. It uses github.com/jackc/pgx/v5 and its
// connection pool.
//
// The store holds no state of its own: every check that decides a write
// is made by the database, in the transaction that writes. An append
// updates its encounter's revision only where it still is the revision
// the caller expected, which locks the encounter's row until the append
// commits, and its events' (encounter, seq) is the events table's primary
// key; so two servers racing at one revision can never both append.
//
// Every append also notifies, in its transaction, the PostgreSQL channel
// that Store.Notify listens on (fray.Notifier), with only the encounter's
// id and its new revision: a server learns of the commands another one
// accepted and reads their events from the database.
//
// The schema is created and updated by the numbered migrations embedded
// from migrations/*.sql, applied in one transaction under an advisory
// lock, so servers starting together on a new database do not race; the
// schema_version table records each one applied.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"fray"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migrateLock is the key of the advisory lock that migrations hold for
// their transaction ("frayMigr" in ASCII).
const migrateLock int64 = 0x667261794d696772

// Store is a fray.Store in a PostgreSQL database. Open it with Open.
type Store struct {
	url     string // redacted: no password
	pool    *pgxpool.Pool
	connCfg *pgx.ConnConfig // for the listening connections, apart from the pool
	closed  atomic.Bool

	mu        sync.Mutex      // orders Notify with Close
	stopping  context.Context // done once Close is called: listeners end
	stop      context.CancelFunc
	listeners sync.WaitGroup

	groups groups // appends waiting for their group commit
}

var _ fray.Store = (*Store)(nil)

// IsURL reports whether s names a PostgreSQL database rather than a file:
// whether it starts with postgres:// or postgresql://.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the PostgreSQL database that rawURL names, such as
// postgres://fray:secret@db.example.org:5432/fray?sslmode=verify-full,
// and brings its schema up to date. The URL takes the parameters of
// libpq's (sslmode, connect_timeout, …) and of pgxpool's (pool_max_conns,
// …). Open refuses a database whose schema is newer than this fray knows,
// and one whose encoding is neither UTF8 nor SQL_ASCII.
func Open(ctx context.Context, rawURL string) (*Store, error) {
	if !IsURL(rawURL) {
		return nil, fray.Errorf(fray.EINVALID, "The database URL must start with postgres:// or postgresql://.")
	}
	shown := Redacted(rawURL)
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, &fray.Error{Code: fray.EINVALID, Message: "The database URL " + shown + " is not one PostgreSQL reads.", Err: err}
	}
	connCfg := cfg.ConnConfig.Copy()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", shown, err)
	}
	if err := checkEncoding(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", shown, err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", shown, err)
	}
	stopping, stop := context.WithCancel(context.Background())
	return &Store{url: shown, pool: pool, connCfg: connCfg, stopping: stopping, stop: stop}, nil
}

// Redacted returns rawURL with its password, if any, replaced by "xxxxx",
// fit for a log.
func Redacted(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(a database URL that does not parse)"
	}
	return u.Redacted()
}

// URL returns the URL of the store's database, without its password.
func (s *Store) URL() string { return s.url }

// checkEncoding refuses a database that would not keep any UTF-8 text
// byte for byte.
func checkEncoding(ctx context.Context, pool *pgxpool.Pool) error {
	var enc string
	if err := pool.QueryRow(ctx, `SELECT current_setting('server_encoding')`).Scan(&enc); err != nil {
		return fmt.Errorf("read the encoding: %w", err)
	}
	if enc != "UTF8" && enc != "SQL_ASCII" {
		return fray.Errorf(fray.EINVALID, "The database's encoding is %s; fray needs UTF8 (CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0).", enc)
	}
	return nil
}

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
// transaction that first takes the advisory lock migrateLock, so that of
// several servers opening a new database one applies them and the others
// wait, then find nothing to do.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	ms, err := migrations()
	if err != nil {
		return fmt.Errorf("read migrations: %w", err)
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return ctxErr(ctx, "migrate", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
		return ctxErr(ctx, "migrate: lock", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version integer PRIMARY KEY,
		applied timestamptz NOT NULL
	)`); err != nil {
		if pgCode(err) == codeReadOnly {
			return fmt.Errorf("create schema_version: the database is read-only (a standby?), and fray must write: %w", err)
		}
		return ctxErr(ctx, "create schema_version", err)
	}
	var cur int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&cur); err != nil {
		return ctxErr(ctx, "read schema version", err)
	}
	if cur > len(ms) {
		return fray.Errorf(fray.EINVALID, "The database's schema version is %d, newer than this fray's %d; upgrade fray.", cur, len(ms))
	}
	for _, m := range ms[cur:] {
		text, err := migrationFS.ReadFile(m.name)
		if err != nil {
			return fmt.Errorf("read migration %s: %w", m.name, err)
		}
		// Without arguments, Exec uses the simple protocol, which runs
		// the several statements of a file.
		if _, err := tx.Exec(ctx, string(text)); err != nil {
			return ctxErr(ctx, "apply migration "+m.name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version, applied) VALUES ($1, now())`, m.version); err != nil {
			return ctxErr(ctx, "record migration "+m.name, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return ctxErr(ctx, "migrate", err)
	}
	return nil
}

func notFound(id string) error {
	return fray.Errorf(fray.ENOTFOUND, "There is no encounter %q.", id)
}

func tokenNotFound() error {
	return fray.Errorf(fray.ENOTFOUND, "The token is not known.")
}

// errClosed is returned by calls made after Close.
var errClosed = errors.New("postgres: the store is closed")

// begin starts a transaction for the write named by action, after
// checking that the store is open and ctx is not done.
func (s *Store) begin(ctx context.Context, action string) (pgx.Tx, error) {
	if s.closed.Load() {
		return nil, fmt.Errorf("%s: %w", action, errClosed)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", action, err)
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, mapErr(ctx, action, err)
	}
	return tx, nil
}

// commit commits tx unless ctx is done, in which case nothing is
// written. Once the commit is sent it is waited for even if ctx ends
// meanwhile, so that a nil error always means a durable write.
func commit(ctx context.Context, tx pgx.Tx, action string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	if err := tx.Commit(context.WithoutCancel(ctx)); err != nil {
		return mapErr(ctx, action, err)
	}
	return nil
}

// rollback ends tx if it is still open; it is deferred after every begin.
func rollback(ctx context.Context, tx pgx.Tx) {
	tx.Rollback(context.WithoutCancel(ctx))
}

// checkOpen returns an error for the read named by action when the store
// is closed.
func (s *Store) checkOpen(action string) error {
	if s.closed.Load() {
		return fmt.Errorf("%s: %w", action, errClosed)
	}
	return nil
}

// CreateEncounter records a new encounter and its tokens in one
// transaction; see fray.Store.
func (s *Store) CreateEncounter(ctx context.Context, enc fray.EncounterRecord, tokens ...fray.Token) error {
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
	const action = "create encounter"
	tx, err := s.begin(ctx, action)
	if err != nil {
		return err
	}
	defer rollback(ctx, tx)
	created := fray.TruncateTime(enc.Created)
	if _, err := tx.Exec(ctx, `INSERT INTO encounters (id, rules, name, seed, created, revision, updated)
		VALUES ($1, $2, $3, $4, $5, 0, $5)`, enc.ID, enc.Rules, enc.Name, int64(enc.Seed), created); err != nil {
		if pgCode(err) == codeUniqueViolation {
			return fray.Errorf(fray.ECONFLICT, "The encounter id %q is already taken.", enc.ID)
		}
		return mapErr(ctx, action, err)
	}
	if err := insertTokens(ctx, tx, tokens); err != nil {
		return err
	}
	return commit(ctx, tx, action)
}

// insertTokens inserts tokens in one statement.
func insertTokens(ctx context.Context, tx pgx.Tx, tokens []fray.Token) error {
	if len(tokens) == 0 {
		return nil
	}
	n := len(tokens)
	hashes, encs, roles, combatants := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	created := make([]time.Time, n)
	for i, t := range tokens {
		hashes[i], encs[i], roles[i], combatants[i] = t.Hash, t.Encounter, t.Role, t.Combatant
		created[i] = fray.TruncateTime(t.Created)
	}
	_, err := tx.Exec(ctx, `INSERT INTO tokens (hash, encounter_id, role, combatant, created)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])`,
		hashes, encs, roles, combatants, created)
	switch pgCode(err) {
	case "":
	case codeUniqueViolation:
		return fray.Errorf(fray.ECONFLICT, "The token is already taken.")
	case codeForeignKeyViolation:
		return notFound(tokens[0].Encounter)
	}
	if err != nil {
		return mapErr(ctx, "create token", err)
	}
	return nil
}

const encounterColumns = `id, rules, name, seed, created, revision, updated`

func scanEncounter(row pgx.Row) (fray.EncounterRecord, error) {
	var e fray.EncounterRecord
	var seed int64
	if err := row.Scan(&e.ID, &e.Rules, &e.Name, &seed, &e.Created, &e.Revision, &e.Updated); err != nil {
		return fray.EncounterRecord{}, err
	}
	e.Seed = uint64(seed)
	e.Created, e.Updated = e.Created.UTC(), e.Updated.UTC()
	return e, nil
}

// Encounter returns the encounter with the given id; see fray.Store.
func (s *Store) Encounter(ctx context.Context, id string) (fray.EncounterRecord, error) {
	const action = "get encounter"
	if err := fray.ValidateID(id); err != nil {
		return fray.EncounterRecord{}, err
	}
	if err := s.checkOpen(action); err != nil {
		return fray.EncounterRecord{}, err
	}
	e, err := scanEncounter(s.pool.QueryRow(ctx, `SELECT `+encounterColumns+` FROM encounters WHERE id = $1`, id))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fray.EncounterRecord{}, notFound(id)
	case err != nil:
		return fray.EncounterRecord{}, mapErr(ctx, action, err)
	}
	return e, nil
}

// Encounters lists the encounters that match f; see fray.Store.
func (s *Store) Encounters(ctx context.Context, f fray.EncounterFilter) ([]fray.EncounterRecord, error) {
	const action = "list encounters"
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkOpen(action); err != nil {
		return nil, err
	}
	out := []fray.EncounterRecord{}
	if f.IDs != nil && len(f.IDs) == 0 {
		return out, nil
	}
	q := `SELECT ` + encounterColumns + ` FROM encounters`
	args := []any{f.EffectiveLimit(), f.Offset}
	if f.IDs != nil {
		q += ` WHERE id = ANY($3::text[])`
		args = append(args, f.IDs)
	}
	q += ` ORDER BY created DESC, id LIMIT $1 OFFSET $2`
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, mapErr(ctx, action, err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEncounter(rows)
		if err != nil {
			return nil, mapErr(ctx, action, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr(ctx, action, err)
	}
	return out, nil
}

// conflictAfter reports an append refused by the events' primary key as
// an ECONFLICT *Error carrying the log's current revision.
func (s *Store) conflictAfter(ctx context.Context, id string, revision int, cause error) (int, error) {
	var cur int
	if err := s.pool.QueryRow(ctx, `SELECT revision FROM encounters WHERE id = $1`, id).Scan(&cur); err != nil {
		return 0, mapErr(ctx, "append events", errors.Join(cause, err))
	}
	return cur, fray.ConflictError(cur, revision)
}

// Events returns the events of a log from a sequence number on; see
// fray.Store.
func (s *Store) Events(ctx context.Context, id string, from, limit int) ([]fray.EventRecord, error) {
	const action = "read events"
	if err := fray.ValidateID(id); err != nil {
		return nil, err
	}
	switch {
	case from < 1:
		return nil, fray.Errorf(fray.EINVALID, "Events are numbered from 1, not %d.", from)
	case limit < 0:
		return nil, fray.Errorf(fray.EINVALID, "The limit %d is negative.", limit)
	}
	if err := s.checkOpen(action); err != nil {
		return nil, err
	}
	// No log is longer than MaxLogEvents, which keeps both in the range
	// of the integer column.
	from = min(from, fray.MaxLogEvents+1)
	if limit == 0 || limit > fray.MaxLogEvents {
		limit = fray.MaxLogEvents
	}
	rows, err := s.pool.Query(ctx, `SELECT seq, type, data, time FROM events
		WHERE encounter_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3`, id, from, limit)
	if err != nil {
		return nil, mapErr(ctx, action, err)
	}
	defer rows.Close()
	out := []fray.EventRecord{}
	for rows.Next() {
		var ev fray.EventRecord
		var data []byte
		if err := rows.Scan(&ev.Seq, &ev.Type, &data, &ev.Time); err != nil {
			return nil, mapErr(ctx, action, err)
		}
		ev.Data, ev.Time = data, ev.Time.UTC()
		out = append(out, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr(ctx, action, err)
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

// CreateToken records a token; see fray.Store. The encounter's row is
// locked while its tokens are counted, so that servers racing to add
// tokens cannot pass MaxTokens together.
func (s *Store) CreateToken(ctx context.Context, tok fray.Token) error {
	if err := tok.Validate(); err != nil {
		return err
	}
	const action = "create token"
	tx, err := s.begin(ctx, action)
	if err != nil {
		return err
	}
	defer rollback(ctx, tx)
	var one int
	err = tx.QueryRow(ctx, `SELECT 1 FROM encounters WHERE id = $1 FOR UPDATE`, tok.Encounter).Scan(&one)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return notFound(tok.Encounter)
	case err != nil:
		return mapErr(ctx, action, err)
	}
	// A statement of its own, so that it sees the tokens committed by
	// whoever held the lock before.
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM tokens WHERE encounter_id = $1`, tok.Encounter).Scan(&n); err != nil {
		return mapErr(ctx, action, err)
	}
	if n >= fray.MaxTokens {
		return fray.Errorf(fray.ETOOLARGE, "The encounter already has %d tokens (MaxTokens).", fray.MaxTokens)
	}
	if err := insertTokens(ctx, tx, []fray.Token{tok}); err != nil {
		return err
	}
	return commit(ctx, tx, action)
}

// Token returns the token with the given hash; see fray.Store.
func (s *Store) Token(ctx context.Context, hash string) (fray.Token, error) {
	const action = "get token"
	if err := fray.ValidateTokenHash(hash); err != nil {
		return fray.Token{}, err
	}
	if err := s.checkOpen(action); err != nil {
		return fray.Token{}, err
	}
	t := fray.Token{Hash: hash}
	err := s.pool.QueryRow(ctx, `SELECT encounter_id, role, combatant, created FROM tokens WHERE hash = $1`, hash).
		Scan(&t.Encounter, &t.Role, &t.Combatant, &t.Created)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fray.Token{}, tokenNotFound()
	case err != nil:
		return fray.Token{}, mapErr(ctx, action, err)
	}
	t.Created = t.Created.UTC()
	return t, nil
}

// Tokens lists the tokens of an encounter; see fray.Store.
func (s *Store) Tokens(ctx context.Context, id string) ([]fray.Token, error) {
	const action = "list tokens"
	if err := fray.ValidateID(id); err != nil {
		return nil, err
	}
	if err := s.checkOpen(action); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT hash, role, combatant, created FROM tokens
		WHERE encounter_id = $1 ORDER BY created, hash`, id)
	if err != nil {
		return nil, mapErr(ctx, action, err)
	}
	defer rows.Close()
	out := []fray.Token{}
	for rows.Next() {
		t := fray.Token{Encounter: id}
		if err := rows.Scan(&t.Hash, &t.Role, &t.Combatant, &t.Created); err != nil {
			return nil, mapErr(ctx, action, err)
		}
		t.Created = t.Created.UTC()
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr(ctx, action, err)
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
func (s *Store) DeleteToken(ctx context.Context, hash string) error {
	const action = "delete token"
	if err := fray.ValidateTokenHash(hash); err != nil {
		return err
	}
	if err := s.checkOpen(action); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM tokens WHERE hash = $1`, hash)
	if err != nil {
		return mapErr(ctx, action, err)
	}
	if tag.RowsAffected() == 0 {
		return tokenNotFound()
	}
	return nil
}

// usageQuery reads the count and the sizes in one statement, so in one
// snapshot: they agree.
const usageQuery = `SELECT count(*),
	coalesce(sum(data_bytes), 0)::bigint,
	(pg_total_relation_size('encounters') + pg_total_relation_size('tokens') +
		pg_total_relation_size('snapshots') + pg_indexes_size('events'))::bigint
	FROM encounters`

// Usage reports the number of encounters and the bytes the store's data
// takes: the event data held, counted as it is appended (PostgreSQL may
// compress it on disk), plus the size on disk of every other table and
// of the events' index; see fray.Store. It counts the encounters, a few
// milliseconds per hundred thousand.
func (s *Store) Usage(ctx context.Context) (encounters int, bytes int64, err error) {
	const action = "usage"
	if err := s.checkOpen(action); err != nil {
		return 0, 0, err
	}
	var data, other int64
	if err := s.pool.QueryRow(ctx, usageQuery).Scan(&encounters, &data, &other); err != nil {
		return 0, 0, mapErr(ctx, action, err)
	}
	return encounters, data + other, nil
}

// Close waits for the calls under way, then closes the store's
// connections, the listening ones of Notify too (their channels are
// closed); see fray.Store.
func (s *Store) Close() error {
	s.mu.Lock()
	done := s.closed.Swap(true)
	s.mu.Unlock()
	if done {
		return nil
	}
	s.stop()
	s.listeners.Wait()
	s.pool.Close()
	return nil
}
