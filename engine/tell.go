package engine

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
)

// The log in words. Tell says one event: the events every system shares
// (added, removed, set, noted, revealed, condition, cleared, renamed,
// undo, redo) are said here once; a system's own events by the system
// (fray.Teller), else by their type, whom they concern and their rolls.
// TellEvents and TellLog give each event the state just before it, as
// tellers want it (fray.Tale.State).

// MaxTellApplies is the most events TellLog applies to rebuild states
// after undo and redo, beyond one pass over the log; past it the events
// left are told without a state (without the tracks after damage).
const MaxTellApplies = 200_000

// Tell returns the words of the event t.Event under sys.
func Tell(sys fray.System, t fray.Tale) fray.Told {
	if told, ok := tellShared(t); ok {
		return told
	}
	if tl, ok := sys.(fray.Teller); ok {
		if told, ok := tl.Tell(t); ok {
			return told
		}
	}
	return tellPlain(t)
}

// TellEvents returns the words of evs, events that follow one another
// from the state before (not changed; nil when not at hand), each told in
// the state just before it. An undo or redo is said with the command of
// the step it acts on, found in log (which may be nil).
func TellEvents(sys fray.System, before fray.State, evs, log []fray.Event, name func(fray.CombatantID) string) []fray.Told {
	out := make([]fray.Told, len(evs))
	st := before
	if st != nil {
		st = st.Clone()
	}
	for i, ev := range evs {
		if ev.Type == fray.EventUndo || ev.Type == fray.EventRedo {
			out[i] = tellStep(ev, log)
			st = nil // the state after an undo is not this one
			continue
		}
		out[i] = Tell(sys, fray.Tale{Event: ev, State: st, Name: name})
		if st != nil && sys.Apply(st, ev) != nil {
			st = nil
		}
	}
	return out
}

// TellLog returns the words of log[from:], the tail of a whole log (as
// Engine.Log returns it), each event told in the state just before it
// happened: the log is applied from the start, and after an undo or a
// redo the state is rebuilt from the steps then applied (within
// MaxTellApplies).
func TellLog(sys fray.System, log []fray.Event, from int, name func(fray.CombatantID) string) []fray.Told {
	from = max(0, min(from, len(log)))
	out := make([]fray.Told, 0, len(log)-from)
	st := sys.NewState()
	var steps [][]fray.Event // the events of each step, by step-1
	var active, redo []int
	budget := MaxTellApplies
	rebuild := func() {
		if st == nil {
			return
		}
		n := 0
		for _, s := range active {
			n += len(steps[s-1])
		}
		if n > budget {
			st = nil
			return
		}
		budget -= n
		st = sys.NewState()
		for _, s := range active {
			for _, ev := range steps[s-1] {
				_ = sys.Apply(st, ev)
			}
		}
	}
	for i, ev := range log {
		switch {
		case ev.Type == fray.EventUndo || ev.Type == fray.EventRedo:
			if i >= from {
				out = append(out, tellStep(ev, log))
			}
			var d fray.StepData
			if ev.Decode(&d) != nil {
				st = nil
				continue
			}
			if ev.Type == fray.EventUndo && len(active) > 0 && active[len(active)-1] == d.Step {
				active, redo = active[:len(active)-1], append(redo, d.Step)
			} else if ev.Type == fray.EventRedo && len(redo) > 0 && redo[len(redo)-1] == d.Step {
				redo, active = redo[:len(redo)-1], append(active, d.Step)
			} else {
				st = nil
				continue
			}
			rebuild()
		default:
			if ev.Step == len(steps)+1 {
				steps = append(steps, nil)
				active = append(active, ev.Step)
				redo = redo[:0]
			}
			if ev.Step >= 1 && ev.Step <= len(steps) {
				steps[ev.Step-1] = append(steps[ev.Step-1], ev)
			}
			if i >= from {
				out = append(out, Tell(sys, fray.Tale{Event: ev, State: st, Name: name}))
			}
			if st != nil && sys.Apply(st, ev) != nil {
				st = nil
			}
		}
	}
	return out
}

// tellStep says an undo or redo: "Undid step 8: attack Ganyeka Monolith."
func tellStep(ev fray.Event, log []fray.Event) fray.Told {
	var d fray.StepData
	if ev.Decode(&d) != nil || d.Step <= 0 {
		return fray.Told{Text: ev.Type}
	}
	verb := "Undid"
	if ev.Type == fray.EventRedo {
		verb = "Redid"
	}
	for _, x := range log {
		if x.Step == d.Step && x.Command != "" {
			return fray.Told{Text: verb + " step " + strconv.Itoa(d.Step) + ": " + x.Command}
		}
	}
	return fray.Told{Text: verb + " step " + strconv.Itoa(d.Step) + "."}
}

// tellShared says the events every system shares.
func tellShared(t fray.Tale) (fray.Told, bool) {
	ev := t.Event
	switch ev.Type {
	case fray.EventUndo, fray.EventRedo:
		return tellStep(ev, nil), true
	case fray.EventAdded:
		var d fray.AddedData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		c := d.Combatant
		what := "an NPC"
		switch {
		case c.Kind == fray.KindGroup:
			what = "a group"
		case c.Kind == fray.KindEnvironment:
			what = "the environment"
		case c.Side == fray.SidePC:
			what = "a player character"
		}
		s := nameOr(t, c.ID, c.Name) + " joins as " + what
		switch {
		case d.Before != "":
			s += ", before " + t.Who(d.Before)
		case d.After != "":
			s += ", after " + t.Who(d.After)
		}
		if c.Hidden {
			s += ", hidden from players"
		}
		return fray.Told{Text: s + ".", Detail: tracksDetail(c)}, true
	case fray.EventRemoved:
		var d fray.NameData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Who) + " leaves the encounter."}, true
	case fray.EventRevealed:
		var d fray.NameData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Who) + " is shown to players."}, true
	case fray.EventSet:
		var d fray.SetData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: "Setting " + d.Key + " is now " + d.Value + "."}, true
	case fray.EventNoted:
		var d fray.NoteData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: "Note on " + t.Who(d.Who) + ": " + d.Note}, true
	case fray.EventRenamed:
		var d fray.RenamedData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: d.Name + " is now called " + d.To + "."}, true
	case fray.EventCondition:
		var d fray.ConditionData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Who) + " is " + ConditionText(t, d.Condition) + "."}, true
	case fray.EventCleared:
		var d fray.ClearedData
		if ev.Decode(&d) != nil {
			return fray.Told{}, false
		}
		return fray.Told{Text: t.Who(d.Who) + " is no longer " + d.Condition + "."}, true
	}
	return fray.Told{}, false
}

// nameOr returns the name the tale's reader knows for id, else name (the
// name an event carries, such as a newcomer's).
func nameOr(t fray.Tale, id fray.CombatantID, name string) string {
	if t.Name != nil && id != "" {
		if n := t.Name(id); n != "" {
			return n
		}
	}
	if name == "" {
		return fray.Someone
	}
	return name
}

// ConditionText says a condition in words, its people named as the
// tale's reader knows them: "distracted (by Ganyeka; +3 on attacked;
// once) until the end of Monolith's turn (round 2 or later)".
func ConditionText(t fray.Tale, x fray.Condition) string {
	var parts []string
	if x.By != "" || x.ByID != "" {
		parts = append(parts, "by "+nameOr(t, x.ByID, x.By))
	}
	if !t.Redacted {
		for _, m := range x.Modifiers {
			parts = append(parts, signed(m.Value)+" on "+m.On)
		}
	}
	if x.From > 0 {
		parts = append(parts, "from round "+strconv.Itoa(x.From))
	}
	if x.Once {
		parts = append(parts, "once")
	}
	if x.Note != "" {
		parts = append(parts, x.Note)
	}
	s := x.Name
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, "; ") + ")"
	}
	if a := x.Until; a != nil {
		// A player's redacted event has lost the round (a number of
		// someone whose numbers they may not see): the end is said
		// without it.
		known := !t.Redacted || a.Round > 0
		switch {
		case a.Name == "" && a.ID == "" && known:
			s += " until the " + a.Edge + " of round " + strconv.Itoa(a.Round)
		case a.Name == "" && a.ID == "":
			s += " until the " + a.Edge + " of a round"
		case known:
			s += " until the " + a.Edge + " of " + nameOr(t, a.ID, a.Name) + "'s turn (round " + strconv.Itoa(a.Round) + " or later)"
		default:
			s += " until the " + a.Edge + " of " + nameOr(t, a.ID, a.Name) + "'s turn"
		}
	}
	return s
}

// signed says n with its sign: "+3", "-2".
func signed(n int) string {
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// tracksDetail lists a newcomer's tracks: "Endurance 30 of 30".
func tracksDetail(c fray.Combatant) string {
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(c.Tracks)) {
		tr := c.Tracks[k]
		lines = append(lines, k+" "+strconv.Itoa(tr.Value)+" of "+strconv.Itoa(tr.Max))
	}
	return strings.Join(lines, "\n")
}

// tellPlain says an event no teller says: its rolls in their own words
// ("Johann rolls 1d20 15 (faces entered)") with their odds, or, with no
// roll, its type and whom it concerns.
func tellPlain(t fray.Tale) fray.Told {
	ev := t.Event
	var names []string
	for _, id := range ev.About {
		if id != fray.AboutUndeclared {
			names = append(names, t.Who(id))
		}
	}
	var rolls []string
	for _, r := range ev.Rolls {
		rolls = append(rolls, RollLine(t, r))
	}
	if len(rolls) > 0 {
		// The rolls say who did what in the roll's own words.
		return fray.Told{Text: strings.Join(rolls, "; ") + OddsClause(t), Detail: TellDetail(t)}
	}
	s := ev.Type
	if len(names) > 0 {
		s += " (" + strings.Join(names, ", ") + ")"
	}
	return fray.Told{Text: s, Detail: TellDetail(t)}
}

// RollLine says a roll with whom it is for as the tale's reader knows
// them: "Ganyeka rolls 2d6 6, 1 = 7". The roll's own words (Roll.For,
// such as "Whisper (Agility 5d; exchange 1 of 3)") are kept when they
// begin with that name, which a rename since would have changed.
func RollLine(t fray.Tale, r fray.Roll) string {
	who := nameOr(t, r.Who, r.For)
	switch {
	case r.Who == "" && r.For == "":
		who = "roll"
	case strings.HasPrefix(r.For, who):
		who = r.For
	}
	return who + " rolls " + fray.RollText(r)
}

// TellDetail returns the usual breakdown of a roll event as lines: each
// roll, then the odds it had and their modifiers. Tellers add their own
// lines before it.
func TellDetail(t fray.Tale, lines ...string) string {
	for _, r := range t.Event.Rolls {
		lines = append(lines, RollLine(t, r))
	}
	if o := t.Event.Odds; o != nil {
		lines = append(lines, fray.OddsDetail(*o)...)
	}
	return strings.Join(lines, "\n")
}

// TrackChange returns the value of the track of the combatant who before
// and after the tale's event, applied under sys to a clone of the tale's
// state; ok is false when the tale has no state or the combatant no such
// track.
func TrackChange(sys fray.System, t fray.Tale, who fray.CombatantID, track string) (before, after int, ok bool) {
	if t.State == nil {
		return 0, 0, false
	}
	value := func(st fray.State) (int, bool) {
		b, isBase := st.(fray.BaseState)
		if !isBase {
			return 0, false
		}
		c := b.Base().ByID(who)
		if c == nil {
			return 0, false
		}
		tr, has := c.Tracks[track]
		return tr.Value, has
	}
	before, ok = value(t.State)
	if !ok {
		return 0, 0, false
	}
	st := t.State.Clone()
	if sys.Apply(st, t.Event) != nil {
		return 0, 0, false
	}
	after, ok = value(st)
	return before, after, ok
}

// Bonus says what was added to a roll's dice, "" for nothing: " + 6",
// " - 2".
func Bonus(n int) string {
	switch {
	case n > 0:
		return " + " + strconv.Itoa(n)
	case n < 0:
		return " - " + strconv.Itoa(-n)
	}
	return ""
}

// OddsClause says the odds an event's roll had, after its sentence: "
// (odds: miss 8% · hit 33% · extreme hit 58%)", the bands that could not
// come left out; "" when the event has none (a player's) or only one
// band could come.
func OddsClause(t fray.Tale) string {
	o := t.Event.Odds
	if o == nil || len(o.Bands) < 2 {
		return ""
	}
	rest := *o
	rest.Bands = nil
	for _, b := range o.Bands {
		if b.P > 0 {
			rest.Bands = append(rest.Bands, b)
		}
	}
	if len(rest.Bands) < 2 {
		return "" // a sure thing has no odds worth saying
	}
	return " (odds: " + fray.OddsText(rest) + ")"
}

// HealthAfter says the health track of the combatant who before and
// after the tale's event: ": hit points 14 → 8"; "" when the tale has no
// state or the system declares no health track (fray.Sheeter).
func HealthAfter(sys fray.System, t fray.Tale, who fray.CombatantID) string {
	sh, ok := sys.(fray.Sheeter)
	if !ok || sh.Sheet().Health == "" {
		return ""
	}
	track := sh.Sheet().Health
	before, after, ok := TrackChange(sys, t, who, track)
	if !ok {
		return ""
	}
	return ": " + track + " " + strconv.Itoa(before) + " → " + strconv.Itoa(after)
}

// TellRolled finishes the sentence of a roll's event: the odds the roll
// had, a full stop, and the usual breakdown (TellDetail).
func TellRolled(t fray.Tale, text string) fray.Told {
	return fray.Told{Text: text + OddsClause(t) + ".", Detail: TellDetail(t)}
}

// TellDamage says that who takes n damage, note (such as " (9 less 3
// protection)") after the number, and the system's health track before
// and after (HealthAfter); a redacted tale says only that who takes
// damage.
func TellDamage(sys fray.System, t fray.Tale, who fray.CombatantID, n int, note string) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(who) + " takes damage."}
	}
	return fray.Told{Text: t.Who(who) + " takes " + strconv.Itoa(n) + " damage" + note + HealthAfter(sys, t, who) + "."}
}

// TellHeal says that who regains n of unit ("hit points"), and the health
// track before and after; a redacted tale says only that who is healed.
func TellHeal(sys fray.System, t fray.Tale, who fray.CombatantID, n int, unit string) fray.Told {
	if t.Redacted {
		return fray.Told{Text: t.Who(who) + " is healed."}
	}
	return fray.Told{Text: t.Who(who) + " regains " + strconv.Itoa(n) + " " + unit + HealthAfter(sys, t, who) + "."}
}
