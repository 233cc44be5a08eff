package vv_test

import (
	"testing"

	"fray"
	"fray/rules/rulestest"
	"fray/rules/vv"
)

// TestSimulator checks the moves, the word for down and the track the
// simulator reads (fray.Simulator).
func TestSimulator(t *testing.T) {
	rulestest.Sim(t, func() fray.System { return vv.New() }, rulestest.SimCase{
		Party: "../../examples/vv-party.yaml", Foes: "../../examples/vv-foes.yaml",
		Setup: "initiative \"Jack B. Nimble\" 10\ninitiative Brick 1\ninitiative \"Doctor Blaze\" 1\ninitiative Grue 1\nstart",
		Actor: "Jack B. Nimble", Victim: "Grue", Down: "damage Grue 30 type=kinetic"})
}
