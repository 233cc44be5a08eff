package rulestest

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"fray"
	"fray/engine"
)

// CheckTold plays the script file (the commands an examples/ file holds;
// refused lines are passed over, as the examples show refusals too) on a
// new encounter of sys, tells each event in the state before it
// (engine.TellEvents), and fails t unless the log in words holds each of
// want, and unless engine.TellLog tells every event of the log. It
// returns the lines told, for more checks.
func CheckTold(t testing.TB, sys fray.System, script string, want ...string) []string {
	t.Helper()
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	var lines []string
	for _, line := range strings.Split(string(b), "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" || engine.IsQuery(cmd.Name) {
			continue
		}
		before := e.State().Clone()
		evs, err := e.Do(cmd)
		if err != nil {
			continue
		}
		for _, x := range engine.TellEvents(e.System(), before, evs, e.Log(), e.Encounter().NameOf) {
			lines = append(lines, x.Text)
		}
	}
	all := strings.Join(lines, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("the log in words of %s lacks %q:\n%s", script, w, all)
		}
	}
	if got := engine.TellLog(e.System(), e.Log(), 0, e.Encounter().NameOf); len(got) != len(e.Log()) {
		t.Errorf("TellLog told %d events of %d", len(got), len(e.Log()))
	}
	return lines
}
