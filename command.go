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

// CommandDoc is one line of help: a command's usage and summary, written
// from its declaration (CommandDecl.Doc).
type CommandDoc struct {
	// Usage is the command with its arguments, such as "delay [NAME]".
	Usage string `json:"usage"`
	// Summary is one sentence saying what the command does.
	Summary string `json:"summary"`
}
