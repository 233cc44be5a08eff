package queue_test

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

// declareScripts reach what the conformance scripts do not: notes and
// reactions whose words name other combatants, a healed combatant with
// an Injury still to choose, a newcomer placed next to someone, and a
// removal.
var declareScripts = []struct{ Name, Text string }{
	{Name: "mentions", Text: `add Ann side=pc wits=3 hp=10 weapon=sword:medium:bleed
add Bob wits=1 hp=6 weapon=club:medium:stun
add Cat wits=0 hp=4 weapon=knife:light
add "Dun Tor" group=Hill wits=2 hp=5 weapon=axe:heavy
add "Ely Tor" group=Hill wits=1
initiative Ann 20
initiative Bob 10
initiative "Ely Tor" 12
order Cat Bob Ann
start
act major note="feints at Bob"
react Bob to=Ann note="ducks under Ann's blade"
react Cat to=Bob note="covers bob"
react "Ely Tor" to=Cat
attack Ann Bob hit=yes dice=3,3
act minor note="steps back from Cat and Dun Tor"
next
act minor
next
damage Bob 10
damage Bob 1
heal Bob 2
check Cat vs=Ann dice=10
add Fen before=Bob hp=3
next
react Ann to=Fen note="trips Fen"
next
remove Cat
next
next
next
next`},
}

// person is a combatant of an encounter, present or gone.
type person struct {
	id   fray.CombatantID
	name string
	npc  bool
}

// people returns the combatants of e's encounter, present and gone.
func people(e *engine.Engine) []person {
	enc := e.State().(fray.BaseState).Base()
	var out []person
	for _, c := range enc.Combatants {
		out = append(out, person{c.ID, c.Name, !c.IsPC()})
	}
	for _, g := range enc.Gone {
		out = append(out, person{g.ID, g.Name, g.Side != fray.SidePC})
	}
	return out
}

// named reports whether name occurs in text as a whole word, without
// regard to case: not inside a longer word.
func named(text, name string) bool {
	t, n := strings.ToLower(text), strings.ToLower(name)
	if n == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(t[i:], n)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(n)
		before, _ := utf8.DecodeLastRuneInString(t[:at])
		after, _ := utf8.DecodeRuneInString(t[end:])
		if !word(before) && !word(after) {
			return true
		}
		i = at + 1
	}
}

func word(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

// texts returns every string of a JSON value, map keys included.
func texts(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, x := range v {
			out = texts(x, out)
		}
	case map[string]any:
		for k, x := range v {
			out = texts(x, append(out, k))
		}
	}
	return out
}

func hasName(names []string, n string) bool {
	return slices.ContainsFunc(names, func(x string) bool { return fray.SameName(x, n) })
}

// trackNumbers finds a track's numbers in a note: "hp 6/10", "3/10".
var trackNumbers = regexp.MustCompile(`\d+\s*/\s*\d+|(?i)\bhp\b`)

// TestDeclared plays every script and checks, with a search that only
// this test makes, that the rules declare every combatant their words
// name or their data holds: in each event's data, by id (fray.Refs,
// Event.Declared, Event.About: see checkEvent), in each slot's
// note and status (Slot.About) and in each turn of the history
// (RoundTurns.Who); and that no NPC's slot shows its numbers in its note,
// which everyone sees, rather than in its status.
func TestDeclared(t *testing.T) {
	all := slices.Clone(declareScripts)
	for _, s := range scripts {
		all = append(all, struct{ Name, Text string }{s.Name, s.Text})
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			e := engine.New(queue.New(), rand.New(rand.NewPCG(7, 11)))
			accepted := 0
			for i, line := range strings.Split(s.Text, "\n") {
				cmd, err := engine.ParseCommand(line)
				if err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				if cmd.Name == "" {
					continue
				}
				before := people(e)
				evs, err := e.Do(cmd)
				if err != nil {
					continue
				}
				accepted++
				known := before
				for _, p := range people(e) {
					if !slices.Contains(known, p) {
						known = append(known, p)
					}
				}
				for _, ev := range evs {
					checkEvent(t, line, ev, known)
				}
				checkView(t, line, e.View(), people(e))
			}
			if accepted == 0 {
				t.Fatal("no command was accepted")
			}
		})
	}
}

// checkEvent checks the data of ev against the combatants of known: it
// refers to a combatant by id (fray.FormatIDs), and every id it holds is
// one its payload declares (Event.Declared) and one of its About; a name
// it holds is words (a note, which then holds the ids of those it names
// too: Mentions), or a name declared as one (fray.TagName, beside no id:
// a newcomer's, who has none yet when the event is decided). Either way
// the combatant named is in About.
func checkEvent(t *testing.T, line string, ev fray.Event, known []person) {
	t.Helper()
	if len(ev.Data) == 0 {
		return
	}
	if ev.Format != fray.FormatIDs && ev.Type != fray.EventUndo && ev.Type != fray.EventRedo {
		t.Errorf("%s: event %d (%s) is of format %d", line, ev.Seq, ev.Type, ev.Format)
	}
	var v any
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		t.Fatalf("%s: event %d (%s): %v", line, ev.Seq, ev.Type, err)
	}
	words := texts(v, nil)
	names, ids := ev.Declared()
	for _, p := range known {
		byID := slices.Contains(words, string(p.id))
		byName := slices.ContainsFunc(words, func(w string) bool { return named(w, p.name) })
		switch {
		case byID && !slices.Contains(ids, p.id):
			t.Errorf("%s: event %d (%s) holds the id of %s but declares only %q: %s", line, ev.Seq, ev.Type, p.name, ids, ev.Data)
		case byName && !byID && !hasName(names, p.name):
			t.Errorf("%s: event %d (%s) names %s without their id, in words or a field not declared a name (declared: %q): %s", line, ev.Seq, ev.Type, p.name, names, ev.Data)
		}
		if (byID || byName) && !slices.Contains(ev.About, p.id) {
			t.Errorf("%s: event %d (%s) refers to %s (%s), but its About is %q: %s", line, ev.Seq, ev.Type, p.name, p.id, ev.About, ev.Data)
		}
	}
}

// checkView checks the order's slots and the history's turns against the
// combatants they name.
func checkView(t *testing.T, line string, v fray.View, known []person) {
	t.Helper()
	for _, slots := range [][]fray.Slot{v.Order, v.Next} {
		for _, sl := range slots {
			for _, p := range known {
				if fray.SameName(p.name, sl.Name) {
					if p.npc && trackNumbers.MatchString(sl.Note) {
						t.Errorf("%s: the slot %q of the NPC %s shows numbers in its note %q", line, sl, sl.Name, sl.Note)
					}
					continue
				}
				if (named(sl.Note, p.name) || named(sl.Status, p.name)) && !hasName(sl.About, p.name) {
					t.Errorf("%s: the slot %q names %s, but its About is %q", line, sl, p.name, sl.About)
				}
			}
		}
	}
	for _, h := range v.History {
		for i, turn := range h.Turns {
			var who []string
			if i < len(h.Who) {
				who = h.Who[i]
			}
			taker := takerOf(turn, known)
			if len(who) > 0 {
				if !strings.HasPrefix(turn, who[0]) {
					t.Errorf("%s: round %d, turn %q: Who %q does not begin with whoever took it", line, h.Round, turn, who)
				}
				taker = who[0]
			}
			for _, p := range known {
				if fray.SameName(p.name, taker) || !named(strings.TrimPrefix(turn, taker), p.name) {
					continue
				}
				if len(who) == 0 || !hasName(who[1:], p.name) {
					t.Errorf("%s: round %d, turn %q names %s, but Who is %q", line, h.Round, turn, p.name, who)
				}
			}
		}
	}
}

// takerOf returns the combatant whose name begins a turn's words: the
// longest such name.
func takerOf(turn string, known []person) string {
	best := ""
	for _, p := range known {
		if (turn == p.name || strings.HasPrefix(turn, p.name+" (")) && len(p.name) > len(best) {
			best = p.name
		}
	}
	return best
}
