package cinematic_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
)

// Apply never panics on events read from a damaged log: every event type
// with odd payloads, on states taken all along the example script. The
// payloads hold the ids of the combatants present, of nobody, and names
// where ids belong.
func TestApplyOddEvents(t *testing.T) {
	types := []string{fray.EventStarted, cinematic.EventRound, cinematic.EventAttack, cinematic.EventDefence, cinematic.EventStance, cinematic.EventTurnDone, cinematic.EventTiebreak,
		cinematic.EventRolled, cinematic.EventDamaged, cinematic.EventShot, cinematic.EventReloaded, cinematic.EventStood, cinematic.EventEngaged, cinematic.EventWaits, "bogus"}
	payloads := func(st fray.State) []any {
		enc := st.(*cinematic.State).Encounter
		id := func(name string) fray.CombatantID {
			if c := enc.Find(name); c != nil {
				return c.ID
			}
			return fray.CombatantID(name) // nobody's
		}
		master, slayer, vampire, nobody := id("Master"), id("Slayer"), id("Vampire"), id("Nobody")
		return []any{nil, "x", 3, map[string]any{}, map[string]any{"name": master}, map[string]any{"name": "Master"},
			map[string]any{"name": nobody, "names": []fray.CombatantID{master, master}},
			map[string]any{"name": slayer, "names": []fray.CombatantID{slayer}},
			map[string]any{"name": slayer, "role": "god", "stance": "sideways", "kind": "extra", "modifier": -2},
			map[string]any{"name": master, "role": "foe", "minion": true, "stance": "defence", "kind": "bonus"},
			map[string]any{"round": 1, "order": []fray.CombatantID{master, slayer, nobody}},
			map[string]any{"round": 2, "order": []fray.CombatantID{master, master}},
			map[string]any{"round": 99, "order": []string{}},
			map[string]any{"name": master, "target": slayer, "roll": "attack", "weapon": "Claws", "amount": -5, "shots": 2, "kind": "free"},
			map[string]any{"name": slayer, "target": nobody, "roll": "attack", "amount": 1 << 40, "shots": -3},
			map[string]any{"name": slayer, "target": master, "roll": "dodge", "by": vampire},
			map[string]any{"attacker": master, "target": slayer, "shots": 3, "modifiers": []map[string]any{{"source": "x", "who": []string{"Slayer"}}}},
			map[string]any{"attacker": vampire, "target": vampire},
			map[string]any{"name": vampire, "weapon": "Pistol", "amount": 12}}
	}
	sys := cinematic.New()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	r := rand.New(rand.NewPCG(3, 4))
	for _, line := range splitLines(readExample(t, "cinematic-crypt")) {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		e.Do(cmd)
		ps := payloads(e.State())
		for range 20 {
			st := e.State().Clone()
			for range 1 + r.IntN(3) {
				ev := fray.Event{Type: types[r.IntN(len(types))]}
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
