package sqlite_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fray"
	"fray/sqlite"
	"fray/storetest"
)

// crashEnv names the database a child process of TestCrash appends to.
const crashEnv = "FRAY_SQLITE_CRASH_DB"

const (
	crashID     = "crash"
	crashRounds = 2                 // children killed, one after the other
	crashAcks   = 1000              // acknowledged appends each child makes before it is killed
	crashMax    = fray.MaxLogEvents // the child appends until it is killed
)

// TestCrash proves that an acknowledged append survives kill -9. It runs
// this test binary again as a child process (TestCrashChild) that appends
// events one by one and prints the sequence number of each append that
// returned; once the child has acknowledged crashAcks appends, the test
// kills it with SIGKILL, reads every acknowledgement it printed, reopens
// the database and checks that each acknowledged event is there and the
// log has no gap. A second child then carries on from the recovered log
// and is killed in turn.
//
// Killing the process leaves the written pages in the operating system's
// cache, so this proves the store acknowledges only committed appends and
// recovers from the WAL; surviving a power cut rests on synchronous=FULL
// as well, which no test here can cut the power to check.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test runs child processes; skipped in -short mode")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateEncounter(context.Background(), storetest.Encounter(crashID)); err != nil {
		t.Fatal(err)
	}
	s.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	acked := 0 // the highest acknowledged sequence number, then the log's revision
	for round := 1; round <= crashRounds; round++ {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatalf("start the child: %v", err)
		}
		seen, killed := 0, false
		br := bufio.NewReader(out)
		for {
			line, err := br.ReadString('\n')
			if errors.Is(err, io.EOF) {
				break // a line cut short by the kill (none should be) is not an acknowledgement
			} else if err != nil {
				t.Fatalf("round %d: read the child's output: %v", round, err)
			}
			num, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "ack ")
			if !ok {
				continue
			}
			seq, err := strconv.Atoi(num)
			if err != nil || seq != acked+1 {
				t.Fatalf("round %d: the child acknowledged %q after %d", round, line, acked)
			}
			acked = seq
			seen++
			if seen == crashAcks && !killed {
				if err := cmd.Process.Kill(); err != nil { // SIGKILL
					t.Fatalf("round %d: kill the child: %v", round, err)
				}
				killed = true
			}
		}
		err = cmd.Wait()
		if ctx.Err() != nil {
			t.Fatalf("round %d: the child took too long (%d acknowledged)", round, seen)
		}
		if !killed {
			t.Fatalf("round %d: the child exited by itself after %d acknowledgements: %v", round, seen, err)
		}
		// The next child carries on from the log's end, which may be one
		// past the last acknowledgement.
		rev := checkCrashLog(t, path, acked)
		t.Logf("round %d: SIGKILL at the child's acknowledgement %d; it acknowledged %d (%d in all), the log is at %d",
			round, crashAcks, seen, acked, rev)
		acked = rev
	}
}

// checkCrashLog reopens the database and checks that the log holds every
// acknowledged event, intact and with no gap. It may hold one event more:
// an append can commit just before the kill but after the child's last
// acknowledgement was printed. It returns the log's revision.
func checkCrashLog(t *testing.T, path string, acked int) int {
	t.Helper()
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatalf("reopen after the kill: %v", err)
	}
	defer s.Close()
	ctx := context.Background()
	enc, err := s.Encounter(ctx, crashID)
	if err != nil {
		t.Fatal(err)
	}
	if enc.Revision < acked || enc.Revision > acked+1 {
		t.Fatalf("after the kill the log is at revision %d; %d appends were acknowledged", enc.Revision, acked)
	}
	evs, err := s.Events(ctx, crashID, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != enc.Revision {
		t.Fatalf("the log holds %d events at revision %d", len(evs), enc.Revision)
	}
	for i, ev := range evs {
		var d struct{ Seq int }
		if ev.Seq != i+1 || json.Unmarshal(ev.Data, &d) != nil || d.Seq != ev.Seq {
			t.Fatalf("event %d after the kill: seq %d, data %s", i+1, ev.Seq, ev.Data)
		}
	}
	return enc.Revision
}

// TestCrashChild is the child process of TestCrash; it does nothing
// unless the environment names a database. It appends to the log, one
// event per transaction, until it is killed, printing "ack N" once the
// append of event N has returned.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("runs only as TestCrash's child process")
	}
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	enc, err := s.Encounter(ctx, crashID)
	if err != nil {
		t.Fatal(err)
	}
	for seq := enc.Revision + 1; seq <= crashMax; seq++ {
		if _, err := s.AppendEvents(ctx, crashID, seq-1, storetest.Events(seq, 1, "child")); err != nil {
			t.Fatalf("append %d: %v", seq, err)
		}
		// One write per line: a pipe write this short is atomic, so the
		// parent never reads half an acknowledgement.
		if _, err := fmt.Fprintf(os.Stdout, "ack %d\n", seq); err != nil {
			t.Fatal(err)
		}
	}
}
