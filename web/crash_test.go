package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// serveProcess is `fray serve` running as a child process.
type serveProcess struct {
	cmd *exec.Cmd
	url string
}

// buildFray builds cmd/fray into dir and returns the binary's path.
func buildFray(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "fray")
	out, err := exec.Command("go", "build", "-o", bin, "fray/cmd/fray").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

var servingAt = regexp.MustCompile(`open (http://\S+/)`)

// serve starts `fray serve` on a free loopback port and the database db,
// and waits for it to print its URL.
func serve(t *testing.T, bin, db string) *serveProcess {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := servingAt.FindStringSubmatch(sc.Text()); m != nil {
				urls <- strings.TrimSuffix(m[1], "/")
			}
		}
	}()
	select {
	case u := <-urls:
		p := &serveProcess{cmd: cmd, url: u}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return p
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("fray serve printed no URL")
	}
	return nil
}

// crashAcks is how many commands TestCrash has acknowledged before it
// kills the server.
const crashAcks = 1000

// TestCrash sends commands over HTTP to `fray serve` from several writers
// on several encounters, kills it with SIGKILL after crashAcks
// acknowledgements, restarts it on the same file and checks that every
// acknowledged command is in the log, with no gap.
//
// A command is acknowledged only when its whole answer arrived: the
// status and a body read to its end that decodes. A writer whose command
// got no whole answer after the kill (no status, or a status whose body
// the kill cut off) stops: that command is unknown, and may or may not be
// in the log; it is the only one that may follow the acknowledged ones.
// Before the kill, any answer that is not whole fails the test.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs fray serve")
	}
	dir := t.TempDir()
	bin := buildFray(t, dir)
	db := filepath.Join(dir, "fray.db")
	p := serve(t, bin, db)
	e := &env{url: p.url, client: &http.Client{Timeout: 30 * time.Second}}

	const encounters = 4
	type run struct {
		enc     created
		acked   int  // the highest acknowledged revision
		unknown bool // a command was in flight at the kill: it may or may not be in the log
	}
	runs := make([]*run, encounters)
	for i := range runs {
		enc := e.create(t, "queue", "")
		d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc wits=2", "add Bear wits=1", "start")
		runs[i] = &run{enc: enc, acked: d.Revision}
	}
	var total atomic.Int64
	reached := make(chan struct{}) // closed at the crashAcks-th acknowledgement
	var killed atomic.Bool         // set just before the SIGKILL
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Go(func() {
			for ctx.Err() == nil {
				req := strings.NewReader(`{"command":"next","revision":` + itoa(r.acked) + `}`)
				hr, _ := http.NewRequestWithContext(ctx, "POST", p.url+"/api/encounters/"+r.enc.ID+"/commands", req)
				hr.Header.Set("Authorization", "Bearer "+r.enc.Token)
				res, err := e.client.Do(hr)
				var body []byte
				if err == nil {
					body, err = io.ReadAll(res.Body) // a body cut off by the kill is an error here
					res.Body.Close()
				}
				if err != nil {
					r.unknown = true
					if !killed.Load() {
						t.Errorf("next at %d: no whole answer before the kill: %v", r.acked, err)
					}
					return
				}
				if res.StatusCode == http.StatusTooManyRequests {
					// The token's rate limit: wait as told and send the
					// same command again, as a well-behaved client does.
					wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
					select {
					case <-ctx.Done():
					case <-time.After(time.Duration(max(wait, 0))*time.Second + 50*time.Millisecond):
					}
					continue
				}
				if res.StatusCode != http.StatusOK {
					t.Errorf("next at %d: %d %s", r.acked, res.StatusCode, body)
					return
				}
				var d done
				if err := json.Unmarshal(body, &d); err != nil {
					r.unknown = true
					if !killed.Load() {
						t.Errorf("next at %d: 200 with a body that does not decode: %v: %s", r.acked, err, body)
					}
					return
				}
				if d.Revision <= r.acked {
					t.Errorf("next at %d: 200 at revision %d", r.acked, d.Revision)
					return
				}
				r.acked = d.Revision // acknowledged: the whole answer was read
				if total.Add(1) == crashAcks {
					close(reached)
				}
			}
		})
	}
	writersDone := make(chan struct{})
	go func() { wg.Wait(); close(writersDone) }()
	select {
	case <-reached:
	case <-writersDone: // every writer failed, and said why
	case <-time.After(5 * time.Minute):
		t.Errorf("only %d of %d commands acknowledged within 5 minutes", total.Load(), crashAcks)
	}
	killed.Store(true)
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
	stop()
	<-writersDone
	if t.Failed() {
		t.FailNow()
	}
	unknown := 0
	for _, r := range runs {
		if r.unknown {
			unknown++
		}
	}
	t.Logf("%d commands acknowledged before the kill; %d in flight", total.Load(), unknown)

	p2 := serve(t, bin, db)
	e2 := &env{url: p2.url, client: &http.Client{Timeout: 30 * time.Second}}
	durable := 0 // of the commands in flight
	for _, r := range runs {
		evs := logEvents(t, e2.log(t, r.enc.ID, r.enc.Token)) // numbered 1, 2, … with no gap
		n := len(evs)
		switch {
		case n < r.acked:
			t.Errorf("encounter %s: the log holds %d events, but revision %d was acknowledged", r.enc.ID, n, r.acked)
		case n > r.acked && !r.unknown:
			t.Errorf("encounter %s: the log holds %d events, but revision %d was acknowledged and no command was in flight", r.enc.ID, n, r.acked)
		case n > r.acked:
			// The unknown command went through: its events, and no other.
			durable++
			step := evs[r.acked].Step
			for _, ev := range evs[r.acked:] {
				if ev.Step != step || step == evs[r.acked-1].Step {
					t.Errorf("encounter %s: after the acknowledged revision %d the log holds more than the one command in flight: %+v", r.enc.ID, r.acked, evs[r.acked:])
					break
				}
			}
		}
		// The encounter carries on from the recovered log.
		e2.play(t, r.enc.ID, r.enc.Token, n, "next")
	}
	t.Logf("%d of the %d commands in flight are in the log", durable, unknown)
}

// TestServeShutdown: fray serve creates its database, answers, and on
// SIGTERM ends its event streams and exits 0; the next start finds the
// encounter again.
func TestServeShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs fray serve")
	}
	dir := t.TempDir()
	bin := buildFray(t, dir)
	db := filepath.Join(dir, "fray.db")
	p := serve(t, bin, db)
	e := &env{url: p.url, client: &http.Client{Timeout: 10 * time.Second}}
	enc := e.create(t, "bpb", "Docks")
	e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc")
	s := e.open(t, enc.ID, enc.Token, "")
	if _, d := s.next(t); d.Revision != 1 {
		t.Fatalf("stream at %d", d.Revision)
	}
	if r := e.do(t, "GET", "/", "", nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "<html") {
		t.Fatalf("GET /: %d", r.Status)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("fray serve exited with %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("fray serve did not stop within 15 s of SIGTERM")
	}
	s.close()
	p2 := serve(t, bin, db)
	e2 := &env{url: p2.url, client: &http.Client{Timeout: 10 * time.Second}}
	if n := checkLog(t, e2.log(t, enc.ID, enc.Token)); n != 1 {
		t.Fatalf("after a restart the log holds %d events", n)
	}
}
