package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"fray/postgres/pgtest"
)

// The load benchmark's shape: how long each phase runs and how much it
// sends. See BenchmarkPostgresLoad.
const (
	// loadPhase is how long each measured phase runs.
	loadPhase = 10 * time.Second
	// loadWriters is how many clients send commands at once in the
	// closed loop, each to a table of its own, and how many connections
	// the raw insert floor uses.
	loadWriters = 48
	// loadPaced is the paced load, in commands a second across the three
	// instances, spread over loadTables tables.
	loadPaced  = 2000
	loadTables = 96
	// loadStreams is how many live streams watch the fan-out table, on
	// the two instances that do not take its commands; loadFanRate is how
	// many commands a second that table gets.
	loadStreams = 500
	loadFanRate = 20
)

// loadClient is the HTTP client of the load benchmark: it keeps enough
// idle connections that thousands of requests a second reuse them.
var loadClient = &http.Client{Timeout: requestWait, Transport: &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 512}}

// loadCommand sends "note Ann load" to tab on in at rev and returns the
// new revision.
func loadCommand(in *instance, tab table, rev int) (int, error) {
	body := `{"command":"note Ann load","revision":` + strconv.Itoa(rev) + `}`
	req, err := http.NewRequest("POST", in.URL()+"api/encounters/"+tab.ID+"/commands", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tab.Token)
	res, err := loadClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	var done struct{ Revision int }
	if err := json.NewDecoder(res.Body).Decode(&done); err != nil {
		return 0, fmt.Errorf("an unreadable reply (status %d): %w", res.StatusCode, err)
	}
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %d", res.StatusCode)
	}
	return done.Revision, nil
}

// quantile returns the q-quantile of sorted durations, in milliseconds.
func quantile(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return float64(sorted[min(len(sorted)-1, int(q*float64(len(sorted))))].Microseconds()) / 1000
}

// rawInserts measures PostgreSQL's own rate of single-row insert
// transactions from Go, from loadWriters connections for d: the floor
// the commands are compared with (each command is one such transaction
// and more: the revision check, the event, the notice).
func rawInserts(b *testing.B, url string, d time.Duration) float64 {
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		b.Fatal(err)
	}
	cfg.MaxConns = loadWriters
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS load_raw (id bigserial PRIMARY KEY, enc text NOT NULL, data jsonb NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	var n atomic.Int64
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range loadWriters {
		wg.Go(func() {
			for time.Now().Before(stop) {
				if _, err := pool.Exec(ctx, `INSERT INTO load_raw (enc, data) VALUES ($1, $2)`, "w"+strconv.Itoa(w), `{"type":"noted"}`); err != nil {
					b.Error(err)
					return
				}
				n.Add(1)
			}
		})
	}
	wg.Wait()
	return float64(n.Load()) / d.Seconds()
}

// sseTimes holds a live stream open and notes when each message id
// arrived.
type sseTimes struct {
	mu   sync.Mutex
	at   map[int]time.Time
	last int           // the last revision received
	open chan struct{} // closed once the first message came
}

func watch(b *testing.B, ctx context.Context, in *instance, tab table) *sseTimes {
	req, err := http.NewRequestWithContext(ctx, "GET", in.URL()+"api/encounters/"+tab.ID+"/events", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tab.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatalf("open a stream: %v", err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		b.Fatalf("open a stream: status %d", res.StatusCode)
	}
	s := &sseTimes{at: map[int]time.Time{}, open: make(chan struct{})}
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 16<<20)
		first := true
		for sc.Scan() {
			line := sc.Text()
			if id, ok := strings.CutPrefix(line, "id: "); ok {
				// One message may carry several events: it brings every
				// revision up to its id.
				n, _ := strconv.Atoi(id)
				now := time.Now()
				s.mu.Lock()
				if first {
					s.last = n
				}
				for ; s.last < n; s.last++ {
					s.at[s.last+1] = now
				}
				s.mu.Unlock()
				if first {
					close(s.open)
					first = false
				}
			}
		}
	}()
	return s
}

// BenchmarkPostgresLoad runs three fray serve processes on one
// PostgreSQL database over loopback and reports, in one run:
//   - raw-inserts/s: PostgreSQL's single-row insert transactions a second
//     from Go (loadWriters connections), the floor;
//   - closed-cmds/s: acknowledged commands a second with loadWriters
//     clients each sending its next command as soon as the last is
//     answered, spread over the three instances, and their ratio to the
//     floor (cmds/raw);
//   - paced-p50-ms, paced-p99-ms: the answer time of commands sent at a
//     steady loadPaced a second across the instances;
//   - fanout-p50-ms, fanout-p99-ms: during the paced load, the time from
//     sending a command to instance A until each of loadStreams live
//     streams on B and C has it;
//   - answered-fanout-p50-ms, answered-fanout-p99-ms: the same from A's
//     answer to the command (it had committed by then) instead, so
//     without the command's own time on A: the way across instances
//     (0 for a stream that had it before the answer came).
//
// go test -run '^$' -bench PostgresLoad -benchtime 1x ./cmd/fray/ (with
// FRAY_TEST_POSTGRES set, as ./scripts/test does).
func BenchmarkPostgresLoad(b *testing.B) {
	db := pgtest.NewDatabase(b)
	bin := buildFray(b, b.TempDir())
	limits := []string{"--max-client-streams", "1000", "--max-encounter-streams", "1000", "--max-streams", "2000"}
	ins := []*instance{startInstance(b, bin, db, limits...), startInstance(b, bin, db, limits...), startInstance(b, bin, db, limits...)}
	for b.Loop() {
		raw := rawInserts(b, db, loadPhase)

		// The closed loop.
		tabs := make([]table, loadTables)
		for i := range tabs {
			tabs[i] = newTable(b, ins[i%3])
		}
		revs := make([]int, loadTables)
		for i := range revs {
			revs[i] = 1
		}
		var acked atomic.Int64
		stop := time.Now().Add(loadPhase)
		var wg sync.WaitGroup
		for w := range loadWriters {
			wg.Go(func() {
				in := ins[w%3]
				for time.Now().Before(stop) {
					rev, err := loadCommand(in, tabs[w], revs[w])
					if err != nil {
						b.Errorf("closed loop: %v", err)
						return
					}
					revs[w] = rev
					acked.Add(1)
				}
			})
		}
		wg.Wait()
		closed := float64(acked.Load()) / loadPhase.Seconds()

		// The paced load, with the fan-out table watched meanwhile.
		ctx, cancel := context.WithCancel(context.Background())
		fan := newTable(b, ins[0])
		watchers := make([]*sseTimes, loadStreams)
		for i := range watchers {
			watchers[i] = watch(b, ctx, ins[1+i%2], fan)
		}
		for _, w := range watchers {
			select {
			case <-w.open:
			case <-time.After(eventWait):
				b.Fatalf("a stream sent nothing within %v (eventWait)", eventWait)
			}
		}
		var mu sync.Mutex
		var paced []time.Duration
		perTable := float64(loadPaced) / loadTables
		stop = time.Now().Add(loadPhase)
		for t := range loadTables {
			wg.Go(func() {
				in := ins[t%3]
				interval := time.Duration(float64(time.Second) / perTable)
				next := time.Now().Add(time.Duration(t) * interval / loadTables)
				for next.Before(stop) {
					time.Sleep(time.Until(next)) // pacing, not waiting on a result
					start := time.Now()
					rev, err := loadCommand(in, tabs[t], revs[t])
					if err != nil {
						b.Errorf("paced: %v", err)
						return
					}
					revs[t] = rev
					mu.Lock()
					paced = append(paced, time.Since(start))
					mu.Unlock()
					next = next.Add(interval)
				}
			})
		}
		sent, answered := map[int]time.Time{}, map[int]time.Time{}
		rev := 1
		for next := time.Now(); next.Before(stop); next = next.Add(time.Second / loadFanRate) {
			time.Sleep(time.Until(next))
			start := time.Now()
			r, err := loadCommand(ins[0], fan, rev)
			if err != nil {
				b.Fatalf("fan-out command: %v", err)
			}
			sent[r], answered[r], rev = start, time.Now(), r
		}
		wg.Wait()
		// Every stream must have every command: wait for the last.
		deadline := time.Now().Add(eventWait)
		var fanout, across []time.Duration
		for _, w := range watchers {
			for {
				w.mu.Lock()
				_, ok := w.at[rev]
				w.mu.Unlock()
				if ok {
					break
				}
				if time.Now().After(deadline) {
					b.Fatalf("a stream did not receive revision %d within %v (eventWait)", rev, eventWait)
				}
				time.Sleep(10 * time.Millisecond) // polling a condition
			}
			w.mu.Lock()
			for r, t0 := range sent {
				t1, ok := w.at[r]
				if !ok {
					b.Fatalf("a stream skipped revision %d", r)
				}
				fanout = append(fanout, t1.Sub(t0))
				across = append(across, max(0, t1.Sub(answered[r])))
			}
			w.mu.Unlock()
		}
		cancel()
		slices.Sort(paced)
		slices.Sort(fanout)
		slices.Sort(across)
		b.ReportMetric(raw, "raw-inserts/s")
		b.ReportMetric(closed, "closed-cmds/s")
		b.ReportMetric(closed/raw, "cmds/raw")
		b.ReportMetric(float64(len(paced))/loadPhase.Seconds(), "paced-cmds/s")
		b.ReportMetric(quantile(paced, 0.50), "paced-p50-ms")
		b.ReportMetric(quantile(paced, 0.99), "paced-p99-ms")
		b.ReportMetric(quantile(fanout, 0.50), "fanout-p50-ms")
		b.ReportMetric(quantile(fanout, 0.99), "fanout-p99-ms")
		b.ReportMetric(quantile(across, 0.50), "answered-fanout-p50-ms")
		b.ReportMetric(quantile(across, 0.99), "answered-fanout-p99-ms")
	}
}
