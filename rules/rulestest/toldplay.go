package rulestest

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/sheet"
)

// ToldScript is an examples/ file whose events CheckToldAll tells: the
// script's path, and the sheets joined before it (Party as player
// characters, Foes as the GM's; "" for none).
type ToldScript struct {
	Path, Party, Foes string
}

// ToldExamples returns the example scripts of the system id
// (examples/ID-*.fray, from a package under rules/), each alone and
// after the example sheets (examples/ID-party.yaml, examples/ID-foes.yaml):
// every example a system has, so that one added is checked too. It fails
// tb when there is none.
func ToldExamples(tb testing.TB, id string) []ToldScript {
	tb.Helper()
	dir := filepath.Join("..", "..", "examples")
	paths, err := filepath.Glob(filepath.Join(dir, id+"-*.fray"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no example scripts of %s in %s: %v", id, dir, err)
	}
	party, foes := filepath.Join(dir, id+"-party.yaml"), filepath.Join(dir, id+"-foes.yaml")
	var out []ToldScript
	for _, p := range paths {
		out = append(out, ToldScript{Path: p}, ToldScript{Path: p, Party: party, Foes: foes})
	}
	return out
}

// CheckToldAll checks that sys tells every event it emits in words of
// its own, never by its type (the engine's last resort): it plays each
// script (refused lines are passed over, as the examples show refusals
// too) and tells every event of the log as the GM reads it, in the state
// before it, and as a player reads it, redacted: numbers out of its
// data, no rolls, no odds, no state; then it tells the events given
// (hand-built, for types no script makes; their ids are told as names).
// It fails t when a text begins with the event's type; when the GM's
// words of one of the system's own events (those engine.Payloads
// declares, and also) are the words the engine gives an event no teller
// says (its rolls, in their own words); when a player's words of any
// event, the engine's shared ones too, say a number the redaction made
// (zeroNumber); and when one of
// those types is told by no event at all. It returns the words of every
// event told, by type: the GM's under the type, a player's under
// Redacted and the type.
func CheckToldAll(t *testing.T, sys fray.System, scripts []ToldScript, given []fray.Event, also ...string) map[string][]string {
	t.Helper()
	told := map[string][]string{}
	own := map[string]bool{}
	for _, typ := range also {
		own[typ] = true
	}
	if p, ok := sys.(engine.Payloads); ok {
		for typ := range p.Payloads() {
			own[typ] = true
		}
	}
	check := func(where string, ev fray.Event, st fray.State, name func(fray.CombatantID) string) {
		gm := engine.Tell(sys, fray.Tale{Event: ev, State: st, Name: name})
		if raw(ev, gm.Text) {
			t.Errorf("%s: event %d (%s) is told by its type: %q", where, ev.Seq, ev.Type, gm.Text)
		}
		told[ev.Type] = append(told[ev.Type], gm.Text)
		if own[ev.Type] && gm == engine.Tell(untold{sys}, fray.Tale{Event: ev, State: st, Name: name}) {
			t.Errorf("%s: event %d (%s) is told as the engine tells an event no teller says: %q", where, ev.Seq, ev.Type, gm.Text)
		}
		red, ok := redacted(ev)
		if !ok {
			t.Errorf("%s: event %d (%s) has data that is not JSON", where, ev.Seq, ev.Type)
			return
		}
		p := engine.Tell(sys, fray.Tale{Event: red, Name: name, Redacted: true})
		told[Redacted+ev.Type] = append(told[Redacted+ev.Type], p.Text)
		if raw(ev, p.Text) {
			t.Errorf("%s: event %d (%s), redacted, is told by its type: %q", where, ev.Seq, ev.Type, p.Text)
		}
		if d := zeroNumber(p.Text, ev, name); d != "" {
			t.Errorf("%s: event %d (%s), redacted, says %q, a number its data no longer holds: %q", where, ev.Seq, ev.Type, d, p.Text)
		}
	}
	for _, sc := range scripts {
		e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
		for _, f := range []struct{ path, side string }{{sc.Party, fray.SidePC}, {sc.Foes, fray.SideNPC}} {
			if f.path == "" {
				continue
			}
			cs, err := sheet.Load(f.path, sys, f.side)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Join(cs); err != nil {
				t.Fatalf("%s: join %s: %v", sc.Path, f.path, err)
			}
		}
		b, err := os.ReadFile(sc.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			cmd, err := engine.ParseCommand(line)
			if err != nil || cmd.Name == "" || engine.IsQuery(cmd.Name) {
				continue
			}
			_, _ = e.Do(cmd) // refusals are part of the examples
		}
		log := e.Log()
		name := e.Encounter().NameOf
		words := engine.TellLog(sys, log, 0, name)
		if len(words) != len(log) {
			t.Fatalf("%s: TellLog told %d events of %d", sc.Path, len(words), len(log))
		}
		// The states before each event, for the GM's words, as TellLog
		// has them when no step was undone.
		st := sys.NewState()
		for _, ev := range log {
			if ev.Type == fray.EventUndo || ev.Type == fray.EventRedo {
				st = nil
			}
			if ev.Type != fray.EventUndo && ev.Type != fray.EventRedo {
				check(sc.Path, ev, st, name)
			}
			if st != nil && sys.Apply(st, ev) != nil {
				st = nil
			}
		}
	}
	for _, ev := range given {
		check("given", ev, nil, func(id fray.CombatantID) string { return string(id) }) // ids are names here
	}
	for typ := range own {
		if len(told[typ]) == 0 {
			t.Errorf("no script nor given event tells %s", typ)
		}
	}
	return told
}

// untold is a system without its teller: the engine tells its events by
// their type, whom they concern and their rolls.
type untold struct{ fray.System }

// Redacted begins the key of CheckToldAll's answer under which the
// words a player reads of an event are kept: Redacted + its type.
const Redacted = "redacted "

// raw reports whether text tells ev by its type alone.
func raw(ev fray.Event, text string) bool {
	return text == "" || strings.HasPrefix(text, ev.Type)
}

// redacted returns ev as a player may receive it at most: without the
// numbers of its data (as web.Redact takes them out), without rolls, odds
// and command.
func redacted(ev fray.Event) (fray.Event, bool) {
	out := fray.Event{Seq: ev.Seq, Step: ev.Step, Type: ev.Type, About: ev.About}
	if len(ev.Data) == 0 {
		return out, true
	}
	var v any
	if json.Unmarshal(ev.Data, &v) != nil {
		return out, false
	}
	b, err := json.Marshal(noNumbers(v))
	if err != nil {
		return out, false
	}
	out.Data = b
	return out, true
}

// noNumbers returns the decoded JSON v without its numbers.
func noNumbers(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			if _, num := e.(float64); !num {
				out = append(out, noNumbers(e))
			}
		}
		return out
	case map[string]any:
		for k, e := range x {
			if _, num := e.(float64); num {
				delete(x, k)
			} else {
				x[k] = noNumbers(e)
			}
		}
		return x
	}
	return v
}

// zeroNumber returns the first number in text that a redacted payload
// gave the teller by taking a number out: a 0 (a field that decodes as
// its zero), or a negative number (worked out from one), that is not
// part of a name the tale told nor of a word of ev's data (a note, a
// weapon's name); "" when there is none. The rules' own constants ("+3
// to every defence") are no such number.
func zeroNumber(text string, ev fray.Event, name func(fray.CombatantID) string) string {
	var words []string
	for _, id := range ev.About {
		if n := name(id); n != "" {
			words = append(words, n)
		}
	}
	var v any
	if json.Unmarshal(ev.Data, &v) == nil {
		words = append(words, stringsOf(v)...)
	}
	slices.SortFunc(words, func(a, b string) int { return len(b) - len(a) })
	for _, w := range words {
		if w != "" {
			text = strings.ReplaceAll(text, w, " ")
		}
	}
	for _, m := range numberRE.FindAllStringSubmatch(text, -1) {
		if m[1] != "" || strings.TrimLeft(m[2], "0") == "" {
			return strings.TrimSpace(m[0])
		}
	}
	return ""
}

// numberRE finds a number in words: its sign (a minus) and its digits.
var numberRE = regexp.MustCompile(`(?:^|[^\p{L}\p{N}+])(-|−)?(\p{N}+)`)

// stringsOf returns every string the decoded JSON v holds, its members'
// names but not its numbers.
func stringsOf(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, stringsOf(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, stringsOf(e)...)
		}
		return out
	}
	return nil
}
