package queue_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

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

func queueOf(v fray.View) string {
	var names []string
	for _, s := range v.Order {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

func nextOf(v fray.View) string {
	var names []string
	for _, s := range v.Next {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// setup is seed 004's encounter: Johann the Brave and Melvina the Witch
// against two brigands (one roll for both) and their pet bear. The dice
// are entered so that the queue comes out as the seed's: Johann 15+3=18,
// the brigands 14+2=16, Melvina 10+2=12, the bear 8+1=9.
const setup = `add Johann side=pc wits=3
add "Brigand #1" group=Brigands wits=2
add "Brigand #2" group=Brigands wits=1
add Melvina side=pc wits=2
add "Pet Bear" wits=1
initiative Johann 15
initiative "Brigand #1" 14
initiative Melvina 10
initiative "Pet Bear" dice=8
start`

// The seed's queues, step by step (seed 004, the Johann example).
func TestSeedJohann(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
	steps := []struct {
		script, queue, next string
	}{
		{setup, "Johann, Brigand #1, Brigand #2, Melvina, Pet Bear", "Brigand #1, Brigand #2, Melvina, Pet Bear, Johann"},
		// Johann charges in, attacks Brigand #1 (one Major action); then to the end.
		{"act major note=\"charges in, attacks Brigand #1\"\nnext", "Brigand #1, Brigand #2, Melvina, Pet Bear, Johann", ""},
		// Brigand #1 hits back, then to the end as well.
		{"act major\nnext", "Brigand #2, Melvina, Pet Bear, Johann, Brigand #1", "Melvina, Pet Bear, Johann, Brigand #1, Brigand #2"},
		// Brigand #2 threatens Melvina; Johann takes the damage instead: a reaction.
		{"act major note=\"threatens Melvina\"", "Brigand #2, Melvina, Pet Bear, Johann, Brigand #1", "Melvina, Pet Bear, Johann, Brigand #1, Brigand #2"},
		{`react Johann to="Brigand #2"`, "Brigand #2, Melvina, Pet Bear, Brigand #1, Johann", "Melvina, Pet Bear, Brigand #1, Brigand #2, Johann"},
		{"next", "Melvina, Pet Bear, Brigand #1, Brigand #2, Johann", "Pet Bear, Brigand #1, Brigand #2, Johann, Melvina"},
	}
	for i, s := range steps {
		run(t, e, s.script)
		v := e.View()
		if got := queueOf(v); got != s.queue {
			t.Errorf("step %d: queue %s, want %s", i, got, s.queue)
		}
		if got := nextOf(v); s.next != "" && got != s.next {
			t.Errorf("step %d: next %s, want %s", i, got, s.next)
		}
	}
	v := e.View()
	want := "Round 1: Johann, Brigand #1, Brigand #2, Johann (reacts to Brigand #2), Melvina"
	if got := v.History[len(v.History)-1].String(); got != want {
		t.Errorf("history:\n got %s\nwant %s", got, want)
	}
}

// Refusals change nothing and name what is wrong.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name, cmd, want string
	}{
		{"two majors", "act major", "already taken a Major"},
		{"out of turn", `act Melvina minor`, "It is Johann's turn, not Melvina's"},
		{"next out of turn", `next Melvina`, "It is Johann's turn"},
		{"unknown name", `react Gandalf to=Johann`, `no combatant named "Gandalf"`},
		{"react to self", `react Melvina to=Melvina`, "own action"},
		{"react in own turn", `react Johann to=Melvina`, "own turn"},
		{"react without to", `react Melvina`, "to=NAME"},
		{"unknown key", `act minor speed=3`, "does not know the key speed="},
		{"bad kind", `act huge`, `"huge" is not allowed; use one of major, minor`},
		{"delay", `delay`, `has no command "delay"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
			run(t, e, setup+"\nact major")
			before := e.View()
			n := len(e.Log())
			cmd, err := engine.ParseCommand(tt.cmd)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Do(cmd)
			if err == nil || !strings.Contains(fray.ErrorMessage(err), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if len(e.Log()) != n || queueOf(e.View()) != queueOf(before) {
				t.Errorf("the refusal changed the encounter")
			}
		})
	}
	// A third action.
	e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
	run(t, e, setup+"\nact minor\nact minor")
	if _, err := e.Do(fray.Command{Name: "act", Args: []string{"minor"}}); err == nil || !strings.Contains(err.Error(), "two actions") {
		t.Errorf("third action: %v", err)
	}
}

// equal scores favour PCs, then the GM's tiebreak order; a group
// rolls once and its members stand together.
func TestQueueOrder(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
	run(t, e, `add Npc wits=2
add Pc1 side=pc wits=2
add Pc2 side=pc wits=2
add "Goblin A" group=Goblins wits=1
add Ogre wits=0
add "Goblin B" group=Goblins wits=3
order Pc2 Pc1
initiative Npc 10
initiative Pc1 10
initiative Pc2 10
initiative "Goblin B" 9
initiative Ogre 20
start`)
	// Ogre 20; Npc, Pc1, Pc2 and the goblins (9 + the best Wits, 3) all
	// have 12: the PCs first in the GM's order, then Npc and the goblins
	// in the order they were added, the goblins together.
	if got, want := queueOf(e.View()), "Ogre, Pc2, Pc1, Npc, Goblin A, Goblin B"; got != want {
		t.Errorf("queue %s, want %s", got, want)
	}
	run(t, e, "next\nadd \"Goblin C\" group=Goblins\nadd Late")
	if got, want := queueOf(e.View()), "Pc2, Pc1, Npc, Goblin A, Goblin B, Goblin C, Ogre, Late"; got != want {
		t.Errorf("queue %s, want %s", got, want)
	}
}

// A round ends when the top of the queue has already acted in it. Melvina
// reacts before her turn and drops below Brigand #1: she has no turn in
// round 1.
func TestQueueRounds(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
	run(t, e, setup+"\nnext\nreact Melvina to=\"Brigand #1\"\nnext\nnext\nnext")
	v := e.View()
	var got []string
	for _, h := range v.History {
		got = append(got, h.String())
	}
	want := []string{
		"Round 1: Johann, Brigand #1, Melvina (reacts to Brigand #1), Brigand #2, Pet Bear",
		"Round 2: Johann",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("history:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := queueOf(v), "Johann, Brigand #1, Melvina, Brigand #2, Pet Bear"; got != want {
		t.Errorf("queue %s, want %s", got, want)
	}
}
