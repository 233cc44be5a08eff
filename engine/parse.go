package engine

import (
	"strings"
	"unicode/utf8"

	"fray"
)

// Limits on one command line. Input past them is refused with an
// ETOOLARGE error that names the limit.
const (
	// MaxLineBytes is the longest command line accepted, in bytes.
	MaxLineBytes = 4096
	// MaxWords is the most words (positional and key=value) in one
	// command: enough for an order that names every combatant of a large
	// fight (a server holds 100 by default, MaxCombatants).
	MaxWords = 256
)

// ParseCommand parses one command line into its words. A blank line or a
// comment line (one whose first non-blank character is #) gives a Command
// with an empty Name and no error.
//
// The grammar, with space meaning blanks and tabs:
//
//	line    = { space } [ "#" { any } | command { space } ] .
//	command = name { space { space } item } .
//	name    = ident .                      // lower-cased
//	item    = ident "=" [ word ] | word .  // key=value, or a positional word
//	word    = bare | quoted .
//	ident   = letter { letter | digit | "-" | "_" } .
//	bare    = nonblank { nonblank } .      // no quote, and no "=" in a positional word
//	quoted  = `"` { char | `\"` | `\\` | `\n` | `\t` | `\r` } `"` .
//
// A quoted word is always positional, even when it holds "=". Keys are
// lower-cased; a key given twice is an error. # inside a line is an
// ordinary character, so `add Brigand #2` has the positional words
// "Brigand" and "#2" (quote it as "Brigand #2" to make one name).
func ParseCommand(line string) (fray.Command, error) {
	if len(line) > MaxLineBytes {
		return fray.Command{}, fray.Errorf(fray.ETOOLARGE, "The command line is %d bytes long; the limit (MaxLineBytes) is %d.", len(line), MaxLineBytes)
	}
	if !utf8.ValidString(line) {
		return fray.Command{}, fray.Errorf(fray.EINVALID, "The command line is not valid UTF-8 text.")
	}
	p := &parser{src: line}
	p.skipSpace()
	if p.eof() || p.peek() == '#' {
		return fray.Command{}, nil
	}
	name, ok := p.ident()
	if !ok {
		return fray.Command{}, p.errorf("a command starts with its name, a word of letters such as add or next")
	}
	if !p.eof() && !isSpace(p.peek()) {
		return fray.Command{}, p.errorf("a command name is a word of letters, digits, - and _")
	}
	cmd := fray.Command{Name: strings.ToLower(name)}
	words := 0
	for {
		p.skipSpace()
		if p.eof() {
			break
		}
		words++
		if words > MaxWords {
			return fray.Command{}, fray.Errorf(fray.ETOOLARGE, "The command has more than %d words (MaxWords).", MaxWords)
		}
		start := p.pos
		if p.peek() != '"' {
			if key, ok := p.ident(); ok && !p.eof() && p.peek() == '=' {
				p.pos++
				val := ""
				if !p.eof() && !isSpace(p.peek()) {
					v, err := p.word(false)
					if err != nil {
						return fray.Command{}, err
					}
					val = v
				}
				key = strings.ToLower(key)
				if _, dup := cmd.Opts[key]; dup {
					p.pos = start
					return fray.Command{}, p.errorf("the key %s is given twice", key)
				}
				if cmd.Opts == nil {
					cmd.Opts = map[string]string{}
				}
				cmd.Opts[key] = val
				continue
			}
			p.pos = start
		}
		w, err := p.word(true)
		if err != nil {
			return fray.Command{}, err
		}
		cmd.Args = append(cmd.Args, w)
	}
	return cmd, nil
}

type parser struct {
	src string
	pos int
}

func (p *parser) eof() bool  { return p.pos >= len(p.src) }
func (p *parser) peek() byte { return p.src[p.pos] }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (p *parser) skipSpace() {
	for !p.eof() && isSpace(p.peek()) {
		p.pos++
	}
}

func (p *parser) errorf(format string, args ...any) error {
	e := fray.Errorf(fray.EINVALID, format, args...)
	e.Message = "Column " + itoa(p.pos+1) + ": " + e.Message + "."
	return e
}

// ident reads letter { letter | digit | "-" | "_" }.
func (p *parser) ident() (string, bool) {
	start := p.pos
	for !p.eof() {
		c := p.peek()
		isLetter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if isLetter || p.pos > start && (c >= '0' && c <= '9' || c == '-' || c == '_') {
			p.pos++
			continue
		}
		break
	}
	return p.src[start:p.pos], p.pos > start
}

// word reads a bare or quoted word. In a positional word a bare "=" is an
// error, because it would read as key=value.
func (p *parser) word(positional bool) (string, error) {
	if p.peek() == '"' {
		return p.quoted()
	}
	start := p.pos
	for !p.eof() && !isSpace(p.peek()) {
		switch p.peek() {
		case '"':
			return "", p.errorf("a quote may only start a word; quote the whole word instead")
		case '=':
			if positional {
				return "", p.errorf("%q is not a key=value pair (keys are words of letters); quote a name that holds =", p.src[start:p.wordEnd()])
			}
		}
		if c := p.peek(); c < ' ' || c == 0x7f {
			return "", p.errorf("control character %#x in a word", c)
		}
		p.pos++
	}
	return p.src[start:p.pos], nil
}

func (p *parser) wordEnd() int {
	i := p.pos
	for i < len(p.src) && !isSpace(p.src[i]) {
		i++
	}
	return i
}

// quoted reads a quoted word; p.peek() is the opening quote.
func (p *parser) quoted() (string, error) {
	open := p.pos
	p.pos++
	var b strings.Builder
	for {
		if p.eof() {
			p.pos = open
			return "", p.errorf("this quote is never closed")
		}
		c := p.peek()
		switch {
		case c == '"':
			p.pos++
			if !p.eof() && !isSpace(p.peek()) {
				return "", p.errorf("a closing quote must end the word")
			}
			return b.String(), nil
		case c == '\\':
			p.pos++
			if p.eof() {
				return "", p.errorf("a backslash ends the line")
			}
			switch e := p.peek(); e {
			case '"', '\\':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				return "", p.errorf("unknown escape \\%c; use \\\" or \\\\", e)
			}
			p.pos++
		case c < ' ' && c != '\t' || c == 0x7f:
			return "", p.errorf("control character %#x in a quoted word", c)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
