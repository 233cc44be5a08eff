package vv_test

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"fray"
	"fray/engine"
	"fray/rules/vv"
	"fray/sheet"
)

// The declaration of references (fray.TagWho, and ids in payloads) is
// what the web server trusts to keep hidden combatants and NPCs' numbers
// from players. These tests play every script of the package and check
// each event's About against an oracle that reads every id in its payload
// and searches its words, which only a test may do.

// declareScripts are the scripts TestDeclared plays, besides the
// conformance scripts: the resolution example with its sheets, and
// commands whose prose names other combatants or whose names contain one
// another.
func declareScripts(t *testing.T) []declareScript {
	var out []declareScript
	for _, s := range conformanceScripts(t) {
		out = append(out, declareScript{name: s.Name, text: s.Text})
	}
	return append(out,
		declareScript{name: "vv-resolution", text: readExample(t, "vv-resolution"), sheets: true},
		declareScript{name: "mentions", text: `add Jack side=pc agility=20 move=30 power=30 level=2 hits=2 hp=12 attack=Punch:1d6:kinetic:10:close
add "Jack B. Nimble" side=pc agility=24 move=90 power=40 hp=14
add Grue agility=20 move=40 power=30 level=2 hits=3 hp=20 attack=Claws:1d8:kinetic:10:close
add Vex agility=16 move=40 power=30 hp=16 hidden=yes
upkeep Grue 2
check Jack chance=30 note="spots Grue behind Vex" dice=22
spend Grue power=2 note="shields vex from Jack B. Nimble"
order Jack Grue
surprise Vex
initiative Jack 10
initiative "Jack B. Nimble" 5
initiative Grue 8
initiative Vex 1
start
move 10
spend Jack power=2 note="a shield for Jack B. Nimble"
hold
facing "Jack B. Nimble" Grue
move 5
next
interrupt Jack before=Grue
attack Jack Grue with=Punch range=1 dice=5,4
next
spend Vex power=1 note="hides from grue"
check Grue chance=40 note="spots Vex" dice=10
facing Vex "away from Jack"
attack Grue Jack with=Claws range=1 dice=3,5
next
damage Grue 3 type=kinetic
heal Grue 2
protect Grue energy 2 until=end:Jack
undo
redo
spend Grue power=1 note="taunts Vex"
remove Vex
next
next
next
next
next
history`},
	)
}

type declareScript struct {
	name, text string
	sheets     bool // join examples/vv-party.yaml and vv-foes.yaml first
}

// TestDeclared checks, after every command of every script, that each
// event declares every combatant its data names, and that the view
// declares the combatants its notes and history name and keeps tracks out
// of the notes.
func TestDeclared(t *testing.T) {
	for _, sc := range declareScripts(t) {
		t.Run(sc.name, func(t *testing.T) {
			e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
			known := map[string]fray.Combatant{} // every combatant seen, by folded name
			see := func(v fray.View) {
				for _, c := range v.Combatants {
					known[strings.ToLower(c.Name)] = c
				}
			}
			if sc.sheets {
				for _, f := range []struct{ file, side string }{{"vv-party.yaml", fray.SidePC}, {"vv-foes.yaml", fray.SideNPC}} {
					cs, err := sheet.Load(filepath.Join("..", "..", "examples", f.file), vv.New(), f.side)
					if err != nil {
						t.Fatal(err)
					}
					evs, err := e.Join(cs)
					if err != nil {
						t.Fatal(err)
					}
					see(e.View())
					checkEvents(t, "join "+f.file, evs, known)
				}
			}
			for _, line := range strings.Split(sc.text, "\n") {
				cmd, err := engine.ParseCommand(line)
				if err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				if cmd.Name == "" {
					continue
				}
				see(e.View())
				evs, err := e.Do(cmd)
				if err != nil {
					continue
				}
				v := e.View()
				see(v)
				checkEvents(t, line, evs, known)
				checkView(t, line, v, known)
			}
		})
	}
}

// checkEvents reports an event of an older format, one whose payload holds
// a combatant's id that its About does not declare, one that names a
// combatant anywhere but in words (a note, a direction, a label: every
// reference is an id), and one whose words name a combatant its About does
// not declare.
func checkEvents(t *testing.T, line string, evs []fray.Event, known map[string]fray.Combatant) {
	t.Helper()
	byID := map[fray.CombatantID]fray.Combatant{}
	for _, c := range known {
		byID[c.ID] = c
	}
	for _, ev := range evs {
		// (Undo and redo name a step, not a combatant.)
		if ev.Format != fray.FormatIDs && ev.Type != fray.EventUndo && ev.Type != fray.EventRedo {
			t.Errorf("%s: %s event is of format %d", line, ev.Type, ev.Format)
		}
		if len(ev.Data) == 0 {
			continue
		}
		var x any
		if err := json.Unmarshal(ev.Data, &x); err != nil {
			t.Fatalf("%s: %s: %v", line, ev.Type, err)
		}
		declared := func(c fray.Combatant) bool { return slices.Contains(ev.About, c.ID) }
		for _, f := range jsonStrings(x, "", nil) {
			if c, ok := byID[fray.CombatantID(f.value)]; ok {
				if !declared(c) {
					t.Errorf("%s: %s event holds the id of %s at %s without declaring it; data %s, about %q", line, ev.Type, c.Name, f.path, ev.Data, ev.About)
				}
				continue
			}
			for _, c := range mentioned(f.value, known) {
				if !words(ev.Type, f.path) {
					t.Errorf("%s: %s event names %s at %s, which is no words but a reference (an id); data %s", line, ev.Type, c.Name, f.path, ev.Data)
				}
				if !declared(c) {
					t.Errorf("%s: %s event names %s in %q without declaring it; data %s, about %q", line, ev.Type, c.Name, f.value, ev.Data, ev.About)
				}
			}
		}
	}
}

// wordPaths are the places of a payload (see jsonStrings) that hold
// words: text a person typed, labels, and the names shown beside an id
// (fray.TagName). Anywhere else a combatant is an id.
var wordPaths = map[string]bool{
	"note": true, "dir": true, "power": true, "type": true, "band": true,
	"condition": true, "condition.name": true, "condition.note": true, "condition.by": true,
	"condition.until.name": true, "condition.modifiers.source": true, "condition.modifiers.on": true,
}

// words reports whether the string at path of an event of type typ is
// words (see wordPaths): those, the added combatant's own name and sheet,
// and the names a rename changes.
func words(typ, path string) bool {
	return wordPaths[path] || strings.HasPrefix(path, "combatant.") ||
		typ == fray.EventRenamed && (path == "name" || path == "to")
}

// trackWords matches track numbers as notes might say them: "6/10",
// "hp 6", "12 Hit Points", "Power 30", "may move 30\"" (the inches left
// of a Move Rate).
var trackWords = regexp.MustCompile(`(?i)\d+\s*/\s*\d+|\b(hp|hit points?|power|lp|life points?|health|endurance|injur(y|ies)|ammo)\s*:?\s*-?\d|\d+\s*(hp|hit points?|power|lp|life points?|health|endurance|injur(y|ies)|ammo)\b|\d+\s*("|inch)`)

// checkView reports a slot whose note names another combatant missing
// from About or carries track numbers, and a turn of the history that
// names a combatant besides its taker missing from Who.
func checkView(t *testing.T, line string, v fray.View, known map[string]fray.Combatant) {
	t.Helper()
	for _, list := range [][]fray.Slot{v.Order, v.Next} {
		for _, sl := range list {
			for _, c := range mentioned(sl.Note, known) {
				if fray.SameName(c.Name, sl.Name) {
					continue
				}
				if !containsName(sl.About, c.Name) {
					t.Errorf("%s: slot %q names %s in its note but About is %q", line, sl, c.Name, sl.About)
				}
			}
			// Every slot's tracks belong in Status, a PC's too: only
			// Status is kept from players on an NPC's slot.
			if m := trackWords.FindString(sl.Note); m != "" {
				t.Errorf("%s: slot %q carries the track words %q in its note (note %q, status %q)", line, sl, m, sl.Note, sl.Status)
			}
		}
	}
	for _, h := range v.History {
		for i, turn := range h.Turns {
			var who []string
			if i < len(h.Who) {
				who = h.Who[i]
			}
			taker := ""
			if len(who) > 0 {
				taker = who[0]
			} else {
				taker = beginner(turn, known)
			}
			if taker == "" {
				t.Errorf("%s: turn %q of round %d begins with no combatant's name", line, turn, h.Round)
				continue
			}
			rest := turn
			if len(rest) >= len(taker) && strings.EqualFold(rest[:len(taker)], taker) {
				rest = rest[len(taker):]
			} else {
				t.Errorf("%s: turn %q of round %d does not begin with its taker %q", line, turn, h.Round, taker)
			}
			for _, c := range mentioned(rest, known) {
				if !containsName(who, c.Name) {
					t.Errorf("%s: turn %q of round %d names %s but Who is %q", line, turn, h.Round, c.Name, who)
				}
			}
		}
	}
}

// beginner returns the longest known name that begins turn, followed by
// " (" or the end.
func beginner(turn string, known map[string]fray.Combatant) string {
	best := ""
	for _, c := range known {
		n := c.Name
		if len(n) > len(turn) || !strings.EqualFold(turn[:len(n)], n) {
			continue
		}
		if r := turn[len(n):]; (r == "" || strings.HasPrefix(r, " (")) && len(n) > len(best) {
			best = turn[:len(n)]
		}
	}
	return best
}

func containsName(list []string, name string) bool {
	for _, n := range list {
		if fray.SameName(n, name) {
			return true
		}
	}
	return false
}

// jsonString is a string value of a decoded JSON value and where it is:
// the keys leading to it, joined by dots (a list's items are at the
// list's path).
type jsonString struct{ path, value string }

// jsonStrings collects every string value of a decoded JSON value.
func jsonStrings(x any, path string, out []jsonString) []jsonString {
	switch x := x.(type) {
	case string:
		out = append(out, jsonString{path, x})
	case []any:
		for _, y := range x {
			out = jsonStrings(y, path, out)
		}
	case map[string]any:
		for k, y := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			out = jsonStrings(y, p, out)
		}
	}
	return out
}

// mentioned returns the known combatants whose names occur in s as whole
// words, without regard to case; an occurrence inside an occurrence of a
// longer name ("Jack" in "Jack B. Nimble") does not count.
func mentioned(s string, known map[string]fray.Combatant) []fray.Combatant {
	type span struct {
		lo, hi int
		c      fray.Combatant
	}
	var spans []span
	for _, c := range known {
		re := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(c.Name))
		for _, m := range re.FindAllStringIndex(s, -1) {
			if wordEdge(s, m[0], m[1]) {
				spans = append(spans, span{m[0], m[1], c})
			}
		}
	}
	var out []fray.Combatant
	for _, a := range spans {
		inside := false
		for _, b := range spans {
			if b.lo <= a.lo && a.hi <= b.hi && b.hi-b.lo > a.hi-a.lo {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, a.c)
		}
	}
	return out
}

// wordEdge reports whether s[lo:hi] has no letter or digit on either side.
func wordEdge(s string, lo, hi int) bool {
	if lo > 0 {
		if r, _ := utf8.DecodeLastRuneInString(s[:lo]); unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	if hi < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[hi:]); unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// TestDeclaredOracle checks the oracle itself on a few words.
func TestDeclaredOracle(t *testing.T) {
	known := map[string]fray.Combatant{}
	for _, n := range []string{"Jack", "Jack B. Nimble", "Vex", "A"} {
		known[strings.ToLower(n)] = fray.Combatant{Name: n}
	}
	for _, tc := range []struct {
		s    string
		want []string
	}{
		{"Jack B. Nimble (19)", []string{"Jack B. Nimble"}},
		{"Jack and vex", []string{"Jack", "Vex"}},
		{"Vexed, Jacks, AB", nil},
		{"a crate", []string{"A"}},
	} {
		var got []string
		for _, c := range mentioned(tc.s, known) {
			got = append(got, c.Name)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") && !(len(got) == 2 && len(tc.want) == 2 && got[0] == tc.want[1] && got[1] == tc.want[0]) {
			t.Errorf("mentioned(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
	for _, tc := range []struct {
		note string
		bad  bool
	}{
		{"held action", false}, {"from turn 1 phase 25", false}, {"surprised, initiative halved", false},
		{"may move 30\"", true}, {"hp 6/10", true}, {"12 Hit Points", true}, {"Power 30", true},
	} {
		if got := trackWords.MatchString(tc.note); got != tc.bad {
			t.Errorf("trackWords on %q: %v, want %v", tc.note, got, tc.bad)
		}
	}
}
