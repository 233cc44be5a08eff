package cinematic_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
	"fray/sheet"
)

// refusal runs line, which must be refused with a user error that
// declares the combatants it names, and returns the refusal's sentence.
func refusal(t *testing.T, e *engine.Engine, line string) string {
	t.Helper()
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		t.Fatalf("parse %q: %v", line, err)
	}
	st := e.State().Clone()
	_, err = e.Do(cmd)
	fe, ok := err.(*fray.Error)
	if !ok || fe.Code == fray.EINTERNAL {
		t.Fatalf("%s: %v, want a refusal", line, err)
	}
	if err := rulestest.CheckRefusal(e.System(), st, cmd, fe); err != nil {
		t.Error(err)
	}
	return fe.Message
}

// gunslinger returns an encounter of a quick shot (Dexterity 9: three
// extra actions) with a 30-shot Uzi against a tough target, started:
// the Gunslinger's turn.
func gunslinger(t *testing.T) *engine.Engine {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gunslinger.yaml")
	const yaml = `rules: cinematic
characters:
  - name: Gunslinger
    side: pc
    stats: {strength: 2, dexterity: 9, constitution: 2, intelligence: 2, perception: 5, willpower: 2}
    skills:
      - {name: Gun Fu, rank: 3}
    weapons:
      - {name: Uzi, rank: 6, damage: bullet, skill: Gun Fu, clip: 30}
  - name: Target
    side: npc
    stats: {strength: 9, dexterity: 1, constitution: 20, intelligence: 1, perception: 1, willpower: 1}
`
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cs, err := sheet.Load(path, cinematic.New(), fray.SidePC)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, "")
	if _, err := e.Join(cs); err != nil {
		t.Fatal(err)
	}
	do(t, e, "start")
	return e
}

// C-8: the small clip is the round's, not each barrage's. Seed: "You can
// also, regardless of actions per round, empty up to a small clip in the
// 5 second span of a round (6 shots)."
func TestC8_ClipPerRound(t *testing.T) {
	e := gunslinger(t)
	// 1 + 9 + 3 − 6 = 7: a miss; the six shots are fired all the same.
	do(t, e, "attack Gunslinger Target with=Uzi shots=6 defence=none dice=1")
	if msg := refusal(t, e, "attack Gunslinger Target with=Uzi shots=5 defence=none dice=1"); !strings.Contains(msg, "small clip") || !strings.Contains(msg, "no more barrage") {
		t.Errorf("a second barrage in the round: %q", msg)
	}
	do(t, e, "!attack Gunslinger Target with=Uzi shots=1 defence=none dice=1")
	// Ours: an aimed shot is one per action and not a barrage's.
	do(t, e, "attack Gunslinger Target with=Uzi defence=none dice=1")
	do(t, e, "next\nnext")
	// Round 2: the clip is the round's again; a barrage that waits for
	// its answer counts too.
	do(t, e, "attack Gunslinger Target with=Uzi shots=4 defence=wait dice=1\ntake Target")
	if msg := refusal(t, e, "attack Gunslinger Target with=Uzi shots=3 defence=none dice=1"); !strings.Contains(msg, "fired 4 shots") || !strings.Contains(msg, "shots=2 at most") {
		t.Errorf("after a barrage of 4: %q", msg)
	}
	do(t, e, "attack Gunslinger Target with=Uzi shots=2 defence=none dice=1")
	if got := state(e).Chars[0].Fired; got != 6 {
		t.Errorf("fired %d shots in barrages, want 6", got)
	}
}

// C-6: Outnumbered counts everyone attacking the target this round, the
// first attacker's attack included, and the GM may declare them. Seed:
// "attack rolls on the outnumbered character have a +2 per person
// attacking (up to 5 people, or a +10)."
func TestC6_OutnumberedCountsTheEngaged(t *testing.T) {
	script := "add T dexterity=1 strength=9 constitution=30 perception=1\n"
	for _, n := range []string{"A", "B", "C", "D", "E", "F"} {
		script += "add " + n + " dexterity=9 strength=1 constitution=1 perception=9\n"
	}
	e := newEngine(t, script+"order A B C D E F\nstart\nengage T A B C")
	if x := cond(e, "T", cinematic.CondOutnumbered); x == nil || x.Modifiers[0].Value != 6 {
		t.Errorf("declared: %v", x)
	}
	// The first attacker gets the +6 of three.
	if o := odds(t, e, "attack A T with=punch"); !hasMod(o, "outnumbered (3 attackers)", 6) {
		t.Errorf("first attacker: %v", o.Modifiers)
	}
	do(t, e, "attack A T with=punch defence=none dice=1\nnext")
	// B was declared: still three.
	if o := odds(t, e, "attack B T with=punch"); !hasMod(o, "outnumbered (3 attackers)", 6) {
		t.Errorf("second attacker: %v", o.Modifiers)
	}
	do(t, e, "attack B T with=punch defence=none dice=1\nnext\nnext")
	// D was not declared: a fourth, +8.
	if o := odds(t, e, "attack D T with=punch"); !hasMod(o, "outnumbered (4 attackers)", 8) {
		t.Errorf("an undeclared attacker: %v", o.Modifiers)
	}
	// A and B have attacked: with C, D, E and F that is six.
	if msg := refusal(t, e, "engage T C D E F"); !strings.Contains(msg, "6 attacking") {
		t.Errorf("six engaging: %q", msg)
	}
	do(t, e, "!engage T T\n!engage T C C\n!engage Nobody A")
}

// C-6: a GM's own condition named outnumbered is refused, not replaced
// by the automatic one at the next attack. Seed: "When you or an enemy
// are outnumbered, attack rolls on the outnumbered character have a +2
// per person attacking".
func TestC6_OutnumberedNotReplacedSilently(t *testing.T) {
	e := newEngine(t, "add T dexterity=1 strength=1 constitution=1 perception=1\nadd A dexterity=9 strength=1 perception=9\nadd B dexterity=8 strength=1 perception=9\nstart")
	if msg := refusal(t, e, "condition T Outnumbered mod=+4 on=attacked"); !strings.Contains(msg, "engage T") {
		t.Errorf("condition outnumbered: %q", msg)
	}
	do(t, e, "condition T surrounded mod=+2 on=attacked\nattack A T with=punch defence=none dice=1\nnext\nattack B T with=punch defence=none dice=1")
	if cond(e, "T", "surrounded") == nil || cond(e, "T", cinematic.CondOutnumbered) == nil {
		t.Errorf("conditions: %v", state(e).Find("T").Conditions)
	}
}
