package queue

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

// This file decides commands: the dispatch of every command word, the
// shared commands, and the queue roll (order, initiative, start).

func state(st fray.State) *State {
	s, _ := st.(*State)
	if s == nil {
		return newState()
	}
	return s
}

// Decide turns a command into events. The engine has checked the
// command's words against its declaration (Commands).
func (sys *System) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s := state(st)
	if cmd.Name == engine.CmdAdd {
		if evs, err := s.decideAdd(cmd); err != nil || evs != nil {
			return evs, err
		}
	}
	if evs, ok, err := s.decideSharedOK(cmd); ok {
		return evs, err
	}
	var ev fray.Event
	var err error
	switch cmd.Name {
	case "order":
		ev, err = s.decideOrder(cmd)
	case "initiative":
		ev, err = s.decideInitiative(cmd, r)
	case "start":
		return s.decideStart(cmd, r)
	case "act":
		ev, err = s.decideAct(cmd)
	case "next":
		ev, err = s.decideNext(cmd)
	case "react":
		ev, err = s.decideReact(cmd)
	case "attack":
		return s.decideAttack(cmd, r)
	case "injury":
		return s.decideInjury(cmd)
	case "damage":
		return s.decideDamage(cmd)
	case "heal":
		ev, err = s.decideHeal(cmd)
	case "check":
		return s.decideCheck(cmd, r)
	case "move":
		return s.decideMove(cmd)
	default:
		return nil, fray.Errorf(fray.EINTERNAL, "The Combat Queue does not decide the command %q: it is not declared, or declared and not decided.", engine.Clip(cmd.Name))
	}
	if err != nil {
		return nil, err
	}
	return []fray.Event{ev}, nil
}

// decideShared decides a shared command (add, remove, set, note, reveal).
func (s *State) decideShared(cmd fray.Command) ([]fray.Event, error) {
	evs, _, err := s.decideSharedOK(cmd)
	return evs, err
}

// decideSharedOK decides a shared command; handled is false for others.
func (s *State) decideSharedOK(cmd fray.Command) (evs []fray.Event, handled bool, err error) {
	if evs, ok, err := engine.DecideShared(&s.Encounter, cmd, spec); ok {
		if err != nil {
			return nil, true, err
		}
		if evs[0].Type == fray.EventAdded && s.Started {
			var d fray.AddedData
			if err := evs[0].Decode(&d); err == nil && (d.Before != "" || d.After != "") {
				if cur := s.ByID(s.current()); d.Before != "" && cur != nil && d.Before == cur.ID {
					return nil, true, fray.Errorf(fray.EINVALID, "%s is taking their turn at the top of the queue; nobody can be placed above them.", fray.Mention(cur.Name))
				}
				for _, id := range []fray.CombatantID{d.Before, d.After} {
					if id != "" && !slices.Contains(s.Queue, id) {
						return nil, true, fray.Errorf(fray.EINVALID, "%s is not in the queue just now (they reacted); place the newcomer next to someone in it.", fray.Mention(s.NameOf(id)))
					}
				}
			}
		}
		return evs, true, nil
	}
	return nil, false, nil
}

func (s *State) decideOrder(cmd fray.Command) (fray.Event, error) {
	if s.Started {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "The queue is already formed; the tiebreak order only matters at the start.")
	}
	ids := make([]fray.CombatantID, 0, len(cmd.Args))
	for _, a := range cmd.Args {
		c, err := s.Lookup(a)
		if err != nil {
			return fray.Event{}, err
		}
		if slices.Contains(ids, c.ID) {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "%s is named twice.", c)
		}
		ids = append(ids, c.ID)
	}
	return fray.NewEvent(EventTiebreak, namesData{Names: ids})
}

func (s *State) decideInitiative(cmd fray.Command, r fray.Roller) (fray.Event, error) {
	if s.Started {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "Initiative is rolled at the start; the queue is already formed.")
	}
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return fray.Event{}, err
	}
	var roll fray.Roll
	if len(cmd.Args) == 2 {
		n, err := strconv.Atoi(cmd.Args[1])
		if err != nil {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "%q is not a d20 face; give a number from 1 to 20.", cmd.Args[1])
		}
		roll, err = engine.RollFaces(c.Name, "1d20", []int{n})
		if err != nil {
			return fray.Event{}, err
		}
	} else {
		roll, err = r.Roll(c.Name, "1d20")
		if err != nil {
			return fray.Event{}, err
		}
		if roll.Source == fray.RollSeeded {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "initiative enters a physical die: initiative %s 14.", c)
		}
	}
	if c.Group == "" {
		return fray.NewEvent(EventInitiative, initData{Key: c.ID}, roll)
	}
	roll.For = c.Group
	d := initGroup{Key: unitKey(c)}
	for _, m := range s.Combatants {
		if strings.EqualFold(m.Group, c.Group) {
			d.Members = append(d.Members, m.ID)
		}
	}
	return fray.NewEvent(EventInitiative, d, roll)
}

func (s *State) decideStart(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	ps, err := s.parties()
	if err != nil {
		return nil, err
	}
	// The odds the roll has, worked out before any die is rolled (E-6).
	odds, err := startOddsOf(cmd, ps)
	if err != nil {
		return nil, err
	}
	var rolls []fray.Roll
	ranked := make([]engine.Ranked, 0, len(ps))
	scores := make(map[fray.CombatantID]int, len(s.Combatants))
	for _, p := range ps {
		roll, ok := s.Initiative[p.unit]
		if !ok {
			var err error
			roll, err = r.Roll(p.name, "1d20")
			if err != nil {
				return nil, err
			}
		}
		rolls = append(rolls, roll)
		score := roll.Total + p.bonus
		pc := 0
		if p.pc {
			pc = 1
		}
		// The parties are in the GM's tiebreak order, which SortRanked
		// keeps for equal keys.
		ranked = append(ranked, engine.Ranked{Name: p.key, Keys: []int{score, pc}})
		for _, m := range p.members {
			scores[m] = score
		}
	}
	byKey := make(map[string]*party, len(ps))
	for _, p := range ps {
		byKey[p.key] = p
	}
	engine.SortRanked(ranked)
	order := make([]fray.CombatantID, 0, len(s.Combatants))
	for _, x := range ranked {
		order = append(order, byKey[x.Name].members...)
	}
	ev, err := fray.NewEvent(fray.EventStarted, startData{Order: order, Scores: scores}, rolls...)
	if err != nil {
		return nil, err
	}
	ev.Odds = &odds
	return []fray.Event{ev}, nil
}
