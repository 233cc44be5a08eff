package fray

import (
	"maps"
	"slices"
	"strings"
)

// Command is one parsed command line, such as
//
//	add "Brigand #2" side=npc group=Brigands
//
// Name is the first word in lower case, Args the positional words after it
// and Opts the key=value words. The same words are used by every interface
// (the command line, the HTTP API and the web page).
type Command struct {
	// Name is the command word, in lower case: "add", "next", "delay", …
	Name string `json:"name"`
	// Args holds the positional words in order, quotes removed.
	Args []string `json:"args,omitempty"`
	// Opts holds the key=value words by lower-case key.
	Opts map[string]string `json:"opts,omitempty"`
}

// Opt returns the value of the option key and whether it was given.
func (c Command) Opt(key string) (string, bool) {
	v, ok := c.Opts[key]
	return v, ok
}

// Arg returns the i-th positional word, or "" when there are fewer.
func (c Command) Arg(i int) string {
	if i < 0 || i >= len(c.Args) {
		return ""
	}
	return c.Args[i]
}

// String returns the command in canonical form: the name, the positional
// words, then the options sorted by key, each word quoted when it has to be.
// Parsing the result yields the same command.
func (c Command) String() string {
	var b strings.Builder
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteByte(' ')
		writeWord(&b, a, true)
	}
	keys := slices.Sorted(maps.Keys(c.Opts))
	for _, k := range keys {
		b.WriteByte(' ')
		b.WriteString(k)
		b.WriteByte('=')
		writeWord(&b, c.Opts[k], false)
	}
	return b.String()
}

// writeWord writes w, quoted when it is empty or holds a space, a quote, a
// backslash or (for a positional word) an equals sign or a leading #.
func writeWord(b *strings.Builder, w string, positional bool) {
	plain := w != ""
	for i, r := range w {
		if r <= ' ' || r == '"' || r == '\\' || r == 0x7f || (positional && (r == '=' || (i == 0 && r == '#'))) {
			plain = false
			break
		}
	}
	if plain {
		b.WriteString(w)
		return
	}
	b.WriteByte('"')
	for _, r := range w {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// CommandDoc describes one command a system accepts, for help screens.
type CommandDoc struct {
	// Usage is the command with its arguments, such as "delay [NAME]".
	Usage string `json:"usage"`
	// Summary is one sentence saying what the command does.
	Summary string `json:"summary"`
}

// Words returns the command words d documents, in order: the first word
// of each whole command its usage holds ("block NAME | dodge NAME"
// documents block and dodge; "[before=NAME|after=NAME]" is one command).
func (d CommandDoc) Words() []string {
	words := []string{}
	for _, alt := range d.Forms() {
		if f := strings.Fields(alt); len(f) > 0 && UsageWord(f[0]) && !slices.Contains(words, f[0]) {
			words = append(words, f[0])
		}
	}
	return words
}

// Forms returns the whole commands d's usage holds, split at its
// top-level " | " and " / ": "block NAME | dodge NAME [mod=N]" is two,
// "scene / story" too, but "[before=NAME|after=NAME]" stays one.
func (d CommandDoc) Forms() []string {
	usage := d.Usage
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(usage); i++ {
		switch usage[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '|', '/':
			if depth == 0 && i > 0 && usage[i-1] == ' ' && i+1 < len(usage) && usage[i+1] == ' ' {
				out = append(out, usage[from:i])
				from = i + 1
			}
		}
	}
	return append(out, usage[from:])
}

// UsageWord reports whether s is a literal word of a usage (a command
// word, or a value to type as it stands): lower-case letters, digits, _
// and -, starting with a letter.
func UsageWord(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
