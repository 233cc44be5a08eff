package queue_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

// TestTell plays examples/queue-brigands.fray and checks the log in words,
// each event told in the state before it. Checked by hand: Melvina's check is the d20's 9 + Wits 2 = 11, which reaches the 11 it needs.
func TestTell(t *testing.T) {
	b, err := os.ReadFile("../../examples/queue-brigands.fray")
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
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
		"Melvina checks against Pet Bear: 1d20 9 + 2 = 11 against 11 — success",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the log in words lacks %q:\n%s", want, all)
		}
	}
	if got := engine.TellLog(e.System(), e.Log(), 0, e.Encounter().NameOf); len(got) != len(e.Log()) {
		t.Errorf("TellLog told %d events of %d", len(got), len(e.Log()))
	}
}
