package cinematic_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/cinematic"
)

// lastEvent returns the last event of the type typ in the log.
func lastEvent(t *testing.T, e *engine.Engine, typ string) fray.Event {
	t.Helper()
	log := e.Log()
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type == typ {
			return log[i]
		}
	}
	t.Fatalf("no %s event", typ)
	return fray.Event{}
}

// slotNote returns the words of a slot of the order: its note, then its
// status, as the slot says them.
func slotNote(e *engine.Engine, name string) string {
	for _, s := range e.View().Order {
		if s.Name == name {
			if s.Status == "" {
				return s.Note
			}
			return s.Note + ", " + s.Status
		}
	}
	return ""
}

// C-4, two steps: Rosa's Stake (Dexterity 7 + Getting Medieval 4 = 11)
// is rolled alone and waits; the Master then dodges (Dexterity 6 + Kung
// Fu 4 = 10) against its total.
func TestC4_DodgeAfterTheAttack(t *testing.T) {
	e := sheeted(t, "attack Rosa Master with=Stake defence=wait dice=6")
	w := state(e).Waiting
	// 11 + 6 = 17 waits; Rosa's free attack is spent, the Master's free
	// defence is not.
	if w == nil || state(e).NameOf(w.AttackerID) != "Rosa" || state(e).NameOf(w.TargetID) != "Master" || w.Total != 17 || w.Face != 6 {
		t.Fatalf("waiting: %+v", w)
	}
	if b := state(e).Budget("Rosa"); b.Attack {
		t.Errorf("Rosa's free attack is left: %+v", b)
	}
	if b := state(e).Budget("Master"); !b.Defence {
		t.Errorf("the Master's free defence is spent already: %+v", b)
	}
	ev := lastEvent(t, e, cinematic.EventWaits)
	if len(ev.Rolls) != 1 || ev.Odds == nil {
		t.Errorf("the attack's event: %d rolls, odds %v", len(ev.Rolls), ev.Odds)
	}
	if n := slotNote(e, "Master"); !strings.Contains(n, "to answer Rosa's attack (total 17)") {
		t.Errorf("the view: %q", n)
	}
	for _, s := range e.View().Order {
		if s.Name == "Master" && !slices.Equal(s.About, []string{"Rosa"}) {
			t.Errorf("the Master's slot is about %q, want Rosa", s.About)
		}
	}
	// 10 + 6 = 16 < 17: a hit with 17's 5 success levels; (5 + 5 − 0) × 1
	// (stab on the Not Human) = 10; 62 → 52.
	do(t, e, "dodge Master dice=6")
	d := rolled(t, e)
	if d["roll"] != "dodge" || d["band"] != "hit, 5 success levels" || num(d, "total") != 17 || num(d, "difficulty") != 16 || num(d, "dealt") != 10 || lp(e, "Master") != 52 {
		t.Errorf("dodge 6: %v, Master %d LP", d, lp(e, "Master"))
	}
	if state(e).Waiting != nil || state(e).Budget("Master").Defence {
		t.Errorf("after the answer: waiting %v, Master's budget %+v", state(e).Waiting, state(e).Budget("Master"))
	}
	if ev := lastEvent(t, e, cinematic.EventRolled); len(ev.Rolls) != 1 || ev.Odds == nil {
		t.Errorf("the answer's event: %d rolls, odds %v", len(ev.Rolls), ev.Odds)
	}
	// A tie goes to the defender: 10 + 7 = 17.
	do(t, e, "undo\ndodge Master dice=7")
	if d := rolled(t, e); d["band"] != "defended" || lp(e, "Master") != 62 {
		t.Errorf("dodge 7: %v, Master %d LP", d, lp(e, "Master"))
	}
	// A parry is Dexterity + the better of Kung Fu 4 and Getting
	// Medieval 3: 10, with dmod=-1: 9 + 7 = 16 < 17.
	do(t, e, "undo\nparry Master dmod=-1 dice=7")
	if d := rolled(t, e); d["roll"] != "parry" || d["band"] != "hit, 5 success levels" || num(d, "def_value") != 9 {
		t.Errorf("parry: %v", d)
	}
	// The answer's odds: the Master's D10 + 10 against 12 (Rosa's 1)
	// defends on 2 to 10 (90%); a 1 lets 12's 2 success levels through,
	// (5 + 2) × 1 = 7 damage.
	do(t, e, "undo\nundo\nattack Rosa Master with=Stake defence=wait dice=1")
	o := odds(t, e, "dodge Master")
	if len(o.Bands) != 2 || o.Bands[0].Name != "defended" || math.Abs(o.Bands[0].P-0.9) > 1e-12 ||
		o.Bands[1].Name != "hit, 2 success levels" || math.Abs(o.Bands[1].P-0.1) > 1e-12 || o.For != "Master" {
		t.Errorf("odds dodge Master: %+v", o)
	}
	if len(o.Dist) != 2 || o.Dist[1].V != 7 || !hasMod(o, "defence: Dexterity", 6) || !hasMod(o, "defence: Kung Fu (dodge)", 4) || !hasMod(o, "Getting Medieval", 4) {
		t.Errorf("odds dodge Master: dist %v, modifiers %v", o.Dist, o.Modifiers)
	}
}

// C-4: bullets cannot be parried; the refusal changes nothing and the
// target may still dodge.
func TestC4_ParryRefusedAgainstBullets(t *testing.T) {
	// Bernie's Pistol: Dexterity 3 + Gun Fu 2 + 5 = 10; one shot of 6.
	e := sheeted(t, "next\nnext\nnext\nattack Bernie Rosa with=Pistol defence=wait dice=5")
	if tr, _ := state(e).Find("Bernie").Track("ammo pistol"); tr.Value != 5 {
		t.Errorf("the shot is fired with the attack: %d left", tr.Value)
	}
	_, err := e.Do(fray.Command{Name: "parry", Args: []string{"Rosa"}})
	if err == nil || !strings.Contains(fray.ErrorMessage(err), "cannot parry a bullet") {
		t.Errorf("parry a bullet: %v", err)
	}
	do(t, e, "!parry Rosa\n!odds parry Rosa")
	// Rosa's dodge, 7 + 5 + 1 = 13, beats 10.
	do(t, e, "dodge Rosa dice=1")
	if d := rolled(t, e); d["band"] != "defended" || lp(e, "Rosa") != 54 {
		t.Errorf("dodge: %v, Rosa %d LP", d, lp(e, "Rosa"))
	}
}

// C-4: take keeps the defence; the attack hits on 9+ as with
// defence=none.
func TestC4_TakeKeepsTheDefence(t *testing.T) {
	// 11 + 1 = 12 ≥ 9: 2 success levels, (5 + 2) × 1 = 7; 62 → 55.
	e := sheeted(t, "attack Rosa Master with=Stake defence=wait dice=1\ntake Master")
	if d := rolled(t, e); d["roll"] != "take" || d["band"] != "hit, 2 success levels" || num(d, "difficulty") != 9 || lp(e, "Master") != 55 {
		t.Errorf("take 12: %v, Master %d LP", d, lp(e, "Master"))
	}
	if !state(e).Budget("Master").Defence {
		t.Errorf("take spent the Master's defence")
	}
	// 11 − 5 + 1 = 7 < 9: a miss.
	do(t, e, "undo\nundo\nattack Rosa Master with=Stake defence=wait mod=-5 dice=1\ntake Master")
	if d := rolled(t, e); d["band"] != "miss" || lp(e, "Master") != 62 {
		t.Errorf("take 7: %v", d)
	}
	// A barrage of 3 from Bernie: 5 − 3 + 10 = 12, 2 success levels: 2
	// bullets land, each (8 − 0) × 2 = 16: Rosa 54 → 22; 3 shots spent.
	e = sheeted(t, "next\nnext\nnext\nattack Bernie Rosa with=Pistol shots=3 defence=wait dice=10")
	o := odds(t, e, "take Rosa")
	if len(o.Bands) != 2 || o.Bands[1].Name != "hit, 2 success levels" || o.Bands[1].P != 1 || o.Mean != 32 {
		t.Errorf("odds take Rosa: %+v", o)
	}
	do(t, e, "take Rosa")
	if tr, _ := state(e).Find("Bernie").Track("ammo pistol"); lp(e, "Rosa") != 22 || tr.Value != 3 {
		t.Errorf("barrage taken: Rosa %d LP, %d shots left", lp(e, "Rosa"), tr.Value)
	}
}

// C-4: a target who cannot defend is not waited for: the attack is
// settled at once, hitting on 9+, and says why.
func TestC4_WaitSettledAtOnceWithoutDefence(t *testing.T) {
	// The Vampire (Dexterity 4: no extra action) dodges Rosa's first
	// attack: 11 + 1 = 12 against 7 + 1 = 8, (5 + 2) × 1 = 7: 46 → 39.
	// Her second, an extra at −2: 11 − 2 + 10 = 19, 5 success levels,
	// (5 + 5) × 1 = 10: 39 → 29.
	e := sheeted(t, "attack Rosa Vampire with=Stake dice=1,1\nattack Rosa Vampire with=Stake defence=wait dice=10")
	d := rolled(t, e)
	if state(e).Waiting != nil || d["defence"] != "none" || d["band"] != "hit, 5 success levels" || lp(e, "Vampire") != 29 {
		t.Errorf("no defence left: %v, Vampire %d LP, waiting %v", d, lp(e, "Vampire"), state(e).Waiting)
	}
	if n, _ := d["note"].(string); !strings.Contains(n, "no defence left") {
		t.Errorf("note: %q", n)
	}
	do(t, e, "!dodge Vampire\n!take Vampire")
	// Full Offence: no defence.
	e = sheeted(t, "")
	do(t, e, "undo\nfull Master offence\nstart\nattack Rosa Master with=Stake defence=wait dice=1")
	if d := rolled(t, e); state(e).Waiting != nil || d["defence"] != "none" || lp(e, "Master") != 55 {
		t.Errorf("Full Offence: %v", d)
	}
	// Unaware without Situational Awareness.
	e = sheeted(t, "next\nattack Master Bernie with=Sword unaware=yes defence=wait dice=1")
	if d := rolled(t, e); state(e).Waiting != nil || !strings.Contains(d["note"].(string), "unaware") {
		t.Errorf("unaware: %v", d)
	}
}

// While an attack waits, only the answer and commands that change
// nothing in play are taken; refusals change nothing.
func TestC4_RefusalsAroundTheAnswer(t *testing.T) {
	e := sheeted(t, "")
	do(t, e, `!dodge Master
!parry Master
!take Master
!odds dodge Master
!attack Rosa Master with=Stake defence=wait dmod=2
!attack Rosa Master with=Stake defence=later
attack Rosa Master with=Stake defence=wait dice=4
!next
!attack Rosa Master with=Stake
!attack Rosa Vampire with=Stake defence=wait
!attack
!defend Master
!check Rosa strength
!odds check Rosa strength
!damage Master 3
!complication Master down
!full Rosa offence
!remove Master
!remove Rosa
!reload Bernie
!dodge Rosa
!dodge Nobody
!dodge
!dodge Master Rosa
!dodge Master dmod=99
!dodge Master mod=1
!take Master dmod=1
!dodge Master dice=1,2
note Master "sees it coming"
condition Master tied
!dodge Master
!parry Master
take Master`)
	// 11 + 4 = 15 taken: 4 success levels, (5 + 4) × 1 = 9: 62 → 53.
	if lp(e, "Master") != 53 || state(e).Waiting != nil {
		t.Errorf("taken tied: Master %d LP", lp(e, "Master"))
	}
	do(t, e, "next")
}

// The two steps settle an attack exactly as the one command does with
// the same dice: for every pair of D10 faces, the state after "attack …
// defence=wait dice=A" and the answer "dice=D" is the state after
// "attack … defence=KIND dice=A,D" (damage, success levels, Badly
// Injured, the Consciousness test, Outnumbered, ammunition, budgets and
// the round's history).
func TestC4_TwoStepsEqualOneCommand(t *testing.T) {
	for _, tt := range []struct {
		name, setup, attack, kind, target string
	}{
		// The Master at 7 Life Points: Badly Injured (−4 to his dodge),
		// and a hit brings his Consciousness test.
		{"badly injured", "damage Master 55", "attack Rosa Master with=Stake", "dodge", "Master"},
		// A barrage of bullets, dodged by Oswin (Dexterity 2): hits of
		// (8 − 0) × 2 per bullet bring his Consciousness and Survival
		// tests.
		{"barrage", "next\nnext\nnext", "attack Bernie Oswin with=Pistol shots=3", "dodge", "Oswin"},
		// Outnumbered (+4), parried with the Master's extra action (−2).
		{"outnumbered", "attack Rosa Master with=punch dice=1,10\nnext\nnext", "attack Vampire Master with=Claws", "parry", "Master"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := sheeted(t, tt.setup)
			for a := 1; a <= 10; a++ {
				for d := 1; d <= 10; d++ {
					do(t, e, fmt.Sprintf("%s defence=%s dice=%d,%d", tt.attack, tt.kind, a, d))
					want := e.State().Clone()
					do(t, e, fmt.Sprintf("undo\n%s defence=wait dice=%d\n%s %s dice=%d", tt.attack, a, tt.kind, tt.target, d))
					if diff := cmp.Diff(want, e.State()); diff != "" {
						t.Fatalf("dice %d,%d: two steps differ from one:\n%s", a, d, diff)
					}
					do(t, e, "undo\nundo")
				}
			}
			// take is defence=none.
			for a := 1; a <= 10; a++ {
				do(t, e, fmt.Sprintf("%s defence=none dice=%d", tt.attack, a))
				want := e.State().Clone()
				do(t, e, fmt.Sprintf("undo\n%s defence=wait dice=%d\ntake %s", tt.attack, a, tt.target))
				if diff := cmp.Diff(want, e.State()); diff != "" {
					t.Fatalf("take, dice %d: two steps differ from one:\n%s", a, diff)
				}
				do(t, e, "undo\nundo")
			}
		})
	}
}

// odds attack … defence=wait gives the one-command attack's odds
// against the target's better defence.
func TestC4_WaitOddsAreTheBetterDefences(t *testing.T) {
	e := sheeted(t, "damage Master 55")
	one, wait := odds(t, e, "attack Rosa Master with=Stake"), odds(t, e, "attack Rosa Master with=Stake defence=wait")
	if !cmp.Equal(one.Bands, wait.Bands) || !cmp.Equal(one.Dist, wait.Dist) || !cmp.Equal(one.Modifiers, wait.Modifiers) {
		t.Errorf("wait %+v, one command %+v", wait, one)
	}
	do(t, e, "attack Rosa Master with=Stake defence=wait dice=3")
	if ev := lastEvent(t, e, cinematic.EventWaits); ev.Odds == nil || !cmp.Equal(ev.Odds.Bands, one.Bands) {
		t.Errorf("the attack's event records %v", ev.Odds)
	}
}

// The odds of each answer agree with the enumeration of the defender's
// D10 and with 100,000 seeded rolls.
func TestC4_AnswerOddsAgreeWithRolls(t *testing.T) {
	sys := cinematic.New()
	for _, tt := range []struct {
		setup, cmd string
		dice       int
	}{
		{"start\nattack Rosa Master with=Stake defence=wait dice=1", "dodge Master", 1},
		{"start\ndamage Master 55\nattack Rosa Master with=Stake defence=wait dice=6", "parry Master dmod=-1", 1},
		{"start\nnext\nnext\nnext\nattack Bernie Rosa with=Pistol shots=4 defence=wait dice=10", "dodge Rosa", 1},
		{"start\nattack Rosa Master with=Stake defence=wait dice=1", "take Master", 0},
		{"start\nattack Rosa Master with=Stake defence=wait mod=-4 dice=1", "take Master", 0},
	} {
		t.Run(tt.cmd, func(t *testing.T) {
			t.Parallel()
			oddsAgree(t, sys, tt.setup, tt.cmd, tt.dice)
		})
	}
}

// C-6 with the two steps: a blind attacker's Notice check comes first
// (dice=NOTICE,ATTACK); a failed check loses the attack and nothing
// waits.
func TestC6_BlindAttackerWaits(t *testing.T) {
	// Notice: Perception 4 + Notice 3 + 9 = 16 ≥ 9; the Stake at −5:
	// 11 − 5 + 5 = 11 waits.
	e := sheeted(t, "complication Rosa blind\nattack Rosa Master with=Stake defence=wait dice=9,5")
	if w := state(e).Waiting; w == nil || w.Total != 11 || !hasMod(*lastEvent(t, e, cinematic.EventWaits).Odds, "blind", -5) {
		t.Fatalf("blind, noticed: waiting %+v", w)
	}
	// The Master's dodge, 10 + 1 = 11, ties: defended.
	do(t, e, "dodge Master dice=1")
	if d := rolled(t, e); d["band"] != "defended" {
		t.Errorf("dodge: %v", d)
	}
	// 7 + 1 = 8 < 9: the attack is lost, its action spent.
	e = sheeted(t, "complication Rosa blind\nattack Rosa Master with=Stake defence=wait dice=1")
	if d := rolled(t, e); state(e).Waiting != nil || d["band"] != cinematic.BandLost || state(e).Budget("Rosa").Attack {
		t.Errorf("blind, not noticed: %v, waiting %v", d, state(e).Waiting)
	}
	do(t, e, "!dodge Master")
}

// Answering an attack that waits: the dodge planned with its modifiers,
// its odds, the roll and the damage (goal: under 20 µs, as an attack).
func BenchmarkAnswer(b *testing.B) {
	e := sheeted(b, "complication Master down\ndamage Master 55\ncondition Master wary mod=1 on=defence\nattack Rosa Master with=Stake defence=wait dice=9")
	cmd, _ := engine.ParseCommand("dodge Master dmod=-1")
	sys := cinematic.New()
	r := seededRoller{rand.New(rand.NewPCG(1, 1))}
	st := e.State()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sys.Decide(st, cmd, r); err != nil {
			b.Fatal(err)
		}
	}
}
