package vv

import (
	"slices"

	"fray"
	"fray/engine"
)

// This file decides the acting character's commands within a phase: act,
// move, hold, next, decline, interrupt, facing, prone and stand.

func (d *decider) act(cmd fray.Command) error {
	c, ch, err := d.current(cmd.Arg(0))
	if err != nil {
		return err
	}
	s := d.State
	if ch.Act.Acted {
		return fray.Errorf(fray.EINVALID, "%s has already acted on phase %d; one action per phase (V-3).", c, s.Phase())
	}
	if ch.ActedPhase == s.Phase() && ch.ActedPhase != 0 {
		return fray.Errorf(fray.EINVALID, "%s has already acted on phase %d; never more than one action by one character in a phase (V-3). Hold this action or decline it.", c, s.Phase())
	}
	cost := s.actionCost(ch)
	if cost > 0 && tracksPower(c) && s.power(c) < cost {
		return fray.Errorf(fray.EINVALID, "%s has %d Power; an action after the first in a turn costs %d (V-1). Decline it with next.", c, s.power(c), cost)
	}
	return d.Emit(EventActed, ActData{Who: c.ID, Phase: s.Phase(), Cost: cost})
}

// actionCost is what the acting character's action costs now (V-1): 2
// Power unless it is the first action performed in its turn.
func (s *State) actionCost(ch *Char) int {
	done := ch.Performed
	if h := ch.Act.Hold; h != nil && h.Turn != s.Round {
		done = h.Performed
	}
	if done > 0 {
		return ExtraActionCost
	}
	return 0
}

// MaxInches is the longest single move accepted, in inches.
const MaxInches = 1000000

func (d *decider) move(cmd fray.Command) error {
	n := number(cmd.Arg(0))
	c, ch, err := d.current("")
	if err != nil {
		return err
	}
	s := d.State
	if ch.Act.Acted && ch.Act.Moved {
		return fray.Errorf(fray.EINVALID, "%s moved and then acted on phase %d; moving again would be move–act–move, which is not allowed (V-6).", c, s.Phase())
	}
	if left := s.moveLeft(c.ID); n > left {
		if s.Setting(SetMovement, House) == RAW {
			return fray.Errorf(fray.EINVALID, "%s can move %d\" more this turn (Move Rate %d\", %d\" used); %d\" is too far (V-6).", c, left, moveRate(c), ch.Moved, n)
		}
		if h := ch.Act.Hold; h != nil && h.Turn != s.Round {
			return fray.Errorf(fray.EINVALID, "%s can move up to %d\" with the action held from turn %d, phase %d (what was left of that phase's move); %d\" is too far (V-3, V-6).", c, left, h.Turn, h.Phase, n)
		}
		return fray.Errorf(fray.EINVALID, "%s can move up to %d\" on this action (%d\" per action and at most %d\" carried from the previous one); %d\" is too far (V-6).", c, left, ch.Allot, ch.Allot, n)
	}
	return d.Emit(EventMoved, MoveData{Who: c.ID, Inches: n})
}

func (d *decider) done(cmd fray.Command, r fray.Roller) error {
	s := d.State
	if cmd.Name == "next" && s.Started && s.current() == "" {
		if len(cmd.Args) > 0 {
			return fray.Errorf(fray.EINVALID, "Nobody is acting: turn %d's phases are over; next naming nobody begins the next turn.", s.Round)
		}
		return d.endTurn(r)
	}
	c, ch, err := d.current(cmd.Arg(0))
	if err != nil {
		return err
	}
	switch cmd.Name {
	case "hold":
		if ch.Act.Acted {
			return fray.Errorf(fray.EINVALID, "%s has already taken the action of phase %d; there is nothing to hold. Use next.", c, s.Phase())
		}
		// The turn stays open until the held action is used or lapses
		// (V-3, E-4); the log says so where it matters (HeldData.Open).
		open := engine.EdgeEnds(&s.Encounter, s.Round, c.ID, fray.EdgeEnd)
		if err := d.Emit(EventHeld, HeldData{Who: c.ID, Open: open}); err != nil {
			return err
		}
	case "decline":
		if ch.Act.Acted {
			return fray.Errorf(fray.EINVALID, "%s has already taken the action of phase %d; there is nothing to decline. Use next.", c, s.Phase())
		}
	}
	if err := d.Emit(EventDone, fray.NameData{Who: c.ID}); err != nil {
		return err
	}
	if d.State.current() == "" {
		return d.endTurn(r)
	}
	return nil
}

func (d *decider) interrupt(cmd fray.Command) error {
	s := d.State
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	cur := s.ByID(s.current())
	if cur == nil {
		return fray.Errorf(fray.EINVALID, "Nobody is acting: turn %d's phases are over. Begin the next turn with next and interrupt then.", s.Round)
	}
	if b, ok := cmd.Opt(engine.KeyBefore); ok {
		c, err := s.Lookup(b)
		if err != nil {
			return err
		}
		if c.ID != cur.ID {
			return fray.Errorf(fray.EINVALID, "%s is acting now, not %s; a held action interrupts the one acting.", fray.Mention(cur.Name), c)
		}
	}
	cs, err := s.lookupAll(cmd.Args)
	if err != nil {
		return err
	}
	phase := s.Phase()
	at := 0
	if v, ok := cmd.Opt(KeyPhase); ok {
		// A phase where nobody acts (V-3: "at any later point in the
		// turn"), between the last counted and the one acting now.
		at = number(v)
		switch {
		case at == phase:
			at = 0 // the phase of the one acting: a plain interrupt
		case len(s.Intr) > 0:
			return fray.Errorf(fray.EINVALID, "%s is using a held action on phase %d now; phase= names a phase where nobody acts, before the one acting on theirs.", fray.Mention(cur.Name), phase)
		case s.Cur < 1:
			return fray.Errorf(fray.EINVALID, "Phase %d is not counted in turn %d, which begins on phase %d.", at, s.Round, phase)
		case at > phase && at >= s.Sched[s.Cur-1].Phase:
			return fray.Errorf(fray.EINVALID, "Phase %d has passed: the count is past phase %d, at %s's phase %d.", at, s.Sched[s.Cur-1].Phase, fray.Mention(cur.Name), phase)
		case at < phase:
			return fray.Errorf(fray.EINVALID, "Phase %d comes after %s's phase %d; use the held action then (interrupt when it comes).", at, fray.Mention(cur.Name), phase)
		case !s.between(at):
			return fray.Errorf(fray.EINVALID, "%s has begun phase %d; phase %d, before it, has passed.", fray.Mention(cur.Name), phase, at)
		}
		if at != 0 {
			phase = at
		}
	}
	for _, c := range cs {
		id := c.ID
		ch := s.char(id)
		switch {
		case len(ch.Held) == 0:
			return fray.Errorf(fray.EINVALID, "%s holds no action to interrupt with.", c)
		case id == cur.ID || slices.Contains(s.Intr, id) || (s.Cur < len(s.Sched) && id == s.Sched[s.Cur].ID):
			return fray.Errorf(fray.EINVALID, "%s is already acting on phase %d.", c, phase)
		case ch.ActedPhase == phase:
			return fray.Errorf(fray.EINVALID, "%s has already acted on phase %d; never more than one action by one character in a phase (V-3).", c, phase)
		}
	}
	// Two interrupts at once: higher Agility first (then Move Rate, then
	// the order given).
	slices.SortStableFunc(cs, func(ca, cb *fray.Combatant) int {
		if x := cb.Stat("agility") - ca.Stat("agility"); x != 0 {
			return x
		}
		return moveRate(cb) - moveRate(ca)
	})
	return d.Emit(EventInterrupted, InterruptData{Who: ids(cs), Before: cur.ID, Phase: at})
}

func (d *decider) facing(cmd fray.Command) error {
	s := d.State
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	ch := s.char(c.ID)
	dir := cmd.Arg(1)
	if len(dir) > 40 {
		return fray.Errorf(fray.ETOOLARGE, "The direction is longer than 40 bytes.")
	}
	if cmd.Name == "prone" && ch.Prone {
		return fray.Errorf(fray.EINVALID, "%s is already prone.", c)
	}
	what := "change facing"
	if cmd.Name == "prone" {
		what = "drop prone"
	}
	data := FacingData{Who: c.ID, Dir: dir, About: s.mentionIDs(dir, c.Name)}
	if s.Started && s.current() != c.ID {
		phase := s.Phase()
		switch {
		case phase == 0:
			return fray.Errorf(fray.EINVALID, "Turn %d's phases are over; begin the next turn with next first.", s.Round)
		case ch.FacingPhase == phase:
			return fray.Errorf(fray.EINVALID, "%s has already changed facing or dropped prone off-phase on phase %d; once per phase (V-7).", c, phase)
		case tracksPower(c) && s.power(c) < ExtraActionCost:
			return fray.Errorf(fray.EINVALID, "%s has %d Power; to %s off-phase costs %d (V-7).", c, s.power(c), what, ExtraActionCost)
		}
		data.Cost, data.Phase = ExtraActionCost, phase
	}
	typ := EventFacing
	if cmd.Name == "prone" {
		typ = EventProne
	}
	return d.Emit(typ, data.payload())
}

func (d *decider) stand(cmd fray.Command) error {
	s := d.State
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	if !s.char(c.ID).Prone {
		return fray.Errorf(fray.EINVALID, "%s is not prone.", c)
	}
	if s.Started && s.current() != c.ID {
		return fray.Errorf(fray.EINVALID, "%s can get up only on their own action phase (V-7).", c)
	}
	return d.Emit(EventStood, fray.NameData{Who: c.ID})
}
