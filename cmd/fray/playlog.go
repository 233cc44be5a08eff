package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"fray"
)

// stepSentence says what an undo or redo event did, with the command of
// the step it acts on: "Undid step 8: attack Ganyeka Monolith."
func stepSentence(log []fray.Event, ev fray.Event) string {
	var d fray.StepData
	if json.Unmarshal(ev.Data, &d) != nil || d.Step <= 0 {
		return ev.Type
	}
	verb := "Undid"
	if ev.Type == fray.EventRedo {
		verb = "Redid"
	}
	if c := stepCommand(log, d.Step); c != "" {
		return fmt.Sprintf("%s step %d: %s", verb, d.Step, c)
	}
	return fmt.Sprintf("%s step %d.", verb, d.Step)
}

// stepCommand returns the text of the command that made step, from the
// first event of the step, safe to print; "" when the log has none.
func stepCommand(log []fray.Event, step int) string {
	for _, ev := range log {
		if ev.Step == step && ev.Command != "" {
			return printable(ev.Command)
		}
	}
	return ""
}

// formatLog shows the event log for people: a line for each step, its
// number and its command, marked when it is undone now, and under it a
// line for each of its events; undo and redo in sentences where they
// happened. Names are said as enc (the encounter now) knows them.
//
//	8  attack Ganyeka Monolith with=blast dice=3,2
//	     bpb.task (Ganyeka, Monolith): Ganyeka rolls 2d6: 3, 2 = 5 (faces entered); success (12 against 11)
//	Undid step 8: attack Ganyeka Monolith with=blast dice=3,2
func formatLog(log []fray.Event, enc *fray.Encounter) string {
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
			fmt.Fprintf(&b, "  %s\n", stepSentence(log, ev))
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
		for _, x := range log[i:j] {
			fmt.Fprintf(&b, "       %s\n", eventLine(x, enc))
		}
		i = j
	}
	return b.String()
}

// eventLine shows one event in short: its type, whom it concerns, each
// roll's dice and total, and the outcome of a roll that had odds.
func eventLine(ev fray.Event, enc *fray.Encounter) string {
	s := ev.Type
	var names []string
	for _, id := range ev.About {
		if id == fray.AboutUndeclared {
			continue
		}
		n := ""
		if enc != nil {
			n = enc.NameOf(id)
		}
		if n == "" {
			n = string(id)
		}
		names = append(names, n)
	}
	if len(names) > 0 {
		s += " (" + printable(strings.Join(names, ", ")) + ")"
	}
	var parts []string
	for _, r := range ev.Rolls {
		parts = append(parts, printable(formatRoll(r)))
	}
	if ev.Odds != nil {
		if res := outcome(ev, enc); res != "" {
			parts = append(parts, printable(res))
		}
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, "; ")
	}
	return s
}
