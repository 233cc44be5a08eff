package rulestest_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/rulestest"
)

// counter is a tiny system for testing the suite: "add N" adds N to a
// total kept in a map. Its flaws are switched on one at a time.
type counter struct {
	mutatingDecide bool // Decide changes the state
	shallowClone   bool // Clone shares the map
	plainError     bool // refusals are not *fray.Error
}

type counterState struct{ M map[string]int }

func (s *counterState) Clone() fray.State {
	return &counterState{M: map[string]int{"total": s.M["total"]}}
}

type shallow struct{ *counterState }

func (s shallow) Clone() fray.State { return shallow{&counterState{M: s.M}} }

func (c *counter) ID() string   { return "counter" }
func (c *counter) Name() string { return "Counter" }
func (c *counter) NewState() fray.State {
	st := &counterState{M: map[string]int{"total": 0}}
	if c.shallowClone {
		return shallow{st}
	}
	return st
}
func (c *counter) m(st fray.State) map[string]int {
	if s, ok := st.(shallow); ok {
		return s.M
	}
	return st.(*counterState).M
}
func (c *counter) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	if cmd.Name != "add" {
		if c.plainError {
			return nil, errors.New("no")
		}
		return nil, fray.Errorf(fray.EINVALID, "Only add.")
	}
	if c.mutatingDecide {
		c.m(st)["total"]++
	}
	ev, err := fray.NewEvent("counter.added", counted{len(cmd.Args)})
	return []fray.Event{ev}, err
}

// counted is the payload of counter.added.
type counted struct {
	N int `json:"n"`
}

func (c *counter) Payloads() map[string]any { return map[string]any{"counter.added": counted{}} }

func (c *counter) Apply(st fray.State, ev fray.Event) error {
	var d counted
	if err := ev.Decode(&d); err != nil {
		return err
	}
	c.m(st)["total"] += d.N
	return nil
}
func (c *counter) View(st fray.State) fray.View {
	return fray.View{Rules: "counter", Order: []fray.Slot{}, History: []fray.RoundTurns{}, Combatants: []fray.Combatant{}}
}
func (c *counter) Check(st fray.State) error { return nil }

// Commands declares add, which counts its words, and nope, which Decide
// refuses.
func (c *counter) Commands() []fray.CommandDecl {
	return []fray.CommandDecl{
		{Name: "add", Send: fray.SendGM, Rolls: true, Summary: "Count the words.", Args: []fray.Param{{Name: "WORD", Kind: fray.KindText, Repeat: true}}},
		{Name: "nope", Send: fray.SendGM, Rolls: true, Summary: "Refused."},
	}
}

func steps(sys fray.System, lines ...string) error {
	e := engine.New(sys, rand.New(rand.NewPCG(1, 1)))
	for _, l := range lines {
		cmd, err := engine.ParseCommand(l)
		if err != nil {
			return err
		}
		if err := rulestest.Step(e, cmd); err != nil {
			return err
		}
	}
	return rulestest.CheckReplay(e)
}

// The suite passes a sound system and catches each flaw.
func TestSuiteCatchesFlaws(t *testing.T) {
	if err := steps(&counter{}, "add a b", "nope", "add c", "undo", "redo"); err != nil {
		t.Fatalf("a sound system fails: %v", err)
	}
	tests := []struct {
		name string
		sys  *counter
		want string
	}{
		{"Decide changes the state", &counter{mutatingDecide: true}, "changed the state it was given"},
		{"Clone shares memory", &counter{shallowClone: true}, "another state"},
		{"refusal without fray.Error", &counter{plainError: true}, "not a *fray.Error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := steps(tt.sys, "add a b", "add c", "nope")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
