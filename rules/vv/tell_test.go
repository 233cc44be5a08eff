package vv_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/vv"
)

// TestTell plays examples/vv-brawl.fray and checks the log in words,
// each event told in the state before it. Checked by hand: Tank's 10 on the d20 is at most his chance 10, a hit; of the 9 damage 3 come off Vex's Power and 6 off her Hit Points, 16 → 10.
func TestTell(t *testing.T) {
	b, err := os.ReadFile("../../examples/vv-brawl.fray")
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	var told []fray.Told
	for _, line := range strings.Split(string(b), "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" || engine.IsQuery(cmd.Name) {
			continue
		}
		before := e.State().Clone()
		evs, err := e.Do(cmd)
		if err != nil {
			continue // the example shows refusals too
		}
		told = append(told, engine.TellEvents(e.System(), before, evs, e.Log(), e.Encounter().NameOf)...)
	}
	var lines []string
	for _, x := range told {
		lines = append(lines, x.Text)
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{
		"Tank attacks Vex with Slam: 1d20 10 against 10 or less — hit, 9 damage dealt (3 to Power, 6 to Hit Points): hit points 16 → 10",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the log in words lacks %q:\n%s", want, all)
		}
	}
	if got := engine.TellLog(e.System(), e.Log(), 0, e.Encounter().NameOf); len(got) != len(e.Log()) {
		t.Errorf("TellLog told %d events of %d", len(got), len(e.Log()))
	}
}
