package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"fray"
)

// PutSnapshot keeps snap as the snapshot of the encounter id unless it
// has one at the same or a later Seq, which it keeps instead; see
// fray.Store. Created is kept to the microsecond, in UTC.
//
// The revision is read apart from the write: it only grows, so a Seq it
// allows stays allowed.
func (s *Store) PutSnapshot(ctx context.Context, id string, snap fray.SnapshotRecord) error {
	const action = "put snapshot"
	if err := fray.ValidateID(id); err != nil {
		return err
	}
	if err := snap.Validate(); err != nil {
		return err
	}
	if err := s.checkOpen(action); err != nil {
		return err
	}
	enc, err := s.Encounter(ctx, id)
	if err != nil {
		return err
	}
	if snap.Seq > enc.Revision {
		return fray.Errorf(fray.EINVALID, "A snapshot after event %d is past the end of the log, at revision %d.", snap.Seq, enc.Revision)
	}
	if err := ctx.Err(); err != nil {
		return mapErr(ctx, action, err)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO snapshots (encounter_id, seq, data, created) VALUES ($1, $2, $3, $4)
		ON CONFLICT (encounter_id) DO UPDATE SET seq = excluded.seq, data = excluded.data, created = excluded.created
		WHERE snapshots.seq < excluded.seq`, id, snap.Seq, snap.Data, fray.TruncateTime(snap.Created)); err != nil {
		return mapErr(ctx, action, err)
	}
	return nil
}

// Snapshot returns the newest snapshot of the encounter id. It is an
// ENOTFOUND error when the encounter has none or is unknown.
func (s *Store) Snapshot(ctx context.Context, id string) (fray.SnapshotRecord, error) {
	const action = "get snapshot"
	if err := fray.ValidateID(id); err != nil {
		return fray.SnapshotRecord{}, err
	}
	if err := s.checkOpen(action); err != nil {
		return fray.SnapshotRecord{}, err
	}
	var snap fray.SnapshotRecord
	err := s.pool.QueryRow(ctx, `SELECT seq, data, created FROM snapshots WHERE encounter_id = $1`, id).
		Scan(&snap.Seq, &snap.Data, &snap.Created)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fray.SnapshotRecord{}, fray.Errorf(fray.ENOTFOUND, "The encounter %q has no snapshot, or does not exist.", id)
	case err != nil:
		return fray.SnapshotRecord{}, mapErr(ctx, action, err)
	}
	snap.Created = snap.Created.UTC()
	return snap, nil
}
