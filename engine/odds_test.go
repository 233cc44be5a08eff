package engine_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"fray"
	"fray/engine"
)

// coinState is the state of the coin system: the encounter only.
type coinState struct{ fray.Encounter }

func (s *coinState) Clone() fray.State { return &coinState{s.CloneEncounter()} }

// coin is a system with one roll, "flip", whose odds it can show.
type coin struct{}

func (coin) ID() string                { return "coin" }
func (coin) Name() string              { return "Coin" }
func (coin) NewState() fray.State      { return &coinState{} }
func (coin) View(fray.State) fray.View { return fray.View{Rules: "coin"} }
func (coin) Check(fray.State) error    { return nil }
func (coin) Commands() []fray.CommandDecl {
	return append(engine.SharedDecls(engine.Spec{}), fray.CommandDecl{Name: "flip", Send: fray.SendNamed, Rolls: true,
		Summary: "Flip a coin.", Args: []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Actor: true}}})
}
func (coin) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	evs, ok, err := engine.DecideShared(&st.(*coinState).Encounter, cmd, engine.Spec{})
	if !ok {
		return nil, fray.Errorf(fray.EINVALID, "Unknown command %q.", cmd.Name)
	}
	return evs, err
}
func (coin) Apply(st fray.State, ev fray.Event) error {
	_, _, _, err := engine.ApplyShared(&st.(*coinState).Encounter, ev)
	return err
}

// plain is the coin system without odds.
type plain struct{ coin }

func (plain) Odds() {}

func (coin) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	if cmd.Name != "flip" {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s rolls no dice, so it has no odds.", cmd.Name)
	}
	return fray.Odds{For: cmd.Arg(0), Expr: "1d2", Bands: []fray.Band{{Name: "tails", P: 0.5}, {Name: "heads", P: 0.5}}}, nil
}

func TestOddsQuery(t *testing.T) {
	e := engine.New(coin{}, rand.New(rand.NewPCG(1, 2)))
	do(t, e, "add A")
	before := e.State().Clone()
	cmd, _ := engine.ParseCommand("odds flip A")
	evs, err := e.Do(cmd)
	if err != nil || len(evs) != 0 {
		t.Fatalf("Do(odds flip A) = %v, %v; want no events", evs, err)
	}
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if o.Command != "flip A" || o.For != "A" || o.P("heads") != 0.5 {
		t.Errorf("odds = %+v", o)
	}
	if len(e.Log()) != 1 || !reflect.DeepEqual(before, e.State()) {
		t.Errorf("odds changed the encounter")
	}
	refuse(t, e, "odds add B", "add rolls no dice, so it has no odds.")
	refuse(t, e, "odds next", `Coin has no command "next"`)
	refuse(t, e, "odds", "Usage: odds COMMAND")
	refuse(t, e, "odds flip A dice=1", "odds rolls nothing")
	refuse(t, e, "odds undo", "undo rolls no dice")
}

func TestOddsRefusedWithoutOddser(t *testing.T) {
	e := engine.New(plain{}, rand.New(rand.NewPCG(1, 2)))
	do(t, e, "add A")
	refuse(t, e, "odds flip A", "cannot show odds")
}

// The odds an event records survive the log's round trip.
func TestEventOddsRoundTrip(t *testing.T) {
	ev, err := fray.NewEvent("x.rolled", fray.NameData{Who: "aaaaaaaa"}, fray.Roll{Expr: "2d6", Dice: []int{3, 4}, Total: 7, Source: fray.RollSeeded})
	if err != nil {
		t.Fatal(err)
	}
	ev.Seq, ev.Step = 1, 1
	ev.Odds = &fray.Odds{Expr: "2d6", Target: 8, TargetKind: "difficulty", Bands: []fray.Band{{Name: "failure", P: 0.5}}, Modifiers: []fray.Modifier{{Source: "expertise", Value: 3}}}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	got, err := engine.DecodeEvent(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Odds, ev.Odds) {
		t.Errorf("odds after the round trip: %+v, want %+v", got.Odds, ev.Odds)
	}
}
