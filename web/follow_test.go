package web_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fray"
	"fray/sqlite"
	"fray/web"
)

// hub stands for a database that several servers share and that
// announces appends (fray.Notifier), as PostgreSQL does with
// LISTEN/NOTIFY: every successful append of any server's store is a
// notice to every listener, unless the hub is quiet (a listener's
// connection lost).
type hub struct {
	mu    sync.Mutex
	subs  map[chan fray.Notice]context.Context
	quiet bool
}

// notifying is one server's store on the hub's database.
type notifying struct {
	fray.Store
	hub *hub
}

func (n notifying) AppendEvents(ctx context.Context, id string, rev int, evs []fray.EventRecord) (int, error) {
	got, err := n.Store.AppendEvents(ctx, id, rev, evs)
	if err == nil {
		n.hub.send(fray.Notice{Encounter: id, Revision: got}, false)
	}
	return got, err
}

func (n notifying) Notify(ctx context.Context) (<-chan fray.Notice, error) {
	ch := make(chan fray.Notice, 1024)
	n.hub.mu.Lock()
	n.hub.subs[ch] = ctx
	n.hub.mu.Unlock()
	go func() {
		<-ctx.Done()
		n.hub.mu.Lock()
		delete(n.hub.subs, ch)
		close(ch)
		n.hub.mu.Unlock()
	}()
	return ch, nil
}

// send gives the notice to every listener, unless the hub is quiet and
// always is false.
func (h *hub) send(n fray.Notice, always bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.quiet && !always {
		return
	}
	for ch, ctx := range h.subs {
		select {
		case ch <- n:
		case <-ctx.Done():
		}
	}
}

// setQuiet makes the hub lose (or stop losing) the notices of appends.
func (h *hub) setQuiet(q bool) {
	h.mu.Lock()
	h.quiet = q
	h.mu.Unlock()
}

// twoServers starts two servers on one SQLite file whose store announces
// appends through a hub.
func twoServers(t *testing.T) (a, b *env, h *hub) {
	t.Helper()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "shared.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	h = &hub{subs: map[chan fray.Notice]context.Context{}}
	shared := func(c *web.Config) { c.Store = notifying{store, h} }
	return start(t, shared), start(t, shared), h
}

// follow reads a stream's changes until revision want, checking that each
// event comes once, in order, and each message's id; it returns the
// events. A GM's stream (whole) has every event; a player's leaves some
// out, but its messages still move on one revision at a time.
func follow(t *testing.T, s *stream, from, want int, whole bool) []fray.Event {
	t.Helper()
	var evs []fray.Event
	for seen := from; seen < want; {
		_, d := s.next(t)
		last := seen
		for _, ev := range d.Events {
			if ev.Seq <= last || whole && ev.Seq != last+1 {
				t.Fatalf("the stream sent event %d after %d:\n%s", ev.Seq, last, s.Raw.String())
			}
			last = ev.Seq
			evs = append(evs, ev)
		}
		if d.Revision <= seen || d.Revision < last || whole && d.Revision != last {
			t.Fatalf("a message at revision %d after revision %d:\n%s", d.Revision, seen, s.Raw.String())
		}
		seen = d.Revision
	}
	return evs
}

// TestFollowNotices: with a store that announces appends, a stream on
// one server sends the commands another server accepted, each once and
// in order, and a player's stream leaves out what the player may not
// see.
func TestFollowNotices(t *testing.T) {
	a, b, _ := twoServers(t)
	enc := b.create(t, "bpb", "")
	b.play(t, enc.ID, enc.Token, 0, "add Ann side=pc")
	player := a.link(t, enc.ID, enc.Token, "Ann")
	gm := a.open(t, enc.ID, enc.Token, "")
	pl := a.open(t, enc.ID, player.Token, "")
	for _, s := range []*stream{gm, pl} {
		if _, d := s.next(t); d.Revision != 1 {
			t.Fatalf("first message at revision %d, want 1", d.Revision)
		}
	}
	lines := []string{"add Zzyzx-Secret hidden=yes", "note Ann hello", "add Bo side=pc", "note Ann again"}
	d := b.play(t, enc.ID, enc.Token, 1, lines...)
	got := follow(t, gm, 1, d.Revision, true)
	follow(t, pl, 1, d.Revision, false)
	// Commands on a itself still reach its streams, once.
	d = a.play(t, enc.ID, enc.Token, d.Revision, "note Bo here")
	got = append(got, follow(t, gm, d.Revision-1, d.Revision, true)...)
	want := logEvents(t, b.log(t, enc.ID, enc.Token))[1:]
	if len(got) != len(want) {
		t.Fatalf("the GM's stream sent %d events, the log holds %d after the first", len(got), len(want))
	}
	for i := range got {
		if got[i].Seq != want[i].Seq || got[i].Type != want[i].Type || got[i].Command != want[i].Command {
			t.Errorf("event %d: %+v, the log holds %+v", got[i].Seq, got[i], want[i])
		}
	}
	follow(t, pl, d.Revision-1, d.Revision, false)
	pl.close()
	if strings.Contains(pl.Raw.String(), "Zzyzx") {
		t.Errorf("the player's stream names the hidden combatant:\n%s", pl.Raw.String())
	}
}

// TestFollowLostNotices: appends whose notices were lost (the store's
// listener reconnected) reach the streams when the store says every
// encounter may have changed.
func TestFollowLostNotices(t *testing.T) {
	a, b, h := twoServers(t)
	enc := b.create(t, "bpb", "")
	s := a.open(t, enc.ID, enc.Token, "")
	s.next(t)
	h.setQuiet(true)
	d := b.play(t, enc.ID, enc.Token, 0, "add Ann side=pc", "note Ann unheard")
	h.setQuiet(false)
	h.send(fray.Notice{}, true)
	follow(t, s, 0, d.Revision, true)
	// A notice of a revision the server holds sends nothing; the next
	// append comes alone.
	h.send(fray.Notice{Encounter: enc.ID, Revision: d.Revision}, true)
	d = b.play(t, enc.ID, enc.Token, d.Revision, "note Ann heard")
	if evs := follow(t, s, d.Revision-1, d.Revision, true); len(evs) != 1 {
		t.Fatalf("after the notice: %d events, want 1", len(evs))
	}
}
