package pp

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
			r := RoleVillain
			if added.Combatant.Side == fray.SidePC {
				r = RoleHero
			}
			s.Chars = append(s.Chars, &Char{Name: added.Combatant.Name, Role: r})
		}
		if removed != "" {
			s.remove(removed)
		}
		return nil
	}
	if ok, err := s.applyResolution(ev); ok {
		return err
	}
	switch ev.Type {
	case fray.EventStarted:
		if s.Started {
			return fray.Errorf(fray.EINVALID, "Event %d starts an encounter already started.", ev.Seq)
		}
		s.Started = true
	case EventRole:
		var d RoleData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		c := s.char(d.Name)
		if c == nil || !slices.Contains(roles, d.Role) {
			return fray.Errorf(fray.EINVALID, "Event %d gives %q the role %q.", ev.Seq, fray.Mention(d.Name), d.Role)
		}
		c.Role, c.Minion = d.Role, d.Minion
	case EventTiebreak:
		var d NamesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		s.Tiebreak = slices.Clone(d.Names)
	case EventRound:
		var d RoundData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if !s.Started || d.Round != s.Round+1 || s.Current() != "" {
			return fray.Errorf(fray.EINVALID, "Event %d begins page %d out of sequence.", ev.Seq, d.Round)
		}
		for _, n := range d.Order {
			if s.char(n) == nil {
				return fray.Errorf(fray.EINVALID, "Event %d names %q, who is not present.", ev.Seq, n)
			}
		}
		if s.Round > 0 {
			engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
		}
		s.Round, s.Order, s.Pos, s.Actions, s.Taken = d.Round, slices.Clone(d.Order), 0, 0, nil
		s.History = append(s.History, fray.RoundTurns{Round: d.Round, Turns: []string{}})
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	case EventActed, EventTurnDone:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if cur := s.Current(); cur == "" || !fray.SameName(cur, d.Name) {
			return fray.Errorf(fray.EINVALID, "Event %d is for %q, whose turn it is not.", ev.Seq, fray.Mention(d.Name))
		}
		if ev.Type == EventActed {
			s.Actions++
			return nil
		}
		s.note(turnWords(d.Name, s.Actions))
		s.Taken = append(s.Taken, s.Actions)
		s.Pos++
		s.Actions = 0
		engine.TurnEdge(&s.Encounter, s.Round, d.Name, fray.EdgeEnd)
		if cur := s.Current(); cur != "" {
			engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeStart)
		}
	default:
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, which P&P does not know.", ev.Seq, ev.Type)
	}
	return nil
}

// turnWords is a turn as the history says it: "Nightwing (3 actions, −4d)".
func turnWords(name string, actions int) string {
	if actions < 2 {
		return name
	}
	return name + " (" + strconv.Itoa(actions) + " actions, −" + strconv.Itoa(ExtraActionPenalty*(actions-1)) + "d)"
}

func (s *State) note(t string) {
	if n := len(s.History); n > 0 {
		s.History[n-1].Turns = append(s.History[n-1].Turns, t)
	}
}

func (s *State) remove(name string) {
	s.dropRecord(name)
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
	s.Order = slices.Delete(s.Order, i, i+1)
	switch {
	case i < s.Pos:
		s.Taken = slices.Delete(s.Taken, i, i+1)
		s.Pos--
	case i == s.Pos:
		s.Actions = 0 // the next in order begins their turn
	}
	if len(s.Taken) == 0 {
		s.Taken = nil
	}
}
