package dice

import (
	"fmt"
	"strings"
)

// Error reports a problem with an expression: where it is and what is wrong.
type Error struct {
	// Src is the expression text.
	Src string
	// Pos is the byte offset in Src of the problem.
	Pos int
	// Msg says what is wrong, in a sentence without a final full stop.
	Msg string
	// Limit names the limit that was passed (one of the Limit* constants),
	// or is empty when the input is simply malformed.
	Limit string
}

// Error returns the message with its column (1-based).
func (e *Error) Error() string {
	return fmt.Sprintf("column %d: %s", e.Pos+1, e.Msg)
}

// Caret returns the expression on one line and a caret under the problem on
// the next, for showing in a terminal.
func (e *Error) Caret() string {
	src := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		return r
	}, e.Src)
	pos := min(max(e.Pos, 0), len(src))
	// Count runes, not bytes, before the problem so the caret lines up.
	col := len([]rune(src[:pos]))
	return src + "\n" + strings.Repeat(" ", col) + "^"
}

func errorf(src string, pos int, format string, args ...any) *Error {
	return &Error{Src: src, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func limitf(src string, pos int, limit string, format string, args ...any) *Error {
	return &Error{Src: src, Pos: pos, Msg: fmt.Sprintf(format, args...), Limit: limit}
}
