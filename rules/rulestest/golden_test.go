package rulestest_test

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/rulestest"
)

// tally is the counter with a view to show: the round is the total, A is
// current and notes it, B follows, and A took round 1. It answers odds of
// add.
type tally struct{ *counter }

func (s tally) View(st fray.State) fray.View {
	v := s.counter.View(st)
	v.Round = s.m(st)["total"]
	v.Current = "A"
	v.Order = []fray.Slot{{Name: "A", Note: fmt.Sprintf("total %d", v.Round)}, {Name: "B"}}
	v.History = []fray.RoundTurns{{Round: 1, Turns: []string{"A"}}}
	return v
}

func (s tally) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	if cmd.Name != "add" {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "No odds of %s.", cmd.Name)
	}
	return fray.Odds{Expr: "1d2", Bands: []fray.Band{{Name: "low", P: 0.5}, {Name: "high", P: 0.5}}}, nil
}

func newTally() fray.System { return tally{&counter{}} }

// tallyScript reaches every part of a transcript; its blank line is
// skipped.
const tallyScript = "add a b\n\nnope\nshow\nhistory\nodds add x\nodds nope"

func TestTranscript(t *testing.T) {
	tests := []struct {
		name string
		tr   rulestest.Transcript
		want string
	}{
		{"defaults", rulestest.Transcript{System: newTally}, `> add a b
> nope
refused (invalid): Only add.
> show
round 2, current: A
  A (total 2)
  B
> history
Round 1: A
> odds add x
> odds nope
refused (invalid): No odds of nope.
`},
		{"round word", rulestest.Transcript{System: newTally, Round: "page"}, `> add a b
> nope
refused (invalid): Only add.
> show
page 2, current: A
  A (total 2)
  B
> history
Round 1: A
> odds add x
> odds nope
refused (invalid): No odds of nope.
`},
		{"every hook", rulestest.Transcript{
			System: newTally,
			Setup: func(t *testing.T, e *engine.Engine) {
				if _, err := e.Do(fray.Command{Name: "add", Args: []string{"z"}}); err != nil {
					t.Fatal(err)
				}
			},
			Show: func(w io.Writer, e *engine.Engine) { fmt.Fprintf(w, "  total %d\n", e.View().Round) },
			History: func(w io.Writer, e *engine.Engine) {
				fmt.Fprintf(w, "  %d rounds\n", len(e.View().History))
			},
			Event: func(w io.Writer, ev fray.Event) error {
				_, err := fmt.Fprintf(w, "  %s %s\n", ev.Type, ev.Data)
				return err
			},
			Refused: func(w io.Writer, err error) { fmt.Fprintf(w, "  no: %s\n", fray.ErrorMessage(err)) },
			Odds: func(w io.Writer, o fray.Odds) {
				fmt.Fprintf(w, "  %s:", o.Expr)
				for _, b := range o.Bands {
					fmt.Fprintf(w, " %s %.0f%%", b.Name, 100*b.P)
				}
				fmt.Fprintln(w)
			},
		}, `> add a b
  counter.added {"n":2}
> nope
  no: Only add.
> show
  total 3
> history
  1 rounds
> odds add x
  1d2: low 50% high 50%
> odds nope
  no: No odds of nope.
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tr.Play(t, tallyScript); got != tt.want {
				t.Errorf("transcript:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// recorder is a testing.TB that keeps what is reported as a failure.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Golden passes a match and reports a mismatch as a diff that names the
// file and marks the lines that differ, leaving the file as it was.
func TestGolden(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "x.golden")
	const want = "> add a\n> show\nround 1, current: A\n  A\n"
	writeFile(t, path, want)

	r := &recorder{TB: t}
	rulestest.Golden(r, path, want)
	if len(r.failures) != 0 {
		t.Errorf("a match is reported: %q", r.failures)
	}

	r = &recorder{TB: t}
	rulestest.Golden(r, path, "> add a\n> show\nround 2, current: A\n  A\n")
	if len(r.failures) != 1 {
		t.Fatalf("a mismatch is reported %d times, want once: %q", len(r.failures), r.failures)
	}
	report := r.failures[0]
	for _, s := range []string{path, "-want +got", "-update"} {
		if !strings.Contains(report, s) {
			t.Errorf("the report lacks %q:\n%s", s, report)
		}
	}
	// go-cmp varies its spacing on purpose, so the lines are found by
	// their text and judged by their first mark.
	for text, mark := range map[string]string{"round 1, current: A": "-", "round 2, current: A": "+", "> show": ""} {
		if got := diffMark(report, text); got != mark {
			t.Errorf("the report marks %q with %q, want %q:\n%s", text, got, mark, report)
		}
	}
	if got := readFile(t, path); got != want {
		t.Errorf("a mismatch changed the golden file to %q", got)
	}

	r = &recorder{TB: t}
	missing := filepath.Join(t.TempDir(), "missing.golden")
	rulestest.Golden(r, missing, want)
	if len(r.failures) != 1 || !strings.Contains(r.failures[0], missing) || !strings.Contains(r.failures[0], "-update") {
		t.Errorf("a missing golden file is reported as %q, want its path and -update", r.failures)
	}
}

// diffMark returns the mark ("-", "+" or "") of the line of a diff that
// holds text, or "none" if no line does.
func diffMark(diff, text string) string {
	for _, line := range strings.Split(diff, "\n") {
		if !strings.Contains(line, text) {
			continue
		}
		line = strings.TrimLeft(line, " \t\u00a0")
		if strings.HasPrefix(line, "-") || strings.HasPrefix(line, "+") {
			return line[:1]
		}
		return ""
	}
	return "none"
}

// setUpdate sets -update for the rest of the test.
func setUpdate(t *testing.T, on bool) {
	t.Helper()
	f := flag.Lookup("update")
	if f == nil {
		t.Fatal("rulestest registers no -update flag")
	}
	old := f.Value.String()
	if err := flag.Set("update", fmt.Sprint(on)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flag.Set("update", old) })
}

// With -update, Golden and Check rewrite the golden file (making its
// directory if need be) and report nothing; without it, the file they
// wrote matches.
func TestGoldenUpdate(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "stale.golden")
	writeFile(t, stale, "old\n")
	fresh := filepath.Join(dir, "testdata", "fresh.golden")
	tr := rulestest.Transcript{System: newTally}
	want := tr.Play(t, tallyScript)

	setUpdate(t, true)
	r := &recorder{TB: t}
	rulestest.Golden(r, stale, "new\n")
	if len(r.failures) != 0 {
		t.Errorf("-update reports %q", r.failures)
	}
	if got := readFile(t, stale); got != "new\n" {
		t.Errorf("-update left %q, want %q", got, "new\n")
	}
	tr.Check(t, fresh, tallyScript)
	if got := readFile(t, fresh); got != want {
		t.Errorf("-update wrote:\n%s\nwant:\n%s", got, want)
	}

	setUpdate(t, false)
	r = &recorder{TB: t}
	rulestest.Golden(r, stale, "new\n")
	rulestest.Golden(r, fresh, want)
	if len(r.failures) != 0 {
		t.Errorf("the rewritten files do not match: %q", r.failures)
	}
}
