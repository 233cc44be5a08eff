package cinematic_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
	"fray/sheet"
)

// TestSimulator checks the moves, the word for down and the track the
// simulator reads (fray.Simulator).
func TestSimulator(t *testing.T) {
	rulestest.Sim(t, func() fray.System { return cinematic.New() }, rulestest.SimCase{
		Party: "../../examples/cinematic-party.yaml", Foes: "../../examples/cinematic-foes.yaml",
		Setup: "start", Actor: "Rosa", Victim: "Vampire", Down: "damage Vampire 46\ncondition Vampire unconscious"})
}

// TestSimTests checks that a Consciousness test that is due (C-6: at 0
// Life Points or fewer) is the one move open, before anyone's attack.
func TestSimTests(t *testing.T) {
	sys := cinematic.New()
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	for _, line := range []string{"add Ann side=pc strength=2 constitution=2 dexterity=3", "add Bo side=npc strength=2 constitution=2 dexterity=2", "start", "damage Bo 26"} {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Do(cmd); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	ms := sys.SimMoves(e.State(), nil)
	if len(ms) != 1 || ms[0].Kind != fray.SimAnswer || ms[0].Cmd.String() != "test Bo consciousness" {
		t.Fatalf("moves = %v, want test Bo consciousness alone", ms)
	}
	if sys.SimDown(e.State(), e.Encounter().Find("Bo")) {
		t.Error("Bo is down before failing the test")
	}
}

// mobbed returns an engine where Bo and Cy (npc, Kung Fu 1, Claws) and
// Ann (pc: Dexterity 6, one extra action, C-2; Kung Fu 4) have started,
// Bo and Cy first (initiative 7 and 6 against Ann's 4, C-1), and Bo has
// clawed Ann, who met it with her free defence.
func mobbed(t *testing.T) *engine.Engine {
	t.Helper()
	const sheets = `- name: Ann
  side: pc
  stats: {strength: 2, dexterity: 6, constitution: 2, intelligence: 2, perception: 1, willpower: 2}
  skills:
    - {name: Kung Fu, rank: 4}
- name: Bo
  side: npc
  stats: {strength: 2, dexterity: 6, constitution: 2, intelligence: 2, perception: 4, willpower: 2}
  skills:
    - {name: Kung Fu, rank: 1}
  weapons:
    - {name: Claws, rank: 3, damage: slash, skill: Kung Fu}
- name: Cy
  side: npc
  stats: {strength: 2, dexterity: 6, constitution: 2, intelligence: 2, perception: 3, willpower: 2}
  skills:
    - {name: Kung Fu, rank: 1}
  weapons:
    - {name: Claws, rank: 3, damage: slash, skill: Kung Fu}
`
	sys := cinematic.New()
	cs, err := sheet.Parse("mob.yaml", []byte(sheets), sys, fray.SidePC)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	if _, err := e.Join(cs); err != nil {
		t.Fatal(err)
	}
	do(t, e, "start\nattack Bo Ann with=Claws dice=5,5\nnext")
	return e
}

// TestSimGuard checks when a cautious target is asked to answer and the
// odds of its answers, worked out by hand. Bo's claws meet Ann's free
// defence (C-2), which the rules take for every tactic: Bo's attack is
// not made to wait. Cy's then would spend her extra action, so it waits
// (defence=wait), and Ann answers take, dodge or parry. Cy's attack is
// Dexterity 6 + Kung Fu 1 + 4 for Ann outnumbered by 2 (C-6) = 11 + the
// D10; Ann's dodge is Dexterity 6 + Kung Fu 4 − 2 for the extra action
// = 8 + the D10, her parry the same (Kung Fu is her better skill), and
// ties go to the defender (C-4). On a 5, 16: she negates it on 8+, 3 in
// 10, worse than even; on a 1, 12: on 4+, 7 in 10.
func TestSimGuard(t *testing.T) {
	sys := cinematic.New()
	e := mobbed(t)
	cmd, _ := engine.ParseCommand("undo")
	if _, err := e.Do(cmd); err != nil { // back to Bo's turn
		t.Fatal(err)
	}
	if _, err := e.Do(cmd); err != nil { // before Bo's attack
		t.Fatal(err)
	}
	ms := sys.SimMoves(e.State(), nil)
	if ms[0].Cmd.String() != "attack Bo Ann with=Claws" {
		t.Fatalf("first move %s, want Bo's claws on Ann", ms[0].Cmd)
	}
	if w, ok := sys.SimWait(e.State(), ms[0]); ok {
		t.Errorf("%s waits as %s, though Ann's free defence costs nothing", ms[0].Cmd, w.Cmd)
	}
	for _, tt := range []struct {
		face int
		want float64
	}{{5, 0.3}, {1, 0.7}} {
		e := mobbed(t)
		ms := sys.SimMoves(e.State(), nil)
		if ms[0].Cmd.String() != "attack Cy Ann with=Claws" {
			t.Fatalf("first move %s, want Cy's claws on Ann", ms[0].Cmd)
		}
		w, ok := sys.SimWait(e.State(), ms[0])
		if !ok || w.Cmd.String() != "attack Cy Ann defence=wait with=Claws" || ms[0].Cmd.Opts[cinematic.OptDefence] != "" {
			t.Fatalf("SimWait = %s, %v; want the attack with defence=wait, the listed move unchanged", w.Cmd, ok)
		}
		do(t, e, w.Cmd.String()+" dice="+strconv.Itoa(tt.face))
		var words []string
		for _, m := range sys.SimMoves(e.State(), nil) {
			words = append(words, m.Cmd.String())
			p, ok := sys.SimGuard(e.State(), m)
			switch m.Cmd.Name {
			case cinematic.RollTake:
				if ok {
					t.Errorf("face %d: take has odds of negating the hit", tt.face)
				}
			default:
				if !ok || math.Abs(p-tt.want) > 1e-12 {
					t.Errorf("face %d: %s negates %v, %v; want %v", tt.face, m.Cmd, p, ok, tt.want)
				}
			}
		}
		if got := strings.Join(words, "; "); got != "take Ann; dodge Ann; parry Ann" {
			t.Errorf("face %d: answers %q, want take, dodge, parry", tt.face, got)
		}
	}
}
