package cinematic

import (
	"slices"
	"strconv"

	"fray"
	"fray/engine"
)

// Apply changes st by the event ev.
func (sys *System) Apply(st fray.State, ev fray.Event) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	added, removed, handled, err := engine.ApplyShared(&s.Encounter, ev)
	if handled {
		if err != nil {
			return err
		}
		if added != nil {
			s.Chars = append(s.Chars, &Char{Name: added.Combatant.Name})
			startTracks(s.Combatants[len(s.Combatants)-1])
		}
		if removed != "" {
			s.remove(removed)
		}
		return nil
	}
	switch ev.Type {
	case fray.EventStarted:
		if s.Started {
			return fray.Errorf(fray.EINVALID, "Event %d starts an encounter already started.", ev.Seq)
		}
		s.Started = true
	case EventTiebreak:
		var d NamesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		s.Tiebreak = slices.Clone(d.Names)
	case EventStance:
		var d StanceData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		ch := s.char(d.Name)
		if ch == nil || (d.Stance != StanceNone && d.Stance != StanceDefence && d.Stance != StanceOffence) {
			return fray.Errorf(fray.EINVALID, "Event %d gives %q the stance %q.", ev.Seq, fray.Mention(d.Name), d.Stance)
		}
		ch.Stance = d.Stance
	case EventRound:
		var d RoundData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !s.Started || d.Round != s.Round+1 || s.Current() != "" || s.Waiting != nil {
			return fray.Errorf(fray.EINVALID, "Event %d begins round %d out of sequence.", ev.Seq, d.Round)
		}
		for _, n := range d.Order {
			if s.char(n) == nil {
				return fray.Errorf(fray.EINVALID, "Event %d names %q, who is not present.", ev.Seq, n)
			}
		}
		if d.Round > 1 {
			for _, ch := range s.Chars {
				*ch = Char{Name: ch.Name} // actions and stances last one round
			}
		}
		if s.Round > 0 {
			engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
		}
		// d was decoded for this call (RoundData is not flat), so its
		// order is the state's to keep.
		s.Round, s.Order, s.Pos, s.Begun, s.Turn, s.TurnWho = d.Round, d.Order, 0, false, s.Turn[:0], nil
		s.History = append(s.History, HistoryRound{Round: d.Round, Turns: make([]HistoryTurn, 0, len(d.Order))})
		// Conditions anchored to turn edges end here (E-4).
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	case EventAttack, EventDefence:
		var d ActionData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		ch := s.char(d.Name)
		if ch == nil || s.Current() == "" || (ev.Type == EventAttack && !fray.SameName(d.Name, s.Current())) {
			return fray.Errorf(fray.EINVALID, "Event %d is an action of %q out of turn.", ev.Seq, fray.Mention(d.Name))
		}
		switch {
		case d.Kind == ActionExtra:
			ch.Extras++
		case d.Kind == ActionBonus:
			ch.Bonus = true
		case ev.Type == EventAttack:
			ch.Attacked = true
		default:
			ch.Defended = true
		}
		s.Begun = true
		if ev.Type == EventDefence && fray.SameName(d.Other, s.Current()) {
			d.Other = "" // against the one whose turn it is: implied
		}
		s.Turn = appendAction(s.turnSoFar(), ev.Type, d)
		if ev.Type == EventDefence {
			s.mention(d.Name)
		}
		s.mention(d.Other)
	case EventTurnDone:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if cur := s.Current(); cur == "" || !fray.SameName(cur, d.Name) {
			return fray.Errorf(fray.EINVALID, "Event %d ends the turn of %q, whose turn it is not.", ev.Seq, fray.Mention(d.Name))
		}
		if s.Waiting != nil {
			return fray.Errorf(fray.EINVALID, "Event %d ends %q's turn while an attack waits for %q's answer.", ev.Seq, fray.Mention(d.Name), fray.Mention(s.Waiting.Target))
		}
		t := HistoryTurn{Text: s.Order[s.Pos], Who: s.TurnWho}
		if t.Who == nil {
			t.Who = s.Order[s.Pos : s.Pos+1 : s.Pos+1]
		}
		if len(s.Turn) > 0 {
			t.Text = string(append(s.Turn, ')'))
		}
		s.note(t)
		s.Turn, s.TurnWho = s.Turn[:0], nil
		s.Pos++
		engine.TurnEdge(&s.Encounter, s.Round, d.Name, fray.EdgeEnd)
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	default:
		if handled, err := s.applyResolution(ev); handled {
			return err
		}
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, which Cinematic Unisystem does not know.", ev.Seq, ev.Type)
	}
	return nil
}

// turnSoFar returns the words of the turn in progress ready for one more
// action's: "Master (" before the first, "Master (attack on Slayer; "
// after it.
func (s *State) turnSoFar() []byte {
	if len(s.Turn) == 0 {
		if cap(s.Turn) == 0 {
			s.Turn = make([]byte, 0, 128) // room for most turns
		}
		return append(append(s.Turn, s.Current()...), " ("...)
	}
	return append(s.Turn, "; "...)
}

// say adds words, an action other than an attack or a defence, to the
// turn in progress.
func (s *State) say(words string) { s.Turn = append(s.turnSoFar(), words...) }

// appendAction appends to b an action as the history says it: "attack on
// Vamp", "Vamp defends, extra −2", "Guard defends, Full Defence's extra
// +3". Apply says one action for every event, after the turn's words so
// far (see State.Turn).
func appendAction(b []byte, typ string, d ActionData) []byte {
	if typ == EventDefence {
		b = append(append(b, d.Name...), " defends"...)
	} else {
		b = append(b, "attack"...)
	}
	if d.Other != "" {
		if typ == EventAttack {
			b = append(b, " on "...)
		} else {
			b = append(b, " against "...)
		}
		b = append(b, d.Other...)
	}
	switch d.Kind {
	case ActionExtra:
		b = append(b, ", extra"...)
	case ActionBonus:
		b = append(b, ", Full Defence's extra"...)
	}
	switch {
	case d.Modifier < 0:
		b = strconv.AppendInt(append(b, " −"...), int64(-d.Modifier), 10) // as signed does
	case d.Modifier > 0:
		b = strconv.AppendInt(append(b, " +"...), int64(d.Modifier), 10)
	}
	return b
}

func signed(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return "+" + strconv.Itoa(n)
}

// note records a turn taken in this round's history.
func (s *State) note(t HistoryTurn) {
	if n := len(s.History); n > 0 {
		s.History[n-1].Turns = append(s.History[n-1].Turns, t)
	}
}

// mention records that the words of the turn in progress name the
// combatant name, unless it is the one whose turn it is.
func (s *State) mention(name string) {
	cur := s.Current()
	switch {
	case name == "" || fray.SameName(name, cur) || engine.Index(s.TurnWho, name) >= 0:
	case s.TurnWho == nil:
		s.TurnWho = []string{cur, name}
	default:
		s.TurnWho = append(s.TurnWho, name)
	}
}

func (s *State) remove(name string) {
	if w := s.Waiting; w != nil && (fray.SameName(w.Attacker, name) || fray.SameName(w.Target, name)) {
		s.Waiting = nil
	}
	if i := slices.IndexFunc(s.Chars, func(c *Char) bool { return fray.SameName(c.Name, name) }); i >= 0 {
		s.Chars = slices.Delete(s.Chars, i, i+1)
	}
	if s.Tiebreak = engine.Without(s.Tiebreak, name); len(s.Tiebreak) == 0 {
		s.Tiebreak = nil
	}
	i := engine.Index(s.Order, name)
	if i < 0 {
		return
	}
	s.Order = slices.Delete(slices.Clone(s.Order), i, i+1) // not in place: see Order
	switch {
	case i < s.Pos:
		s.Pos--
	case i == s.Pos:
		s.Turn, s.TurnWho = s.Turn[:0], nil // the next in order begins their turn
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	}
}
