-- The newest snapshot of each encounter's state (fray.Store.PutSnapshot):
-- a cache that lets a server carry on from event seq without reading the
-- events before it. Never edit a migration once it is committed: add the
-- next numbered file instead.

CREATE TABLE snapshots (
	encounter_id TEXT PRIMARY KEY REFERENCES encounters (id) ON DELETE CASCADE,
	seq          INTEGER NOT NULL CHECK (seq >= 1),
	data         BLOB NOT NULL,             -- opaque to the store
	created      INTEGER NOT NULL
) STRICT;
