package queue_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"fray/engine"
	"fray/rules/queue"
)

// Q-2: seed 004, "Major actions include melee and ranged attacks,
// charges, and most actions aimed at significantly altering the
// opponent's state. Minor actions include readying a weapon, reloading a
// crossbow, or traversing the battlefield", and a turn is "either two
// Minor actions, or a combination of a Major and a Minor action". In
// examples/queue-brigands.fray no charge or attack is a Minor action
// (the seed's "Johann charges in, attacks Brigand #1" is his attack, one
// Major action), and every turn is Major and Minor, two Minor, or less.
func TestQ2_BrigandsChargeIsMajor(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	for _, line := range strings.Split(mustRead("../../examples/queue-brigands.fray"), "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if cmd.Name == "" || engine.IsQuery(cmd.Name) {
			continue
		}
		_, _ = e.Do(cmd) // the script shows some refusals on purpose
	}
	var turn []string // the kinds of action of the turn being read
	minors := 0
	for _, ev := range e.Log() {
		switch ev.Type {
		case queue.EventActed:
			var d struct {
				Kind string `json:"kind"`
				Note string `json:"note"`
			}
			if err := ev.Decode(&d); err != nil {
				t.Fatal(err)
			}
			note := strings.ToLower(d.Note)
			if d.Kind == queue.Minor {
				minors++
				if strings.Contains(note, "charge") || strings.Contains(note, "attack") {
					t.Errorf("event %d: %q is a Minor action; charges and attacks are Major", ev.Seq, d.Note)
				}
			}
			turn = append(turn, d.Kind)
			if len(turn) > 2 || strings.Count(strings.Join(turn, " "), queue.Major) > 1 {
				t.Errorf("event %d: a turn of %v; it is two Minor, or a Major and a Minor", ev.Seq, turn)
			}
		case queue.EventTurnEnded:
			turn = nil
		}
	}
	if minors == 0 {
		t.Error("the example takes no Minor action")
	}
}
