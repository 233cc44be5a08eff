package bpb_test

import (
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
)

const four = `add Blueshift side=pc
add Ganyeka
add Monolith side=pc
add "Ganyeka's henchmen" kind=group
order Blueshift Ganyeka Monolith "Ganyeka's henchmen"
start`

// The seed's block and dodge examples (seed 000, "Blocking" and
// "Dodging"): an extreme success revises the order so that the attacker
// acts after the defender from the next round. Here the GM orders it
// directly; TestB9_ExtremeBlockReorders gets it from the dice.
func TestSeedReorderExamples(t *testing.T) {
	e := newEngine()
	run(t, e, four+`
next Blueshift
# Ganyeka attacks Monolith, who forces his action to block: extreme success.
force Monolith note="blocks attack by Ganyeka"
reorder Ganyeka after=Monolith
next Ganyeka
next "Ganyeka's henchmen"
# Round 2
next Blueshift
next Monolith
next Ganyeka
next "Ganyeka's henchmen"
# Round 3: Blueshift attacks Ganyeka, who dodges with an extreme success.
# The seed shows the dodge in Ganyeka's own place, after Monolith, so the
# GM notes it on Ganyeka's turn.
next Blueshift
next Monolith
next Ganyeka note="dodges an attack by Blueshift"
reorder Blueshift after=Ganyeka
next "Ganyeka's henchmen"
# Round 4
next Monolith
next Ganyeka
next Blueshift
next "Ganyeka's henchmen"`)
	want := []string{
		"Round 1: Blueshift, Ganyeka, Monolith (blocks attack by Ganyeka), Ganyeka's henchmen",
		"Round 2: Blueshift, Monolith, Ganyeka, Ganyeka's henchmen",
		"Round 3: Blueshift, Monolith, Ganyeka (dodges an attack by Blueshift), Ganyeka's henchmen",
		"Round 4: Monolith, Ganyeka, Blueshift, Ganyeka's henchmen",
		"Round 5: Monolith",
	}
	if got := history(e.View()); !reflect.DeepEqual(got, want) {
		t.Errorf("history:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// Refusals name what is wrong and change nothing.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name, setup, cmd, want string
	}{
		{"out of turn", "", "next Ganyeka", "It is Blueshift's turn, not Ganyeka's"},
		{"delay out of turn", "", "delay Monolith", "It is Blueshift's turn, not Monolith's"},
		{"unknown name", "", "force Gandalf", `no combatant named "Gandalf"`},
		{"second force", "next\nforce Monolith", "force Monolith", "already forced an action in round 1"},
		{"force in own turn", "", "force Blueshift", "own turn"},
		{"interrupt with nothing held", "", "interrupt Monolith", "holds no delayed turn"},
		{"interrupt with two names", "delay", "interrupt Blueshift Monolith", "Usage: interrupt NAME [before=NAME]"},
		{"interrupt a later turn", "delay", `interrupt Blueshift before=Monolith`, "pre-empts the turn about to be taken, which is Ganyeka's"},
		{"unknown key", "", "next speed=3", "does not know the key speed="},
		{"unknown command", "", "act major", `has no command "act"`},
		{"reorder next to self", "", "reorder Ganyeka after=Ganyeka", "next to themself"},
		{"reorder without place", "", "reorder Ganyeka", "Usage: reorder NAME after=NAME"},
		{"aware twice", "", "aware Monolith", "already aware"},
		{"start twice", "", "start", "already started"},
		{"settings fixed", "", "set order=rolled", "fixed once the encounter has started"},
		{"delayed turn delayed", "delay\nnext\ninterrupt Blueshift", "delay", "already taking a delayed turn"},
		{"initiative after start", "", "initiative Ganyeka 6,3", "already started"},
		{"lapsed delay", "delay\nnext\nnext\nnext\nnext", "interrupt Blueshift", "holds no delayed turn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine()
			run(t, e, four+"\n"+tt.setup)
			before := e.State().Clone()
			n := len(e.Log())
			cmd, err := engine.ParseCommand(tt.cmd)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Do(cmd)
			if err == nil || !strings.Contains(fray.ErrorMessage(err), tt.want) {
				t.Fatalf("%s: %v, want an error containing %q", tt.cmd, err, tt.want)
			}
			if len(e.Log()) != n || !reflect.DeepEqual(before, e.State()) {
				t.Errorf("the refusal changed the encounter")
			}
		})
	}
}

// markers returns the view's order as "Name[marker,…]" words.
func markers(v fray.View) string {
	var out []string
	for _, s := range v.Order {
		out = append(out, s.Name+"["+strings.Join(s.Markers, ",")+"]")
	}
	return strings.Join(out, " ")
}

func names(slots []fray.Slot) string {
	var out []string
	for _, s := range slots {
		out = append(out, s.String())
	}
	return strings.Join(out, ", ")
}

func TestViewMarkers(t *testing.T) {
	e := newEngine()
	run(t, e, four+"\nadd Rubble kind=environment\ndelay\nnext")
	if got, want := markers(e.View()), "Blueshift[delayed] Ganyeka[acted] Monolith[current] Ganyeka's henchmen[] Rubble[environment]"; got != want {
		t.Errorf("round 1:\n got %s\nwant %s", got, want)
	}
	run(t, e, "interrupt Blueshift\nforce Ganyeka")
	if got, want := markers(e.View()), "Blueshift[delayed] Ganyeka[acted] Blueshift[delayed,current] Ganyeka[forced,acted] Monolith[] Ganyeka's henchmen[] Rubble[environment]"; got != want {
		t.Errorf("after the interrupt and the force:\n got %s\nwant %s", got, want)
	}
	if got, want := names(e.View().Next), "Blueshift, Ganyeka (lost), Monolith, Ganyeka's henchmen, Rubble (environment)"; got != want {
		t.Errorf("next round:\n got %s\nwant %s", got, want)
	}
	run(t, e, "next\nnext\nnext\nnext")
	v := e.View()
	if got, want := markers(v), "Blueshift[current] Ganyeka[lost] Monolith[] Ganyeka's henchmen[] Rubble[environment]"; got != want {
		t.Errorf("round 2:\n got %s\nwant %s", got, want)
	}
	if got, want := v.History[0].String(), "Round 1: Ganyeka, Blueshift (delayed), Ganyeka (forced from round 2), Monolith, Ganyeka's henchmen, Rubble"; got != want {
		t.Errorf("history:\n got %s\nwant %s", got, want)
	}
}

// B-3: an unaware combatant has no turn until aware; joining places them
// where the GM says (default last among the characters), this round if
// that place is still to come. B-5: the environment always acts last.
func TestAwarenessAndEnvironment(t *testing.T) {
	e := newEngine()
	run(t, e, `add Rubble kind=environment
add Hero side=pc
add Thug aware=no
add Boss aware=no
start`)
	if got, want := names(e.View().Order), "Hero (current), Rubble (environment)"; got != want {
		t.Errorf("start: %s, want %s", got, want)
	}
	run(t, e, "aware Thug")
	if got, want := names(e.View().Order), "Hero (current), Thug, Rubble (environment)"; got != want {
		t.Errorf("Thug aware: %s, want %s", got, want)
	}
	run(t, e, "next\nnext\naware Boss before=Hero")
	// Boss's place (before Hero) has passed this round: he acts from the next.
	if got, want := names(e.View().Order), "Hero (acted), Thug (acted), Rubble (current, environment)"; got != want {
		t.Errorf("Boss aware: %s, want %s", got, want)
	}
	run(t, e, "next")
	if got, want := history(e.View()), []string{"Round 1: Hero, Thug, Rubble", "Round 2: Boss"}; !reflect.DeepEqual(got, want) {
		t.Errorf("history %q, want %q", got, want)
	}
}

// B-4: the rolled order, 2d6 + Perception + Super-speed; ties go to the
// higher Perception, then to PCs, then to the GM's choice (the order
// command before the start).
func TestRolledOrder(t *testing.T) {
	e := newEngine()
	run(t, e, `add Ann side=pc perception=3
add Bob perception=5
add Cat side=pc perception=3 superspeed=1
add Dan perception=3
add Eve perception=1 superspeed=4
set order=rolled
order Cat Ann
initiative Ann 6,3
initiative Bob 4,3
initiative Cat 5,3
initiative Dan roll=9
initiative Eve 1,1
start`)
	// Ann 9+3 = 12, Bob 7+5 = 12, Cat 8+3+1 = 12, Dan 9+3 = 12, Eve 2+1+4 = 7.
	if got, want := names(e.View().Order), "Bob (current), Cat, Ann, Dan, Eve"; got != want {
		t.Errorf("rolled order %s, want %s", got, want)
	}
}

// B-6: a delayed turn may be used in a later round, before its owner's
// next regular turn comes; the sequence then resumes.
func TestDelayAcrossRounds(t *testing.T) {
	e := newEngine()
	run(t, e, `add A side=pc
add B
add C
start
next
delay
next
interrupt B`)
	run(t, e, "next\nnext\nnext\nnext")
	if got, want := history(e.View()), []string{"Round 1: A, C", "Round 2: B (delayed from round 1), A, B, C", "Round 3: A"}; !reflect.DeepEqual(got, want) {
		t.Errorf("history %q, want %q", got, want)
	}
}

// B-7: a force spends a held delayed turn first, then this round's turn
// still to come, then the next round's.
func TestForceCosts(t *testing.T) {
	e := newEngine()
	run(t, e, "add A side=pc\nadd B\nadd C\nstart\ndelay\nforce A\nforce C\nnext")
	v := e.View()
	if got, want := history(v), []string{"Round 1: B, A (forced), C (forced)", "Round 2: A"}; !reflect.DeepEqual(got, want) {
		t.Errorf("history %q, want %q", got, want)
	}
}

func TestRemove(t *testing.T) {
	e := newEngine()
	run(t, e, four+"\nnext\nremove Ganyeka")
	v := e.View()
	if v.Current != "Monolith" {
		t.Errorf("after removing the current actor, current is %q", v.Current)
	}
	if got, want := v.History[0].String(), "Round 1: Blueshift, Ganyeka, Monolith"; got != want {
		t.Errorf("history %s, want %s", got, want)
	}
	run(t, e, "remove Blueshift\nremove Monolith\nremove \"Ganyeka's henchmen\"")
	if v := e.View(); v.Current != "" {
		t.Errorf("with nobody left, current is %q", v.Current)
	}
	cmd, _ := engine.ParseCommand("next")
	if _, err := e.Do(cmd); err == nil || !strings.Contains(err.Error(), "Nobody has a turn") {
		t.Errorf("next with nobody: %v", err)
	}
	run(t, e, "add Zed side=pc")
	if v := e.View(); v.Current != "Zed" {
		t.Errorf("a newcomer to an empty round should act; current is %q", v.Current)
	}
}

// Found by the random runs: a newcomer to a round where nobody can act
// acts at once, and a delayed turn may pre-empt another delayed turn,
// which resumes after it.
func TestStalledRoundAndNestedInterrupts(t *testing.T) {
	e := newEngine()
	run(t, e, "add A side=pc\nstart\nnext\nremove A\nadd Rock kind=environment\nremove Rock\nadd B")
	if got := e.View().Current; got != "B" {
		t.Errorf("after a stall, current is %q, want B", got)
	}
	e = newEngine()
	run(t, e, "add A side=pc\nadd B\nadd C\nstart\ndelay\ndelay\ninterrupt A\ninterrupt B\nforce C\nnext\nnext")
	// C's forced action spends C's turn later in round 1, so it is listed
	// in that turn's place (seed 000's dodge example, round 3).
	if got, want := history(e.View()), []string{"Round 1: B (delayed), A (delayed), C (forced)", "Round 2: A"}; !reflect.DeepEqual(got, want) {
		t.Errorf("history %q, want %q", got, want)
	}
}
