package pp

import "fray"

// Hints returns the buttons of a pp page: Act and Next on the turn.
func (*System) Hints() fray.Hints {
	return fray.Hints{
		Buttons: []fray.Button{
			{Action: "act", Label: "Act", On: fray.OnTurn, Command: "act {current}", Aria: "{current} takes an action"},
			{Action: "next", Label: "Next", On: fray.OnTurn, Command: "next", Aria: "Next: end {current}'s turn"},
		},
	}
}
