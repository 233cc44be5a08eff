package engine

import (
	"encoding/json"

	"fray"
)

// DecodeEvent decodes one event encoded as JSON, such as a line of a log.
// Its payload stays as JSON until the engine takes the event in (Replay,
// Import, Resume, Extend), which decodes it once into the type its system
// declares for it.
func DecodeEvent(b []byte) (fray.Event, error) {
	var ev fray.Event
	err := json.Unmarshal(b, &ev)
	return ev, err
}
