package pp_test

import (
	"slices"
	"testing"
)

// Every roll of a challenge says whom it is for by id (fray.Roll.Who),
// and its event declares everyone who rolled (About), whatever the roll's
// words ("Vile (might 3d)"): what a player may read of an event follows
// from those declarations alone (E-8). A contest's exchanges declared
// nobody, so a player's stream showed an NPC's pool.
func TestE8_ChallengeRollsDeclareWhoRolls(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"contest Gatecrasher Vile might exchanges=2", "Vile"},
		{"contest Gatecrasher Vile might exchanges=2\nexchange", "Vile"},
		{"check Gatecrasher might vs=Vile", "Vile"},
		{"check Whisper agility threshold=2", "Whisper"},
	} {
		e := newPP(t, tc.script)
		log := e.Log()
		ev := log[len(log)-1]
		for ev.Type != "pp.exchanged" && ev.Type != "pp.checked" && len(log) > 1 {
			log = log[:len(log)-1]
			ev = log[len(log)-1]
		}
		if len(ev.Rolls) == 0 {
			t.Fatalf("%s: the last roll's event %s has no rolls", tc.script, ev.Type)
		}
		for _, r := range ev.Rolls {
			if r.Who == "" {
				t.Errorf("%s: the roll %q says for whom only in words", tc.script, r.For)
			}
		}
		if id := idOf(e, tc.want); !slices.Contains(ev.About, id) {
			t.Errorf("%s: %s declares %v, not %s (%s)", tc.script, ev.Type, ev.About, tc.want, id)
		}
	}
}
