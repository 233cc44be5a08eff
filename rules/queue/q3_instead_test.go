package queue_test

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
	"fray/rules/rulestest"
)

// brigands is seed 004's encounter with hit points and weapons, played to
// Brigand #2's turn: Johann (12 hit points), Melvina (6), the brigands
// (5 each, Brigand #2's club medium: it deals Red) and the bear.
const brigands = `add Johann side=pc wits=3 hp=12 weapon=sword:medium:bleed
add Melvina side=pc wits=2 hp=6 weapon=staff:light:daze
add "Brigand #1" side=npc group=Brigands wits=2 hp=5 weapon=axe:heavy:cleave
add "Brigand #2" side=npc group=Brigands wits=1 hp=5 weapon=club:medium:stun
add "Pet Bear" side=npc wits=1 hp=15 weapon=claws:heavy:maul
initiative Johann 15
initiative "Brigand #1" 14
initiative Melvina 10
initiative "Pet Bear" 8
start
act Johann major note="charges in, attacks Brigand #1"
next
act "Brigand #1" major note="hits back"
next`

// toBrigand2 is a fight at Brigand #2's turn, with script played after.
func toBrigand2(t *testing.T, script string) *engine.Engine {
	t.Helper()
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e, brigands)
	run(t, e, script)
	return e
}

// attacked decodes the payload of the last attack's event.
func attacked(t *testing.T, e *engine.Engine) (d struct {
	Target        fray.CombatantID `json:"target"`
	Damage        int              `json:"damage"`
	Incapacitates bool             `json:"incapacitates"`
	Injures       bool             `json:"injures"`
	Injury        string           `json:"injury"`
	SufferedBy    fray.CombatantID `json:"suffered_by"`
}, ev fray.Event) {
	t.Helper()
	ev = lastEvent(t, e, queue.EventAttacked)
	if err := ev.Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d, ev
}

func idOf(e *engine.Engine, name string) fray.CombatantID {
	return e.State().(*queue.State).Find(name).ID
}

// Q-3, Q-5: seed 004, "Brigand #2 steps forward and threatens Melvina;
// he scores so well he could oneshot poor Melvina, so Johann uses a class
// ability of his to suffer the damage instead of an ally in his zone …
// - but it costs him a Reaction." A reaction for an ally (react … for=)
// moves the damage of the attack it answers, when it hits the ally, onto
// the reactor, with what follows from it: Incapacitated at 0 hit points,
// an Injury beyond. The reactor still stands right below the one
// answered.
func TestQ3_ReactionTakesTheDamage(t *testing.T) {
	t.Run("the damage moves", func(t *testing.T) {
		// Red 6: Melvina's 6 hit points, a oneshot; Johann suffers it.
		e := toBrigand2(t, `react Johann to="Brigand #2" for=Melvina`+"\n"+`attack "Brigand #2" Melvina hit=yes dice=6,2`)
		if got := hpOf(e, "Melvina"); got != 6 {
			t.Errorf("Melvina has %d hit points, want all 6", got)
		}
		if got := hpOf(e, "Johann"); got != 6 {
			t.Errorf("Johann has %d hit points, want 12 − 6 = 6", got)
		}
		d, ev := attacked(t, e)
		if d.Target != idOf(e, "Melvina") || d.SufferedBy != idOf(e, "Johann") || d.Damage != 6 || d.Incapacitates {
			t.Errorf("the attack's payload %+v: want Melvina's id as the target, Johann's as who suffered 6 damage, nobody Incapacitated", d)
		}
		if !strings.Contains(ev.Rolls[0].For, "6 damage, which Johann suffers instead") {
			t.Errorf("the damage roll says %q", ev.Rolls[0].For)
		}
		if !declares(ev.About, idOf(e, "Johann"), idOf(e, "Melvina")) {
			t.Errorf("the attack's event declares %v, not Johann and Melvina", ev.About)
		}
		// The Reaction is spent: Johann stands right below Brigand #2.
		run(t, e, "next")
		if got, want := queueOf(e.View()), "Melvina, Pet Bear, Brigand #1, Brigand #2, Johann"; got != want {
			t.Errorf("queue %s, want %s", got, want)
		}
	})
	t.Run("Incapacitated", func(t *testing.T) {
		e := toBrigand2(t, "damage Johann 8\n"+`react Johann to="Brigand #2" for=Melvina`+"\n"+`attack "Brigand #2" Melvina hit=yes dice=5,1`)
		if st := e.State().(*queue.State); !st.Incapacitated("Johann") || st.Incapacitated("Melvina") || hpOf(e, "Melvina") != 6 {
			t.Errorf("Johann Incapacitated %v, Melvina %v with %d hit points: want Johann Incapacitated (4 left, 5 damage), Melvina untouched",
				st.Incapacitated("Johann"), st.Incapacitated("Melvina"), hpOf(e, "Melvina"))
		}
		if d, _ := attacked(t, e); !d.Incapacitates {
			t.Errorf("the attack's payload %+v does not say it Incapacitates", d)
		}
	})
	t.Run("an Injury", func(t *testing.T) {
		// Johann has lost his last hit points since he reacted: the damage
		// is his Injury. Melvina has all hers, and injury= names the
		// Injury of who suffers it.
		e := toBrigand2(t, `react Johann to="Brigand #2" for=Melvina`+"\ndamage Johann 12")
		run(t, e, `attack "Brigand #2" Melvina hit=yes dice=2,1 injury=scarred`)
		if got := fighterOf(e, "Johann").Injuries; !reflect.DeepEqual(got, []string{queue.InjuryScarred}) {
			t.Errorf("Johann's Injuries %v, want scarred", got)
		}
		if got := fighterOf(e, "Melvina"); got.Damage != 0 || len(got.Injuries) != 0 {
			t.Errorf("Melvina's fight %+v, want untouched", got)
		}
	})
	t.Run("injury= is the reactor's", func(t *testing.T) {
		// Melvina is Incapacitated, Johann is not: the hit gives no Injury.
		e := toBrigand2(t, "damage Melvina 6\n"+`react Johann to="Brigand #2" for=Melvina`)
		refuseDeclared(t, e, `attack "Brigand #2" Melvina hit=yes dice=2,1 injury=scarred`, "Johann is not Incapacitated, so this attack gives no Injury")
		run(t, e, `attack "Brigand #2" Melvina hit=yes dice=2,1`)
		if got := fighterOf(e, "Melvina"); got.Pending != 0 || len(got.Injuries) != 0 || hpOf(e, "Johann") != 10 {
			t.Errorf("Melvina's fight %+v, Johann %d hit points: want no Injury for her, 2 damage for him", got, hpOf(e, "Johann"))
		}
	})
	t.Run("the odds are the reactor's", func(t *testing.T) {
		// Red decides: Melvina (6 left) falls on a 6 only, Johann (2
		// left) on 2 or more.
		e := toBrigand2(t, "damage Johann 10")
		if o, err := e.Odds(mustParse(t, `odds attack "Brigand #2" Melvina hit=yes`)); err != nil || !near(incapacitates(o), 1.0/6) {
			t.Errorf("the odds on Melvina: %v %+v", err, o)
		}
		run(t, e, `react Johann to="Brigand #2" for=Melvina`)
		if o, err := e.Odds(mustParse(t, `odds attack "Brigand #2" Melvina hit=yes`)); err != nil || !near(incapacitates(o), 5.0/6) {
			t.Errorf("the odds with Johann suffering the damage: %v %+v", err, o)
		}
		run(t, e, `attack "Brigand #2" Melvina hit=yes dice=4,4`)
		if _, ev := attacked(t, e); ev.Odds == nil || !near(incapacitates(*ev.Odds), 5.0/6) {
			t.Errorf("the attack's event records odds %+v", ev.Odds)
		}
	})
	t.Run("a miss moves nothing", func(t *testing.T) {
		e := toBrigand2(t, `react Johann to="Brigand #2" for=Melvina`+"\n"+`attack "Brigand #2" Melvina hit=no`+"\nnext")
		if hpOf(e, "Johann") != 12 || hpOf(e, "Melvina") != 6 {
			t.Errorf("Johann %d, Melvina %d hit points after a miss", hpOf(e, "Johann"), hpOf(e, "Melvina"))
		}
		if got, want := queueOf(e.View()), "Melvina, Pet Bear, Brigand #1, Brigand #2, Johann"; got != want {
			t.Errorf("queue %s, want %s: the Reaction is spent all the same", got, want)
		}
	})
	t.Run("another target", func(t *testing.T) {
		// The reaction is for Melvina: an attack on Pet Bear is the bear's.
		e := toBrigand2(t, `react Johann to="Brigand #2" for=Melvina`+"\n"+`attack "Brigand #2" "Pet Bear" hit=yes dice=3,1`)
		if hpOf(e, "Johann") != 12 || hpOf(e, "Pet Bear") != 12 {
			t.Errorf("Johann %d, Pet Bear %d hit points", hpOf(e, "Johann"), hpOf(e, "Pet Bear"))
		}
	})
	t.Run("the GM's damage stays", func(t *testing.T) {
		e := toBrigand2(t, `react Johann to="Brigand #2" for=Melvina`+"\ndamage Melvina 2")
		if hpOf(e, "Johann") != 12 || hpOf(e, "Melvina") != 4 {
			t.Errorf("Johann %d, Melvina %d hit points", hpOf(e, "Johann"), hpOf(e, "Melvina"))
		}
	})
	t.Run("for this turn only", func(t *testing.T) {
		// Brigand #2's turn ends; next round he attacks Melvina again, and
		// no reaction answers it.
		e := toBrigand2(t, `react Johann to="Brigand #2" for=Melvina`+"\nnext\nnext\nnext\nnext")
		if got := e.View().Current; got != "Brigand #2" {
			t.Fatalf("current %s, want Brigand #2", got)
		}
		run(t, e, `attack "Brigand #2" Melvina hit=yes dice=3,1`)
		if hpOf(e, "Johann") != 12 || hpOf(e, "Melvina") != 3 {
			t.Errorf("Johann %d, Melvina %d hit points", hpOf(e, "Johann"), hpOf(e, "Melvina"))
		}
	})
	t.Run("too late", func(t *testing.T) {
		// Once the attack has hit Melvina, the damage is dealt.
		e := toBrigand2(t, `attack "Brigand #2" Melvina hit=yes dice=6,2`)
		refuseDeclared(t, e, `react Johann to="Brigand #2" for=Melvina`, "Brigand #2's attack has already hit Melvina")
		// Undo, react, and the same dice again.
		run(t, e, "undo\n"+`react Johann to="Brigand #2" for=Melvina`+"\n"+`attack "Brigand #2" Melvina hit=yes dice=6,2`)
		if hpOf(e, "Johann") != 6 || hpOf(e, "Melvina") != 6 {
			t.Errorf("Johann %d, Melvina %d hit points", hpOf(e, "Johann"), hpOf(e, "Melvina"))
		}
	})
	t.Run("one suffers it", func(t *testing.T) {
		e := toBrigand2(t, `react Johann to="Brigand #2" for=Melvina`)
		refuseDeclared(t, e, `react "Pet Bear" to="Brigand #2" for=Melvina`, "Johann already suffers the damage of Brigand #2's attack on Melvina instead")
		run(t, e, `attack "Brigand #2" Melvina hit=yes dice=2,1`)
		refuseDeclared(t, e, `react "Pet Bear" to="Brigand #2" for=Melvina`, "Johann already suffers the damage of Brigand #2's attack on Melvina instead")
	})
	t.Run("a reaction makes no attack", func(t *testing.T) {
		e := toBrigand2(t, `react "Pet Bear" to="Brigand #2"`)
		refuseDeclared(t, e, `react Johann to="Pet Bear" for=Melvina`, "Pet Bear is reacting and makes no attack")
		refuseDeclared(t, e, `react Johann to="Brigand #2" for="Brigand #2"`, "Brigand #2 makes the attack")
	})
	t.Run("a dead reactor", func(t *testing.T) {
		e := toBrigand2(t, `react Johann to="Brigand #2" for=Melvina`+"\ndamage Johann 12\ndamage Johann 1 injury=scarred\ndamage Johann 1 injury=maimed\ndamage Johann 1")
		if !e.State().(*queue.State).Dead("Johann") {
			t.Fatal("Johann is not dead")
		}
		run(t, e, `attack "Brigand #2" Melvina hit=yes dice=3,1`)
		if hpOf(e, "Melvina") != 3 {
			t.Errorf("Melvina has %d hit points, want 6 − 3 = 3", hpOf(e, "Melvina"))
		}
	})
}

// instead plays the damage moved onto a reactor through undo and redo,
// an Injury, and the reactor's removal.
const instead = brigands + `
react Johann to="Brigand #2" for=Melvina note="takes the blow for Melvina"
attack "Brigand #2" Melvina hit=yes dice=6,6
undo
redo
next
attack Melvina "Brigand #1" hit=yes dice=4,5
next
react Johann to="Pet Bear" for=Melvina
damage Johann 6
attack "Pet Bear" Melvina dice=20,6,1
injury Johann scarred
remove Johann
next`

// the moved damage replays from the event, undoes exactly, and
// plays through the conformance checks of every command.
func TestQ3_ReactionTakesTheDamageConforms(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e, instead) // every command is accepted
	if hpOf(e, "Melvina") != 6 {
		t.Errorf("Melvina has %d hit points, want all 6", hpOf(e, "Melvina"))
	}
	rulestest.RunScript(t, newSystem, rulestest.Script{Name: "the damage instead", Text: instead})
}

func mustParse(t *testing.T, line string) fray.Command {
	t.Helper()
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

// near reports whether two probabilities are equal but for rounding.
func near(x, y float64) bool { return math.Abs(x-y) < 1e-12 }

// incapacitates is the odds' chance to Incapacitate, with the special or
// not.
func incapacitates(o fray.Odds) float64 {
	p := 0.0
	for _, b := range o.Bands {
		if strings.HasPrefix(b.Name, queue.BandIncapacitates) {
			p += b.P
		}
	}
	return p
}

// declares reports whether ids holds every one of want.
func declares(ids []fray.CombatantID, want ...fray.CombatantID) bool {
	for _, w := range want {
		found := false
		for _, id := range ids {
			found = found || id == w
		}
		if !found {
			return false
		}
	}
	return true
}

// blowTranscript writes what a table sees of examples/queue-blow.fray:
// each command, its refusal, every die with what it did, the odds, the
// order (with hit points) after show and the history after history.
var blowTranscript = rulestest.Transcript{
	System: newSystem,
	Event: func(w io.Writer, ev fray.Event) error {
		for _, r := range ev.Rolls {
			fmt.Fprintf(w, "  %s rolls %s: %v\n", r.For, r.Expr, r.Dice)
		}
		return nil
	},
	Odds: func(w io.Writer, o fray.Odds) {
		fmt.Fprintf(w, "  %s rolls %s", o.For, o.Expr)
		if o.TargetKind != "" {
			fmt.Fprintf(w, " against %s %d", o.TargetKind, o.Target)
		}
		fmt.Fprintln(w)
		for _, b := range o.Bands {
			fmt.Fprintf(w, "  %-36s %6.3f%%\n", b.Name, 100*b.P)
		}
	},
}

// the seed's "Johann … suffer[s] the damage instead" played
// with hit points (examples/queue-blow.fray), against its golden
// transcript (go test -update rewrites it; check every line against the
// seed), and through the conformance checks of every command.
func TestQ3_ReactionTakesTheDamageExample(t *testing.T) {
	script := mustRead("../../examples/queue-blow.fray")
	blowTranscript.Check(t, filepath.Join("testdata", "queue-blow.golden"), script)
	rulestest.RunScript(t, newSystem, rulestest.Script{Name: "queue-blow", Text: script})
	// Johann suffered all three blows; Melvina none.
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	for _, line := range strings.Split(script, "\n") {
		if cmd, err := engine.ParseCommand(line); err == nil && cmd.Name != "" && !engine.IsQuery(cmd.Name) {
			_, _ = e.Do(cmd) // the script shows a refusal on purpose
		}
	}
	st := e.State().(*queue.State)
	if hpOf(e, "Melvina") != 6 || !st.Incapacitated("Johann") {
		t.Errorf("Melvina has %d hit points, Johann Incapacitated %v: want 6 and true", hpOf(e, "Melvina"), st.Incapacitated("Johann"))
	}
	if got, want := queueOf(e.View()), "Melvina, Pet Bear, Brigand #1, Brigand #2, Johann"; got != want {
		t.Errorf("queue %s, want %s", got, want)
	}
}
