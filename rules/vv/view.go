package vv

import (
	"maps"
	"slices"
	"strconv"

	"fray"
)

// View shows the turn: every action phase with who acts on it, in the
// order they are taken, with markers; held actions carried from an earlier
// turn come first. The next turn cannot be predicted: initiative is rerolled.
func (sys *System) View(st fray.State) fray.View {
	v := fray.View{Rules: ID, History: []fray.RoundTurns{}, Order: []fray.Slot{}}
	s, err := get(st)
	if err != nil {
		return v
	}
	v.Started, v.Round, v.Current = s.Started, s.Round, s.Current()
	v.Combatants = s.CombatantList()
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
		t.Value = s.Power(c.Name)
		if c.Tracks == nil {
			c.Tracks = map[string]fray.Track{}
		}
		c.Tracks[TrackPower] = t
	}
	if len(s.Settings) > 0 {
		v.Settings = maps.Clone(s.Settings)
	}
	if s.Latest.Round > 0 {
		n := 1
		for _, chunk := range s.History {
			n += len(chunk)
		}
		v.History = make([]fray.RoundTurns, 0, n)
		for _, chunk := range s.History {
			for _, h := range chunk {
				v.History = append(v.History, viewTurns(h))
			}
		}
		v.History = append(v.History, viewTurns(s.Latest))
	}
	for _, ch := range s.Chars {
		for _, h := range ch.Held {
			if h.Turn != s.Round {
				v.Order = append(v.Order, fray.Slot{Name: ch.Name, Markers: []string{fray.MarkHeld}, Note: "from turn " + strconv.Itoa(h.Turn) + " phase " + strconv.Itoa(h.Phase)})
			}
		}
	}
	for i, sl := range s.Sched {
		if i == s.Cur {
			for j, n := range s.Intr {
				x := fray.Slot{Name: n, Phase: sl.Phase, Note: "held action"}
				if j == 0 {
					x.Markers = []string{fray.MarkCurrent}
					x.Status = s.moveStatus(n)
				} else {
					x.Markers = []string{fray.MarkHeld}
				}
				v.Order = append(v.Order, x)
			}
		}
		x := fray.Slot{Name: sl.Name, Phase: sl.Phase}
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
		if ch := s.char(sl.Name); ch != nil && ch.Halved {
			notes = append(notes, "surprised, initiative halved")
		}
		if sl.Tied {
			notes = append(notes, "simultaneous")
		}
		if sl.Status == slotCurrent && len(s.Intr) == 0 {
			// The Move Rate left is the combatant's own number, shown
			// after the notes as before, but as Status: players see it
			// only on a player character's slot.
			x.Status = s.moveStatus(sl.Name)
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

// moveStatus says how far the named character may still move, when they
// have a Move Rate: "may move 30\"". It is a slot's Status, not its Note:
// the inches left are the character's own numbers, like its tracks.
func (s *State) moveStatus(name string) string {
	c := s.Find(name)
	if c == nil || moveRate(c) <= 0 {
		return ""
	}
	return "may move " + inches(s.MoveLeft(name))
}

// viewTurns returns a copy of a turn's history for a view. Its Who is nil
// when every action names only its taker (see State.noteWho), which an
// empty Who declares.
func viewTurns(h fray.RoundTurns) fray.RoundTurns {
	v := fray.RoundTurns{Round: h.Round, Turns: slices.Clone(h.Turns)}
	if h.Who != nil {
		v.Who = make([][]string, len(h.Who))
		for i, x := range h.Who {
			v.Who[i] = slices.Clone(x)
		}
	}
	return v
}

// Check reports a broken invariant of st.
func (sys *System) Check(st fray.State) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINTERNAL, "V&V state: "+format, args...)
	}
	if s.Started != (s.Round >= 1) {
		return bad("started is %v in turn %d", s.Started, s.Round)
	}
	if len(s.Chars) != len(s.Combatants) {
		return bad("%d combatants but %d characters", len(s.Combatants), len(s.Chars))
	}
	for i, ch := range s.Chars {
		if !fray.SameName(ch.Name, s.Combatants[i].Name) {
			return bad("character %d is %q, combatant %d is %q", i, ch.Name, i, s.Combatants[i].Name)
		}
		if s.Setting(SetHeld, House) == House && len(ch.Held) > 1 {
			return bad("%s holds %d actions under the house rule", ch.Name, len(ch.Held))
		}
		for _, h := range ch.Held {
			if h.Turn > s.Round || (s.Setting(SetHeld, House) == RAW && h.Turn != s.Round) {
				return bad("%s holds an action from turn %d in turn %d", ch.Name, h.Turn, s.Round)
			}
		}
	}
	if s.Cur < 0 || s.Cur > len(s.Sched) {
		return bad("the count is at slot %d of %d", s.Cur, len(s.Sched))
	}
	seen := map[string]bool{}
	for i, sl := range s.Sched {
		if s.char(sl.Name) == nil {
			return bad("slot %d belongs to %q, who is not present", i, sl.Name)
		}
		if i > 0 && s.Sched[i-1].Phase < sl.Phase {
			return bad("phase %d is listed after phase %d", sl.Phase, s.Sched[i-1].Phase)
		}
		key := sl.Name + "/" + strconv.Itoa(sl.Phase)
		if seen[key] {
			return bad("%s has two slots on phase %d", sl.Name, sl.Phase)
		}
		seen[key] = true
		switch {
		case i < s.Cur:
			if sl.Status != slotActed && sl.Status != slotPassed && sl.Status != slotHeld && sl.Status != slotLost {
				return bad("slot %d (%s, %d) is behind the count but %q", i, sl.Name, sl.Phase, sl.Status)
			}
		case i == s.Cur:
			if sl.Status != slotCurrent && !(len(s.Intr) > 0 && (sl.Status == slotPending || sl.Status == slotLost)) {
				return bad("slot %d (%s, %d) is at the count but %q", i, sl.Name, sl.Phase, sl.Status)
			}
		default:
			if sl.Status != slotPending && sl.Status != slotLost {
				return bad("slot %d (%s, %d) is ahead of the count but %q", i, sl.Name, sl.Phase, sl.Status)
			}
		}
	}
	for i, n := range s.Intr {
		ch := s.char(n)
		if ch == nil || ch.Act.Hold == nil {
			return bad("interrupter %q is not present or uses no held action", n)
		}
		if slices.ContainsFunc(s.Intr[i+1:], func(m string) bool { return fray.SameName(m, n) }) {
			return bad("%s interrupts twice at once", n)
		}
	}
	if len(s.Intr) > 0 && s.Cur >= len(s.Sched) {
		return bad("interrupting after the turn's phases are over")
	}
	return nil
}
