package web

import (
	"encoding/json"
	"strconv"
	"sync"

	"fray"
)

// Change is one append to an encounter's log, as a Broker fans it out to
// the event streams of that encounter.
//
// A broker that crosses processes (PostgreSQL LISTEN/NOTIFY) can carry
// only Encounter and Revision: a stream that gets a Change without the
// events it lacks reads them from the store, and reads the view when
// View is nil.
type Change struct {
	// Encounter is the encounter's id.
	Encounter string
	// Revision is the log's revision after the append.
	Revision int
	// Events are the events appended, ending at Revision; nil when the
	// broker does not carry them.
	Events []fray.Event
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
		c.frames[i] = sseFrame(c.Revision, v, evs)
	})
	return c.frames[i]
}

// sseFrame encodes one change as an SSE message: id, event type and data.
func sseFrame(rev int, v View, evs []fray.Event) []byte {
	if evs == nil {
		evs = []fray.Event{}
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
