package queue

import (
	"slices"
	"strings"

	"fray"
	"fray/engine"
)

// This file decides the turns of the queue: act, next and react (Q-2,
// Q-3), and who is fit to take them.

// checkTurn checks an optional NAME against whose turn it is, and
// returns the combatant whose turn it is.
func (s *State) checkTurn(name string) (*fray.Combatant, error) {
	if !s.Started {
		return nil, fray.Errorf(fray.EINVALID, "The encounter has not started; add the combatants, then start.")
	}
	cur := s.ByID(s.current())
	if cur == nil {
		return nil, fray.Errorf(fray.EINVALID, "The queue is empty.")
	}
	if name != "" {
		c, err := s.Lookup(name)
		if err != nil {
			return nil, err
		}
		if c.ID != cur.ID {
			return nil, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", fray.Mention(cur.Name), c)
		}
	}
	return cur, nil
}

func (s *State) decideAct(tx *txn, cmd fray.Command) error {
	cur, kind, note, err := s.checkAct(cmd)
	if err != nil {
		return err
	}
	return s.act(tx, cur, kind, note)
}

// checkAct checks act [NAME] KIND [note=TEXT] against the rules and
// returns whose action it is, its kind and its note.
func (s *State) checkAct(cmd fray.Command) (cur *fray.Combatant, kind, note string, err error) {
	name, kind := "", cmd.Arg(0)
	if len(cmd.Args) == 2 {
		name, kind = cmd.Args[0], cmd.Args[1]
	}
	kind = strings.ToLower(kind)
	if cur, err = s.checkTurn(name); err != nil {
		return nil, "", "", err
	}
	if err := s.checkFit(cur); err != nil {
		return nil, "", "", err
	}
	switch {
	case len(s.Actions) >= 2:
		return nil, "", "", fray.Errorf(fray.EINVALID, "%s has already taken two actions this turn; next sends them to the bottom of the queue.", fray.Mention(cur.Name))
	case kind == Major && slices.Contains(s.Actions, Major):
		return nil, "", "", fray.Errorf(fray.EINVALID, "%s has already taken a Major action this turn; the second action must be Minor.", fray.Mention(cur.Name))
	}
	note = cmd.Opts["note"]
	if len(note) > 200 {
		return nil, "", "", fray.Errorf(fray.ETOOLARGE, "note= is longer than 200 bytes.")
	}
	return cur, kind, note, nil
}

// checkFit refuses an action or a Reaction of c when c can take none
// the dead, and the Incapacitated, who have lost all their hit
// points; attacks and checks refuse them too.
func (s *State) checkFit(c *fray.Combatant) error {
	switch {
	case s.dead(c):
		return fray.Errorf(fray.EINVALID, "%s is dead.", c)
	case s.incapacitated(c):
		return fray.Errorf(fray.EINVALID, "%s is Incapacitated and cannot act.", c)
	}
	return nil
}

// act records in tx the event of an action by c, with the combatants its
// note names declared.
func (s *State) act(tx *txn, c *fray.Combatant, kind, note string) error {
	// Whom the note mentions is for the log's readers; Apply reads only
	// the kind of action.
	if tx.Unrecorded {
		return tx.Emit(EventActed, actData{Name: c.ID, Kind: kind, Note: note})
	}
	if m := s.mentions(note, c); m != nil {
		return tx.Emit(EventActed, actNoted{Name: c.ID, Kind: kind, Note: note, Mentions: m})
	}
	return tx.Emit(EventActed, actData{Name: c.ID, Kind: kind, Note: note})
}

// mentions returns the other combatants than c whom note's words name
// (engine.Mentions), or nil.
func (s *State) mentions(note string, c *fray.Combatant) []fray.CombatantID {
	return engine.IDs(&s.Encounter, engine.Mentions(&s.Encounter, note, c.Name))
}

func (s *State) decideNext(tx *txn, cmd fray.Command) error {
	cur, err := s.checkTurn(cmd.Arg(0))
	if err != nil {
		return err
	}
	return tx.Emit(EventTurnEnded, fray.NameData{Who: cur.ID})
}

func (s *State) decideReact(tx *txn, cmd fray.Command) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	o, err := s.Lookup(cmd.Opts["to"])
	if err != nil {
		return err
	}
	cur, err := s.checkTurn("")
	if err != nil {
		return err
	}
	switch {
	case c.ID == o.ID:
		return fray.Errorf(fray.EINVALID, "%s cannot react to their own action.", c)
	case c.ID == cur.ID:
		return fray.Errorf(fray.EINVALID, "It is %s's own turn; a reaction is taken when it is not.", c)
	case o.ID != cur.ID && !slices.Contains(s.Below, o.ID):
		// A Reaction counters an action: the current actor's, or
		// a Reaction to it this turn. One waiting in the queue, whose
		// turn is to come or over, takes none.
		return fray.Errorf(fray.EINVALID, "%s is waiting in the queue, taking no action to counter; a reaction answers %s, whose turn it is, or a reaction to them.", o, fray.Mention(cur.Name))
	}
	if err := s.checkFit(c); err != nil {
		return err
	}
	var ally fray.CombatantID
	if name, ok := cmd.Opts[KeyFor]; ok {
		a, err := s.Lookup(name)
		if err != nil {
			return err
		}
		if err := s.checkAlly(c, a); err != nil {
			return err
		}
		if err := s.checkCover(c, o, a); err != nil {
			return err
		}
		ally = a.ID
	}
	note := cmd.Opts["note"]
	if len(note) > 200 {
		return fray.Errorf(fray.ETOOLARGE, "note= is longer than 200 bytes.")
	}
	if m := s.mentions(note, c); m != nil {
		return tx.Emit(EventReacted, reactNoted{Name: c.ID, To: o.ID, Note: note, For: ally, Mentions: m})
	}
	return tx.Emit(EventReacted, reactData{Name: c.ID, To: o.ID, Note: note, For: ally})
}
