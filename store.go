package fray

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"
)

// Store keeps encounters, their event logs and the hashes of the tokens
// that give access to them. It is what `fray serve` persists; package
// sqlite holds the embedded adapter and package inmem one that lives in
// memory, and package storetest is the conformance suite that checks an
// adapter against the contract written here.
//
// Events are opaque to a store: it keeps each one's sequence number, type,
// JSON data and time, checks that the numbers run on from the log's end,
// and never looks inside the data, so it needs to know no rule system.
//
// The log of an encounter is append-only and numbered from 1 with no gaps.
// Its revision is the sequence number of its last event (0 for an empty
// log). Writers use optimistic concurrency: AppendEvents names the revision
// it expects, and when another writer got there first it is refused with an
// ECONFLICT error and writes nothing. The check is made where the data is
// kept, in the same transaction as the write, so that many stateless
// servers may share one database.
//
// Every method is safe for concurrent use. Each reports a refusal as a
// *Error: EINVALID for malformed input, ETOOLARGE for input past one of the
// Max* limits below, ENOTFOUND for an unknown encounter or token and
// ECONFLICT for an id, a token or a sequence number already taken, and
// ESTORAGEFULL for a write refused for want of room (a full disk), with
// nothing written. Other failures (the disk, the database, a done
// context) are plain wrapped
// errors, which ErrorCode reports as EINTERNAL; when ctx is done before a
// write commits, nothing is written and the error wraps ctx.Err(). A write
// that returns nil is durable: it survives the process being killed.
//
// Times are kept to the microsecond (the resolution PostgreSQL keeps) and
// come back in UTC: a store truncates every time it is given.
type Store interface {
	// CreateEncounter records a new encounter with an empty log, along
	// with tokens (usually the GM's), all in one transaction: either all
	// are written or none. enc must pass Validate, and so must each token,
	// whose Encounter must be enc.ID. enc.Revision and enc.Updated are
	// ignored: a new encounter is at revision 0, updated when created. An
	// id already taken, or a token hash already taken, is an ECONFLICT
	// error.
	CreateEncounter(ctx context.Context, enc EncounterRecord, tokens ...Token) error

	// Encounter returns the encounter with the given id, with its current
	// revision and the time of its last event in Updated (Created when
	// the log is empty). An unknown id is an ENOTFOUND error.
	Encounter(ctx context.Context, id string) (EncounterRecord, error)

	// Encounters lists the encounters that match f, newest first (by
	// Created, then by ID for equal times). It returns an empty list, not
	// an error, when none match; see EncounterFilter for the fields.
	Encounters(ctx context.Context, f EncounterFilter) ([]EncounterRecord, error)

	// AppendEvents appends evs to the log of the encounter id and returns
	// the new revision. revision is the revision the caller expects the
	// log to be at; evs[i].Seq must be revision+1+i, and each event must
	// pass Validate. When the log is at another revision (another writer
	// appended first, or revision runs ahead of the log), nothing is
	// written and the error is an ECONFLICT *Error whose cause is a
	// *RevisionError carrying the current revision; the current revision
	// is also the int returned. Of several writers racing to append at the
	// same revision exactly one succeeds. An empty evs is EINVALID, more
	// than MaxAppend events or a log longer than MaxLogEvents is
	// ETOOLARGE, an unknown encounter is ENOTFOUND; in every such case
	// nothing is written. On success Updated becomes the time of the last
	// event appended.
	AppendEvents(ctx context.Context, id string, revision int, evs []EventRecord) (int, error)

	// Events returns the events of the encounter id whose sequence numbers
	// are from or more, in order, at most limit of them (limit 0 means
	// all). It is how a log is replayed (from 1) and how a live stream
	// resumes after the last event a reader saw (from Last-Event-ID + 1).
	// from beyond the end gives an empty list. from below 1 or a negative
	// limit is EINVALID; an unknown encounter is ENOTFOUND. Data comes
	// back byte for byte as it was appended.
	Events(ctx context.Context, id string, from, limit int) ([]EventRecord, error)

	// CreateToken records a token for an existing encounter. tok must pass
	// Validate. An unknown encounter is ENOTFOUND; a hash already taken is
	// ECONFLICT; an encounter that already has MaxTokens tokens is
	// ETOOLARGE.
	CreateToken(ctx context.Context, tok Token) error

	// Token returns the token with the given hash (see HashToken). An
	// unknown hash is an ENOTFOUND error; a malformed one is EINVALID.
	Token(ctx context.Context, hash string) (Token, error)

	// Tokens lists every token of the encounter id, GM and player tokens
	// alike, in the order they were created (by Created, then by Hash for
	// equal times); a deleted token is not listed. It returns an empty
	// list, not an error, for an encounter without tokens. A malformed id
	// is EINVALID; an unknown encounter is ENOTFOUND.
	Tokens(ctx context.Context, id string) ([]Token, error)

	// DeleteToken removes the token with the given hash, so that it no
	// longer gives access. An unknown hash is an ENOTFOUND error.
	DeleteToken(ctx context.Context, hash string) error

	// PutSnapshot keeps snap as the newest snapshot of the encounter id:
	// what the engine needs to carry on from the log's first snap.Seq
	// events without reading them (engine.Snapshot). The data is opaque to
	// the store. A store keeps at least the snapshot with the greatest Seq
	// it was given; one whose Seq is not greater than that of the snapshot
	// it keeps is ignored (no error), so that writers racing with older
	// snapshots never replace a newer one. snap must pass Validate, and
	// snap.Seq must not run past the log (EINVALID); an unknown encounter
	// is ENOTFOUND. A snapshot is a cache: losing one loses nothing.
	PutSnapshot(ctx context.Context, id string, snap SnapshotRecord) error

	// Snapshot returns the newest snapshot of the encounter id, byte for
	// byte as it was put. An encounter without one, or an unknown one, is
	// an ENOTFOUND error; a malformed id is EINVALID.
	Snapshot(ctx context.Context, id string) (SnapshotRecord, error)

	// Usage reports how much the store holds: the number of encounters,
	// exactly, and the bytes its data takes, approximately. bytes is at
	// least the total length of the event data it holds, and grows by at
	// least an append's data; each adapter says what else it counts. It
	// is what a server checks its storage budgets against, now and then
	// rather than on every request: it may count a whole table.
	Usage(ctx context.Context) (encounters int, bytes int64, err error)

	// Close releases the store's resources, waiting for writes under way.
	// Every call made after Close returns an error. Closing twice is not
	// an error.
	Close() error
}

// Limits a Store enforces on its input. Each one passed is an ETOOLARGE
// *Error that names it.
const (
	// MaxIDLen is the longest encounter id, in bytes.
	MaxIDLen = 64
	// MaxRulesLen is the longest rule system id, in bytes.
	MaxRulesLen = 32
	// MaxNameLen is the longest encounter or combatant name a store
	// keeps, in bytes.
	MaxNameLen = 200
	// MaxEventTypeLen is the longest event type, in bytes.
	MaxEventTypeLen = 64
	// MaxEventData is the largest event data, in bytes; it matches the
	// longest line of an exported log (engine.MaxLogLine).
	MaxEventData = 1 << 20
	// MaxAppend is the most events one AppendEvents call may append.
	MaxAppend = 1 << 12
	// MaxLogEvents is the most events one encounter's log may hold; it
	// matches engine.MaxEvents.
	MaxLogEvents = 1 << 20
	// MaxSnapshotData is the largest snapshot a store keeps, in bytes.
	MaxSnapshotData = 8 << 20
	// MaxTokens is the most tokens one encounter may have.
	MaxTokens = 1 << 10
	// MaxListed is the most encounters Encounters returns at once and the
	// most ids an EncounterFilter may name.
	MaxListed = 1000
)

// Roles a token grants. They are wire strings: never rename one.
const (
	RoleGM     = "gm"     // the game master: every command and the whole view
	RolePlayer = "player" // a player: acts for one combatant, sees the players' view
)

// EncounterRecord is what a Store keeps about an encounter besides its log.
type EncounterRecord struct {
	// ID identifies the encounter: 1 to MaxIDLen ASCII letters, digits,
	// '-' or '_'. The caller chooses it, usually at random.
	ID string
	// Rules is the id of the encounter's rule system, such as "bpb": 1 to
	// MaxRulesLen lower-case ASCII letters, digits, '-' or '_'.
	Rules string
	// Name is the encounter's name for people: valid UTF-8 with no
	// control characters, at most MaxNameLen bytes; it may be empty.
	Name string
	// Seed seeds the encounter's random source, so that it can be
	// reproduced (see engine.Header).
	Seed uint64
	// Created is when the encounter was created; it must not be zero.
	Created time.Time
	// Revision is the sequence number of the log's last event, 0 when the
	// log is empty. The store maintains it.
	Revision int
	// Updated is the time of the log's last event, or Created when the
	// log is empty. The store maintains it.
	Updated time.Time
}

// Validate reports what is wrong with the caller's fields of the record
// (ID, Rules, Name, Created) as an EINVALID or ETOOLARGE *Error, or nil.
func (e EncounterRecord) Validate() error {
	if err := ValidateID(e.ID); err != nil {
		return err
	}
	switch {
	case e.Rules == "":
		return Errorf(EINVALID, "The encounter's rules are missing.")
	case len(e.Rules) > MaxRulesLen:
		return Errorf(ETOOLARGE, "The rules id is %d bytes long, more than %d (MaxRulesLen).", len(e.Rules), MaxRulesLen)
	case !isWord(e.Rules, false):
		return Errorf(EINVALID, "The rules id %q may hold only lower-case letters, digits, '-' and '_'.", e.Rules)
	}
	if err := validName("encounter", e.Name); err != nil {
		return err
	}
	if e.Created.IsZero() {
		return Errorf(EINVALID, "The encounter's creation time is missing.")
	}
	return nil
}

// ValidateID reports what is wrong with an encounter id as an EINVALID or
// ETOOLARGE *Error, or nil.
func ValidateID(id string) error {
	switch {
	case id == "":
		return Errorf(EINVALID, "The encounter id is missing.")
	case len(id) > MaxIDLen:
		return Errorf(ETOOLARGE, "The encounter id is %d bytes long, more than %d (MaxIDLen).", len(id), MaxIDLen)
	case !isWord(id, true):
		return Errorf(EINVALID, "The encounter id %q may hold only letters, digits, '-' and '_'.", id)
	}
	return nil
}

// EncounterFilter selects the encounters Store.Encounters lists.
type EncounterFilter struct {
	// IDs, when not nil, keeps only the encounters with these ids (ids
	// with no encounter are skipped, so an empty, non-nil IDs lists
	// nothing); nil keeps every encounter. At most MaxListed ids.
	IDs []string
	// Offset skips that many encounters of the ordered list; it must not
	// be negative.
	Offset int
	// Limit is the most encounters returned, 1 to MaxListed; 0 means
	// MaxListed and more is cut to MaxListed. It must not be negative.
	Limit int
}

// Validate reports what is wrong with the filter as an EINVALID or
// ETOOLARGE *Error, or nil.
func (f EncounterFilter) Validate() error {
	switch {
	case f.Offset < 0:
		return Errorf(EINVALID, "The offset %d is negative.", f.Offset)
	case f.Limit < 0:
		return Errorf(EINVALID, "The limit %d is negative.", f.Limit)
	case len(f.IDs) > MaxListed:
		return Errorf(ETOOLARGE, "The filter names %d encounters, more than %d (MaxListed).", len(f.IDs), MaxListed)
	}
	for _, id := range f.IDs {
		if err := ValidateID(id); err != nil {
			return err
		}
	}
	return nil
}

// EffectiveLimit returns the number of encounters the filter lists at
// most: Limit, with 0 and anything above MaxListed read as MaxListed.
func (f EncounterFilter) EffectiveLimit() int {
	if f.Limit <= 0 || f.Limit > MaxListed {
		return MaxListed
	}
	return f.Limit
}

// EventRecord is one event as a Store keeps it: opaque JSON with the few
// fields the store needs.
type EventRecord struct {
	// Seq numbers the events of a log from 1, with no gaps.
	Seq int
	// Type is the event's type (Event.Type): 1 to MaxEventTypeLen
	// printable ASCII characters other than space.
	Type string
	// Data is the event as JSON, usually a whole Event as
	// NewEventRecord encodes it: a valid JSON value of at most
	// MaxEventData bytes.
	Data json.RawMessage
	// Time is when the event was recorded; it must not be zero.
	Time time.Time
}

// Validate reports what is wrong with the record as an EINVALID or
// ETOOLARGE *Error, or nil. It does not check Seq against a log.
func (r EventRecord) Validate() error {
	switch {
	case r.Seq < 1:
		return Errorf(EINVALID, "Event number %d is not positive.", r.Seq)
	case r.Type == "":
		return Errorf(EINVALID, "Event %d has no type.", r.Seq)
	case len(r.Type) > MaxEventTypeLen:
		return Errorf(ETOOLARGE, "Event %d's type is %d bytes long, more than %d (MaxEventTypeLen).", r.Seq, len(r.Type), MaxEventTypeLen)
	case !printable(r.Type):
		return Errorf(EINVALID, "Event %d's type %q may hold only printable ASCII characters other than space.", r.Seq, r.Type)
	case len(r.Data) > MaxEventData:
		return Errorf(ETOOLARGE, "Event %d's data is %d bytes long, more than %d (MaxEventData).", r.Seq, len(r.Data), MaxEventData)
	case !json.Valid(r.Data):
		return Errorf(EINVALID, "Event %d's data is not valid JSON.", r.Seq)
	case r.Time.IsZero():
		return Errorf(EINVALID, "Event %d's time is missing.", r.Seq)
	}
	return nil
}

// SnapshotRecord is a snapshot of an encounter's state as a store keeps
// it (see Store.PutSnapshot).
type SnapshotRecord struct {
	// Seq is how many events of the log the snapshot covers: it stands
	// for the state after events 1 to Seq.
	Seq int
	// Data is the snapshot, opaque to the store: at most MaxSnapshotData
	// bytes.
	Data []byte
	// Created is when the snapshot was taken; it must not be zero.
	Created time.Time
}

// Validate reports what is wrong with the record as an EINVALID or
// ETOOLARGE *Error, or nil. It does not check Seq against a log.
func (r SnapshotRecord) Validate() error {
	switch {
	case r.Seq < 1:
		return Errorf(EINVALID, "The snapshot's event number %d is not positive.", r.Seq)
	case r.Seq > MaxLogEvents:
		return Errorf(EINVALID, "The snapshot's event number %d is beyond the longest log (MaxLogEvents).", r.Seq)
	case len(r.Data) == 0:
		return Errorf(EINVALID, "The snapshot has no data.")
	case len(r.Data) > MaxSnapshotData:
		return Errorf(ETOOLARGE, "The snapshot is %d bytes long, more than %d (MaxSnapshotData).", len(r.Data), MaxSnapshotData)
	case r.Created.IsZero():
		return Errorf(EINVALID, "The snapshot's time is missing.")
	}
	return nil
}

// ValidateAppend checks the arguments of Store.AppendEvents that do not
// depend on the log: revision, the number of events, each event and
// their numbering from revision+1. It returns an EINVALID or ETOOLARGE
// *Error, or nil. Adapters call it before they look at the log.
func ValidateAppend(id string, revision int, evs []EventRecord) error {
	if err := ValidateID(id); err != nil {
		return err
	}
	switch {
	case revision < 0:
		return Errorf(EINVALID, "The revision %d is negative.", revision)
	case len(evs) == 0:
		return Errorf(EINVALID, "There are no events to append.")
	case len(evs) > MaxAppend:
		return Errorf(ETOOLARGE, "%d events are more than one append may hold (MaxAppend is %d).", len(evs), MaxAppend)
	case revision+len(evs) > MaxLogEvents:
		return Errorf(ETOOLARGE, "The encounter's log would hold %d events, more than %d (MaxLogEvents).", revision+len(evs), MaxLogEvents)
	}
	for i, ev := range evs {
		if err := ev.Validate(); err != nil {
			return err
		}
		if want := revision + 1 + i; ev.Seq != want {
			return Errorf(EINVALID, "Event number %d is out of sequence; expected %d.", ev.Seq, want)
		}
	}
	return nil
}

// NewEventRecord returns the record of ev recorded at t: its Seq and Type,
// and the whole event encoded as JSON in Data.
func NewEventRecord(ev Event, t time.Time) (EventRecord, error) {
	b, err := json.Marshal(ev)
	if err != nil {
		return EventRecord{}, &Error{Code: EINTERNAL, Message: "An event could not be encoded.", Err: err}
	}
	return EventRecord{Seq: ev.Seq, Type: ev.Type, Data: b, Time: t}, nil
}

// Event decodes the event NewEventRecord encoded in r.Data. It reports an
// EINVALID *Error when the data is not an event or does not match r's
// sequence number and type.
func (r EventRecord) Event() (Event, error) {
	var ev Event
	if err := json.Unmarshal(r.Data, &ev); err != nil {
		return Event{}, &Error{Code: EINVALID, Message: "Stored event " + strconv.Itoa(r.Seq) + " is not an event.", Err: err}
	}
	if ev.Seq != r.Seq || ev.Type != r.Type {
		return Event{}, Errorf(EINVALID, "Stored event %d (%s) holds event %d (%s).", r.Seq, r.Type, ev.Seq, ev.Type)
	}
	return ev, nil
}

// RevisionError is the cause of the ECONFLICT *Error that
// Store.AppendEvents returns when the log is not at the expected revision.
type RevisionError struct {
	// Revision is the log's current revision.
	Revision int
	// Expected is the revision the caller expected.
	Expected int
}

// Error describes the mismatch.
func (e *RevisionError) Error() string {
	return fmt.Sprintf("log at revision %d, expected %d", e.Revision, e.Expected)
}

// ConflictError returns the ECONFLICT *Error an adapter reports when an
// append expected revision expected but the log is at current.
func ConflictError(current, expected int) *Error {
	return &Error{
		Code:    ECONFLICT,
		Message: fmt.Sprintf("The encounter is at revision %d, not %d: someone else changed it first. Reload and try again.", current, expected),
		Err:     &RevisionError{Revision: current, Expected: expected},
	}
}

// CurrentRevision returns the current revision carried by an ECONFLICT
// error from Store.AppendEvents, and whether err carries one.
func CurrentRevision(err error) (int, bool) {
	var re *RevisionError
	if errors.As(err, &re) {
		return re.Revision, true
	}
	return 0, false
}

// Token is what a Store keeps about a bearer token: its hash, never the
// token itself, and what it grants.
type Token struct {
	// Hash is HashToken of the token: 64 lower-case hex digits.
	Hash string
	// Encounter is the id of the encounter the token gives access to.
	Encounter string
	// Role is RoleGM or RolePlayer.
	Role string
	// Combatant is the id (a CombatantID) of the combatant a player
	// token acts for, never its name, which may change (1 to MaxNameLen
	// bytes of UTF-8 with no control characters); it is empty for a GM
	// token.
	Combatant string
	// Created is when the token was issued; it must not be zero.
	Created time.Time
}

// Validate reports what is wrong with the token as an EINVALID or
// ETOOLARGE *Error, or nil.
func (t Token) Validate() error {
	if err := ValidateTokenHash(t.Hash); err != nil {
		return err
	}
	if err := ValidateID(t.Encounter); err != nil {
		return err
	}
	switch t.Role {
	case RoleGM:
		if t.Combatant != "" {
			return Errorf(EINVALID, "A GM token is not bound to a combatant.")
		}
	case RolePlayer:
		if t.Combatant == "" {
			return Errorf(EINVALID, "A player token needs the combatant it acts for.")
		}
		if err := validName("combatant", t.Combatant); err != nil {
			return err
		}
	case "":
		return Errorf(EINVALID, "The token's role is missing.")
	default:
		return Errorf(EINVALID, "The role %q is neither %q nor %q.", t.Role, RoleGM, RolePlayer)
	}
	if t.Created.IsZero() {
		return Errorf(EINVALID, "The token's creation time is missing.")
	}
	return nil
}

// HashToken returns the hash under which a Store keeps a token: the
// SHA-256 of its text, in lower-case hex. Tokens are long random strings,
// so a fast hash is enough; a store that leaks keeps no usable token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ValidateTokenHash reports an EINVALID *Error unless hash has the form
// HashToken returns.
func ValidateTokenHash(hash string) error {
	if len(hash) != 2*sha256.Size {
		return Errorf(EINVALID, "A token hash is %d hex digits, not %d.", 2*sha256.Size, len(hash))
	}
	for i := range len(hash) {
		if c := hash[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return Errorf(EINVALID, "A token hash holds only lower-case hex digits.")
		}
	}
	return nil
}

// TruncateTime returns t as a Store keeps it: in UTC, to the microsecond,
// without a monotonic clock reading.
func TruncateTime(t time.Time) time.Time {
	return t.UTC().Truncate(time.Microsecond)
}

// validName checks a name of what for length and characters.
func validName(what, name string) error {
	switch {
	case len(name) > MaxNameLen:
		return Errorf(ETOOLARGE, "The %s's name is %d bytes long, more than %d (MaxNameLen).", what, len(name), MaxNameLen)
	case !utf8.ValidString(name):
		return Errorf(EINVALID, "The %s's name is not valid UTF-8.", what)
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return Errorf(EINVALID, "The %s's name holds a control character.", what)
		}
	}
	return nil
}

// isWord reports whether s holds only ASCII letters (upper case only when
// upper is set), digits, '-' and '_'.
func isWord(s string, upper bool) bool {
	for i := range len(s) {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_':
		case upper && 'A' <= c && c <= 'Z':
		default:
			return false
		}
	}
	return true
}

// printable reports whether s holds only printable ASCII other than space.
func printable(s string) bool {
	for i := range len(s) {
		if c := s[i]; c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}
