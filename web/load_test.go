package web_test

import (
	"bufio"
	"context"
	"database/sql"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fray"
	"fray/inmem"
	"fray/sqlite"
	"fray/web"
)

// The load benchmarks run a bounded load on loopback against a real
// server over a SQLite file, once each, and report their figures:
//
//	go test -run '^$' -bench 'Load$|Fanout' -benchtime 1x ./web
//
// BenchmarkLoad: acknowledged (durable) commands per second over HTTP
// spread across 100 encounters (one writer each), their p99 latency, and
// the raw rate of single-row SQLite insert transactions on the same disk
// in the same run, with the ratio of the two. BenchmarkFanout: how long
// one change takes to reach 500 event streams.

const (
	loadEncounters = 100
	loadCommands   = 20_000           // at most, in all
	loadTime       = 10 * time.Second // at most
	// The second phase sends commands at a fixed rate, spread evenly
	// over the encounters, and measures each command's latency from the
	// moment it was due (so that a stall counts for every command it
	// delays). The rate is half the first phase's, at most loadRate, so
	// that it measures latency at a load the machine can carry today.
	loadRate     = 2000 // commands a second, at most
	loadRateTime = 5 * time.Second
)

func loadEnv(b *testing.B, store fray.Store, appends *latencies) *env {
	return start(b, func(c *web.Config) {
		c.Limits.Rate = 0 // one client makes the whole load
		c.Limits.MaxSubscribers = 1000
		c.Limits.MaxClientStreams = 0    // every stream comes from this one address
		c.Limits.MaxEncounterStreams = 0 // and the fan-out watches one encounter
		if store != nil {
			c.Store = store
		}
		if appends != nil {
			c.Store = timedStore{c.Store, appends}
		}
	})
}

// latencies collects durations from many goroutines.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// take returns the durations collected and forgets them.
func (l *latencies) take() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.d
	l.d = nil
	return d
}

// timedStore times each AppendEvents of the store it wraps.
type timedStore struct {
	fray.Store
	lat *latencies
}

func (s timedStore) AppendEvents(ctx context.Context, id string, revision int, evs []fray.EventRecord) (int, error) {
	t0 := time.Now()
	defer func() { s.lat.add(time.Since(t0)) }()
	return s.Store.AppendEvents(ctx, id, revision, evs)
}

func BenchmarkLoad(b *testing.B) { benchLoad(b, nil) }

// BenchmarkLoadInmem is BenchmarkLoad on the in-memory store: the ceiling
// of the HTTP layer and the engine on this machine, with no disk.
func BenchmarkLoadInmem(b *testing.B) { benchLoad(b, inmem.New()) }

func benchLoad(b *testing.B, store fray.Store) {
	for b.Loop() {
		var appends latencies
		e := loadEnv(b, store, &appends)
		encs := make([]created, loadEncounters)
		revs := make([]int, loadEncounters)
		for i := range encs {
			encs[i] = e.create(b, "queue", "")
			revs[i] = e.play(b, encs[i].ID, encs[i].Token, 0, "add Ann side=pc wits=2", "add Bear wits=1", "start").Revision
		}
		var mu sync.Mutex
		var lat []time.Duration
		ctx, cancel := context.WithTimeout(context.Background(), loadTime)
		var wg sync.WaitGroup
		begin := time.Now()
		per := loadCommands / loadEncounters
		for i := range encs {
			wg.Go(func() {
				mine := make([]time.Duration, 0, per)
				defer func() { mu.Lock(); lat = append(lat, mine...); mu.Unlock() }()
				for range per {
					if ctx.Err() != nil {
						return
					}
					t0 := time.Now()
					req, _ := http.NewRequestWithContext(ctx, "POST", e.url+"/api/encounters/"+encs[i].ID+"/commands",
						strings.NewReader(`{"command":"next","revision":`+strconv.Itoa(revs[i])+`}`))
					req.Header.Set("Authorization", "Bearer "+encs[i].Token)
					res, err := e.client.Do(req)
					if err != nil {
						return
					}
					var d struct{ Revision int }
					err = decodeJSON(res, &d)
					res.Body.Close()
					if err != nil && ctx.Err() != nil {
						return // the deadline cut the answer off: the command may have gone through
					}
					if err != nil || res.StatusCode != http.StatusOK {
						b.Errorf("next: %d %v", res.StatusCode, err)
						return
					}
					mine = append(mine, time.Since(t0))
					revs[i] = d.Revision
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(begin)
		cancel()
		for i, enc := range encs { // a command cut off by the deadline may have gone through
			var got struct {
				Revision int `json:"revision"`
			}
			e.do(b, "GET", "/api/encounters/"+enc.ID, enc.Token, nil).decode(b, &got)
			revs[i] = got.Revision
		}
		rate := float64(len(lat)) / elapsed.Seconds()
		pace := min(loadRate, rate/2)
		appends.take()
		paced := pacedLoad(b, e, encs, revs, pace)
		pacedAppends := appends.take()
		raw := rawInserts(b, 3*time.Second)
		b.ReportMetric(rate, "cmds/s")
		b.ReportMetric(ms(percentile(lat, 0.99)), "p99-ms")
		b.ReportMetric(ms(percentile(lat, 0.50)), "p50-ms")
		b.ReportMetric(pace, "paced-cmds/s")
		b.ReportMetric(ms(percentile(paced, 0.99)), "paced-p99-ms")
		b.ReportMetric(ms(percentile(pacedAppends, 0.99)), "paced-append-p99-ms")
		b.ReportMetric(ms(percentile(pacedAppends, 0.50)), "paced-append-p50-ms")
		b.ReportMetric(raw, "raw-tx/s")
		b.ReportMetric(rate/raw, "cmds/raw-tx")
		b.Logf("%d commands in %v over %d encounters", len(lat), elapsed.Round(time.Millisecond), loadEncounters)
	}
}

// pacedLoad sends rate commands a second for loadRateTime and returns
// their latencies, each from the moment it was due.
func pacedLoad(b *testing.B, e *env, encs []created, revs []int, rate float64) []time.Duration {
	interval := time.Duration(float64(time.Second) * float64(len(encs)) / rate)
	per := int(loadRateTime / interval)
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	begin := time.Now().Add(50 * time.Millisecond)
	for i := range encs {
		wg.Go(func() {
			offset := interval * time.Duration(i) / time.Duration(len(encs))
			mine := make([]time.Duration, 0, per)
			defer func() { mu.Lock(); lat = append(lat, mine...); mu.Unlock() }()
			for k := range per {
				due := begin.Add(offset + time.Duration(k)*interval)
				time.Sleep(time.Until(due))
				r := e.command(b, encs[i].ID, encs[i].Token, "next", revs[i])
				if r.Status != http.StatusOK {
					b.Errorf("next: %d %s", r.Status, r.Body)
					return
				}
				mine = append(mine, time.Since(due))
				var d struct{ Revision int }
				r.decode(b, &d)
				revs[i] = d.Revision
			}
		})
	}
	wg.Wait()
	return lat
}

// rawInserts measures single-row insert transactions per second for d on
// a new file with the store's pragmas (as sqlite's BenchmarkRawInsert).
func rawInserts(b *testing.B, d time.Duration) float64 {
	db, err := sql.Open("sqlite", sqlite.DSN(filepath.Join(b.TempDir(), "raw.db"))+"&_txlock=immediate")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	data := []byte(`{"seq":1,"step":1,"type":"queue.next","data":{"name":"Ann"}}`)
	n := 0
	begin := time.Now()
	for time.Since(begin) < d {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO t (data) VALUES (?)`, data); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return float64(n) / time.Since(begin).Seconds()
}

const fanoutStreams = 500

// BenchmarkFanout opens 500 event streams on one encounter, sends
// commands one at a time and measures, for each change, the time from
// sending the command (append included) until the last stream has it,
// and from the command's answer (0 when every stream had it first).
func BenchmarkFanout(b *testing.B) {
	for b.Loop() {
		e := loadEnv(b, nil, nil)
		enc := e.create(b, "queue", "")
		rev := e.play(b, enc.ID, enc.Token, 0, "add Ann side=pc wits=2", "add Bear wits=1", "start").Revision
		// Each stream reports the time it read each revision.
		type seen struct {
			rev int
			at  time.Time
		}
		got := make(chan seen, 64*fanoutStreams)
		ready := make(chan struct{}, fanoutStreams)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		tr := &http.Transport{MaxIdleConnsPerHost: fanoutStreams}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: tr}
		var wg sync.WaitGroup
		for range fanoutStreams {
			wg.Go(func() {
				req, _ := http.NewRequestWithContext(ctx, "GET", e.url+"/api/encounters/"+enc.ID+"/events?token="+enc.Token, nil)
				res, err := client.Do(req)
				if err != nil {
					b.Error(err)
					ready <- struct{}{}
					return
				}
				defer res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Errorf("a stream was answered %s", res.Status)
					ready <- struct{}{}
					return
				}
				sc := bufio.NewScanner(res.Body)
				sc.Buffer(nil, 1<<20)
				first := true
				for sc.Scan() {
					line := sc.Text()
					if !strings.HasPrefix(line, "id: ") {
						continue
					}
					if first {
						first = false
						ready <- struct{}{}
						continue
					}
					n, _ := strconv.Atoi(line[4:])
					got <- seen{n, time.Now()}
				}
			})
		}
		for range fanoutStreams {
			<-ready
		}
		const changes = 50
		var worst, each, afterAck []time.Duration
		for range changes {
			t0 := time.Now()
			r := e.command(b, enc.ID, enc.Token, "next", rev)
			if r.Status != http.StatusOK {
				b.Fatalf("next: %d %s", r.Status, r.Body)
			}
			acked := time.Now()
			rev++
			var last, lastAck time.Duration
			timeout := time.After(10 * time.Second)
			for n := 0; n < fanoutStreams; {
				select {
				case s := <-got:
					if s.rev != rev {
						b.Fatalf("a stream read revision %d, want %d", s.rev, rev)
					}
					d := s.at.Sub(t0)
					each = append(each, d)
					last = max(last, d)
					lastAck = max(lastAck, s.at.Sub(acked))
					n++
				case <-timeout:
					b.Fatalf("only %d of %d streams got revision %d", n, fanoutStreams, rev)
				}
			}
			worst = append(worst, last)
			afterAck = append(afterAck, lastAck)
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		e.srv.Close()
		wg.Wait()
		b.ReportMetric(ms(percentile(worst, 0.99)), "all-500-p99-ms")
		b.ReportMetric(ms(percentile(worst, 0.50)), "all-500-p50-ms")
		b.ReportMetric(ms(percentile(each, 0.99)), "each-p99-ms")
		b.ReportMetric(ms(percentile(afterAck, 0.99)), "all-500-after-ack-p99-ms")
		b.Logf("%d changes to %d streams", changes, fanoutStreams)
	}
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
