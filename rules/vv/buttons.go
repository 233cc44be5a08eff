package vv

import "fray"

// Hints returns the buttons and forms of a vv page: Act, Hold, Decline
// and Next on the turn; Interrupt with a held action not yet taken on a
// slot of anyone but the one whose turn it is (V-3); the move form.
func (*System) Hints() fray.Hints {
	return fray.Hints{
		Buttons: []fray.Button{
			{Action: "act", Label: "Act", On: fray.OnTurn, Command: "act {current}", Aria: "{current} acts"},
			{Action: "hold", Label: "Hold", On: fray.OnTurn, Command: "hold", Aria: "{current} holds the action"},
			{Action: "decline", Label: "Decline", On: fray.OnTurn, Command: "decline", Aria: "{current} declines the action"},
			{Action: "next", Label: "Next", On: fray.OnTurn, Command: "next", Aria: "Next: {current} is done"},
			{Action: "interrupt", Label: "Interrupt", On: fray.OnSlot, Command: "interrupt {name}", Aria: "{name} interrupts with the held action",
				When: []string{fray.MarkHeld}, Unless: []string{fray.MarkActed}, NotActor: true},
		},
		Forms: []string{fray.FormMove},
	}
}
