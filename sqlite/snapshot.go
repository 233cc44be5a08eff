package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"fray"
)

// PutSnapshot keeps the newest snapshot of an encounter, in one
// statement that replaces a snapshot only with a later one; see
// fray.Store.
func (s *Store) PutSnapshot(ctx context.Context, id string, snap fray.SnapshotRecord) (err error) {
	defer func() { err = s.full(err) }()
	if err := fray.ValidateID(id); err != nil {
		return err
	}
	if err := snap.Validate(); err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("put snapshot: %w", err)
	}
	defer tx.Rollback()
	var rev int
	err = tx.QueryRowContext(ctx, `SELECT revision FROM encounters WHERE id = ?`, id).Scan(&rev)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return notFound(id)
	case err != nil:
		return fmt.Errorf("put snapshot: %w", err)
	case snap.Seq > rev:
		return fray.Errorf(fray.EINVALID, "The snapshot covers %d events, but the log holds %d.", snap.Seq, rev)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO snapshots (encounter_id, seq, data, created) VALUES (?, ?, ?, ?)
		ON CONFLICT (encounter_id) DO UPDATE SET seq = excluded.seq, data = excluded.data, created = excluded.created
		WHERE excluded.seq > snapshots.seq`, id, snap.Seq, snap.Data, micros(fray.TruncateTime(snap.Created))); err != nil {
		return fmt.Errorf("put snapshot: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("put snapshot: %w", err)
	}
	return nil
}

// Snapshot returns the newest snapshot of an encounter; see fray.Store.
func (s *Store) Snapshot(ctx context.Context, id string) (fray.SnapshotRecord, error) {
	if err := fray.ValidateID(id); err != nil {
		return fray.SnapshotRecord{}, err
	}
	var r fray.SnapshotRecord
	var created int64
	err := s.r.QueryRowContext(ctx, `SELECT seq, data, created FROM snapshots WHERE encounter_id = ?`, id).Scan(&r.Seq, &r.Data, &created)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := s.Encounter(ctx, id); err != nil {
			return fray.SnapshotRecord{}, err
		}
		return fray.SnapshotRecord{}, fray.Errorf(fray.ENOTFOUND, "The encounter %q has no snapshot.", id)
	case err != nil:
		return fray.SnapshotRecord{}, fmt.Errorf("read snapshot: %w", err)
	}
	r.Created = fromMicros(created)
	return r, nil
}
