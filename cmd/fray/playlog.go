package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"fray"
)

// formatLog shows the event log for people: a line for each step, its
// number and its command, marked when it is undone now, and under it a
// line for each of its events in the system's words (told, one for each
// event of log: engine.TellLog); undo and redo in sentences where they
// happened.
//
//	8  attack Ganyeka Monolith with=blast dice=3,2
//	     Ganyeka attacks Monolith with blast: 2d6 3, 2 = 5 + 7 = 12 against 11 — hit, 3 damage if it lands (odds: hit 33%, extreme hit 58%).
//	Undid step 8: attack Ganyeka Monolith with=blast dice=3,2
func formatLog(log []fray.Event, told []fray.Told) string {
	undone := map[int]bool{}
	for _, ev := range log {
		var d fray.StepData
		if ev.Type == fray.EventUndo || ev.Type == fray.EventRedo {
			if json.Unmarshal(ev.Data, &d) == nil {
				undone[d.Step] = ev.Type == fray.EventUndo
			}
		}
	}
	var b strings.Builder
	if len(log) == 0 {
		b.WriteString("  The log is empty.\n")
	}
	for i := 0; i < len(log); {
		ev := log[i]
		if ev.Step <= 0 {
			fmt.Fprintf(&b, "  %s\n", printable(told[i].Text))
			i++
			continue
		}
		j := i + 1
		for j < len(log) && log[j].Step == ev.Step {
			j++
		}
		c := printable(ev.Command)
		if c == "" {
			c = "(" + ev.Type + ")"
		}
		mark := ""
		if undone[ev.Step] {
			mark = "  [undone]"
		}
		fmt.Fprintf(&b, "  %d  %s%s\n", ev.Step, c, mark)
		for k := i; k < j; k++ {
			fmt.Fprintf(&b, "       %s\n", printable(told[k].Text))
		}
		i = j
	}
	return b.String()
}
