package rulestest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"fray"
	"fray/engine"
)

// CheckRenames plays the script s twice: as it is, and with every present
// combatant renamed at the given line (rename NAME ZNAME), the rest of the
// script then naming them by their new names. The two plays must accept
// and refuse the same commands, and after every command their views must
// be the same once the new names are read as the old ones (and ids, which
// count events, are left aside): a rename changes what a combatant is
// called and nothing else, so whatever a system holds of a combatant must
// follow it by id. A rename must also undo and redo exactly (see Step).
//
// The new name is the old one with a "Z" before it, so that names keep
// their order among themselves; a name that would grow past the longest a
// name may be is left as it is.
func CheckRenames(newSystem func() fray.System, s Script, at int) error {
	lines := strings.Split(s.Text, "\n")
	plain := engine.New(newSystem(), rand.New(rand.NewPCG(7, 11)))
	renamed := engine.New(newSystem(), rand.New(rand.NewPCG(7, 11)))
	var to renames
	for i, line := range lines {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		if i < at {
			to.noteTyped(cmd)
		}
		if i == at {
			if err := to.renameAll(renamed); err != nil {
				return fmt.Errorf("line %d: %v", i+1, err)
			}
			if err := sameViews(plain, renamed, to); err != nil {
				return fmt.Errorf("right after the renames at line %d: %v", i+1, err)
			}
		}
		_, err1 := plain.Do(cmd)
		_, err2 := renamed.Do(to.command(cmd))
		if (err1 == nil) != (err2 == nil) || fray.ErrorCode(err1) != fray.ErrorCode(err2) {
			return fmt.Errorf("line %d (%s): as written: %v; with the renames: %v", i+1, line, err1, err2)
		}
		if err := sameViews(plain, renamed, to); err != nil {
			return fmt.Errorf("after line %d (%s), renamed at line %d: %v", i+1, line, at+1, err)
		}
	}
	return nil
}

// RenamePoints returns the lines of the script s at which CheckRenames
// may rename: those where no step stands undone (a rename is a step, so
// it would end the redo) and from which no later undo reaches back past
// (it would take back a rename instead).
func RenamePoints(newSystem func() fray.System, s Script) []int {
	lines := strings.Split(s.Text, "\n")
	e := engine.New(newSystem(), rand.New(rand.NewPCG(7, 11)))
	applied := make([]int, len(lines)+1) // steps applied before each line
	redoable := make([]int, len(lines)+1)
	for i, line := range lines {
		applied[i], redoable[i] = e.Steps()
		if cmd, err := engine.ParseCommand(line); err == nil && cmd.Name != "" {
			_, _ = e.Do(cmd)
		}
	}
	applied[len(lines)], _ = e.Steps()
	var out []int
	for at := range lines {
		if redoable[at] > 0 {
			continue
		}
		if lowest := slices.Min(applied[at:]); lowest >= applied[at] {
			out = append(out, at)
		}
	}
	return out
}

// renames maps old names to new ones, longest old name first. typed
// holds the words typed before the renames that hold a name in longer
// text (a note): they keep the names they were typed with.
type renames struct{ old, new, typed []string }

// noteTyped records cmd's words that hold names in longer text (a word
// that is a name is not text: it names a combatant).
func (r *renames) noteTyped(cmd fray.Command) {
	words := slices.Clone(cmd.Args)
	for _, v := range cmd.Opts {
		words = append(words, v)
	}
	for _, w := range words {
		if strings.ContainsAny(w, " \t") {
			r.typed = append(r.typed, w)
		}
	}
}

// typedWords returns the words typed before the renames that hold an old
// name in longer text.
func (r renames) typedWords() []string {
	var out []string
	for _, t := range r.typed {
		if r.words(t, r.old, r.new) != t && !slices.ContainsFunc(r.old, func(n string) bool { return fray.SameName(n, t) }) {
			out = append(out, t)
		}
	}
	return out
}

// masked returns s with each word typed before the renames (see
// typedWords), as typed or with the new names, replaced by a mark: such
// words may keep the names they were typed with, or follow the renames
// where the rules read them (bpb's "blocks attack by NAME").
func (r renames) masked(s string) string {
	for _, t := range r.typedWords() {
		s = strings.ReplaceAll(s, t, "\x00typed\x00")
		s = strings.ReplaceAll(s, r.words(t, r.old, r.new), "\x00typed\x00")
	}
	return s
}

// renameAll renames every present combatant of e, each through Step.
func (r *renames) renameAll(e *engine.Engine) error {
	for _, c := range e.View().Combatants {
		to := "Z" + c.Name
		if len(to) > engine.MaxNameLen {
			continue
		}
		cmd := fray.Command{Name: engine.CmdRename, Args: []string{c.Name, to}}
		if err := Step(e, cmd); err != nil {
			return err
		}
		if !slices.ContainsFunc(e.View().Combatants, func(x fray.Combatant) bool { return x.Name == to }) {
			continue // refused: another is called so already
		}
		r.old = append(r.old, c.Name)
		r.new = append(r.new, to)
	}
	// Longest first, so that "Ganyeka's henchmen" is replaced before
	// Ganyeka.
	idx := make([]int, len(r.old))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return utf8.RuneCountInString(r.old[b]) - utf8.RuneCountInString(r.old[a])
	})
	old, nw := make([]string, len(idx)), make([]string, len(idx))
	for i, j := range idx {
		old[i], nw[i] = r.old[j], r.new[j]
	}
	r.old, r.new = old, nw
	return nil
}

// command returns cmd as it is written after the renames: a word that is
// an old name becomes the new one, and so does an old name standing as a
// whole word in longer text (a note).
func (r renames) command(cmd fray.Command) fray.Command {
	if len(r.old) == 0 {
		return cmd
	}
	out := fray.Command{Name: cmd.Name, Args: make([]string, len(cmd.Args))}
	for i, a := range cmd.Args {
		out.Args[i] = r.words(a, r.old, r.new)
	}
	if cmd.Opts != nil {
		out.Opts = make(map[string]string, len(cmd.Opts))
		for k, v := range cmd.Opts {
			out.Opts[k] = r.words(v, r.old, r.new)
		}
	}
	return out
}

// words replaces in s each name of from standing as a whole word, in the
// same case, by the name of to at the same place; a word that is a name of
// from in any case is replaced whole.
func (renames) words(s string, from, to []string) string {
	for i, n := range from {
		if fray.SameName(s, n) {
			return to[i]
		}
	}
	for i, n := range from {
		if holdsWord(s, n) {
			s = replaceWord(s, n, to[i])
		}
	}
	return s
}

// replaceWord replaces every occurrence of word standing as a whole word
// in text by with.
func replaceWord(text, word, with string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, word)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		end := i + len(word)
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[end:])
		whole := (i == 0 || !isWordRune(before)) && (end == len(text) || !isWordRune(after))
		b.WriteString(text[:i])
		if whole {
			b.WriteString(with)
		} else {
			b.WriteString(word)
		}
		text = text[end:]
	}
}

// sameViews compares the two engines' views, leaving ids aside. Read
// with the old names for the new, the renamed view must be the plain one:
// whatever the rules hold of a combatant followed the rename. And the
// plain view, written with the new names for the old, must be the renamed
// one: no words the rules made (a history line, a slot's note) kept an
// old name. (Words a person typed before the renames keep the names they
// were typed with.)
func sameViews(plain, renamed *engine.Engine, r renames) error {
	a, err := viewJSON(plain.View(), nil)
	if err != nil {
		return err
	}
	b, err := viewJSON(renamed.View(), func(s string) string { return r.words(s, r.new, r.old) })
	if err != nil {
		return err
	}
	if a != b {
		return fmt.Errorf("the views differ (as written, then renamed and read back):\n%s", diffText(a, b))
	}
	if a, err = viewJSON(plain.View(), func(s string) string { return r.words(r.masked(s), r.old, r.new) }); err != nil {
		return err
	}
	if b, err = viewJSON(renamed.View(), r.masked); err != nil {
		return err
	}
	if a != b {
		return fmt.Errorf("the renamed view keeps an old name (as written with the new names, then renamed):\n%s", diffText(a, b))
	}
	return nil
}

// viewJSON returns v as indented JSON without its ids, every string
// passed through back (when not nil).
func viewJSON(v fray.View, back func(string) string) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var x any
	if err := json.Unmarshal(raw, &x); err != nil {
		return "", err
	}
	x = withoutIDs(x, back)
	out, err := json.MarshalIndent(x, "", " ")
	return string(out), err
}

// idKeys are the view's fields that hold ids, which count events: a
// rename is an event, so the renamed play's later ids differ.
var idKeys = map[string]bool{"id": true, "current_id": true, "by_id": true}

func withoutIDs(x any, back func(string) string) any {
	switch v := x.(type) {
	case map[string]any:
		for k, e := range v {
			if idKeys[k] {
				delete(v, k)
				continue
			}
			v[k] = withoutIDs(e, back)
		}
	case []any:
		for i, e := range v {
			v[i] = withoutIDs(e, back)
		}
	case string:
		if back != nil {
			return back(v)
		}
	}
	return x
}

// diffText shows two texts line by line where they differ, up to about
// 2,000 bytes.
func diffText(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	for i := 0; i < max(len(la), len(lb)) && out.Len() <= 2000; i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			fmt.Fprintf(&out, "line %d:\n- %s\n+ %s\n", i+1, x, y)
		}
	}
	return out.String()
}
