package rulestest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/sheet"
)

// SimCase is an encounter for Sim: the character sheets of Party (PCs)
// and Foes (NPCs), files that may be "", then Setup (combatants added and
// the fight started) bring the state to where Actor must act; Down is a
// command that takes Victim, a foe of Actor, down.
type SimCase struct {
	Party  string
	Foes   string
	Setup  string
	Actor  string
	Victim string
	Down   string
}

// Sim checks a system's fray.Simulator: before the start the one move is
// start; after c.Setup the moves are c.Actor's, every attack on a foe,
// with an expectation the rules give for at least one, and the end of the
// turn last; after c.Down the victim is down, with nothing left of its
// track, and no attack targets it. Then it plays 40 fights of moves to
// their end or 200 moves, refusals of attacks aside, and checks that
// nothing else is refused: a defence that costs something (an answer
// after the first, a fray.SimDefend) is played only when the system's
// fray.SimGuarder gives its odds, from 0 to 1, and then the rules must
// take it; without a SimGuarder, such a defence is passed by. Each move
// is decided twice with the same dice, once as the engine records it and
// once for a fight that records nothing (fray.UnrecordedRoller): the two
// must roll the same dice, the second keep no odds, and both leave the
// same state.
func Sim(t *testing.T, newSystem func() fray.System, c SimCase) {
	t.Helper()
	sys := newSystem()
	sm, ok := sys.(fray.Simulator)
	if !ok {
		t.Fatalf("%s does not implement fray.Simulator", sys.ID())
	}
	ms := sm.SimMoves(sys.NewState(), nil)
	if len(ms) != 1 || ms[0].Kind != fray.SimEnd || ms[0].Cmd.Name != "start" {
		t.Errorf("moves before the start = %v, want start alone", ms)
	}
	e := engine.New(sys, rand.New(rand.NewPCG(1, 2)))
	do := func(text string) {
		t.Helper()
		for _, line := range strings.Split(text, "\n") {
			cmd, err := engine.ParseCommand(line)
			if err != nil {
				t.Fatal(err)
			}
			if cmd.Name == "" {
				continue
			}
			if _, err := e.Do(cmd); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
		}
	}
	for _, f := range []struct{ path, side string }{{c.Party, fray.SidePC}, {c.Foes, fray.SideNPC}} {
		if f.path == "" {
			continue
		}
		cs, err := sheet.Load(f.path, sys, f.side)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Join(cs); err != nil {
			t.Fatal(err)
		}
	}
	do(c.Setup)
	enc := e.Encounter()
	actor, victim := enc.Find(c.Actor), enc.Find(c.Victim)
	if actor == nil || victim == nil {
		t.Fatalf("the setup has no %q or no %q", c.Actor, c.Victim)
	}
	ms = sm.SimMoves(e.State(), nil)
	if len(ms) == 0 || ms[len(ms)-1].Kind != fray.SimEnd {
		t.Fatalf("moves = %v, want the end of the turn last", ms)
	}
	expected := false
	for _, m := range ms {
		if m.Actor != actor.ID {
			t.Errorf("%s: actor %q, want %s", m.Cmd, m.Actor, c.Actor)
		}
		if m.Kind != fray.SimAttack {
			continue
		}
		if b := enc.ByID(m.Target); b == nil || b.Side == actor.Side {
			t.Errorf("%s: the target is not a foe", m.Cmd)
		}
		if x, ok := sm.SimExpect(e.State(), m); ok && x > 0 {
			expected = true
		} else if ok && x < 0 {
			t.Errorf("%s: expected damage %v", m.Cmd, x)
		}
	}
	if !expected {
		t.Errorf("no attack of %s has an expected damage above 0: %v", c.Actor, ms)
	}
	if !slices.ContainsFunc(ms, func(m fray.SimMove) bool { return m.Target == victim.ID }) {
		t.Errorf("no attack on %s before it is down", c.Victim)
	}
	if sm.SimDown(e.State(), victim) {
		t.Errorf("%s is down before %s", c.Victim, c.Down)
	}
	start := e.State().Clone()
	do(c.Down)
	victim = e.Encounter().Find(c.Victim)
	if !sm.SimDown(e.State(), victim) {
		t.Errorf("%s is not down after %s", c.Victim, c.Down)
	}
	if left, most := sm.SimHealth(e.State(), victim); left != 0 || most <= 0 {
		t.Errorf("%s has %d of %d left after %s, want 0 of more", c.Victim, left, most, c.Down)
	}
	for _, m := range sm.SimMoves(e.State(), nil) {
		if m.Kind == fray.SimAttack && m.Target == victim.ID {
			t.Errorf("%s targets %s, who is down", m.Cmd, c.Victim)
		}
	}

	// Random play from the setup: every move but a refused attack goes.
	guard, _ := sm.(fray.SimGuarder)
	rng := rand.New(rand.NewPCG(3, 4))
	lend := &lender{}
	for fight := 0; fight < 40; fight++ {
		st := start.Clone()
		for step := 0; step < 200; step++ {
			ms := sm.SimMoves(st, nil)
			if len(ms) == 0 {
				break
			}
			i := rng.IntN(len(ms))
			m := ms[i]
			costly := m.Kind == fray.SimDefend || (m.Kind == fray.SimAnswer && slices.IndexFunc(ms, func(m fray.SimMove) bool { return m.Kind == fray.SimAnswer }) < i)
			if costly {
				if guard == nil {
					continue
				}
				p, ok := guard.SimGuard(st, m)
				if !ok {
					continue
				}
				if p < 0 || p > 1 {
					t.Fatalf("fight %d, move %d: %s: odds of negating %v, outside 0 to 1", fight, step, m.Cmd, p)
				}
			}
			seed := rng.Uint64()
			evs, err := sys.Decide(st, m.Cmd, seeded{rand.New(rand.NewPCG(seed, 0))})
			lend.poison()
			lend.seeded = seeded{rand.New(rand.NewPCG(seed, 0))}
			un, unErr := sys.Decide(st, m.Cmd, lend)
			if fray.ErrorCode(unErr) != fray.ErrorCode(err) {
				t.Fatalf("fight %d, move %d: %s: unrecorded, %v; recorded, %v", fight, step, m.Cmd, unErr, err)
			}
			if err != nil {
				if m.Kind == fray.SimAttack && fray.ErrorCode(err) != fray.EINTERNAL {
					continue
				}
				t.Fatalf("fight %d, move %d: %s: %v", fight, step, m.Cmd, err)
			}
			if err := sameOutcome(sys, st, evs, un); err != nil {
				t.Fatalf("fight %d, move %d: %s: decided unrecorded: %v", fight, step, m.Cmd, err)
			}
			for _, ev := range evs {
				if ev.Type == engine.StepBreak("").Type {
					continue
				}
				ev.Format = fray.FormatIDs
				if err := sys.Apply(st, ev); err != nil {
					t.Fatalf("fight %d, move %d: %s: apply: %v", fight, step, m.Cmd, err)
				}
			}
			if err := sys.Check(st); err != nil {
				t.Fatalf("fight %d, move %d: %s: %v", fight, step, m.Cmd, err)
			}
		}
	}
}

// unrecorded is a Roller for a decision that is never recorded.
type unrecorded struct{ seeded }

func (unrecorded) Unrecorded() bool { return true }

// lender is an unrecorded Roller that lends the room for a command's
// events, as a simulated fight's does (fray.EventLender), and spoils what
// was left in it before each command (poison), so that rules which keep
// some of it past Decide, or record in it twice, decide other events
// than the engine's.
type lender struct {
	seeded
	room []fray.Event
	lent bool
}

func (*lender) Unrecorded() bool { return true }

func (l *lender) LendEvents() []fray.Event {
	if l.lent {
		return nil
	}
	l.lent = true
	return l.room[:0]
}

// poison spoils the room and lends it anew.
func (l *lender) poison() {
	if l.room == nil {
		l.room = make([]fray.Event, 0, 4)
	}
	all := l.room[:cap(l.room)]
	for i := range all {
		all[i] = fray.Event{Type: "spoilt"}
	}
	l.lent = false
}

// sameOutcome checks that the events un, decided in st for a fight that
// records nothing, roll the dice of evs, decided as the engine records
// them, keep no odds, and leave the same state once applied.
func sameOutcome(sys fray.System, st fray.State, evs, un []fray.Event) error {
	if len(un) != len(evs) {
		return fmt.Errorf("%d events, recorded %d", len(un), len(evs))
	}
	a, b := st.Clone(), st.Clone()
	for i := range evs {
		e, u := evs[i], un[i]
		if u.Type != e.Type {
			return fmt.Errorf("event %d is %s, recorded %s", i, u.Type, e.Type)
		}
		if u.Odds != nil {
			return fmt.Errorf("event %d (%s) keeps odds", i, u.Type)
		}
		if len(u.Rolls) != len(e.Rolls) {
			return fmt.Errorf("event %d (%s) has %d rolls, recorded %d", i, u.Type, len(u.Rolls), len(e.Rolls))
		}
		for k := range e.Rolls {
			if u.Rolls[k].Total != e.Rolls[k].Total || !slices.Equal(u.Rolls[k].Dice, e.Rolls[k].Dice) {
				return fmt.Errorf("event %d (%s) rolls %+v, recorded %+v", i, u.Type, u.Rolls[k], e.Rolls[k])
			}
		}
		if e.Type == engine.StepBreak("").Type {
			continue
		}
		e.Format, u.Format = fray.FormatIDs, fray.FormatIDs
		if err := sys.Apply(a, e); err != nil {
			return fmt.Errorf("apply recorded %s: %w", e.Type, err)
		}
		if err := sys.Apply(b, u); err != nil {
			return fmt.Errorf("apply %s: %w", u.Type, err)
		}
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("the states differ")
	}
	return nil
}
