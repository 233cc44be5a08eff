package engine

import (
	"strconv"
	"strings"

	"fray"
)

// Conditions (SPEC E-4). A condition sits on a combatant
// (fray.Combatant.Conditions) and lasts until an anchored turn edge
// (fray.Anchor): never a countdown. Systems report turn edges from their
// Apply with TurnEdge, which ends the conditions anchored there; because
// conditions live in the state and change only in Apply, undo, redo and
// replay restore them exactly.

// Command words for conditions, handled by DecideShared.
const (
	CmdCondition = "condition" // put a combatant in a condition
	CmdClear     = "clear"     // end a combatant's condition
)

// Keys of the condition command.
const (
	KeyUntil = "until" // how long: cleared, start, end, start:NAME, end:NAME, round, each with @ROUND or @+N
	KeyMod   = "mod"   // a modifier the condition brings, such as -2 or +3
	KeyOn    = "on"    // the rolls mod applies to: all, attack, attacked, defence, check
	KeyFrom  = "from"  // the first round mod applies: now, next, or a round number
	KeyOnce  = "once"  // yes: the condition is spent by the first roll it modifies
	KeyBy    = "by"    // who caused it
)

// Limits on conditions.
const (
	// MaxConditions is the most conditions one combatant may hold.
	MaxConditions = 32
	// MaxConditionName is the longest condition name, in bytes.
	MaxConditionName = 40
)

func decideCondition(enc *fray.Encounter, cmd fray.Command) (fray.Event, error) {
	c, err := enc.Lookup(cmd.Arg(0))
	if err != nil {
		return fray.Event{}, err
	}
	cond := fray.Condition{Name: cmd.Arg(1), Since: enc.Round}
	if err := checkConditionName(cond.Name); err != nil {
		return fray.Event{}, err
	}
	if c.Condition(cond.Name) == nil && len(c.Conditions) >= MaxConditions {
		return fray.Event{}, fray.Errorf(fray.ETOOLARGE, "%s already holds %d conditions, the limit (MaxConditions).", c, MaxConditions)
	}
	if v, ok := cmd.Opts[KeyUntil]; ok {
		if cond.Until, err = ParseUntil(enc, c.Name, v); err != nil {
			return fray.Event{}, err
		}
	}
	if v, ok := cmd.Opts[KeyMod]; ok {
		n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
		if err != nil || n < -100 || n > 100 {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "mod=%s is not a whole number from -100 to +100.", clip(v))
		}
		on := cmd.Opts[KeyOn]
		if on == "" {
			on = fray.AppliesAll
		}
		switch on {
		case fray.AppliesAll, fray.AppliesAttack, fray.AppliesAttacked, fray.AppliesDefence, fray.AppliesCheck:
		default:
			return fray.Event{}, fray.Errorf(fray.EINVALID, "on=%s is not a kind of roll; use on=all, attack, attacked, defence or check.", clip(on))
		}
		cond.Modifiers = []fray.Modifier{{Source: cond.Name, Value: n, On: on}}
	} else if _, ok := cmd.Opts[KeyOn]; ok {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "on= says which rolls mod= applies to; give mod= too.")
	}
	if v, ok := cmd.Opts[KeyFrom]; ok {
		switch v {
		case "now":
		case "next":
			cond.From = enc.Round + 1
		default:
			n, err := strconv.Atoi(v)
			if err != nil || n < enc.Round || n > enc.Round+1000 {
				return fray.Event{}, fray.Errorf(fray.EINVALID, "from=%s is not now, next or a round from %d on.", clip(v), enc.Round)
			}
			cond.From = n
		}
	}
	if v, ok := cmd.Opts[KeyOnce]; ok {
		if cond.Once, err = ParseYesNo(KeyOnce, v); err != nil {
			return fray.Event{}, err
		}
	}
	if v, ok := cmd.Opts[KeyBy]; ok {
		by, err := enc.Lookup(v)
		if err != nil {
			return fray.Event{}, err
		}
		cond.By, cond.ByID = by.Name, by.ID
	}
	if v, ok := cmd.Opts["note"]; ok {
		if len(v) > 200 {
			return fray.Event{}, fray.Errorf(fray.ETOOLARGE, "note= is longer than 200 bytes.")
		}
		cond.Note = v
	}
	return fray.NewEvent(fray.EventCondition, fray.ConditionData{Who: c.ID, Condition: cond})
}

func checkConditionName(name string) error {
	if err := CheckName(name); err != nil {
		return fray.Errorf(fray.EINVALID, "The condition's name: %s", fray.Quote(err))
	}
	if len(name) > MaxConditionName {
		return fray.Errorf(fray.ETOOLARGE, "The condition %q is longer than %d bytes (MaxConditionName).", clip(name), MaxConditionName)
	}
	return nil
}

// ParseUntil reads a condition's duration for the combatant holder:
//
//	until  = "cleared" | edge [ ":" NAME ] [ "@" round ] | "round" [ "@" round ] .
//	edge   = "start" | "end" .          // of NAME's turn; NAME is the holder when left out
//	round  = N | "+" N .                // a round number, or so many rounds from now
//
// "end" is the end of the holder's next turn, "start:Ganyeka" the start
// of Ganyeka's next turn, "round" the end of this round, "end@+1" the end
// of the holder's turn next round or later. cleared (nil) lasts until a
// clear command.
func ParseUntil(enc *fray.Encounter, holder, v string) (*fray.Anchor, error) {
	bad := func() (*fray.Anchor, error) {
		return nil, fray.Errorf(fray.EINVALID, "until=%s is not a duration; use cleared, start, end, start:NAME, end:NAME or round, each with @ROUND or @+N if need be.", clip(v))
	}
	if v == "cleared" {
		return nil, nil
	}
	spec, at, hasAt := strings.Cut(v, "@")
	a := &fray.Anchor{Round: enc.Round}
	if hasAt {
		rel := strings.HasPrefix(at, "+")
		n, err := strconv.Atoi(strings.TrimPrefix(at, "+"))
		if err != nil || n < 0 || n > 1000 {
			return bad()
		}
		if rel {
			a.Round += n
		} else {
			if n < enc.Round {
				return nil, fray.Errorf(fray.EINVALID, "until=%s names round %d, which has passed (this is round %d).", clip(v), n, enc.Round)
			}
			a.Round = n
		}
	}
	edge, name, hasName := strings.Cut(spec, ":")
	switch edge {
	case "round":
		if hasName {
			return bad()
		}
		a.Edge = fray.EdgeEnd
		return a, nil
	case fray.EdgeStart, fray.EdgeEnd:
		a.Edge = edge
	default:
		return bad()
	}
	a.Name, a.ID = holder, enc.IDOf(holder)
	if hasName {
		c, err := enc.Lookup(name)
		if err != nil {
			return nil, err
		}
		a.Name, a.ID = c.Name, c.ID
	}
	return a, nil
}

func decideClear(enc *fray.Encounter, cmd fray.Command) (fray.Event, error) {
	c, err := enc.Lookup(cmd.Arg(0))
	if err != nil {
		return fray.Event{}, err
	}
	x := c.Condition(cmd.Arg(1))
	if x == nil {
		return fray.Event{}, fray.Errorf(fray.ENOTFOUND, "%s is not %s.", c, clip(cmd.Arg(1)))
	}
	return fray.NewEvent(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: x.Name})
}

// applyCondition applies EventCondition and EventCleared.
func applyCondition(enc *fray.Encounter, ev fray.Event) error {
	switch ev.Type {
	case fray.EventCondition:
		var d fray.ConditionData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		c := enc.ByID(d.Who)
		if c == nil || d.Condition.Name == "" {
			return fray.Errorf(fray.EINVALID, "Event %d puts %s in a condition, but they are not present.", ev.Seq, d.Who)
		}
		x := d.Condition.Clone()
		// A condition a system made in its own words, or one from a log
		// older than ids in conditions, names its causer and anchor: the
		// names become ids here, as the rules meant them then.
		if x.By != "" && x.ByID == "" {
			x.ByID = enc.IDOf(x.By)
		}
		if u := x.Until; u != nil && u.Name != "" && u.ID == "" {
			u.ID = enc.IDOf(u.Name)
		}
		if old := c.Condition(x.Name); old != nil {
			*old = x
			return nil
		}
		c.Conditions = append(c.Conditions, x)
	case fray.EventCleared:
		var d fray.ClearedData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		c := enc.ByID(d.Who)
		if c == nil || c.Condition(d.Condition) == nil {
			return fray.Errorf(fray.EINVALID, "Event %d clears %s's condition %q, which they are not in.", ev.Seq, d.Who, d.Condition)
		}
		dropCondition(c, func(x *fray.Condition) bool { return fray.SameName(x.Name, d.Condition) })
	}
	return nil
}

// dropCondition removes c's conditions for which drop is true, keeping a
// nil list nil and an emptied list empty-but-nil, so that states compare
// equal however they were reached.
func dropCondition(c *fray.Combatant, drop func(*fray.Condition) bool) {
	first := -1
	for i := range c.Conditions {
		if drop(&c.Conditions[i]) {
			first = i
			break
		}
	}
	if first < 0 {
		if c.Conditions != nil && len(c.Conditions) == 0 {
			c.Conditions = nil
		}
		return // nothing to drop: nothing is written
	}
	out := c.Conditions[:first]
	for i := first + 1; i < len(c.Conditions); i++ {
		if !drop(&c.Conditions[i]) {
			out = append(out, c.Conditions[i])
		}
	}
	clear(c.Conditions[len(out):])
	if len(out) == 0 {
		out = nil
	}
	c.Conditions = out
}

// TurnEdge ends the conditions anchored at an edge of the turn of the
// combatant id in round (id empty: of the round itself). Systems call it from Apply whenever a
// turn starts (becomes current) or ends, and when a round starts or ends,
// with the round the encounter is in. A forced or delayed turn is a turn:
// report its start when it is taken and its end when it ends.
func TurnEdge(enc *fray.Encounter, round int, id fray.CombatantID, edge string) {
	for _, c := range enc.Combatants {
		if len(c.Conditions) == 0 {
			continue
		}
		dropCondition(c, func(x *fray.Condition) bool { return endsAt(x, round, id, edge) })
	}
}

// endsAt reports whether the edge of the turn of the combatant id in round
// ends the condition x.
func endsAt(x *fray.Condition, round int, id fray.CombatantID, edge string) bool {
	u := x.Until
	return u != nil && u.Edge == edge && round >= u.Round && u.ID == id
}

// EdgeEnds reports whether TurnEdge(enc, round, id, edge) would end any
// condition: a system that records a turn's edge only where it matters
// asks this first.
func EdgeEnds(enc *fray.Encounter, round int, id fray.CombatantID, edge string) bool {
	for _, c := range enc.Combatants {
		for i := range c.Conditions {
			if endsAt(&c.Conditions[i], round, id, edge) {
				return true
			}
		}
	}
	return false
}

// dropAnchoredTo ends the conditions anchored to a removed combatant's
// turns, which will never come.
func dropAnchoredTo(enc *fray.Encounter, id fray.CombatantID) {
	for _, c := range enc.Combatants {
		if len(c.Conditions) > 0 {
			dropCondition(c, func(x *fray.Condition) bool {
				return x.Until != nil && x.Until.ID != "" && x.Until.ID == id
			})
		}
	}
}

// renameIn keeps the names conditions hold for the combatant id up to
// date with its new name (the ids say who they are; the names are what
// views show).
func renameIn(enc *fray.Encounter, id fray.CombatantID, name string) {
	for _, c := range enc.Combatants {
		for i := range c.Conditions {
			x := &c.Conditions[i]
			if x.ByID == id {
				x.By = name
			}
			if u := x.Until; u != nil && u.ID == id {
				// A new end, never a change in place: a copy of the
				// state may share this one (fray.SheetSharer).
				nu := *u
				nu.Name = name
				x.Until = &nu
			}
		}
	}
}

// ConditionRef is one combatant's condition.
type ConditionRef struct {
	Who       fray.CombatantID `json:"who"`
	Condition string           `json:"condition"`
}

// Modifiers returns the modifiers conditions bring to a roll of the given
// kind (fray.AppliesAttack, AppliesDefence or AppliesCheck) that actor
// makes in round, against target (nil when there is none): the actor's
// modifiers on that kind or on all rolls, and, for an attack, the
// target's modifiers on attacks against them. Each modifier's Source
// names its condition (and who caused it). spent lists the once-only
// conditions the roll uses up; the system ends them with EventCleared
// events in the same step.
func Modifiers(actor, target *fray.Combatant, kind string, round int) (mods []fray.Modifier, spent []ConditionRef) {
	add := func(c *fray.Combatant, want func(on string) bool) {
		for _, x := range c.Conditions {
			if x.From > round {
				continue
			}
			used := false
			for _, m := range x.Modifiers {
				if !want(m.On) {
					continue
				}
				src := x.Name
				if x.By != "" {
					src += " (by " + x.By + ")"
				}
				if c != actor {
					src = c.Name + " " + src
				}
				var who []string
				switch {
				case x.By != "" && c != actor:
					who = []string{x.By, c.Name}
				case x.By != "":
					who = []string{x.By}
				case c != actor:
					who = []string{c.Name}
				}
				mods = append(mods, fray.Modifier{Source: src, Who: who, Value: m.Value})
				used = true
			}
			if used && x.Once {
				spent = append(spent, ConditionRef{Who: c.ID, Condition: x.Name})
			}
		}
	}
	if actor != nil {
		add(actor, func(on string) bool { return on == fray.AppliesAll || on == kind })
	}
	if target != nil && kind == fray.AppliesAttack {
		add(target, func(on string) bool { return on == fray.AppliesAttacked })
	}
	return mods, spent
}

// SpendEvents returns the EventCleared events that end the once-only
// conditions a roll used up.
func SpendEvents(spent []ConditionRef) ([]fray.Event, error) {
	var evs []fray.Event
	for _, r := range spent {
		ev, err := fray.NewEvent(fray.EventCleared, fray.ClearedData{Who: r.Who, Condition: r.Condition})
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}
