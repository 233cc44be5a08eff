package queue_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

// TestUpgradeGroupKey: a group's roll entered in an older log (names in
// payloads) stays the group's when engine.Upgrade makes its key an id,
// because a combatant was called like the key ("group:" and the group's
// name), gone by then; it goes to that combatant, as the older rules
// gave it, when they were present and in no group.
func TestUpgradeGroupKey(t *testing.T) {
	const header = `{"schema":"fray.log","version":2,"rules":"queue"}` + "\n"
	const entered = `{"seq":4,"step":4,"type":"queue.initiative","command":"initiative A 17","data":{"key":"group:hill","members":["A"]},"rolls":[{"for":"Hill","expr":"1d20","dice":[17],"total":17,"source":"faces"}],"about":["bbbbbbbb"]}` + "\n"
	for _, tt := range []struct {
		name, log string
		want      fray.CombatantID // whose score the die entered gives
	}{
		{"gone", `{"seq":1,"step":1,"type":"added","command":"add group:hill","data":{"combatant":{"id":"aaaaaaaa","name":"group:hill","kind":"character","side":"npc"}},"about":["aaaaaaaa"]}
{"seq":2,"step":2,"type":"removed","command":"remove group:hill","data":{"name":"group:hill"},"about":["aaaaaaaa"]}
{"seq":3,"step":3,"type":"added","command":"add A group=Hill","data":{"combatant":{"id":"bbbbbbbb","name":"A","kind":"character","side":"npc","group":"Hill"}},"about":["bbbbbbbb"]}
`, "bbbbbbbb"},
		{"present", `{"seq":1,"step":1,"type":"added","command":"add group:Hill","data":{"combatant":{"id":"aaaaaaaa","name":"group:Hill","kind":"character","side":"npc"}},"about":["aaaaaaaa"]}
{"seq":2,"step":2,"type":"noted","command":"note group:Hill x","data":{"name":"group:Hill","note":"x"},"about":["aaaaaaaa"]}
{"seq":3,"step":3,"type":"added","command":"add A group=Hill","data":{"combatant":{"id":"bbbbbbbb","name":"A","kind":"character","side":"npc","group":"Hill"}},"about":["bbbbbbbb"]}
`, "aaaaaaaa"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, err := engine.Import(strings.NewReader(header+tt.log+entered), queue.New(), rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Do(fray.Command{Name: "start"}); err != nil {
				t.Fatal(err)
			}
			if got := e.State().(*queue.State).Scores[tt.want]; got != 17 {
				t.Errorf("%s scores %d, want the 17 entered (scores %v)", tt.want, got, e.State().(*queue.State).Scores)
			}
		})
	}
}
