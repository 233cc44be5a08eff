package web

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"sync"

	"fray"
)

// Change is one append to an encounter's log, as a Broker fans it out to
// the event streams of that encounter.
//
// A Change may carry only Encounter and Revision (a broker that crosses
// processes; a server that could not bring its cached encounter up to
// date after a store's notice, or replayed it whole): a stream that gets
// a Change without the events it lacks reads them from the store, and
// reads the view when View is nil.
type Change struct {
	// Encounter is the encounter's id.
	Encounter string
	// Revision is the log's revision after the append.
	Revision int
	// Events are the events appended, ending at Revision; nil when the
	// broker does not carry them.
	Events []fray.Event
	// Told holds the GM's words for Events, one for each, told in the
	// state before each (engine.TellEvents); nil when not worked out,
	// and the events are then told from themselves alone.
	Told []fray.Told
	// View is the GM's view after the append, or nil.
	View *fray.View
	// Sight is what players may know after the append, or nil when View
	// is nil.
	Sight *Sight

	once   [2]sync.Once
	frames [2][]byte // the encoded SSE frame for a GM [0] and a player [1]
}

// frame returns the SSE frame of the change for role, encoded once for
// every stream of that role. It needs Events and View.
func (c *Change) frame(role string) []byte {
	i := 0
	if role != fray.RoleGM {
		i = 1
	}
	c.once[i].Do(func() {
		v, evs := Redact(role, c.Sight, *c.View, c.Events)
		c.frames[i] = sseFrame(c.Revision, v, tellShown(role, c.Sight, c.Told, evs))
	})
	return c.frames[i]
}

// sseFrame encodes one change as an SSE message: id, event type and data.
func sseFrame(rev int, v View, evs []toldEvent) []byte {
	if evs == nil {
		evs = []toldEvent{}
	}
	data, err := json.Marshal(commandDone{Revision: rev, Events: evs, View: v})
	if err != nil {
		data = []byte(`{"error":{"code":"internal","message":"The change could not be encoded."}}`)
	}
	b := make([]byte, 0, len(data)+48)
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, int64(rev), 10)
	b = append(b, "\nevent: change\ndata: "...)
	b = append(b, data...) // JSON holds no raw line break
	return append(b, "\n\n"...)
}

// Broker fans changes out to the streams watching an encounter. Publish
// must never block: a subscriber whose buffer is full is dropped (its
// channel closed) and resumes from the store when its client reconnects.
type Broker interface {
	// Publish sends the change to every subscriber of its encounter.
	Publish(c *Change)
	// Subscribe returns a channel of the encounter's changes, buffered
	// for buffer of them, and a function that ends the subscription.
	// The channel is closed when the subscriber is dropped or ended.
	Subscribe(encounter string, buffer int) (<-chan *Change, func())
}

// NewBroker returns a Broker within one process.
func NewBroker() Broker { return &broker{subs: map[string]map[*sub]struct{}{}} }

type broker struct {
	mu   sync.Mutex
	subs map[string]map[*sub]struct{}
}

type sub struct {
	ch     chan *Change
	closed bool
}

func (b *broker) Publish(p *Change) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs[p.Encounter] {
		select {
		case s.ch <- p:
		default:
			// Too slow: drop it rather than make everyone wait.
			b.remove(p.Encounter, s)
		}
	}
}

func (b *broker) Subscribe(encounter string, buffer int) (<-chan *Change, func()) {
	s := &sub{ch: make(chan *Change, max(buffer, 1))}
	b.mu.Lock()
	if b.subs[encounter] == nil {
		b.subs[encounter] = map[*sub]struct{}{}
	}
	b.subs[encounter][s] = struct{}{}
	b.mu.Unlock()
	return s.ch, func() {
		b.mu.Lock()
		b.remove(encounter, s)
		b.mu.Unlock()
	}
}

// remove ends a subscription; b.mu is held.
func (b *broker) remove(encounter string, s *sub) {
	if s.closed {
		return
	}
	s.closed = true
	close(s.ch)
	delete(b.subs[encounter], s)
	if len(b.subs[encounter]) == 0 {
		delete(b.subs, encounter)
	}
}

// follower brings the encounters this server streams up to date when the
// store announces appends (fray.Notifier): another server on the same
// database accepted a command, and the streams here must send its events.
// Notices of one encounter are taken in turn, by one goroutine at a time
// for that encounter, and those that come meanwhile are merged into one
// catch-up; so the goroutines are at most the encounters streamed here,
// which MaxSubscribers bounds.
type follower struct {
	mu      sync.Mutex
	pending map[string]followWork // what each encounter must catch up to, by id
	busy    map[string]bool       // the encounters a goroutine is catching up
}

// followWork is what one encounter must catch up to.
type followWork struct {
	rev   int  // the highest revision announced
	fresh bool // every encounter may have changed: ask the store
}

// follow takes the notices of n until the server is closed or the store
// stops announcing.
func (s *Server) follow(n fray.Notifier) error {
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := n.Notify(ctx)
	if err != nil {
		cancel()
		return err
	}
	s.followed = &follower{pending: map[string]followWork{}, busy: map[string]bool{}}
	go func() {
		defer cancel()
		for {
			select {
			case <-s.done:
				return
			case n, ok := <-ch:
				if !ok {
					return
				}
				s.notice(ctx, n)
			}
		}
	}()
	return nil
}

// notice queues the catch-up a notice calls for: of its encounter when a
// stream here watches it, of every encounter streamed here for a notice
// that stands for all. An encounter no stream watches needs nothing: a
// request for it reads the store's revision (lockEntry), and a command
// on a stale one is refused by the store.
func (s *Server) notice(ctx context.Context, n fray.Notice) {
	s.mu.Lock()
	var ids []string
	if n.All() {
		for id := range s.budget.encounterStreams {
			ids = append(ids, id)
		}
	} else if s.budget.encounterStreams[n.Encounter] > 0 {
		ids = append(ids, n.Encounter)
	}
	s.mu.Unlock()
	f := s.followed
	for _, id := range ids {
		f.mu.Lock()
		w := f.pending[id]
		w.rev, w.fresh = max(w.rev, n.Revision), w.fresh || n.All()
		f.pending[id] = w
		start := !f.busy[id]
		f.busy[id] = true
		f.mu.Unlock()
		if start {
			go s.catchUpLoop(ctx, id)
		}
	}
}

// catchUpLoop brings the encounter id up to date until no notice for it
// is pending.
func (s *Server) catchUpLoop(ctx context.Context, id string) {
	f := s.followed
	for {
		f.mu.Lock()
		w, ok := f.pending[id]
		delete(f.pending, id)
		if !ok {
			delete(f.busy, id)
		}
		f.mu.Unlock()
		if !ok {
			return
		}
		s.catchUpEntry(ctx, id, w)
	}
}

// catchUpEntry brings the cached entry of the encounter id up to the
// revision w announces (the store's, when w is fresh); refresh publishes
// the change to the streams. When that fails, a change without events
// sends the streams to the store, where each catches up or ends, and its
// client resumes from Last-Event-ID.
func (s *Server) catchUpEntry(ctx context.Context, id string, w followWork) {
	e, err := s.lockEntry(ctx, id, w.fresh)
	if err == nil {
		if e.rev < w.rev {
			err = s.refresh(ctx, id, e)
		}
		e.unlock()
	}
	if err == nil || ctx.Err() != nil {
		return
	}
	s.log.Warn("encounter not brought up to date", "encounter", id, "revision", w.rev, "err", err)
	rev := w.rev
	if w.fresh {
		rev = math.MaxInt // past anything any stream has sent
	}
	s.broker.Publish(&Change{Encounter: id, Revision: rev})
}

// watched reports whether an event stream here watches the encounter id.
func (s *Server) watched(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.budget.encounterStreams[id] > 0
}
