package vv_test

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/vv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

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

// transcript runs a script and writes what a table sees: each command,
// each refusal, and the view wherever the script says show or history.
func transcript(t *testing.T, script string) string {
	t.Helper()
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	var b bytes.Buffer
	for _, line := range strings.Split(script, "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if cmd.Name == "" {
			continue
		}
		fmt.Fprintf(&b, "> %s\n", line)
		if _, err := e.Do(cmd); err != nil {
			fmt.Fprintf(&b, "refused (%s): %s\n", fray.ErrorCode(err), fray.ErrorMessage(err))
			continue
		}
		v := e.View()
		switch cmd.Name {
		case "show":
			fmt.Fprintf(&b, "turn %d, current: %s\n", v.Round, v.Current)
			for _, s := range v.Order {
				phase := "  "
				if s.Phase > 0 {
					phase = fmt.Sprintf("%2d", s.Phase)
				}
				fmt.Fprintf(&b, "  %s %s\n", phase, s)
			}
			s := e.State().(*vv.State)
			for _, c := range s.Combatants {
				fmt.Fprintf(&b, "  %s: Power %d\n", c.Name, s.Power(c.Name))
			}
		case "history":
			for _, h := range v.History {
				fmt.Fprintln(&b, h)
			}
		}
	}
	return b.String()
}

// TestExamples runs the example scripts against their golden transcripts
// (go test -update rewrites them; check every line against the seed).
func TestExamples(t *testing.T) {
	for _, name := range examples {
		t.Run(name, func(t *testing.T) {
			got := transcript(t, readExample(t, name))
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("transcript differs from %s:\n%s", golden, got)
			}
		})
	}
}
