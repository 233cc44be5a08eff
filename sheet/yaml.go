package sheet

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Sheet files are read by a small reader of the YAML that sheets need,
// written here rather than taken from a library: it keeps fray's
// dependencies to the two it has (go-cmp for tests, the SQLite driver),
// lets every error name a line, and refuses what a sheet has no use for
// instead of guessing. The subset:
//
//	document = [ "---" ] block .
//	block    = mapping | sequence | scalar .           // by indentation, spaces only
//	mapping  = { key ":" [ " " value ] [ comment ] } . // same indentation; duplicate keys refused
//	sequence = { "-" [ " " value ] } .                // "- key: v" starts a mapping in the item
//	value    = scalar | flow | (newline, a deeper block) .
//	flow     = "[" [ item { "," item } ] "]" | "{" [ key ":" item { "," key ":" item } ] "}" .  // on one line
//	scalar   = plain | "'" … "'" | `"` … `"` .         // "" and \n, \t, \", \\ in double quotes
//	comment  = "#" … .                                 // at a line's start or after a blank
//
// Not supported (refused with the line): block scalars (| and >),
// anchors and aliases (& and *), tags (!), several documents, complex
// keys (?), tabs in indentation. JSON files go through encoding/json and
// come out as the same nodes.

// Limits on a sheet file.
const (
	// MaxFileBytes is the largest sheet file read.
	MaxFileBytes = 1 << 20
	// MaxDepth is the deepest nesting of mappings and sequences.
	MaxDepth = 32
)

// node is one value of a sheet file.
type node struct {
	line   int    // 1-based; 0 for JSON
	scalar string // a scalar's text
	quoted bool   // the scalar was quoted: always a string
	isNull bool
	list   []*node // a sequence
	keys   []string
	vals   []*node // a mapping, keys in order
	kind   byte    // 's' scalar, 'l' sequence, 'm' mapping
}

func (n *node) get(key string) *node {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// yamlLine is one line of a YAML file with its indentation.
type yamlLine struct {
	no     int
	indent int
	text   string
}

type yamlParser struct {
	lines []yamlLine
	pos   int
}

// yamlError is an error at a line of a YAML file.
func yamlError(line int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// parseYAML reads a sheet file written in YAML.
func parseYAML(src string) (*node, error) {
	p := &yamlParser{}
	for i, raw := range strings.Split(src, "\n") {
		raw = strings.TrimRight(raw, "\r")
		text := stripComment(raw)
		trimmed := strings.TrimLeft(text, " ")
		if strings.TrimSpace(trimmed) == "" {
			continue
		}
		indent := len(text) - len(trimmed)
		if strings.HasPrefix(trimmed, "\t") {
			return nil, yamlError(i+1, "a tab indents the line; indent with spaces")
		}
		if indent == 0 && (trimmed == "---" || strings.HasPrefix(trimmed, "--- ")) {
			if len(p.lines) > 0 {
				return nil, yamlError(i+1, "a second document (---); a sheet file holds one")
			}
			continue
		}
		if indent == 0 && strings.TrimSpace(trimmed) == "..." {
			break
		}
		p.lines = append(p.lines, yamlLine{no: i + 1, indent: indent, text: strings.TrimRight(trimmed, " \t")})
	}
	if len(p.lines) == 0 {
		return &node{kind: 's', isNull: true}, nil
	}
	n, err := p.block(p.lines[0].indent, 0)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.lines) {
		l := p.lines[p.pos]
		return nil, yamlError(l.no, "this line is indented less than the block it follows, or more than the one it ends")
	}
	return n, nil
}

// stripComment removes a comment: a # at the start or after a blank,
// outside quotes.
func stripComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			if i == 0 || s[i-1] == ' ' || s[i-1] == '[' || s[i-1] == '{' || s[i-1] == ',' || s[i-1] == ':' || s[i-1] == '-' {
				quote = c
			}
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
	}
	return s
}

func isSeqItem(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

// block parses the block whose lines start at indent.
func (p *yamlParser) block(indent, depth int) (*node, error) {
	l := p.lines[p.pos]
	if depth > MaxDepth {
		return nil, yamlError(l.no, "the sheet nests deeper than %d levels (MaxDepth)", MaxDepth)
	}
	if isSeqItem(l.text) {
		return p.sequence(indent, depth)
	}
	if _, _, ok, err := splitKey(l); err != nil {
		return nil, err
	} else if ok {
		return p.mapping(indent, depth)
	}
	p.pos++
	return inline(l.text, l.no, depth)
}

func (p *yamlParser) sequence(indent, depth int) (*node, error) {
	n := &node{kind: 'l', line: p.lines[p.pos].no}
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		if l.indent < indent {
			break
		}
		if l.indent > indent {
			return nil, yamlError(l.no, "this line is indented more than the list item before it")
		}
		if !isSeqItem(l.text) {
			break
		}
		rest := strings.TrimLeft(strings.TrimPrefix(l.text, "-"), " ")
		if rest == "" {
			p.pos++
			if p.pos < len(p.lines) && p.lines[p.pos].indent > indent {
				item, err := p.block(p.lines[p.pos].indent, depth+1)
				if err != nil {
					return nil, err
				}
				n.list = append(n.list, item)
			} else {
				n.list = append(n.list, &node{kind: 's', isNull: true, line: l.no})
			}
			continue
		}
		// "- key: v" or "- - x": the item is a block starting at the
		// column of rest.
		col := indent + len(l.text) - len(rest)
		p.lines[p.pos] = yamlLine{no: l.no, indent: col, text: rest}
		item, err := p.block(col, depth+1)
		if err != nil {
			return nil, err
		}
		n.list = append(n.list, item)
	}
	return n, nil
}

// splitKey splits "key: value" (or "key:") and reports whether the line
// is a mapping entry.
func splitKey(l yamlLine) (key, rest string, ok bool, err error) {
	t := l.text
	switch t[0] {
	case '[', '{':
		return "", "", false, nil
	case '?':
		if len(t) == 1 || t[1] == ' ' {
			return "", "", false, yamlError(l.no, "complex keys (?) are not supported in sheet files")
		}
	case '"', '\'':
		s, n, err := quotedScalar(t, l.no)
		if err != nil {
			return "", "", false, err
		}
		after := t[n:]
		if after == ":" || strings.HasPrefix(after, ": ") {
			return s, strings.TrimSpace(after[1:]), true, nil
		}
		return "", "", false, nil
	}
	i := strings.Index(t, ": ")
	if i < 0 {
		if strings.HasSuffix(t, ":") {
			return strings.TrimSpace(t[:len(t)-1]), "", true, nil
		}
		return "", "", false, nil
	}
	return strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+2:]), true, nil
}

func (p *yamlParser) mapping(indent, depth int) (*node, error) {
	n := &node{kind: 'm', line: p.lines[p.pos].no}
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		if l.indent < indent {
			break
		}
		if l.indent > indent {
			return nil, yamlError(l.no, "this line is indented more than the key before it")
		}
		if isSeqItem(l.text) {
			return nil, yamlError(l.no, "a list item where a key was expected")
		}
		key, rest, ok, err := splitKey(l)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, yamlError(l.no, "%q is not a key: value line", clipText(l.text))
		}
		if key == "" {
			return nil, yamlError(l.no, "a key is empty")
		}
		if n.get(key) != nil {
			return nil, yamlError(l.no, "the key %q is given twice", key)
		}
		p.pos++
		var v *node
		switch {
		case rest != "":
			v, err = inline(rest, l.no, depth+1)
		case p.pos < len(p.lines) && p.lines[p.pos].indent > indent:
			v, err = p.block(p.lines[p.pos].indent, depth+1)
		case p.pos < len(p.lines) && p.lines[p.pos].indent == indent && isSeqItem(p.lines[p.pos].text):
			v, err = p.sequence(indent, depth+1)
		default:
			v = &node{kind: 's', isNull: true, line: l.no}
		}
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, key)
		n.vals = append(n.vals, v)
	}
	return n, nil
}

// inline parses a value written on one line: a flow collection or a
// scalar.
func inline(t string, line, depth int) (*node, error) {
	switch t[0] {
	case '|', '>':
		return nil, yamlError(line, "block scalars (| and >) are not supported in sheet files; write the text on one line, in quotes")
	case '&', '*':
		return nil, yamlError(line, "anchors and aliases (& and *) are not supported in sheet files")
	case '!':
		return nil, yamlError(line, "tags (!) are not supported in sheet files")
	case '[', '{':
		f := &flowParser{s: t, line: line}
		n, err := f.value(depth)
		if err != nil {
			return nil, err
		}
		f.space()
		if f.i < len(f.s) {
			return nil, yamlError(line, "%q follows the end of a [ ] or { } list", clipText(f.s[f.i:]))
		}
		return n, nil
	case '"', '\'':
		s, n, err := quotedScalar(t, line)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(t[n:]) != "" {
			return nil, yamlError(line, "%q follows a quoted text", clipText(t[n:]))
		}
		return &node{kind: 's', scalar: s, quoted: true, line: line}, nil
	}
	if strings.Contains(t, ": ") {
		return nil, yamlError(line, "%q holds \": \"; quote the text, or put the mapping on lines of its own", clipText(t))
	}
	return plainScalar(t, line), nil
}

func plainScalar(t string, line int) *node {
	switch t {
	case "~", "null", "Null", "NULL":
		return &node{kind: 's', isNull: true, line: line}
	}
	return &node{kind: 's', scalar: t, line: line}
}

// quotedScalar reads a quoted scalar at the start of t and returns its
// text and the bytes it took.
func quotedScalar(t string, line int) (string, int, error) {
	q := t[0]
	var b strings.Builder
	for i := 1; i < len(t); i++ {
		c := t[i]
		switch {
		case q == '\'' && c == '\'':
			if i+1 < len(t) && t[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			return b.String(), i + 1, nil
		case q == '"' && c == '"':
			return b.String(), i + 1, nil
		case q == '"' && c == '\\':
			if i+1 >= len(t) {
				return "", 0, yamlError(line, "a backslash ends the line")
			}
			i++
			switch t[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '"', '\\', '/':
				b.WriteByte(t[i])
			default:
				return "", 0, yamlError(line, "unknown escape \\%c", t[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, yamlError(line, "a quote is never closed (quoted text must be on one line)")
}

// flowParser reads a flow collection on one line.
type flowParser struct {
	s    string
	i    int
	line int
}

func (f *flowParser) space() {
	for f.i < len(f.s) && f.s[f.i] == ' ' {
		f.i++
	}
}

func (f *flowParser) value(depth int) (*node, error) {
	if depth > MaxDepth {
		return nil, yamlError(f.line, "the sheet nests deeper than %d levels (MaxDepth)", MaxDepth)
	}
	f.space()
	if f.i >= len(f.s) {
		return nil, yamlError(f.line, "a value is missing at the end of the line")
	}
	switch c := f.s[f.i]; c {
	case '[', '{':
		f.i++
		n := &node{kind: 'l', line: f.line}
		end := byte(']')
		if c == '{' {
			n.kind, end = 'm', '}'
		}
		f.space()
		if f.i < len(f.s) && f.s[f.i] == end {
			f.i++
			return n, nil
		}
		for {
			if n.kind == 'm' {
				k, err := f.scalar(true)
				if err != nil {
					return nil, err
				}
				f.space()
				if f.i >= len(f.s) || f.s[f.i] != ':' {
					return nil, yamlError(f.line, "a key in { } must be followed by a colon")
				}
				f.i++
				v, err := f.value(depth + 1)
				if err != nil {
					return nil, err
				}
				if n.get(k.scalar) != nil {
					return nil, yamlError(f.line, "the key %q is given twice", k.scalar)
				}
				n.keys = append(n.keys, k.scalar)
				n.vals = append(n.vals, v)
			} else {
				v, err := f.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.list = append(n.list, v)
			}
			f.space()
			if f.i >= len(f.s) {
				return nil, yamlError(f.line, "a %c is never closed (a [ ] or { } list must end on its line)", c)
			}
			switch f.s[f.i] {
			case ',':
				f.i++
			case end:
				f.i++
				return n, nil
			default:
				return nil, yamlError(f.line, "%q where a comma or %c was expected", f.s[f.i:f.i+1], end)
			}
		}
	case '&', '*', '!', '|', '>':
		return nil, inlineErr(f.line, c)
	}
	return f.scalar(false)
}

func inlineErr(line int, c byte) error {
	_, err := inline(string(c), line, 0)
	return err
}

// scalar reads a plain or quoted scalar in a flow collection.
func (f *flowParser) scalar(key bool) (*node, error) {
	f.space()
	if f.i < len(f.s) && (f.s[f.i] == '"' || f.s[f.i] == '\'') {
		s, n, err := quotedScalar(f.s[f.i:], f.line)
		if err != nil {
			return nil, err
		}
		f.i += n
		return &node{kind: 's', scalar: s, quoted: true, line: f.line}, nil
	}
	start := f.i
	for f.i < len(f.s) && !strings.ContainsRune(",[]{}", rune(f.s[f.i])) && !(key && f.s[f.i] == ':') {
		if f.s[f.i] == ':' && f.i+1 < len(f.s) && f.s[f.i+1] == ' ' {
			break
		}
		f.i++
	}
	t := strings.TrimSpace(f.s[start:f.i])
	if t == "" {
		return nil, yamlError(f.line, "a value is missing in a [ ] or { } list")
	}
	return plainScalar(t, f.line), nil
}

// parseJSON reads a sheet file written in JSON into nodes.
func parseJSON(b []byte) (*node, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			return nil, fmt.Errorf("byte %d: %v", se.Offset, err)
		}
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return fromJSON(v), nil
}

func fromJSON(v any) *node {
	switch x := v.(type) {
	case nil:
		return &node{kind: 's', isNull: true}
	case string:
		return &node{kind: 's', scalar: x, quoted: true}
	case json.Number:
		return &node{kind: 's', scalar: x.String()}
	case bool:
		return &node{kind: 's', scalar: strconv.FormatBool(x)}
	case []any:
		n := &node{kind: 'l'}
		for _, e := range x {
			n.list = append(n.list, fromJSON(e))
		}
		return n
	case map[string]any:
		n := &node{kind: 'm'}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.keys = append(n.keys, k)
			n.vals = append(n.vals, fromJSON(x[k]))
		}
		return n
	}
	return &node{kind: 's', isNull: true}
}

func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
