package pp_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/pp"
)

// TestTell plays examples/pp-combat.fray and checks the log in words,
// each event told in the state before it. Checked by hand: Paragon's Might dice 6, 4, 2, 2, 1, 3 count 2 + 1 + 1 + 1 = 5 successes (a 6 is two, a 2 or 4 one), Doctor Vile's 4, 6, 1 count 3.
func TestTell(t *testing.T) {
	b, err := os.ReadFile("../../examples/pp-combat.fray")
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(pp.New(), rand.New(rand.NewPCG(1, 2)))
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
		"Paragon rolls might against Doctor Vile's might: 5 successes to 3 — success with a complication, 2 Health lost",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the log in words lacks %q:\n%s", want, all)
		}
	}
	if got := engine.TellLog(e.System(), e.Log(), 0, e.Encounter().NameOf); len(got) != len(e.Log()) {
		t.Errorf("TellLog told %d events of %d", len(got), len(e.Log()))
	}
}
