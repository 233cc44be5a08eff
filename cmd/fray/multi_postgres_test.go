package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"fray/postgres/pgtest"
)

// Budgets of the multi-instance tests, each far above what a loaded
// machine takes, so that one ten times slower passes too.
const (
	// buildWait bounds building the fray binary.
	buildWait = 10 * time.Minute
	// startWait bounds an instance's start, until it prints its URL.
	startWait = 2 * time.Minute
	// stopWait bounds an instance's graceful stop.
	stopWait = time.Minute
	// requestWait bounds one HTTP request.
	requestWait = time.Minute
	// eventWait bounds the wait for the events a stream must receive.
	eventWait = 2 * time.Minute
)

// buildFray builds the fray command into dir and returns its path.
func buildFray(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(dir, "fray")
	ctx, cancel := context.WithTimeout(context.Background(), buildWait)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		tb.Fatalf("go build (buildWait %v): %v\n%s", buildWait, err, out)
	}
	return bin
}

// instance is one `fray serve` child process on a database, restarted
// after a kill as a new process on the same database.
type instance struct {
	tb   testing.TB
	bin  string
	db   string
	args []string // more flags of fray serve

	mu     sync.Mutex
	base   string        // the URL it printed
	proc   *exec.Cmd     // nil once killed
	exited chan struct{} // closed when proc has exited
	stderr *syncBuffer
	ready  chan struct{} // closed while the instance serves
}

// startInstance starts fray serve on db and waits until it serves. It is
// stopped when the test ends.
func startInstance(tb testing.TB, bin, db string, args ...string) *instance {
	tb.Helper()
	in := &instance{tb: tb, bin: bin, db: db, args: args, ready: make(chan struct{})}
	in.start(tb)
	tb.Cleanup(in.stop)
	return in
}

// start runs a new process and waits for its URL.
func (in *instance) start(tb testing.TB) {
	tb.Helper()
	cmd := exec.Command(in.bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", in.db,
		"--rate", "1000000", "--burst", "1000000"}, in.args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	exited := make(chan struct{})
	urls := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`open (http://127\.0\.0\.1:\d+/)`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
		cmd.Wait()
		close(exited)
	}()
	select {
	case base := <-urls:
		in.mu.Lock()
		in.base, in.proc, in.exited, in.stderr = base, cmd, exited, stderr
		close(in.ready)
		in.mu.Unlock()
	case <-exited:
		tb.Fatalf("fray serve exited before serving:\n%s", stderr.String())
	case <-time.After(startWait):
		cmd.Process.Kill()
		tb.Fatalf("fray serve printed no URL within %v (startWait):\n%s", startWait, stderr.String())
	}
}

// URL returns the instance's URL; it changes when it is restarted.
func (in *instance) URL() string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.base
}

// waitReady waits until the instance serves, or stop is closed.
func (in *instance) waitReady(stop <-chan struct{}) {
	in.mu.Lock()
	ready := in.ready
	in.mu.Unlock()
	select {
	case <-ready:
	case <-stop:
	}
}

// kill ends the process with SIGKILL, as a machine lost does, and waits
// for it to be gone.
func (in *instance) kill(tb testing.TB) {
	tb.Helper()
	in.mu.Lock()
	proc, exited := in.proc, in.exited
	in.proc, in.ready = nil, make(chan struct{})
	in.mu.Unlock()
	if proc == nil {
		return
	}
	proc.Process.Kill()
	select {
	case <-exited:
	case <-time.After(stopWait):
		tb.Fatalf("fray serve was not gone %v (stopWait) after SIGKILL", stopWait)
	}
}

// stop ends the process gracefully, with SIGTERM, and reports what it
// wrote to stderr when it does not exit 0.
func (in *instance) stop() {
	in.mu.Lock()
	proc, exited, stderr := in.proc, in.exited, in.stderr
	in.proc = nil
	in.mu.Unlock()
	if proc == nil {
		return
	}
	proc.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		if !proc.ProcessState.Success() {
			in.tb.Errorf("fray serve: %v:\n%s", proc.ProcessState, stderr.String())
		}
	case <-time.After(stopWait):
		proc.Process.Kill()
		<-exited
		in.tb.Errorf("fray serve did not stop within %v (stopWait):\n%s", stopWait, stderr.String())
	}
}

var client = &http.Client{Timeout: requestWait}

// do sends a request with a JSON body (none when body is "") and returns
// the status and the whole answer. An answer that cannot be read whole
// is an error: it acknowledges nothing.
func do(method, u, token, body string) (int, []byte, error) {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, err
	}
	return res.StatusCode, b, nil
}

// table is an encounter made for a test: its id and the GM's token.
type table struct{ ID, Token string }

// newTable creates an encounter on in with one combatant, Ann, and
// returns it at revision 1.
func newTable(tb testing.TB, in *instance) table {
	tb.Helper()
	code, b, err := do("POST", in.URL()+"api/encounters", "", `{"rules":"bpb","name":"Docks"}`)
	var tab table
	if err == nil && code == http.StatusCreated {
		err = json.Unmarshal(b, &tab)
	}
	if err != nil || code != http.StatusCreated {
		tb.Fatalf("create: %d %s %v", code, b, err)
	}
	if rev, code, err := command(in, tab, "add Ann side=pc", 0); err != nil || code != http.StatusOK || rev != 1 {
		tb.Fatalf("add Ann: %d, revision %d, %v", code, rev, err)
	}
	return tab
}

// command sends a command at a revision and returns the revision its
// 200 reply gives, with the status.
func command(in *instance, tab table, text string, rev int) (int, int, error) {
	body, _ := json.Marshal(map[string]any{"command": text, "revision": rev})
	code, b, err := do("POST", in.URL()+"api/encounters/"+tab.ID+"/commands", tab.Token, string(body))
	if err != nil || code != http.StatusOK {
		return 0, code, err
	}
	var done struct{ Revision int }
	if err := json.Unmarshal(b, &done); err != nil {
		return 0, code, fmt.Errorf("an unreadable reply: %w", err)
	}
	return done.Revision, code, nil
}

// revision returns the encounter's revision as in serves it.
func revision(in *instance, tab table) (int, error) {
	code, b, err := do("GET", in.URL()+"api/encounters/"+tab.ID, tab.Token, "")
	if err != nil {
		return 0, err
	}
	if code != http.StatusOK {
		return 0, fmt.Errorf("GET the encounter: %d %s", code, b)
	}
	var got struct{ Revision int }
	err = json.Unmarshal(b, &got)
	return got.Revision, err
}

// logged is an event as the log and the streams give it.
type logged struct {
	Seq     int    `json:"seq"`
	Command string `json:"command"`
}

// readLog returns the events of the encounter's exported log, checking
// that they are numbered from 1 with no gap or duplicate.
func readLog(tb testing.TB, in *instance, tab table) []logged {
	tb.Helper()
	code, b, err := do("GET", in.URL()+"api/encounters/"+tab.ID+"/log", tab.Token, "")
	if err != nil || code != http.StatusOK {
		tb.Fatalf("GET the log: %d %v", code, err)
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	var evs []logged
	for i, line := range lines[1:] { // the first line is the header
		var ev logged
		if err := json.Unmarshal(line, &ev); err != nil {
			tb.Fatalf("log line %d: %v: %s", i+2, err, line)
		}
		if ev.Seq != i+1 {
			tb.Fatalf("log line %d holds event %d, want %d: a gap or a duplicate", i+2, ev.Seq, i+1)
		}
		evs = append(evs, ev)
	}
	return evs
}

// message is one message of an event stream.
type message struct {
	ID     int
	Events []logged
}

// stream is a live event stream held open by a test.
type stream struct {
	msgs   chan message
	ended  chan struct{} // closed when the stream ends
	cancel context.CancelFunc
}

// openStream opens the encounter's event stream on in, resuming after
// last when last is not negative.
func openStream(tb testing.TB, in *instance, tab table, last int) *stream {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", in.URL()+"api/encounters/"+tab.ID+"/events", nil)
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tab.Token)
	if last >= 0 {
		req.Header.Set("Last-Event-ID", strconv.Itoa(last))
	}
	res, err := http.DefaultClient.Do(req) // no timeout: it stays open
	if err != nil {
		cancel()
		tb.Fatalf("open the stream: %v", err)
	}
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		cancel()
		tb.Fatalf("open the stream: %d %s", res.StatusCode, b)
	}
	s := &stream{msgs: make(chan message, 1<<16), ended: make(chan struct{}), cancel: cancel}
	tb.Cleanup(cancel)
	go func() {
		defer close(s.ended)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 16<<20)
		var m message
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				m.ID, _ = strconv.Atoi(line[len("id: "):])
			case strings.HasPrefix(line, "data: "):
				var d struct{ Events []logged }
				if json.Unmarshal([]byte(line[len("data: "):]), &d) == nil {
					m.Events = d.Events
				}
			case line == "" && m.ID > 0:
				s.msgs <- m
				m = message{}
			}
		}
	}()
	return s
}

// reader follows what a stream (and the streams that resume it) sent,
// checking each event comes once, in order, and each message's id.
type reader struct {
	last   int      // the id of the last message
	events []logged // the events received after the first message, in order
}

// take reads the stream's messages until it has sent revision want,
// failing the test when a message breaks the order or none comes in
// time. It returns false when the stream ended first.
func (r *reader) take(tb testing.TB, s *stream, want int) bool {
	tb.Helper()
	deadline := time.After(eventWait)
	for r.last < want {
		select {
		case m := <-s.msgs:
			r.check(tb, m)
		case <-s.ended:
			for {
				select {
				case m := <-s.msgs:
					r.check(tb, m)
				default:
					return r.last >= want
				}
			}
		case <-deadline:
			tb.Fatalf("the stream sent up to revision %d within %v (eventWait), want %d", r.last, eventWait, want)
		}
	}
	return true
}

// check takes in one message.
func (r *reader) check(tb testing.TB, m message) {
	tb.Helper()
	if r.last == 0 && len(m.Events) == 0 {
		r.last = m.ID // the first message: the state now
		return
	}
	for _, ev := range m.Events {
		if ev.Seq != r.last+1 {
			tb.Fatalf("the stream sent event %d after %d: out of order, missing or twice", ev.Seq, r.last)
		}
		r.events = append(r.events, ev)
		r.last = ev.Seq
	}
	if m.ID != r.last {
		tb.Fatalf("a message with id %d after event %d", m.ID, r.last)
	}
}

// compare checks that the events a stream sent are those of the log.
func compare(tb testing.TB, what string, got, log []logged) {
	tb.Helper()
	if !slices.Equal(got, log[:min(len(got), len(log))]) || len(got) != len(log) {
		tb.Errorf("%s sent %d events that differ from the log's %d", what, len(got), len(log))
	}
}

// TestMultiInstancePostgres runs three fray serve processes on one
// PostgreSQL database, as behind a reverse proxy.
func TestMultiInstancePostgres(t *testing.T) {
	db := pgtest.NewDatabase(t)
	bin := buildFray(t, t.TempDir())
	ins := []*instance{startInstance(t, bin, db), startInstance(t, bin, db), startInstance(t, bin, db)}

	t.Run("racing writers", func(t *testing.T) {
		tab := newTable(t, ins[0])
		const rounds = 15
		rev := 1
		winners := map[int]string{}
		for round := range rounds {
			type result struct {
				code, rev int
				text      string
				err       error
			}
			results := make([]result, len(ins))
			var wg sync.WaitGroup
			for i, in := range ins {
				wg.Go(func() {
					text := fmt.Sprintf("note Ann r%d-%d", round, i)
					r, code, err := command(in, tab, text, rev)
					results[i] = result{code, r, text, err}
				})
			}
			wg.Wait()
			ok, conflicts := 0, 0
			for i, r := range results {
				switch {
				case r.err != nil:
					t.Fatalf("round %d, instance %d: %v", round, i, r.err)
				case r.code == http.StatusOK && r.rev == rev+1:
					ok++
					winners[r.rev] = r.text
				case r.code == http.StatusConflict:
					conflicts++
				default:
					t.Errorf("round %d, instance %d: %d at revision %d", round, i, r.code, r.rev)
				}
			}
			if ok != 1 || conflicts != len(ins)-1 {
				t.Fatalf("round %d at revision %d: %d answers 200 and %d 409, want 1 and %d", round, rev, ok, conflicts, len(ins)-1)
			}
			rev++
		}
		log := readLog(t, ins[1], tab)
		if len(log) != rev {
			t.Fatalf("the log holds %d events, want %d", len(log), rev)
		}
		for seq, text := range winners {
			if log[seq-1].Command != text {
				t.Errorf("event %d is %q, want the command that got 200, %q", seq, log[seq-1].Command, text)
			}
		}
	})

	t.Run("a stream sees the others' commands", func(t *testing.T) {
		tab := newTable(t, ins[0])
		s := openStream(t, ins[0], tab, -1)
		var r reader
		if !r.take(t, s, 1) {
			t.Fatal("the stream ended")
		}
		rev := 1
		for k := range 30 {
			in := ins[1+k%2]
			next, code, err := command(in, tab, fmt.Sprintf("note Ann b%d", k), rev)
			if err != nil || code != http.StatusOK {
				t.Fatalf("command %d: %d %v", k, code, err)
			}
			rev = next
		}
		if !r.take(t, s, rev) {
			t.Fatalf("the stream ended at revision %d, before %d", r.last, rev)
		}
		compare(t, "the stream", r.events, readLog(t, ins[2], tab)[1:])
	})

	t.Run("a lost listener catches up", func(t *testing.T) {
		tab := newTable(t, ins[0])
		s := openStream(t, ins[0], tab, -1)
		var r reader
		if !r.take(t, s, 1) {
			t.Fatal("the stream ended")
		}
		rev := 1
		for round := range 3 {
			// The listening connections are lost; the commands sent
			// meanwhile reach the stream once its instance listens again.
			// At first every instance listens (the subtest before proved
			// the first's); later, those still connecting again are not
			// there to be ended, so at least one is asked for.
			want := 1
			if round == 0 {
				want = len(ins)
			}
			if n := terminateListeners(t, db); n < want {
				t.Fatalf("round %d: %d listening connections ended, want %d", round, n, want)
			}
			for k := range 5 {
				next, code, err := command(ins[1], tab, fmt.Sprintf("note Ann l%d-%d", round, k), rev)
				if err != nil || code != http.StatusOK {
					t.Fatalf("command: %d %v", code, err)
				}
				rev = next
			}
			if !r.take(t, s, rev) {
				t.Fatalf("the stream ended at revision %d, before %d", r.last, rev)
			}
		}
		compare(t, "the stream", r.events, readLog(t, ins[0], tab)[1:])
	})

	t.Run("kill -9 under load", func(t *testing.T) {
		tab := newTable(t, ins[0])
		survivor := openStream(t, ins[0], tab, -1)
		victim := openStream(t, ins[2], tab, -1)
		var rs, rv reader
		if !rs.take(t, survivor, 1) || !rv.take(t, victim, 1) {
			t.Fatal("a stream ended")
		}

		type ack struct {
			instance, rev int
			text          string
		}
		acks := make(chan ack, 1<<16)
		failures := make(chan string, 1<<10)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for i, in := range ins {
			wg.Go(func() {
				rev := 1
				for k := 0; ; k++ {
					select {
					case <-stop:
						return
					default:
					}
					text := fmt.Sprintf("note Ann c%d-%d", i, k)
					next, code, err := command(in, tab, text, rev)
					switch {
					case err != nil:
						// Not acknowledged, whether or not it was kept.
						in.waitReady(stop)
						rev, _ = revision(in, tab)
					case code == http.StatusOK:
						acks <- ack{i, next, text}
						rev = next
					case code == http.StatusConflict:
						if rev, err = revision(in, tab); err != nil {
							in.waitReady(stop)
						}
					default:
						failures <- fmt.Sprintf("instance %d: %q answered %d", i, text, code)
						return
					}
				}
			})
		}
		var all []ack
		byInstance := make([]int, len(ins))
		waitAcks := func(what string, done func() bool) {
			t.Helper()
			deadline := time.After(eventWait)
			for !done() {
				select {
				case a := <-acks:
					all = append(all, a)
					byInstance[a.instance]++
				case f := <-failures:
					close(stop)
					t.Fatal(f)
				case <-deadline:
					close(stop)
					t.Fatalf("%s: not within %v (eventWait); acknowledged by instance: %v", what, eventWait, byInstance)
				}
			}
		}
		waitAcks("commands acknowledged by every instance", func() bool {
			return byInstance[0] >= 5 && byInstance[1] >= 5 && byInstance[2] >= 5
		})
		ins[2].kill(t)
		before := slices.Clone(byInstance)
		waitAcks("the others keep serving", func() bool {
			return byInstance[0] >= before[0]+10 && byInstance[1] >= before[1]+10
		})
		ins[2].start(t)
		before = slices.Clone(byInstance)
		waitAcks("the restarted instance serves", func() bool { return byInstance[2] >= before[2]+5 })
		close(stop)
		wg.Wait()
		for len(acks) > 0 {
			all = append(all, <-acks)
		}

		log := readLog(t, ins[2], tab)
		seen := map[string]int{}
		for _, ev := range log {
			if ev.Command != "" {
				if seen[ev.Command]++; seen[ev.Command] > 1 {
					t.Errorf("%q is in the log twice", ev.Command)
				}
			}
		}
		for _, a := range all {
			if a.rev > len(log) || log[a.rev-1].Command != a.text {
				t.Errorf("instance %d acknowledged %q at revision %d; the log does not hold it there", a.instance, a.text, a.rev)
			}
		}

		final := len(log)
		if !rs.take(t, survivor, final) {
			t.Fatalf("the survivor's stream ended at revision %d, before %d", rs.last, final)
		}
		compare(t, "the survivor's stream", rs.events, log[1:])
		// The victim's stream broke with its process; it resumes from
		// the last id it got, on the restarted instance.
		rv.take(t, victim, final)
		if rv.last >= final {
			t.Fatal("the killed instance's stream outlived it")
		}
		resumed := openStream(t, ins[2], tab, rv.last)
		if !rv.take(t, resumed, final) {
			t.Fatalf("the resumed stream ended at revision %d, before %d", rv.last, final)
		}
		compare(t, "the resumed stream", rv.events, log[1:])
		t.Logf("%d commands acknowledged (%v by instance), %d events", len(all), byInstance, final)
	})
}

// terminateListeners ends the listening connections of every fray serve
// on the database at url, as a network failure would, and returns how
// many it ended.
func terminateListeners(tb testing.TB, url string) int {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), requestWait)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	err = conn.QueryRow(ctx, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = 'fray listen' AND datname = current_database()) AS ended`).Scan(&n)
	if err != nil {
		tb.Fatalf("end the listening connections: %v", err)
	}
	return n
}

// BenchmarkCrossInstance measures the fan-out across instances: the time
// from sending a command to one fray serve process until its event
// reaches a live stream held by another, both on one PostgreSQL
// database, one command at a time. It reports the median and the 99th
// percentile (go test -run '^$' -bench CrossInstance ./cmd/fray/).
func BenchmarkCrossInstance(b *testing.B) {
	db := pgtest.NewDatabase(b)
	bin := buildFray(b, b.TempDir())
	a, other := startInstance(b, bin, db), startInstance(b, bin, db)
	tab := newTable(b, a)
	s := openStream(b, a, tab, -1)
	var r reader
	r.take(b, s, 1)
	rev := 1
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		next, code, err := command(other, tab, "note Ann bench", rev)
		if err != nil || code != http.StatusOK {
			b.Fatalf("command: %d %v", code, err)
		}
		if !r.take(b, s, next) {
			b.Fatal("the stream ended")
		}
		lat = append(lat, time.Since(start))
		rev = next
	}
	slices.Sort(lat)
	at := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}
