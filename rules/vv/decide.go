package vv

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// This file decides commands: the decider, which applies each event to a
// scratch state as it records it, and the dispatch of every command word.

// decider builds the events of one command in a transaction on a scratch
// copy of the state, so that later events can see the effect of earlier
// ones; as its hook, it records the end of the turn of each held action an
// event made lapse (see lapses).
type decider struct {
	kit.Txn[*State]
	// cmd is the command being decided.
	cmd fray.Command
	// oddsOnly marks a decider that only works out the odds of the
	// initiative roll the command would make: newTurn keeps them in odds
	// and stops with errOddsOnly before rolling.
	oddsOnly bool
	odds     *fray.Odds
	// held and used are the held actions before the event being applied,
	// and the one it spends.
	held []heldAction
	used heldAction
}

// newDecider returns a decider applying each event to s, a scratch copy.
func newDecider(sys *System, s *State) *decider {
	d := &decider{Txn: kit.Txn[*State]{State: s, Sys: sys}}
	d.Hook = d
	return d
}

// Applying notes the held actions before ev, and the one it spends.
func (d *decider) Applying(s *State, ev fray.Event) {
	d.held, d.used = s.heldActions(), heldAction{}
	if ev.Type == EventDone && len(s.Intr) > 0 {
		// The interrupter finishing spends the held action they use.
		if ch := s.char(s.Intr[0]); ch != nil && ch.Act.Hold != nil {
			d.used = heldAction{ch.ID, ch.Act.Hold.Turn, ch.Act.Hold.Phase}
		}
	}
}

// Applied records the end of the turn of each held action ev made lapse.
func (d *decider) Applied(s *State, ev fray.Event) error {
	if d.held == nil {
		return nil
	}
	return d.lapses(d.held, d.used)
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
	s := d.State
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
		if err := d.Emit(EventHoldLapsed, fray.NameData{Who: h.id}); err != nil {
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
		d := newDecider(sys, s0.working(nil))
		for _, ev := range evs {
			if err := d.Add(ev); err != nil {
				return nil, err
			}
		}
		return d.Events(), nil
	}
	switch cmd.Name {
	case "attack", "damage", "heal", "protect", "spend", "check":
		// Their events are worked out from the state as it is, so they
		// need no copy of it.
		d := &decider{Txn: kit.Txn[*State]{State: s0, Unrecorded: !fray.Recorded(r), Lender: fray.Lender(r)}}
		if err := d.decide(cmd, r); err != nil {
			return nil, err
		}
		return d.Events(), nil
	}
	var work *State
	if !fray.Recorded(r) {
		// A simulated command: decided on a copy made in the memory of
		// one an earlier command was decided on. Nothing of the copy
		// outlives Decide: the events keep copies of their payloads,
		// and an unrecorded transaction keeps no odds.
		old, _ := scratches.Get().(*State)
		work = s0.working(old)
		defer scratches.Put(work)
	} else {
		work = s0.working(nil)
	}
	d := newDecider(sys, work)
	d.Unrecorded, d.Lender = !fray.Recorded(r), fray.Lender(r)
	if err := d.decide(cmd, r); err != nil {
		return nil, err
	}
	return d.Events(), nil
}

// scratches holds the copies simulated commands were decided on, each
// for a later one to be made in (kit.ScratchInto): a simulated fight decides
// a hundred commands or more, each on a copy of the whole state.
var scratches sync.Pool

func (d *decider) decide(cmd fray.Command, r fray.Roller) error {
	s := d.State
	d.cmd = cmd
	switch cmd.Name {
	case "start":
		if err := kit.CheckStart(&s.Encounter); err != nil {
			return err
		}
		if err := d.Emit(fray.EventStarted, nil); err != nil {
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
	s := d.State
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
// (fray.CommandDecl.Check): 0 if it is not, or is empty (an option not
// given, read without the error strconv would make for it).
func number(w string) int {
	if w == "" {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(w, "+"))
	return n
}

// inches formats a distance.
func inches(n int) string { return fmt.Sprintf("%d\"", n) }
