package rulestest

import (
	"encoding/json"

	"fray"
)

// ToldEvent returns a hand-built event of the type typ for CheckToldAll:
// data is its payload's JSON, about the combatants it concerns (whose
// ids CheckToldAll tells as their names), rolls its rolls.
func ToldEvent(typ, data string, about []fray.CombatantID, rolls ...fray.Roll) fray.Event {
	ev := fray.Event{Seq: 1, Step: 1, Type: typ, About: about, Rolls: rolls}
	if data != "" {
		ev.Data = json.RawMessage(data)
	}
	return ev
}

// ToldWant fails t, through report, unless the words told of the type
// typ (CheckToldAll's answer) include every sentence of want.
func ToldWant(report func(format string, args ...any), told map[string][]string, typ string, want ...string) {
	for _, w := range want {
		found := false
		for _, x := range told[typ] {
			if x == w {
				found = true
				break
			}
		}
		if !found {
			report("%s is never told %q; told: %q", typ, w, told[typ])
		}
	}
}
