package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"fray"
	"fray/engine"
)

// ssePage is the most events one message of a resumed stream carries.
const ssePage = 1024

// sseWriteTimeout is how long one message may take to reach a client
// before the stream is dropped.
const sseWriteTimeout = 10 * time.Second

// streamEvents serves an encounter's changes as Server-Sent Events. The
// first message is the current state (with the events since
// Last-Event-ID when the client resumes); then one message per change.
// Each message's id is the log's revision after it.
func (s *Server) streamEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := s.authorize(r, id, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	last := -1
	if h := r.Header.Get("Last-Event-ID"); h != "" {
		n, err := strconv.Atoi(strings.TrimSpace(h))
		if err != nil || n < 0 {
			s.writeError(w, r, fray.Errorf(fray.EINVALID, "Last-Event-ID %q is not a revision.", engine.Clip(h)))
			return
		}
		last = n
	}
	release, err := s.holdStream(s.clientAddr(r), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()

	// Subscribe before reading the state, so that no change falls between.
	changes, cancel := s.broker.Subscribe(id, s.cfg.Limits.SubscriberBuffer)
	defer cancel()
	e, err := s.lockFor(r.Context(), c, id, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rev, view, secret := e.rev, e.eng.View(), e.sight
	e.unlock()

	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	var deadline time.Time
	write := func(b []byte) bool {
		// A write may take sseWriteTimeout at least; the deadline is
		// moved on at most once a second, which saves a timer reset per
		// message when many streams get one.
		if now := time.Now(); deadline.Sub(now) < sseWriteTimeout-time.Second {
			deadline = now.Add(sseWriteTimeout)
			rc.SetWriteDeadline(deadline)
		}
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write([]byte("retry: 2000\n\n")) {
		return
	}
	sent := last
	if last < 0 || last > rev {
		// A new stream (or one from a log since replaced): the state now.
		v, _ := Redact(c.Role, secret, view, nil)
		if !write(sseFrame(rev, v, nil)) {
			return
		}
		sent = rev
	} else if !s.catchUp(r.Context(), write, c, id, &sent, rev, view, secret) {
		return
	}

	beat := time.NewTicker(s.cfg.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case <-beat.C:
			if s.isRevoked(c.key) {
				return
			}
			if !write([]byte(": heartbeat\n\n")) {
				return
			}
		case ch, ok := <-changes:
			if !ok {
				return // dropped for being slow: the client resumes
			}
			if ch.Revision <= sent {
				continue
			}
			if s.isRevoked(c.key) || c.Role != fray.RoleGM && ch.Sight != nil && !ch.Sight.present(c.Combatant) {
				return // the player's character has left: so has the link
			}
			if ch.View != nil && ch.Events != nil && ch.Revision-len(ch.Events) == sent {
				if !write(ch.frame(c.Role)) {
					return
				}
				sent = ch.Revision
				continue
			}
			// A gap, or a broker that carries no events: read the store.
			e, err := s.lockFor(r.Context(), c, id, true)
			if err != nil {
				return
			}
			rev, view, secret := e.rev, e.eng.View(), e.sight
			e.unlock()
			if !s.catchUp(r.Context(), write, c, id, &sent, rev, view, secret) {
				return
			}
		}
	}
}

// streamRetry is the Retry-After of a stream refused for a budget: long
// enough for a tab to be closed.
const streamRetry = 10 * time.Second

// holdStream counts one more open event stream for the client and for
// the encounter id, or refuses it with an error naming the budget it is
// past: ERATELIMITED past MaxClientStreams or MaxEncounterStreams, which
// one client or one table fills, EBUSY past MaxSubscribers, which the
// whole server does. release ends the count.
func (s *Server) holdStream(client, id string) (release func(), err error) {
	l := s.cfg.Limits
	s.mu.Lock()
	defer s.mu.Unlock()
	b := &s.budget
	switch {
	case l.MaxClientStreams > 0 && b.clientStreams[client] >= l.MaxClientStreams:
		return nil, &fray.Error{Code: ERATELIMITED, Message: fmt.Sprintf("This client already holds %d event streams open, the most one may (MaxClientStreams); close a tab first.", l.MaxClientStreams), Err: &retryError{streamRetry}}
	case l.MaxEncounterStreams > 0 && b.encounterStreams[id] >= l.MaxEncounterStreams:
		return nil, &fray.Error{Code: ERATELIMITED, Message: fmt.Sprintf("The encounter already has %d event streams open, the most one may (MaxEncounterStreams); close a tab first.", l.MaxEncounterStreams), Err: &retryError{streamRetry}}
	case l.MaxSubscribers > 0 && s.streams >= l.MaxSubscribers:
		return nil, &fray.Error{Code: EBUSY, Message: fmt.Sprintf("The server already serves %d event streams, the most it may (MaxSubscribers); try again later.", l.MaxSubscribers), Err: &retryError{streamRetry}}
	}
	b.clientStreams[client]++
	b.encounterStreams[id]++
	s.streams++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.streams--
		if b.clientStreams[client]--; b.clientStreams[client] <= 0 {
			delete(b.clientStreams, client)
		}
		if b.encounterStreams[id]--; b.encounterStreams[id] <= 0 {
			delete(b.encounterStreams, id)
		}
	}, nil
}

// catchUp writes the events after *sent up to rev from the store, a page
// per message, each with the view at rev, and moves *sent on.
func (s *Server) catchUp(ctx context.Context, write func([]byte) bool, c caller, id string, sent *int, rev int, view fray.View, secret *Sight) bool {
	for *sent < rev {
		to := min(rev, *sent+ssePage)
		evs, err := s.events(ctx, id, *sent+1, to)
		if err != nil || len(evs) == 0 {
			return false
		}
		to = *sent + len(evs)
		if evs = s.upgraded(ctx, id, evs); evs == nil {
			return false // the client resumes
		}
		v, shown := Redact(c.Role, secret, view, evs)
		if !write(sseFrame(to, v, tellShown(c.Role, secret, nil, shown))) {
			return false
		}
		*sent = to
	}
	return true
}

// upgraded returns events read from the store as the encounter's engine
// holds them when any was stored by an older fray (fray.Event.Format
// below 3): rewritten into ids and marked Hidden where they concerned a
// hidden combatant (engine.Upgrade, as an import stores them), so that a
// stream says every event in one format. It returns nil when the engine
// does not hold them.
func (s *Server) upgraded(ctx context.Context, id string, evs []fray.Event) []fray.Event {
	if !slices.ContainsFunc(evs, func(ev fray.Event) bool { return ev.Format < fray.FormatIDs }) {
		return evs
	}
	e, err := s.lockEntry(ctx, id, true)
	if err != nil {
		return nil
	}
	defer e.unlock()
	if err := s.complete(ctx, e); err != nil {
		return nil
	}
	log, first := e.eng.Log(), evs[0].Seq
	if first < 1 || first-1+len(evs) > len(log) {
		return nil
	}
	return slices.Clone(log[first-1 : first-1+len(evs)])
}
