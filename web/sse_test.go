package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"fray/web"
)

// message is one SSE message.
type message struct {
	ID, Event, Data string
	Comment         bool
}

// stream is an open event stream.
type stream struct {
	C      chan message
	Raw    *strings.Builder // every byte read, for scans
	cancel func()
	done   chan struct{}
}

// open opens the encounter's event stream with the token in the query,
// resuming after lastID when it is not "".
func (e *env) open(t testing.TB, id, token, lastID string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", e.url+"/api/encounters/"+id+"/events?token="+token, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := (&http.Client{}).Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		cancel()
		t.Fatalf("events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	s := &stream{C: make(chan message, 1024), Raw: &strings.Builder{}, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer close(s.C)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 4<<20)
		var m message
		for sc.Scan() {
			line := sc.Text()
			s.Raw.WriteString(line + "\n")
			switch {
			case line == "":
				if m != (message{}) {
					s.C <- m
				}
				m = message{}
			case strings.HasPrefix(line, ":"):
				m.Comment = true
			case strings.HasPrefix(line, "id: "):
				m.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				m.Event = line[7:]
			case strings.HasPrefix(line, "data: "):
				m.Data += line[6:]
			}
		}
	}()
	t.Cleanup(s.close)
	return s
}

// close ends the stream and waits for its reader; Raw is then complete.
func (s *stream) close() {
	s.cancel()
	<-s.done
}

// next returns the next change message, skipping comments.
func (s *stream) next(t testing.TB) (message, done) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-s.C:
			if !ok {
				t.Fatal("the stream ended")
			}
			if m.Event != "change" {
				continue
			}
			var d done
			if err := json.Unmarshal([]byte(m.Data), &d); err != nil {
				t.Fatalf("data %q: %v", m.Data, err)
			}
			if m.ID != strconv.Itoa(d.Revision) {
				t.Fatalf("id %s, revision %d", m.ID, d.Revision)
			}
			return m, d
		case <-timeout:
			t.Fatal("no message within 10 s")
		}
	}
}

// TestEvents: a stream receives the state, then each change with its
// events; a resumed stream gets what it missed from the log.
func TestEvents(t *testing.T) {
	e := start(t, func(c *web.Config) { c.Heartbeat = 50 * time.Millisecond })
	enc := e.create(t, "bpb", "")
	s := e.open(t, enc.ID, enc.Token, "")
	if _, d := s.next(t); d.Revision != 0 || len(d.Events) != 0 {
		t.Fatalf("first message: %+v", d)
	}
	lines := []string{"add Ann side=pc", "add Bear", "order Ann Bear", "start", "next"}
	d := e.play(t, enc.ID, enc.Token, 0, lines[:3]...)
	for rev := 1; rev <= 3; rev++ {
		_, got := s.next(t)
		if got.Revision != rev || len(got.Events) != 1 || got.Events[0].Seq != rev {
			t.Fatalf("change %d: %+v", rev, got)
		}
	}
	// A heartbeat comes while nothing happens.
	deadline := time.After(5 * time.Second)
	for beat := false; !beat; {
		select {
		case m := <-s.C:
			beat = m.Comment
		case <-deadline:
			t.Fatal("no heartbeat")
		}
	}
	s.close()
	d = e.play(t, enc.ID, enc.Token, d.Revision, lines[3:]...)

	// Resume after revision 2: events 3 onwards, in order, then live.
	r := e.open(t, enc.ID, enc.Token, "2")
	seen := 2
	for seen < d.Revision {
		_, got := r.next(t)
		for _, ev := range got.Events {
			if ev.Seq != seen+1 {
				t.Fatalf("resumed with event %d after %d", ev.Seq, seen)
			}
			seen = ev.Seq
		}
		if got.Revision != seen {
			t.Fatalf("revision %d after event %d", got.Revision, seen)
		}
	}
	d = e.play(t, enc.ID, enc.Token, d.Revision, "next")
	if _, got := r.next(t); got.Revision != d.Revision || got.View.Current != d.View.Current {
		t.Fatalf("live after resume: %+v", got)
	}
	// A bad Last-Event-ID is refused.
	req, _ := http.NewRequest("GET", e.url+"/api/encounters/"+enc.ID+"/events?token="+enc.Token, nil)
	req.Header.Set("Last-Event-ID", "x")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad Last-Event-ID: %d", res.StatusCode)
	}
}

// TestSlowSubscriber: a stream that does not read is dropped; the others
// get every change at once.
func TestSlowSubscriber(t *testing.T) {
	b := web.NewBroker()
	slow, cancelSlow := b.Subscribe("x", 2)
	defer cancelSlow()
	fast, cancelFast := b.Subscribe("x", 2)
	defer cancelFast()
	for rev := 1; rev <= 10; rev++ {
		b.Publish(&web.Change{Encounter: "x", Revision: rev})
		if c := <-fast; c.Revision != rev {
			t.Fatalf("fast got %d, want %d", c.Revision, rev)
		}
	}
	n := 0
	for range slow {
		n++
	}
	if n != 2 {
		t.Fatalf("the slow subscriber got %d changes before being dropped, want 2", n)
	}
}
