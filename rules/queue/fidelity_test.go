package queue_test

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
	"fray/rules/rulestest"
)

// refuseDeclared is refuse, and checks too that the refusal declares
// every combatant it names (rulestest.CheckRefusal).
func refuseDeclared(t *testing.T, e *engine.Engine, line, want string) {
	t.Helper()
	refuse(t, e, line, want)
	cmd, _ := engine.ParseCommand(line)
	_, err := queue.New().Decide(e.State(), cmd, seededRoller{rand.New(rand.NewPCG(1, 1))})
	fe, ok := err.(*fray.Error)
	if !ok {
		t.Fatalf("%s: %v is not a *fray.Error", line, err)
	}
	if err := rulestest.CheckRefusal(queue.New(), e.State(), cmd, fe); err != nil {
		t.Errorf("%s: %v", line, err)
	}
}

// Q-5 (issue 14, item 24): seed 004, "When someone loses all of their hit
// points, they become Incapacitated", and the third Injury is "dead".
// Neither takes an action on their turn nor a Reaction out of it, as
// neither attacks nor checks: act and react refuse them as attack does.
func TestQ5_IncapacitatedAndDeadCannotActOrReact(t *testing.T) {
	for _, tt := range []struct {
		name, setup, want string
	}{
		{"Incapacitated", "damage Bob 6", "Bob is Incapacitated and cannot act"},
		{"dead", "damage Bob 6\ndamage Bob 1 injury=dead", "Bob is dead"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Ann's turn: Bob cannot react to her.
			e := newFight(t, tt.setup)
			refuseDeclared(t, e, "react Bob to=Ann", tt.want)
			// Bob's turn: he takes no action; next still ends his turn.
			run(t, e, "next")
			refuseDeclared(t, e, "act major", tt.want)
			refuseDeclared(t, e, "act Bob minor", tt.want)
			run(t, e, "next Bob")
		})
	}
}

// Q-5 (issue 14, item 27): seed 004, "When an Incapacitated character
// takes Damage, they receive an Injury, that applies one of the following
// three conditions to the character: (1) scarred, (2) maimed, or (3)
// dead. Each can only be opted for only once." So the third Injury leaves
// no choice: all three are taken, whichever were chosen before. Three
// hits on an Incapacitated Bob, none chosen, make him scarred, maimed and
// dead at once, and the view says so, with nothing left to choose; two
// still to choose are said as two.
func TestQ5_ThirdInjuryGivesAllLeft(t *testing.T) {
	for _, tt := range []struct {
		name, third string
		want        []string
	}{
		{"damage", "damage Bob 1", []string{queue.InjuryScarred, queue.InjuryMaimed, queue.InjuryDead}},
		{"attack", "attack Ann Bob with=sword hit=yes dice=1,1", []string{queue.InjuryScarred, queue.InjuryMaimed, queue.InjuryDead}},
		{"named", "damage Bob 1 injury=maimed", []string{queue.InjuryMaimed, queue.InjuryScarred, queue.InjuryDead}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newFight(t, "damage Bob 6\ndamage Bob 1\ndamage Bob 1")
			if f := fighterOf(e, "Bob"); f.Pending != 2 {
				t.Fatalf("Bob: %+v, want two Injuries to choose", f)
			}
			if o := e.View().Order[1]; !strings.Contains(o.Note, "2 Injuries to choose") {
				t.Errorf("the view of Bob with two Injuries to choose: %q", o.Note)
			}
			run(t, e, tt.third)
			f := fighterOf(e, "Bob")
			if !reflect.DeepEqual(f.Injuries, tt.want) || f.Pending != 0 {
				t.Errorf("Bob after the third Injury: %+v, want %v and none to choose", f, tt.want)
			}
			if !e.State().(*queue.State).Dead("Bob") {
				t.Error("Bob is not dead")
			}
			if o := e.View().Order[1]; strings.Contains(o.Note, "to choose") || !strings.Contains(o.Note, "dead") {
				t.Errorf("the view of a dead Bob: %q", o.Note)
			}
			refuse(t, e, "damage Bob 1", "already dead")
		})
	}
}

// Q-5 (issue 14, item 27): the Injuries to choose are the GM's (or the
// players') choice, "Each can only be opted for only once": injury NAME
// takes several at once, each once and no more than are to choose.
func TestQ5_ChooseInjuriesInOneCommand(t *testing.T) {
	e := newFight(t, "damage Bob 6\ndamage Bob 1\ndamage Bob 1")
	refuseDeclared(t, e, "injury Bob maimed maimed", "twice")
	refuseDeclared(t, e, "injury Bob scarred maimed dead", "2 Injuries to choose")
	refuseDeclared(t, e, "injury Bob scarred lost", "not an Injury")
	run(t, e, "injury Bob maimed scarred")
	f := fighterOf(e, "Bob")
	if !reflect.DeepEqual(f.Injuries, []string{queue.InjuryMaimed, queue.InjuryScarred}) || f.Pending != 0 {
		t.Errorf("Bob: %+v, want maimed and scarred, none to choose", f)
	}
	if e.State().(*queue.State).Dead("Bob") {
		t.Error("Bob is dead")
	}
	run(t, e, "undo")
	if f := fighterOf(e, "Bob"); f.Pending != 2 || len(f.Injuries) != 0 {
		t.Errorf("Bob after undo: %+v, want two Injuries to choose", f)
	}
}

// Q-2 (issue 14, item 28): seed 004, "Major actions include melee and
// ranged attacks, charges, and most actions aimed at significantly
// altering the opponent's state." In the seed's example "Johann charges
// in, attacks Brigand #1": the charge is his attack, a Major action; the
// example logs no charge as a Minor action.
func TestQ2_JohannChargeIsMajor(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	charges := 0
	for _, line := range strings.Split(mustRead("../../examples/queue-johann.fray"), "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if cmd.Name == "" || engine.IsQuery(cmd.Name) {
			continue
		}
		if _, err := e.Do(cmd); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if cmd.Name == "act" && strings.Contains(cmd.Opts["note"], "charge") {
			charges++
			if !strings.EqualFold(cmd.Args[len(cmd.Args)-1], queue.Major) {
				t.Errorf("%s: a charge is a Major action", line)
			}
		}
	}
	if charges == 0 {
		t.Error("the example has no charge")
	}
}

// Q-3: seed 004, "Characters may have a Reaction even when it is not
// their turn to act. That, however, puts them on the defensive, and they
// are placed right below the participant whose action they attempt to
// counter, thus delaying their own turn." A Reaction counters an action:
// the current actor's, or another's Reaction to it. One waiting in the
// queue takes no action to counter, whether their turn is still to come
// or over; a reaction to them is refused.
func TestQ3_ReactionCountersAnActionBeingTaken(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
	run(t, e, setup+"\nact major")
	// Johann's turn: Brigand #1 has not acted yet.
	refuseDeclared(t, e, `react Melvina to="Brigand #1"`, "Brigand #1 is waiting in the queue")
	// A Reaction to Johann, and one to that Reaction.
	run(t, e, "react Melvina to=Johann\nreact \"Pet Bear\" to=Melvina")
	run(t, e, "next")
	if got, want := queueOf(e.View()), "Brigand #1, Brigand #2, Johann, Melvina, Pet Bear"; got != want {
		t.Errorf("queue %s, want %s", got, want)
	}
	// Brigand #1's turn: Johann's turn is over.
	refuseDeclared(t, e, "react Melvina to=Johann", "Johann is waiting in the queue")
}
