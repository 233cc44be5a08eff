package vv_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/vv"
)

// Apply never panics on events read from a damaged log: every event type
// with odd payloads, on states taken all along the example script.
func TestApplyOddEvents(t *testing.T) {
	types := []string{fray.EventStarted, vv.EventTurn, vv.EventTurnEnded, vv.EventActed, vv.EventMoved,
		vv.EventHeld, vv.EventDone, vv.EventInterrupted, vv.EventFacing, vv.EventProne, vv.EventStood,
		vv.EventSurprise, vv.EventInitiative, vv.EventUpkeep, vv.EventTiebreak, vv.EventAttacked, vv.EventDamaged, vv.EventHealed,
		vv.EventSpent, vv.EventChecked, "bogus"}
	// The payloads refer to Grue and Vex by id once they are present
	// (and by a name, which is nobody's id, before), and to nobody.
	payloads := func(st fray.State) []any {
		grue, vex := "Grue", "Vex"
		if s, ok := st.(*vv.State); ok {
			if id := s.IDOf(grue); id != "" {
				grue = string(id)
			}
			if id := s.IDOf(vex); id != "" {
				vex = string(id)
			}
		}
		return []any{nil, "x", 3, map[string]any{}, map[string]any{"name": grue},
			map[string]any{"name": "nobody00", "names": []string{grue, grue}},
			map[string]any{"names": []string{grue, vex}, "before": vex},
			map[string]any{"turn": 1, "chars": []map[string]any{{"name": grue, "init": 40, "rolled": true}, {"name": grue, "init": 9999, "rolled": true, "lost": []int{9999}}}},
			map[string]any{"turn": 2, "chars": []map[string]any{{"name": vex, "init": -50, "rolled": true}}},
			map[string]any{"name": grue, "inches": -5, "cost": 2, "phase": 25, "die": 0, "power": 5},
			map[string]any{"attacker": grue, "target": vex, "to_hits": 5, "to_power": -3, "hits": -2},
			map[string]any{"attacker": grue, "target": "nobody00", "to_hits": 1e9}}
	}
	sys := vv.New()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	r := rand.New(rand.NewPCG(3, 4))
	for _, line := range splitLines(readExample(t, "vv-ambush")) {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		e.Do(cmd)
		ps := payloads(e.State())
		for range 20 {
			st := e.State().Clone()
			for range 1 + r.IntN(3) {
				ev := fray.Event{Type: types[r.IntN(len(types))], Format: fray.FormatIDs}
				if p := ps[r.IntN(len(ps))]; p != nil {
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
