package vv_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray/rules/vv"
)

// tiedSetup is Ann and Bo, both Agility 20 and 5 Hit Points, on phases 25
// and 10 (Ann listed first: Move Rate 40 against 30), and Cy, Agility 10
// and 9 Hit Points, on 20 and 5.
const tiedSetup = `add Ann agility=20 move=40 level=1 hits=1 hp=5 attack=Punch:1d6:kinetic:12:close
add Bo agility=20 move=30 level=1 hits=1 hp=5 attack=Punch:1d6:kinetic:12:close
add Cy agility=10 level=1 hits=1 hp=9 attack=Punch:1d6:kinetic:12:close
initiative Ann 5
initiative Bo 5
initiative Cy 10`

// V-2 with the house rule: "If that, too, is the same, the characters are
// considered to be acting simultaneously. If a clear 'first' must be
// determined, Move Rate is compared next." Acting simultaneously, each
// tied character takes their action, even one an earlier-listed blow of
// the same phase would have knocked out; the blows land together when the
// last of them is done, before anyone else acts.
func TestV2_SimultaneousActions(t *testing.T) {
	for _, tt := range []struct {
		name   string
		script string
		// hits is Ann's, Bo's and Cy's Hit Points after each line.
		hits [][3]int
		// simultaneous is each attack's AttackData.Simultaneous.
		simultaneous []bool
	}{{
		// Ann knocks Bo out, yet Bo strikes back: both land at Bo's next.
		name:         "each knocks the other out",
		script:       "attack Ann Bo with=Punch knockback=no dice=1,6\nnext\nattack Bo Ann with=Punch knockback=no dice=1,6\nnext",
		hits:         [][3]int{{5, 5, 9}, {5, 5, 9}, {5, 5, 9}, {-1, -1, 9}},
		simultaneous: []bool{true, true},
	}, {
		// Both strike Cy, who acts alone after them: Cy stands until the
		// pair is done (Bo's attack is a normal one, not on a helpless
		// target), then is at −3 on his own phase.
		name:         "both strike a third",
		script:       "attack Ann Cy with=Punch knockback=no dice=1,6\nnext\nattack Bo Cy with=Punch knockback=no dice=1,6\nnext",
		hits:         [][3]int{{5, 5, 9}, {5, 5, 9}, {5, 5, 9}, {5, 5, -3}},
		simultaneous: []bool{true, true},
	}, {
		// A blow held lands even when its striker's partner holds their
		// action instead of acting.
		name:         "the partner holds",
		script:       "attack Ann Bo with=Punch knockback=no dice=1,3\nnext\nhold",
		hits:         [][3]int{{5, 5, 9}, {5, 5, 9}, {5, 2, 9}},
		simultaneous: []bool{true},
	}, {
		// Cy acts alone: his blow lands at once.
		name:         "alone on the phase",
		script:       "next\nnext\nattack Cy Ann with=Punch knockback=no dice=1,4",
		hits:         [][3]int{{5, 5, 9}, {5, 5, 9}, {1, 5, 9}},
		simultaneous: []bool{false},
	}, {
		// As written (ties=raw) nobody acts simultaneously: Ann, first by
		// the toss, knocks Bo out at once, and Bo cannot strike back.
		name:         "as written",
		script:       "attack Ann Bo with=Punch knockback=no dice=1,6\nnext\n!attack Bo Ann with=Punch knockback=no dice=1,6",
		hits:         [][3]int{{5, -1, 9}, {5, -1, 9}, {5, -1, 9}},
		simultaneous: []bool{false},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			setup := tiedSetup + "\nstart"
			if tt.name == "as written" {
				// The toss's 1 is Ann's (faces in the order added).
				setup = "set ties=raw\n" + tiedSetup + "\nstart dice=1"
			}
			e, _ := newEngine(t, setup)
			if tt.name == "as written" && st(e).Current() != "Ann" {
				t.Fatalf("as written, %s acts first; want Ann", st(e).Current())
			}
			for i, line := range strings.Split(tt.script, "\n") {
				do(t, e, line)
				got := [3]int{hitPoints(e, "Ann"), hitPoints(e, "Bo"), hitPoints(e, "Cy")}
				if got != tt.hits[i] {
					t.Errorf("after %q: Hit Points %v, want %v", line, got, tt.hits[i])
				}
			}
			var got []bool
			for _, ev := range e.Log() {
				if ev.Type == vv.EventAttacked {
					var d vv.AttackData
					if err := ev.Decode(&d); err != nil {
						t.Fatal(err)
					}
					got = append(got, d.Simultaneous)
				}
			}
			if diff := cmp.Diff(tt.simultaneous, got); diff != "" {
				t.Errorf("simultaneous attacks (-want +got):\n%s", diff)
			}
		})
	}
}

// V-2: the simultaneous blows are shown while they wait (on the striker's
// slot and in the attack's words) and in the turn's history when they
// land, naming the striker.
func TestV2_SimultaneousShown(t *testing.T) {
	e, _ := newEngine(t, tiedSetup+"\nstart\nattack Ann Bo with=Punch knockback=no dice=1,6")
	log := e.Log()
	rolls := log[len(log)-1].Rolls
	if words := rolls[len(rolls)-1].For; !strings.Contains(words, "it lands when the characters acting simultaneously are done (V-2)") {
		t.Errorf("the attack's words %q do not say the blow waits", words)
	}
	want := "simultaneous, blow on Bo lands when the simultaneous actions are done"
	if got := e.View().Order[0]; got.Name != "Ann" || got.Note != want {
		t.Errorf("Ann's slot: %s %q, want Ann %q", got.Name, got.Note, want)
	}
	do(t, e, "next\nattack Bo Ann with=Punch knockback=no dice=1,2\nnext")
	h := e.View().History
	turns := h[len(h)-1]
	wantTurns := []string{
		"Ann (25)", "Bo (25)",
		"Bo (6 Hit Points from Ann's attack on phase 25, landed as the simultaneous actions ended)",
		"Ann (2 Hit Points from Bo's attack on phase 25, landed as the simultaneous actions ended)",
	}
	if diff := cmp.Diff(wantTurns, turns.Turns); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Bo", "Ann"}, turns.Who[2]); diff != "" {
		t.Errorf("who the landing names (-want +got):\n%s", diff)
	}
	for _, s := range e.View().Order {
		if strings.Contains(s.Note, "blow on") {
			t.Errorf("after the pair: %s's slot still says %q", s.Name, s.Note)
		}
	}
}

// V-2 as written (ties=raw): "Initiative ties are always won by the the
// character with the highest innate Agility score, or by the winner of a
// toss of the dice." Move Rate breaks no tie and nobody acts
// simultaneously; the GM's order still names a first.
func TestV2_TiesAsWritten(t *testing.T) {
	for _, tt := range []struct {
		script string
		want   map[string]float64
	}{
		// A moves faster, which counts for nothing: a > b 45 of 100, and
		// the toss halves the 10 of a = b.
		{"set ties=raw\nadd A agility=10 move=30\nadd B agility=10 move=20", map[string]float64{"A first": 0.5, "B first": 0.5}},
		// Agility still goes first, whatever B's Move Rate: B needs
		// b ≥ a + 2, 36 of 100.
		{"set ties=raw\nadd A agility=11 move=20\nadd B agility=10 move=30", map[string]float64{"A first": 0.64, "B first": 0.36}},
		// The GM puts B first on a tie.
		{"set ties=raw\nadd A agility=10 move=30\nadd B agility=10 move=20\norder B A", map[string]float64{"A first": 0.45, "B first": 0.55}},
	} {
		e, _ := newEngine(t, tt.script)
		wantBands(t, tt.script, firstOdds(t, e, "start"), tt.want)
		wantBands(t, tt.script+" (enumerated)", firstByEnumeration(t, e.State()), tt.want)
	}
	// The toss is rolled for a tie of Agility alone, and nobody is shown
	// acting simultaneously.
	e, _ := newEngine(t, "set ties=raw\nadd A agility=10 move=30\nadd B agility=10 move=20\ninitiative A 5\ninitiative B 5")
	wantBands(t, "the toss", tossOutcomes(t, e.State()), map[string]float64{"A first": 0.5, "B first": 0.5})
	do(t, e, "start dice=2")
	var got []string
	for _, s := range e.View().Order {
		got = append(got, s.Name+" "+s.Note)
	}
	if diff := cmp.Diff([]string{"B ", "A "}, got); diff != "" {
		t.Errorf("order as written (-want +got):\n%s", diff)
	}
}

// V-3: "If a character has as action waiting to be performed, he/she may
// take it at any later point in the turn, even if interrupting another
// character's action". A point where nobody else acts is one too: with
// phase=N the held action is used on a phase the count passes over,
// between the last phase counted and the next, whose owner has not begun.
func TestV3_HeldOnEmptyPhase(t *testing.T) {
	// X 25 and 10, H 20 and 5 (40 Power). H holds on 20; the count goes
	// to X's 10.
	e, _ := newEngine(t, `add X agility=20
add H agility=10 power=40
initiative X 5
initiative H 10
start
next
hold`)
	if st(e).Current() != "X" || st(e).Phase() != 10 {
		t.Fatalf("%s on phase %d, want X on 10", st(e).Current(), st(e).Phase())
	}
	do(t, e, `!interrupt H phase=22
!interrupt H phase=20
!interrupt H phase=8
interrupt H phase=14`)
	if s := st(e); s.Current() != "H" || s.Phase() != 14 {
		t.Fatalf("%s on phase %d, want H on 14", s.Current(), s.Phase())
	}
	if got := order(e)[2]; got != "14 H [current]" {
		t.Errorf("the interrupter's slot: %q, want %q", got, "14 H [current]")
	}
	do(t, e, "act\nnext")
	if s := st(e); s.Current() != "X" || s.Phase() != 10 {
		t.Fatalf("after the held action: %s on phase %d, want X on 10", s.Current(), s.Phase())
	}
	// H's own phase 5 is his second action this turn: 2 Power.
	do(t, e, "next\nact\nnext")
	h := e.View().History
	want := []string{"X (25, declined)", "H (20, held)", "H (14, held action from phase 20)", "X (10, declined)", "H (5, 2 Power)"}
	if diff := cmp.Diff(want, h[0].Turns); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}

	// Once the one acting has begun their phase, the phases before it
	// have passed.
	e, _ = newEngine(t, `add X agility=20 move=30
add H agility=10
initiative X 5
initiative H 10
start
next
hold
move 5`)
	refuse(t, e, "interrupt H phase=14", "X has begun phase 10; phase 14, before it, has passed")
	// Before the turn's first phase nothing is counted: H's action held
	// on 5 is carried into turn 2 (house rule), which begins on 25.
	e, _ = newEngine(t, `add X agility=20
add H agility=10
initiative X 5
initiative H 10
start
next
next
next
initiative X 5
initiative H 1
hold`)
	if s := st(e); s.Round != 2 || s.Holding("H") != 1 {
		t.Fatalf("turn %d, H holds %d; want turn 2 and 1", s.Round, s.Holding("H"))
	}
	refuse(t, e, "interrupt H phase=28", "Phase 28 is not counted in turn 2, which begins on phase 25")
}

// V-2: blows held for a simultaneous group land as soon as the group is
// gone, even while a held action interrupts; a blow on someone removed is
// dropped.
func TestV2_SimultaneousRemoved(t *testing.T) {
	e, _ := newEngine(t, "add H agility=30\ninitiative H 1\n"+tiedSetup+`
start
hold
attack Ann Cy with=Punch knockback=no dice=1,4
interrupt H
remove Ann`)
	if got := hitPoints(e, "Cy"); got != 9 {
		t.Errorf("with Bo still to act, Cy has %d Hit Points, want 9", got)
	}
	do(t, e, "remove Bo")
	if got := hitPoints(e, "Cy"); got != 5 {
		t.Errorf("with the pair gone, Cy has %d Hit Points, want 5", got)
	}
	e, _ = newEngine(t, tiedSetup+"\nstart\nattack Ann Bo with=Punch knockback=no dice=1,4\nremove Bo\nnext")
	if got := st(e).Pending; got != nil {
		t.Errorf("after its target was removed, pending %v", got)
	}
}
