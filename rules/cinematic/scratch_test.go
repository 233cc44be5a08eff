package cinematic

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fray/engine"
)

// TestScratchInto plays the examples and makes, of every state they
// pass through, the working copy Decide makes for a simulated command
// (scratchInto) in the memory of copies of other states: it must be the
// copy scratch makes afresh.
func TestScratchInto(t *testing.T) {
	paths, err := filepath.Glob("../../examples/cinematic-*.fray")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	total := 0
	for _, path := range paths {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		e := engine.New(New(), rand.New(rand.NewPCG(1, 2)))
		var states []*State
		for _, line := range strings.Split(string(text), "\n") {
			cmd, err := engine.ParseCommand(line)
			if err != nil || cmd.Name == "" {
				continue
			}
			if _, err := e.Do(cmd); err == nil {
				states = append(states, e.State().Clone().(*State))
			}
		}
		total += len(states)
		for i, s := range states {
			for _, j := range []int{0, i / 2, max(i-1, 0), len(states) - 1} {
				got := s.scratchInto(states[j].scratch())
				if want := s.scratch(); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: state %d made in a copy of state %d differs from a new copy", path, i, j)
				}
			}
		}
	}
	if total < 20 {
		t.Fatalf("the examples pass through %d states, want 20 or more", total)
	}
}
