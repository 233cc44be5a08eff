package bpb

import (
	"slices"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// defenceVerbs are the words the rules write for a forced block or dodge
// (B-7, in the seed's words), before the name of the attacker it answers:
// "blocks attack by Ganyeka".
var defenceVerbs = map[string]string{RollBlock: "blocks attack by ", RollDodge: "dodges an attack by "}

// planDefence plans "block NAME" or "dodge NAME" against the pending hit
// (B-8); it returns nil when there is no hit to roll against (a defence
// declared on one's own turn). With for=OTHER, NAME rolls against the hit
// waiting for OTHER, on their behalf (B-7; see protects).
//
// with=POWER blocks or dodges with the defender's own power: the seed
// lets a defender with the same power as the attacker's use it, even
// against an attack that inflicts no Endurance damage, which nothing else
// blocks; similar=yes is the GM's leave to use a power of like theme or
// source. The roll stays the block's Prowess or the dodge's Agility
// against 8 + the attack's rank, and costs what any block or dodge costs
// (one's turn, or a forced action); expertise in blocking or dodging, or
// in that power, adds +3 (ours: the seed names no other roll).
func (s *State) planDefence(cmd fray.Command) (*task, *fray.Combatant, error) {
	c, err := s.character(cmd.Arg(0), cmd.Name)
	if err != nil {
		return nil, nil, err
	}
	if err := s.needStarted(); err != nil {
		return nil, nil, err
	}
	if err := active(c, cmd.Name); err != nil {
		return nil, nil, err
	}
	var with *fray.Power
	// A yes or a no, as declared; left out, no.
	similar, _ := engine.ParseYesNo("similar", cmd.Opts["similar"])
	if w, ok := cmd.Opts["with"]; ok {
		if with = c.Power(w); with == nil {
			return nil, nil, fray.Errorf(fray.ENOTFOUND, "%s has no power named %q to %s with (%s has %s).", c, w, cmd.Name, c, powerList(c))
		}
	} else if similar {
		return nil, nil, fray.Errorf(fray.EINVALID, "similar=yes goes with with=POWER: name the power %s uses to %s.", c, cmd.Name)
	}
	h := s.Pending
	protected, err := s.protects(cmd, c, h)
	if err != nil {
		return nil, nil, err
	}
	if protected == nil && (h == nil || h.Defender != c.ID) {
		return nil, c, nil
	}
	attacker := s.NameOf(h.Attacker)
	switch {
	case with != nil && !similar && !fray.SameName(with.Name, h.Power):
		return nil, nil, fray.Errorf(fray.EINVALID, "%s's %s is not the %s %s attacked with; only the same power can %s it (similar=yes, with the GM's leave, for a power of like theme or source).", c, with.Name, h.Power, fray.Mention(attacker), cmd.Name)
	case with == nil && h.Effect:
		hint := ""
		if p := c.Power(h.Power); p != nil {
			hint = ": " + cmd.Name + " " + kit.QuoteName(c.Name) + " with=" + kit.QuoteName(p.Name)
			if protected != nil {
				hint += " for=" + kit.QuoteName(protected.Name)
			}
		}
		return nil, nil, fray.Errorf(fray.EINVALID, "%s's %s inflicts no Endurance damage, so only the same power can %s it%s.", fray.Mention(attacker), h.Power, cmd.Name, hint)
	}
	stat, skill := StatProwess, "blocking"
	if cmd.Name == RollDodge {
		stat, skill = StatAgility, "dodging"
	}
	v, err := sheetStat(c, stat)
	if err != nil {
		return nil, nil, err
	}
	t := &task{actor: c, d: taskData{Name: c.ID, Roll: cmd.Name, Stat: stat, Target: h.Attacker, Power: h.Power, Rank: h.Rank, Value: v,
		Difficulty: TaskDifficulty(h.Rank), Expertise: c.HasExpertise(skill)}, against: h}
	if with != nil {
		t.d.With = with.Name
		t.d.Expertise = t.d.Expertise || c.HasExpertise(with.Name)
	}
	if protected != nil {
		t.d.For = protected.ID
	}
	t.stat = statMod(stat, v)
	return t, c, s.finish(t, cmd, c, nil, fray.AppliesDefence)
}

// decideDefence decides block and dodge: a defence declared on one's turn
// (a condition until the next action), or a roll against the pending hit,
// forcing the defender's action when it is not their turn and they are
// not already blocking (for a block) or dodging (for a dodge) (B-7, B-8),
// with the reorder on an extreme success (B-9). A defence on someone
// else's behalf is always forced, and a failure lands the hit on the
// protector.
func (s *State) decideDefence(tx *txn, cmd fray.Command, r fray.Roller) error {
	t, c, err := s.planDefence(cmd)
	if err != nil {
		return err
	}
	cond := CondBlocking
	if cmd.Name == RollDodge {
		cond = CondDodging
	}
	stance := func() error {
		return tx.Emit(fray.EventCondition, fray.ConditionData{Who: c.ID, Condition: fray.Condition{
			Name: cond, Since: s.Round, Until: &fray.Anchor{Round: s.Round, Name: c.Name, ID: c.ID, Edge: fray.EdgeStart},
			Note: "may " + cmd.Name + " further attacks until their next action",
		}})
	}
	own := s.currentID() == c.ID
	if t == nil {
		if !own {
			return fray.Errorf(fray.EINVALID, "No attack has hit %s, so there is nothing to %s; a %s is declared on one's own turn or forced against a hit.", c, cmd.Name, cmd.Name)
		}
		return stance()
	}
	// The stance is per kind: "may continue attempting to block" gives
	// further blocks, not dodges (B-8). A defence of the other kind is a
	// forced action, which is the defender's next action and so ends the
	// stance they held (its turn's start ends it). The stance meets
	// attacks against oneself: a defence on someone else's behalf (for=)
	// is always a forced action (B-7).
	already := c.Condition(cond) != nil
	protecting := t.d.For != ""
	forced := !own && (!already || protecting)
	if forced {
		// A forced action (B-7), in the seed's words.
		attacker := s.NameOf(t.against.Attacker)
		err := s.force(tx, fray.Command{Name: "force", Args: []string{c.Name}, Opts: map[string]string{"note": defenceVerbs[cmd.Name] + attacker}}, []fray.CombatantID{t.against.Attacker})
		switch {
		case err != nil && protecting:
			return fray.Errorf(fray.EINVALID, "%s cannot %s for %s: %s", c, cmd.Name, fray.Mention(s.NameOf(t.d.For)), fray.Quote(err))
		case err != nil:
			return fray.Errorf(fray.EINVALID, "%s cannot %s: %s", c, cmd.Name, fray.Quote(err))
		}
	}
	if err := t.rollTask(tx, cmd, r); err != nil {
		return err
	}
	if !already || own || forced {
		if err := stance(); err != nil {
			return err
		}
	}
	h := *t.against
	if protecting {
		// The protector stepped in front of the attack: a failed
		// defence lets it land on them (ours).
		h = s.onto(h, c)
	}
	if t.d.Band == TaskFailure {
		if err := s.hitEvents(tx, h); err != nil {
			return err
		}
	} else if t.d.Band == TaskExtreme && h.Attacker != c.ID && slices.Contains(s.Order, h.Attacker) {
		// B-9: from the next round the attacker acts right after the
		// defender.
		if err := tx.Emit(EventReordered, placeData{Name: h.Attacker, After: c.ID}); err != nil {
			return err
		}
	}
	return tx.Spend(t.spent)
}

// decideTake decides "take NAME": the defender takes the pending hit;
// with for=, NAME takes it in their place.
func (s *State) decideTake(tx *txn, cmd fray.Command) error {
	if s.Pending == nil {
		return fray.Errorf(fray.EINVALID, "No attack is waiting for a block, dodge or take.")
	}
	if v, ok := cmd.Opts[optFor.Name]; ok {
		if len(cmd.Args) == 0 {
			return fray.Errorf(fray.EINVALID, "Name who takes the hit in the place of the one it is against: take NAME for=%s.", kit.QuoteName(v))
		}
		return s.decideTakeFor(tx, cmd)
	}
	if len(cmd.Args) == 1 {
		c, err := s.Lookup(cmd.Arg(0))
		if err != nil {
			return err
		}
		if c.ID != s.Pending.Defender {
			return fray.Errorf(fray.EINVALID, "The attack waiting is against %s, not %s.", fray.Mention(s.NameOf(s.Pending.Defender)), c)
		}
	}
	return s.hitEvents(tx, *s.Pending)
}

// protects reads the for=NAME of a block, dodge or take by c: the one
// the waiting hit h is against, whom c protects (B-7: "a forced action
// can also be used to take a defensive action on someone else's behalf,
// such as diving in front of an attack"); nil without for=.
func (s *State) protects(cmd fray.Command, c *fray.Combatant, h *Hit) (*fray.Combatant, error) {
	v, ok := cmd.Opts[optFor.Name]
	if !ok {
		return nil, nil
	}
	o, err := s.Lookup(v)
	if err != nil {
		return nil, err
	}
	switch {
	case o.ID == c.ID:
		return nil, fray.Errorf(fray.EINVALID, "for= names the one %s protects, someone else; %s %s alone meets a hit on %s.", c, cmd.Name, kit.QuoteName(c.Name), c)
	case h == nil:
		return nil, fray.Errorf(fray.EINVALID, "No attack is waiting for a defence, so %s has nothing to %s for %s.", c, cmd.Name, o)
	case h.Defender != o.ID:
		return nil, fray.Errorf(fray.EINVALID, "The attack waiting is against %s, not %s.", fray.Mention(s.NameOf(h.Defender)), o)
	case h.Attacker == c.ID:
		return nil, fray.Errorf(fray.EINVALID, "%s cannot protect %s from their own attack.", c, o)
	}
	return o, nil
}

// decideTakeFor decides "take NAME for=OTHER": NAME dives in front of
// the hit waiting for OTHER and takes it in their place, as Blueshift
// leaps between Ganyeka and Monolith, "taking the full brunt of
// Ganyeka's attack" (B-7). It is a forced action, spending NAME's next
// available turn; the hit lands on NAME with its rank and option,
// against NAME's own protection, and OTHER takes nothing.
func (s *State) decideTakeFor(tx *txn, cmd fray.Command) error {
	c, err := s.character(cmd.Arg(0), "take a hit for someone")
	if err != nil {
		return err
	}
	o, err := s.protects(cmd, c, s.Pending)
	if err != nil {
		return err
	}
	if err := s.force(tx, fray.Command{Name: "force", Args: []string{c.Name}}, nil); err != nil {
		return fray.Errorf(fray.EINVALID, "%s cannot take the hit for %s: %s", c, o, fray.Quote(err))
	}
	return s.hitEvents(tx, s.onto(*s.Pending, c))
}
