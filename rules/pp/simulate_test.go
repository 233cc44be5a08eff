package pp_test

import (
	"testing"

	"fray"
	"fray/rules/pp"
	"fray/rules/rulestest"
)

// TestSimulator checks the moves, the word for down and the track the
// simulator reads (fray.Simulator).
func TestSimulator(t *testing.T) {
	rulestest.Sim(t, func() fray.System { return pp.New() }, rulestest.SimCase{
		Party: "../../examples/pp-party.yaml", Foes: "../../examples/pp-foes.yaml",
		Setup: "start", Actor: "Citizen Soldier", Victim: "Gatecrasher", Down: "damage Gatecrasher 10"})
}
