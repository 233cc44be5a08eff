package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"fray"
)

// Appends are committed in groups, as the SQLite store commits them. An
// append moves the encounter's revision on only where it still is the
// revision expected, which locks the row until the commit, inserts the
// events only then, and notifies the listeners at the commit. A lone
// append is one statement (appendSQL) in a transaction of its own. The
// appends that wait at one moment go to the database together, as one
// statement (groupSQL; one more for each further append to an encounter
// already in it) in one transaction sent in one round trip, so one
// commit (one WAL flush) acknowledges them all; a refused append inserts
// no row and so needs no savepoint. Under load, the appends that arrive
// while a group is being committed form the next: throughput grows with
// the number of writers instead of being capped at the commits a second
// one connection makes.
//
// One group at a time (maxFlushers): PostgreSQL commits the transactions
// that notify one after another, whoever sends them (the commit holds a
// lock on the notification queue until it is durable), so groups
// committed side by side only wait for each other while each takes fewer
// appends. Measured with three servers on one database (cmd/fray,
// BenchmarkPostgresLoad), one group at a time gave a fifth more
// commands a second than four, with lower latency.
//
// Two appends at one revision of one encounter in one group are ordered
// there: the second sees the first's revision and is refused.

// Limits of group commit.
const (
	maxGroup       = 256  // appends in one group
	maxGroupEvents = 8192 // events; a single larger append is a group of its own
	maxFlushers    = 1    // groups being committed at once, each on a connection of the pool (see above)
	maxRetries     = 3    // tries of a lone append that lost a deadlock, which wrote nothing
)

// appendReq is one AppendEvents call waiting for its group.
type appendReq struct {
	ctx context.Context
	id  string
	rev int
	n   int // events: the revision after is rev + n (fray.ValidateAppend)
	// What the statements write: the last event's time, the bytes of
	// data, and each event's seq, type, data and time.
	at    time.Time
	size  int64
	seqs  []int32
	types []string
	data  [][]byte
	times []time.Time
	done  chan appendRes // buffered: a flusher never blocks on it
}

// args returns the arguments of appendSQL for r.
func (r *appendReq) args() []any {
	return []any{r.id, r.rev, r.rev + r.n, r.at, r.size, notifyChannel, noticePayload(r.id, r.rev+r.n), r.seqs, r.types, r.data, r.times}
}

type appendRes struct {
	revision int
	err      error
}

// groups holds the appends waiting to be committed.
type groups struct {
	mu       sync.Mutex
	waiting  []*appendReq
	flushing int // flushers running, at most maxFlushers

	grouped atomic.Int64 // appends committed in groups of more than one (for the tests)
	groupsN atomic.Int64 // those groups (for the benchmarks)
}

// appendSQL appends a log's events in one statement: $1 the encounter,
// $2 the revision expected, $3 and $4 the last event's seq and time, $5
// the bytes of data, $6 and $7 the notice's channel and payload, $8 to
// $11 the events' seqs, types, data and times. It inserts no row when the
// encounter is at another revision, or unknown.
const appendSQL = `WITH moved AS (
	UPDATE encounters SET revision = $3, updated = $4, data_bytes = data_bytes + $5
	WHERE id = $1 AND revision = $2 RETURNING id
), told AS (
	SELECT pg_notify($6, $7) FROM moved
)
INSERT INTO events (encounter_id, seq, type, data, time)
SELECT moved.id, e.seq, e.type, e.data, e.time
FROM moved CROSS JOIN told CROSS JOIN unnest($8::integer[], $9::text[], $10::bytea[], $11::timestamptz[]) AS e(seq, type, data, time)`

// groupSQL appends the logs of a group in one statement, each encounter
// at most once: $1 the encounters, $2 the revisions expected, $3 and $4
// each last event's seq and time, $5 each one's bytes of data, $6 and $7
// the notices' channel and payloads, $8 to $12 the events' encounters,
// seqs, types, data and times. It first locks the encounters' rows in the
// order of their ids (so that two groups never wait for each other: a
// deadlock), moves on those still at the revision expected, inserts
// their events and notifies for them; it returns the encounters it moved
// on. One statement for the group, not one an append: each statement
// costs the server a plan and a run, which cost more than the rows.
const groupSQL = `WITH req AS (
	SELECT * FROM unnest($1::text[], $2::integer[], $3::integer[], $4::timestamptz[], $5::bigint[], $7::text[])
		AS r(id, rev, last, at, size, notice)
), locked AS (
	SELECT e.id FROM encounters e WHERE e.id = ANY($1::text[]) ORDER BY e.id FOR UPDATE
), moved AS (
	UPDATE encounters e SET revision = r.last, updated = r.at, data_bytes = e.data_bytes + r.size
	FROM req r JOIN locked l ON l.id = r.id
	WHERE e.id = r.id AND e.revision = r.rev RETURNING e.id, r.notice
), ins AS (
	INSERT INTO events (encounter_id, seq, type, data, time)
	SELECT m.id, e.seq, e.type, e.data, e.time
	FROM unnest($8::text[], $9::integer[], $10::text[], $11::bytea[], $12::timestamptz[]) AS e(id, seq, type, data, time)
	JOIN moved m ON m.id = e.id
)
SELECT m.id, (SELECT count(pg_notify($6, n.notice)) FROM moved n) FROM moved m`

// groupArgs returns the arguments of groupSQL for reqs, each to another
// encounter.
func groupArgs(reqs []*appendReq) []any {
	var (
		ids, notices, evIDs, types []string
		revs, lasts, seqs          []int32
		ats, times                 []time.Time
		sizes                      []int64
		data                       [][]byte
	)
	for _, r := range reqs {
		ids, revs, lasts = append(ids, r.id), append(revs, int32(r.rev)), append(lasts, int32(r.rev+r.n))
		ats, sizes, notices = append(ats, r.at), append(sizes, r.size), append(notices, noticePayload(r.id, r.rev+r.n))
		for range r.n {
			evIDs = append(evIDs, r.id)
		}
		seqs, types = append(seqs, r.seqs...), append(types, r.types...)
		data, times = append(data, r.data...), append(times, r.times...)
	}
	return []any{ids, revs, lasts, ats, sizes, notifyChannel, notices, evIDs, seqs, types, data, times}
}

// AppendEvents appends events at the expected revision; see fray.Store.
// It returns once the group commit that took it is durable; see above.
func (s *Store) AppendEvents(ctx context.Context, id string, revision int, evs []fray.EventRecord) (int, error) {
	if err := fray.ValidateAppend(id, revision, evs); err != nil {
		return 0, err
	}
	const action = "append events"
	if err := s.checkOpen(action); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("%s: %w", action, err)
	}
	req := newAppendReq(ctx, id, revision, evs)
	g := &s.groups
	g.mu.Lock()
	g.waiting = append(g.waiting, req)
	flush := g.flushing < maxFlushers
	if flush {
		g.flushing++
	}
	g.mu.Unlock()
	if flush {
		s.flush(req)
	}
	// Once handed over, the append is waited for even if ctx is done: its
	// group either leaves it out (ctx was done before the group began) or
	// commits it, and the caller must learn which.
	res := <-req.done
	return res.revision, res.err
}

// newAppendReq makes the append of evs to id at revision.
func newAppendReq(ctx context.Context, id string, revision int, evs []fray.EventRecord) *appendReq {
	r := &appendReq{ctx: ctx, id: id, rev: revision, n: len(evs), done: make(chan appendRes, 1),
		at:   fray.TruncateTime(evs[len(evs)-1].Time),
		seqs: make([]int32, len(evs)), types: make([]string, len(evs)), data: make([][]byte, len(evs)), times: make([]time.Time, len(evs))}
	for i, ev := range evs {
		r.size += int64(len(ev.Data))
		r.seqs[i], r.types[i], r.data[i], r.times[i] = int32(ev.Seq), ev.Type, ev.Data, fray.TruncateTime(ev.Time)
	}
	return r
}

// flush commits the waiting appends, a group at a time, until own (the
// caller's append) is answered; then, if appends still wait, it hands its
// place as a flusher to a goroutine, so that no caller waits for others'
// groups after its own.
func (s *Store) flush(own *appendReq) {
	g := &s.groups
	for {
		g.mu.Lock()
		if len(g.waiting) == 0 {
			g.flushing--
			g.mu.Unlock()
			return
		}
		if own != nil && len(own.done) > 0 {
			g.mu.Unlock()
			go s.flush(nil)
			return
		}
		n, events := 0, 0
		for n < len(g.waiting) && n < maxGroup && (n == 0 || events+g.waiting[n].n <= maxGroupEvents) {
			events += g.waiting[n].n
			n++
		}
		group := g.waiting[:n:n]
		g.waiting = g.waiting[n:]
		g.mu.Unlock()
		s.commitGroup(group)
	}
}

// commitGroup commits a group of appends and answers each.
func (s *Store) commitGroup(group []*appendReq) {
	ctx := context.Background() // one caller giving up must not abort the others
	var live []*appendReq
	for _, req := range group {
		if err := req.ctx.Err(); err != nil {
			req.done <- appendRes{err: fmt.Errorf("append events: %w", err)}
			continue
		}
		live = append(live, req)
	}
	switch len(live) {
	case 0:
		return
	case 1:
		rows, err := s.alone(ctx, live[0])
		s.answer(ctx, live[0], rows, err)
		return
	}
	// The group locks its encounters' rows in the order of their ids
	// (groupSQL), so that two groups never wait for each other (a
	// deadlock); appends to one encounter keep the order they came in.
	rows, err := s.inGroup(ctx, live)
	if err != nil {
		// The group failed as a whole (a key the row lock should have
		// kept free, a lost connection): nothing of it is written, so
		// each append goes alone and gets its own answer.
		for _, req := range live {
			rows, err := s.alone(ctx, req)
			s.answer(ctx, req, rows, err)
		}
		return
	}
	s.groups.grouped.Add(int64(len(live)))
	s.groups.groupsN.Add(1)
	for i, req := range live {
		s.answer(ctx, req, rows[i], nil)
	}
}

// alone runs one append as a statement of its own and returns the rows
// it inserted. A statement chosen as a deadlock's victim (or failing to
// serialise) wrote nothing, and is tried again, up to maxRetries times.
func (s *Store) alone(ctx context.Context, req *appendReq) (int64, error) {
	for try := 1; ; try++ {
		tag, err := s.pool.Exec(ctx, appendSQL, req.args()...)
		if code := pgCode(err); try < maxRetries && (code == codeDeadlock || code == codeSerialization) {
			continue
		}
		return tag.RowsAffected(), err
	}
}

// inGroup runs the appends in one transaction and returns the rows each
// inserted, or an error when the transaction did not commit. The appends
// to one encounter go to successive statements (groupSQL), the k-th
// append of each to the k-th statement, so that each sees the revision
// the one before left. The batch is sent with one Sync, so the server
// runs it as one implicit transaction, committed at the Sync or rolled
// back whole at the first error: one round trip, where BEGIN, the batch
// and COMMIT take three.
func (s *Store) inGroup(ctx context.Context, live []*appendReq) ([]int64, error) {
	var rounds [][]*appendReq
	seen := make(map[string]int, len(live))
	for _, req := range live {
		k := seen[req.id]
		seen[req.id]++
		if k == len(rounds) {
			rounds = append(rounds, nil)
		}
		rounds[k] = append(rounds[k], req)
	}
	b := &pgx.Batch{}
	for _, r := range rounds {
		b.Queue(groupSQL, groupArgs(r)...)
	}
	br := s.pool.SendBatch(ctx, b)
	moved := make(map[*appendReq]bool, len(live))
	for _, r := range rounds {
		rows, err := br.Query()
		if err != nil {
			br.Close()
			return nil, err
		}
		byID := make(map[string]*appendReq, len(r))
		for _, req := range r {
			byID[req.id] = req
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id, nil); err != nil { // the second column is the notices' count
				rows.Close()
				br.Close()
				return nil, err
			}
			moved[byID[id]] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			br.Close()
			return nil, err
		}
	}
	// Close reads on to the server's answer to the Sync: the commit.
	if err := br.Close(); err != nil {
		return nil, err
	}
	out := make([]int64, len(live))
	for i, req := range live {
		if moved[req] {
			out[i] = int64(req.n)
		}
	}
	return out, nil
}

// answer tells req what its statement did: the new revision when it
// inserted its events, else why not.
func (s *Store) answer(ctx context.Context, req *appendReq, rows int64, err error) {
	switch {
	case err != nil && pgCode(err) == codeUniqueViolation:
		// The revision and the log disagree, which the row lock should
		// prevent: the key refuses the events all the same.
		rev, err := s.conflictAfter(ctx, req.id, req.rev, err)
		req.done <- appendRes{revision: rev, err: err}
	case err != nil:
		req.done <- appendRes{err: mapErr(req.ctx, "append events", err)}
	case rows > 0:
		req.done <- appendRes{revision: req.rev + req.n}
	default:
		var cur int
		err := s.pool.QueryRow(ctx, `SELECT revision FROM encounters WHERE id = $1`, req.id).Scan(&cur)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			req.done <- appendRes{err: notFound(req.id)}
		case err != nil:
			req.done <- appendRes{err: mapErr(req.ctx, "append events", err)}
		default:
			req.done <- appendRes{revision: cur, err: fray.ConflictError(cur, req.rev)}
		}
	}
}
