// Package inmem keeps fray's encounters in memory: a fray.Store for tests
// and for single-process use, such as `fray play`, where nothing needs to
// outlive the process. It passes the same conformance suite
// (package storetest) as the SQLite adapter, durability aside.
package inmem

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"fray"
)

// Store is an in-memory fray.Store. Its zero value is not ready for use;
// call New.
type Store struct {
	mu         sync.RWMutex
	closed     bool
	encounters map[string]*encounter
	tokens     map[string]fray.Token
	bytes      int64 // what Usage reports: see recordBytes
}

type encounter struct {
	rec    fray.EncounterRecord
	events []fray.EventRecord
	tokens int
	snap   *fray.SnapshotRecord // the newest, or nil
}

// New returns an empty store.
func New() *Store {
	return &Store{encounters: map[string]*encounter{}, tokens: map[string]fray.Token{}}
}

var _ fray.Store = (*Store)(nil)

// recordBytes is what Usage counts for each encounter, event and token
// besides its text: its numbers and times.
const recordBytes = 32

func encounterBytes(e fray.EncounterRecord) int64 {
	return int64(len(e.ID) + len(e.Rules) + len(e.Name) + recordBytes)
}

func eventBytes(ev fray.EventRecord) int64 { return int64(len(ev.Type) + len(ev.Data) + recordBytes) }

func tokenBytes(t fray.Token) int64 {
	return int64(len(t.Hash) + len(t.Encounter) + len(t.Role) + len(t.Combatant) + recordBytes)
}

// errClosed is returned by every call made after Close.
var errClosed = fmt.Errorf("inmem: the store is closed")

func (s *Store) check(ctx context.Context) error {
	if s.closed {
		return errClosed
	}
	return ctx.Err()
}

// CreateEncounter records a new encounter and its tokens; see fray.Store.
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
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.check(ctx); err != nil {
		return fmt.Errorf("create encounter: %w", err)
	}
	if _, ok := s.encounters[enc.ID]; ok {
		return fray.Errorf(fray.ECONFLICT, "The encounter id %q is already taken.", enc.ID)
	}
	seen := map[string]bool{}
	for _, t := range tokens {
		if _, ok := s.tokens[t.Hash]; ok || seen[t.Hash] {
			return fray.Errorf(fray.ECONFLICT, "The token is already taken.")
		}
		seen[t.Hash] = true
	}
	enc.Created = fray.TruncateTime(enc.Created)
	enc.Updated = enc.Created
	enc.Revision = 0
	s.encounters[enc.ID] = &encounter{rec: enc, tokens: len(tokens)}
	s.bytes += encounterBytes(enc)
	for _, t := range tokens {
		t.Created = fray.TruncateTime(t.Created)
		s.tokens[t.Hash] = t
		s.bytes += tokenBytes(t)
	}
	return nil
}

// Encounter returns the encounter with the given id; see fray.Store.
func (s *Store) Encounter(ctx context.Context, id string) (fray.EncounterRecord, error) {
	if err := fray.ValidateID(id); err != nil {
		return fray.EncounterRecord{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.check(ctx); err != nil {
		return fray.EncounterRecord{}, fmt.Errorf("get encounter: %w", err)
	}
	e, ok := s.encounters[id]
	if !ok {
		return fray.EncounterRecord{}, notFound(id)
	}
	return e.rec, nil
}

func notFound(id string) error {
	return fray.Errorf(fray.ENOTFOUND, "There is no encounter %q.", id)
}

// Encounters lists the encounters that match f; see fray.Store.
func (s *Store) Encounters(ctx context.Context, f fray.EncounterFilter) ([]fray.EncounterRecord, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.check(ctx); err != nil {
		return nil, fmt.Errorf("list encounters: %w", err)
	}
	var all []fray.EncounterRecord
	if f.IDs != nil {
		for _, id := range f.IDs {
			if e, ok := s.encounters[id]; ok && !slices.ContainsFunc(all, func(r fray.EncounterRecord) bool { return r.ID == id }) {
				all = append(all, e.rec)
			}
		}
	} else {
		all = make([]fray.EncounterRecord, 0, len(s.encounters))
		for _, e := range s.encounters {
			all = append(all, e.rec)
		}
	}
	slices.SortFunc(all, func(a, b fray.EncounterRecord) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if f.Offset >= len(all) {
		return []fray.EncounterRecord{}, nil
	}
	all = all[f.Offset:]
	if n := f.EffectiveLimit(); len(all) > n {
		all = all[:n]
	}
	return slices.Clone(all), nil
}

// AppendEvents appends events at the expected revision; see fray.Store.
func (s *Store) AppendEvents(ctx context.Context, id string, revision int, evs []fray.EventRecord) (int, error) {
	if err := fray.ValidateAppend(id, revision, evs); err != nil {
		return 0, err
	}
	// Copy before taking the lock: the log must not share memory with the
	// caller's slices.
	cp := make([]fray.EventRecord, len(evs))
	for i, ev := range evs {
		cp[i] = fray.EventRecord{Seq: ev.Seq, Type: ev.Type, Data: bytes.Clone(ev.Data), Time: fray.TruncateTime(ev.Time)}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.check(ctx); err != nil {
		return 0, fmt.Errorf("append events: %w", err)
	}
	e, ok := s.encounters[id]
	if !ok {
		return 0, notFound(id)
	}
	if cur := e.rec.Revision; cur != revision {
		return cur, fray.ConflictError(cur, revision)
	}
	e.events = append(e.events, cp...)
	for _, ev := range cp {
		s.bytes += eventBytes(ev)
	}
	e.rec.Revision = len(e.events)
	e.rec.Updated = cp[len(cp)-1].Time
	return e.rec.Revision, nil
}

// Events returns the events of a log from a sequence number on; see
// fray.Store.
func (s *Store) Events(ctx context.Context, id string, from, limit int) ([]fray.EventRecord, error) {
	if err := fray.ValidateID(id); err != nil {
		return nil, err
	}
	switch {
	case from < 1:
		return nil, fray.Errorf(fray.EINVALID, "Events are numbered from 1, not %d.", from)
	case limit < 0:
		return nil, fray.Errorf(fray.EINVALID, "The limit %d is negative.", limit)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.check(ctx); err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	e, ok := s.encounters[id]
	if !ok {
		return nil, notFound(id)
	}
	if from > len(e.events) {
		return []fray.EventRecord{}, nil
	}
	evs := e.events[from-1:]
	if limit > 0 && len(evs) > limit {
		evs = evs[:limit]
	}
	out := make([]fray.EventRecord, len(evs))
	for i, ev := range evs {
		ev.Data = bytes.Clone(ev.Data)
		out[i] = ev
	}
	return out, nil
}

// PutSnapshot keeps the newest snapshot of an encounter; see fray.Store.
// Usage counts the one it keeps.
func (s *Store) PutSnapshot(ctx context.Context, id string, snap fray.SnapshotRecord) error {
	if err := fray.ValidateID(id); err != nil {
		return err
	}
	if err := snap.Validate(); err != nil {
		return err
	}
	cp := fray.SnapshotRecord{Seq: snap.Seq, Data: bytes.Clone(snap.Data), Created: fray.TruncateTime(snap.Created)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.check(ctx); err != nil {
		return fmt.Errorf("put snapshot: %w", err)
	}
	e, ok := s.encounters[id]
	if !ok {
		return notFound(id)
	}
	if cp.Seq > e.rec.Revision {
		return fray.Errorf(fray.EINVALID, "The snapshot covers %d events, but the log holds %d.", cp.Seq, e.rec.Revision)
	}
	if e.snap != nil {
		if e.snap.Seq >= cp.Seq {
			return nil
		}
		s.bytes -= snapBytes(*e.snap)
	}
	e.snap = &cp
	s.bytes += snapBytes(cp)
	return nil
}

func snapBytes(r fray.SnapshotRecord) int64 { return int64(len(r.Data) + recordBytes) }

// Snapshot returns the newest snapshot of an encounter; see fray.Store.
func (s *Store) Snapshot(ctx context.Context, id string) (fray.SnapshotRecord, error) {
	if err := fray.ValidateID(id); err != nil {
		return fray.SnapshotRecord{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.check(ctx); err != nil {
		return fray.SnapshotRecord{}, fmt.Errorf("read snapshot: %w", err)
	}
	e, ok := s.encounters[id]
	if !ok {
		return fray.SnapshotRecord{}, notFound(id)
	}
	if e.snap == nil {
		return fray.SnapshotRecord{}, fray.Errorf(fray.ENOTFOUND, "The encounter %q has no snapshot.", id)
	}
	r := *e.snap
	r.Data = bytes.Clone(r.Data)
	return r, nil
}

// CreateToken records a token; see fray.Store.
func (s *Store) CreateToken(ctx context.Context, tok fray.Token) error {
	if err := tok.Validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.check(ctx); err != nil {
		return fmt.Errorf("create token: %w", err)
	}
	e, ok := s.encounters[tok.Encounter]
	switch {
	case !ok:
		return notFound(tok.Encounter)
	case e.tokens >= fray.MaxTokens:
		return fray.Errorf(fray.ETOOLARGE, "The encounter already has %d tokens (MaxTokens).", fray.MaxTokens)
	}
	if _, ok := s.tokens[tok.Hash]; ok {
		return fray.Errorf(fray.ECONFLICT, "The token is already taken.")
	}
	tok.Created = fray.TruncateTime(tok.Created)
	s.tokens[tok.Hash] = tok
	s.bytes += tokenBytes(tok)
	e.tokens++
	return nil
}

// Token returns the token with the given hash; see fray.Store.
func (s *Store) Token(ctx context.Context, hash string) (fray.Token, error) {
	if err := fray.ValidateTokenHash(hash); err != nil {
		return fray.Token{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.check(ctx); err != nil {
		return fray.Token{}, fmt.Errorf("get token: %w", err)
	}
	t, ok := s.tokens[hash]
	if !ok {
		return fray.Token{}, tokenNotFound()
	}
	return t, nil
}

// Tokens lists the tokens of an encounter in the order they were
// created; see fray.Store.
func (s *Store) Tokens(ctx context.Context, id string) ([]fray.Token, error) {
	if err := fray.ValidateID(id); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.check(ctx); err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	if _, ok := s.encounters[id]; !ok {
		return nil, notFound(id)
	}
	out := []fray.Token{}
	for _, t := range s.tokens {
		if t.Encounter == id {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b fray.Token) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Hash, b.Hash)
	})
	return out, nil
}

func tokenNotFound() error {
	return fray.Errorf(fray.ENOTFOUND, "The token is not known.")
}

// DeleteToken removes the token with the given hash; see fray.Store.
func (s *Store) DeleteToken(ctx context.Context, hash string) error {
	if err := fray.ValidateTokenHash(hash); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.check(ctx); err != nil {
		return fmt.Errorf("delete token: %w", err)
	}
	t, ok := s.tokens[hash]
	if !ok {
		return tokenNotFound()
	}
	delete(s.tokens, hash)
	s.bytes -= tokenBytes(t)
	if e, ok := s.encounters[t.Encounter]; ok {
		e.tokens--
	}
	return nil
}

// Usage reports the number of encounters and the bytes of the text the
// store holds (ids, names, event types and data, token hashes), with a
// fixed 32 for each record's numbers and times; see fray.Store. It is
// kept as the store changes, so it costs nothing to call.
func (s *Store) Usage(ctx context.Context) (encounters int, bytes int64, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.check(ctx); err != nil {
		return 0, 0, fmt.Errorf("usage: %w", err)
	}
	return len(s.encounters), s.bytes, nil
}

// Close discards the store's contents; every later call fails.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.encounters, s.tokens = nil, nil
	return nil
}
