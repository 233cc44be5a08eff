package bpb

import "fray"

// The events of vehicles under a character's control: a character takes
// or gives up control, and the vehicle moves on its controller's turn.

// tellControlled says a character taking or giving up control of a
// vehicle.
func (s *System) tellControlled(t fray.Tale, d controlData) fray.Told {
	if d.By == "" {
		return fray.Told{Text: "Nobody controls " + t.Who(d.Vehicle) + " now."}
	}
	return fray.Told{Text: t.Who(d.By) + " takes control of " + t.Who(d.Vehicle) + "."}
}

// tellMoved says a vehicle moving on its controller's turn.
func (s *System) tellMoved(t fray.Tale, d movedData) fray.Told {
	text := t.Who(d.By) + " moves " + t.Who(d.Vehicle)
	if d.Note != "" {
		text += " (" + d.Note + ")"
	}
	return fray.Told{Text: text + "."}
}
