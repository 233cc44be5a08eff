package bpb

import (
	"slices"

	"fray"
	"fray/engine"
)

// Apply changes the state by one event.
func (*System) Apply(st fray.State, ev fray.Event) error {
	s, ok := st.(*State)
	if !ok {
		return fray.Errorf(fray.EINTERNAL, "The state is not a Bulletproof Blues state.")
	}
	err := s.apply(ev)
	s.begin()
	return err
}

func (s *State) apply(ev fray.Event) error {
	added, removed, handled, err := engine.ApplyShared(&s.Encounter, ev)
	if err != nil {
		return err
	}
	if handled {
		switch {
		case added != nil:
			s.placeAdded(added)
		case removed != "":
			s.dropRemoved(removed)
		}
		return nil
	}
	switch ev.Type {
	case EventDeclared:
		var d namesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !s.Started {
			s.Declared = d.Names
			return nil
		}
		order := slices.Clone(d.Names)
		for _, n := range s.Order {
			if engine.Index(order, n) < 0 {
				order = append(order, n)
			}
		}
		s.Order = order
	case EventInitiative:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if len(ev.Rolls) != 1 {
			return fray.Errorf(fray.EINVALID, "Event %d enters initiative without a roll.", ev.Seq)
		}
		s.Initiative[d.Name] = ev.Rolls[0]
	case fray.EventStarted:
		var d startData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if s.Started {
			return fray.Errorf(fray.EINVALID, "Event %d starts an encounter already started.", ev.Seq)
		}
		s.Started = true
		s.Order = d.Order
		s.startRound(1)
		s.settle()
	case EventTurnEnded:
		var d turnData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		m, err := mentionsOf(ev)
		if err != nil {
			return err
		}
		t := s.current()
		if t == nil || !fray.SameName(t.Name, d.Name) {
			return fray.Errorf(fray.EINVALID, "Event %d ends %s's turn, which is not in progress.", ev.Seq, fray.Mention(d.Name))
		}
		t.Mark = markActed
		t.Noted = noted(d.Note, m)
		engine.TurnEdge(&s.Encounter, s.Round, t.Name, fray.EdgeEnd)
		s.Pos++
		s.settle()
	case EventDelayed:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		t := s.current()
		if t == nil || !fray.SameName(t.Name, d.Name) {
			return fray.Errorf(fray.EINVALID, "Event %d delays %s's turn, which is not in progress.", ev.Seq, fray.Mention(d.Name))
		}
		t.Mark = markDelayed
		s.Held[t.Name] = s.Round
		s.Pos++
		s.settle()
	case EventInterrupt:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		from, ok := s.Held[d.Name]
		if !ok || s.current() == nil {
			return fray.Errorf(fray.EINVALID, "Event %d takes a delayed turn %s does not hold.", ev.Seq, fray.Mention(d.Name))
		}
		delete(s.Held, d.Name)
		s.Seq = slices.Insert(s.Seq, s.Pos, Turn{Name: d.Name, Kind: kindDelayed, From: from})
		s.preempt()
	case EventForced:
		var d forcedData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		m, err := mentionsOf(ev)
		if err != nil {
			return err
		}
		if s.current() == nil {
			return fray.Errorf(fray.EINVALID, "Event %d forces an action with nobody's turn in progress.", ev.Seq)
		}
		held, idx, round := s.forceCost(d.Name)
		t := Turn{Name: d.Name, Kind: kindForced, Mark: markActed, Noted: noted(d.Note, m), From: s.Round}
		switch {
		case held:
			delete(s.Held, d.Name)
		case idx >= 0:
			s.Seq[idx].Mark = markForced
		default:
			s.Lost = append(s.Lost, LostTurn{Name: d.Name, Round: round})
			t.From = round
		}
		s.Forced[d.Name] = s.Round
		// A forced action is the turn it spends: that turn starts and
		// ends now, so conditions anchored to it (in a later round too)
		// end here (E-4).
		engine.TurnEdge(&s.Encounter, t.From, d.Name, fray.EdgeStart)
		engine.TurnEdge(&s.Encounter, t.From, d.Name, fray.EdgeEnd)
		// The forced action comes during the current turn: after it, and
		// after any earlier forced actions in it.
		at := s.Pos + 1
		for at < len(s.Seq) && s.Seq[at].Kind == kindForced {
			at++
		}
		s.Seq = slices.Insert(s.Seq, at, t)
	case EventReordered:
		var d placeData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		order, err := engine.Place(s.Order, d.Name, d.Before, d.After, len(s.Order))
		if err != nil {
			return err
		}
		s.Order = order
	case EventTask, EventDamaged, EventStaggered, EventAwarded, EventSpent:
		_, err := s.applyResolution(ev)
		return err
	case EventAware:
		var d placeData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		c := s.Find(d.Name)
		if c == nil {
			return fray.Errorf(fray.EINVALID, "Event %d makes %q aware, who is not present.", ev.Seq, fray.Mention(d.Name))
		}
		c.Unaware = false
		s.join(c.Name, d.Before, d.After)
	default:
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, unknown to Bulletproof Blues.", ev.Seq, ev.Type)
	}
	return nil
}

// placeAdded puts a newly added combatant in the order of play.
func (s *State) placeAdded(d *fray.AddedData) {
	c := s.Find(d.Combatant.Name)
	if n, ok := c.Stats[TrackEndurance]; ok {
		// add NAME endurance=N starts the Endurance track (B-10).
		if _, has := c.Tracks[TrackEndurance]; !has {
			if c.Tracks == nil {
				c.Tracks = map[string]fray.Track{}
			}
			c.Tracks[TrackEndurance] = fray.Track{Value: n, Max: n}
		}
	}
	switch {
	case c.Unaware:
	case c.Kind == fray.KindEnvironment:
		if s.Started {
			// The environment acts last: this round too, unless its
			// place has passed.
			s.Seq = append(s.Seq, Turn{Name: c.Name, Kind: kindRegular, Env: true})
			if s.Pos >= len(s.Seq)-1 {
				s.settle()
			}
		}
	default:
		s.join(c.Name, d.Before, d.After)
	}
}

// join puts an aware character in the order of play: before the start,
// in the declared order when a place is named; after it, in the standing
// order and, when that place is still to come, in this round (B-3).
func (s *State) join(name, before, after string) {
	if !s.Started {
		if before != "" || after != "" {
			base := engine.Tiebreak(&s.Encounter, s.Declared)
			var aware []string
			for _, n := range base {
				if c := s.Find(n); !c.Unaware && c.Kind != fray.KindEnvironment && !fray.SameName(n, name) {
					aware = append(aware, n)
				}
			}
			if o, err := engine.Place(aware, name, before, after, len(aware)); err == nil {
				s.Declared = o
			}
		}
		return
	}
	order, err := engine.Place(s.Order, name, before, after, len(s.Order))
	if err != nil {
		return
	}
	s.Order = order
	// Where this round's sequence would hold the newcomer: before the
	// regular turn of whoever follows them in the order, else before the
	// environment, else at the end.
	// When nobody can act (the round is stalled), the newcomer acts now.
	if s.current() == nil {
		s.Seq = append(s.Seq, Turn{Name: name, Kind: kindRegular})
		s.settle()
		return
	}
	i := engine.Index(order, name)
	at := len(s.Seq)
	for j, t := range s.Seq {
		if s.Find(t.Name) == nil {
			continue // removed; their turns only serve the history
		}
		if t.Env || (t.Kind == kindRegular && engine.Index(order[i+1:], t.Name) >= 0) {
			at = j
			break
		}
	}
	if at > s.Pos {
		s.Seq = slices.Insert(s.Seq, at, Turn{Name: name, Kind: kindRegular})
	}
}

// dropRemoved takes a removed combatant out of the order of play. A turn
// in progress counts as taken.
func (s *State) dropRemoved(name string) {
	if s.Pending != nil && (fray.SameName(s.Pending.Attacker, name) || fray.SameName(s.Pending.Defender, name)) {
		s.Pending = nil
	}
	s.Declared = engine.Without(s.Declared, name)
	s.Order = engine.Without(s.Order, name)
	delete(s.Held, name)
	delete(s.Forced, name)
	delete(s.Initiative, name)
	s.Lost = slices.DeleteFunc(s.Lost, func(l LostTurn) bool { return fray.SameName(l.Name, name) })
	if !s.Started {
		return
	}
	cur := s.current()
	for i := len(s.Seq) - 1; i >= 0; i-- {
		if i != s.Pos && fray.SameName(s.Seq[i].Name, name) && s.Seq[i].Mark != markActed {
			s.Seq = slices.Delete(s.Seq, i, i+1)
			if i < s.Pos {
				s.Pos--
			}
		}
	}
	if cur != nil && fray.SameName(s.Seq[s.Pos].Name, name) {
		s.Seq[s.Pos].Mark = markActed
		s.Pos++
		s.settle()
	}
}
