package pp_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/pp"
)

// Apply never panics on events read from a damaged log: every event type
// with odd payloads, on states taken all along the example script.
func TestApplyOddEvents(t *testing.T) {
	types := []string{fray.EventStarted, pp.EventRole, pp.EventRound, pp.EventActed, pp.EventTurnDone, pp.EventTiebreak, "bogus"}
	payloads := []any{nil, "x", 3, map[string]any{}, map[string]any{"name": "Brute"},
		map[string]any{"name": "Nobody", "names": []string{"Brute", "Brute"}},
		map[string]any{"name": "Thug", "role": "god", "stance": "sideways", "kind": "extra", "modifier": -2},
		map[string]any{"name": "Brute", "role": "foe", "minion": true, "stance": "defence", "kind": "bonus"},
		map[string]any{"round": 1, "order": []string{"Brute", "Thug", "Nobody"}},
		map[string]any{"round": 2, "order": []string{"Brute", "Brute"}},
		map[string]any{"round": 99, "order": []string{}}}
	sys := pp.New()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	r := rand.New(rand.NewPCG(3, 4))
	for _, line := range splitLines(readExample(t, "pp-page")) {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		e.Do(cmd)
		for range 20 {
			st := e.State().Clone()
			for range 1 + r.IntN(3) {
				ev := fray.Event{Type: types[r.IntN(len(types))]}
				if p := payloads[r.IntN(len(payloads))]; p != nil {
					ev.Data, _ = json.Marshal(p)
				}
				_ = sys.Apply(st, ev)
				sys.View(st)
				_ = sys.Check(st)
			}
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := range len(s) {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
