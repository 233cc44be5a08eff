package vv_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/vv"
)

// do runs script, one command per line; a line starting with "!" must be
// refused with an EINVALID error that changes nothing.
func do(t *testing.T, e *engine.Engine, script string) {
	t.Helper()
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		refuse := strings.HasPrefix(line, "!")
		line = strings.TrimPrefix(line, "!")
		cmd, err := engine.ParseCommand(line)
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
		case refuse:
			if c := fray.ErrorCode(err); c == fray.EINTERNAL {
				t.Fatalf("%s: internal error %v, want a refusal", line, err)
			}
			if diff := cmp.Diff(before, e.State()); diff != "" {
				t.Fatalf("%s: refused but changed the state (-before +after):\n%s", line, diff)
			}
		case err != nil:
			t.Fatalf("%s: %v", line, err)
		}
		if err := e.System().Check(e.State()); err != nil {
			t.Fatalf("after %s: %v", line, err)
		}
	}
}

func newEngine(t *testing.T, script string) (*engine.Engine, *vv.State) {
	t.Helper()
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	do(t, e, script)
	return e, e.State().(*vv.State)
}

func st(e *engine.Engine) *vv.State { return e.State().(*vv.State) }

// order lists the turn's slots as "phase name [markers]".
func order(e *engine.Engine) []string {
	var out []string
	for _, s := range e.View().Order {
		w := s.Name
		if s.Phase > 0 {
			w = strconv.Itoa(s.Phase) + " " + w
		}
		if len(s.Markers) > 0 {
			w += " [" + strings.Join(s.Markers, ",") + "]"
		}
		out = append(out, w)
	}
	return out
}

func history(e *engine.Engine) []string {
	var out []string
	for _, h := range e.View().History {
		out = append(out, h.String())
	}
	return out
}

func TestPhasesEvery15(t *testing.T) {
	tests := []struct {
		agility, die int
		want         []int
	}{
		{26, 10, []int{36, 21, 6}}, // the seed's 36
		{24, 10, []int{34, 19, 4}}, // Jack B. Nimble's 34
		{20, 10, []int{30, 15}},    // 15 is above 0; 0 is not a phase
		{5, 10, []int{15}},
		{0, 1, []int{1}},
		{-5, 3, nil}, // a total below 1 gives no phase
	}
	for _, tt := range tests {
		e, _ := newEngine(t, "add A agility="+strconv.Itoa(tt.agility)+"\ninitiative A "+strconv.Itoa(tt.die)+"\nstart")
		if diff := cmp.Diff(tt.want, st(e).Phases("A")); diff != "" {
			t.Errorf("agility %d, die %d: phases (-want +got):\n%s", tt.agility, tt.die, diff)
		}
	}
}

// V-1: initiative 36 acts on 36, 21 and 6; each action after the first
// costs 2 Power, and the player may decline it.
func TestInitiative36(t *testing.T) {
	e, _ := newEngine(t, `add Swift agility=26 power=3
add Slow agility=10
initiative Swift 10
initiative Slow 5
start`)
	want := []string{"36 Swift [current]", "21 Swift", "15 Slow", "6 Swift"}
	if diff := cmp.Diff(want, order(e)); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
	do(t, e, `act
!act
next
act Swift
next
act
next`)
	if got := st(e).Power("Swift"); got != 1 {
		t.Errorf("Power after two actions = %d, want 3 − 2 = 1", got)
	}
	if got := st(e).Current(); got != "Swift" || st(e).Phase() != 6 {
		t.Fatalf("current %s on %d, want Swift on 6", got, st(e).Phase())
	}
	do(t, e, `!act
decline`)
	want = []string{"Round 1: Swift (36), Swift (21, 2 Power), Slow (15), Swift (6, declined)"}
	if diff := cmp.Diff(want, history(e)[:1]); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	if got := st(e).Power("Swift"); got != 1 {
		t.Errorf("Power after declining = %d, want 1", got)
	}
	if st(e).Round != 2 {
		t.Errorf("turn %d after the last phase, want 2 (initiative rerolled)", st(e).Round)
	}
}

// V-6: Jack B. Nimble, Move Rate 90", initiative 34: actions on 34, 19 and
// 4, 30" each; he moves 10, may then move up to 50 and moves 10, then up
// to 60 (not 70).
func TestJackBNimble(t *testing.T) {
	e, _ := newEngine(t, `add "Jack B. Nimble" agility=24 move=90
initiative "Jack B. Nimble" 10
start`)
	s := st(e)
	if diff := cmp.Diff([]int{34, 19, 4}, s.Phases("Jack B. Nimble")); diff != "" {
		t.Fatalf("phases (-want +got):\n%s", diff)
	}
	steps := []struct {
		phase, left int
		script      string
	}{
		{34, 30, "!move 31\nmove 10\nnext"},
		{19, 50, "!move 51\nmove 10\nnext"},
		{4, 60, "!move 61\nmove 60\n!move 1"},
	}
	for _, step := range steps {
		s := st(e)
		if s.Phase() != step.phase || s.MoveLeft("Jack B. Nimble") != step.left {
			t.Fatalf("phase %d, may move %d\"; want phase %d, %d\"", s.Phase(), s.MoveLeft("Jack B. Nimble"), step.phase, step.left)
		}
		do(t, e, step.script)
	}
}

// V-6 as written: the whole Move Rate is spread over the turn at will.
func TestMovementRAW(t *testing.T) {
	e, _ := newEngine(t, `add Jack agility=24 move=90
set movement=raw
initiative Jack 10
start
move 80
next
!move 11
move 10
next
!move 1`)
	_ = e
}

// V-6: move then act, or act then move, but never move–act–move; and one
// action per phase.
func TestMoveActMove(t *testing.T) {
	newEngine(t, `add A agility=26 move=90
add B agility=26 move=60
order A B
start
move 5
move 5
act
!move 5
!act
next
act
move 5
move 5
!act
next`)
}

// V-2: on one phase higher Agility first; then (simultaneously) higher Move
// Rate; then the GM's order or a die roll. Characters meet on a phase even
// when their totals differ by a multiple of 15.
func TestTies(t *testing.T) {
	e, _ := newEngine(t, `add Low agility=10 move=30
add High agility=20 move=10
add Fast agility=15 move=40
add Slow agility=15 move=20
add Twin1 agility=15 move=20
initiative Low 10
initiative High 1
initiative Fast 5
initiative Slow 5
initiative Twin1 5
order Twin1 Slow
start`)
	// Low 20 (20, 5); High 21 (21, 6); Fast, Slow, Twin1 20 (20, 5).
	want := []string{
		"21 High [current]",
		"20 Fast", "20 Twin1", "20 Slow", "20 Low",
		"6 High",
		"5 Fast", "5 Twin1", "5 Slow", "5 Low",
	}
	if diff := cmp.Diff(want, order(e)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	for _, s := range e.View().Order {
		simultaneous := strings.Contains(s.Note, "simultaneous")
		if want := s.Name != "High" && s.Name != "Low"; simultaneous != want {
			t.Errorf("%s on %d: simultaneous %v, want %v", s.Name, s.Phase, simultaneous, want)
		}
	}

	// The seed's own case: 36 meets 21 on phase 21 and 6; Agility decides.
	e, _ = newEngine(t, `add A agility=26
add B agility=11
initiative A 10
initiative B 10
start`)
	want = []string{"36 A [current]", "21 A", "21 B", "6 A", "6 B"}
	if diff := cmp.Diff(want, order(e)); diff != "" {
		t.Errorf("36 against 21 (-want +got):\n%s", diff)
	}
}

// V-2: a full tie (phase, Agility and Move Rate) with no GM order is
// settled by a toss, recorded in the turn's event: of three tied, a 1d3
// picks the first and a 1d2 which of the other two goes next.
func TestTieRoll(t *testing.T) {
	e, _ := newEngine(t, `add A agility=15 move=20
add B agility=15 move=20
add C agility=15 move=20
initiative A 5
initiative B 5
initiative C 5
start`)
	var rolls []fray.Roll
	for _, ev := range e.Log() {
		if ev.Type == vv.EventTurn {
			rolls = ev.Rolls
		}
	}
	if len(rolls) != 2 || rolls[0].Expr != "1d3" || rolls[1].Expr != "1d2" {
		t.Fatalf("tie rolls %+v, want a 1d3 and a 1d2", rolls)
	}
	rest := []string{"A", "B", "C"}
	var want []string
	for _, r := range rolls {
		want = append(want, rest[r.Total-1])
		rest = slices.Delete(rest, r.Total-1, r.Total)
	}
	want = append(want, rest...)
	var got []string
	for _, s := range order(e)[:3] {
		got = append(got, strings.TrimSuffix(strings.TrimPrefix(s, "20 "), " [current]"))
	}
	if !slices.Equal(got, want) {
		t.Errorf("phase 20 order %q, want %q (tie rolls %d and %d)", got, want, rolls[0].Total, rolls[1].Total)
	}
}

// V-4, house rule: a victim's initiative is halved (rounded down) and every
// action before the attackers' highest initiative is lost.
func TestSurpriseHouse(t *testing.T) {
	e, _ := newEngine(t, `add Ambusher agility=20
add Quick agility=50
add Plain agility=20
surprise Quick Plain
initiative Ambusher 5
initiative Quick 9
initiative Plain 3
start`)
	// Ambusher 25 (25, 10). Quick 59 → 29 (29 lost, 14). Plain 23 → 11.
	want := []string{"29 Quick [lost]", "25 Ambusher [current]", "14 Quick", "11 Plain", "10 Ambusher"}
	if diff := cmp.Diff(want, order(e)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if got := history(e); len(got) != 1 || got[0] != "Round 1: Quick (29, lost to surprise)" {
		t.Errorf("history %q", got)
	}
	do(t, e, "next\nnext\nnext\nnext")
	// Turn 2: no more surprise; everyone rolls in full.
	if s := st(e); s.Round != 2 || s.Phases("Quick")[0] < 51 {
		t.Errorf("turn %d, Quick's phases %v; want turn 2 with a full roll", s.Round, s.Phases("Quick"))
	}
}

// V-4, as written: on the first turn only the attackers roll; the victims
// get no action phases.
func TestSurpriseRAW(t *testing.T) {
	e, _ := newEngine(t, `add Ambusher agility=20
add Victim agility=50
set surprise=raw
surprise Victim
initiative Ambusher 5
initiative Victim 9
start`)
	want := []string{"25 Ambusher [current]", "10 Ambusher"}
	if diff := cmp.Diff(want, order(e)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	do(t, e, "!surprise Ambusher\nnext\nnext")
	// The die entered for the victim is used on turn 2.
	if got := st(e).Phases("Victim"); len(got) == 0 || got[0] != 59 {
		t.Errorf("turn 2 phases of Victim %v, want 59 first", got)
	}
}

// V-3, house rule: an action saved up to the next action, used to
// interrupt anyone; never more than one action by one character in a phase.
func TestHeldHouse(t *testing.T) {
	e, _ := newEngine(t, `add A agility=30 move=60
add B agility=26
add C agility=10
initiative A 6
initiative B 10
initiative C 10
start`)
	// A 36 (36, 21, 6); B 36 (36, 21, 6); C 20 (20, 5).
	do(t, e, `!interrupt A
hold
act B
interrupt A
act
!act
next`)
	if got := st(e).Current(); got != "B" {
		t.Fatalf("after the interrupt the count is with %s, want B again", got)
	}
	do(t, e, `next
hold A
interrupt A
next
next
act
next
hold
interrupt A
act
next`)
	want := "Round 1: A (36, held), A (36, held action from phase 36), B (36), " +
		"A (21, held), A (21, held action from phase 21, not taken), B (21, declined), C (20), " +
		"A (6, held), A (6, held action from phase 6, 2 Power)"
	if got := history(e)[0]; got != want {
		t.Errorf("history\n got %s\nwant %s", got, want)
	}
	if got := st(e).Current(); got != "B" || st(e).Phase() != 6 {
		t.Errorf("current %s on %d, want B on 6", got, st(e).Phase())
	}

	// A uses a held action on a phase before their own slot on it: their
	// own action on that phase is refused (one action per phase).
	e, _ = newEngine(t, `add B agility=30
add A agility=26
initiative B 6
initiative A 10
start
next
hold
interrupt A
act
next
next`)
	if got := st(e).Current(); got != "A" || st(e).Phase() != 21 {
		t.Fatalf("current %s on %d, want A on 21", got, st(e).Phase())
	}
	do(t, e, "!act\nhold")
}

// V-3: the house rule keeps a held action into the next turn; the rules as
// written lose it at the turn's end. Two interrupts at once: higher Agility
// first. A held action lapses when its owner's next action comes.
func TestHeldAcrossTurns(t *testing.T) {
	script := `add A agility=30
add B agility=26
add C agility=28
initiative A 1
initiative B 10
initiative C 1
start
next
next
hold
next
hold
`
	// B 36 (36, 21, 6); A 31 (31, 16, 1); C 29 (29, 14).
	// 36 B declines; 31 A declines; 29 C holds; 21 B declines; 16 A
	// holds; 14 C: C's held action lapses.
	e, _ := newEngine(t, script)
	if got := st(e).Current(); got != "C" || st(e).Phase() != 14 {
		t.Fatalf("current %s on %d, want C on 14", got, st(e).Phase())
	}
	// C's held action from 29 lapsed on reaching 14.
	if !strings.Contains(history(e)[0], "C (held action from phase 29 lapsed)") {
		t.Errorf("history %q: C's hold should lapse at C's next action", history(e)[0])
	}
	do(t, e, `hold
initiative A 1
initiative B 10
initiative C 1
next
hold`)
	// C held on 14; on 1 A's hold from 16 lapsed and A held again, ending
	// the turn. Turn 2: B 36 first; A holds from 1 and C from 14 (turn 1).
	s := st(e)
	if s.Round != 2 || s.Holding("A") != 1 || s.Holding("C") != 1 {
		t.Fatalf("turn %d, A holds %d, C holds %d; want turn 2 with one each", s.Round, s.Holding("A"), s.Holding("C"))
	}
	do(t, e, `interrupt C A before=B`)
	if got := engine.NamesOf(&st(e).Encounter, st(e).Intr); !cmp.Equal(got, []string{"A", "C"}) {
		t.Errorf("interrupters %v, want A (Agility 30) before C (28)", got)
	}
	do(t, e, "act\nnext\nact\nnext")
	if got := st(e).Current(); got != "B" {
		t.Errorf("current %s, want B after the interrupts", got)
	}

	// As written: held actions are lost at the end of the turn.
	e, _ = newEngine(t, "set held=raw\n"+script+"next\nnext\nnext")
	if s := st(e); s.Round != 2 || s.Holding("A") != 0 || s.Holding("C") != 0 {
		t.Errorf("RAW: turn %d, A holds %d, C holds %d; want turn 2, none", s.Round, s.Holding("A"), s.Holding("C"))
	}
	if h := history(e)[0]; !strings.Contains(h, "A (held action from phase 16 lost at the end of the turn)") {
		t.Errorf("RAW history %q", h)
	}
	// As written, two actions may be held at once within a turn.
	e, _ = newEngine(t, `set held=raw
add A agility=26
add B agility=5
initiative A 10
initiative B 10
start
hold
hold`)
	if got := st(e).Holding("A"); got != 2 {
		t.Errorf("RAW: A holds %d actions, want 2", got)
	}
	do(t, e, "interrupt A\nact\n!interrupt A\nnext\n!interrupt A before=A")
}

// V-5: between turns the upkeep is paid, then initiative is rerolled.
func TestBetweenTurns(t *testing.T) {
	e, _ := newEngine(t, `add A agility=10 power=20
upkeep A 3
initiative A 4
start`)
	if got := st(e).Phases("A"); !cmp.Equal(got, []int{14}) {
		t.Fatalf("phases %v", got)
	}
	do(t, e, "!initiative A dice=11\ninitiative A dice=9\nnext")
	if got := st(e).Power("A"); got != 17 {
		t.Errorf("Power %d after upkeep 3, want 17", got)
	}
	if got := st(e).Phases("A"); !cmp.Equal(got, []int{19, 4}) {
		t.Errorf("turn 2 phases %v, want 19, 4 (die 9 + Agility 10)", got)
	}
	if h := history(e)[0]; h != "Round 1: A (14, declined), A (upkeep, 3 Power)" {
		t.Errorf("history %q", h)
	}
}

// V-7: a facing change or drop to prone off-phase costs 2 Power, once per
// phase; on one's own phase any number are free.
func TestOffPhase(t *testing.T) {
	e, _ := newEngine(t, `add A agility=26 power=10
add B agility=10 power=10
initiative A 10
initiative B 10
start
facing A north
facing A south
facing B east
!facing B west
!prone B
next
prone B
!stand B
next
stand B`)
	if got, want := st(e).Power("B"), 6; got != want {
		t.Errorf("B's Power %d, want %d (two off-phase changes on different phases)", got, want)
	}
	if got := st(e).Power("A"); got != 10 {
		t.Errorf("A's Power %d, want 10 (facing changes on A's own phase are free)", got)
	}
}

// Refusals name what is wrong and change nothing.
func TestRefusals(t *testing.T) {
	newEngine(t, `!act
!next
!start
add A agility=10 power=1
!add B agility=x
!surprise A
!initiative A 11
!initiative Nobody 3
!upkeep A -1
!set held=sometimes
add B agility=12
initiative A 1
initiative B 10
start
!start
!surprise A
!move 0
!move far
!interrupt A
!act A
!stand A`)
}

// Physical dice: dice= feeds the one roll a command makes; with several
// characters to roll for, each die is entered with initiative first.
func TestPhysicalDice(t *testing.T) {
	e, _ := newEngine(t, "add A agility=26\nstart dice=10")
	if got := st(e).Phases("A"); !cmp.Equal(got, []int{36, 21, 6}) {
		t.Errorf("phases %v, want 36, 21, 6", got)
	}
	e, _ = newEngine(t, `add A agility=26
add B agility=10
!start dice=10
initiative A roll=10
start dice=4`)
	if a, b := st(e).Phases("A"), st(e).Phases("B"); !cmp.Equal(a, []int{36, 21, 6}) || !cmp.Equal(b, []int{14}) {
		t.Errorf("phases A %v, B %v; want 36, 21, 6 and 14", a, b)
	}
}

// V-5: "Between turns, before new Initiative rolls are made for the next
// turn, power expenditures and other occurances designated as happening
// "between-turns" must be resolved." Upkeep, like spend, never takes
// Power below zero: an upkeep above the Power left is refused, and one
// the character can no longer pay at the end of a turn is not paid and
// ends, which the turn's history says.
func TestV5_UpkeepNeverOverdraws(t *testing.T) {
	e, _ := newEngine(t, `add A agility=10 power=5
add B agility=5
!upkeep A 6
!upkeep B 1
upkeep A 3
initiative A 4
start
spend A power=1`)
	// Turn 1 ends: 5 − 1 − 3 = 1 left; turn 2 ends: 3 is more than that.
	for turn := 2; turn <= 4; turn++ {
		for st(e).Round < turn {
			do(t, e, "next")
		}
		if got := st(e).Power("A"); got != 1 {
			t.Errorf("turn %d: Power %d, want 1 (one upkeep of 3 paid from 4, then none)", turn, got)
		}
	}
	h := history(e)
	if !strings.HasSuffix(h[0], "A (upkeep, 3 Power)") || !strings.HasSuffix(h[1], "A (upkeep of 3 Power not paid, more than the Power left: it ends)") || strings.Contains(h[2], "upkeep") {
		t.Errorf("history %q, want the upkeep paid in turn 1, not paid in turn 2, ended in turn 3", h)
	}
}

// V-1: "All characters involved roll 1d10 and note the total of the die
// roll plus their Agility scores." An object (kind=environment) is no
// character: it rolls no initiative, has no phases and no band in the
// odds, and initiative refuses it.
func TestV1_ObjectsRollNoInitiative(t *testing.T) {
	e, _ := newEngine(t, `add A agility=10
add Wall kind=environment agility=5
!initiative Wall 3
!surprise Wall
initiative A 4
start`)
	if diff := cmp.Diff([]string{"14 A [current]"}, order(e)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	ev := turnEvent(t, e)
	wantBands(t, "turn 1", bandMap(t, *ev.Odds), map[string]float64{"A first": 1})
	if len(ev.Rolls) != 0 || strings.Contains(string(ev.Data), "Wall") {
		t.Errorf("the turn rolls %v for %s", ev.Rolls, ev.Data)
	}
	do(t, e, "next")
	if got := st(e).Phases("Wall"); len(got) != 0 {
		t.Errorf("Wall's phases %v in turn 2, want none", got)
	}
}
