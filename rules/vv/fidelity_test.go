package vv_test

import (
	"testing"
)

// V-13 after a surprise (V-4). The seed: "if the victim is alert and aware
// of the attack (i.e., not asleep, unconscious, incapacitated, paralyzed,
// taken by surprise, etc.), then he/she may divert a portion of the damage
// taken to his/her Power score instead", and of an ambush: "During the
// first turn, the defenders are allowed no normal action phases" (the
// house rule: they "lose all actions that would have taken place before
// the attackers' highest Initiative"). Of falls: "I will allow Falling
// damage to be Rolled with, since there's time to mentally prepare oneself
// before the impact". So a victim is taken by surprise until their first
// action phase of the first turn comes (whether they then act, hold or
// decline); never against a fall, which is no attack; and, as written, for
// the whole first turn, in which they have no action phases.
func TestV13_RollingAfterSurprise(t *testing.T) {
	// Surprised, Jack's 11 is halved to 5: Grue 30, Grue 15, Jack 5, Mook 1.
	e := newFightWith(t, "surprise Jack", "")
	refuse(t, e, "attack Grue Jack with=Punch divert=1", "taken by surprise (V-4): until their first action phase (5) comes")
	// A fall is no attack: there is time to prepare for it.
	run(t, e, "damage Jack 3 falling=yes divert=1")
	if hitPoints(e, "Jack") != 12 || power(e, "Jack") != 44 {
		t.Errorf("after a fall rolled with: Jack %d Hit Points, %d Power; want 12 and 44", hitPoints(e, "Jack"), power(e, "Jack"))
	}
	// Grue holds on 15; on 5 Jack's phase has come: he is aware now.
	run(t, e, "next\nhold\nact Jack\nnext\ninterrupt Grue\nattack Grue Jack with=Punch divert=1 knockback=no dice=1,6")
	if d := lastAttack(t, e); d.ToPower != 1 || d.ToHits != 5 {
		t.Errorf("after Jack's phase: %+v, want 1 to Power and 5 to Hit Points", d)
	}

	// As written, the surprised have no action phases on the first turn:
	// taken by surprise for all of it, but a fall may still be rolled with.
	e = newFightWith(t, "set surprise=raw\nsurprise Jack", "next\nhold\ninterrupt Grue")
	refuse(t, e, "attack Grue Jack with=Punch divert=1", "taken by surprise (V-4) and has no action phases in the first turn")
	run(t, e, "damage Jack 3 falling=yes divert=1")
	if power(e, "Jack") != 44 {
		t.Errorf("after a fall rolled with: Jack %d Power, want 44", power(e, "Jack"))
	}
}

// V-3 with the house rule: a held action carried into the next turn may
// move, then act, with the move its holder had left when the first turn
// ended ("since the turn is an artificial construct, there's no real
// reason that you cannot save actions from turn to turn"), as it would
// have within that turn.
func TestV3_HeldActionCarriedMoves(t *testing.T) {
	// Turn 1: B 40, 25, 10; Jack 34, 19, 4 (90": 30" an action). On 4 Jack
	// may move 60", moves 20 and holds, keeping 40".
	e, _ := newEngine(t, `add Jack agility=24 move=90
add B agility=30
initiative Jack 10
initiative B 10
start
next
next
next
move 10
next
next
initiative Jack 1
initiative B 10
move 20
hold`)
	// Turn 2: B 40, 25, 10; Jack 25, 10.
	s := st(e)
	if s.Round != 2 || s.Current() != "B" || s.Holding("Jack") != 1 {
		t.Fatalf("turn %d, %s acting, Jack holds %d; want turn 2, B, 1", s.Round, s.Current(), s.Holding("Jack"))
	}
	do(t, e, "interrupt Jack")
	if got := st(e).MoveLeft("Jack"); got != 40 {
		t.Errorf("with the held action Jack may move %d\", want 40 (what was left of phase 4 in turn 1)", got)
	}
	refuse(t, e, "move 41", "with the action held from turn 1, phase 4")
	do(t, e, "move 15\nact\n!move 1\nnext")
	// His own phase 25 of turn 2 (after B's: higher Agility) has its own
	// 45", the turn's Move Rate per action.
	do(t, e, "next\nnext")
	if s := st(e); s.Current() != "Jack" || s.Phase() != 25 || s.MoveLeft("Jack") != 45 {
		t.Errorf("%s on %d may move %d\"; want Jack on 25 with 45\"", s.Current(), s.Phase(), s.MoveLeft("Jack"))
	}

	// Put back unused, the held action keeps what is left of its move.
	e, _ = newEngine(t, `add Jack agility=24 move=90
add B agility=30
initiative Jack 10
initiative B 10
start
next
next
next
next
initiative Jack 1
initiative B 10
next
hold
interrupt Jack
move 25
hold`)
	do(t, e, "interrupt Jack")
	if got := st(e).MoveLeft("Jack"); got != 35 {
		t.Errorf("with the held action put back and used again, Jack may move %d\", want 35", got)
	}
}
