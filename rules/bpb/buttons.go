package bpb

import "fray"

// Hints returns the buttons and forms of a bpb page: Next and Delay on
// the turn; on a slot, Interrupt with a delayed turn not yet taken (B-6)
// and Force unless the turn is lost or forced already (B-7), never on
// the environment or the unaware; Aware on an unaware combatant's card
// (B-3); the reorder form (B-9); and an order declared before the start.
func (*System) Hints() fray.Hints {
	never := []string{fray.MarkEnvironment, fray.MarkUnaware}
	return fray.Hints{
		Buttons: []fray.Button{
			{Action: "next", Label: "Next", On: fray.OnTurn, Command: "next {current}", Aria: "Next: end {current}'s turn"},
			{Action: "delay", Label: "Delay", On: fray.OnTurn, Command: "delay {current}", Aria: "Delay {current}'s turn"},
			{Action: "interrupt", Label: "Interrupt", On: fray.OnSlot, Command: "interrupt {name}", Aria: "{name} interrupts: take the delayed turn now",
				When: []string{fray.MarkDelayed}, Unless: append([]string{fray.MarkCurrent, fray.MarkActed}, never...), NotActor: true},
			{Action: "force", Label: "Force", On: fray.OnSlot, Command: "force {name}", Aria: "Force an action for {name}",
				Unless: append([]string{fray.MarkLost, fray.MarkForced}, never...)},
			{Action: "aware", Label: "Aware", On: fray.OnCard, Command: "aware {name}", Aria: "{name} becomes aware",
				When: []string{fray.MarkUnaware}},
		},
		Forms:   []string{fray.FormReorder},
		Declare: true,
	}
}
