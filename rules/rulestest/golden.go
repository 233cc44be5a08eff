package rulestest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
)

// update is -update of every test binary that imports rulestest:
// go test ./rules/vv -update rewrites the golden files instead of
// comparing with them. A test of its own that wants the flag reads
// Updating.
var update = flag.Bool("update", false, "rewrite the golden files under testdata (check every change by hand)")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Golden compares got with the golden file at path and reports a
// difference as a line-by-line diff; with -update it writes got to path
// instead.
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Errorf("update %s: %v", path, err)
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Errorf("update %s: %v", path, err)
			return
		}
		t.Logf("rewrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s does not exist (go test -update writes it)", path)
		return
	}
	if err != nil {
		t.Errorf("read golden file: %v", err)
		return
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("transcript differs from %s (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}

// Transcript plays a script of commands through an engine and writes
// what a table sees, for a golden file: each command as "> line", then
// its refusal as "refused (code): message", or, if it was accepted, its
// events (if Event is set) and, for show and history, the view. Each
// part can be written another way by setting a field; the zero value of
// every field but System writes the default.
//
// The engine rolls with the seed 1, 2, so a transcript is the same on
// every run. A line that does not parse fails the test.
type Transcript struct {
	// System returns the system to play; each script gets a new one.
	System func() fray.System

	// Setup, if set, prepares the engine before the script runs (joins
	// sheets, say); it writes nothing to the transcript.
	Setup func(t *testing.T, e *engine.Engine)

	// Round is the word the heading of show gives the round ("turn",
	// "page"); empty means "round". The heading is followed by the order
	// of play, a slot a line.
	Round string

	// Show, if set, writes the view after show in place of the heading
	// and the order of play.
	Show func(w io.Writer, e *engine.Engine)

	// History, if set, writes the view after history in place of the
	// turns taken, a round a line.
	History func(w io.Writer, e *engine.Engine)

	// Event, if set, writes each event of an accepted command, in order;
	// an error fails the test. If it is not set, events are not written.
	Event func(w io.Writer, ev fray.Event) error

	// Refused, if set, writes a refusal in place of
	// "refused (code): message".
	Refused func(w io.Writer, err error)

	// Odds, if set, answers the odds command with Engine.Odds and writes
	// the answer (a refusal is written as any other). If it is not set,
	// odds is done like every other command and writes nothing.
	Odds func(w io.Writer, o fray.Odds)
}

// Check plays script (see Play) and compares the transcript with the
// golden file at path (see Golden).
func (tr Transcript) Check(t *testing.T, path, script string) {
	t.Helper()
	Golden(t, path, tr.Play(t, script))
}

// Play plays script, one command a line as fray play reads them, on a
// new engine, and returns the transcript.
func (tr Transcript) Play(t *testing.T, script string) string {
	t.Helper()
	e := engine.New(tr.System(), rand.New(rand.NewPCG(1, 2)))
	if tr.Setup != nil {
		tr.Setup(t, e)
	}
	var b bytes.Buffer
	for _, line := range strings.Split(script, "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if cmd.Name == "" {
			continue
		}
		fmt.Fprintf(&b, "> %s\n", line)
		if cmd.Name == engine.CmdOdds && tr.Odds != nil {
			o, err := e.Odds(cmd)
			if err != nil {
				tr.refused(&b, err)
				continue
			}
			tr.Odds(&b, o)
			continue
		}
		evs, err := e.Do(cmd)
		if err != nil {
			tr.refused(&b, err)
			continue
		}
		if tr.Event != nil {
			for _, ev := range evs {
				if err := tr.Event(&b, ev); err != nil {
					t.Fatalf("%s: event %s: %v", line, ev.Type, err)
				}
			}
		}
		switch cmd.Name {
		case engine.CmdShow:
			tr.show(&b, e)
		case engine.CmdHistory:
			tr.history(&b, e)
		}
	}
	return b.String()
}

func (tr Transcript) refused(w io.Writer, err error) {
	if tr.Refused != nil {
		tr.Refused(w, err)
		return
	}
	fmt.Fprintf(w, "refused (%s): %s\n", fray.ErrorCode(err), fray.ErrorMessage(err))
}

func (tr Transcript) show(w io.Writer, e *engine.Engine) {
	if tr.Show != nil {
		tr.Show(w, e)
		return
	}
	round := tr.Round
	if round == "" {
		round = "round"
	}
	v := e.View()
	fmt.Fprintf(w, "%s %d, current: %s\n", round, v.Round, v.Current)
	for _, s := range v.Order {
		fmt.Fprintf(w, "  %s\n", s)
	}
}

func (tr Transcript) history(w io.Writer, e *engine.Engine) {
	if tr.History != nil {
		tr.History(w, e)
		return
	}
	for _, h := range e.View().History {
		fmt.Fprintln(w, h)
	}
}
