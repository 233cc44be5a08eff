package pp

import (
	"maps"
	"strings"

	"fray"
	"fray/engine"
)

// Decide returns the events cmd produces in st.
func (sys *System) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s0, err := get(st)
	if err != nil {
		return nil, err
	}
	if cmd.Name == engine.CmdAdd {
		return sys.decideAdd(s0, cmd)
	}
	if evs, handled, err := engine.DecideShared(&s0.Encounter, cmd, spec); handled {
		return evs, err
	}
	if evs, handled, err := s0.decideResolution(cmd, r); handled {
		return evs, err
	}
	// The commands below read nothing their own events change: a page's
	// order (rank) depends on the combatants, their stats and roles and the
	// GM's order, which starting, ending a turn or acting leave alone. So
	// they are decided on st itself, with no copy to apply the events to;
	// the engine applies them in turn, and puts the state back if one
	// cannot be applied.
	s := s0
	var evs []fray.Event
	emit := func(typ string, data any) error {
		ev, err := fray.NewEvent(typ, data)
		if err != nil {
			return err
		}
		evs = append(evs, ev)
		return nil
	}
	newRound := func() error {
		return emit(EventRound, RoundData{Round: s.Round + 1, Order: s.rank()})
	}
	switch cmd.Name {
	case "start":
		if s.Started {
			return nil, fray.Errorf(fray.EINVALID, "The encounter has already started.")
		}
		if len(s.Combatants) == 0 {
			return nil, fray.Errorf(fray.EINVALID, "There is nobody to fight yet; add combatants first.")
		}
		if err := emit(fray.EventStarted, nil); err != nil {
			return nil, err
		}
		err = newRound()
	case "order":
		var names []string
		if names, err = engine.Names(&s.Encounter, cmd.Args); err == nil {
			err = emit(EventTiebreak, NamesData{Who: engine.IDs(&s.Encounter, names)})
		}
	case "act", "next":
		if !s.Started {
			return nil, fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
		}
		cur := s.current()
		if cur == "" {
			if cmd.Name == "next" && len(cmd.Args) == 0 {
				err = newRound()
				break
			}
			return nil, fray.Errorf(fray.EINVALID, "Nobody's turn is in progress; use next to begin page %d.", s.Round+1)
		}
		if n := cmd.Arg(0); n != "" {
			c, err := s.Lookup(n)
			if err != nil {
				return nil, err
			}
			if c.ID != cur {
				return nil, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", fray.Mention(s.NameOf(cur)), c)
			}
		}
		if cmd.Name == "act" {
			if s.Actions >= MaxActions {
				return nil, fray.Errorf(fray.EINVALID, "%s has taken %d actions this turn, the limit (MaxActions).", fray.Mention(s.NameOf(cur)), MaxActions)
			}
			err = emit(EventActed, ActData{Who: cur, Nth: s.Actions + 1})
			break
		}
		// Ending the last turn of the page begins the next page.
		if err = emit(EventTurnDone, fray.NameData{Who: cur}); err == nil && s.Pos+1 >= len(s.Order) {
			err = newRound()
		}
	case "initiative":
		return nil, fray.Errorf(fray.EINVALID, "P&P rolls no initiative: turns go by Edge (Perception + the higher of Agility and Intellect).")
	default:
		return nil, fray.Errorf(fray.EINTERNAL, "P&P declares the command %q but does not decide it.", cmd.Name)
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
}

// decideAdd adds a combatant with the shared add, taking out the role=
// and minion= keys first; their event follows the shared one.
func (sys *System) decideAdd(s *State, cmd fray.Command) ([]fray.Event, error) {
	rd := RoleData{}
	shared := cmd
	shared.Opts = maps.Clone(cmd.Opts)
	if v, ok := shared.Opts[KeyRole]; ok {
		rd.Role = strings.ToLower(v)
		delete(shared.Opts, KeyRole)
	}
	if v, ok := shared.Opts[KeyMinion]; ok {
		b, err := engine.ParseYesNo(KeyMinion, v)
		if err != nil {
			return nil, err
		}
		rd.Minion = b
		delete(shared.Opts, KeyMinion)
	}
	evs, _, err := engine.DecideShared(&s.Encounter, shared, spec)
	if err != nil {
		return nil, err
	}
	var ad fray.AddedData
	if err := evs[0].Decode(&ad); err != nil {
		return nil, err
	}
	rd.Name = ad.Combatant.Name
	if rd.Role == "" {
		rd.Role = RoleVillain
		if ad.Combatant.Side == fray.SidePC {
			rd.Role = RoleHero
		}
	}
	ev, err := fray.NewEvent(EventRole, rd)
	if err != nil {
		return nil, err
	}
	return append(evs, ev), nil
}
