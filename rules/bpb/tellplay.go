package bpb

import "fray"

// tellPlay says the events of vehicles under a character's control: a
// character takes or gives up control, and the vehicle moves on its
// controller's turn.
func (s *System) tellPlay(t fray.Tale) (fray.Told, bool) {
	ev := t.Event
	switch ev.Type {
	case EventControlled:
		var d controlData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		if d.By == "" {
			return fray.Told{Text: "Nobody controls " + t.Who(d.Vehicle) + " now."}, true
		}
		return fray.Told{Text: t.Who(d.By) + " takes control of " + t.Who(d.Vehicle) + "."}, true
	case EventMoved:
		var d movedData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		text := t.Who(d.By) + " moves " + t.Who(d.Vehicle)
		if d.Note != "" {
			text += " (" + d.Note + ")"
		}
		return fray.Told{Text: text + "."}, true
	}
	return fray.Told{}, false
}
