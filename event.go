package fray

import "encoding/json"

// Event types every system shares. They are wire strings: never rename one.
// Systems define their own types next to their code, prefixed with their id
// ("bpb.delayed"); the engine's bookkeeping types are EventUndo and EventRedo.
const (
	EventAdded     = "added"     // a combatant joins the encounter; data: AddedData
	EventRemoved   = "removed"   // a combatant leaves the encounter; data: NameData
	EventSet       = "set"       // an encounter setting changes; data: SetData
	EventStarted   = "started"   // the encounter begins; data is the system's own
	EventUndo      = "undo"      // a step is taken back; data: StepData
	EventRedo      = "redo"      // an undone step is restored; data: StepData
	EventNoted     = "noted"     // a note is recorded against a combatant; data: NoteData
	EventRevealed  = "revealed"  // a hidden combatant is shown to players; data: NameData
	EventCondition = "condition" // a combatant is put in a condition; data: ConditionData
	EventCleared   = "cleared"   // a combatant's condition ends before its time; data: ClearedData
	EventRenamed   = "renamed"   // a combatant's name changes; data: RenamedData
)

// FormatIDs is the format of events whose payloads identify combatants by
// id (Event.Format). It is a wire number: never change it.
const FormatIDs = 3

// AboutUndeclared stands in Event.About for the combatants of an event
// from a log older than declarations (format version 1): nobody can say
// whom it concerns, so only the GM sees it. It is no combatant's id.
const AboutUndeclared CombatantID = "?"

// Event is one fact in an encounter's log. Commands become events; applying
// the events of a log in order rebuilds the encounter's state exactly,
// because every die result is recorded in Rolls and nothing is rolled again.
type Event struct {
	// Seq numbers the events of a log from 1, with no gaps.
	Seq int `json:"seq"`
	// Step numbers the state-changing commands of a log from 1; all the
	// events one command produced share its step, which undo and redo act
	// on. EventUndo and EventRedo events have step 0 and name the step
	// they act on in their data.
	Step int `json:"step"`
	// Type names what happened: one of the Event* constants or a
	// system's own type.
	Type string `json:"type"`
	// Command is the canonical text of the command that produced the
	// event; it is set on the first event of a step only.
	Command string `json:"command,omitempty"`
	// Data is the event's payload; its shape depends on Type.
	Data json.RawMessage `json:"data,omitempty"`
	// Rolls holds every die result the event depends on.
	Rolls []Roll `json:"rolls,omitempty"`
	// Odds holds the odds the event's roll had before it was rolled (SPEC
	// E-6), for events that resolve a roll; informative only, Apply never
	// reads it.
	Odds *Odds `json:"odds,omitempty"`
	// About lists the combatants the event concerns, by id: those its
	// payload declares (see TagWho) and those its rolls are for. The
	// engine records it when the event is made; what a player may see of
	// the event follows from it.
	About []CombatantID `json:"about,omitempty"`
	// Hidden marks an event that concerned a combatant hidden from
	// players when it happened (one of About, as the state stood once the
	// event applied). It stays the GM's even after that combatant is
	// revealed: a reveal shows who is there now, not what they did unseen,
	// nor the name they had then. The engine records it.
	Hidden bool `json:"hidden,omitempty"`
	// last marks an event read for the last time (LastUse): Decode hands
	// over the payload it holds instead of a copy. It stands by Hidden,
	// in the room a bool leaves before the next field: a log holds many
	// events.
	last bool
	// Format is the format of the event's payload: FormatIDs for events
	// whose payloads identify combatants by id, 0 for older events, whose
	// payloads name them (the engine rewrites those as it reads them: see
	// engine.Upgrade).
	Format int `json:"format,omitempty"`

	// payload is the value Data decodes to, kept when the event was made
	// (NewEvent) or read back (Preload); Decode copies it instead of
	// decoding Data, which keeps replays fast. It is never encoded.
	payload any
	// decl holds the references the payload declares (see Refs), for the
	// engine to record in About; nil when it declares none. One pointer
	// keeps the event small: a log holds many.
	decl *declared
}

// LastUse returns ev marked as read for the last time, by one Apply
// after which nothing reads it again, as the simulator applies the
// events of a move to its own state and drops them: Decode then gives
// that Apply the payload the event holds itself, which Apply may keep,
// instead of a copy made to leave the event as it was.
func LastUse(ev Event) Event {
	ev.last = true
	return ev
}

// declared is what a payload declares.
type declared struct {
	names []string
	ids   []CombatantID
	buf   [4]string      // names' first four, in the same allocation
	idBuf [4]CombatantID // and ids' first four
}

// Declared returns the combatant names and ids that the payload of an
// event made by NewEvent in this process declares (see Refs).
func (e Event) Declared() (names []string, ids []CombatantID) {
	if e.decl == nil {
		return nil, nil
	}
	return e.decl.names, e.decl.ids
}

// NewEvent returns an event of the given type whose payload is data
// encoded as JSON. A nil data gives an event with no payload.
func NewEvent(typ string, data any, rolls ...Roll) (Event, error) {
	ev := Event{Type: typ, Rolls: rolls}
	if data == nil {
		return ev, nil
	}
	b, err := json.Marshal(data)
	if err != nil {
		return Event{}, &Error{Code: EINTERNAL, Message: "An event could not be encoded.", Err: err}
	}
	ev.Data = b
	// One allocation holds the declaration and, for most payloads, the
	// names it lists.
	d := &declared{}
	r := collectRefs(data, refs{names: d.buf[:0], ids: d.idBuf[:0]})
	if len(r.names) > 0 || len(r.ids) > 0 {
		if len(r.names) == 0 {
			r.names = nil
		}
		if len(r.ids) == 0 {
			r.ids = nil
		}
		d.names, d.ids = r.names, r.ids
		ev.decl = d
	}
	ev.payload = keep(data)
	return ev, nil
}

// NewUnrecordedEvent returns an event as NewEvent does, for a decision
// whose events are applied and dropped, never recorded (see
// UnrecordedRoller): it keeps data as its payload, for Decode, and leaves
// Data empty until something asks for its JSON (Event.JSON), and it
// declares no references, since nobody reads whom it concerns. A payload
// that cannot be kept (see Preload) is encoded as NewEvent encodes it.
func NewUnrecordedEvent(typ string, data any, rolls ...Roll) (Event, error) {
	if data == nil {
		return Event{Type: typ, Rolls: rolls}, nil
	}
	p := keep(data)
	if p == nil {
		return NewEvent(typ, data, rolls...)
	}
	return Event{Type: typ, Rolls: rolls, payload: p}, nil
}

// JSON returns the event's payload as JSON: Data, or for an event that
// NewUnrecordedEvent made, its payload encoded now (nil when it has none).
func (e Event) JSON() (json.RawMessage, error) {
	if len(e.Data) > 0 || e.payload == nil {
		return e.Data, nil
	}
	b, err := json.Marshal(e.payload)
	if err != nil {
		return nil, &Error{Code: EINTERNAL, Message: "An event could not be encoded.", Err: err}
	}
	return b, nil
}

// Sources of a roll. They are wire strings: never rename one.
const (
	RollSeeded = "seeded" // rolled by the engine's seeded random source
	RollFaces  = "faces"  // physical dice: the faces were entered (dice=6,3)
	RollTotal  = "total"  // physical dice: only their total was entered (roll=14)
)

// Roll is one roll of dice as recorded in an event.
type Roll struct {
	// For names whom or what the roll is for, such as a combatant, in
	// words.
	For string `json:"for,omitempty"`
	// Who is the id of the combatant the roll is for, when it is for one
	// (the engine fills it).
	Who CombatantID `json:"who,omitempty"`
	// Expr is the dice expression rolled, such as "2d6".
	Expr string `json:"expr"`
	// Dice holds the physical face of every die, in the order rolled
	// (rerolled and dropped dice included, each roll of a compounding die
	// in turn), so that the dice package can play the roll back; it is
	// empty when only a total was entered.
	Dice []int `json:"dice,omitempty"`
	// Total is the value of the expression.
	Total int `json:"total"`
	// Source is RollSeeded, RollFaces or RollTotal.
	Source string `json:"source"`
}

// Roller rolls dice for a system while it decides a command. The engine
// gives each command its own Roller: it uses the physical dice the command
// names (dice=6,3 or roll=14) for the command's single roll, and the
// engine's seeded random source otherwise.
type Roller interface {
	// Roll rolls the dice expression expr for the named purpose and
	// returns the result to be recorded in an event.
	Roll(forWhom, expr string) (Roll, error)
}

// UnrecordedRoller is implemented by a Roller whose command's events are
// applied to a working state and dropped: never recorded, stored or
// shown, as in package sim's fights. The rules may leave out of such
// events what only a reader of the log uses, such as the odds a roll had
// (Event.Odds), which Apply never reads; they decide the same events
// otherwise, rolling the same dice.
type UnrecordedRoller interface {
	Roller
	// Unrecorded reports that the events are not recorded.
	Unrecorded() bool
}

// EventLender is implemented by an UnrecordedRoller that lends the rules
// the room to record a command's events in, so that a simulated fight,
// which decides a command a move, allocates none for them. The room is
// lent to the first that asks while a command is decided: the events the
// rules record there and return from Decide are used up before the next
// command is decided with the same Roller, when the lender lends the room
// again. The rules keep no part of it past Decide.
type EventLender interface {
	UnrecordedRoller
	// LendEvents returns an empty slice with room for events, or nil
	// once the room is lent for the command being decided.
	LendEvents() []Event
}

// Lender returns r as an EventLender, or nil when it lends no room or its
// events are recorded.
func Lender(r Roller) EventLender {
	if l, ok := r.(EventLender); ok && l.Unrecorded() {
		return l
	}
	return nil
}

// Recorded reports whether the events decided with r may be recorded:
// true unless r is an UnrecordedRoller that says otherwise. The rules
// work out the odds an event keeps only when it is.
func Recorded(r Roller) bool {
	u, ok := r.(UnrecordedRoller)
	return !ok || !u.Unrecorded()
}

// Payloads shared by every system.

// AddedData is the payload of EventAdded.
type AddedData struct {
	Combatant Combatant `json:"combatant"`
	// Before and After are the combatant the newcomer is placed next to
	// in the order of play, when the command named one.
	Before CombatantID `json:"before,omitempty"`
	After  CombatantID `json:"after,omitempty"`
}

// NameData is a payload that concerns one combatant.
type NameData struct {
	Who CombatantID `json:"name"`
}

// NoteData is the payload of EventNoted.
type NoteData struct {
	Who  CombatantID `json:"name"`
	Note string      `json:"note"`
}

// SetData is the payload of EventSet.
type SetData struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ConditionData is the payload of EventCondition: Who is put in the
// condition, replacing one of the same name.
type ConditionData struct {
	Who       CombatantID `json:"name"`
	Condition Condition   `json:"condition"`
}

// ClearedData is the payload of EventCleared: Who's condition named
// Condition ends.
type ClearedData struct {
	Who       CombatantID `json:"name"`
	Condition string      `json:"condition"`
}

// RenamedData is the payload of EventRenamed: the combatant ID, called
// Name until now, is called To from now on. ID declares whom it concerns;
// the names are words.
type RenamedData struct {
	ID   CombatantID `json:"id"`
	Name string      `json:"name"`
	To   string      `json:"to"`
}

// StepData is the payload of EventUndo and EventRedo.
type StepData struct {
	Step int `json:"step"`
}
