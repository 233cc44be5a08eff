package queue

import "fray"

// Hints returns the buttons of a queue page: a Major and a Minor action
// and Next on the turn; React to the one whose turn it is on everyone
// else's slot.
func (*System) Hints() fray.Hints {
	return fray.Hints{
		Buttons: []fray.Button{
			{Action: "major", Label: "Major action", On: fray.OnTurn, Command: "act {current} major", Aria: "{current} takes a Major action"},
			{Action: "minor", Label: "Minor action", On: fray.OnTurn, Command: "act {current} minor", Aria: "{current} takes a Minor action"},
			{Action: "next", Label: "Next", On: fray.OnTurn, Command: "next {current}", Aria: "Next: {current} goes to the bottom of the queue"},
			{Action: "react", Label: "React", On: fray.OnSlot, Command: "react {name} to={current}", Aria: "{name} reacts to {current}",
				Others: true},
		},
	}
}
