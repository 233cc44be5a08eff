package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"fray"
)

// Appends are committed in groups. Every AppendEvents call hands its events
// to the store's writer goroutine and waits for the answer. The writer takes
// all the appends that are waiting, up to a limit, and writes them in one
// transaction, each inside its own savepoint: an append that is refused
// (a stale revision, an unknown encounter) is rolled back to its savepoint
// and writes nothing, while the others go on. One commit, and so one fsync,
// then acknowledges the whole group. A lone append is written at once; under
// load, the appends that arrive while one group is being made durable form
// the next group, so throughput grows with the number of writers instead of
// being capped at the disk's fsyncs per second.
//
// The writer handles one append at a time, in the order they arrive, so two
// appends racing at the same revision are serialised: the second one sees
// the first one's events (even within a group) and gets ECONFLICT.

// Limits of one group commit.
const (
	maxGroup       = 256  // appends
	maxGroupEvents = 8192 // events; a single larger append is a group of its own
)

// appendReq is one AppendEvents call waiting for the writer.
type appendReq struct {
	ctx      context.Context
	id       string
	revision int
	evs      []fray.EventRecord
	done     chan appendRes // buffered: the writer never blocks on it
}

type appendRes struct {
	revision int
	err      error
}

// AppendEvents appends events at the expected revision; see fray.Store.
// The append is committed with the others waiting at the same moment, in
// one transaction on the store's write connection; it returns once that
// transaction is durable.
func (s *Store) AppendEvents(ctx context.Context, id string, revision int, evs []fray.EventRecord) (int, error) {
	if err := fray.ValidateAppend(id, revision, evs); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("append events: %w", err)
	}
	req := &appendReq{ctx: ctx, id: id, revision: revision, evs: evs, done: make(chan appendRes, 1)}
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return 0, fmt.Errorf("append events: %w", errClosed)
	}
	s.reqs <- req // the writer drains reqs until Close closes it
	s.mu.RUnlock()
	// Once handed over, the append is waited for even if ctx is done: the
	// writer either leaves it out (ctx was done before its group began)
	// or commits it, and the caller must learn which.
	res := <-req.done
	return res.revision, s.full(res.err)
}

// writer commits the appends handed over on s.reqs, in groups, until the
// channel is closed and drained.
func (s *Store) writer() {
	defer close(s.writerDone)
	var group []*appendReq
	for req := range s.reqs {
		group = append(group[:0], req)
		n := len(req.evs)
	more:
		for len(group) < maxGroup && n < maxGroupEvents {
			select {
			case r, ok := <-s.reqs:
				if !ok {
					break more
				}
				group = append(group, r)
				n += len(r.evs)
			default:
				break more
			}
		}
		s.commitGroup(group)
		clear(group) // drop the references to the events
	}
}

// commitGroup writes a group of appends in one transaction and answers
// each of them.
func (s *Store) commitGroup(group []*appendReq) {
	res := make([]appendRes, len(group))
	err := s.inTx(func(tx *sql.Tx) error {
		for i, req := range group {
			if err := req.ctx.Err(); err != nil {
				res[i].err = fmt.Errorf("append events: %w", err)
				continue
			}
			res[i] = s.appendOne(tx, req)
		}
		return nil
	})
	for i, req := range group {
		if err != nil && res[i].err == nil {
			// The transaction failed: nothing of the group is written.
			// Refusals stand; they wrote nothing anyway.
			res[i] = appendRes{err: fmt.Errorf("append events: %w", err)}
		}
		req.done <- res[i]
	}
}

// inTx runs fn in a transaction on the write connection and commits it.
func (s *Store) inTx(fn func(tx *sql.Tx) error) error {
	ctx := context.Background() // one caller giving up must not abort the others
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// appendOne writes one append inside the group's transaction, in a
// savepoint that is rolled back if the append is refused or fails.
func (s *Store) appendOne(tx *sql.Tx, req *appendReq) appendRes {
	ctx := context.Background()
	if _, err := tx.ExecContext(ctx, `SAVEPOINT append`); err != nil {
		return appendRes{err: fmt.Errorf("append events: %w", err)}
	}
	res := s.appendRows(tx, req)
	if res.err != nil {
		if _, err := tx.ExecContext(ctx, `ROLLBACK TO append`); err != nil {
			res.err = errors.Join(res.err, fmt.Errorf("roll back: %w", err))
		}
	}
	if _, err := tx.ExecContext(ctx, `RELEASE append`); err != nil && res.err == nil {
		res = appendRes{err: fmt.Errorf("append events: %w", err)}
	}
	return res
}

func (s *Store) appendRows(tx *sql.Tx, req *appendReq) appendRes {
	ctx := context.Background()
	var cur int
	err := tx.StmtContext(ctx, s.stmtRevision).QueryRowContext(ctx, req.id).Scan(&cur)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return appendRes{err: notFound(req.id)}
	case err != nil:
		return appendRes{err: fmt.Errorf("append events: %w", err)}
	case cur != req.revision:
		return appendRes{revision: cur, err: fray.ConflictError(cur, req.revision)}
	}
	insert := tx.StmtContext(ctx, s.stmtInsert)
	for _, ev := range req.evs {
		if _, err := insert.ExecContext(ctx, req.id, ev.Seq, ev.Type, []byte(ev.Data), micros(ev.Time)); err != nil {
			return appendRes{err: fmt.Errorf("append events: %w", err)}
		}
	}
	last := req.evs[len(req.evs)-1]
	if _, err := tx.StmtContext(ctx, s.stmtUpdate).ExecContext(ctx, last.Seq, micros(last.Time), req.id); err != nil {
		return appendRes{err: fmt.Errorf("append events: %w", err)}
	}
	return appendRes{revision: last.Seq}
}

// prepare prepares the statements the writer uses on every append.
func (s *Store) prepare() error {
	var err error
	ctx := context.Background()
	if s.stmtRevision, err = s.w.PrepareContext(ctx, `SELECT revision FROM encounters WHERE id = ?`); err != nil {
		return err
	}
	if s.stmtInsert, err = s.w.PrepareContext(ctx, `INSERT INTO events (encounter_id, seq, type, data, time) VALUES (?, ?, ?, ?, ?)`); err != nil {
		return err
	}
	s.stmtUpdate, err = s.w.PrepareContext(ctx, `UPDATE encounters SET revision = ?, updated = ? WHERE id = ?`)
	return err
}
