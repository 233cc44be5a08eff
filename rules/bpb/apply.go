package bpb

import (
	"slices"
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Apply changes the state by one event.
func (*System) Apply(st fray.State, ev fray.Event) error {
	s, err := kit.StateOf[State](st, "Bulletproof Blues")
	if err != nil {
		return err
	}
	err = s.apply(ev)
	s.begin()
	return err
}

// apply applies one event. Payloads and the state refer to combatants by
// id (engine.Upgrade rewrote the names of older events), so a rename
// (fray.EventRenamed, applied by engine.ApplyShared) leaves the rest of
// the state as it is.
func (s *State) apply(ev fray.Event) error {
	if handled, err := kit.ApplyShared(&s.Encounter, ev, kit.Roster{Added: s.placeAdded, Removed: s.dropRemoved}); handled {
		return err
	}
	switch ev.Type {
	case EventDeclared:
		var d namesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if err := s.present(ev, d.Names); err != nil {
			return err
		}
		order := d.Names // decoded for this event: the state may keep it
		if !s.Started {
			s.Declared = order
			return nil
		}
		for _, id := range s.Order {
			if !slices.Contains(order, id) {
				order = append(order, id)
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
		r := ev.Rolls[0]
		r.For, r.Who = "", "" // the entry's key says whom it is for
		if s.ByID(d.Who) == nil {
			return fray.Errorf(fray.EINVALID, "Event %d enters initiative for %s, who is not present.", ev.Seq, s.mention(d.Who))
		}
		s.Initiative[d.Who] = r
	case fray.EventStarted:
		var d startData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if s.Started {
			return fray.Errorf(fray.EINVALID, "Event %d starts an encounter already started.", ev.Seq)
		}
		if err := s.present(ev, d.Order); err != nil {
			return err
		}
		s.Started = true
		s.Order = d.Order
		s.startRound(1)
		s.settle()
	case EventTurnEnded:
		d, err := fray.Payload[turnData](ev)
		if err != nil {
			return err
		}
		m, err := mentionsOf(ev)
		if err != nil {
			return err
		}
		t := s.current()
		if t == nil || t.ID != d.Name {
			return fray.Errorf(fray.EINVALID, "Event %d ends %s's turn, which is not in progress.", ev.Seq, s.mention(d.Name))
		}
		t.Mark = markActed
		t.Noted = s.noted(d.Note, m)
		engine.TurnEdge(&s.Encounter, s.Round, t.ID, fray.EdgeEnd)
		s.Pos++
		s.settle()
	case EventDelayed:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		t := s.current()
		if t == nil || t.ID != d.Who {
			return fray.Errorf(fray.EINVALID, "Event %d delays %s's turn, which is not in progress.", ev.Seq, s.mention(d.Who))
		}
		t.Mark = markDelayed
		s.Held[t.ID] = s.Round
		s.Pos++
		s.settle()
	case EventInterrupt:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		id := d.Who
		from, ok := s.Held[id]
		if !ok || s.current() == nil {
			return fray.Errorf(fray.EINVALID, "Event %d takes a delayed turn %s does not hold.", ev.Seq, s.mention(id))
		}
		delete(s.Held, id)
		s.Seq = slices.Insert(s.Seq, s.Pos, Turn{ID: id, Kind: kindDelayed, From: from})
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
		id := d.Name
		switch {
		case s.current() == nil:
			return fray.Errorf(fray.EINVALID, "Event %d forces an action with nobody's turn in progress.", ev.Seq)
		case !slices.Contains(s.Order, id):
			return fray.Errorf(fray.EINVALID, "Event %d forces an action by %s, who has no place in the order of play.", ev.Seq, s.mention(id))
		}
		held, idx, round := s.forceCost(id)
		t := Turn{ID: id, Kind: kindForced, Mark: markActed, Noted: s.noted(d.Note, m), From: s.Round}
		switch {
		case held:
			delete(s.Held, id)
		case idx >= 0:
			s.Seq[idx].Mark = markForced
		default:
			s.Lost = append(s.Lost, LostTurn{ID: id, Round: round})
			t.From = round
		}
		s.Forced[id] = s.Round
		// A forced action is the turn it spends: that turn starts and
		// ends now, so conditions anchored to it (in a later round too)
		// end here (E-4).
		engine.TurnEdge(&s.Encounter, t.From, id, fray.EdgeStart)
		engine.TurnEdge(&s.Encounter, t.From, id, fray.EdgeEnd)
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
		for _, id := range []fray.CombatantID{d.Before, d.After} {
			if id != "" && !slices.Contains(s.Order, id) {
				return fray.Errorf(fray.EINVALID, "Event %d places %s next to %s, who is not in the order of play.", ev.Seq, s.mention(d.Name), s.mention(id))
			}
		}
		order, err := engine.Place(s.Order, d.Name, d.Before, d.After, len(s.Order))
		if err != nil {
			return err
		}
		s.Order = order
	case EventTask, EventDamaged, EventStaggered, EventAwarded, EventSpent:
		_, err := s.applyResolution(ev)
		return err
	case EventControlled, EventMoved:
		return s.applyEnvironment(ev)
	case EventAware:
		var d placeData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		c := s.ByID(d.Name)
		if c == nil {
			return fray.Errorf(fray.EINVALID, "Event %d makes %s aware, who is not present.", ev.Seq, s.mention(d.Name))
		}
		c.Unaware = false
		s.join(c.ID, d.Before, d.After)
	default:
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, unknown to Bulletproof Blues.", ev.Seq, ev.Type)
	}
	return nil
}

// present refuses an event whose order of play holds someone not
// present.
func (s *State) present(ev fray.Event, ids []fray.CombatantID) error {
	for _, id := range ids {
		if s.ByID(id) == nil {
			return fray.Errorf(fray.EINVALID, "Event %d puts %s in the order of play, who is not present.", ev.Seq, s.mention(id))
		}
	}
	return nil
}

// mention says the combatant id in a message about an event: by name
// (declared), or by id when nobody has it.
func (s *State) mention(id fray.CombatantID) any {
	if n := s.NameOf(id); n != "" {
		return fray.Mention(n)
	}
	return strconv.Quote(string(id))
}

// placeAdded puts a newly added combatant in the order of play.
func (s *State) placeAdded(d *fray.AddedData) {
	c := s.ByID(d.Combatant.ID)
	if n, ok := c.Stats[TrackEndurance]; ok {
		// add NAME endurance=N starts the Endurance track (B-10).
		if _, has := c.Tracks[TrackEndurance]; !has {
			kit.SetTrack(c, TrackEndurance, fray.Track{Value: n, Max: n})
		}
	}
	switch {
	case c.Unaware:
	case c.Kind == fray.KindEnvironment:
		if s.Started {
			// The environment acts last: this round too, unless its
			// place has passed.
			s.Seq = append(s.Seq, Turn{ID: c.ID, Kind: kindRegular, Env: true})
			if s.Pos >= len(s.Seq)-1 {
				s.settle()
			}
		}
	default:
		s.join(c.ID, d.Before, d.After)
	}
}

// join puts an aware character in the order of play: before the start,
// in the declared order when a place is named; after it, in the standing
// order and, when that place is still to come, in this round (B-3).
func (s *State) join(id, before, after fray.CombatantID) {
	if !s.Started {
		if before != "" || after != "" {
			base := engine.Tiebreak(&s.Encounter, s.Declared)
			var aware []fray.CombatantID
			for _, n := range base {
				if c := s.ByID(n); !c.Unaware && c.Kind != fray.KindEnvironment && n != id {
					aware = append(aware, n)
				}
			}
			if o, err := engine.Place(aware, id, before, after, len(aware)); err == nil {
				s.Declared = o
			}
		}
		return
	}
	order, err := engine.Place(s.Order, id, before, after, len(s.Order))
	if err != nil {
		return
	}
	s.Order = order
	// Where this round's sequence would hold the newcomer: before the
	// regular turn of whoever follows them in the order, else before the
	// environment, else at the end.
	// When nobody can act (the round is stalled), the newcomer acts now.
	if s.current() == nil {
		s.Seq = append(s.Seq, Turn{ID: id, Kind: kindRegular})
		s.settle()
		return
	}
	i := slices.Index(order, id)
	at := len(s.Seq)
	for j, t := range s.Seq {
		if s.ByID(t.ID) == nil {
			continue // removed; their turns only serve the history
		}
		if t.Env || (t.Kind == kindRegular && slices.Contains(order[i+1:], t.ID)) {
			at = j
			break
		}
	}
	if at > s.Pos {
		s.Seq = slices.Insert(s.Seq, at, Turn{ID: id, Kind: kindRegular})
	}
}

// dropRemoved takes a removed combatant out of the order of play. A turn
// in progress counts as taken.
func (s *State) dropRemoved(id fray.CombatantID) {
	if s.Pending != nil && (s.Pending.Attacker == id || s.Pending.Defender == id) {
		s.Pending = nil
	}
	s.Declared = engine.Without(s.Declared, id)
	s.Order = engine.Without(s.Order, id)
	delete(s.Held, id)
	delete(s.Forced, id)
	delete(s.Initiative, id)
	s.dropVehicle(id)
	s.Lost = slices.DeleteFunc(s.Lost, func(l LostTurn) bool { return l.ID == id })
	if !s.Started {
		return
	}
	cur := s.current()
	for i := len(s.Seq) - 1; i >= 0; i-- {
		if i != s.Pos && s.Seq[i].ID == id && s.Seq[i].Mark != markActed {
			s.Seq = slices.Delete(s.Seq, i, i+1)
			if i < s.Pos {
				s.Pos--
			}
		}
	}
	if cur != nil && s.Seq[s.Pos].ID == id {
		s.Seq[s.Pos].Mark = markActed
		s.Pos++
		s.settle()
	}
}
