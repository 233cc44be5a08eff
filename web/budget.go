package web

import (
	"container/list"
	"context"
	"fmt"
	"sync"
	"time"

	"fray"
)

// budgets is what the server keeps to enforce the budgets of Limits
// beyond the request rate: streams per client and per encounter
// (sse.go), the events the cache holds (encounter.go), encounters
// created per client, and the store's size.
type budgets struct {
	// create is CreateRate's bucket for each client (clientAddr).
	create *limiter
	// raw is the store without the storage budgets; the server's store
	// is budgetStore over it when a storage budget is set.
	raw fray.Store
	// proxyHint is logged once, on the first request with an
	// X-Forwarded-For header from a proxy the server does not trust.
	proxyHint sync.Once

	// Guarded by Server.mu.
	clientStreams    map[string]int // open event streams by client
	encounterStreams map[string]int // open event streams by encounter
	lru              list.List      // the cached entries, most recently used first
	cachedEvents     int            // the events the cached entries hold

	usage usage
}

// initBudgets sets up the budgets of the server's limits; New calls it.
func (s *Server) initBudgets() {
	b := &s.budget
	b.create = newLimiter(s.cfg.Limits.CreateRate/3600, max(1, int(s.cfg.Limits.CreateRate+0.999)), s.cfg.Now)
	b.create.name, b.create.what, b.create.per, b.create.unit = "CreateRate", "new encounters", s.cfg.Limits.CreateRate, "an hour"
	b.clientStreams, b.encounterStreams = map[string]int{}, map[string]int{}
	b.raw = s.store
	if s.cfg.Limits.MaxEncounters > 0 || s.cfg.Limits.MaxStoredBytes > 0 {
		s.store = budgetStore{Store: b.raw, s: s}
	}
}

// allowCreate takes one encounter from the client's CreateRate bucket,
// or reports an ERATELIMITED error naming it. undo gives the encounter
// back when none was created after all.
func (s *Server) allowCreate(client string) (undo func(), err error) {
	if err := s.budget.create.allow(client); err != nil {
		return nil, err
	}
	return func() { s.budget.create.give(client) }, nil
}

// usageTTL is how long the store's usage, as Store.Usage reports it, is
// believed; in between, the server adds what it writes itself. Writes of
// other processes sharing the store are seen within that time.
const usageTTL = time.Minute

// usage is the store's usage as the storage budgets count it.
type usage struct {
	mu         sync.Mutex
	encounters int
	bytes      int64
	read       time.Time // when the store was last asked; zero before the first time
	reading    bool      // a request is asking the store
	warned     time.Time // when a refusal was last logged
}

// Rough sizes of what a write adds to the store, besides its text: the
// numbers, times and index entries of a row. They keep the figure close
// between two reads of Store.Usage, which corrects it.
const rowBytes = 48

func encounterSize(enc fray.EncounterRecord, tokens []fray.Token) int64 {
	n := int64(3*len(enc.ID) + len(enc.Rules) + len(enc.Name) + rowBytes)
	for _, t := range tokens {
		n += tokenSize(t)
	}
	return n
}

func tokenSize(t fray.Token) int64 {
	return int64(2*len(t.Hash) + 2*len(t.Encounter) + len(t.Role) + len(t.Combatant) + rowBytes)
}

// eventsSize is the size of events appended to the log of an encounter
// whose id is idLen bytes long.
func eventsSize(idLen int, evs []fray.EventRecord) int64 {
	var n int64
	for _, ev := range evs {
		n += int64(2*idLen + len(ev.Type) + len(ev.Data) + rowBytes)
	}
	return n
}

// reserve counts a write that adds encounters encounters and bytes
// bytes to the store against MaxEncounters and MaxStoredBytes, before it
// is made. Past either it reports an ESTORAGEFULL error naming the
// budget and counts nothing; else the caller gives back with unreserve
// what it did not write after all.
func (s *Server) reserve(ctx context.Context, encounters int, bytes int64) error {
	l := s.cfg.Limits
	if l.MaxEncounters <= 0 && l.MaxStoredBytes <= 0 {
		return nil
	}
	if err := s.readUsage(ctx); err != nil {
		return err
	}
	u := &s.budget.usage
	u.mu.Lock()
	defer u.mu.Unlock()
	var err error
	switch {
	case encounters > 0 && l.MaxEncounters > 0 && u.encounters+encounters > l.MaxEncounters:
		err = fray.Errorf(ESTORAGEFULL, "The server holds %d encounters, the most it may (MaxEncounters); it takes no new one until its operator makes room.", u.encounters)
	case l.MaxStoredBytes > 0 && u.bytes+bytes > l.MaxStoredBytes:
		err = fray.Errorf(ESTORAGEFULL, "The server's store holds %d bytes of the %d it may (MaxStoredBytes); it takes nothing more until its operator makes room.", u.bytes, l.MaxStoredBytes)
	default:
		u.encounters += encounters
		u.bytes += bytes
		return nil
	}
	if now := s.cfg.Now(); u.warned.IsZero() || now.Sub(u.warned) >= usageTTL {
		u.warned = now
		s.log.Warn("a storage budget refuses writes", "encounters", u.encounters, "max_encounters", l.MaxEncounters,
			"bytes", u.bytes, "max_stored_bytes", l.MaxStoredBytes)
	}
	return err
}

// unreserve gives back what reserve counted for a write that did not
// happen.
func (s *Server) unreserve(encounters int, bytes int64) {
	l := s.cfg.Limits
	if l.MaxEncounters <= 0 && l.MaxStoredBytes <= 0 {
		return
	}
	u := &s.budget.usage
	u.mu.Lock()
	u.encounters -= encounters
	u.bytes -= bytes
	u.mu.Unlock()
}

// readUsage reads the store's usage when the figure held is older than
// usageTTL. The first read is waited for; a later one is made by one
// request while the others go on with the figure they have.
func (s *Server) readUsage(ctx context.Context) error {
	ctx = background(ctx) // one caller leaving must not fail the read for the others
	u := &s.budget.usage
	now := s.cfg.Now()
	u.mu.Lock()
	if u.read.IsZero() {
		defer u.mu.Unlock()
		n, b, err := s.budget.raw.Usage(ctx)
		if err != nil {
			return fmt.Errorf("read the store's usage: %w", err)
		}
		u.encounters, u.bytes, u.read = n, b, now
		return nil
	}
	if u.reading || now.Sub(u.read) < usageTTL {
		u.mu.Unlock()
		return nil
	}
	u.reading = true
	u.mu.Unlock()
	n, b, err := s.budget.raw.Usage(ctx)
	u.mu.Lock()
	defer u.mu.Unlock()
	u.reading, u.read = false, now
	if err != nil {
		// Keep the figure held, which the server's own writes keep
		// close; try again after usageTTL.
		s.log.Warn("read the store's usage", "err", err)
		return nil
	}
	u.encounters, u.bytes = n, b
	return nil
}

// budgetStore is the server's store when a storage budget is set: each
// write is counted against MaxEncounters and MaxStoredBytes first, and
// refused past them with nothing written.
type budgetStore struct {
	fray.Store
	s *Server
}

// CreateEncounter records an encounter within the storage budgets.
func (b budgetStore) CreateEncounter(ctx context.Context, enc fray.EncounterRecord, tokens ...fray.Token) error {
	n := encounterSize(enc, tokens)
	if err := b.s.reserve(ctx, 1, n); err != nil {
		return err
	}
	if err := b.Store.CreateEncounter(ctx, enc, tokens...); err != nil {
		b.s.unreserve(1, n)
		return err
	}
	return nil
}

// AppendEvents appends events within the storage budgets.
func (b budgetStore) AppendEvents(ctx context.Context, id string, revision int, evs []fray.EventRecord) (int, error) {
	n := eventsSize(len(id), evs)
	if err := b.s.reserve(ctx, 0, n); err != nil {
		return 0, err
	}
	rev, err := b.Store.AppendEvents(ctx, id, revision, evs)
	if err != nil {
		b.s.unreserve(0, n)
	}
	return rev, err
}

// PutSnapshot stores a snapshot within the storage budgets: past them it
// is refused like any write (a snapshot is a cache, so the server only
// logs the refusal and loads that encounter from its log).
func (b budgetStore) PutSnapshot(ctx context.Context, id string, snap fray.SnapshotRecord) error {
	n := int64(len(id) + len(snap.Data))
	if err := b.s.reserve(ctx, 0, n); err != nil {
		return err
	}
	if err := b.Store.PutSnapshot(ctx, id, snap); err != nil {
		b.s.unreserve(0, n)
		return err
	}
	return nil
}

// CreateToken records a token within the storage budgets.
func (b budgetStore) CreateToken(ctx context.Context, tok fray.Token) error {
	n := tokenSize(tok)
	if err := b.s.reserve(ctx, 0, n); err != nil {
		return err
	}
	if err := b.Store.CreateToken(ctx, tok); err != nil {
		b.s.unreserve(0, n)
		return err
	}
	return nil
}
