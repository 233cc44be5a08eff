package cinematic_test

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
	"fray/sheet"
)

// declaresScript reaches the references the examples do not: an attack
// that waits while its attacker suffers a complication someone else
// caused (the attack's terms then name that one), defences during
// another's turn, and answers due in the view.
const declaresScript = `add Ann side=pc strength=3 dexterity=7 constitution=3 perception=3 willpower=3
add Bo strength=3 dexterity=5 constitution=3 perception=2 willpower=3
add Cy strength=2 dexterity=4 constitution=1 perception=1 willpower=2
order Cy Bo
start
complication Ann down by=Cy
complication Bo large by=Cy
attack Ann Bo with=punch defence=wait dice=9
show
dodge Bo dice=1
defend Cy against=Ann
defend Ann against=Cy
next
attack Bo Ann with=kick defence=wait dice=5
take Ann
damage Ann 30 by=Cy
defend Cy
next
attack Cy Ann with=punch dice=3,3
attack Cy Bo with=punch defence=wait dice=9
parry Bo dice=2
next
remove Cy
show
history`

// declareScript is one script the declaration test plays.
type declareScript struct {
	name   string
	text   string
	sheets bool // the example sheets join first, as for cinematic-vampires
}

// TestDeclaredReferences plays every example script and conformance
// script and checks, with an oracle that searches words (which only a
// test may do), that the rules declare every combatant they mention:
// every combatant id in an event's payload is in the event's About, and
// so is every combatant its words name; a payload holds a combatant's
// name only as words (a note, a band, a term of a roll, a condition's
// causer and anchor), never where it holds an id; each name a slot's
// words mention, other than the slot's own, is in the slot's About; each
// name a history turn mentions, other than its taker's, is in the turn's
// Who; and no slot's note carries track numbers, which belong in Status.
func TestDeclaredReferences(t *testing.T) {
	scripts := []declareScript{
		{name: "cinematic-brawl", text: readExample(t, "cinematic-brawl")},
		{name: "cinematic-vampires", text: readExample(t, "cinematic-vampires"), sheets: true},
		{name: "removals", text: removalsScript},
		{name: "answers", text: answersScript},
		{name: "declares", text: declaresScript},
	}
	for _, name := range examples {
		scripts = append(scripts, declareScript{name: name, text: readExample(t, name)})
	}
	for _, sc := range scripts {
		t.Run(sc.name, func(t *testing.T) {
			e := engine.New(cinematic.New(), rand.New(rand.NewPCG(1, 2)))
			o := &oracle{t: t, ids: map[string]fray.CombatantID{}}
			if sc.sheets {
				for _, f := range []struct{ path, side string }{{"../../examples/cinematic-party.yaml", fray.SidePC}, {"../../examples/cinematic-foes.yaml", fray.SideNPC}} {
					cs, err := sheet.Load(f.path, cinematic.New(), f.side)
					if err != nil {
						t.Fatal(err)
					}
					evs, err := e.Join(cs)
					if err != nil {
						t.Fatal(err)
					}
					o.learn(e)
					o.events("join "+f.path, evs)
				}
				o.view("join", e)
			}
			for _, line := range strings.Split(sc.text, "\n") {
				cmd, err := engine.ParseCommand(line)
				if err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				if cmd.Name == "" {
					continue
				}
				o.learn(e)
				evs, _ := e.Do(cmd) // refusals are part of the scripts
				o.learn(e)
				o.events(line, evs)
				o.view(line, e)
			}
		})
	}
}

// oracle knows every combatant a script has had, by name.
type oracle struct {
	t   *testing.T
	ids map[string]fray.CombatantID
}

// learn records the combatants of the encounter, present and gone.
func (o *oracle) learn(e *engine.Engine) {
	enc := e.State().(*cinematic.State).Encounter
	for _, c := range enc.Combatants {
		o.ids[c.Name] = c.ID
	}
	for _, g := range enc.Gone {
		o.ids[g.Name] = g.ID
	}
}

var wordRune = regexp.MustCompile(`[\pL\pN_]`)

// mentions returns the known names that occur in text as whole words.
func (o *oracle) mentions(text string) []string {
	var out []string
	for name := range o.ids {
		for i := 0; i < len(text); {
			j := strings.Index(text[i:], name)
			if j < 0 {
				break
			}
			j += i
			k := j + len(name)
			before, after := "", ""
			if j > 0 {
				before = lastRune(text[:j])
			}
			if k < len(text) {
				after = firstRune(text[k:])
			}
			if !wordRune.MatchString(before) && !wordRune.MatchString(after) {
				out = append(out, name)
				break
			}
			i = j + 1
		}
	}
	slices.Sort(out)
	return out
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

func lastRune(s string) string {
	r := []rune(s)
	return string(r[len(r)-1])
}

// nameKeys are where a payload may hold a combatant's whole name, as
// words: the place of a JSON value, its keys joined with dots ("[]" for a
// list's items), by event type ("" for any).
var nameKeys = map[string][]string{
	fray.EventAdded:   {"combatant.name"},
	fray.EventRenamed: {"name", "to"},
	"": {
		"condition.by", "condition.until.name", // a condition's causer and anchor (fray:"name")
		"modifiers.[].who.[]", "condition.modifiers.[].who.[]", // a roll's terms, as words
	},
}

// events checks what the payload of each event says of the combatants:
// every combatant id it holds is in the event's About, and so is every
// combatant whose name its words mention; a whole name stands only where
// nameKeys allow.
func (o *oracle) events(line string, evs []fray.Event) {
	o.t.Helper()
	known := map[fray.CombatantID]bool{}
	for _, id := range o.ids {
		known[id] = true
	}
	for _, ev := range evs {
		if len(ev.Data) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(ev.Data, &v); err != nil {
			o.t.Fatalf("%s: event %s: %v", line, ev.Type, err)
		}
		about := func(id fray.CombatantID) bool { return slices.Contains(ev.About, id) }
		walk(v, "", func(place, s string) {
			switch {
			case known[fray.CombatantID(s)]:
				if !about(fray.CombatantID(s)) {
					o.t.Errorf("%s: event %s holds the id %s at %s, not in About %q: %s", line, ev.Type, s, place, ev.About, ev.Data)
				}
				return
			case o.isName(s):
				if !slices.Contains(nameKeys[ev.Type], place) && !slices.Contains(nameKeys[""], place) {
					o.t.Errorf("%s: event %s holds the name %q at %s, where an id belongs: %s", line, ev.Type, s, place, ev.Data)
				}
			}
			for _, n := range o.mentions(s) {
				if !about(o.ids[n]) {
					o.t.Errorf("%s: event %s says %s at %s (%q) without declaring them (About %q): %s", line, ev.Type, n, place, s, ev.About, ev.Data)
				}
			}
		})
	}
}

// isName reports whether s is the whole name of a known combatant.
func (o *oracle) isName(s string) bool {
	for name := range o.ids {
		if fray.SameName(name, s) {
			return true
		}
	}
	return false
}

// walk calls f with every string of the decoded JSON v, the keys of its
// objects included, and its place (see nameKeys).
func walk(v any, place string, f func(place, s string)) {
	join := func(k string) string {
		if place == "" {
			return k
		}
		return place + "." + k
	}
	switch x := v.(type) {
	case string:
		f(place, x)
	case []any:
		for _, y := range x {
			walk(y, join("[]"), f)
		}
	case map[string]any:
		for k, y := range x {
			f(join("{}"), k)
			walk(y, join(k), f)
		}
	}
}

// tracks matches the numbers of a track: "LP 40/42", "ammo pistol 3/6".
var tracks = regexp.MustCompile(`-?\d+/\d+`)

// view checks the order's and the history's declarations.
func (o *oracle) view(line string, e *engine.Engine) {
	o.t.Helper()
	v := e.View()
	for _, slots := range [][]fray.Slot{v.Order, v.Next} {
		for _, s := range slots {
			if tracks.MatchString(s.Note) {
				o.t.Errorf("%s: %s's note %q holds track numbers; they belong in Status", line, s.Name, s.Note)
			}
			for _, n := range o.mentions(s.Note + ", " + s.Status) {
				if !fray.SameName(n, s.Name) && !slices.ContainsFunc(s.About, func(x string) bool { return fray.SameName(x, n) }) {
					o.t.Errorf("%s: %s's slot %q mentions %s, not in About %q", line, s.Name, s.String(), n, s.About)
				}
			}
		}
	}
	for _, h := range v.History {
		for i, turn := range h.Turns {
			taker := o.taker(turn)
			if taker == "" {
				o.t.Errorf("%s: round %d's turn %q begins with no combatant's name", line, h.Round, turn)
				continue
			}
			var who []string
			if i < len(h.Who) {
				who = h.Who[i]
				if len(who) == 0 || !fray.SameName(who[0], taker) {
					o.t.Errorf("%s: round %d's turn %q: Who %q does not begin with %s", line, h.Round, turn, who, taker)
				}
			}
			rest := strings.TrimPrefix(turn, taker)
			for _, n := range o.mentions(rest) {
				if !fray.SameName(n, taker) && !slices.ContainsFunc(who, func(x string) bool { return fray.SameName(x, n) }) {
					o.t.Errorf("%s: round %d's turn %q mentions %s, not in Who %q", line, h.Round, turn, n, who)
				}
			}
		}
	}
}

// taker returns the longest known name that begins a turn's words.
func (o *oracle) taker(turn string) string {
	best := ""
	for name := range o.ids {
		if (turn == name || strings.HasPrefix(turn, name+" (")) && len(name) > len(best) {
			best = name
		}
	}
	return best
}
