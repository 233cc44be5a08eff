package vv

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"fray"
)

// mentions returns the names of the combatants, present or gone, other
// than self, that the free text typed with a command (a note, a
// direction) names: each name found in text as a whole word, without
// regard to case, unless only inside a longer name found there ("Jack"
// in "Jack B. Nimble"), in the order the combatants were added, then the
// gone ones. It is read where the command is decided and where its event
// writes the text into the history, so that the event and the history
// declare whom their words name (fray.TagWho, fray.RoundTurns.Who); nil
// when text names nobody else.
func (s *State) mentions(text, self string) []string {
	if text == "" {
		return nil
	}
	lower := strings.ToLower(text)
	type found struct {
		name  string
		spans [][2]int
	}
	var fs []found
	add := func(name string) {
		if name == "" {
			return
		}
		for _, f := range fs {
			if fray.SameName(f.name, name) {
				return
			}
		}
		if sp := wordSpans(lower, strings.ToLower(name)); len(sp) > 0 {
			fs = append(fs, found{name, sp})
		}
	}
	for _, c := range s.Combatants {
		add(c.Name)
	}
	for _, g := range s.Gone {
		add(g.Name)
	}
	var out []string
	for _, f := range fs {
		if fray.SameName(f.name, self) {
			continue
		}
		for _, a := range f.spans {
			inside := false
			for _, g := range fs {
				for _, b := range g.spans {
					if b[0] <= a[0] && a[1] <= b[1] && b[1]-b[0] > a[1]-a[0] {
						inside = true
					}
				}
			}
			if !inside {
				out = append(out, f.name)
				break
			}
		}
	}
	return out
}

// wordSpans returns where name occurs in text as a whole word, with no
// letter or digit on either side; both are already in lower case.
func wordSpans(text, name string) [][2]int {
	var out [][2]int
	for i := 0; name != "" && i+len(name) <= len(text); {
		k := strings.Index(text[i:], name)
		if k < 0 {
			break
		}
		lo, hi := i+k, i+k+len(name)
		if !wordRune(text[:lo], true) && !wordRune(text[hi:], false) {
			out = append(out, [2]int{lo, hi})
		}
		_, size := utf8.DecodeRuneInString(text[lo:])
		i = lo + size
	}
	return out
}

// wordRune reports whether the last rune of s (or its first, when last is
// false) is a letter or a digit.
func wordRune(s string, last bool) bool {
	if s == "" {
		return false
	}
	var r rune
	if last {
		r, _ = utf8.DecodeLastRuneInString(s)
	} else {
		r, _ = utf8.DecodeRuneInString(s)
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// The payloads that declare whom their free text names (SpendData,
// CheckData and FacingData, with About) are not flat: a list makes
// fray.Event.Decode decode them rather than copy them. Their text names
// nobody else far more often than somebody, so such an event is made
// from a flat twin with the same JSON form (About is omitted when empty),
// and Apply, which does not read About, decodes every one of them into
// the twin: copied when the event was made in this process, decoded
// without encoding/json otherwise.

// spendFlat is SpendData without About.
type spendFlat struct {
	Name  string `json:"name" fray:"who"`
	Power int    `json:"power"`
	Phase int    `json:"phase,omitempty"`
	Note  string `json:"note,omitempty"`
}

// checkFlat is CheckData without About.
type checkFlat struct {
	Name   string `json:"name" fray:"who"`
	Note   string `json:"note,omitempty"`
	Given  int    `json:"given"`
	Mod    int    `json:"mod,omitempty"`
	Chance int    `json:"chance"`
	Roll   int    `json:"roll"`
	Band   string `json:"band"`
}

// facingFlat is FacingData without About.
type facingFlat struct {
	Name  string `json:"name" fray:"who"`
	Dir   string `json:"dir,omitempty"`
	Cost  int    `json:"cost"`
	Phase int    `json:"phase"`
}

// payload returns what an EventSpent is made from: d, or its flat twin
// when its note names nobody else.
func (d SpendData) payload() any {
	if len(d.About) > 0 {
		return d
	}
	return spendFlat{Name: d.Name, Power: d.Power, Phase: d.Phase, Note: d.Note}
}

// payload returns what an EventChecked is made from: d, or its flat twin
// when its note names nobody else.
func (d CheckData) payload() any {
	if len(d.About) > 0 {
		return d
	}
	return checkFlat{Name: d.Name, Note: d.Note, Given: d.Given, Mod: d.Mod, Chance: d.Chance, Roll: d.Roll, Band: d.Band}
}

// payload returns what an EventFacing or EventProne is made from: d, or
// its flat twin when its direction names nobody else.
func (d FacingData) payload() any {
	if len(d.About) > 0 {
		return d
	}
	return facingFlat{Name: d.Name, Dir: d.Dir, Cost: d.Cost, Phase: d.Phase}
}
