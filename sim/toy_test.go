package sim_test

import (
	"context"
	"math"
	"testing"

	"fray"
	"fray/sim"
)

// toy is a rule system of two moves, for what the real systems' duels
// never do: a move that may leave the fight as it was. A waits ("wait",
// a d2: on 1 the turn passes, on 2 nothing happens), then finishes it
// ("finish", a d4: on 1 B goes down, else A does). So the first state
// may come back to itself, and A wins 1 in 4 however long it waits.
type toy struct{}

type toyState struct {
	fray.Encounter
	Passed bool
}

func (s *toyState) Clone() fray.State {
	return &toyState{Encounter: s.CloneEncounter(), Passed: s.Passed}
}

func (s *toyState) Base() *fray.Encounter { return &s.Encounter }

func (toy) ID() string                                         { return "toy" }
func (toy) Name() string                                       { return "Toy" }
func (toy) NewState() fray.State                               { return &toyState{} }
func (toy) View(fray.State) fray.View                          { return fray.View{} }
func (toy) Check(fray.State) error                             { return nil }
func (toy) Commands() []fray.CommandDecl                       { return nil }
func (toy) SimExpect(fray.State, fray.SimMove) (float64, bool) { return 0, false }

func (toy) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	switch cmd.Name {
	case "wait":
		roll, err := r.Roll("A", "1d2")
		if err != nil || roll.Total == 2 {
			return nil, err
		}
		return []fray.Event{{Type: "pass"}}, nil
	case "finish":
		roll, err := r.Roll("A", "1d4")
		if err != nil {
			return nil, err
		}
		if roll.Total == 1 {
			return []fray.Event{{Type: "down", Data: []byte(`"b"`)}}, nil
		}
		return []fray.Event{{Type: "down", Data: []byte(`"a"`)}}, nil
	}
	return nil, fray.Errorf(fray.EINVALID, "no such command")
}

func (toy) Apply(st fray.State, ev fray.Event) error {
	s := st.(*toyState)
	switch ev.Type {
	case "pass":
		s.Passed = true
	case "down":
		c := s.ByID(fray.CombatantID(string(ev.Data[1 : len(ev.Data)-1])))
		c.Tracks["hp"] = fray.Track{Value: 0, Max: 1}
	}
	return nil
}

func (toy) SimMoves(st fray.State, buf []fray.SimMove) []fray.SimMove {
	s := st.(*toyState)
	word := "wait"
	if s.Passed {
		word = "finish"
	}
	return append(buf, fray.SimMove{Kind: fray.SimEnd, Actor: "a", Cmd: fray.Command{Name: word}})
}

func (toy) SimDown(_ fray.State, c *fray.Combatant) bool { return c.Tracks["hp"].Value == 0 }

func (toy) SimHealth(_ fray.State, c *fray.Combatant) (int, int) { return c.Tracks["hp"].Value, 1 }

func toyFight() *toyState {
	hp := func() map[string]fray.Track { return map[string]fray.Track{"hp": {Value: 1, Max: 1}} }
	s := &toyState{}
	s.Round = 1
	s.Combatants = []*fray.Combatant{
		{ID: "a", Name: "A", Side: fray.SidePC, Tracks: hp()},
		{ID: "b", Name: "B", Side: fray.SideNPC, Tracks: hp()},
	}
	return s
}

// TestExactComesBack checks a fight whose first state may come back to
// itself: the exact solve follows it (the chance of staying, 1/2, taken
// out), A wins 1/4 and B 3/4, with any number of workers; and the
// simulated fights agree.
func TestExactComesBack(t *testing.T) {
	for _, w := range []int{1, 2} {
		r := exact(t, sim.Config{System: toy{}, State: toyFight(), Workers: w})
		if math.Abs(r.Sides[0].Win-0.25) > 1e-15 || math.Abs(r.Sides[1].Win-0.75) > 1e-15 || r.Unfinished != 0 || r.States != 2 {
			t.Errorf("%d workers: %+v; want pc 0.25, npc 0.75 in 2 states", w, r)
		}
	}
	res, err := sim.Run(context.Background(), sim.Config{System: toy{}, State: toyFight(), Fights: 4000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := res.Sides[0].CI95[0], res.Sides[0].CI95[1]; lo > 0.25 || hi < 0.25 {
		t.Errorf("simulated pc win %v (95%%: %v–%v), want about 0.25", res.Sides[0].Win, lo, hi)
	}
}
