package bpb_test

import (
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
)

// TestTell checks the log's words against seed 000's block and dodge
// examples, worked by hand: Ganyeka's rank 9 Blast (Accuracy 7 against
// 8 + Monolith's Agility 3 = 11); Monolith's block, Prowess 8 + 3 for
// expertise against 8 + 9 = 17 (B-8), where 21 is 3 over: an extreme
// success that puts Ganyeka after Monolith (B-9); the hit's damage and
// Endurance after it; and a rename, which the words follow.
func TestTell(t *testing.T) {
	tests := []struct {
		name   string
		script []string // after the seed's start
		want   []string // the last step's events, in words
	}{
		{"an attack waits for the defence", []string{"next Blueshift", "attack Ganyeka Monolith with=blast dice=3,2"}, []string{
			"Ganyeka attacks Monolith with Blast: 2d6 3, 2 + 7 = 12 against 11 — hit, 3 damage if it lands (odds: miss 8% · hit 33% · extreme hit 58%).",
		}},
		{"the seed's extreme block", []string{"next Blueshift", "attack Ganyeka Monolith with=blast dice=3,2", "block Monolith dice=6,4"}, []string{
			"Monolith forces an action (blocks attack by Ganyeka), spending their turn this round.",
			"Monolith blocks Ganyeka's Blast: 2d6 6, 4 + 11 = 21 against 17 — extreme: negates the attack and reorders (odds: fails 28% · negates 44% · negates, extreme: reorders 28%).",
			"Monolith is blocking (may block further attacks until their next action) until the start of Monolith's turn (round 1 or later).",
			"Ganyeka moves in the order from next round, after Monolith.",
		}},
		{"the hit lands", []string{"next Blueshift", "attack Ganyeka Monolith with=blast dice=3,2", "take Monolith"}, []string{
			"Monolith takes 3 Endurance damage from Ganyeka: 30 → 27.",
		}},
		{"damage at the GM's word", []string{"damage Ganyeka 5"}, []string{
			"Ganyeka takes 5 Endurance damage: 24 → 19.",
		}},
		{"a renamed attacker", []string{"next Blueshift", "attack Ganyeka Monolith with=blast dice=3,2", "rename Ganyeka Vile"}, []string{
			"Ganyeka is now called Vile.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := seeded(t)
			var before fray.State
			var evs []fray.Event
			for _, line := range tt.script {
				before = e.State().Clone()
				evs = doLine(t, e, line)
			}
			told := engine.TellEvents(e.System(), before, evs, e.Log(), e.Encounter().NameOf)
			var got []string
			for _, x := range told {
				got = append(got, x.Text)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("told:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

// TestTellLogRenamed checks that the whole log is told by the names the
// encounter has now, and in the state before each event as it happened:
// an undone hit's damage says the Endurance it took then.
func TestTellLogRenamed(t *testing.T) {
	e := seeded(t)
	for _, line := range []string{"next Blueshift", "attack Ganyeka Monolith with=blast dice=3,2", "take Monolith", "undo", "take Monolith", "rename Ganyeka Vile"} {
		doLine(t, e, line)
	}
	told := engine.TellLog(e.System(), e.Log(), 0, e.Encounter().NameOf)
	var lines []string
	for _, x := range told {
		lines = append(lines, x.Text)
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{
		"Vile attacks Monolith with Blast: 2d6 3, 2 + 7 = 12 against 11 — hit, 3 damage if it lands",
		"Monolith takes 3 Endurance damage from Vile: 30 → 27.\nUndid step 7: take Monolith\nMonolith takes 3 Endurance damage from Vile: 30 → 27.",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the log lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "Ganyeka attacks") {
		t.Errorf("the log says the old name:\n%s", all)
	}
}

// TestTellRedacted checks a player's words: no number of an event whose
// numbers were taken out, and someone for a name the player may not know.
func TestTellRedacted(t *testing.T) {
	e := seeded(t)
	doLine(t, e, "next Blueshift")
	evs := doLine(t, e, "attack Ganyeka Monolith with=blast dice=3,2")
	ev := evs[0]
	ev.Odds, ev.Rolls, ev.Data = nil, nil, []byte(`{"name":"`+string(ev.About[0])+`","roll":"attack","stat":"accuracy","target":"`+string(ev.About[1])+`","power":"Blast","mode":"open","band":"success"}`)
	name := func(id fray.CombatantID) string {
		if id == ev.About[0] {
			return "" // a combatant the reader may not know of
		}
		return e.Encounter().NameOf(id)
	}
	got := engine.Tell(bpb.New(), fray.Tale{Event: ev, Name: name, Redacted: true}).Text
	if want := "someone attacks Monolith with Blast: hit."; got != want {
		t.Errorf("told %q, want %q", got, want)
	}
}
