package bpb

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"fray"
)

// mentions returns the names of the combatants other than self that a
// note mentions, in the order they first occur, or nil. It is read once,
// when the command that writes the note is decided, and recorded in the
// event (turnNoted.Mentions, forcedNoted.Mentions), so that the event and
// the turn it leaves in the history declare everyone their words name.
//
// A combatant is mentioned by their name as a whole word, compared
// without regard to case; a longer name claims its words first, so that
// "Ganyeka's henchmen" does not mention Ganyeka too. Only the combatants
// the asker may see (present, or gone) are candidates: a player's note
// declares nobody the player cannot know of.
func (s *State) mentions(note, self string) []string {
	if note == "" {
		return nil
	}
	v := fray.GM
	if s.Asker != nil {
		v = *s.Asker
	}
	var names []string
	seen := func(n string) bool {
		return slices.ContainsFunc(names, func(x string) bool { return fray.SameName(x, n) })
	}
	for _, c := range s.Combatants {
		if v.Sees(c) {
			names = append(names, c.Name)
		}
	}
	for i := len(s.Gone) - 1; i >= 0; i-- {
		if g := s.Gone[i]; (v.IsGM() || !g.Hidden) && !seen(g.Name) {
			names = append(names, g.Name)
		}
	}
	slices.SortStableFunc(names, func(a, b string) int { return len(b) - len(a) })
	text := fray.NormName(note)
	claimed := make([]bool, len(text))
	type found struct {
		name string
		at   int
	}
	var hits []found
	for _, n := range names {
		first := -1
		for i := 0; i < len(text); {
			end, ok := wordAt(text, i, n)
			if ok && !slices.Contains(claimed[i:end], true) {
				for k := i; k < end; k++ {
					claimed[k] = true
				}
				if first < 0 {
					first = i
				}
				i = end
				continue
			}
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
		}
		if first >= 0 && !fray.SameName(n, self) {
			hits = append(hits, found{n, first})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	slices.SortStableFunc(hits, func(a, b found) int { return a.at - b.at })
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.name
	}
	return out
}

// wordAt reports whether name occurs in text at byte i, compared without
// regard to case, as a whole word: not run together with a letter or
// digit on either side. end is where the occurrence ends.
func wordAt(text string, i int, name string) (end int, ok bool) {
	j := i
	for _, r := range name {
		if j >= len(text) {
			return 0, false
		}
		t, size := utf8.DecodeRuneInString(text[j:])
		if t != r && !strings.EqualFold(string(t), string(r)) {
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

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_'
}

// mentionsKey is the key of the mentions a turnNoted or forcedNoted
// payload records.
var mentionsKey = []byte(`"mentions"`)

// mentionsOf returns the mentions an EventTurnEnded or EventForced
// records (nil for none), as the turn keeps them. Only a payload whose
// JSON holds the key is decoded for them (a note's own quotes are
// escaped, so its words cannot hold it), which leaves the frequent
// payload without mentions a flat one.
func mentionsOf(ev fray.Event) ([]string, error) {
	if !bytes.Contains(ev.Data, mentionsKey) {
		return nil, nil
	}
	var d struct {
		Mentions []string `json:"mentions"`
	}
	if err := ev.Decode(&d); err != nil {
		return nil, err
	}
	if len(d.Mentions) == 0 {
		return nil, nil
	}
	return d.Mentions, nil
}
