package cinematic

import (
	"strings"
	"sync"

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
	if err := s0.awaiting(cmd); err != nil {
		return nil, err
	}
	if cmd.Name == engine.CmdCondition && strings.EqualFold(strings.TrimSpace(cmd.Arg(1)), CondOutnumbered) {
		// The automatic Outnumbered would replace a GM's own condition of
		// that name at the next attack: refuse the name instead (C-6).
		c, err := s0.Lookup(cmd.Arg(0))
		if err != nil {
			return nil, err
		}
		return nil, fray.Errorf(fray.EINVALID, "Outnumbered is worked out from who attacks %s this round (C-6); declare the attackers with engage %s NAME …, or give your condition another name.", c, kit.QuoteName(c.Name))
	}
	if evs, handled, err := engine.DecideShared(&s0.Encounter, cmd, spec); handled {
		return evs, err
	}
	if evs, handled, err := s0.decideResolution(cmd, r); handled {
		return evs, err
	}
	tx := kit.Txn[*State]{Sys: sys, Unrecorded: !fray.Recorded(r), Lender: fray.Lender(r)}
	if tx.Unrecorded {
		// A simulated command: decided on a copy made in the memory of
		// one an earlier command was decided on. Nothing of the copy
		// outlives Decide: the events keep copies of their payloads,
		// and an unrecorded transaction keeps no odds.
		old, _ := scratches.Get().(*State)
		tx.State = kit.ScratchInto(s0, old)
		defer scratches.Put(tx.State)
	} else {
		tx.State = kit.Scratch(s0)
	}
	s := tx.State
	newRound := func() error {
		return tx.Emit(EventRound, RoundData{Round: s.Round + 1, Order: s.rank()})
	}
	switch cmd.Name {
	case "start":
		err = kit.DecideStart(&tx, &s.Encounter, EventRound, s.rank)
	case "order":
		err = kit.DecideOrder(&tx, &s.Encounter, EventTiebreak, cmd.Args)
	case "full":
		err = decideStance(s, cmd, &tx)
	case "attack", "act":
		// act, the shared word for spending the turn's budget, attacks.
		err = decideAttack(s, cmd, &tx)
	case "defend":
		err = decideDefence(s, cmd, &tx)
	case "next":
		if !s.Started {
			return nil, fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
		}
		cur := s.Current()
		if cur == "" {
			err = newRound()
			break
		}
		if err := s.CheckCurrent(&s.Encounter, cmd.Arg(0)); err != nil {
			return nil, err
		}
		if err = tx.Emit(EventTurnDone, fray.NameData{Who: cur}); err == nil && s.Current() == "" {
			err = newRound()
		}
	default:
		return nil, fray.Errorf(fray.EINTERNAL, "Cinematic Unisystem declares the command %q but does not decide it.", engine.Clip(cmd.Name))
	}
	if err != nil {
		return nil, err
	}
	return tx.Events(), nil
}

// scratches holds the copies simulated commands were decided on, each
// for a later one to be made in (kit.ScratchInto): a simulated fight decides
// a hundred commands or more, each on a copy of the whole state.
var scratches sync.Pool

func decideStance(s *State, cmd fray.Command, tx *kit.Txn[*State]) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	stance := StanceNone
	switch strings.ToLower(cmd.Arg(1)) {
	case "defence", "defense", "fd":
		stance = StanceDefence
	case "offence", "offense", "fo":
		stance = StanceOffence
	}
	if s.Started && (s.Pos > 0 || s.Begun) {
		return fray.Errorf(fray.EINVALID, "Full Defence and Full Offence are declared at the top of the round (C-7); round %d is under way.", s.Round)
	}
	return tx.Emit(EventStance, StanceData{Who: c.ID, Stance: stance})
}

func decideAttack(s *State, cmd fray.Command, tx *kit.Txn[*State]) error {
	if len(cmd.Args) == 2 {
		return fray.Errorf(fray.EINVALID, "Name the weapon to roll the attack: attack ATTACKER TARGET with=WEAPON (a punch or kick needs none on the sheet).")
	}
	if len(cmd.Opts) > 0 {
		// attack's options are those of the roll, which with= makes.
		return fray.Errorf(fray.EINVALID, "%s without with= spends an attack and rolls nothing, so it takes no key=value options; name the weapon to roll: attack ATTACKER TARGET with=WEAPON.", cmd.Name)
	}
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	cur := s.ByID(s.Current())
	if cur == nil {
		return fray.Errorf(fray.EINVALID, "Nobody's turn is in progress; use next to begin round %d.", s.Round+1)
	}
	var target fray.CombatantID
	if t := cmd.Arg(0); t != "" {
		c, err := s.Lookup(t)
		if err != nil {
			return err
		}
		if c.ID == cur.ID {
			return fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", cur)
		}
		target = c.ID
	}
	d, err := s.attackAction(cur, target)
	if err != nil {
		return err
	}
	return tx.Emit(EventAttack, d)
}

func decideDefence(s *State, cmd fray.Command, tx *kit.Txn[*State]) error {
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	if s.Current() == "" {
		return fray.Errorf(fray.EINVALID, "Round %d is over; use next to begin round %d.", s.Round, s.Round+1)
	}
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	var against fray.CombatantID
	if a, ok := cmd.Opt("against"); ok {
		o, err := s.Lookup(a)
		if err != nil {
			return err
		}
		if o.ID == c.ID {
			return fray.Errorf(fray.EINVALID, "%s cannot defend against themselves.", c)
		}
		against = o.ID
	}
	d, err := s.defenceAction(c, against)
	if err != nil {
		return err
	}
	return tx.Emit(EventDefence, d)
}

// attackAction returns the action c's next attack spends: the free
// attack, else an extra action at its penalty, with Full Offence's bonus
// (C-2, C-7); it refuses an attack under Full Defence or with no action
// left. target is the target's id, if named.
func (s *State) attackAction(c *fray.Combatant, target fray.CombatantID) (ActionData, error) {
	d := ActionData{Who: c.ID, Other: target}
	ch, b := s.char(c.ID), s.budget(c)
	switch {
	case ch == nil:
		return d, fray.Errorf(fray.ENOTFOUND, "There is no combatant named %q.", c)
	case ch.Stance == StanceDefence:
		return d, fray.Errorf(fray.EINVALID, "%s is on Full Defence this round and cannot attack (C-7).", c)
	case ch.Stood:
		return d, fray.Errorf(fray.EINVALID, "%s spent this round standing up (C-6) and has no action left.", c)
	case b.Attack:
		d.Kind = ActionFree
	case b.Extras > 0:
		d.Kind, d.Modifier = ActionExtra, b.Next
	default:
		return d, fray.Errorf(fray.EINVALID, "%s has used the free attack and every extra action this round (C-2).", c)
	}
	if ch.Stance == StanceOffence {
		d.Modifier += FullOffenceBonus
	}
	return d, nil
}

// defenceAction returns the action c's next defence spends: the free
// defence, Full Defence's extra one, else an extra action at its penalty,
// with Full Defence's bonus (C-2, C-7); it refuses a defence under Full
// Offence or with no action left. against is the attacker's id, if
// named.
func (s *State) defenceAction(c *fray.Combatant, against fray.CombatantID) (ActionData, error) {
	d := ActionData{Who: c.ID, Other: against}
	ch, b := s.char(c.ID), s.budget(c)
	switch {
	case ch == nil:
		return d, fray.Errorf(fray.ENOTFOUND, "There is no combatant named %q.", c)
	case ch.Stance == StanceOffence:
		return d, fray.Errorf(fray.EINVALID, "%s is on Full Offence this round and cannot defend (C-7); the attack hits on 9+ (C-4).", c)
	case ch.Stood:
		return d, fray.Errorf(fray.EINVALID, "%s spent this round standing up (C-6) and has no defence left; the attack hits on 9+ (C-4).", c)
	case b.Defence:
		d.Kind = ActionFree
	case b.Bonus:
		d.Kind = ActionBonus
	case b.Extras > 0:
		d.Kind, d.Modifier = ActionExtra, b.Next
	default:
		return d, fray.Errorf(fray.EINVALID, "%s has no defence left this round (C-2); the attack hits on 9+ (C-4).", c)
	}
	if ch.Stance == StanceDefence {
		d.Modifier += FullDefenceBonus
	}
	return d, nil
}
