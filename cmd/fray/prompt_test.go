//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// ptyWait is how long a test waits for the prompt to answer: long, for
// a slow machine; a test that passes waits only as long as it must.
const ptyWait = 60 * time.Second

// pty is a pseudo-terminal for a test: fray reads and writes the
// terminal end (tty); the test types into the other end and reads what
// fray shows there.
type pty struct {
	t      *testing.T
	master *os.File
	tty    *os.File

	mu   sync.Mutex
	out  bytes.Buffer
	seen int           // how much of out earlier waits consumed
	more chan struct{} // signalled when out grows
}

// openPty opens a pseudo-terminal of 100 columns by 24 rows, closed when
// the test ends.
func openPty(t *testing.T) *pty {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var n uint32
	err = control(m, func(fd uintptr) error {
		unlock := int32(0)
		if err := ioctl(fd, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
			return err
		}
		return ioctl(fd, syscall.TIOCGPTN, unsafe.Pointer(&n))
	})
	if err != nil {
		m.Close()
		t.Fatalf("set up the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Fatalf("open the terminal end: %v", err)
	}
	ws := struct{ rows, cols, x, y uint16 }{24, 100, 0, 0}
	if err := control(tty, func(fd uintptr) error { return ioctl(fd, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)) }); err != nil {
		t.Fatalf("set the window size: %v", err)
	}
	p := &pty{t: t, master: m, tty: tty, more: make(chan struct{}, 1)}
	go p.drain()
	t.Cleanup(func() {
		m.Close()
		tty.Close()
	})
	return p
}

func control(f *os.File, fn func(fd uintptr) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(fd) }); err != nil {
		return err
	}
	return ferr
}

func ioctl(fd, req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

// termios returns the terminal end's settings.
func (p *pty) termios() syscall.Termios {
	p.t.Helper()
	var st syscall.Termios
	if err := control(p.tty, func(fd uintptr) error { return ioctl(fd, syscall.TCGETS, unsafe.Pointer(&st)) }); err != nil {
		p.t.Fatalf("read the terminal's settings: %v", err)
	}
	return st
}

// drain reads what fray shows until the pty closes.
func (p *pty) drain() {
	buf := make([]byte, 4096)
	for {
		n, err := p.master.Read(buf)
		p.mu.Lock()
		p.out.Write(buf[:n])
		p.mu.Unlock()
		select {
		case p.more <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

// typeKeys types s at the terminal.
func (p *pty) typeKeys(s string) {
	p.t.Helper()
	if _, err := p.master.WriteString(s); err != nil {
		p.t.Fatalf("type %q: %v", s, err)
	}
}

// waitFor waits until what fray shows after the last wait holds want,
// and returns what it showed up to and including it.
func (p *pty) waitFor(want string) string {
	p.t.Helper()
	deadline := time.After(ptyWait)
	for {
		p.mu.Lock()
		rest := p.out.String()[p.seen:]
		if i := strings.Index(rest, want); i >= 0 {
			p.seen += i + len(want)
			p.mu.Unlock()
			return rest[:i+len(want)]
		}
		p.mu.Unlock()
		select {
		case <-p.more:
		case <-deadline:
			p.t.Fatalf("waited %v for %q; the terminal shows:\n%q", ptyWait, want, rest)
		}
	}
}

// TestPromptLineEditing plays at a real pseudo-terminal: a command typed,
// recalled with Up, edited (cursor left, backspace, new letters) and
// sent; Tab completing a command word; a refused command; Ctrl-D ending
// the session with exit 0 and the terminal given back as it was.
func TestPromptLineEditing(t *testing.T) {
	p := openPty(t)
	before := p.termios()
	code := make(chan int, 1)
	go func() {
		code <- Main([]string{"play", "--rules", "bpb", "--seed", "1"}, p.tty, p.tty, p.tty)
	}()
	p.waitFor("Type help for the commands, Ctrl-D to stop.")
	p.waitFor("bpb> ")
	if raw := p.termios(); raw.Lflag&(syscall.ICANON|syscall.ECHO) != 0 {
		t.Errorf("at the prompt the terminal is not in raw mode: lflag %#x", raw.Lflag)
	}

	p.typeKeys("add Ann side=pc\r")
	p.waitFor("Not started; 1 combatant.\r\n")
	p.waitFor("bpb> ")

	// Up recalls the line; eight times Left puts the cursor after "Ann",
	// three backspaces take it out, and Bob goes in its place.
	p.typeKeys("\x1b[A")
	p.waitFor("add Ann side=pc")
	p.typeKeys(strings.Repeat("\x1b[D", len(" side=pc")) + "\x7f\x7f\x7fBob\r")
	p.waitFor("Not started; 2 combatants.\r\n")
	p.waitFor("bpb> ")

	// Tab completes the command word.
	p.typeKeys("sho\t")
	p.waitFor("show ")
	p.typeKeys("\r")
	shown := p.waitFor("bpb> ")
	for _, want := range []string{"Order of play:\r\n", "Ann\r\n", "Bob\r\n"} {
		if !strings.Contains(shown, want) {
			t.Errorf("show after the edited add lacks %q:\n%q", want, shown)
		}
	}

	p.typeKeys("bogus\r")
	p.waitFor(`refused (invalid): Bulletproof Blues 2nd edition has no command "bogus"`)
	p.waitFor("bpb> ")

	p.typeKeys("\x04")
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("Ctrl-D after a refusal: exit %d, want 0", c)
		}
	case <-time.After(ptyWait):
		t.Fatalf("fray play did not end on Ctrl-D within %v", ptyWait)
	}
	after := p.termios()
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Errorf("the terminal was not given back: before %+v, after %+v", before, after)
	}
}

// TestPromptExitCodes checks the exit code at the end of input: 0 at a
// terminal (read as plain lines here, stdout being no terminal) however
// many commands were refused, and 1 for the same commands from a script.
func TestPromptExitCodes(t *testing.T) {
	p := openPty(t)
	var stdout, stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- Main([]string{"play", "--rules", "bpb", "--seed", "1"}, p.tty, &stdout, &stderr)
	}()
	// The terminal is in canonical mode: Ctrl-D at the start of a line
	// is the end of input.
	p.typeKeys("add Ann side=pc\nbogus\n\x04")
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("at a terminal: exit %d, want 0\n%s%s", c, stdout.String(), stderr.String())
		}
	case <-time.After(ptyWait):
		t.Fatalf("fray play did not end on Ctrl-D within %v", ptyWait)
	}
	if !strings.Contains(stdout.String(), "refused (invalid)") || !strings.Contains(stdout.String(), "bpb> ") {
		t.Errorf("at a terminal, no prompt or no refusal:\n%s", stdout.String())
	}

	stdout.Reset()
	if c := Main([]string{"play", "--rules", "bpb", "--seed", "1"}, strings.NewReader("add Ann side=pc\nbogus\n"), &stdout, &stderr); c != 1 {
		t.Errorf("from a script: exit %d, want 1\n%s", c, stdout.String())
	}
}
