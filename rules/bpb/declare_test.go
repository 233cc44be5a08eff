package bpb_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/sheet"
)

// declareScripts are the example scripts of fray play (with the sheets
// they are played with) and the conformance scripts, played by
// TestDeclaredReferences.
func declareScripts(t *testing.T) []struct {
	name, text string
	sheets     [][2]string // path, side
} {
	t.Helper()
	type script = struct {
		name, text string
		sheets     [][2]string
	}
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	out := []script{
		{"bpb-blueshift", read("../../examples/bpb-blueshift.fray"), nil},
		{"bpb-reorder", read("../../examples/bpb-reorder.fray"), nil},
		{"bpb-resolution", read("../../examples/bpb-resolution.fray"), [][2]string{{"../../examples/bpb-party.yaml", fray.SidePC}, {"../../examples/bpb-foes.yaml", fray.SideNPC}}},
		{"bpb-samepower", read("../../examples/bpb-samepower.fray"), [][2]string{{"../../examples/bpb-telepaths.yaml", fray.SidePC}}},
		// Notes that name others, on turns taken later (delayed, forced
		// from a later round) and by a combatant who then leaves.
		{"mentions", `add Blueshift side=pc prowess=7 agility=9
add Ganyeka accuracy=7 agility=7 prowess=6
add Monolith side=pc prowess=8 agility=3 accuracy=4 endurance=30
add "Ganyeka's henchmen" kind=group
order Blueshift Ganyeka Monolith "Ganyeka's henchmen"
start
next note="grabs Ganyeka's henchmen and Monolith"
delay
next Monolith note="shields blueshift from Ganyeka"
force Monolith note="pushes Ganyeka aside"
interrupt Ganyeka
next Ganyeka note="taunts Blueshift"
next
next
force Monolith note="catches Ganyeka"
attack Ganyeka Blueshift with=blast rank=9 range=ranged dice=6,6
block Blueshift dice=1,1
next
remove Ganyeka
next
next
next
undo
redo`, nil},
	}
	for _, s := range scripts {
		out = append(out, script{"conformance " + s.Name, s.Text, nil})
	}
	return out
}

// TestDeclaredReferences plays every script and checks, with an oracle
// that searches words (in this test only), that the rules declare every
// combatant their events and views mention: every combatant id in an
// event's data is in the event's About, names stand in its data only as
// words (notes, labels), and every combatant those words name is in its
// About too (see checkEvents); every other combatant a slot's note names
// is in the slot's About; every other combatant a history turn names is
// in that turn's Who; and no NPC's slot shows track numbers in its note.
func TestDeclaredReferences(t *testing.T) {
	for _, sc := range declareScripts(t) {
		t.Run(sc.name, func(t *testing.T) {
			e := engine.New(bpb.New(), rand.New(rand.NewPCG(1, 2)))
			ever := map[string]string{} // lower-case name → name, of every combatant ever present
			remember := func() {
				for _, c := range base(e).Combatants {
					ever[strings.ToLower(c.Name)] = c.Name
				}
			}
			for _, sh := range sc.sheets {
				cs, err := sheet.Load(sh[0], bpb.New(), sh[1])
				if err != nil {
					t.Fatal(err)
				}
				before := known(base(e))
				evs, err := e.Join(cs)
				if err != nil {
					t.Fatal(err)
				}
				checkEvents(t, "join", before, known(base(e)), evs)
				remember()
				checkView(t, "join", e.View(), ever)
			}
			for _, line := range strings.Split(sc.text, "\n") {
				cmd, err := engine.ParseCommand(line)
				if err != nil {
					t.Fatalf("parse %q: %v", line, err)
				}
				if cmd.Name == "" {
					continue
				}
				before := known(base(e))
				evs, err := e.Do(cmd)
				if err != nil {
					continue // refused: nothing recorded
				}
				checkEvents(t, line, before, known(base(e)), evs)
				remember()
				checkView(t, line, e.View(), ever)
			}
		})
	}
}

func base(e *engine.Engine) *fray.Encounter { return e.State().(fray.BaseState).Base() }

// known maps the lower-case names of an encounter's combatants, present
// and gone, to their ids.
func known(enc *fray.Encounter) map[string]fray.CombatantID {
	m := map[string]fray.CombatantID{}
	for _, g := range enc.Gone {
		m[strings.ToLower(g.Name)] = g.ID
	}
	for _, c := range enc.Combatants {
		m[strings.ToLower(c.Name)] = c.ID
	}
	return m
}

// checkEvents checks the payloads of evs, with the combatants of before
// or after the events: every combatant id a payload holds (in any string,
// keys included) is in the event's About; a payload names combatants only
// in its words (see words), never where it refers to one; and every
// combatant its words name is in its About too.
func checkEvents(t *testing.T, line string, before, after map[string]fray.CombatantID, evs []fray.Event) {
	t.Helper()
	ids := map[string]fray.CombatantID{}
	isID := map[fray.CombatantID]bool{}
	for _, m := range []map[string]fray.CombatantID{before, after} {
		for n, id := range m {
			ids[n] = id
			isID[id] = true
		}
	}
	names := make([]string, 0, len(ids))
	for n := range ids {
		names = append(names, n)
	}
	for _, ev := range evs {
		if len(ev.Data) == 0 || ev.Type == fray.EventUndo || ev.Type == fray.EventRedo {
			continue // no payload, or a step's number
		}
		if ev.Format != fray.FormatIDs {
			t.Errorf("%s: event %s is of format %d", line, ev.Type, ev.Format)
		}
		var data any
		if err := json.Unmarshal(ev.Data, &data); err != nil {
			t.Fatalf("%s: event %s: %v", line, ev.Type, err)
		}
		var strs []pathString
		collectStrings(data, "", &strs)
		for _, w := range strs {
			if id := fray.CombatantID(w.s); isID[id] && !slices.Contains(ev.About, id) {
				t.Errorf("%s: event %s holds %s at %q but its About is %q; data %s", line, ev.Type, id, w.path, ev.About, ev.Data)
			}
			named := mentioned(w.s, names)
			if len(named) > 0 && !words(ev.Type, w.path) {
				t.Errorf("%s: event %s names %q at %q, which is no place for words; data %s", line, ev.Type, named, w.path, ev.Data)
			}
			for _, n := range named {
				if !slices.Contains(ev.About, ids[n]) {
					t.Errorf("%s: event %s names %q in %q but its About is %q; data %s", line, ev.Type, n, w.s, ev.About, ev.Data)
				}
			}
		}
	}
}

// words reports whether the string at path (JSON keys joined by dots) of
// an event's payload is words, which may name combatants: a note, a
// condition's name and the names it shows of its causer and anchor
// (fray.TagName), the sheet of a combatant added, the names of a rename.
// Anywhere else a payload refers to a combatant by id.
func words(typ, path string) bool {
	last := path[strings.LastIndexByte(path, '.')+1:]
	switch {
	case last == "note" || last == "notes":
		return true
	case path == "condition" || path == "condition.name" || path == "condition.by" || path == "condition.until.name" || path == "condition.modifiers.source":
		return true
	case typ == fray.EventAdded:
		return strings.HasPrefix(path, "combatant.")
	case typ == fray.EventRenamed:
		return path == "name" || path == "to"
	}
	return false
}

// A pathString is a string of a decoded JSON value, with its path: the
// keys leading to it, joined by dots (a map's key is at the path of its
// value).
type pathString struct{ path, s string }

// collectStrings appends every string of a decoded JSON value, keys
// included.
func collectStrings(v any, path string, out *[]pathString) {
	switch x := v.(type) {
	case string:
		*out = append(*out, pathString{path, x})
	case []any:
		for _, y := range x {
			collectStrings(y, path, out)
		}
	case map[string]any:
		for k, y := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			*out = append(*out, pathString{p, k})
			collectStrings(y, p, out)
		}
	}
}

// trackWords is what a track's numbers look like: "6/10", "Endurance 3".
var trackWords = regexp.MustCompile(`(?i)\d+\s*/\s*\d+|\b(endurance|hp|lp|life points|health|power|injuries|ammo|experience)\b\W*\d`)

// checkView checks the slots' About, the history's Who and that no
// NPC's note shows its tracks.
func checkView(t *testing.T, line string, v fray.View, ever map[string]string) {
	t.Helper()
	names := make([]string, 0, len(ever))
	for n := range ever {
		names = append(names, n)
	}
	pc := map[string]bool{}
	for _, c := range v.Combatants {
		pc[strings.ToLower(c.Name)] = c.IsPC()
	}
	for _, sl := range append(slices.Clone(v.Order), v.Next...) {
		for _, n := range mentioned(sl.Note, names) {
			if fray.SameName(n, sl.Name) {
				continue
			}
			if !slices.ContainsFunc(sl.About, func(a string) bool { return fray.SameName(a, n) }) {
				t.Errorf("%s: slot %q mentions %q but its About is %q", line, sl.String(), ever[n], sl.About)
			}
		}
		if !pc[strings.ToLower(sl.Name)] && trackWords.MatchString(sl.Note) {
			t.Errorf("%s: the NPC slot %q shows tracks in its note %q", line, sl.String(), sl.Note)
		}
	}
	for _, h := range v.History {
		for i, turn := range h.Turns {
			taker := ""
			for _, n := range names {
				low := strings.ToLower(turn)
				if (low == n || strings.HasPrefix(low, n+" (")) && len(n) > len(taker) {
					taker = n
				}
			}
			if taker == "" {
				t.Errorf("%s: round %d turn %q names no combatant first", line, h.Round, turn)
				continue
			}
			if i < len(h.Who) && (len(h.Who[i]) == 0 || !fray.SameName(h.Who[i][0], taker)) {
				t.Errorf("%s: round %d turn %q: Who %q does not begin with %q", line, h.Round, turn, h.Who[i], ever[taker])
			}
			for _, n := range mentioned(turn[len(taker):], names) {
				if n == taker {
					continue
				}
				if i >= len(h.Who) || !slices.ContainsFunc(h.Who[i][1:], func(a string) bool { return fray.SameName(a, n) }) {
					var who []string
					if i < len(h.Who) {
						who = h.Who[i]
					}
					t.Errorf("%s: round %d turn %q mentions %q but its Who is %q", line, h.Round, turn, ever[n], who)
				}
			}
		}
	}
}

// mentioned returns the lower-case names that occur in text as whole
// words, compared without regard to case, other than inside an occurrence
// of a longer name ("Ganyeka" in "Ganyeka's henchmen").
func mentioned(text string, names []string) []string {
	low := strings.ToLower(text)
	byLen := slices.Clone(names)
	sort.Slice(byLen, func(i, j int) bool { return len(byLen[i]) > len(byLen[j]) })
	covered := make([]bool, len(low))
	var out []string
	for _, n := range byLen {
		if n == "" {
			continue
		}
		found := false
		for at := 0; at+len(n) <= len(low); {
			i := strings.Index(low[at:], n)
			if i < 0 {
				break
			}
			i += at
			end := i + len(n)
			at = i + 1
			if (i > 0 && wordByte(low[i-1]) && wordByte(n[0])) || (end < len(low) && wordByte(low[end]) && wordByte(n[len(n)-1])) {
				continue
			}
			if slices.Contains(covered[i:end], true) {
				continue
			}
			for k := i; k < end; k++ {
				covered[k] = true
			}
			found = true
		}
		if found {
			out = append(out, n)
		}
	}
	return out
}

// wordByte reports whether b is part of a word: a letter, a digit, an
// underscore or a byte of a multi-byte character.
func wordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b >= 0x80
}

// A note declares the combatants it names as whole words, without regard
// to case, a longer name first ("Ganyeka's henchmen" is not Ganyeka), and
// only those the writer may know of: a player's note declares no hidden
// combatant, so that what the rules declare tells the player nothing.
func TestNoteMentions(t *testing.T) {
	tests := []struct {
		name   string
		player bool
		note   string
		want   []string
	}{
		{"one", false, "blocks attack by Ganyeka", []string{"Ganyeka"}},
		{"case and order", false, "shields MONOLITH from ganyeka", []string{"Monolith", "Ganyeka"}},
		{"longer name first", false, "scatters Ganyeka's henchmen", []string{"Ganyeka's henchmen"}},
		{"both", false, "Ganyeka's henchmen and Ganyeka", []string{"Ganyeka's henchmen", "Ganyeka"}},
		{"whole words only", false, "Monoliths and Ganyekas", nil},
		{"self", false, "Blueshift runs", nil},
		{"hidden, by the GM", false, "spots the Lurker", []string{"Lurker"}},
		{"hidden, by a player", true, "spots the Lurker", nil},
		{"gone", false, "avenges Zed", []string{"Zed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine()
			run(t, e, `add Blueshift side=pc
add Ganyeka
add Monolith side=pc
add "Ganyeka's henchmen" kind=group
add Lurker hidden=yes
add Zed
order Blueshift Ganyeka Monolith "Ganyeka's henchmen" Lurker Zed
start
remove Zed`)
			v := fray.GM
			if tt.player {
				v = fray.Viewer{Role: fray.RolePlayer, Combatant: base(e).Find("Blueshift").ID}
			}
			cmd := fray.Command{Name: "next", Opts: map[string]string{"note": tt.note}}
			evs, err := e.DoAs(v, cmd)
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				Mentions []fray.CombatantID `json:"mentions"`
			}
			if err := json.Unmarshal(evs[0].Data, &d); err != nil {
				t.Fatal(err)
			}
			var want []fray.CombatantID
			for _, n := range tt.want {
				want = append(want, known(base(e))[strings.ToLower(n)])
			}
			if !slices.Equal(d.Mentions, want) {
				t.Errorf("mentions %q, want %q (%q)", d.Mentions, want, tt.want)
			}
			h := e.View().History[0]
			who := []string{"Blueshift"}
			if len(h.Who) > 0 {
				who = h.Who[0]
			}
			if want := append([]string{"Blueshift"}, tt.want...); !slices.Equal(who, want) {
				t.Errorf("history %q: who %q, want %q", h.Turns[0], who, want)
			}
		})
	}
}
