-- Encounters, their event logs and the hashes of their tokens.
-- Times are Unix microseconds, UTC. Never edit a migration once it is
-- committed: add the next numbered file instead.

CREATE TABLE encounters (
	id       TEXT PRIMARY KEY,
	rules    TEXT NOT NULL,
	name     TEXT NOT NULL,
	seed     INTEGER NOT NULL,              -- a uint64 stored as its int64 bits
	created  INTEGER NOT NULL,
	revision INTEGER NOT NULL DEFAULT 0,    -- the seq of the log's last event
	updated  INTEGER NOT NULL
) STRICT;

CREATE INDEX encounters_by_created ON encounters (created DESC, id);

CREATE TABLE events (
	encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
	seq          INTEGER NOT NULL CHECK (seq >= 1),
	type         TEXT NOT NULL,
	data         BLOB NOT NULL,             -- JSON, byte for byte as appended
	time         INTEGER NOT NULL,
	PRIMARY KEY (encounter_id, seq)
) STRICT;

CREATE TABLE tokens (
	hash         TEXT PRIMARY KEY,          -- SHA-256 of the token, hex
	encounter_id TEXT NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
	role         TEXT NOT NULL CHECK (role IN ('gm', 'player')),
	combatant    TEXT NOT NULL DEFAULT '',
	created      INTEGER NOT NULL
) STRICT;

CREATE INDEX tokens_by_encounter ON tokens (encounter_id);
