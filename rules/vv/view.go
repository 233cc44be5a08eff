package vv

import (
	"slices"
	"strconv"

	"fray"
	"fray/rules/kit"
)

// View shows the turn: every action phase with who acts on it, in the
// order they are taken, with markers; held actions carried from an earlier
// turn come first. The next turn cannot be predicted: initiative is rerolled.
func (sys *System) View(st fray.State) fray.View {
	s, err := get(st)
	if err != nil {
		return kit.View(ID, nil, "")
	}
	names := s.names()
	v := kit.View(ID, &s.Encounter, s.current())
	for i := range v.Combatants {
		c := &v.Combatants[i]
		if !tracksPower(c) {
			continue
		}
		// The power track shows the Power left: the sheet's (or the power
		// stat) less the Power spent and rolled with.
		t, ok := c.Tracks[TrackPower]
		if !ok {
			t.Max = c.Stat("power")
		}
		t.Value = s.power(c)
		kit.SetTrack(c, TrackPower, t)
	}
	if s.Latest.Round > 0 {
		n := 1
		for _, chunk := range s.History {
			n += len(chunk)
		}
		v.History = make([]fray.RoundTurns, 0, n)
		var buf []byte
		for _, chunk := range s.History {
			for i := range chunk {
				var h fray.RoundTurns
				h, buf = chunk[i].view(names, buf)
				v.History = append(v.History, h)
			}
		}
		h, _ := s.Latest.view(names, buf)
		v.History = append(v.History, h)
	}
	for _, ch := range s.Chars {
		for _, h := range ch.Held {
			if h.Turn != s.Round {
				v.Order = append(v.Order, fray.Slot{ID: ch.ID, Name: names[ch.ID], Markers: []string{fray.MarkHeld}, Note: "from turn " + strconv.Itoa(h.Turn) + " phase " + strconv.Itoa(h.Phase)})
			}
		}
	}
	for i, sl := range s.Sched {
		if i == s.Cur {
			for j, id := range s.Intr {
				x := fray.Slot{ID: id, Name: names[id], Phase: s.Phase(), Note: "held action"}
				if j == 0 {
					x.Markers = []string{fray.MarkCurrent}
					x.Status = s.moveStatus(id)
				} else {
					x.Markers = []string{fray.MarkHeld}
				}
				v.Order = append(v.Order, x)
			}
		}
		x := fray.Slot{ID: sl.ID, Name: names[sl.ID], Phase: sl.Phase}
		var notes []string
		switch sl.Status {
		case slotActed:
			x.Markers = []string{fray.MarkActed}
		case slotPassed:
			notes = append(notes, "declined")
		case slotHeld:
			x.Markers = []string{fray.MarkHeld}
		case slotLost:
			x.Markers = []string{fray.MarkLost}
		case slotCurrent:
			if len(s.Intr) == 0 {
				x.Markers = []string{fray.MarkCurrent}
			} else {
				notes = append(notes, "interrupted")
			}
		}
		if ch := s.char(sl.ID); ch != nil && ch.Halved {
			notes = append(notes, "surprised, initiative halved")
		}
		if sl.Tied {
			notes = append(notes, "simultaneous")
		}
		for _, b := range s.Pending {
			if b.By == sl.ID && b.Phase == sl.Phase && sl.Group == b.Group {
				notes = append(notes, "blow on "+names[b.Who]+" lands when the simultaneous actions are done")
				if !slices.Contains(x.About, names[b.Who]) {
					x.About = append(x.About, names[b.Who])
				}
			}
		}
		if sl.Status == slotCurrent && len(s.Intr) == 0 {
			// The Move Rate left is the combatant's own number, shown
			// after the notes as before, but as Status: players see it
			// only on a player character's slot.
			x.Status = s.moveStatus(sl.ID)
		}
		for k, n := range notes {
			if k > 0 {
				x.Note += ", "
			}
			x.Note += n
		}
		v.Order = append(v.Order, x)
	}
	return v
}

// moveStatus says how far the character id may still move, when they
// have a Move Rate: "may move 30\"". It is a slot's Status, not its Note:
// the inches left are the character's own numbers, like its tracks.
func (s *State) moveStatus(id fray.CombatantID) string {
	c := s.ByID(id)
	if c == nil || moveRate(c) <= 0 {
		return ""
	}
	return "may move " + inches(s.moveLeft(id))
}

// names returns the names of the combatants by id, present and gone (as
// fray.Encounter.NameOf gives them), for a view to put ids into words.
func (s *State) names() map[fray.CombatantID]string {
	m := make(map[fray.CombatantID]string, len(s.Combatants)+len(s.Gone))
	for i := len(s.Gone) - 1; i >= 0; i-- {
		m[s.Gone[i].ID] = s.Gone[i].Name // the first for an id, as NameOf
	}
	for _, c := range s.Combatants {
		m[c.ID] = c.Name
	}
	return m
}

// view returns the turn's history in words, with the names its
// combatants have now, and buf for the next one to use. Who declares
// whom each action's words name (fray.RoundTurns.Who): its taker, then
// those its words mention.
func (h *TurnLog) view(names map[fray.CombatantID]string, buf []byte) (fray.RoundTurns, []byte) {
	v := fray.RoundTurns{Round: h.Round, Turns: make([]string, len(h.Turns)), Who: make([][]string, len(h.Turns))}
	// The words of all the turn's actions are made as one string, and
	// each action's is a part of it; the takers of the actions that name
	// nobody else share one list.
	buf = buf[:0]
	ends := make([]int, len(h.Turns))
	takers := make([]string, len(h.Turns))
	for i := range h.Turns {
		t := &h.Turns[i]
		takers[i] = names[t.Who]
		buf = t.appendWords(buf, takers[i], h.Round, names)
		ends[i] = len(buf)
	}
	all, start := string(buf), 0
	for i, end := range ends {
		v.Turns[i], start = all[start:end], end
		t := &h.Turns[i]
		if t.What == turnLanded {
			v.Who[i] = []string{takers[i], names[t.By]}
			continue
		}
		if t.Said == nil || len(t.Said.About) == 0 {
			v.Who[i] = takers[i : i+1 : i+1]
			continue
		}
		who := make([]string, 0, 1+len(t.Said.About))
		who = append(who, takers[i])
		for _, id := range t.Said.About {
			who = append(who, names[id])
		}
		v.Who[i] = who
	}
	return v, buf
}

// appendWords appends to b the words of the action, as the seed writes
// them: "Ann (21, 2 Power)", "Ann (30, held action from phase 36)". name
// is what its taker is called, round the turn it was taken in, names the
// names of the others it mentions.
func (t *Turn) appendWords(b []byte, name string, round int, names map[fray.CombatantID]string) []byte {
	b = append(b, name...)
	b = append(b, " ("...)
	switch t.What {
	case turnActed:
		b = strconv.AppendInt(b, int64(t.Phase), 10)
		b = appendCost(b, t.Power)
	case turnHeld:
		b = append(strconv.AppendInt(b, int64(t.Phase), 10), ", held"...)
	case turnDeclined:
		b = append(strconv.AppendInt(b, int64(t.Phase), 10), ", declined"...)
	case turnLost:
		b = append(strconv.AppendInt(b, int64(t.Phase), 10), ", lost to surprise"...)
	case turnUsed:
		b = append(strconv.AppendInt(b, int64(t.Phase), 10), ", held action from "...)
		b = appendHold(b, t.HoldTurn, t.HoldPhase, round)
		if !t.Taken {
			b = append(b, ", not taken"...)
		}
		b = appendCost(b, t.Power)
	case turnKept:
		b = append(strconv.AppendInt(b, int64(t.Phase), 10), ", held action kept"...)
	case turnLapsed:
		b = append(b, "held action from "...)
		b = append(appendHold(b, t.HoldTurn, t.HoldPhase, round), " lapsed"...)
	case turnEndLost:
		b = append(b, "held action from phase "...)
		b = append(strconv.AppendInt(b, int64(t.HoldPhase), 10), " lost at the end of the turn"...)
	case turnUpkeep:
		b = append(b, "upkeep, "...)
		b = append(strconv.AppendInt(b, int64(t.Power), 10), " Power"...)
	case turnUnpaid:
		b = append(b, "upkeep of "...)
		b = append(strconv.AppendInt(b, int64(t.Power), 10), " Power not paid, more than the Power left: it ends"...)
	case turnLanded:
		b = append(strconv.AppendInt(b, int64(t.Hits), 10), " Hit Points"...)
		if t.Power > 0 {
			b = append(strconv.AppendInt(append(b, " and "...), int64(t.Power), 10), " Power"...)
		}
		b = append(append(append(b, " from "...), names[t.By]...), "'s attack on phase "...)
		b = append(strconv.AppendInt(b, int64(t.Phase), 10), ", landed as the simultaneous actions ended"...)
	case turnSpent:
		b = append(strconv.AppendInt(b, int64(t.Power), 10), " Power spent"...)
		if t.Phase > 0 {
			b = strconv.AppendInt(append(b, " on phase "...), int64(t.Phase), 10)
		}
		if t.Said != nil {
			b = append(append(b, ": "...), t.Said.Note...)
		}
	}
	return append(b, ')')
}

// appendCost appends ", N Power" for a cost, nothing for none.
func appendCost(b []byte, cost int) []byte {
	if cost == 0 {
		return b
	}
	return append(strconv.AppendInt(append(b, ", "...), int64(cost), 10), " Power"...)
}

// appendHold appends where a held action was saved: "phase 36" in the
// same turn, "turn 2 phase 36" in an earlier one.
func appendHold(b []byte, turn, phase, round int) []byte {
	if turn != round {
		b = append(strconv.AppendInt(append(b, "turn "...), int64(turn), 10), ' ')
	}
	return strconv.AppendInt(append(b, "phase "...), int64(phase), 10)
}

// Check reports a broken invariant of st.
func (sys *System) Check(st fray.State) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	bad := kit.Bad("V&V state: ")
	if err := kit.CheckRoster(&s.Encounter, s.Chars, "turn", bad); err != nil {
		return err
	}
	for _, ch := range s.Chars {
		if s.Setting(SetHeld, House) == House && len(ch.Held) > 1 {
			return bad("%s holds %d actions under the house rule", s.NameOf(ch.ID), len(ch.Held))
		}
		for _, h := range ch.Held {
			if h.Turn > s.Round || (s.Setting(SetHeld, House) == RAW && h.Turn != s.Round) {
				return bad("%s holds an action from turn %d in turn %d", s.NameOf(ch.ID), h.Turn, s.Round)
			}
		}
	}
	for _, id := range s.Tiebreak {
		if s.char(id) == nil {
			return bad("the GM's order names %s, who is not present", id)
		}
	}
	for id := range s.Ties {
		if s.char(id) == nil {
			return bad("a tie toss is kept for %s, who is not present", id)
		}
	}
	if s.Cur < 0 || s.Cur > len(s.Sched) {
		return bad("the count is at slot %d of %d", s.Cur, len(s.Sched))
	}
	type phaseOf struct {
		id    fray.CombatantID
		phase int
	}
	seen := map[phaseOf]bool{}
	for i, sl := range s.Sched {
		if s.char(sl.ID) == nil {
			return bad("slot %d belongs to %s, who is not present", i, sl.ID)
		}
		name := s.NameOf(sl.ID)
		if i > 0 && s.Sched[i-1].Phase < sl.Phase {
			return bad("phase %d is listed after phase %d", sl.Phase, s.Sched[i-1].Phase)
		}
		key := phaseOf{sl.ID, sl.Phase}
		if seen[key] {
			return bad("%s has two slots on phase %d", name, sl.Phase)
		}
		seen[key] = true
		switch {
		case i < s.Cur:
			if sl.Status != slotActed && sl.Status != slotPassed && sl.Status != slotHeld && sl.Status != slotLost {
				return bad("slot %d (%s, %d) is behind the count but %q", i, name, sl.Phase, sl.Status)
			}
		case i == s.Cur:
			if sl.Status != slotCurrent && !(len(s.Intr) > 0 && (sl.Status == slotPending || sl.Status == slotLost)) {
				return bad("slot %d (%s, %d) is at the count but %q", i, name, sl.Phase, sl.Status)
			}
		default:
			if sl.Status != slotPending && sl.Status != slotLost {
				return bad("slot %d (%s, %d) is ahead of the count but %q", i, name, sl.Phase, sl.Status)
			}
		}
	}
	for i, id := range s.Intr {
		ch := s.char(id)
		if ch == nil || ch.Act.Hold == nil {
			return bad("interrupter %s is not present or uses no held action", id)
		}
		if slices.Contains(s.Intr[i+1:], id) {
			return bad("%s interrupts twice at once", s.NameOf(id))
		}
	}
	if len(s.Intr) > 0 && s.Cur >= len(s.Sched) {
		return bad("interrupting after the turn's phases are over")
	}
	if p := s.IntrPhase; p != 0 && (len(s.Intr) == 0 || p <= s.Sched[s.Cur].Phase || (s.Cur > 0 && p >= s.Sched[s.Cur-1].Phase)) {
		return bad("held actions are used on phase %d, not between the phases counted", p)
	}
	for _, b := range s.Pending {
		if s.char(b.Who) == nil {
			return bad("a blow is pending on %s, who is not present", b.Who)
		}
		if b.Group == 0 || s.Cur >= len(s.Sched) || s.Sched[s.Cur].Group != b.Group {
			return bad("a blow of group %d is pending with the count elsewhere", b.Group)
		}
	}
	return nil
}
