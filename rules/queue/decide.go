package queue

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
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
// command's words against its declaration (Commands). The events follow
// from the state as it is (the engine applies them in turn), so they are
// decided on it.
func (sys *System) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s := state(st)
	tx := txn{State: s, Unrecorded: !fray.Recorded(r), Lender: fray.Lender(r)}
	if err := s.decide(&tx, cmd, r); err != nil {
		return nil, err
	}
	return tx.Events(), nil
}

// txn is the transaction a command's events are recorded in.
type txn = kit.Txn[*State]

// decide records in tx the events cmd produces in s.
func (s *State) decide(tx *txn, cmd fray.Command, r fray.Roller) error {
	if _, armed := cmd.Opts[KeyWeapon]; armed && cmd.Name == engine.CmdAdd {
		return s.decideAdd(tx, cmd)
	}
	if ok, err := s.decideShared(tx, cmd); ok {
		return err
	}
	switch cmd.Name {
	case "order":
		return s.decideOrder(tx, cmd)
	case "initiative":
		return s.decideInitiative(tx, cmd, r)
	case "start":
		return s.decideStart(tx, cmd, r)
	case "act":
		return s.decideAct(tx, cmd)
	case "next":
		return s.decideNext(tx, cmd)
	case "react":
		return s.decideReact(tx, cmd)
	case "attack":
		return s.decideAttack(tx, cmd, r)
	case "injury":
		return s.decideInjury(tx, cmd)
	case "damage":
		return s.decideDamage(tx, cmd)
	case "heal":
		return s.decideHeal(tx, cmd)
	case "check":
		return s.decideCheck(tx, cmd, r)
	case "move":
		return s.decideMove(tx, cmd)
	}
	return fray.Errorf(fray.EINTERNAL, "The Combat Queue does not decide the command %q: it is not declared, or declared and not decided.", engine.Clip(cmd.Name))
}

// decideShared records in tx the events of a shared command (add, remove,
// set, note, reveal); handled is false for others.
func (s *State) decideShared(tx *txn, cmd fray.Command) (handled bool, err error) {
	evs, ok, err := engine.DecideShared(&s.Encounter, cmd, spec)
	if !ok || err != nil {
		return ok, err
	}
	if evs[0].Type == fray.EventAdded && s.Started {
		var d fray.AddedData
		if err := evs[0].Decode(&d); err == nil && (d.Before != "" || d.After != "") {
			if cur := s.ByID(s.current()); d.Before != "" && cur != nil && d.Before == cur.ID {
				return true, fray.Errorf(fray.EINVALID, "%s is taking their turn at the top of the queue; nobody can be placed above them.", fray.Mention(cur.Name))
			}
			for _, id := range []fray.CombatantID{d.Before, d.After} {
				if id != "" && !slices.Contains(s.Queue, id) {
					return true, fray.Errorf(fray.EINVALID, "%s is not in the queue just now (they reacted); place the newcomer next to someone in it.", fray.Mention(s.NameOf(id)))
				}
			}
		}
	}
	return true, tx.AddAll(evs)
}

func (s *State) decideOrder(tx *txn, cmd fray.Command) error {
	if s.Started {
		return fray.Errorf(fray.EINVALID, "The queue is already formed; the tiebreak order only matters at the start.")
	}
	ids := make([]fray.CombatantID, 0, len(cmd.Args))
	for _, a := range cmd.Args {
		c, err := s.Lookup(a)
		if err != nil {
			return err
		}
		if slices.Contains(ids, c.ID) {
			return fray.Errorf(fray.EINVALID, "%s is named twice.", c)
		}
		ids = append(ids, c.ID)
	}
	return tx.Emit(EventTiebreak, namesData{Names: ids})
}

func (s *State) decideInitiative(tx *txn, cmd fray.Command, r fray.Roller) error {
	if s.Started {
		return fray.Errorf(fray.EINVALID, "Initiative is rolled at the start; the queue is already formed.")
	}
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	var roll fray.Roll
	if len(cmd.Args) == 2 {
		n, err := strconv.Atoi(cmd.Args[1])
		if err != nil {
			return fray.Errorf(fray.EINVALID, "%q is not a d20 face; give a number from 1 to 20.", cmd.Args[1])
		}
		roll, err = engine.RollFaces(c.Name, "1d20", []int{n})
		if err != nil {
			return err
		}
	} else {
		roll, err = r.Roll(c.Name, "1d20")
		if err != nil {
			return err
		}
		if roll.Source == fray.RollSeeded {
			return fray.Errorf(fray.EINVALID, "initiative enters a physical die: initiative %s 14.", c)
		}
	}
	if c.Group == "" {
		return tx.Emit(EventInitiative, initData{Key: c.ID}, roll)
	}
	roll.For = c.Group
	d := initGroup{Key: unitKey(c)}
	for _, m := range s.Combatants {
		if strings.EqualFold(m.Group, c.Group) {
			d.Members = append(d.Members, m.ID)
		}
	}
	return tx.Emit(EventInitiative, d, roll)
}

func (s *State) decideStart(tx *txn, cmd fray.Command, r fray.Roller) error {
	ps, err := s.parties()
	if err != nil {
		return err
	}
	// The odds the roll has, worked out before any die is rolled (E-6).
	odds, err := startOddsOf(cmd, ps)
	if err != nil {
		return err
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
				return err
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
	return tx.EmitOdds(fray.EventStarted, startData{Order: order, Scores: scores}, odds, rolls...)
}
