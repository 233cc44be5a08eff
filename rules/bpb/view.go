package bpb

import (
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// View shows the order of play, with the names the combatants have now:
// the state refers to them by id.
func (*System) View(st fray.State) fray.View {
	s := state(st)
	v := kit.View(ID, &s.Encounter, s.currentID())
	v.History = s.history()
	if !s.Started {
		// Before the start, the order is the declared one.
		for _, id := range engine.Tiebreak(&s.Encounter, s.Declared) {
			c := s.ByID(id)
			if c.Unaware || c.Kind == fray.KindEnvironment {
				continue
			}
			v.Order = append(v.Order, fray.Slot{ID: c.ID, Name: c.Name})
		}
		for _, c := range s.environment() {
			v.Order = append(v.Order, fray.Slot{ID: c.ID, Name: c.Name, Markers: []string{fray.MarkEnvironment}})
		}
		return v
	}
	for i, t := range s.Seq {
		c := s.ByID(t.ID)
		if c == nil {
			continue // removed; the history keeps the turns taken
		}
		note := s.words(t.Noted)
		sl := fray.Slot{ID: c.ID, Name: c.Name, Note: note}
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
		if r, ok := s.Held[t.ID]; ok && t.Mark == markPending && t.Kind == kindRegular {
			sl.Note = "holds a turn delayed in round " + itoa(r)
		}
		if n, about := s.vehicleNote(t); n != "" && sl.Note == "" {
			sl.Note, sl.About = n, about
		}
		if t.Kind != kindRegular && t.From != s.Round && t.From != 0 {
			sl.Note = s.turnWords(TakenTurn{ID: t.ID, Kind: t.Kind, From: t.From, Noted: t.Noted}, s.Round)
		}
		if sl.Note != "" && sl.Note == note && t.Noted != nil {
			// The note is the turn's own: it declares whom it mentions.
			sl.About = engine.NamesOf(&s.Encounter, t.Noted.Mentions)
		}
		v.Order = append(v.Order, sl)
	}
	for _, id := range s.Order {
		sl := fray.Slot{ID: id, Name: s.NameOf(id)}
		if s.lostIn(id, s.Round+1) {
			sl.Markers = []string{fray.MarkLost}
		}
		v.Next = append(v.Next, sl)
	}
	for _, c := range s.environment() {
		v.Next = append(v.Next, fray.Slot{ID: c.ID, Name: c.Name, Markers: []string{fray.MarkEnvironment}})
	}
	return v
}

// Check reports a broken invariant of the state.
func (*System) Check(st fray.State) error {
	s := state(st)
	bad := kit.Bad("bpb: ")
	// who says a combatant in a message: by name, and by id when they
	// have none.
	who := func(id fray.CombatantID) string {
		if n := s.NameOf(id); n != "" {
			return n + " (" + string(id) + ")"
		}
		return "the combatant " + strconv.Quote(string(id))
	}
	seen := map[fray.CombatantID]bool{}
	for _, id := range s.Order {
		c := s.ByID(id)
		switch {
		case c == nil:
			return bad("%s is in the order but not in the encounter", who(id))
		case c.Unaware || c.Kind == fray.KindEnvironment:
			return bad("%s is in the order but cannot have a turn", who(id))
		case seen[id]:
			return bad("%s is in the order twice", who(id))
		}
		seen[id] = true
	}
	for _, id := range s.Declared {
		if s.NameOf(id) == "" {
			return bad("%s is in the declared order but was never in the encounter", who(id))
		}
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
	regular := map[fray.CombatantID]int{}
	for i, t := range s.Seq {
		if s.ByID(t.ID) == nil && t.Mark != markActed {
			return bad("%s has a turn but is not in the encounter", who(t.ID))
		}
		if t.Kind == kindRegular && i >= s.Pos {
			regular[t.ID]++
			if regular[t.ID] > 1 {
				return bad("%s has two regular turns in round %d", who(t.ID), s.Round)
			}
		}
		if i < s.Pos && t.Mark == markPending {
			return bad("%s's turn was passed over but is still pending", who(t.ID))
		}
		if t.Kind != kindRegular && t.Mark != markActed {
			// A delayed turn still to come was pre-empted by another
			// delayed turn: only such turns stand between it and Pos.
			ok := t.Kind == kindDelayed && t.Mark == markPending && i >= s.Pos
			for k := s.Pos; ok && k < i; k++ {
				ok = s.Seq[k].Kind != kindRegular
			}
			if !ok {
				return bad("%s's %s turn is not taken", who(t.ID), t.Kind)
			}
		}
		if t.Env && t.Kind != kindRegular {
			return bad("the environment %s has a %s turn", who(t.ID), t.Kind)
		}
	}
	// The environment acts last among the turns still to come.
	for i := s.Pos + 1; i < len(s.Seq); i++ {
		if s.Seq[i-1].Env && !s.Seq[i].Env && s.Seq[i].Kind == kindRegular {
			return bad("%s acts after the environment", who(s.Seq[i].ID))
		}
	}
	for id, r := range s.Held {
		if s.ByID(id) == nil || r > s.Round || r < 1 {
			return bad("%s holds a turn from round %d in round %d", who(id), r, s.Round)
		}
	}
	for _, l := range s.Lost {
		if l.Round <= s.Round {
			return bad("%s's lost turn in round %d is still pending in round %d", who(l.ID), l.Round, s.Round)
		}
	}
	if h := s.Pending; h != nil && (s.ByID(h.Attacker) == nil || s.ByID(h.Defender) == nil) {
		return bad("the hit waiting for a defence is between %s and %s, who are not both present", who(h.Attacker), who(h.Defender))
	}
	for _, r := range s.History {
		for _, t := range r.Turns {
			if s.NameOf(t.ID) == "" {
				return bad("round %d's history holds a turn of %s, who was never in the encounter", r.Round, who(t.ID))
			}
		}
	}
	if len(s.Order) > 0 && s.current() == nil {
		return bad("nobody is current although %d can act", len(s.Order))
	}
	return nil
}
