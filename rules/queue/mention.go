package queue

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"fray"
)

// mentions returns the names of the combatants of enc, present or gone,
// that text names as a whole word (not inside a longer word), without
// regard to case, other than self: the present in the order they were
// added, then the gone. It is nil when text names nobody.
//
// A note is words the GM typed (act … note=, react … note=); this is the
// one place they are read for names, when the command is decided (and
// when its reaction joins the history), so that the event and the view
// declare whom they name instead of leaving a reader to search for it.
func mentions(enc *fray.Encounter, text, self string) []string {
	if text == "" {
		return nil
	}
	var out []string
	ascii, lower := isASCII(text), ""
	consider := func(name string) {
		if fray.SameName(self, name) || slices.ContainsFunc(out, func(x string) bool { return fray.SameName(x, name) }) {
			return
		}
		var found bool
		if ascii && isASCII(name) {
			// Lower case is byte for byte: neither needs lowering.
			found = namesWordASCII(text, name)
		} else {
			if lower == "" {
				lower = strings.ToLower(text)
			}
			found = namesWord(lower, strings.ToLower(name))
		}
		if found {
			out = append(out, name)
		}
	}
	for i := range enc.Combatants {
		consider(enc.Combatants[i].Name)
	}
	for i := range enc.Gone {
		consider(enc.Gone[i].Name)
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// namesWord reports whether name occurs in text as a whole word.
func namesWord(text, name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(name)
		before, _ := utf8.DecodeLastRuneInString(text[:at])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if !inWord(before) && !inWord(after) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[at:])
		i = at + size
	}
	return false
}

// namesWordASCII is namesWord for an ASCII text and name, compared
// without regard to case.
func namesWordASCII(text, name string) bool {
	if name == "" {
		return false
	}
	for at := 0; at+len(name) <= len(text); at++ {
		if !strings.EqualFold(text[at:at+len(name)], name) {
			continue
		}
		if (at == 0 || !inWord(rune(text[at-1]))) && (at+len(name) == len(text) || !inWord(rune(text[at+len(name)]))) {
			return true
		}
	}
	return false
}

// inWord reports whether r continues a word.
func inWord(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}
