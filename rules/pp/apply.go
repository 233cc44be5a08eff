package pp

import (
	"slices"
	"strconv"

	"fray"
	"fray/rules/kit"
)

// Apply changes st by the event ev.
func (sys *System) Apply(st fray.State, ev fray.Event) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	if handled, err := kit.ApplyShared(&s.Encounter, ev, kit.Roster{Added: s.added, Removed: s.remove}); handled {
		return err
	}
	if ok, err := s.applyResolution(ev); ok {
		return err
	}
	switch ev.Type {
	case fray.EventStarted:
		return kit.ApplyStarted(&s.Started, ev)
	case EventRole:
		var d RoleData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		// The one name a payload of P&P holds (see RoleData): the
		// combatant just added, present.
		c := s.Find(d.Name)
		var ch *Char
		if c != nil {
			ch = s.char(c.ID)
		}
		if ch == nil || !slices.Contains(roles, d.Role) {
			return fray.Errorf(fray.EINVALID, "Event %d gives %q the role %q.", ev.Seq, fray.Mention(d.Name), d.Role)
		}
		ch.Role, ch.Minion = d.Role, d.Minion
	case EventTiebreak:
		var d NamesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		for _, id := range d.Who {
			if s.char(id) == nil {
				return fray.Errorf(fray.EINVALID, "Event %d refers to %s, who is not present.", ev.Seq, id)
			}
		}
		s.Tiebreak = d.Who
	case EventRound:
		var d RoundData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !s.Started || d.Round != s.Round+1 || s.current() != "" {
			return fray.Errorf(fray.EINVALID, "Event %d begins page %d out of sequence.", ev.Seq, d.Round)
		}
		for _, id := range d.Order {
			if s.char(id) == nil {
				return fray.Errorf(fray.EINVALID, "Event %d refers to %s, who is not present.", ev.Seq, id)
			}
		}
		s.Actions, s.Taken = 0, nil
		s.History = append(s.History, Page{Round: d.Round})
		s.Rounds.Begin(&s.Encounter, d.Round, d.Order)
	case EventActed, EventTurnDone:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		cur := s.current()
		if cur == "" || d.Who != cur {
			return fray.Errorf(fray.EINVALID, "Event %d is for %s, whose turn it is not.", ev.Seq, d.Who)
		}
		if ev.Type == EventActed {
			s.Actions++
			return nil
		}
		if n := len(s.History); n > 0 {
			s.History[n-1].Turns = append(s.History[n-1].Turns, Turn{ID: cur, Actions: s.Actions})
		}
		s.Taken = append(s.Taken, s.Actions)
		s.Actions = 0
		s.Rounds.EndTurn(&s.Encounter)
	default:
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, which P&P does not know.", ev.Seq, ev.Type)
	}
	return nil
}

// words is the turn as the history says it, with the name its taker
// has now: "Nightwing (3 actions, −4d)".
func (t Turn) words(enc *fray.Encounter) string {
	name := enc.NameOf(t.ID)
	if t.Actions < 2 {
		return name
	}
	return name + " (" + strconv.Itoa(t.Actions) + " actions, −" + strconv.Itoa(ExtraActionPenalty*(t.Actions-1)) + "d)"
}

// added keeps the role of the combatant just added: a hero on the PCs'
// side, a villain otherwise, until an EventRole says more.
func (s *State) added(d *fray.AddedData) {
	r := RoleVillain
	if d.Combatant.Side == fray.SidePC {
		r = RoleHero
	}
	s.Chars = append(s.Chars, &Char{ID: d.Combatant.ID, Role: r})
}

func (s *State) remove(id fray.CombatantID) {
	s.dropRecord(id)
	s.Chars = kit.Drop(s.Chars, id)
	i, at := s.Rounds.Drop(id)
	if i < 0 {
		return
	}
	switch at {
	case -1:
		s.Taken = slices.Delete(s.Taken, i, i+1)
	case 0:
		s.Actions = 0 // the next in order begins their turn
	}
	if len(s.Taken) == 0 {
		s.Taken = nil
	}
}
