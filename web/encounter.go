package web

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"fray"
	"fray/engine"
)

// entry is one encounter replayed in memory. Its lock serialises the
// commands on the encounter in this process; the store's optimistic
// append arbitrates between processes.
type entry struct {
	mu    chan struct{} // a lock that a waiting request can give up on
	rec   fray.EncounterRecord
	eng   *engine.Engine // nil when it must be replayed again
	rev   int            // the revision eng is at
	sight *Sight         // what players may know at rev

	// The cache's bookkeeping, guarded by Server.mu.
	srv  *Server
	id   string
	elem *list.Element // its place in the server's lru; nil once forgotten
	held int           // the events counted for it against MaxCachedEvents
}

func (e *entry) lock(ctx context.Context) error {
	select {
	case e.mu <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for the encounter: %w", ctx.Err())
	}
}

// unlock releases the entry, first counting the events its engine now
// holds against the cache's budget.
func (e *entry) unlock() {
	if e.srv != nil {
		e.srv.account(e)
	}
	<-e.mu
}

// account counts the events a locked entry's engine holds against
// MaxCachedEvents, and makes room in the cache when it has grown.
func (s *Server) account(e *entry) {
	n := 0
	if e.eng != nil {
		n = e.rev // a snapshot's engine holds a place for each event it stands for
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.elem == nil || e.held == n {
		return // forgotten, or the same size
	}
	s.budget.cachedEvents += n - e.held
	e.held = n
	s.evict(e)
}

// evict forgets the least recently used entries but keep until the cache
// holds at most MaxCached entries and MaxCachedEvents events between
// them; s.mu is held. keep, the entry in hand, stays even when it alone
// is larger than the budget: it is replayed only once. A request still
// holding an entry forgotten goes on safely, since the store arbitrates
// every append.
func (s *Server) evict(keep *entry) {
	l := s.cfg.Limits
	over := func() bool {
		return l.MaxCached > 0 && len(s.cache) > l.MaxCached ||
			l.MaxCachedEvents > 0 && s.budget.cachedEvents > l.MaxCachedEvents
	}
	for el := s.budget.lru.Back(); el != nil && over(); {
		prev := el.Prev()
		if e := el.Value.(*entry); e != keep {
			s.forget(e)
		}
		el = prev
	}
}

// forget takes an entry out of the cache; s.mu is held.
func (s *Server) forget(e *entry) {
	if e.elem == nil {
		return
	}
	if s.cache[e.id] == e {
		delete(s.cache, e.id)
	}
	s.budget.lru.Remove(e.elem)
	s.budget.cachedEvents -= e.held
	e.elem, e.held = nil, 0
}

// look returns what players may know of the entry's encounter now.
func (e *entry) look() *Sight { return NewSight(e.eng.System(), e.eng.Encounter()) }

// system returns the rule system of the id.
func (s *Server) system(rules string) (fray.System, error) {
	newSys, ok := s.cfg.Systems[rules]
	if !ok {
		return nil, fray.Errorf(fray.EINVALID, "There are no rules %q here; choose one of %s.", rules, strings.Join(s.systemIDs(), ", "))
	}
	return newSys(), nil
}

// lockEntry returns the encounter id replayed, locked; the caller must
// unlock it. With fresh set it is brought up to the store's revision
// first (another process may have appended); without, an entry already
// replayed is used as it is, which is enough for a command: its append
// fails with ECONFLICT if the store has moved on.
func (s *Server) lockEntry(ctx context.Context, id string, fresh bool) (*entry, error) {
	if err := fray.ValidateID(id); err != nil {
		return nil, fray.Errorf(fray.ENOTFOUND, "There is no encounter %q.", engine.Clip(id))
	}
	s.mu.Lock()
	e, ok := s.cache[id]
	if ok {
		s.budget.lru.MoveToFront(e.elem)
	} else {
		e = &entry{mu: make(chan struct{}, 1), srv: s, id: id}
		s.cache[id] = e
		e.elem = s.budget.lru.PushFront(e)
		s.evict(e)
	}
	s.mu.Unlock()
	if err := e.lock(ctx); err != nil {
		return nil, err
	}
	if e.eng != nil && !fresh {
		return e, nil
	}
	if err := s.refresh(ctx, id, e); err != nil {
		e.unlock()
		if fray.ErrorCode(err) == fray.ENOTFOUND {
			s.mu.Lock()
			s.forget(e)
			s.mu.Unlock()
		}
		return nil, err
	}
	return e, nil
}

// refresh brings a locked entry up to the store's revision, replaying the
// whole log when it has none, else applying the events it lacks. When the
// server follows the store's appends (fray.Notifier) and a stream here
// watches the encounter, it publishes what moved: the events taken in,
// with the view and sight after them, or, when the log was replayed
// instead, a change without events that sends each stream to the store
// for those it lacks.
func (s *Server) refresh(ctx context.Context, id string, e *entry) error {
	eng, from := e.eng, e.rev
	if err := s.update(ctx, id, e); err != nil {
		return err
	}
	if s.followed == nil || eng == e.eng && from == e.rev || !s.watched(id) {
		return nil
	}
	c := &Change{Encounter: id, Revision: e.rev}
	if log := e.eng.Log(); eng == e.eng && e.rev > from && e.rev-from <= len(log) {
		view := e.eng.View()
		c.Events, c.View, c.Sight = slices.Clone(log[len(log)-(e.rev-from):]), &view, e.sight
	}
	s.broker.Publish(c)
	return nil
}

// update is refresh without the publishing.
func (s *Server) update(ctx context.Context, id string, e *entry) error {
	rec, err := s.store.Encounter(ctx, id)
	if err != nil {
		return err
	}
	if e.eng != nil && rec.Revision == e.rev {
		e.rec = rec
		return nil
	}
	if e.eng == nil || rec.Revision < e.rev {
		eng, err := s.load(ctx, rec)
		if err != nil {
			return err
		}
		e.rec, e.eng, e.rev = rec, eng, rec.Revision
		e.sight = e.look()
		return nil
	}
	// Another process appended: take in the events it added.
	evs, err := s.events(ctx, id, e.rev+1, rec.Revision)
	if err == nil && len(evs) == rec.Revision-e.rev {
		err = e.eng.Extend(evs)
	}
	if err != nil || len(evs) != rec.Revision-e.rev {
		e.eng = nil // replay the whole log instead
		return s.update(ctx, id, e)
	}
	e.rec, e.rev = rec, rec.Revision
	e.sight = e.look()
	return nil
}

// load returns an engine for the encounter rec at its revision: from its
// newest snapshot and the events after it when the store has one that
// serves, else by replaying the whole log.
func (s *Server) load(ctx context.Context, rec fray.EncounterRecord) (*engine.Engine, error) {
	sys, err := s.system(rec.Rules)
	if err != nil {
		return nil, fmt.Errorf("replay encounter %s: %w", rec.ID, err)
	}
	rng := rand.New(rand.NewPCG(rec.Seed, uint64(rec.Revision)))
	snap, err := s.store.Snapshot(ctx, rec.ID)
	switch {
	case err == nil && snap.Seq <= rec.Revision:
		tail, err := s.events(ctx, rec.ID, snap.Seq+1, rec.Revision)
		if err != nil {
			return nil, err
		}
		eng, err := engine.Resume(sys, rng, snap.Data, tail)
		if err == nil {
			eng.Seed = rec.Seed
			return eng, nil
		}
		if !errors.Is(err, engine.ErrWholeLog) {
			// A snapshot of an older fray's state, or a damaged one: the
			// log still says everything.
			s.log.Warn("snapshot not used", "encounter", rec.ID, "seq", snap.Seq, "err", err)
		}
		sys, _ = s.system(rec.Rules)
	case err != nil && fray.ErrorCode(err) != fray.ENOTFOUND:
		return nil, fmt.Errorf("read snapshot of encounter %s: %w", rec.ID, err)
	}
	evs, err := s.events(ctx, rec.ID, 1, rec.Revision)
	if err != nil {
		return nil, err
	}
	eng, err := engine.Replay(sys, rng, evs)
	if err != nil {
		return nil, fmt.Errorf("replay encounter %s: %w", rec.ID, err)
	}
	eng.Seed = rec.Seed
	return eng, nil
}

// complete gives a locked entry's engine, resumed from a snapshot, the
// events its snapshot covers (engine.Complete), for what needs them.
func (s *Server) complete(ctx context.Context, e *entry) error {
	if e.eng == nil || e.eng.Whole() {
		return nil
	}
	n := e.rev - len(e.eng.Log())
	older, err := s.events(ctx, e.id, 1, n)
	if err != nil {
		return err
	}
	if err := e.eng.Complete(older); err != nil {
		return fmt.Errorf("complete encounter %s: %w", e.id, err)
	}
	return nil
}

// SnapshotEvery is how many events may separate two snapshots of an
// encounter's state that a server stores (fray.Store.PutSnapshot): a
// server that has not the encounter in memory reads its newest snapshot
// and at most about this many events after it.
const SnapshotEvery = 512

// snapshot stores a snapshot of a locked entry's engine when the append
// that took it from revision from to e.rev crossed a multiple of
// SnapshotEvery. A snapshot is a cache: failing to store one costs a
// slower load later, so it is only logged.
func (s *Server) snapshot(ctx context.Context, e *entry, from int) {
	if e.rev/SnapshotEvery == from/SnapshotEvery {
		return
	}
	data, err := e.eng.Snapshot()
	if err == nil && len(data) > fray.MaxSnapshotData {
		return // too large to keep: loads replay the log
	}
	if err == nil {
		err = s.store.PutSnapshot(ctx, e.id, fray.SnapshotRecord{Seq: e.rev, Data: data, Created: s.now()})
	}
	if err != nil {
		s.log.Warn("snapshot not stored", "encounter", e.id, "seq", e.rev, "err", err)
	}
}

// events reads the events from..to of a log from the store, in pages.
func (s *Server) events(ctx context.Context, id string, from, to int) ([]fray.Event, error) {
	var out []fray.Event
	for from <= to {
		recs, err := s.store.Events(ctx, id, from, min(fray.MaxAppend, to-from+1))
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			break
		}
		for _, r := range recs {
			ev, err := r.Event()
			if err != nil {
				return nil, fmt.Errorf("read encounter %s: %w", id, err)
			}
			out = append(out, ev)
		}
		from += len(recs)
	}
	return out, nil
}

// drop forgets a locked entry's engine, which is ahead of the store after
// a failed append.
func (e *entry) drop() { e.eng, e.rev = nil, 0 }
