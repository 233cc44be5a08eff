package main

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"golang.org/x/term"

	"fray"
	"fray/engine"
)

// maxHistory is the most lines the prompt's history keeps (Up and Down
// recall them); the oldest go first.
const maxHistory = 1000

// terminal is fray play at a terminal: the terminal in raw mode, read
// through a line editor that keeps a history of the commands typed.
type terminal struct {
	t     *term.Terminal
	in    *os.File
	out   *os.File
	state *term.State
	done  chan struct{}
	once  sync.Once
}

// openTerminal returns the line editor on in and out when both are a
// terminal, with the terminal in raw mode until close, or when ctx is
// done (a signal), whichever comes first; nil when either is not a
// terminal, for the plain reading of lines.
func openTerminal(ctx context.Context, in io.Reader, out io.Writer) (*terminal, error) {
	fin, ok := in.(*os.File)
	if !ok || !term.IsTerminal(int(fin.Fd())) {
		return nil, nil
	}
	fout, ok := out.(*os.File)
	if !ok || !term.IsTerminal(int(fout.Fd())) {
		return nil, nil
	}
	st, err := term.MakeRaw(int(fin.Fd()))
	if err != nil {
		return nil, err
	}
	s := &terminal{in: fin, out: fout, state: st, done: make(chan struct{})}
	r := &ctxReader{ctx: ctx, done: s.done, data: make(chan chunk)}
	go r.pump(fin)
	s.t = term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{r, fout}, "")
	s.t.History = &history{}
	return s, nil
}

// readLine shows prompt and reads one line, edited at the terminal. At
// the end of input (Ctrl-D or Ctrl-C on an empty line, or a signal) it
// returns io.EOF.
func (s *terminal) readLine(prompt string) (line string, tooLong bool, err error) {
	if w, h, err := term.GetSize(int(s.out.Fd())); err == nil && w > 0 && h > 0 {
		s.t.SetSize(w, h)
	}
	s.t.SetPrompt(prompt)
	line, err = s.t.ReadLine()
	if errors.Is(err, term.ErrPasteIndicator) {
		err = nil // a pasted line is a line
	}
	if len(line) > engine.MaxLineBytes {
		return "…", true, err
	}
	return line, false, err
}

// close gives the terminal back as it was; it may be called again.
func (s *terminal) close() {
	s.once.Do(func() {
		close(s.done)
		term.Restore(int(s.in.Fd()), s.state)
	})
}

// ctxReader reads the terminal in a goroutine of its own, so that a read
// waiting for a key ends when ctx is done (a signal) or the session ends.
type ctxReader struct {
	ctx  context.Context
	done <-chan struct{}
	data chan chunk
	rest []byte
}

// chunk is one read of the terminal: the bytes, or the error that ended
// the reads.
type chunk struct {
	b   []byte
	err error
}

// pump reads f until it fails or the session ends.
func (r *ctxReader) pump(f *os.File) {
	buf := make([]byte, 256)
	for {
		n, err := f.Read(buf)
		c := chunk{b: slices.Clone(buf[:n])}
		if n == 0 {
			if err == nil {
				continue
			}
			c.err = err
		}
		select {
		case r.data <- c:
		case <-r.done:
			return
		}
		if c.err != nil {
			return
		}
	}
}

// Read returns what the terminal sent, the terminal's error, or io.EOF
// once ctx is done or the session has ended.
func (r *ctxReader) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		select {
		case c := <-r.data:
			if c.err != nil {
				return 0, c.err
			}
			r.rest = c.b
		case <-r.ctx.Done():
			return 0, io.EOF
		case <-r.done:
			return 0, io.EOF
		}
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// history keeps the lines typed at the prompt for Up and Down, newest
// first, without blank lines or a line repeating the one before it.
type history struct{ lines []string }

// Add records a line typed.
func (h *history) Add(line string) {
	if strings.TrimSpace(line) == "" || len(h.lines) > 0 && h.lines[0] == line {
		return
	}
	h.lines = slices.Insert(h.lines, 0, line)
	if len(h.lines) > maxHistory {
		h.lines = h.lines[:maxHistory]
	}
}

// Len returns how many lines are kept.
func (h *history) Len() int { return len(h.lines) }

// At returns the line i steps back, 0 the newest.
func (h *history) At(i int) string { return h.lines[i] }

// complete is the prompt's Tab: it completes the word before the cursor
// from the command words, the words the command's declaration offers
// (options and their choices) and the combatants' names; when several
// fit it completes what they share, and lists them when that is all.
func (p *player) complete(line string, pos int, key rune) (string, int, bool) {
	if key != '\t' {
		return "", 0, false
	}
	start := wordStart(line[:pos])
	word := line[start:pos]
	var cands []string
	words := strings.Fields(line[:start])
	if len(words) > 0 && words[0] == engine.CmdOdds {
		words = words[1:]
	}
	ds := p.e.Decls()
	if len(words) == 0 {
		for _, d := range ds {
			cands = append(cands, d.Name)
		}
	} else {
		if d, ok := fray.FindDecl(ds, words[0]); ok {
			cands = append(cands, d.Completions()...)
		}
		for _, c := range p.e.View().Combatants {
			cands = append(cands, quoteName(c.Name))
		}
	}
	key2 := strings.ToLower(strings.TrimPrefix(word, `"`))
	var fits []string
	for _, c := range cands {
		if strings.HasPrefix(strings.ToLower(strings.TrimPrefix(c, `"`)), key2) && !slices.Contains(fits, c) {
			fits = append(fits, c)
		}
	}
	if len(fits) == 0 {
		return line, pos, true
	}
	// What the candidates share, compared without the quotes of names;
	// quoted again when the word began with one or the share has a space.
	common := strings.TrimPrefix(fits[0], `"`)
	for _, f := range fits[1:] {
		common = commonPrefix(common, strings.TrimPrefix(f, `"`))
	}
	if strings.HasPrefix(word, `"`) || strings.Contains(common, " ") {
		common = `"` + common
	}
	if len(fits) == 1 {
		common = fits[0]
		if !strings.HasSuffix(common, "=") {
			common += " "
		}
	}
	if len(common) > len(word) {
		return line[:start] + common + line[pos:], start + len(common), true
	}
	if len(fits) > 1 {
		io.WriteString(p.out, "  "+strings.Join(fits, "  ")+"\n")
	}
	return line, pos, true
}

// wordStart returns where the last word of s begins: after the last
// space outside quotes.
func wordStart(s string) int {
	start, quoted := 0, false
	for i, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ' ' && !quoted:
			start = i + 1
		}
	}
	return start
}

// commonPrefix returns the longest start a and b share, in bytes, ending
// at a whole character, compared without regard to case, as a spells it.
func commonPrefix(a, b string) string {
	n := 0
	for i, r := range a {
		if i >= len(b) {
			break
		}
		rb := []rune(b[i:])[0]
		if !strings.EqualFold(string(r), string(rb)) {
			break
		}
		n = i + len(string(r))
	}
	return a[:n]
}

// quoteName writes a name as a command takes it: in quotes when it has a
// space.
func quoteName(name string) string {
	if strings.ContainsAny(name, " \t") {
		return `"` + name + `"`
	}
	return name
}
