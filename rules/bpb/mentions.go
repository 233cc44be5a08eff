package bpb

import (
	"bytes"

	"fray"
	"fray/engine"
)

// mentions returns the other combatants (not except) that a note names
// (see engine.Mentions), by id, or nil for none. It is read once, where
// the command that carries the note is decided.
func (s *State) mentions(note, except string) []fray.CombatantID {
	return engine.IDs(&s.Encounter, engine.Mentions(&s.Encounter, note, except))
}

// mentionsKey is the key of the mentions a turnNoted or forcedNoted
// payload records.
var mentionsKey = []byte(`"mentions"`)

// mentionsOf returns the mentions an EventTurnEnded or EventForced
// records (nil for none). Only a payload whose JSON holds the key is
// decoded for them (a note's own quotes are escaped, so its words cannot
// hold it), which leaves the frequent payload without mentions a flat
// one.
func mentionsOf(ev fray.Event) ([]fray.CombatantID, error) {
	if len(ev.Data) == 0 && (fray.Holds[turnData](ev) || fray.Holds[forcedData](ev)) {
		return nil, nil // an unrecorded event (fray.NewUnrecordedEvent) without mentions
	}
	data, err := ev.JSON()
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(data, mentionsKey) {
		return nil, nil
	}
	var d struct {
		Mentions []fray.CombatantID `json:"mentions"`
	}
	if err := ev.Decode(&d); err != nil {
		return nil, err
	}
	if len(d.Mentions) == 0 {
		return nil, nil
	}
	return d.Mentions, nil
}
