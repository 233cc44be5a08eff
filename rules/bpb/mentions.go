package bpb

import (
	"bytes"

	"fray"
)

// mentionsKey is the key of the mentions a turnNoted or forcedNoted
// payload records.
var mentionsKey = []byte(`"mentions"`)

// mentionsOf returns the names of the mentions an EventTurnEnded or
// EventForced records (nil for none), for the turn to keep as ids (see
// State.noted). Only a payload whose
// JSON holds the key is decoded for them (a note's own quotes are
// escaped, so its words cannot hold it), which leaves the frequent
// payload without mentions a flat one.
func mentionsOf(ev fray.Event) ([]string, error) {
	if !bytes.Contains(ev.Data, mentionsKey) {
		return nil, nil
	}
	var d struct {
		Mentions []string `json:"mentions"`
	}
	if err := ev.Decode(&d); err != nil {
		return nil, err
	}
	if len(d.Mentions) == 0 {
		return nil, nil
	}
	return d.Mentions, nil
}
