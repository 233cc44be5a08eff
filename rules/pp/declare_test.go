package pp_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"fray"
	"fray/engine"
	"fray/rules/pp"
)

// declarations exercises what the examples leave out: Resolve spent on a
// same-goal roll of three, on an exchange and on a group action that
// handed successes over, conditions caused by someone, and an NPC's
// Health and Resolve in the order while they act.
const declarations = `add Gatecrasher side=pc might=12 toughness=8 agility=4 perception=3 intellect=2 willpower=5 resolve=3
add "Citizen Soldier" side=pc might=12 toughness=10 agility=6 perception=4 intellect=3 willpower=6 resolve=2
add Whisper side=pc agility=5 intellect=4 perception=5 might=2 toughness=3 willpower=4 resolve=2
add Vile role=villain perception=9 agility=2 intellect=5 might=3 toughness=3 willpower=6 health=4 resolve=2
add Goons role=extra minion=yes count=3 perception=2 agility=3 might=3 toughness=2
add Lurker role=foe hidden=yes perception=1 agility=1 might=2 toughness=2
check Whisper might vs="Gatecrasher,Citizen Soldier" same=yes successes=1 vs_successes=5,7
spend Whisper resolve=1 dice=6
check Vile intellect vs=Whisper successes=2 vs_successes=2
spend Vile resolve=1 dice=6
contest Gatecrasher Whisper agility successes=3 vs_successes=2
spend Whisper resolve=1 dice=6
exchange successes=2 vs_successes=4
group might Gatecrasher "Citizen Soldier" Whisper threshold=daunting successes=9,4,1
spend "Citizen Soldier" resolve=1 dice=4
assist "Citizen Soldier" for=Gatecrasher might successes=9
condition Vile dazed by=Gatecrasher mod=-1 on=all until=end:Vile
condition Goons pinned by=Lurker
start
damage Vile 1
act
act
check Vile intellect vs=Lurker successes=1 vs_successes=0
attack Vile Goons with=might successes=3 vs_successes=1
next
attack Gatecrasher Vile with=might successes=5 vs_successes=1
clear Goons pinned
next
remove Lurker
next
next
history
show`

// TestDeclarations plays every script of the package and checks, with an
// oracle that searches words (here only), what the rules declare instead
// of being searched: every combatant whose id an event's data holds, or
// whose name its words mention, is in the event's About; P&P's own
// payloads hold names only as words, never a bare name but in a field
// declared a name (fray.TagName); every other combatant a slot's note
// names is in the slot's About, and every other combatant a history turn
// names is in that turn's Who; and no slot's note carries track numbers
// (they go in Status).
func TestDeclarations(t *testing.T) {
	scripts := map[string]string{"declarations": declarations}
	for _, name := range append(slices.Clone(examples), resolutionExamples...) {
		scripts[name] = readExample(t, name)
	}
	for _, s := range ownScripts {
		scripts[s.Name] = s.Text
	}
	for name, text := range scripts {
		t.Run(name, func(t *testing.T) {
			e := engine.New(pp.New(), rand.New(rand.NewPCG(7, 11)))
			for i, line := range strings.Split(text, "\n") {
				cmd, err := engine.ParseCommand(strings.TrimPrefix(line, "!"))
				if err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				if cmd.Name == "" {
					continue
				}
				before := present(e)
				evs, err := e.Do(cmd)
				if err != nil {
					continue // a refusal the script means
				}
				all := append(before, present(e)...)
				for _, ev := range evs {
					checkEvent(t, line, ev, all)
				}
				checkView(t, line, e.View(), nameList(present(e)))
			}
		})
	}
}

// present lists the combatants now in the encounter.
func present(e *engine.Engine) []fray.Combatant {
	var out []fray.Combatant
	for _, c := range e.State().(*pp.State).Combatants {
		out = append(out, *c)
	}
	return out
}

func nameList(cs []fray.Combatant) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// checkEvent checks that every combatant of cs whose id ev's data holds,
// or whose name its words mention, is one ev is about (About), and that a
// payload of P&P's own holds no combatant's bare name but in a field
// declared a name.
func checkEvent(t *testing.T, line string, ev fray.Event, cs []fray.Combatant) {
	t.Helper()
	about := func(id fray.CombatantID) bool { return slices.Contains(ev.About, id) }
	data := string(ev.Data)
	for _, c := range cs {
		if len(mentions(data, []string{string(c.ID)}, "")) > 0 && !about(c.ID) {
			t.Errorf("%s: event %s holds the id of %s (%s) in %s but is about only %q", line, ev.Type, c.Name, c.ID, ev.Data, ev.About)
		}
	}
	for _, n := range mentions(data, nameList(cs), "") {
		i := slices.IndexFunc(cs, func(c fray.Combatant) bool { return c.Name == n })
		if !about(cs[i].ID) {
			t.Errorf("%s: event %s names %s in %s but is about only %q", line, ev.Type, n, ev.Data, ev.About)
		}
	}
	typ, ok := pp.New().Payloads()[ev.Type]
	if !ok || !strings.HasPrefix(ev.Type, pp.ID+".") {
		return // no payload, or the engine's
	}
	v := reflect.New(reflect.TypeOf(typ))
	if err := json.Unmarshal(ev.Data, v.Interface()); err != nil {
		t.Fatalf("%s: event %s: %v", line, ev.Type, err)
	}
	for _, bare := range bareNames(v.Elem(), false, nameList(cs)) {
		t.Errorf("%s: event %s holds the name %q where it should hold an id: %s", line, ev.Type, bare, ev.Data)
	}
}

// bareNames returns the strings of v, at any depth, that are exactly one
// of names as the encounter spells them (so that a role "hero" is not the
// combatant Hero), but for those in a field declared a name (named).
func bareNames(v reflect.Value, named bool, names []string) []string {
	var out []string
	switch v.Kind() {
	case reflect.String:
		if !named && v.Type() != reflect.TypeFor[fray.CombatantID]() && slices.Contains(names, v.String()) {
			out = append(out, v.String())
		}
	case reflect.Pointer:
		if !v.IsNil() {
			out = bareNames(v.Elem(), named, names)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			out = append(out, bareNames(v.Index(i), named, names)...)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				out = append(out, bareNames(v.Field(i), f.Tag.Get("fray") == fray.TagName, names)...)
			}
		}
	}
	return out
}

// trackWords are track numbers as a note would say them: "Health 3/4",
// "Resolve 0/2", "2 of 5 standing".
var trackWords = regexp.MustCompile(`\d+\s*/\s*\d+|\d+ of \d+`)

// checkView checks the notes of the order and the words of the history.
func checkView(t *testing.T, line string, v fray.View, names []string) {
	t.Helper()
	npc := map[string]bool{}
	for _, c := range v.Combatants {
		npc[c.Name] = c.Side != fray.SidePC
	}
	for _, slots := range [][]fray.Slot{v.Order, v.Next} {
		for _, s := range slots {
			for _, n := range mentions(s.Note, names, s.Name) {
				if !slices.ContainsFunc(s.About, func(a string) bool { return fray.SameName(a, n) }) {
					t.Errorf("%s: the slot %q mentions %s, not in About %q", line, s.String(), n, s.About)
				}
			}
			if m := trackWords.FindString(s.Note); m != "" {
				who := "PC"
				if npc[s.Name] {
					who = "NPC"
				}
				t.Errorf("%s: the note of %s's slot (%s) holds track numbers %q; they belong in Status", line, who, s.Name, s.Note)
			}
		}
	}
	for _, h := range v.History {
		for i, turn := range h.Turns {
			var who []string
			if i < len(h.Who) {
				who = h.Who[i]
			}
			taker, _, _ := strings.Cut(turn, " (")
			if len(who) > 0 {
				taker = who[0]
			}
			if !strings.HasPrefix(turn, taker) {
				t.Errorf("%s: round %d, turn %q does not begin with its taker %q", line, h.Round, turn, taker)
				continue
			}
			for _, n := range mentions(turn[len(taker):], names, "") {
				if fray.SameName(n, taker) || !slices.ContainsFunc(who, func(a string) bool { return fray.SameName(a, n) }) {
					t.Errorf("%s: round %d, turn %q names %s, not in Who %q", line, h.Round, turn, n, who)
				}
			}
		}
	}
}

// mentions returns the names of names, other than self, that occur in
// text as whole words, exactly as the encounter spells them (so that a
// role "hero" is not the combatant Hero), and as JSON spells them.
// Longer names are searched first and blanked out, so that "Doctor Vile"
// is not also "Vile".
func mentions(text string, names []string, self string) []string {
	ns := slices.Clone(names)
	slices.SortStableFunc(ns, func(a, b string) int { return len(b) - len(a) })
	ns = slices.Compact(ns)
	var out []string
	for _, n := range ns {
		for _, form := range forms(n) {
			found := false
			for i := 0; ; {
				j := strings.Index(text[i:], form)
				if j < 0 {
					break
				}
				j += i
				end := j + len(form)
				if wordEdge(text, j, end) {
					found = true
					text = text[:j] + strings.Repeat("\x00", len(form)) + text[end:]
				}
				i = end
			}
			if found && !fray.SameName(n, self) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// forms returns a name as it is, and as it is written inside a JSON string.
func forms(n string) []string {
	b, _ := json.Marshal(n)
	j := string(b[1 : len(b)-1])
	if j == n {
		return []string{n}
	}
	return []string{n, j}
}

// wordEdge reports whether text[i:j] stands as a whole word.
func wordEdge(text string, i, j int) bool {
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
	if r, _ := utf8.DecodeLastRuneInString(text[:i]); i > 0 && word(r) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(text[j:]); j < len(text) && word(r) {
		return false
	}
	return true
}

// A slot's words split where the first track's numbers begin: the note
// before, the status from there on, reading as before.
func TestTracksInStatus(t *testing.T) {
	e := newPP(t, `damage Vile 4
damage Goons 1
start
act
act
check Gatecrasher might threshold=hard successes=3
spend Gatecrasher resolve=1 dice=1`)
	for _, tt := range []struct{ name, note, status string }{
		{"Vile", "Edge 8, villain", "Health 0/4, defeated"},
		{"Goons", "Edge 5, extra, minion", "2 of 3 standing"},
		{"Gatecrasher", "Edge 7, hero", "Resolve 2/3"},
		{"Citizen Soldier", "Edge 10, hero, 2 actions, −2d", ""},
	} {
		i := slices.IndexFunc(e.View().Order, func(s fray.Slot) bool { return s.Name == tt.name })
		if i < 0 {
			t.Fatalf("no slot of %s", tt.name)
		}
		if s := e.View().Order[i]; s.Note != tt.note || s.Status != tt.status || s.About != nil {
			t.Errorf("%s: note %q, status %q, about %q; want %q, %q, none", tt.name, s.Note, s.Status, s.About, tt.note, tt.status)
		}
	}
}
