package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"fray/dice"
	"fray/web"
)

// countingSource counts the draws made from a source.
type countingSource struct {
	src   dice.Source
	draws int
}

func (c *countingSource) IntN(n int) int {
	c.draws++
	return c.src.IntN(n)
}

// firstWrite records how many draws the source had given when the first
// byte was written.
type firstWrite struct {
	buf   bytes.Buffer
	src   *countingSource
	draws int // -1 until the first write
}

func (w *firstWrite) Write(p []byte) (int, error) {
	if w.draws < 0 && len(p) > 0 {
		w.draws = w.src.draws
	}
	return w.buf.Write(p)
}

// TestRollStreamsAsItRolls checks that `fray roll -n N` writes each roll
// before making the next: the first roll is out before the last roll's
// dice are drawn, for people and as JSON.
func TestRollStreamsAsItRolls(t *testing.T) {
	e := dice.MustParse("1000d100000")
	for _, asJSON := range []bool{false, true} {
		src := &countingSource{src: web.RollSource(1)}
		w := &firstWrite{src: src, draws: -1}
		const n = 5
		if err := rollEach(w, e, src, n, dice.MaxExplodeDepth, asJSON); err != nil {
			t.Fatal(err)
		}
		if w.draws < 0 || w.draws*n > src.draws {
			t.Errorf("json %v: the first roll was written after %d of %d draws, not after the first roll's %d", asJSON, w.draws, src.draws, src.draws/n)
		}
		if got := strings.Count(w.buf.String(), "1000d100000 = "); !asJSON && got != n {
			t.Errorf("%d rolls written, want %d", got, n)
		}
	}
}

// maxWrite records the largest single write.
type maxWrite struct {
	buf     bytes.Buffer
	largest int
}

func (w *maxWrite) Write(p []byte) (int, error) {
	w.largest = max(w.largest, len(p))
	return w.buf.Write(p)
}

// TestRollWritesInPieces checks, through Main, that many big rolls are
// written in pieces of about one roll or the output buffer, never held
// whole: here 40 rolls of 2000 dice, 1.3 MB of JSON.
func TestRollWritesInPieces(t *testing.T) {
	for _, args := range [][]string{
		{"roll", "2000d100000", "--seed", "3", "-n", "40"},
		{"roll", "--json", "2000d100000", "--seed", "3", "-n", "40"},
	} {
		var out maxWrite
		var stderr bytes.Buffer
		if code := Main(args, nil, &out, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		one := out.buf.Len() / 40
		if limit := max(64<<10, 2*one); out.largest > limit {
			t.Errorf("%v: a write of %d bytes out of %d, more than %d: the output was held", args, out.largest, out.buf.Len(), limit)
		}
	}
}

// TestRollStreamSameBytes checks that streaming writes what holding the
// whole output wrote: the same text, and with --json the same one object
// a line.
func TestRollStreamSameBytes(t *testing.T) {
	for _, tc := range []struct {
		expr   string
		seed   uint64
		n      int
		asJSON bool
	}{
		{"4d6kh3+3d6!", 9, 3, false},
		{"4d6kh3+3d6!", 9, 3, true},
		{"10d10>=8f1", 2, 1, true},
		{"2d20kl1+5", 4, 7, false},
	} {
		args := []string{"roll", tc.expr, "--seed", strconv.FormatUint(tc.seed, 10), "-n", strconv.Itoa(tc.n)}
		if tc.asJSON {
			args = append(args, "--json")
		}
		var out, stderr bytes.Buffer
		if code := Main(args, nil, &out, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		// What the command wrote before it streamed: every roll held,
		// then written at once.
		var want strings.Builder
		enc := json.NewEncoder(&want)
		e := dice.MustParse(tc.expr)
		src := web.RollSource(tc.seed)
		for range tc.n {
			res, err := e.RollDepth(src, dice.MaxExplodeDepth)
			if err != nil {
				t.Fatal(err)
			}
			if tc.asJSON {
				enc.Encode(res)
			} else {
				want.WriteString(formatResult(e, res))
			}
		}
		if out.String() != want.String() {
			t.Errorf("%v:\ngot\n%s\nwant\n%s", args, out.String(), want.String())
		}
		if lines := strings.Count(out.String(), "\n"); tc.asJSON && lines != tc.n {
			t.Errorf("%v: %d lines, want one JSON object a line", args, lines)
		}
	}
}
