package bpb

import (
	"maps"
	"slices"

	"fray"
	"fray/engine"
)

// View shows the order of play.
func (*System) View(st fray.State) fray.View {
	s := state(st)
	v := fray.View{
		Rules:      ID,
		Started:    s.Started,
		Round:      s.Round,
		Current:    s.currentName(),
		Order:      []fray.Slot{},
		History:    slices.Clone(s.History),
		Combatants: s.CombatantList(),
		Settings:   maps.Clone(s.Settings),
	}
	if v.History == nil {
		v.History = []fray.RoundTurns{}
	}
	if !s.Started {
		// Before the start, the order is the declared one.
		for _, n := range engine.Tiebreak(&s.Encounter, s.Declared) {
			c := s.Find(n)
			if c.Unaware || c.Kind == fray.KindEnvironment {
				continue
			}
			v.Order = append(v.Order, fray.Slot{Name: c.Name})
		}
		for _, n := range s.environment() {
			v.Order = append(v.Order, fray.Slot{Name: n, Markers: []string{fray.MarkEnvironment}})
		}
		return v
	}
	v.History = append(v.History, s.roundHistory())
	for i, t := range s.Seq {
		if s.Find(t.Name) == nil {
			continue // removed; the history keeps the turns taken
		}
		sl := fray.Slot{Name: t.Name, Note: t.note()}
		switch t.Kind {
		case kindDelayed:
			sl.Markers = append(sl.Markers, fray.MarkDelayed)
		case kindForced:
			sl.Markers = append(sl.Markers, fray.MarkForced)
		}
		switch {
		case t.Mark == markActed:
			sl.Markers = append(sl.Markers, fray.MarkActed)
		case t.Mark == markPending && i == s.Pos:
			sl.Markers = append(sl.Markers, fray.MarkCurrent)
		case t.Mark == markDelayed:
			sl.Markers = append(sl.Markers, fray.MarkDelayed)
		case t.Mark == markForced:
			sl.Markers = append(sl.Markers, fray.MarkForced)
		case t.Mark == markLost:
			sl.Markers = append(sl.Markers, fray.MarkLost)
		}
		if t.Env {
			sl.Markers = append(sl.Markers, fray.MarkEnvironment)
		}
		if r, ok := s.Held[t.Name]; ok && t.Mark == markPending && t.Kind == kindRegular {
			sl.Note = "holds a turn delayed in round " + itoa(r)
		}
		if t.Kind != kindRegular && t.From != s.Round && t.From != 0 {
			sl.Note = s.turnWords(t)
		}
		if sl.Note != "" && sl.Note == t.note() {
			// The note is the turn's own: it declares whom it mentions.
			sl.About = slices.Clone(s.turnMentions(t))
		}
		v.Order = append(v.Order, sl)
	}
	for _, n := range s.Order {
		sl := fray.Slot{Name: n}
		if s.lostIn(n, s.Round+1) {
			sl.Markers = []string{fray.MarkLost}
		}
		v.Next = append(v.Next, sl)
	}
	for _, n := range s.environment() {
		v.Next = append(v.Next, fray.Slot{Name: n, Markers: []string{fray.MarkEnvironment}})
	}
	return v
}

// Check reports a broken invariant of the state.
func (*System) Check(st fray.State) error {
	s := state(st)
	bad := func(format string, args ...any) error { return fray.Errorf(fray.EINTERNAL, "bpb: "+format, args...) }
	seen := map[string]bool{}
	for _, n := range s.Order {
		c := s.Find(n)
		switch {
		case c == nil:
			return bad("%s is in the order but not in the encounter", n)
		case c.Unaware || c.Kind == fray.KindEnvironment:
			return bad("%s is in the order but cannot have a turn", n)
		case seen[c.Name]:
			return bad("%s is in the order twice", n)
		}
		seen[c.Name] = true
	}
	if !s.Started {
		if len(s.Seq) != 0 || s.Round != 0 {
			return bad("a round is under way before the start")
		}
		return nil
	}
	if s.Round < 1 || s.Pos < 0 || s.Pos > len(s.Seq) {
		return bad("round %d, position %d of %d", s.Round, s.Pos, len(s.Seq))
	}
	regular := map[string]int{}
	for i, t := range s.Seq {
		if s.Find(t.Name) == nil && t.Mark != markActed {
			return bad("%s has a turn but is not in the encounter", t.Name)
		}
		if t.Kind == kindRegular && i >= s.Pos {
			regular[t.Name]++
			if regular[t.Name] > 1 {
				return bad("%s has two regular turns in round %d", t.Name, s.Round)
			}
		}
		if i < s.Pos && t.Mark == markPending {
			return bad("%s's turn was passed over but is still pending", t.Name)
		}
		if t.Kind != kindRegular && t.Mark != markActed {
			// A delayed turn still to come was pre-empted by another
			// delayed turn: only such turns stand between it and Pos.
			ok := t.Kind == kindDelayed && t.Mark == markPending && i >= s.Pos
			for k := s.Pos; ok && k < i; k++ {
				ok = s.Seq[k].Kind != kindRegular
			}
			if !ok {
				return bad("%s's %s turn is not taken", t.Name, t.Kind)
			}
		}
		if t.Env && t.Kind != kindRegular {
			return bad("the environment %s has a %s turn", t.Name, t.Kind)
		}
	}
	// The environment acts last among the turns still to come.
	for i := s.Pos + 1; i < len(s.Seq); i++ {
		if s.Seq[i-1].Env && !s.Seq[i].Env && s.Seq[i].Kind == kindRegular {
			return bad("%s acts after the environment", s.Seq[i].Name)
		}
	}
	for n, r := range s.Held {
		if s.Find(n) == nil || r > s.Round || r < 1 {
			return bad("%s holds a turn from round %d in round %d", n, r, s.Round)
		}
	}
	for _, l := range s.Lost {
		if l.Round <= s.Round {
			return bad("%s's lost turn in round %d is still pending in round %d", l.Name, l.Round, s.Round)
		}
	}
	if len(s.Order) > 0 && s.current() == nil {
		return bad("nobody is current although %d can act", len(s.Order))
	}
	return nil
}
