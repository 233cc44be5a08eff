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
	undecided      bool // declares sub, which Decide does not decide
	lenient        bool // Decide refuses a word it does not know as a mistake, not a bug
	noOdds         bool // Odds answers that add, declared to roll, rolls no dice
	oddHush        bool // declares hush, which rolls nothing, yet Odds gives its odds
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
	switch {
	case cmd.Name == "hush" && c.oddHush:
		return nil, nil
	case cmd.Name == "add":
	case cmd.Name == "nope" && c.plainError:
		return nil, errors.New("no")
	case cmd.Name == "nope" || c.lenient:
		return nil, fray.Errorf(fray.EINVALID, "Only add.")
	default:
		return nil, fray.Errorf(fray.EINTERNAL, "%s is declared but not decided.", cmd.Name)
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
// refuses, and with the flaws sub and hush.
func (c *counter) Commands() []fray.CommandDecl {
	ds := []fray.CommandDecl{
		{Name: "add", Send: fray.SendGM, Rolls: true, Summary: "Count the words.", Args: []fray.Param{{Name: "WORD", Kind: fray.KindText, Repeat: true}}},
		{Name: "nope", Send: fray.SendGM, Rolls: true, Summary: "Refused."},
	}
	if c.undecided {
		ds = append(ds, fray.CommandDecl{Name: "sub", Send: fray.SendGM, Summary: "Not decided.", Args: []fray.Param{{Name: "N", Kind: fray.KindNumber, Min: 1, Max: 9}}})
	}
	if c.oddHush {
		ds = append(ds, fray.CommandDecl{Name: "hush", Send: fray.SendGM, Summary: "Nothing."})
	}
	return ds
}

// Odds gives the odds of add (with the flaw oddHush, of hush too), and
// refuses nope as Decide does.
func (c *counter) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	switch {
	case cmd.Name == "nope":
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "Only add.")
	case cmd.Name == "add" && !c.noOdds, cmd.Name == "hush":
		return fray.Odds{Expr: "1d6", Bands: []fray.Band{{Name: "any", P: 1}}}, nil
	}
	return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s rolls no dice, so it has no odds.", cmd.Name)
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

// CheckDecided passes a sound system and catches a declared word Decide
// does not decide, a Decide that would hide one, and declarations of
// rolls that the odds contradict.
func TestCheckDecided(t *testing.T) {
	script := rulestest.Script{Name: "count", Text: "add a b\nnope\nstart\nadd c\nundo"}
	newSystem := func(c counter) func() fray.System { return func() fray.System { return &c } }
	if err := rulestest.CheckDecided(newSystem(counter{}), script); err != nil {
		t.Fatalf("a sound system fails: %v", err)
	}
	tests := []struct {
		name string
		sys  counter
		want string
	}{
		{"declared, not decided", counter{undecided: true}, `"sub 1": internal error: sub is declared but not decided. (declared but not decided, or a crash)`},
		{"an unknown word taken as a mistake", counter{undecided: true, lenient: true}, "declared nowhere: Decide answers Only add., want EINTERNAL"},
		{"declared to roll, no odds", counter{noOdds: true}, `odds add x answers "add rolls no dice, so it has no odds.", but add is declared to roll (Rolls)`},
		{"odds of what does not roll", counter{oddHush: true}, "hush is not declared to roll, yet the system's Odds gives odds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := rulestest.CheckDecided(newSystem(tt.sys), script)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
