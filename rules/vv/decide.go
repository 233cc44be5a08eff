package vv

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

// This file decides commands: the decider, which applies each event to a
// scratch state as it records it, and the dispatch of every command word.

// decider builds the events of one command on a scratch copy of the state,
// so that later events can see the effect of earlier ones.
type decider struct {
	sys *System
	s   *State
	evs []fray.Event
	// readOnly marks a decider working on the state itself, which emit
	// must not change: every event is worked out before any is applied.
	readOnly bool
	// cmd is the command being decided.
	cmd fray.Command
	// oddsOnly marks a decider that only works out the odds of the
	// initiative roll the command would make: newTurn keeps them in odds
	// and stops with errOddsOnly before rolling.
	oddsOnly bool
	odds     *fray.Odds
}

func (d *decider) emit(typ string, data any, rolls ...fray.Roll) error {
	ev, err := fray.NewEvent(typ, data, rolls...)
	if err != nil {
		return err
	}
	return d.add(ev)
}

// addRolled adds a roll's event with the odds it had, then the events
// that use up the conditions whose modifiers it applied once.
func (d *decider) addRolled(ev fray.Event, odds fray.Odds, spent []engine.ConditionRef) error {
	ev.Odds = &odds
	if err := d.add(ev); err != nil {
		return err
	}
	evs, err := engine.SpendEvents(spent)
	if err != nil {
		return err
	}
	for _, x := range evs {
		if err := d.add(x); err != nil {
			return err
		}
	}
	return nil
}

// add applies ev to the scratch state (unless read-only) and keeps it,
// then records the end of the turn of each held action it made lapse
// (see lapses).
func (d *decider) add(ev fray.Event) error {
	typ := ev.Type
	if d.readOnly {
		d.evs = append(d.evs, ev)
		return nil
	}
	s := d.s
	held := s.heldActions()
	var used heldAction
	if ev.Type == EventDone && len(s.Intr) > 0 {
		// The interrupter finishing spends the held action they use.
		if ch := s.char(s.Intr[0]); ch != nil && ch.Act.Hold != nil {
			used = heldAction{ch.ID, ch.Act.Hold.Turn, ch.Act.Hold.Phase}
		}
	}
	if err := d.sys.Apply(s, ev); err != nil {
		return &fray.Error{Code: fray.EINTERNAL, Message: "An event of the " + typ + " kind could not be applied.", Err: err}
	}
	d.evs = append(d.evs, ev)
	if held == nil {
		return nil
	}
	return d.lapses(held, used)
}

// heldAction is a held action (V-3) of the character id, saved on the
// given turn and phase: one of their Held, or the one they are using.
type heldAction struct {
	id          fray.CombatantID
	turn, phase int
}

// heldActions lists every held action, nil when there is none.
func (s *State) heldActions() []heldAction {
	var out []heldAction
	for _, ch := range s.Chars {
		for _, h := range ch.Held {
			out = append(out, heldAction{ch.ID, h.Turn, h.Phase})
		}
		if h := ch.Act.Hold; h != nil {
			out = append(out, heldAction{ch.ID, h.Turn, h.Phase})
		}
	}
	return out
}

// lapses records the end of a held action's turn when the event just
// applied made it lapse unused: the holder's next action came (house
// rule), the turn ended (as written), or a change of held= dropped it.
// The turn a held action keeps open ends, for conditions, when the action
// is used (finish reports that) or lapses (V-3, E-4). The lapse itself
// follows from the order of play; its end is recorded (EventHoldLapsed)
// only when it ends a condition, so that logs written before held actions
// kept turns open, which have none, replay as they were. before lists the
// held actions before the event, used the one it spent.
func (d *decider) lapses(before []heldAction, used heldAction) error {
	s := d.s
	after := s.heldActions()
	var ended []fray.CombatantID
	for _, h := range before {
		if h == used || slices.Contains(after, h) || slices.Contains(ended, h.id) || s.char(h.id) == nil {
			continue
		}
		ended = append(ended, h.id)
		if !engine.EdgeEnds(&s.Encounter, s.Round, h.id, fray.EdgeEnd) {
			continue
		}
		if err := d.emit(EventHoldLapsed, fray.NameData{Who: h.id}); err != nil {
			return err
		}
	}
	return nil
}

// Decide returns the events cmd produces in st.
func (sys *System) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s0, err := get(st)
	if err != nil {
		return nil, err
	}
	if cmd.Name == engine.CmdAdd {
		if evs, handled, err := s0.decideAdd(cmd); handled {
			return evs, err
		}
	}
	if evs, handled, err := engine.DecideShared(&s0.Encounter, cmd, spec); handled {
		if err != nil || (cmd.Name != engine.CmdRemove && cmd.Name != engine.CmdSet) || s0.heldActions() == nil {
			return evs, err
		}
		// A removal (the count moving on) or a change of held= may make a
		// held action lapse, which ends its turn (see lapses).
		d := &decider{sys: sys, s: s0.scratch()}
		for _, ev := range evs {
			if err := d.add(ev); err != nil {
				return nil, err
			}
		}
		return d.evs, nil
	}
	switch cmd.Name {
	case "attack", "damage", "heal", "protect", "spend", "check":
		// Their events are worked out from the state as it is, so they
		// need no copy of it.
		d := &decider{sys: sys, s: s0, readOnly: true}
		if err := d.decide(cmd, r); err != nil {
			return nil, err
		}
		return d.evs, nil
	}
	d := &decider{sys: sys, s: s0.scratch()}
	if err := d.decide(cmd, r); err != nil {
		return nil, err
	}
	return d.evs, nil
}

func (d *decider) decide(cmd fray.Command, r fray.Roller) error {
	s := d.s
	d.cmd = cmd
	switch cmd.Name {
	case "start":
		if s.Started {
			return fray.Errorf(fray.EINVALID, "The encounter has already started.")
		}
		if len(s.Combatants) == 0 {
			return fray.Errorf(fray.EINVALID, "There is nobody to fight yet; add combatants first.")
		}
		if err := d.emit(fray.EventStarted, nil); err != nil {
			return err
		}
		return d.newTurn(r)
	case "surprise":
		return d.surprise(cmd)
	case "initiative":
		return d.initiative(cmd, r)
	case "order":
		return d.tiebreak(cmd)
	case "upkeep":
		return d.upkeep(cmd)
	case "act":
		return d.act(cmd)
	case "move":
		return d.move(cmd)
	case "hold", "next", "decline":
		return d.done(cmd, r)
	case "interrupt":
		return d.interrupt(cmd)
	case "facing", "prone":
		return d.facing(cmd)
	case "stand":
		return d.stand(cmd)
	case "attack":
		return d.attack(cmd, r)
	case "damage":
		return d.damage(cmd)
	case "heal":
		return d.heal(cmd)
	case "protect":
		return d.protect(cmd)
	case "spend":
		return d.spend(cmd)
	case "check":
		return d.check(cmd, r)
	}
	return fray.Errorf(fray.EINTERNAL, "V&V declares the command %q but does not decide it.", cmd.Name)
}

// current returns the acting character, checking that name, when not
// "", names them.
func (d *decider) current(name string) (*fray.Combatant, *Char, error) {
	s := d.s
	if !s.Started {
		return nil, nil, fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	cur, ch := s.combatant(s.current())
	if cur == nil {
		return nil, nil, fray.Errorf(fray.EINVALID, "Nobody is acting: turn %d's phases are over; use next to begin the next turn.", s.Round)
	}
	if name != "" {
		c, err := s.Lookup(name)
		if err != nil {
			return nil, nil, err
		}
		if c.ID != cur.ID {
			return nil, nil, fray.Errorf(fray.EINVALID, "It is %s's action on phase %d, not %s's.", fray.Mention(cur.Name), s.Phase(), c)
		}
	}
	return cur, ch, nil
}

// lookupAll returns the combatants cmd's positional words name, refusing
// unknown and repeated names (as engine.Names does).
func (s *State) lookupAll(args []string) ([]*fray.Combatant, error) {
	out := make([]*fray.Combatant, 0, len(args))
	for _, a := range args {
		c, err := s.Lookup(a)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(x *fray.Combatant) bool { return x.ID == c.ID }) {
			return nil, fray.Errorf(fray.EINVALID, "%s is named twice.", c)
		}
		out = append(out, c)
	}
	return out, nil
}

// ids returns the ids of cs.
func ids(cs []*fray.Combatant) []fray.CombatantID {
	out := make([]fray.CombatantID, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// number reads a word the declaration has checked to be a whole number
// (fray.CommandDecl.Check): 0 if it is not.
func number(w string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(w, "+"))
	return n
}

// inches formats a distance.
func inches(n int) string { return fmt.Sprintf("%d\"", n) }
