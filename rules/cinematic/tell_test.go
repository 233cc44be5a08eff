package cinematic_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
)

// TestTell plays examples/cinematic-brawl.fray and checks the log in words,
// each event told in the state before it. Checked by hand: Slayer's
// 7 + Dexterity 7 = 14 against Thug's dodge, 5 + 3 = 8 (C-2); an attack
// that waits for the answer, 6 + 7 = 13 (C-4).
func TestTell(t *testing.T) {
	b, err := os.ReadFile("../../examples/cinematic-brawl.fray")
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(cinematic.New(), rand.New(rand.NewPCG(1, 2)))
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
		"Slayer attacks Thug with punch: 1d10 7 + 7 = 14 against Thug's dodge 1d10 5 + 3 = 8 — hit, 3 success levels, 9 damage",
		"Slayer attacks Thug with punch: 1d10 6 + 7 = 13, waiting for Thug's answer",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the log in words lacks %q:\n%s", want, all)
		}
	}
	if got := engine.TellLog(e.System(), e.Log(), 0, e.Encounter().NameOf); len(got) != len(e.Log()) {
		t.Errorf("TellLog told %d events of %d", len(got), len(e.Log()))
	}
}
