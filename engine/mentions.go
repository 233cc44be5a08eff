package engine

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"fray"
)

// Mentions returns the names of the combatants of enc that text (a note,
// a direction: words a person typed with a command) mentions, other than
// those named in except, in the order they first occur in text, or nil
// when it mentions nobody. The rule systems read it once, where the
// command that carries the text is decided (and, on the same state, where
// its event writes the text into the history), so that the event and the
// history declare everyone their words name.
//
// A combatant is mentioned by their name as a whole word: not run
// together with a letter, digit, mark or underscore on either side, and
// compared without regard to case after Unicode NFC normalisation. A
// longer name claims its words first, so that "Ganyeka's henchmen" does
// not mention Ganyeka too, nor "Jack B. Nimble" Jack.
//
// The candidates are the present combatants the encounter's Asker may
// see (all of them when there is no Asker: the GM's view) and the
// removed ones in enc.Gone, the hidden among those only for the GM: a
// player's words declare nobody the player cannot know of. A name that
// stands more than once (a combatant removed twice, or removed and added
// again) is reported as the present combatant spells it, else as the
// latest removed one does.
func Mentions(enc *fray.Encounter, text string, except ...string) []string {
	if text == "" || enc == nil {
		return nil
	}
	v := fray.GM
	if enc.Asker != nil {
		v = *enc.Asker
	}
	has := func(list []string, n string) bool {
		return slices.ContainsFunc(list, func(x string) bool { return fray.SameName(x, n) })
	}
	text = fray.NormName(text)
	// Only the names that occur in text at all take part (most texts
	// mention one combatant or none), so the cost is one scan of the
	// text per combatant.
	var names []string
	consider := func(name string) {
		if name != "" && occurs(text, fray.NormName(name)) && !has(names, name) {
			names = append(names, name)
		}
	}
	for _, c := range enc.Combatants {
		if v.Sees(c) {
			consider(c.Name)
		}
	}
	for i := len(enc.Gone) - 1; i >= 0; i-- {
		if g := enc.Gone[i]; v.IsGM() || !g.Hidden {
			consider(g.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.SortStableFunc(names, func(a, b string) int {
		return utf8.RuneCountInString(b) - utf8.RuneCountInString(a)
	})
	type span struct {
		name    string
		at, end int
	}
	var claimed []span
	free := func(at, end int) bool {
		for _, s := range claimed {
			if at < s.end && s.at < end {
				return false
			}
		}
		return true
	}
	var hits []span // the first occurrence of each mentioned name
	for _, name := range names {
		n := fray.NormName(name)
		first := -1
		for i := 0; i < len(text); {
			if end, ok := wordAt(text, i, n); ok && free(i, end) {
				claimed = append(claimed, span{name, i, end})
				if first < 0 {
					first = i
				}
				i = end
				continue
			}
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
		}
		if first >= 0 && !has(except, name) {
			hits = append(hits, span{name, first, 0})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	slices.SortStableFunc(hits, func(a, b span) int { return a.at - b.at })
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.name
	}
	return out
}

// occurs reports whether name occurs in text as wordAt finds it.
func occurs(text, name string) bool {
	first, _ := utf8.DecodeRuneInString(name)
	for i := 0; i < len(text); {
		t, size := utf8.DecodeRuneInString(text[i:])
		if sameRune(t, first) {
			if _, ok := wordAt(text, i, name); ok {
				return true
			}
		}
		i += size
	}
	return false
}

// wordAt reports whether name occurs in text at byte i, compared without
// regard to case, as a whole word: not run together with a word rune on
// either side (where the name itself begins or ends with one). end is
// where the occurrence ends.
func wordAt(text string, i int, name string) (end int, ok bool) {
	j := i
	for _, r := range name {
		if j >= len(text) {
			return 0, false
		}
		t, size := utf8.DecodeRuneInString(text[j:])
		if !sameRune(t, r) {
			return 0, false
		}
		j += size
	}
	first, _ := utf8.DecodeRuneInString(name)
	last, _ := utf8.DecodeLastRuneInString(name)
	if before, _ := utf8.DecodeLastRuneInString(text[:i]); i > 0 && wordRune(before) && wordRune(first) {
		return 0, false
	}
	if after, _ := utf8.DecodeRuneInString(text[j:]); j < len(text) && wordRune(after) && wordRune(last) {
		return 0, false
	}
	return j, true
}

// sameRune reports whether a and b are the same rune under simple case
// folding, as strings.EqualFold compares them.
func sameRune(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		return a == b
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

// wordRune reports whether r continues a word.
func wordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_')
}
