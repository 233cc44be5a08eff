package sheet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A sheet file is read into a tree of yaml.Node, which keeps each value's
// line: YAML by go.yaml.in/yaml/v3, JSON by encoding/json (its nodes have
// no line). Before a YAML tree is decoded, check refuses, with the line,
// what a sheet has no use for: anchors and aliases (& and *), tags
// (!!binary, !custom: a node whose tag is written in the file), keys that
// are not texts or are given twice, and nesting deeper than MaxDepth;
// parseYAML refuses a second document. A tag written as a bare "!" is let
// through: yaml/v3 keeps no trace of it, and it cannot change what the
// decoder reads, which is each scalar's text.
//
// yaml/v3 expands aliases only when it decodes into Go values, never into
// a yaml.Node; the decoder here reads nodes and never follows an alias,
// and check refuses every alias before it runs. So a "billion laughs"
// file costs what its bytes cost: MaxFileBytes bounds those before the
// parser sees them, and yaml/v3 bounds its own nesting at 10000.

// Limits on a sheet file.
const (
	// MaxFileBytes is the largest sheet file read.
	MaxFileBytes = 1 << 20
	// MaxDepth is the deepest nesting of mappings and sequences.
	MaxDepth = 32
)

// lineError is an error at a line of a sheet file.
func lineError(line int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

const (
	noAnchors = "anchors and aliases (& and *) are not supported in sheet files"
	tooDeep   = "the sheet nests deeper than %d levels (MaxDepth)"
)

// parseYAML reads a sheet file written in YAML; an empty file is a null.
func parseYAML(b []byte) (*yaml.Node, error) {
	if err := checkText(b); err != nil {
		return nil, err
	}
	root, second, err := parseDocument(b)
	switch {
	case errors.Is(err, io.EOF):
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}, nil
	case err != nil:
		return nil, yamlError(b, err)
	case second > 0:
		return nil, lineError(second, "a second document (---); a sheet file holds one")
	}
	if err := check(root, 0, len(lineEnds(b))); err != nil {
		return nil, err
	}
	return root, nil
}

// parseDocument reads the first document of src, giving its root node and
// the line where a second document starts (0 if none does); errors are
// yaml/v3's, and io.EOF when there is no document.
func parseDocument(src []byte) (root *yaml.Node, second int, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc, next yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, 0, err
	}
	if err := dec.Decode(&next); err == nil {
		second = next.Line
	} else if !errors.Is(err, io.EOF) {
		return nil, 0, err
	}
	return doc.Content[0], second, nil
}

// checkText refuses what yaml/v3 would refuse without naming the line:
// bytes that are not UTF-8, and control characters other than tab and
// the line breaks.
func checkText(b []byte) error {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return lineError(lineOf(b, i), "the file is not UTF-8 text")
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', 0x7f <= r && r < 0xa0 && r != 0x85, r == 0xfffe, r == 0xffff:
			return lineError(lineOf(b, i), "a control character (%U); a sheet file is text", r)
		}
		i += size
	}
	return nil
}

// lineEnds gives the end of each line of src (just after its line
// break), lines broken as YAML breaks them: at \n, \r\n, a lone \r,
// U+0085, U+2028 and U+2029.
func lineEnds(src []byte) []int {
	var ends []int
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		i += size
		switch {
		case r == '\r' && i < len(src) && src[i] == '\n':
			continue
		case r == '\n', r == '\r', r == 0x85, r == 0x2028, r == 0x2029:
			ends = append(ends, i)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] < len(src) {
		ends = append(ends, len(src))
	}
	return ends
}

// lineOf gives the line, from 1, of byte i of src.
func lineOf(src []byte, i int) int {
	ends := lineEnds(src)
	return 1 + sort.Search(len(ends), func(k int) bool { return ends[k] > i })
}

// check refuses what a sheet has no use for in the tree under n, which
// sits inside depth mappings and sequences of a file of last lines. It
// moves a node that yaml/v3 puts at the end of the file, on a line after
// the last (a missing value there), to the last line.
func check(n *yaml.Node, depth, last int) error {
	n.Line = min(n.Line, last)
	switch {
	case n.Kind == yaml.AliasNode || n.Anchor != "":
		return lineError(n.Line, noAnchors)
	case n.Style&yaml.TaggedStyle != 0:
		return lineError(n.Line, "tags (%s) are not supported in sheet files", n.Tag)
	case n.Kind == yaml.ScalarNode:
		return nil
	case depth > MaxDepth:
		return lineError(n.Line, tooDeep, MaxDepth)
	}
	var keys map[string]bool
	if n.Kind == yaml.MappingNode {
		keys = make(map[string]bool, len(n.Content)/2)
	}
	for i, c := range n.Content {
		if err := check(c, depth+1, last); err != nil {
			return err
		}
		if keys == nil || i%2 == 1 {
			continue
		}
		switch {
		case c.Kind != yaml.ScalarNode:
			return lineError(c.Line, "a key is a list or a mapping; keys are texts")
		case c.Value == "":
			return lineError(c.Line, "a key is empty")
		case keys[c.Value]:
			return lineError(c.Line, "the key %q is given twice", c.Value)
		}
		keys[c.Value] = true
	}
	return nil
}

// yamlProblem splits an error of yaml/v3 into the line, when it gives
// one, and the problem.
var yamlProblem = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// unknownAnchor is yaml/v3's problem for an alias with no anchor.
var unknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)

// yamlParserProblems are the problems that yaml/v3's parser, rather than
// its scanner, finds, each with a context: the parser's errors count
// lines from 0 and give the line where the context (a block mapping, a
// [ ] list…) starts, not that of the problem.
var yamlParserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected key",
	"did not find expected '-' indicator",
	"found duplicate %YAML directive",
	"found duplicate %TAG directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// flowOpen maps the parser's problems with a [ ] or { } collection to
// the character that opens it.
var flowOpen = map[string]rune{
	"did not find expected ',' or ']'": '[',
	"did not find expected ',' or '}'": '{',
}

// yamlError words an error of yaml/v3 as a sheet error with its line.
// yaml/v3 leaves the line out when it is the first (0 in the parser's
// count, 1 in the scanner's), and puts the end of the file on a line
// after the last.
func yamlError(src []byte, err error) error {
	m := yamlProblem.FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("malformed YAML: %w", err)
	}
	n, _ := strconv.Atoi(m[1])
	problem := m[2]
	if a := unknownAnchor.FindStringSubmatch(problem); a != nil {
		return aliasError(src, a[1])
	}
	last := len(lineEnds(src))
	line := func(l int) int { return min(max(l, 1), last) }
	if open, ok := flowOpen[problem]; ok {
		// The line where the [ or { opens (or, when that is the first,
		// the line of the problem), which is where to look.
		return lineError(line(n+1), "a %c is never closed, or a comma is missing (%s)", open, problem)
	}
	switch {
	case slices.Contains(yamlParserProblems, problem):
		return lineError(line(problemLine(src, n+1, problem)), "malformed YAML: %s", problem)
	case strings.HasPrefix(problem, "found a tab character"):
		// The scanner gives the line where the text the tab is in starts.
		return lineError(line(problemLine(src, max(n, 1), problem)), "a tab indents the line; indent with spaces")
	case strings.HasPrefix(problem, "exceeded max depth"):
		return lineError(line(n), tooDeep, MaxDepth)
	}
	return lineError(line(n), "malformed YAML: %s", problem)
}

// problemLine finds the line of a problem that yaml/v3 places at from, a
// line before it: the first line from there at which the file, cut after
// that line, has the same problem. The cut is found by halving, so it
// costs a few parses of the file.
func problemLine(src []byte, from int, problem string) int {
	ends := lineEnds(src) // ends[i] is the end of line i+1
	lo, hi := min(from, len(ends)), len(ends)
	for lo < hi {
		mid := lo + (hi-lo)/2
		_, _, err := parseDocument(src[:ends[mid-1]])
		if m := yamlProblem.FindStringSubmatch(fmt.Sprint(err)); m != nil && m[2] == problem {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// aliasError refuses the alias *name, whose anchor yaml/v3 did not find
// and whose line it does not give: the line is the first to hold *name
// (a name is letters, digits, _ and -).
func aliasError(src []byte, name string) error {
	re := regexp.MustCompile(`(?m)(^|[^0-9A-Za-z_-])\*` + regexp.QuoteMeta(name) + `([^0-9A-Za-z_-]|$)`)
	loc := re.FindIndex(src)
	if loc == nil {
		return errors.New(noAnchors)
	}
	return lineError(lineOf(src, loc[0]), noAnchors)
}

// parseJSON reads a sheet file written in JSON into nodes, keys in
// sorted order.
func parseJSON(b []byte) (*yaml.Node, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
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

// fromJSON makes the node of a JSON value; ShortTag resolves the tags it
// leaves out, as yaml/v3 would.
func fromJSON(v any) *yaml.Node {
	switch x := v.(type) {
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: x, Style: yaml.DoubleQuotedStyle}
	case json.Number:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: x.String()}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatBool(x)}
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range x {
			n.Content = append(n.Content, fromJSON(e))
		}
		return n
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k, Style: yaml.DoubleQuotedStyle}, fromJSON(x[k]))
		}
		return n
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
}

// get returns the value of key in the mapping n, or nil.
func get(n *yaml.Node, key string) *yaml.Node {
	for k, v := range pairs(n) {
		if k == key {
			return v
		}
	}
	return nil
}

// pairs yields the keys and values of the mapping n in order.
func pairs(n *yaml.Node) iter.Seq2[string, *yaml.Node] {
	return func(yield func(string, *yaml.Node) bool) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !yield(n.Content[i].Value, n.Content[i+1]) {
				return
			}
		}
	}
}

// isNull reports whether n is a null: ~, null, or nothing at all.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// isQuoted reports whether the scalar n was written in quotes or as a
// block (| or >), which makes it a text whatever it says.
func isQuoted(n *yaml.Node) bool {
	return n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
}
