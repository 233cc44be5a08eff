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
	refuseDeclared(t, e, "injury Bob scarred lost", `"lost" is not allowed; use one of scarred, maimed, dead`)
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

// zoned is the seed's Johann example with zones: Johann and Brigand #1
// in zone 1, the others in zone 2.
const zoned = `add Johann side=pc wits=3 zone=1
add "Brigand #1" group=Brigands wits=2 zone=1
add "Brigand #2" group=Brigands wits=1 zone=2
add Melvina side=pc wits=2 zone=2
add "Pet Bear" wits=1 zone=2
initiative Johann 15
initiative "Brigand #1" 14
initiative Melvina 10
initiative "Pet Bear" 8
start`

// Q-2 (issue 14, item 26): seed 004, "Minor actions include readying a
// weapon, reloading a crossbow, or traversing the battlefield (distances
// are handled in abstract Zones)", and SPEC lists zone among the stats. A
// zone is recorded with add NAME zone=N, the order shows it, and move
// [NAME] zone=N is the current actor's Minor action to another zone,
// taken back by undo.
func TestQ2_ZonesRecordedAndTraversed(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
	run(t, e, zoned)
	if got, want := e.View().Order[0].String(), "Johann (current, zone 1)"; got != want {
		t.Errorf("the top of the queue: %q, want %q", got, want)
	}
	refuseDeclared(t, e, "move Melvina zone=1", "It is Johann's turn")
	refuseDeclared(t, e, "move zone=near", "not a whole number")
	refuseDeclared(t, e, "move Johann", "move needs zone=N")
	refuseDeclared(t, e, "move zone=1", "already in zone 1")
	run(t, e, `act Johann major note="charges in, attacks Brigand #1"`+"\nmove Johann zone=2")
	if got, want := e.View().Order[0].String(), "Johann (current, major, minor; zone 2)"; got != want {
		t.Errorf("Johann after his move: %q, want %q", got, want)
	}
	ev := lastEvent(t, e, queue.EventMoved)
	var d struct {
		Name fray.CombatantID `json:"name"`
		Zone int              `json:"zone"`
	}
	if err := ev.Decode(&d); err != nil || d.Zone != 2 || d.Name != e.State().(*queue.State).Find("Johann").ID {
		t.Errorf("the move's payload: %+v (%v), want Johann's id and zone 2", d, err)
	}
	if _, ok := queue.New().Payloads()[queue.EventMoved]; !ok {
		t.Errorf("Payloads does not declare %s", queue.EventMoved)
	}
	// A move is a Minor action: the turn has had its two.
	refuseDeclared(t, e, "move zone=3", "already taken two actions")
	run(t, e, "undo")
	if z := e.State().(*queue.State).Find("Johann").Stat(queue.StatZone); z != 1 {
		t.Errorf("Johann's zone after undo: %d, want 1", z)
	}
	// With hit points, which the players do not all see, the zone is
	// the Note and the hit points the Status.
	f := newFight(t, "move Ann zone=3")
	if o := f.View().Order[0]; o.Note != "minor; zone 3" || o.Status != "hp 10/10" {
		t.Errorf("Ann after her move: note %q, status %q", o.Note, o.Status)
	}
}

// Q-3 (issue 14, item 26): seed 004, "Johann uses a class ability of his
// to suffer the damage instead of an ally in his zone (an abstraction for
// distances on the battlefield) - but it costs him a Reaction." A
// reaction on an ally's behalf (react … for=ALLY) needs the ally in the
// reactor's zone; where a zone is not recorded, it is not checked.
func TestQ3_ReactionForAnAllyInHisZone(t *testing.T) {
	const toBrigand2 = "next\nact \"Brigand #1\" major\nnext\nact \"Brigand #2\" major note=\"threatens Melvina\""
	t.Run("other zone", func(t *testing.T) {
		e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
		run(t, e, zoned+"\nact Johann major\n"+toBrigand2)
		refuseDeclared(t, e, `react Johann to="Brigand #2" for=Melvina`, "Johann is in zone 1 and Melvina in zone 2")
		refuseDeclared(t, e, `react Johann to="Brigand #2" for=Johann`, "on their own behalf")
	})
	t.Run("his zone", func(t *testing.T) {
		e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
		run(t, e, zoned+"\nact Johann major\nmove Johann zone=2\n"+toBrigand2)
		run(t, e, `react Johann to="Brigand #2" for=Melvina`+"\nnext")
		if got, want := queueOf(e.View()), "Melvina, Pet Bear, Brigand #1, Brigand #2, Johann"; got != want {
			t.Errorf("queue %s, want %s", got, want)
		}
		// Round 1: Johann, Brigand #1, Brigand #2, the reaction, Melvina.
		h := e.View().History[0]
		if got, want := h.Turns[3], "Johann (reacts to Brigand #2 for Melvina)"; got != want {
			t.Errorf("the history says %q, want %q (%v)", got, want, h.Turns)
		}
		if got := h.Who[3]; !reflect.DeepEqual(got, []string{"Johann", "Brigand #2", "Melvina"}) {
			t.Errorf("the reaction's Who: %v", got)
		}
	})
	t.Run("no zones", func(t *testing.T) {
		e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
		run(t, e, setup+"\nact Johann major\n"+toBrigand2)
		run(t, e, `react Johann to="Brigand #2" for=Melvina`)
	})
}
