package vv

import (
	"slices"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Apply changes st by the event ev.
func (sys *System) Apply(st fray.State, ev fray.Event) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	if handled, err := kit.ApplyShared(&s.Encounter, ev, kit.Roster{Added: s.added, Removed: s.remove, Set: s.afterSet}); handled {
		return err
	}
	if handled, err := s.applyResolution(ev); handled {
		return err
	}
	if handled, err := s.applyCheck(ev); handled {
		return err
	}
	switch ev.Type {
	case fray.EventStarted:
		return kit.ApplyStarted(&s.Started, ev)
	case EventTurn:
		var d TurnData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return s.applyTurn(ev, d)
	case EventTurnEnded:
		var d TurnEndData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		return s.applyTurnEnded(ev, d)
	case EventSurprise, EventTiebreak:
		var d NamesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		ids := d.Who
		for _, id := range ids {
			if s.char(id) == nil {
				return fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, id)
			}
		}
		if ev.Type == EventTiebreak {
			s.Tiebreak = ids
			return nil
		}
		for _, ch := range s.Chars {
			ch.Victim = slices.Contains(ids, ch.ID)
		}
		return nil
	case EventInitiative:
		var d DieData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		ch := s.char(d.Who)
		if ch == nil || d.Die < 1 || d.Die > 10 {
			return fray.Errorf(fray.EINVALID, "Event %d enters a die for %s, who is not present, or a face not on a d10.", ev.Seq, d.Who)
		}
		ch.Die = d.Die
		return nil
	case EventUpkeep:
		var d UpkeepData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		ch := s.char(d.Who)
		if ch == nil {
			return fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, d.Who)
		}
		ch.Upkeep = d.Power
		return nil
	case EventFacing, EventProne:
		var d facingFlat
		if err := ev.Decode(&d); err != nil {
			return err
		}
		ch := s.char(d.Who)
		if ch == nil {
			return fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, d.Who)
		}
		ch.Spent += d.Cost
		if d.Cost > 0 {
			ch.FacingPhase = d.Phase
		}
		if ev.Type == EventProne {
			ch.Prone = true
		} else if d.Dir != "" {
			ch.Facing = d.Dir
		}
		return nil
	case EventStood:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		ch := s.char(d.Who)
		if ch == nil {
			return fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, d.Who)
		}
		ch.Prone = false
		return nil
	case EventActed, EventMoved, EventHeld, EventDone:
		return s.applyCurrent(ev)
	case EventHoldLapsed:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if s.char(d.Who) == nil {
			return fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, d.Who)
		}
		// The turn the held action kept open ends (V-3, E-4).
		engine.TurnEdge(&s.Encounter, s.Round, d.Who, fray.EdgeEnd)
		return nil
	case EventInterrupted:
		var d InterruptData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !s.Started || s.current() == "" || len(d.Who) == 0 {
			return fray.Errorf(fray.EINVALID, "Event %d interrupts when nobody is acting.", ev.Seq)
		}
		if d.Phase != 0 && (len(s.Intr) > 0 || !s.between(d.Phase)) {
			return fray.Errorf(fray.EINVALID, "Event %d interrupts on phase %d, which is not one between the last phase counted and the one acting now.", ev.Seq, d.Phase)
		}
		intr := make([]fray.CombatantID, len(d.Who), len(d.Who)+len(s.Intr))
		for i, id := range d.Who {
			ch := s.char(id)
			if ch == nil || len(ch.Held) == 0 || slices.Contains(intr[:i], id) || slices.Contains(s.Intr, id) {
				return fray.Errorf(fray.EINVALID, "Event %d: %s holds no action or is already interrupting.", ev.Seq, id)
			}
			intr[i] = id
		}
		for _, id := range intr {
			ch := s.char(id)
			h := ch.Held[0]
			ch.Held = slices.Delete(ch.Held, 0, 1)
			if len(ch.Held) == 0 {
				ch.Held = nil
			}
			ch.Act = Activation{Hold: &h}
		}
		if d.Phase != 0 {
			s.IntrPhase = d.Phase
		}
		s.Intr = append(intr, s.Intr...)
		engine.TurnEdge(&s.Encounter, s.Round, s.Intr[0], fray.EdgeStart)
		return nil
	}
	return fray.Errorf(fray.EINVALID, "Event %d has the type %q, which V&V does not know.", ev.Seq, ev.Type)
}

// applyCurrent applies an event of the character acting now.
func (s *State) applyCurrent(ev fray.Event) error {
	// Each payload is decoded in its own case: a value given to Decode
	// escapes, and costs an allocation.
	var who fray.CombatantID
	var cost, inches int
	var open bool
	switch ev.Type {
	case EventActed:
		var d ActData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		who, cost = d.Who, d.Cost
	case EventMoved:
		var d MoveData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		who, inches = d.Who, d.Inches
	case EventHeld:
		var d HeldData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		who, open = d.Who, d.Open
	default:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		who = d.Who
	}
	cur := s.current()
	c, ch := s.combatant(cur)
	if c == nil || who != cur {
		return fray.Errorf(fray.EINVALID, "Event %d is for %s, who is not acting now.", ev.Seq, who)
	}
	switch ev.Type {
	case EventActed:
		ch.Act.Acted, ch.Act.Cost = true, cost
		ch.ActedPhase = s.Phase()
		ch.Spent += cost
		if ch.Act.Hold == nil || ch.Act.Hold.Turn == s.Round {
			ch.Performed++
		}
	case EventMoved:
		ch.Moved += inches
		if h := ch.Act.Hold; h != nil && h.Turn != s.Round {
			h.Move -= inches // a held action's move from an earlier turn (V-3)
		} else {
			ch.PhaseUsed += inches
		}
		if ch.Act.Acted {
			ch.Act.After = true
		} else {
			ch.Act.Moved = true
			ch.Act.Inches += inches
		}
	case EventHeld:
		if len(s.Intr) > 0 && ch.Act.Hold == nil {
			return fray.Errorf(fray.EINVALID, "Event %d holds an action %q has already put back.", ev.Seq, fray.Mention(c.Name))
		}
		if s.Setting(SetHeld, House) == House {
			ch.Held = nil // at most one saved action (V-3, house rule)
		}
		if h := ch.Act.Hold; h != nil {
			if s.Setting(SetHeld, House) == House || h.Turn == s.Round {
				ch.Held = append(ch.Held, *h) // not used after all
				s.record(Turn{Who: cur, What: turnKept, Phase: s.Phase()})
			}
			ch.Act.Hold = nil
		} else {
			ch.Held = append(ch.Held, Hold{Turn: s.Round, Phase: s.Phase()})
			s.Sched[s.Cur].Status = slotHeld
		}
		ch.Act.Open = open
	case EventDone:
		s.finish(ch)
	}
	return nil
}

// finish ends the activation of the character acting now, ch.
func (s *State) finish(ch *Char) {
	phase := s.Phase()
	// The end of a character's action phase, or of a held action used, is
	// the end of their turn for conditions (E-4); an action saved with the
	// turn kept open ends it when it is used or lapses (V-3, HeldData.Open).
	if !ch.Act.Open {
		engine.TurnEdge(&s.Encounter, s.Round, ch.ID, fray.EdgeEnd)
	}
	if len(s.Intr) > 0 {
		if h := ch.Act.Hold; h != nil {
			s.record(Turn{Who: ch.ID, What: turnUsed, Taken: ch.Act.Acted, Phase: phase, Power: ch.Act.Cost, HoldTurn: h.Turn, HoldPhase: h.Phase})
		}
		ch.Act = Activation{}
		s.Intr = slices.Delete(s.Intr, 0, 1)
		if len(s.Intr) == 0 {
			s.Intr, s.IntrPhase = nil, 0
		} else {
			engine.TurnEdge(&s.Encounter, s.Round, s.Intr[0], fray.EdgeStart)
		}
		s.settle()
		return
	}
	sl := &s.Sched[s.Cur]
	switch {
	case sl.Status == slotHeld:
		s.record(Turn{Who: ch.ID, What: turnHeld, Phase: phase})
	case ch.Act.Acted:
		sl.Status = slotActed
		s.record(Turn{Who: ch.ID, What: turnActed, Phase: phase, Power: ch.Act.Cost})
	default:
		sl.Status = slotPassed
		s.record(Turn{Who: ch.ID, What: turnDeclined, Phase: phase})
	}
	ch.Act = Activation{}
	s.Cur++
	s.settle()
}

// record records a turn taken in this turn's history.
func (s *State) record(t Turn) {
	if h := &s.Latest; h.Round > 0 && h.Round == s.Round {
		h.Turns = append(h.Turns, t)
	}
}

// settle moves the count to the next slot to be acted on, passing over
// lost ones, and begins it. The blows of a simultaneous group land once
// the count has left it, before the next slot begins (V-2).
func (s *State) settle() {
	for len(s.Intr) == 0 && s.Cur < len(s.Sched) {
		sl := &s.Sched[s.Cur]
		if sl.Status == slotLost {
			s.record(Turn{Who: sl.ID, What: turnLost, Phase: sl.Phase})
			s.Cur++
			continue
		}
		s.land(false)
		if sl.Status == slotPending {
			s.reach(sl)
		}
		return
	}
	if len(s.Intr) == 0 {
		s.land(false)
	}
}

// land applies the pending blows of a simultaneous group (V-2) once the
// count is no longer on it, or at once when all is true, recording each
// in the turn's history.
func (s *State) land(all bool) {
	if len(s.Pending) == 0 {
		return
	}
	if g := s.Pending[0].Group; !all && s.Cur < len(s.Sched) && s.Sched[s.Cur].Group == g {
		return
	}
	for _, b := range s.Pending {
		c, ch := s.combatant(b.Who)
		if c == nil {
			continue // removed: remove drops their blows
		}
		s.hurt(c, ch, b.ToHits, b.ToPower)
		s.record(Turn{Who: b.Who, What: turnLanded, Phase: b.Phase, Power: b.ToPower, Hits: b.ToHits, By: b.By})
	}
	s.Pending = nil
}

// between reports whether phase p is one where nobody acts between the
// last phase counted and the phase of the slot in progress, whose owner has
// not yet begun it (neither moved nor acted): one a held action may be
// used on (V-3). Before the turn's first slot no phase has been counted.
func (s *State) between(p int) bool {
	if s.Cur < 1 || s.Cur >= len(s.Sched) {
		return false
	}
	sl := s.Sched[s.Cur]
	if ch := s.char(sl.ID); ch == nil || ch.Act.Moved || ch.Act.Acted || sl.Status != slotCurrent {
		return false
	}
	return p > sl.Phase && p < s.Sched[s.Cur-1].Phase
}

// groupNow returns the simultaneous group of the slot acting now on its
// own phase (not with a held action), 0 for none.
func (s *State) groupNow() int {
	if len(s.Intr) > 0 || s.Cur >= len(s.Sched) {
		return 0
	}
	return s.Sched[s.Cur].Group
}

// simultaneous reports whether an attack made now by the character acting
// is struck simultaneously with others (V-2, ties=house): the character
// acts on their own phase in a simultaneous group. Its damage is then held
// until the group is done, and lands with the others' (land).
func (s *State) simultaneous() bool {
	return s.groupNow() != 0 && s.Setting(SetTies, House) == House
}

// pendingHits returns the damage to Hit Points of the blows pending on the
// combatant id.
func (s *State) pendingHits(id fray.CombatantID) int {
	n := 0
	for _, b := range s.Pending {
		if b.Who == id {
			n += b.ToHits
		}
	}
	return n
}

// reach begins a character's own action phase.
func (s *State) reach(sl *Slot) {
	sl.Status = slotCurrent
	engine.TurnEdge(&s.Encounter, s.Round, sl.ID, fray.EdgeStart)
	ch := s.char(sl.ID)
	if s.Setting(SetHeld, House) == House && len(ch.Held) > 0 {
		// Saved only up to the next action (V-3, house rule).
		for _, h := range ch.Held {
			s.record(Turn{Who: ch.ID, What: turnLapsed, HoldTurn: h.Turn, HoldPhase: h.Phase})
		}
		ch.Held = nil
	}
	left := ch.PhaseMove - ch.PhaseUsed
	if ch.Reached == 0 {
		left = 0
	}
	// Move Rate per action, plus what is left of the previous action, up
	// to one action's worth (V-6, house rule).
	ch.PhaseMove = ch.Allot + min(ch.Allot, max(0, left))
	ch.PhaseUsed = 0
	ch.Reached = sl.Nth
	ch.Act = Activation{}
}

func (s *State) applyTurnEnded(ev fray.Event, d TurnEndData) error {
	if !s.Started || d.Turn != s.Round || len(s.Intr) > 0 {
		return fray.Errorf(fray.EINVALID, "Event %d ends turn %d, which is not the turn in progress.", ev.Seq, d.Turn)
	}
	for _, u := range d.Upkeep {
		ch := s.char(u.Who)
		if ch == nil {
			return fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, u.Who)
		}
		ch.Spent += u.Power
		s.record(Turn{Who: ch.ID, What: turnUpkeep, Power: u.Power})
	}
	for _, u := range d.Unpaid {
		ch := s.char(u.Who)
		if ch == nil {
			return fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, u.Who)
		}
		ch.Upkeep = 0
		s.record(Turn{Who: ch.ID, What: turnUnpaid, Power: u.Power})
	}
	raw := s.Setting(SetHeld, House) == RAW
	for _, ch := range s.Chars {
		if raw {
			for _, h := range ch.Held {
				s.record(Turn{Who: ch.ID, What: turnEndLost, HoldTurn: h.Turn, HoldPhase: h.Phase})
			}
			ch.Held = nil
			continue
		}
		for i := range ch.Held {
			if ch.Held[i].Turn == s.Round {
				ch.Held[i].Performed = ch.Performed
				ch.Held[i].Move = max(0, ch.PhaseMove-ch.PhaseUsed)
			}
		}
	}
	s.land(true) // none are left: the count has passed every group
	s.Cur = len(s.Sched)
	engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
	return nil
}

func (s *State) applyTurn(ev fray.Event, d TurnData) error {
	if !s.Started || d.Turn != s.Round+1 || len(s.Intr) > 0 {
		return fray.Errorf(fray.EINVALID, "Event %d begins turn %d out of sequence.", ev.Seq, d.Turn)
	}
	for _, tc := range d.Chars {
		if s.char(tc.Who) == nil {
			return fray.Errorf(fray.EINVALID, "Event %d rolls for %s, who is not present.", ev.Seq, tc.Who)
		}
		if tc.Init > 10000 || tc.Init < -10000 {
			return fray.Errorf(fray.EINVALID, "Event %d gives %s an initiative out of range.", ev.Seq, tc.Who)
		}
	}
	s.Round = d.Turn
	engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
	s.Sched, s.Cur, s.Intr, s.IntrPhase, s.Pending = nil, 0, nil, 0, nil
	if n := slots(d.Chars); n > 0 {
		s.Sched = make([]Slot, 0, n)
	}
	if s.Ties == nil {
		s.Ties = map[fray.CombatantID]int{}
	} else {
		clear(s.Ties) // each state has its own (see clone)
	}
	for _, ch := range s.Chars {
		ch.Init, ch.Rolled, ch.Halved = 0, false, false
		ch.Actions, ch.Performed, ch.ActedPhase = 0, 0, 0
		ch.Allot, ch.PhaseMove, ch.PhaseUsed, ch.Reached, ch.Moved = 0, 0, 0, 0, 0
		ch.Act = Activation{}
		ch.FacingPhase = 0
	}
	for _, tc := range d.Chars {
		ch := s.char(tc.Who)
		ch.Init, ch.Rolled, ch.Halved = tc.Init, tc.Rolled, tc.Halved
		if tc.Entered {
			ch.Die = 0
		}
		if tc.Tie != 0 {
			s.Ties[ch.ID] = tc.Tie
		}
		if !tc.Rolled {
			continue
		}
		for p, nth := tc.Init, 1; p > 0; p, nth = p-PhaseStep, nth+1 { // phases(tc.Init)
			sl := Slot{Phase: p, ID: ch.ID, Nth: nth}
			if slices.Contains(tc.Lost, p) {
				sl.Status = slotLost
			} else {
				ch.Actions++
			}
			s.Sched = append(s.Sched, sl)
		}
		if ch.Actions > 0 {
			ch.Allot = moveRate(s.ByID(ch.ID)) / ch.Actions
		}
	}
	s.sortSched()
	// Room for a note per slot and a few more (upkeep, held actions).
	s.pushHistory()
	s.Latest = TurnLog{Round: d.Turn, Turns: make([]Turn, 0, len(s.Sched)+4)}
	s.settle()
	return nil
}

// slots returns how many action phases a turn's initiatives give.
func slots(chars []TurnChar) int {
	n := 0
	for _, tc := range chars {
		if tc.Rolled && tc.Init > 0 {
			n += (tc.Init + PhaseStep - 1) / PhaseStep
		}
	}
	return n
}

// sortSched orders the schedule: phases counted down; on one phase higher
// Agility first; still tied, they act simultaneously, listed by Move Rate,
// then the GM's order, then the tie roll (V-2). As written (ties=raw),
// Move Rate is not looked at and nobody acts simultaneously.
func (s *State) sortSched() {
	type key struct{ agility, move, gm, tie, added int }
	raw := s.Setting(SetTies, House) == RAW
	keys := make(map[fray.CombatantID]key, len(s.Combatants))
	for i, c := range s.Combatants {
		gm := slices.Index(s.Tiebreak, c.ID)
		if gm < 0 {
			gm = len(s.Tiebreak)
		}
		k := key{c.Stat("agility"), moveRate(c), gm, s.Ties[c.ID], i}
		if raw {
			k.move = 0
		}
		keys[c.ID] = k
	}
	slices.SortStableFunc(s.Sched, func(a, b Slot) int {
		if a.Phase != b.Phase {
			return b.Phase - a.Phase
		}
		ka, kb := keys[a.ID], keys[b.ID]
		switch {
		case ka.agility != kb.agility:
			return kb.agility - ka.agility
		case ka.move != kb.move:
			return kb.move - ka.move
		case ka.gm != kb.gm:
			return ka.gm - kb.gm
		case ka.tie != kb.tie:
			return kb.tie - ka.tie
		}
		return ka.added - kb.added
	})
	if raw {
		return
	}
	group := 0
	for i := range s.Sched {
		a := &s.Sched[i]
		after := i > 0 && s.Sched[i-1].Phase == a.Phase && keys[s.Sched[i-1].ID].agility == keys[a.ID].agility
		a.Tied = after ||
			(i+1 < len(s.Sched) && s.Sched[i+1].Phase == a.Phase && keys[s.Sched[i+1].ID].agility == keys[a.ID].agility)
		switch {
		case after:
			a.Group = group
		case a.Tied:
			group++
			a.Group = group
		}
	}
}

// added keeps the bookkeeping of the combatant just added.
func (s *State) added(d *fray.AddedData) { s.Chars = append(s.Chars, &Char{ID: d.Combatant.ID}) }

// remove drops a removed combatant's bookkeeping and phases.
func (s *State) remove(id fray.CombatantID) {
	s.Chars = kit.Drop(s.Chars, id)
	s.Tiebreak = slices.DeleteFunc(s.Tiebreak, func(x fray.CombatantID) bool { return x == id })
	if len(s.Tiebreak) == 0 {
		s.Tiebreak = nil
	}
	delete(s.Ties, id)
	s.Pending = slices.DeleteFunc(s.Pending, func(b Blow) bool { return b.Who == id })
	if len(s.Pending) == 0 {
		s.Pending = nil
	}
	s.Intr = slices.DeleteFunc(s.Intr, func(x fray.CombatantID) bool { return x == id })
	if len(s.Intr) == 0 {
		s.Intr, s.IntrPhase = nil, 0
	}
	var kept []Slot
	cur := 0
	for j, sl := range s.Sched {
		if sl.ID == id {
			continue
		}
		if j < s.Cur {
			cur++
		}
		kept = append(kept, sl)
	}
	s.Sched, s.Cur = kept, cur
	// The simultaneous group may be gone, even while interrupters act.
	s.land(false)
	if s.Cur >= len(s.Sched) && len(s.Intr) > 0 {
		// Nobody is left to interrupt: the held actions are kept.
		for _, x := range s.Intr {
			ch := s.char(x)
			ch.Held = append([]Hold{*ch.Act.Hold}, ch.Held...)
			ch.Act = Activation{}
		}
		s.Intr, s.IntrPhase = nil, 0
	}
	if s.Started {
		s.settle()
	}
}

// afterSet keeps the held actions within what a changed held= setting
// allows.
func (s *State) afterSet() {
	raw := s.Setting(SetHeld, House) == RAW
	for _, ch := range s.Chars {
		if raw {
			ch.Held = slices.DeleteFunc(ch.Held, func(h Hold) bool { return h.Turn != s.Round })
		} else if len(ch.Held) > 1 {
			ch.Held = ch.Held[len(ch.Held)-1:]
		}
		if len(ch.Held) == 0 {
			ch.Held = nil
		}
	}
}
