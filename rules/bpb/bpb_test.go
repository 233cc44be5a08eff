package bpb_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
)

// run carries out the script's lines one by one, failing on any error.
func run(t *testing.T, e *engine.Engine, script string) {
	t.Helper()
	for _, line := range strings.Split(script, "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatalf("parse %q: %v", line, err)
		}
		if cmd.Name == "" {
			continue
		}
		if _, err := e.Do(cmd); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
}

func newEngine() *engine.Engine { return engine.New(bpb.New(), rand.New(rand.NewPCG(1, 2))) }

func history(v fray.View) []string {
	var out []string
	for _, r := range v.History {
		out = append(out, r.String())
	}
	return out
}

// The seed's eight rounds of Blueshift, Ganyeka, Monolith and Ganyeka's
// henchmen (seed 000, "Delaying A Turn" and "Forcing An Action"). The
// expected lines were written from the seed's text, round by round; the
// seed's curly apostrophes are written here as straight ones.
func TestSeedEightRounds(t *testing.T) {
	e := newEngine()
	steps := []struct {
		script  string
		current string
	}{
		{`add Blueshift side=pc
add Ganyeka
add "Ganyeka's henchmen" kind=group
order Blueshift Ganyeka "Ganyeka's henchmen"
start`, "Blueshift"},
		{"next", "Ganyeka"},
		{"next", "Ganyeka's henchmen"},
		// Round 2: Monolith runs around the corner; the GM puts him after Ganyeka.
		{"next", "Blueshift"},
		{"add Monolith side=pc after=Ganyeka", "Blueshift"},
		{"next Blueshift", "Ganyeka"},
		{"next", "Monolith"},
		{"next", "Ganyeka's henchmen"},
		// Round 3: Blueshift delays, then takes her turn after Monolith's.
		{"next", "Blueshift"},
		{"delay", "Ganyeka"},
		{"next", "Monolith"},
		{"next", "Ganyeka's henchmen"},
		{`interrupt Blueshift before="Ganyeka's henchmen"`, "Blueshift"},
		{"next", "Ganyeka's henchmen"},
		// Rounds 4 and 5: the previous sequence.
		{"next", "Blueshift"},
		{"next\nnext\nnext\nnext", "Blueshift"},
		{"next\nnext\nnext", "Ganyeka's henchmen"},
		// Round 6: Blueshift acts, then forces during Ganyeka's attack.
		{"next", "Blueshift"},
		{"next", "Ganyeka"},
		{"force Blueshift", "Ganyeka"},
		{"next", "Monolith"},
		{"next", "Ganyeka's henchmen"},
		// Round 7: Blueshift has lost her turn.
		{"next", "Ganyeka"},
		{"next\nnext", "Ganyeka's henchmen"},
		// Round 8: restored.
		{"next", "Blueshift"},
		{"next\nnext\nnext\nnext", "Blueshift"},
	}
	for i, s := range steps {
		run(t, e, s.script)
		if got := e.View().Current; got != s.current {
			t.Fatalf("step %d (%q): current = %q, want %q", i, s.script, got, s.current)
		}
	}
	want := []string{
		"Round 1: Blueshift, Ganyeka, Ganyeka's henchmen",
		"Round 2: Blueshift, Ganyeka, Monolith, Ganyeka's henchmen",
		"Round 3: Ganyeka, Monolith, Blueshift (delayed), Ganyeka's henchmen",
		"Round 4: Blueshift, Ganyeka, Monolith, Ganyeka's henchmen",
		"Round 5: Blueshift, Ganyeka, Monolith, Ganyeka's henchmen",
		"Round 6: Blueshift, Ganyeka, Blueshift (forced from round 7), Monolith, Ganyeka's henchmen",
		"Round 7: Ganyeka, Monolith, Ganyeka's henchmen",
		"Round 8: Blueshift, Ganyeka, Monolith, Ganyeka's henchmen",
		"Round 9: Blueshift",
	}
	got := history(e.View())
	if len(got) != len(want) {
		t.Fatalf("history has %d rounds, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("round %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
}
