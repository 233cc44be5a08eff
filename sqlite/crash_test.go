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
	"sync"
	"testing"
	"time"

	"fray"
	"fray/sqlite"
	"fray/storetest"
)

// crashEnv names the database a child process of TestCrash appends to;
// crashWritersEnv says how many goroutines append.
const (
	crashEnv        = "FRAY_SQLITE_CRASH_DB"
	crashWritersEnv = "FRAY_SQLITE_CRASH_WRITERS"
)

const (
	crashWriters = 4    // the most goroutines a child runs, each appending to its own encounter
	crashAcks    = 1000 // acknowledged appends each child makes before it is killed
)

// crashRounds lists how many goroutines each child runs: the first child
// appends to one log alone, the second to four at once, so that their
// appends meet in group commits.
var crashRounds = []int{1, crashWriters}

func crashID(w int) string { return fmt.Sprint("crash", w) }

// TestCrash proves that an acknowledged append survives kill -9. It runs
// this test binary again as a child process (TestCrashChild) in which one
// or more goroutines append events one by one, each to its own encounter,
// and print the sequence number of each append that returned. Once the
// child has acknowledged crashAcks appends, the test kills it with
// SIGKILL, reads every acknowledgement it printed, reopens the database
// and checks that each acknowledged event is there and that no log has a
// gap. A second child, whose four goroutines' appends meet in the store's
// group commits, carries on from the recovered logs and is killed in turn.
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
	for w := range crashWriters {
		if err := s.CreateEncounter(context.Background(), storetest.Encounter(crashID(w))); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// acked holds each encounter's highest acknowledged sequence number,
	// then its log's revision after the kill.
	acked := map[string]int{}
	total := 0
	for i, writers := range crashRounds {
		round := i + 1
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnv+"="+path, crashWritersEnv+"="+strconv.Itoa(writers))
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
			f := strings.Fields(line)
			if len(f) != 3 || f[0] != "ack" {
				continue
			}
			seq, err := strconv.Atoi(f[2])
			if err != nil || seq != acked[f[1]]+1 {
				t.Fatalf("round %d: the child acknowledged %q after %d", round, line, acked[f[1]])
			}
			acked[f[1]] = seq
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
		total += seen
		// The next child carries on from the logs' ends, which may be one
		// past the last acknowledgement.
		revs := checkCrashLogs(t, path, acked)
		t.Logf("round %d, %d writers: SIGKILL at the child's acknowledgement %d; it acknowledged %d (%d in all); logs after the kill: %v",
			round, writers, crashAcks, seen, total, revs)
		acked = revs
	}
}

// checkCrashLogs reopens the database and checks that each log holds
// every acknowledged event, intact and with no gap. A log may hold one
// event more: an append can commit just before the kill but after the
// child's last acknowledgement was printed. It returns the logs'
// revisions.
func checkCrashLogs(t *testing.T, path string, acked map[string]int) map[string]int {
	t.Helper()
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatalf("reopen after the kill: %v", err)
	}
	defer s.Close()
	ctx := context.Background()
	revs := map[string]int{}
	for w := range crashWriters {
		id := crashID(w)
		enc, err := s.Encounter(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if enc.Revision < acked[id] || enc.Revision > acked[id]+1 {
			t.Fatalf("after the kill %s is at revision %d; %d appends were acknowledged", id, enc.Revision, acked[id])
		}
		evs, err := s.Events(ctx, id, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != enc.Revision {
			t.Fatalf("the log of %s holds %d events at revision %d", id, len(evs), enc.Revision)
		}
		for i, ev := range evs {
			var d struct {
				Seq    int
				Writer string
			}
			if ev.Seq != i+1 || json.Unmarshal(ev.Data, &d) != nil || d.Seq != ev.Seq || d.Writer != id {
				t.Fatalf("event %d of %s after the kill: seq %d, data %s", i+1, id, ev.Seq, ev.Data)
			}
		}
		revs[id] = enc.Revision
	}
	return revs
}

// TestCrashChild is the child process of TestCrash; it does nothing
// unless the environment names a database. Its goroutines append to their
// logs, one event per append, until the process is killed, each printing
// "ack ID N" once the append of event N to encounter ID has returned.
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
	writers, err := strconv.Atoi(os.Getenv(crashWritersEnv))
	if err != nil || writers < 1 || writers > crashWriters {
		t.Fatalf("%s=%q is not 1 to %d", crashWritersEnv, os.Getenv(crashWritersEnv), crashWriters)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			id := crashID(w)
			enc, err := s.Encounter(ctx, id)
			if err != nil {
				t.Error(err)
				return
			}
			for seq := enc.Revision + 1; seq <= fray.MaxLogEvents; seq++ {
				if _, err := s.AppendEvents(ctx, id, seq-1, storetest.Events(seq, 1, id)); err != nil {
					t.Errorf("append %d to %s: %v", seq, id, err)
					return
				}
				// One write per line: a pipe write this short is atomic,
				// so the parent never reads half an acknowledgement.
				if _, err := fmt.Fprintf(os.Stdout, "ack %s %d\n", id, seq); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
