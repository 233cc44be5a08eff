package dice

// The lexer is a small state machine in the manner of text/template/parse:
// each state function scans one kind of token and returns the next state.
// It fills a slice rather than a channel, since expressions are short.

type tokKind uint8

const (
	tokEOF    tokKind = iota
	tokError          // val holds the message
	tokNumber         // an unsigned run of digits
	tokWord           // a modifier or die word: d k kh kl dh dl r ro min max f F
	tokSym            // one of + - * / ( ) { } , % ! @ = < > <= >=
)

type token struct {
	kind tokKind
	pos  int
	val  string
}

// words are the letter tokens, longest first so that "dh" wins over "d".
var words = []string{"min", "max", "kh", "kl", "dh", "dl", "ro", "d", "k", "r", "f", "F"}

type lexer struct {
	src    string
	pos    int
	start  int
	tokens []token
}

type stateFn func(*lexer) stateFn

// lex splits src into tokens. The last token is tokEOF or tokError.
func lex(src string) []token {
	l := &lexer{src: src}
	for state := lexAny; state != nil; {
		state = state(l)
	}
	return l.tokens
}

func (l *lexer) emit(k tokKind) {
	l.tokens = append(l.tokens, token{kind: k, pos: l.start, val: l.src[l.start:l.pos]})
	l.start = l.pos
}

func (l *lexer) fail(msg string) stateFn {
	l.tokens = append(l.tokens, token{kind: tokError, pos: l.start, val: msg})
	return nil
}

// lexAny skips white space and picks the state for the next token.
func lexAny(l *lexer) stateFn {
	for l.pos < len(l.src) && isSpace(l.src[l.pos]) {
		l.pos++
	}
	l.start = l.pos
	if l.pos >= len(l.src) {
		l.emit(tokEOF)
		return nil
	}
	c := l.src[l.pos]
	switch {
	case c >= '0' && c <= '9':
		return lexNumber
	case isLetter(c):
		return lexWord
	case c == '<' || c == '>':
		l.pos++
		if l.pos < len(l.src) && l.src[l.pos] == '=' {
			l.pos++
		}
		l.emit(tokSym)
		return lexAny
	case isSymbol(c):
		l.pos++
		l.emit(tokSym)
		return lexAny
	default:
		return l.fail("unexpected character " + quoteChar(l.src, l.pos))
	}
}

func lexNumber(l *lexer) stateFn {
	for l.pos < len(l.src) && l.src[l.pos] >= '0' && l.src[l.pos] <= '9' {
		l.pos++
	}
	l.emit(tokNumber)
	return lexAny
}

func lexWord(l *lexer) stateFn {
	for _, w := range words {
		if len(l.src)-l.pos >= len(w) && l.src[l.pos:l.pos+len(w)] == w {
			l.pos += len(w)
			l.emit(tokWord)
			return lexAny
		}
	}
	end := l.pos
	for end < len(l.src) && isLetter(l.src[end]) {
		end++
	}
	return l.fail("unknown word " + quote(l.src[l.pos:end]))
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isSymbol(c byte) bool {
	switch c {
	case '+', '-', '*', '/', '(', ')', '{', '}', ',', '%', '!', '@', '=':
		return true
	}
	return false
}

func quote(s string) string { return "\"" + s + "\"" }

// quoteChar quotes the (possibly multi-byte) character at src[i].
func quoteChar(src string, i int) string {
	for j, r := range src[i:] {
		if j == 0 {
			if r == '\uFFFD' {
				return "(invalid UTF-8)"
			}
			return quote(string(r))
		}
	}
	return ""
}
