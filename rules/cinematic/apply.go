package cinematic

import (
	"slices"
	"strconv"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Apply changes st by the event ev. Payloads identify combatants by id,
// as the state does.
func (sys *System) Apply(st fray.State, ev fray.Event) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	if handled, err := kit.ApplyShared(&s.Encounter, ev, kit.Roster{Added: s.added, Removed: s.remove}); handled {
		return err
	}
	switch ev.Type {
	case fray.EventStarted:
		return kit.ApplyStarted(&s.Started, ev)
	case EventTiebreak:
		// NamesData is not flat, so the list is this call's to keep; an
		// id that is nobody's (a name an older log held that was nobody's)
		// orders nobody.
		var d NamesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		s.Tiebreak = slices.DeleteFunc(d.Who, func(id fray.CombatantID) bool { return s.NameOf(id) == "" })
	case EventStance:
		var d StanceData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		_, ch := s.who(d.Who)
		if ch == nil || (d.Stance != StanceNone && d.Stance != StanceDefence && d.Stance != StanceOffence) {
			return fray.Errorf(fray.EINVALID, "Event %d gives %s the stance %q.", ev.Seq, d.Who, d.Stance)
		}
		ch.Stance = d.Stance
	case EventRound:
		// RoundData is not flat, so the order is this call's: the
		// state's to keep.
		var d RoundData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !s.Started || d.Round != s.Round+1 || s.Current() != "" || s.Waiting != nil {
			return fray.Errorf(fray.EINVALID, "Event %d begins round %d out of sequence.", ev.Seq, d.Round)
		}
		for _, id := range d.Order {
			if s.char(id) == nil {
				return fray.Errorf(fray.EINVALID, "Event %d orders %s, who is not present.", ev.Seq, id)
			}
		}
		if d.Round > 1 {
			for _, ch := range s.Chars {
				*ch = Char{ID: ch.ID} // actions and stances last one round
			}
		}
		s.Begun, s.Turn = false, s.Turn[:0]
		s.History = append(s.History, HistoryRound{Round: d.Round, Turns: make([]HistoryTurn, 0, len(d.Order))})
		s.Rounds.Begin(&s.Encounter, d.Round, d.Order)
	case EventAttack, EventDefence:
		var d ActionData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		c, ch := s.who(d.Who)
		cur := s.Current()
		if ch == nil || cur == "" || (ev.Type == EventAttack && c.ID != cur) {
			return fray.Errorf(fray.EINVALID, "Event %d is an action of %s out of turn.", ev.Seq, d.Who)
		}
		a := Act{Type: ActAttack, Modifier: d.Modifier, Extra: d.Kind == ActionExtra, Bonus: d.Kind == ActionBonus}
		if ev.Type == EventDefence {
			a.Type, a.Who = ActDefence, c.ID
		}
		if d.Other != "" {
			if s.ByID(d.Other) == nil {
				return fray.Errorf(fray.EINVALID, "Event %d is an action of %q against %s, who is not present.", ev.Seq, c, d.Other)
			}
			if ev.Type == EventAttack || d.Other != cur { // against the one whose turn it is: implied
				a.Other = d.Other
			}
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
		s.act(a)
	case EventTurnDone:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		cur := s.Current()
		if cur == "" || d.Who != cur {
			return fray.Errorf(fray.EINVALID, "Event %d ends the turn of %s, whose turn it is not.", ev.Seq, d.Who)
		}
		if s.Waiting != nil {
			return fray.Errorf(fray.EINVALID, "Event %d ends %q's turn while an attack waits for %q's answer.", ev.Seq, s.ByID(cur), fray.Mention(s.NameOf(s.Waiting.TargetID)))
		}
		t := HistoryTurn{Who: cur}
		if n := len(s.Turn); n > 0 {
			// The history keeps the actions; the turns to come write
			// after them.
			t.Acts, s.Turn = s.Turn[:n:n], s.Turn[n:]
		}
		s.note(t)
		s.Rounds.EndTurn(&s.Encounter)
	default:
		if handled, err := s.applyResolution(ev); handled {
			return err
		}
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, which Cinematic Unisystem does not know.", ev.Seq, ev.Type)
	}
	return nil
}

// turnRoom is the room for actions Turn makes when it has none left: the
// actions of a turn or two, which the history then shares. It is small
// because a copy of the state (Clone, CloneSharing) has no room left in
// Turn, and a copy that Decide or the simulator acts on makes it anew.
const turnRoom = 4

// act adds an action to the turn in progress.
func (s *State) act(a Act) {
	if len(s.Turn) == cap(s.Turn) {
		t := make([]Act, len(s.Turn), len(s.Turn)+turnRoom)
		copy(t, s.Turn)
		s.Turn = t
	}
	s.Turn = append(s.Turn, a)
}

// appendAct appends to b an action as the history says it, with the
// names the combatants have in enc: "attack on Vamp", "Vamp defends,
// extra −2", "Guard defends, Full Defence's extra +3", "reloads Pistol",
// "stands up".
func appendAct(b []byte, enc *fray.Encounter, a Act) []byte {
	switch a.Type {
	case ActReload:
		return append(append(b, "reloads "...), a.Weapon...)
	case ActStand:
		return append(b, "stands up"...)
	case ActDefence:
		b = append(append(b, enc.NameOf(a.Who)...), " defends"...)
	default:
		b = append(b, "attack"...)
	}
	if a.Other != "" {
		if a.Type == ActAttack {
			b = append(b, " on "...)
		} else {
			b = append(b, " against "...)
		}
		b = append(b, enc.NameOf(a.Other)...)
	}
	switch {
	case a.Extra:
		b = append(b, ", extra"...)
	case a.Bonus:
		b = append(b, ", Full Defence's extra"...)
	}
	switch {
	case a.Modifier < 0:
		b = strconv.AppendInt(append(b, " −"...), int64(-a.Modifier), 10) // as signed does
	case a.Modifier > 0:
		b = strconv.AppendInt(append(b, " +"...), int64(a.Modifier), 10)
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

// added keeps the actions of the combatant just added, and starts their
// tracks.
func (s *State) added(*fray.AddedData) {
	c := s.Combatants[len(s.Combatants)-1]
	s.Chars = append(s.Chars, &Char{ID: c.ID})
	startTracks(c)
}

func (s *State) remove(id fray.CombatantID) {
	if w := s.Waiting; w != nil && (w.AttackerID == id || w.TargetID == id) {
		s.Waiting = nil
	}
	s.Chars = kit.Drop(s.Chars, id)
	if i, at := s.Rounds.Drop(id); i >= 0 && at == 0 {
		s.Turn = s.Turn[:0] // the next in order begins their turn
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	}
}
