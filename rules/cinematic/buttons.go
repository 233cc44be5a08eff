package cinematic

import "fray"

// Hints returns the buttons and forms of a cinematic page: Attack and
// Next on the turn; Defend against the one whose turn it is on everyone
// else's slot; the attack form and the form of full defence or offence.
func (*System) Hints() fray.Hints {
	return fray.Hints{
		Buttons: []fray.Button{
			{Action: "attack", Label: "Attack", On: fray.OnTurn, Command: "attack", Aria: "{current} attacks"},
			{Action: "next", Label: "Next", On: fray.OnTurn, Command: "next", Aria: "Next: end {current}'s turn"},
			{Action: "defend", Label: "Defend", On: fray.OnSlot, Command: "defend {name} against={current}", Aria: "{name} defends against {current}",
				Others: true},
		},
		Forms: []string{fray.FormAttack, fray.FormFull},
	}
}
