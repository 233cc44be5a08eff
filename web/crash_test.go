package web_test

import (
	"bufio"
	"context"
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

// TestCrash sends commands over HTTP to `fray serve` from several writers
// on several encounters, kills it with SIGKILL after 1,000
// acknowledgements, restarts it on the same file and checks that every
// acknowledged command is in the log, with no gap.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs fray serve")
	}
	dir := t.TempDir()
	bin := buildFray(t, dir)
	db := filepath.Join(dir, "fray.db")
	p := serve(t, bin, db)
	e := &env{url: p.url, client: &http.Client{Timeout: 10 * time.Second}}

	const encounters = 4
	type run struct {
		enc   created
		acked int // the highest acknowledged revision
	}
	runs := make([]*run, encounters)
	for i := range runs {
		enc := e.create(t, "queue", "")
		d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc wits=2", "add Bear wits=1", "start")
		runs[i] = &run{enc: enc, acked: d.Revision}
	}
	var total atomic.Int64
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Go(func() {
			rev := r.acked
			for ctx.Err() == nil {
				req := strings.NewReader(`{"command":"next","revision":` + itoa(rev) + `}`)
				hr, _ := http.NewRequestWithContext(ctx, "POST", p.url+"/api/encounters/"+r.enc.ID+"/commands", req)
				hr.Header.Set("Authorization", "Bearer "+r.enc.Token)
				res, err := e.client.Do(hr)
				if err != nil {
					return // the server is gone
				}
				if res.StatusCode == http.StatusTooManyRequests {
					// The token's rate limit: wait as told and send the
					// same command again, as a well-behaved client does.
					res.Body.Close()
					wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
					time.Sleep(time.Duration(max(wait, 0))*time.Second + 50*time.Millisecond)
					continue
				}
				var d done
				ok := res.StatusCode == http.StatusOK && decodeJSON(res, &d) == nil
				res.Body.Close()
				if !ok {
					t.Errorf("next at %d: %d", rev, res.StatusCode)
					return
				}
				rev = d.Revision
				r.acked = rev // acknowledged: the answer was read
				total.Add(1)
			}
		})
	}
	for total.Load() < 1000 {
		time.Sleep(time.Millisecond)
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
	stop()
	wg.Wait()
	t.Logf("%d commands acknowledged before the kill", total.Load())

	p2 := serve(t, bin, db)
	e2 := &env{url: p2.url, client: &http.Client{Timeout: 10 * time.Second}}
	for _, r := range runs {
		n := checkLog(t, e2.log(t, r.enc.ID, r.enc.Token))
		if n < r.acked {
			t.Errorf("encounter %s: the log holds %d events, but revision %d was acknowledged", r.enc.ID, n, r.acked)
		}
		// The encounter carries on from the recovered log.
		e2.play(t, r.enc.ID, r.enc.Token, n, "next")
	}
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
