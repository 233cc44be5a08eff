package storetest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"fray"
)

// Snapshot returns a snapshot record covering seq events whose data
// names what.
func Snapshot(seq int, what string) fray.SnapshotRecord {
	return fray.SnapshotRecord{Seq: seq, Data: fmt.Appendf(nil, `{"what":%q,"seq":%d}`, what, seq), Created: base.Add(time.Duration(seq) * time.Second)}
}

// checkSnapshot checks that the newest snapshot of id is want, its time
// truncated and in UTC.
func checkSnapshot(t *testing.T, s fray.Store, id string, want fray.SnapshotRecord) {
	t.Helper()
	got, err := s.Snapshot(context.Background(), id)
	if err != nil {
		t.Fatalf("Snapshot(%q): %v", id, err)
	}
	want.Created = fray.TruncateTime(want.Created)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Snapshot(%q) (-want +got):\n%s", id, diff)
	}
}

func testSnapshots(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("snap"))
	mustCreate(t, s, Encounter("other"))
	if _, err := s.Snapshot(ctx, "snap"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("Snapshot before any: got %v, want ENOTFOUND", err)
	}
	mustAppend(t, s, "snap", 0, Events(1, 10, "w"))
	first := Snapshot(4, "first")
	if err := s.PutSnapshot(ctx, "snap", first); err != nil {
		t.Fatalf("PutSnapshot: %v", err)
	}
	// The store owns its copy.
	first.Data[2] = 'X'
	checkSnapshot(t, s, "snap", Snapshot(4, "first"))
	got, _ := s.Snapshot(ctx, "snap")
	got.Data[2] = 'Y'
	checkSnapshot(t, s, "snap", Snapshot(4, "first"))

	// A later one replaces it; an older or equal one is ignored.
	if err := s.PutSnapshot(ctx, "snap", Snapshot(10, "second")); err != nil {
		t.Fatalf("PutSnapshot later: %v", err)
	}
	for _, old := range []fray.SnapshotRecord{Snapshot(10, "same seq"), Snapshot(7, "older")} {
		if err := s.PutSnapshot(ctx, "snap", old); err != nil {
			t.Errorf("PutSnapshot(seq %d) behind the newest: %v, want nil (ignored)", old.Seq, err)
		}
	}
	checkSnapshot(t, s, "snap", Snapshot(10, "second"))

	// Snapshots are per encounter, and leave the log as it was.
	if _, err := s.Snapshot(ctx, "other"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("Snapshot of another encounter: got %v, want ENOTFOUND", err)
	}
	checkLog(t, s, "snap", truncated(Events(1, 10, "w")))
	rec, err := s.Encounter(ctx, "snap")
	if err != nil || rec.Revision != 10 {
		t.Errorf("Encounter after snapshots: revision %d, %v; want 10, nil", rec.Revision, err)
	}
}

func testSnapshotsBad(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("snap"))
	mustAppend(t, s, "snap", 0, Events(1, 3, "w"))
	big := Snapshot(2, "big")
	big.Data = bytes.Repeat([]byte(" "), fray.MaxSnapshotData+1)
	noTime := Snapshot(2, "no time")
	noTime.Created = time.Time{}
	noData := Snapshot(2, "no data")
	noData.Data = nil
	tests := []struct {
		name string
		id   string
		snap fray.SnapshotRecord
		code string
	}{
		{"unknown encounter", "nobody", Snapshot(1, "x"), fray.ENOTFOUND},
		{"malformed id", "no spaces", Snapshot(1, "x"), fray.EINVALID},
		{"seq zero", "snap", Snapshot(0, "x"), fray.EINVALID},
		{"past the log", "snap", Snapshot(4, "x"), fray.EINVALID},
		{"no data", "snap", noData, fray.EINVALID},
		{"no time", "snap", noTime, fray.EINVALID},
		{"too large", "snap", big, fray.ETOOLARGE},
	}
	for _, tt := range tests {
		if err := s.PutSnapshot(ctx, tt.id, tt.snap); fray.ErrorCode(err) != tt.code {
			t.Errorf("PutSnapshot %s: got %v, want %s", tt.name, err, tt.code)
		}
	}
	if _, err := s.Snapshot(ctx, "snap"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("Snapshot after refusals: got %v, want ENOTFOUND (nothing kept)", err)
	}
	if _, err := s.Snapshot(ctx, "nobody"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("Snapshot of an unknown encounter: got %v, want ENOTFOUND", err)
	}
	if _, err := s.Snapshot(ctx, "no spaces"); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("Snapshot of a malformed id: got %v, want EINVALID", err)
	}
}

// Writers racing with snapshots of different ages leave the newest.
func testSnapshotsRace(t *testing.T, s fray.Store) {
	ctx := context.Background()
	mustCreate(t, s, Encounter("snap"))
	mustAppend(t, s, "snap", 0, Events(1, 40, "w"))
	var wg sync.WaitGroup
	for seq := 1; seq <= 40; seq++ {
		wg.Go(func() {
			if err := s.PutSnapshot(ctx, "snap", Snapshot(seq, "racer")); err != nil {
				t.Errorf("PutSnapshot(%d): %v", seq, err)
			}
		})
	}
	wg.Wait()
	checkSnapshot(t, s, "snap", Snapshot(40, "racer"))
}
