package bpb_test

import (
	"testing"

	"fray"
	"fray/rules/bpb"
	"fray/rules/rulestest"
)

// TestSimulator checks the moves, the word for down and the track the
// simulator reads (fray.Simulator).
func TestSimulator(t *testing.T) {
	rulestest.Sim(t, func() fray.System { return bpb.New() }, rulestest.SimCase{
		Party: "../../examples/bpb-party.yaml", Foes: "../../examples/bpb-foes.yaml",
		Setup: "order Blueshift Monolith Ganyeka \"Ganyeka's henchmen\"\nstart",
		Actor: "Blueshift", Victim: "Ganyeka", Down: "damage Ganyeka 24"})
}
