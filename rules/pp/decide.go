package pp

import (
	"maps"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
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
	// The commands below read nothing their own events change: a roll is
	// planned, rolled and settled before its events are recorded, and a
	// page's order (rank) depends on the combatants, their stats and roles
	// and the GM's order, which starting, ending a turn or acting leave
	// alone. So they are decided on st itself, in a read-only transaction
	// with no copy to apply the events to; the engine applies them in
	// turn, and puts the state back if one cannot be applied.
	s := s0
	tx := kit.Txn[*State]{State: s, Unrecorded: !fray.Recorded(r), Lender: fray.Lender(r)}
	if handled, err := s.decideResolution(cmd, r, &tx); handled {
		if err != nil {
			return nil, err
		}
		return tx.Events(), nil
	}
	newRound := func() error {
		return tx.Emit(EventRound, RoundData{Round: s.Round + 1, Order: s.rank()})
	}
	switch cmd.Name {
	case "start":
		err = kit.DecideStart(&tx, &s.Encounter, EventRound, s.rank)
	case "order":
		err = kit.DecideOrder(&tx, &s.Encounter, EventTiebreak, cmd.Args)
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
		if err := s.CheckCurrent(&s.Encounter, cmd.Arg(0)); err != nil {
			return nil, err
		}
		if cmd.Name == "act" {
			if s.Actions >= MaxActions {
				return nil, fray.Errorf(fray.EINVALID, "%s has taken %d actions this turn, the limit (MaxActions).", fray.Mention(s.NameOf(cur)), MaxActions)
			}
			err = tx.Emit(EventActed, ActData{Who: cur, Nth: s.Actions + 1})
			break
		}
		// Ending the last turn of the page begins the next page.
		if err = tx.Emit(EventTurnDone, fray.NameData{Who: cur}); err == nil && s.Pos+1 >= len(s.Order) {
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
	return tx.Events(), nil
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
