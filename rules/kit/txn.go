package kit

import (
	"slices"

	"fray"
	"fray/engine"
)

// Applier applies an event to a system's state: a fray.System.
type Applier interface {
	// Apply applies ev to st, as fray.System's Apply does.
	Apply(st fray.State, ev fray.Event) error
}

// Hook is what a system does around each event a transaction applies,
// beyond applying it: such as recording what the event made lapse. A hook
// that adds events keeps its transaction itself (it is often the type that
// embeds it), so that a transaction without a hook stays where it was made.
type Hook[S fray.State] interface {
	// Applying is called with the working state before ev is applied.
	Applying(st S, ev fray.Event)
	// Applied is called once ev is applied and recorded; it may add to
	// the transaction the events that follow from it.
	Applied(st S, ev fray.Event) error
}

// Txn is one command's transaction: the events it decides, in order, each
// applied as it is recorded to a working state so that the deciding of
// later ones sees the effect of earlier ones. A Txn is made as a literal:
//
//	t := kit.Txn[*State]{State: s.Clone().(*State), Sys: sys}
//
// A Txn without Sys is read-only: it records events without applying
// them, for a command whose events all follow from the state before it
// (the engine applies them in turn), decided on that state itself.
type Txn[S fray.State] struct {
	// State is the working state: a copy of the encounter's state, or
	// the state itself when the transaction is read-only.
	State S
	// Sys applies each event to State; nil makes the transaction
	// read-only.
	Sys Applier
	// Hook, when not nil, is called around each event applied (never in
	// a read-only transaction).
	Hook Hook[S]
	// Room, when not 0, is the number of events the first one recorded
	// makes room for, so that a command known to record several
	// allocates once (and one that records none, not at all).
	Room int
	// Unrecorded marks a transaction whose events are applied and
	// dropped, never recorded (fray.Recorded is false for the command's
	// Roller, as in a simulated fight): the rules may leave out of them
	// what only a reader of the log uses; EmitOdds keeps no odds, and
	// the events keep their payloads unencoded
	// (fray.NewUnrecordedEvent).
	Unrecorded bool
	// Lender, when not nil, lends the room the first event recorded
	// goes in (fray.Lender of the command's Roller), before Room.
	Lender fray.EventLender
	evs    []fray.Event
}

// ReadOnly reports whether t records events without applying them.
func (t *Txn[S]) ReadOnly() bool { return t.Sys == nil }

// Freeze makes t read-only from here on: the events recorded after it
// are decided on the working state as the events before it left it, and
// recorded without being applied (the engine applies them in turn). It
// serves a command whose first events settle something (such as a hit
// waiting for a defence) before the command itself is decided.
func (t *Txn[S]) Freeze() { t.Sys, t.Hook = nil, nil }

// Events returns the events t has recorded, in order.
func (t *Txn[S]) Events() []fray.Event { return t.evs }

// Emit records an event of the type typ with the payload data (nil for
// none) and the dice rolled for it, as Add does.
func (t *Txn[S]) Emit(typ string, data any, rolls ...fray.Roll) error {
	ev, err := t.newEvent(typ, data, rolls)
	if err != nil {
		return err
	}
	return t.Add(ev)
}

// newEvent makes an event as fray.NewEvent does, or as
// fray.NewUnrecordedEvent does in an unrecorded transaction.
func (t *Txn[S]) newEvent(typ string, data any, rolls []fray.Roll) (fray.Event, error) {
	if t.Unrecorded {
		return fray.NewUnrecordedEvent(typ, data, rolls...)
	}
	return fray.NewEvent(typ, data, rolls...)
}

// EmitOdds records the event of a roll, of the type typ with the payload
// data and the dice rolled for it, with the odds it had, as Add does.
// The conditions the roll spends are the caller's to record (Spend),
// once the events that follow from the roll are.
func (t *Txn[S]) EmitOdds(typ string, data any, odds fray.Odds, rolls ...fray.Roll) error {
	ev, err := t.newEvent(typ, data, rolls)
	if err != nil {
		return err
	}
	if !t.Unrecorded {
		o := odds // moved to the heap here only: an unrecorded event keeps no odds
		ev.Odds = &o
	}
	return t.Add(ev)
}

// Add applies ev to the working state, unless t is read-only, and records
// it. An event the state refuses is an internal error naming the event's
// type: the command's own deciding made it, so fray is at fault.
func (t *Txn[S]) Add(ev fray.Event) error {
	if t.evs == nil {
		t.makeRoom()
	}
	if t.Sys == nil {
		t.evs = append(t.evs, ev)
		return nil
	}
	if t.Hook != nil {
		t.Hook.Applying(t.State, ev)
	}
	if err := t.Sys.Apply(t.State, ev); err != nil {
		return &fray.Error{Code: fray.EINTERNAL, Message: "An event of the " + ev.Type + " kind could not be applied.", Err: err}
	}
	t.evs = append(t.evs, ev)
	if t.Hook != nil {
		return t.Hook.Applied(t.State, ev)
	}
	return nil
}

// makeRoom makes room for the events t is to record: the room its
// Lender lends, else Room of them.
func (t *Txn[S]) makeRoom() {
	if t.Lender != nil {
		t.evs = t.Lender.LendEvents()
		t.Lender = nil
	}
	if t.evs == nil && t.Room > 0 {
		t.evs = make([]fray.Event, 0, t.Room)
	}
}

// AddAll records the events evs, in order, each as Add does: those of a
// command decided elsewhere, such as a shared one (engine.DecideShared).
// A read-only transaction that has recorded nothing yet keeps evs as its
// events without copying them; what it records later does not write
// into evs.
func (t *Txn[S]) AddAll(evs []fray.Event) error {
	if t.Sys == nil && t.evs == nil && t.Room <= len(evs) {
		t.evs = slices.Clip(evs)
		return nil
	}
	for _, ev := range evs {
		if err := t.Add(ev); err != nil {
			return err
		}
	}
	return nil
}

// EmitRolled records the event of a roll with the odds it had (as
// EmitOdds does), then the events that use up the conditions whose
// modifiers it applied once (engine.SpendEvents), each as Add does.
func (t *Txn[S]) EmitRolled(typ string, data any, odds fray.Odds, spent []engine.ConditionRef, rolls ...fray.Roll) error {
	if err := t.EmitOdds(typ, data, odds, rolls...); err != nil {
		return err
	}
	return t.Spend(spent)
}

// Spend records the events that use up the conditions spent, in order
// (engine.SpendEvents).
func (t *Txn[S]) Spend(spent []engine.ConditionRef) error {
	for _, r := range spent {
		if err := t.Emit(fray.EventCleared, fray.ClearedData{Who: r.Who, Condition: r.Condition}); err != nil {
			return err
		}
	}
	return nil
}
