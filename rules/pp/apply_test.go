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
// with odd payloads, on states taken all along the example script. The
// payloads identify combatants by id (id), but for pp.role's name.
func TestApplyOddEvents(t *testing.T) {
	types := []string{fray.EventStarted, pp.EventRole, pp.EventRound, pp.EventActed, pp.EventTurnDone, pp.EventTiebreak, "bogus"}
	oddPayloads := func(id func(string) fray.CombatantID) []any {
		return []any{nil, "x", 3, map[string]any{}, map[string]any{"name": id("Brute")}, map[string]any{"name": "Brute"},
			map[string]any{"name": id("Nobody"), "names": []fray.CombatantID{id("Brute"), id("Brute")}},
			map[string]any{"name": "Thug", "role": "god", "stance": "sideways", "kind": "extra", "modifier": -2},
			map[string]any{"name": id("Brute"), "role": "foe", "minion": true, "stance": "defence", "kind": "bonus"},
			map[string]any{"round": 1, "order": []fray.CombatantID{id("Brute"), id("Thug"), "nobody00"}},
			map[string]any{"round": 2, "order": []fray.CombatantID{id("Brute"), id("Brute")}},
			map[string]any{"round": 99, "order": []fray.CombatantID{}}}
	}
	sys := pp.New()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	r := rand.New(rand.NewPCG(3, 4))
	for _, line := range splitLines(readExample(t, "pp-page")) {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		e.Do(cmd)
		payloads := oddPayloads(func(name string) fray.CombatantID { return idOf(e, name) })
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

// Apply and Decide never panic on challenge events read from a damaged
// log: odd payloads of every resolution event, Resolve spent on them
// afterwards (the last roll of each kind with missing or mismatched
// parts), on states taken all along the challenge example. The payloads
// identify combatants by id (id), and some by name, as no payload now
// does.
func TestApplyOddResolutionEvents(t *testing.T) {
	types := []string{pp.EventChecked, pp.EventSides, pp.EventSpent, pp.EventAssisted, pp.EventGrouped, pp.EventContest, pp.EventExchanged, pp.EventDefining, pp.EventScene, pp.EventStory}
	oddPayloads := func(id func(string) fray.CombatantID) []any {
		w, g := id("Whisper"), id("Gatecrasher")
		return []any{nil, "x", 3, map[string]any{},
			map[string]any{"actor": w, "opponent": g, "kind": "attack", "lost": 5, "minion": true},
			map[string]any{"actor": "Whisper", "opponent": "Gatecrasher", "kind": "attack", "lost": 5, "minion": true},
			map[string]any{"name": w, "of": "group", "group": map[string]any{"names": []fray.CombatantID{w, g}, "successes": []int{9}}},
			map[string]any{"name": w, "of": "exchange", "exchange": map[string]any{"n": 1, "over": true}},
			map[string]any{"name": w, "of": "assist", "assist": map[string]any{"for": id("Nobody"), "bonus": -3, "kept": true}},
			map[string]any{"name": g, "resolve": -2, "how": "explode", "opp": true},
			map[string]any{"names": []fray.CombatantID{w, g}, "successes": []int{1, 2, 3}, "pools": []map[string]any{{"dice": 2}}, "sixes": []int{}},
			map[string]any{"helper": w, "for": g, "successes": 4, "bonus": 2, "kept": true, "pool": map[string]any{"dice": -3}},
			map[string]any{"a": w, "b": g, "exchanges": 2, "trait_a": "agility", "trait_b": "might"},
			map[string]any{"a": w, "b": w, "exchanges": 1, "trait_a": "agility", "trait_b": "might"},
			map[string]any{"n": 1, "successes_a": 2, "winner": w, "pool_a": map[string]any{"dice": 99, "resolve": 40}},
			map[string]any{"name": w, "cost": "oneshot"},
			map[string]any{"sides": []map[string]any{{"name": w, "successes": 3}, {"name": g}, {"name": w, "pool": map[string]any{"dice": -1}}}},
			map[string]any{"name": w, "check": map[string]any{"actor": id("Nobody")}, "sides": map[string]any{"sides": []map[string]any{{"name": w}}}}}
	}
	spends := []string{"spend Whisper resolve=1", "spend Gatecrasher reroll", "spend Whisper explode", `spend "Citizen Soldier" resolve=1`}
	sys := pp.New()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	r := rand.New(rand.NewPCG(3, 4))
	for _, line := range splitLines(readExample(t, "pp-challenges")) {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		e.Do(cmd)
		payloads := oddPayloads(func(name string) fray.CombatantID { return idOf(e, name) })
		for range 10 {
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
			for _, line := range spends {
				cmd, _ := engine.ParseCommand(line)
				_, _ = sys.Decide(st, cmd, seeded{rand.New(rand.NewPCG(5, 6))})
				_, _ = sys.Odds(st, cmd)
			}
		}
	}
}

type seeded struct{ r *rand.Rand }

func (s seeded) Roll(forWhom, expr string) (fray.Roll, error) {
	return engine.RollSeeded(forWhom, expr, s.r)
}
