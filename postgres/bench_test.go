package postgres_test

import (
	"context"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"fray/postgres"
	"fray/postgres/pgtest"
	"fray/storetest"
)

// benchWriters is how many goroutines append at once in the parallel
// benchmarks, each to an encounter of its own: as many as the clients of
// the load benchmark's closed loop (cmd/fray, BenchmarkPostgresLoad).
const benchWriters = 48

// benchParallel is the parallelism that runs about benchWriters
// goroutines (testing.B.SetParallelism).
func benchParallel() int { return max(1, benchWriters/runtime.GOMAXPROCS(0)) }

// benchListeners is how many listeners take the notices of
// BenchmarkAppendParallel: one per server of the load benchmark.
const benchListeners = 3

// BenchmarkRawInsert inserts one row per transaction from benchWriters
// connections, as many goroutines: PostgreSQL's own floor, to compare
// BenchmarkAppendParallel with (the load benchmark's floor too).
func BenchmarkRawInsert(b *testing.B) {
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(pgtest.NewDatabase(b))
	if err != nil {
		b.Fatal(err)
	}
	cfg.MaxConns = benchWriters
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `CREATE TABLE raw (id bigserial PRIMARY KEY, enc text NOT NULL, data bytea NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	var next atomic.Int64
	b.SetParallelism(benchParallel())
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		enc := strconv.FormatInt(next.Add(1), 10)
		for pb.Next() {
			if _, err := pool.Exec(ctx, `INSERT INTO raw (enc, data) VALUES ($1, $2)`, enc, []byte(storetest.BenchData)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
}

// BenchmarkAppendParallel appends one event per call from benchWriters
// goroutines, each to an encounter of its own, through the Store: the
// group commit of the revision checks, the inserts and the notices.
func BenchmarkAppendParallel(b *testing.B) {
	s := open(b, pgtest.NewDatabase(b))
	ctx := context.Background()
	// Three servers listen, as in the load benchmark, each reading every
	// notice (a listener that stops reading holds PostgreSQL's queue).
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	for range benchListeners {
		ch, err := s.Notify(lctx)
		if err != nil {
			b.Fatal(err)
		}
		<-ch // listening
		go func() {
			for range ch {
			}
		}()
	}
	storetest.BenchAppendParallel(b, s, benchWriters)
	if g := postgres.Groups(s); g > 0 {
		b.ReportMetric(float64(postgres.Grouped(s))/float64(g), "appends/group")
	}
	b.ReportMetric(float64(postgres.Grouped(s))/float64(b.N), "grouped")
}
