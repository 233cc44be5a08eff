package cinematic_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

// do runs script, one command per line; a line starting with "!" must be
// refused with a user error that changes nothing.
func do(t *testing.T, e *engine.Engine, script string) {
	t.Helper()
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		refuse := strings.HasPrefix(line, "!")
		cmd, err := engine.ParseCommand(strings.TrimPrefix(line, "!"))
		if err != nil {
			t.Fatalf("parse %q: %v", line, err)
		}
		if cmd.Name == "" {
			continue
		}
		before := e.State().Clone()
		_, err = e.Do(cmd)
		switch {
		case refuse && err == nil:
			t.Fatalf("%s: accepted, want a refusal", line)
		case refuse && fray.ErrorCode(err) == fray.EINTERNAL:
			t.Fatalf("%s: internal error %v", line, err)
		case refuse:
			if diff := cmp.Diff(before, e.State()); diff != "" {
				t.Fatalf("%s: refused but changed the state:\n%s", line, diff)
			}
		case err != nil:
			t.Fatalf("%s: %v", line, err)
		}
		if err := e.System().Check(e.State()); err != nil {
			t.Fatalf("after %s: %v", line, err)
		}
	}
}

func newEngine(t *testing.T, script string) *engine.Engine {
	t.Helper()
	e := engine.New(cinematic.New(), rand.New(rand.NewPCG(1, 2)))
	do(t, e, script)
	return e
}

func state(e *engine.Engine) *cinematic.State { return e.State().(*cinematic.State) }

// C-2: extra actions by Dexterity.
func TestExtraActions(t *testing.T) {
	want := map[int]int{0: 0, 1: 0, 4: 0, 5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3, 11: 4, 12: 4, 13: 5, 14: 5, 15: 6, 16: 6, 30: 6}
	for dex, n := range want {
		if got := cinematic.ExtraActions(dex); got != n {
			t.Errorf("ExtraActions(%d) = %d, want %d", dex, got, n)
		}
	}
}

// C-1: initiative = ⌊Dexterity × 0.5 + Perception + bonuses⌋, high to low;
// ties to the higher Dexterity, then the GM's order.
func TestInitiative(t *testing.T) {
	e := newEngine(t, `add A dexterity=5 perception=3
add B dexterity=4 perception=3 bonus=1
add C dexterity=3 perception=4
add D dexterity=3 perception=4
add E dexterity=9 perception=1
order D C
start`)
	s := state(e)
	// A ⌊2.5+3⌋=5, B ⌊2+3+1⌋=6, C ⌊1.5+4⌋=5, D 5, E ⌊4.5+1⌋=5.
	for name, want := range map[string]int{"A": 5, "B": 6, "C": 5, "D": 5, "E": 5} {
		if got := s.Initiative(name); got != want {
			t.Errorf("initiative of %s = %d, want %d", name, got, want)
		}
	}
	var got []string
	for _, sl := range e.View().Order {
		got = append(got, sl.Name)
	}
	// Among the 5s: E (Dexterity 9), A (5), then D and C (3) in the GM's order.
	if diff := cmp.Diff([]string{"B", "E", "A", "D", "C"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func modifiers(e *engine.Engine, typ string) []int {
	var out []int
	for _, ev := range e.Log() {
		if ev.Type == typ {
			var d cinematic.ActionData
			if err := ev.Decode(&d); err == nil {
				out = append(out, d.Modifier)
			}
		}
	}
	return out
}

// C-2: one attack and one defence free, then each extra action at a
// cumulative −2, shared between attacks and defences, for one round.
func TestActionBudget(t *testing.T) {
	e := newEngine(t, `add Fast dexterity=9 perception=5
add Slow dexterity=4 perception=1
start
attack Slow
attack Slow
defend Fast
defend Fast
act
!attack
!defend Fast
defend Slow
!defend Slow
!attack Fast`)
	if diff := cmp.Diff([]int{0, -2, -6}, modifiers(e, cinematic.EventAttack)); diff != "" {
		t.Errorf("attack modifiers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0, -4, 0}, modifiers(e, cinematic.EventDefence)); diff != "" {
		t.Errorf("defence modifiers (-want +got):\n%s", diff)
	}
	do(t, e, "next\nattack Fast\nnext")
	// Round 2: the budget is whole again.
	if got := state(e).Budget("Fast"); got != (cinematic.Budget{Attack: true, Defence: true, Extras: 3, Next: -2}) {
		t.Errorf("round 2 budget %+v", got)
	}
}

// C-7: Full Defence: one extra defence at no penalty, +3 to all defence, no
// attacks. Full Offence: +2 to all attacks, no defence. Declared at the top
// of the round, for that round.
func TestFullDefenceAndOffence(t *testing.T) {
	e := newEngine(t, `add Guard dexterity=5 perception=5
add Brute dexterity=5 perception=1
full Guard defence
full Brute offence
start
!attack
defend Guard
defend Guard
defend Guard
!defend Guard
next
!full Guard none
attack Guard
attack Guard
!attack Guard
!defend Brute`)
	if diff := cmp.Diff([]int{3, 3, 1}, modifiers(e, cinematic.EventDefence)); diff != "" {
		t.Errorf("Full Defence modifiers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2, 0}, modifiers(e, cinematic.EventAttack)); diff != "" {
		t.Errorf("Full Offence modifiers (-want +got):\n%s", diff)
	}
	do(t, e, "next\nfull Brute defence\nattack Brute")
	if got := state(e).Budget("Guard"); !got.Defence || got.Bonus {
		t.Errorf("round 2: Guard's budget %+v, want the usual one (stances last one round)", got)
	}
}

func TestRefusals(t *testing.T) {
	newEngine(t, `!start
!attack
add A dexterity=5 perception=2
!add B dexterity=x
!initiative A 3
!act
!attack
!full A sideways
!full Nobody defence
!defend A
start
!attack A
!defend A against=A
!defend Nobody
!next Nobody
!order A A`)
}

var examples = []string{"cinematic-crypt"}

func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", name+".fray"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// transcript writes what a table sees: each command, each refusal, each
// attack and defence with its modifier, and the view wherever the script
// says show or history. The events say who acts by id; the transcript
// says their name, from the engine Setup hands it.
func transcript() rulestest.Transcript {
	var e *engine.Engine
	return rulestest.Transcript{
		System: func() fray.System { return cinematic.New() },
		Setup:  func(_ *testing.T, x *engine.Engine) { e = x },
		Event: func(w io.Writer, ev fray.Event) error {
			if ev.Type != cinematic.EventAttack && ev.Type != cinematic.EventDefence {
				return nil
			}
			var d cinematic.ActionData
			if err := ev.Decode(&d); err != nil {
				return err
			}
			fmt.Fprintf(w, "  %s: %s %s, modifier %+d\n", ev.Type, state(e).NameOf(d.Who), d.Kind, d.Modifier)
			return nil
		},
	}
}

// TestExamples runs the example scripts against their golden transcripts
// (go test -update rewrites them; check every line against the rules).
func TestExamples(t *testing.T) {
	for _, name := range examples {
		t.Run(name, func(t *testing.T) {
			transcript().Check(t, filepath.Join("testdata", name+".golden"), readExample(t, name))
		})
	}
}
