package vv_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/rulestest"
	"fray/rules/vv"
)

// examples are the example scripts of this system, in ../../examples.
var examples = []string{"vv-ambush", "vv-raw", "vv-brawl"}

func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", name+".fray"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// transcript writes what a table sees: each command, each refusal, and
// the view wherever the script says show or history; show gives each
// slot's phase and each combatant's Power.
var transcript = rulestest.Transcript{
	System: func() fray.System { return vv.New() },
	Show: func(w io.Writer, e *engine.Engine) {
		v := e.View()
		fmt.Fprintf(w, "turn %d, current: %s\n", v.Round, v.Current)
		for _, s := range v.Order {
			phase := "  "
			if s.Phase > 0 {
				phase = fmt.Sprintf("%2d", s.Phase)
			}
			fmt.Fprintf(w, "  %s %s\n", phase, s)
		}
		s := e.State().(*vv.State)
		for _, c := range s.Combatants {
			fmt.Fprintf(w, "  %s: Power %d\n", c.Name, s.Power(c.Name))
		}
	},
}

// TestExamples runs the example scripts against their golden transcripts
// (go test -update rewrites them; check every line against the seed).
func TestExamples(t *testing.T) {
	for _, name := range examples {
		t.Run(name, func(t *testing.T) {
			transcript.Check(t, filepath.Join("testdata", name+".golden"), readExample(t, name))
		})
	}
}
