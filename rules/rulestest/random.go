package rulestest

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"fray"
	"fray/engine"
)

// commandWords are the command words of every system, and a few that no
// system knows.
var commandWords = []string{
	"add", "add", "add", "remove", "order", "aware", "initiative", "start", "start",
	"next", "next", "next", "next", "delay", "hold", "interrupt", "force", "react",
	"reorder", "surprise", "act", "act", "move", "undo", "redo", "set", "note", "reveal", "rename",
	"show", "history", "log", "bogus",
}

var newNames = []string{"Ann", "Bob", "Brigand #2", "Ganyeka's henchmen", "Rock", "ann"}

var optWords = []string{
	"side=pc", "side=npc", "side=alien", "kind=group", "kind=environment", "group=Brigands",
	"aware=no", "aware=yes", "hidden=yes", "notes=x", "note=blocks", "major", "minor",
	"dice=6,3", "dice=3", "dice=20", "roll=14", "roll=3", "roll=x", "order=rolled",
	"agility=12", "wits=2", "perception=3", "superspeed=2", "dexterity=7", "edge=3",
	"speed=3", "3", "6,3", "10", "=", "\"\"",
}

var nameOpts = []string{"before", "after", "to"}

// RandomCommand returns a random command line for an encounter whose view
// is v: mostly plausible commands naming its combatants, sometimes
// nonsense. words are extra words (command lines from the scripts) mixed in.
func RandomCommand(r *rand.Rand, v fray.View, words []string) string {
	if len(words) > 0 && r.IntN(4) == 0 {
		return words[r.IntN(len(words))]
	}
	var names []string
	for _, c := range v.Combatants {
		names = append(names, c.Name)
	}
	name := func() string {
		if len(names) == 0 || r.IntN(5) == 0 {
			return newNames[r.IntN(len(newNames))]
		}
		return names[r.IntN(len(names))]
	}
	word := commandWords[r.IntN(len(commandWords))]
	if word == engine.CmdRename && len(names) > 0 && r.IntN(4) > 0 {
		// Mostly a rename that takes: a present name, and a new one.
		n := names[r.IntN(len(names))]
		return "rename " + strconv.Quote(n) + " " + strconv.Quote(n+"'")
	}
	var b strings.Builder
	b.WriteString(word)
	for range r.IntN(4) {
		b.WriteByte(' ')
		switch r.IntN(4) {
		case 0, 1:
			b.WriteString(strconv.Quote(name()))
		case 2:
			b.WriteString(optWords[r.IntN(len(optWords))])
		default:
			b.WriteString(nameOpts[r.IntN(len(nameOpts))] + "=" + strconv.Quote(name()))
		}
	}
	return b.String()
}

// RunRandom runs a random sequence of steps commands on a new encounter,
// seeded by seed, checking every step as RunScript does, and the replay at
// the end. The scripts' lines are mixed in to reach deeper states.
func RunRandom(t *testing.T, newSystem func() fray.System, seed uint64, steps int, scripts ...Script) {
	t.Helper()
	var words []string
	for _, s := range scripts {
		for _, l := range strings.Split(s.Text, "\n") {
			if c, err := engine.ParseCommand(l); err == nil && c.Name != "" {
				words = append(words, l)
			}
		}
	}
	r := rand.New(rand.NewPCG(seed, 99))
	e := engine.New(newSystem(), rand.New(rand.NewPCG(seed, 1)))
	var lines []string
	for range steps {
		line := RandomCommand(r, e.View(), words)
		lines = append(lines, line)
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		if err := Step(e, cmd); err != nil {
			t.Fatalf("seed %d: %v\ncommands so far:\n%s", seed, err, strings.Join(lines, "\n"))
		}
	}
	if err := CheckReplay(e); err != nil {
		t.Fatalf("seed %d: %v\ncommands:\n%s", seed, err, strings.Join(lines, "\n"))
	}

}

// FuzzScript checks a whole script read from the fuzzer as Step and
// CheckReplay do. Call it from a fuzz target:
//
//	func FuzzRules(f *testing.F) { rulestest.FuzzScript(f, newSystem, seeds...) }
func FuzzScript(f *testing.F, newSystem func() fray.System, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		if len(script) > 4000 {
			return
		}
		e := engine.New(newSystem(), rand.New(rand.NewPCG(3, 3)))
		for _, line := range strings.Split(script, "\n") {
			cmd, err := engine.ParseCommand(line)
			if err != nil || cmd.Name == "" {
				continue
			}
			if err := Step(e, cmd); err != nil {
				t.Fatal(err)
			}
		}
		if err := CheckReplay(e); err != nil {
			t.Fatal(err)
		}
	})
}
