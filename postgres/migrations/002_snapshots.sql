-- The newest snapshot of each encounter's state: the state after its
-- first seq events, which a server loads instead of replaying them.

CREATE TABLE snapshots (
	encounter_id text COLLATE "C" PRIMARY KEY REFERENCES encounters (id) ON DELETE CASCADE,
	seq          integer NOT NULL CHECK (seq >= 1),
	data         bytea NOT NULL,
	created      timestamptz NOT NULL
);
