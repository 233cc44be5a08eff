package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"fray"
	"fray/sqlite"
	"fray/storetest"
)

// The benchmarks measure durable writes under the store's pragmas (WAL,
// synchronous=FULL): every raw insert is one committed transaction, and
// so one fsync; every append has returned only once it is committed. One
// appender at a time gets one transaction per append, like the raw
// inserts; many appenders share group commits, so that the ratio of
// appends/s to the raw tx/s of the same run exceeds 1:
//
//	go test -run '^$' -bench . -benchtime 3s ./sqlite

// BenchmarkRawInsert commits one single-row insert per transaction into a
// plain table, on one connection with the store's pragmas: the ceiling
// for durable writes on this disk.
func BenchmarkRawInsert(b *testing.B) {
	db, err := sql.Open("sqlite", sqlite.DSN(filepath.Join(b.TempDir(), "raw.db"))+"&_txlock=immediate")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO t (data) VALUES (?)`, []byte(storetest.BenchData)); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
}

// BenchmarkAppend appends one event per call to one encounter through the
// Store: the revision check, the insert and the revision update, committed.
func BenchmarkAppend(b *testing.B) {
	s := benchStore(b, 1)
	ctx := context.Background()
	rev := 0
	b.ResetTimer()
	for b.Loop() {
		ev := fray.EventRecord{Seq: rev + 1, Type: "bpb.attacked", Data: storetest.BenchData, Time: time.Now()}
		if _, err := s.AppendEvents(ctx, "b0", rev, []fray.EventRecord{ev}); err != nil {
			b.Fatal(err)
		}
		rev++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
}

// BenchmarkAppendParallel appends one event per call from 100
// goroutines, each to an encounter of its own, as a busy server would.
func BenchmarkAppendParallel(b *testing.B) {
	storetest.BenchAppendParallel(b, benchStore(b, 0), 100)
}

func benchStore(b *testing.B, encounters int) *sqlite.Store {
	s, err := sqlite.Open(filepath.Join(b.TempDir(), "fray.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	for i := range encounters {
		if err := s.CreateEncounter(context.Background(), storetest.Encounter(fmt.Sprint("b", i))); err != nil {
			b.Fatal(err)
		}
	}
	return s
}
