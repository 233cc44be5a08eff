-- Encounters, their event logs and the hashes of their tokens. Ids and
-- hashes sort byte by byte (COLLATE "C"), as the store's contract orders
-- them. Never edit a migration once it is committed: add the next
-- numbered file instead.

CREATE TABLE encounters (
	id         text COLLATE "C" PRIMARY KEY,
	rules      text NOT NULL,
	name       text NOT NULL,
	seed       bigint NOT NULL,                 -- a uint64 stored as its int64 bits
	created    timestamptz NOT NULL,
	revision   integer NOT NULL DEFAULT 0 CHECK (revision >= 0), -- the seq of the log's last event
	updated    timestamptz NOT NULL,
	data_bytes bigint NOT NULL DEFAULT 0        -- the length of the log's event data, for Usage
);

CREATE INDEX encounters_by_created ON encounters (created DESC, id);

CREATE TABLE events (
	encounter_id text COLLATE "C" NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
	seq          integer NOT NULL CHECK (seq >= 1),
	type         text NOT NULL,
	data         bytea NOT NULL,                -- JSON, byte for byte as appended
	time         timestamptz NOT NULL,
	PRIMARY KEY (encounter_id, seq)
);

CREATE TABLE tokens (
	hash         text COLLATE "C" PRIMARY KEY,  -- SHA-256 of the token, hex
	encounter_id text COLLATE "C" NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
	role         text NOT NULL CHECK (role IN ('gm', 'player')),
	combatant    text NOT NULL DEFAULT '',
	created      timestamptz NOT NULL
);

CREATE INDEX tokens_by_encounter ON tokens (encounter_id, created, hash);
