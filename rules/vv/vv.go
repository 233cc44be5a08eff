package vv

import (
	"fray"
	"fray/engine"
)

// This file is the system itself: its id and name, and the event types of
// the order of play with their payloads.

// ID is the system's id, as given to fray play --rules.
const ID = "vv"

// Event types of the V&V order of play. They are wire strings: never rename
// one.
const (
	EventTurn        = "vv.turn"        // a turn begins with everyone's initiative; data: TurnData
	EventTurnEnded   = "vv.turn_ended"  // a turn ends and between-turn upkeep is paid; data: TurnEndData
	EventActed       = "vv.acted"       // the current character takes their action; data: ActData
	EventMoved       = "vv.moved"       // the current character moves; data: MoveData
	EventHeld        = "vv.held"        // the current character saves their action; data: HeldData
	EventDone        = "vv.done"        // the current character is done for this phase; data: fray.NameData
	EventInterrupted = "vv.interrupted" // characters with held actions interrupt; data: InterruptData
	EventFacing      = "vv.facing"      // a facing change; data: FacingData
	EventProne       = "vv.prone"       // a character drops prone; data: FacingData
	EventStood       = "vv.stood"       // a prone character gets up; data: fray.NameData
	EventSurprise    = "vv.surprise"    // the ambush victims who failed to notice; data: NamesData
	EventInitiative  = "vv.initiative"  // a physical initiative die is entered; data: DieData
	EventUpkeep      = "vv.upkeep"      // a character's between-turn Power upkeep is set; data: UpkeepData
	EventTiebreak    = "vv.tiebreak"    // the GM's order for full ties; data: NamesData
	EventHoldLapsed  = "vv.hold_lapsed" // a held action lapsed unused, ending its holder's turn for conditions; data: fray.NameData
)

// TurnData is the payload of EventTurn.
type TurnData struct {
	Turn  int        `json:"turn"`  // the turn beginning, from 1
	Chars []TurnChar `json:"chars"` // everyone's initiative, in the order added
}

// TurnChar is one character's initiative for a turn.
type TurnChar struct {
	// Who is the character.
	Who fray.CombatantID `json:"name"`
	// Init is the initiative total, after halving; Rolled is false for a
	// victim of a surprise under the rules as written, who gets no phases.
	Init   int  `json:"init"`
	Rolled bool `json:"rolled"`
	Halved bool `json:"halved,omitempty"`
	// Entered reports that a physical die entered with initiative was used.
	Entered bool `json:"entered,omitempty"`
	// Lost lists the phases lost to surprise.
	Lost []int `json:"lost,omitempty"`
	// Tie is the character's place in the toss that settles a full tie
	// (phase, Agility and Move Rate; see State.toss), higher first. (Logs
	// written before the toss hold a 1d100 each, equal ones in the order
	// added: they replay as they were.)
	Tie int `json:"tie,omitempty"`
}

// TurnEndData is the payload of EventTurnEnded.
type TurnEndData struct {
	Turn   int          `json:"turn"`             // the turn ending
	Upkeep []UpkeepData `json:"upkeep,omitempty"` // the Power spent between turns (V-5)
	// Unpaid lists the upkeeps more than the Power left: not paid, they
	// end (Power never goes below zero, as with spend).
	Unpaid []UpkeepData `json:"unpaid,omitempty"`
}

// HeldData is the payload of EventHeld.
type HeldData struct {
	Who fray.CombatantID `json:"name"` // who saves their action
	// Open reports that the holder's turn stays open for conditions
	// (E-4): it ends when the held action is used or lapses, not now
	// (V-3). hold sets it when a condition is anchored to the end of the
	// holder's turn, the only case where it changes anything. A hold
	// without it ends the turn at once, as every hold of a log written
	// before held actions kept turns open did: such logs replay as they
	// were, and a hold made now without it has nothing for that end to end.
	Open bool `json:"open,omitempty"`
}

// ActData is the payload of EventActed.
type ActData struct {
	Who   fray.CombatantID `json:"name"`  // who acts
	Phase int              `json:"phase"` // on which phase
	Cost  int              `json:"cost"`  // the Power it costs (V-1)
}

// MoveData is the payload of EventMoved.
type MoveData struct {
	Who    fray.CombatantID `json:"name"`   // who moves
	Inches int              `json:"inches"` // how far
}

// InterruptData is the payload of EventInterrupted: Who in the order they
// act, Before the character interrupted.
type InterruptData struct {
	Who    []fray.CombatantID `json:"names"`  // the interrupters, in the order they act
	Before fray.CombatantID   `json:"before"` // the character interrupted
	// Phase is the phase they act on when it is one where nobody else
	// acts (interrupt … phase=N), between the last phase counted and the
	// phase of the character interrupted, who has not yet begun it; 0
	// for the phase of the character interrupted.
	Phase int `json:"phase,omitempty"`
}

// FacingData is the payload of EventFacing and EventProne.
type FacingData struct {
	Who   fray.CombatantID `json:"name"`          // who turns or drops
	Dir   string           `json:"dir,omitempty"` // the new facing, if named, as typed
	Cost  int              `json:"cost"`          // 2 Power off one's own phase, else 0 (V-7)
	Phase int              `json:"phase"`         // the phase of an off-phase change
	// About is the combatants the direction names ("facing Jack
	// Grue"); Apply does not read it.
	About []fray.CombatantID `json:"about,omitempty"`
}

// NamesData is a payload about several combatants.
type NamesData struct {
	Who []fray.CombatantID `json:"names"` // the combatants, in order
}

// DieData is the payload of EventInitiative.
type DieData struct {
	Who fray.CombatantID `json:"name"` // whose die
	Die int              `json:"die"`  // the face of the d10
}

// UpkeepData is the payload of EventUpkeep, and one character's upkeep in
// TurnEndData.
type UpkeepData struct {
	Who   fray.CombatantID `json:"name"`  // who pays
	Power int              `json:"power"` // the Power spent each time
}

// System is the V&V order of play. The zero value is ready to use.
type System struct{}

// New returns the V&V system.
func New() *System { return &System{} }

var _ engine.Payloads = (*System)(nil)

// Payloads returns the payload type of each event type the system makes
// besides the shared ones (see engine.Payloads). EventStarted carries no
// payload.
func (*System) Payloads() map[string]any {
	return map[string]any{
		EventTurn:        TurnData{},
		EventTurnEnded:   TurnEndData{},
		EventActed:       ActData{},
		EventMoved:       MoveData{},
		EventHeld:        HeldData{},
		EventDone:        fray.NameData{},
		EventInterrupted: InterruptData{},
		EventFacing:      FacingData{},
		EventProne:       FacingData{},
		EventStood:       fray.NameData{},
		EventSurprise:    NamesData{},
		EventInitiative:  DieData{},
		EventUpkeep:      UpkeepData{},
		EventTiebreak:    NamesData{},
		EventHoldLapsed:  fray.NameData{},
		EventAttacked:    AttackData{},
		EventDamaged:     DamageData{},
		EventHealed:      HealData{},
		EventSpent:       SpendData{},
		EventChecked:     CheckData{},
	}
}

var spec = engine.Spec{
	Stats: stats,
	Settings: map[string][]string{
		SetHeld:     {House, RAW},
		SetSurprise: {House, RAW},
		SetMovement: {House, RAW},
		SetMoving:   {House, RAW},
		SetRolling:  {House, RAW},
		SetTies:     {House, RAW},
	},
	AddOpts: []fray.Param{
		{Name: KeyHP, Kind: fray.KindNumber, Min: 1, Max: 10000, Help: "Hit Points"},
		{Name: KeyAttack, Kind: fray.KindText, Hint: "NAME:DICE:TYPE:SCORE[:close|ranged],…", Help: "attack powers: damage dice, damage type and skill score"},
		{Name: KeyProtection, Kind: fray.KindText, Hint: "TYPE:N,…", Help: "protection per damage type"},
	},
}

// ID returns "vv".
func (*System) ID() string { return ID }

// Name returns the system's full name.
func (*System) Name() string { return "Villains & Vigilantes 2e (Rules Upgrade, -B. house rules)" }

// NewState returns an empty encounter.
func (*System) NewState() fray.State { return newState() }

func get(st fray.State) (*State, error) {
	s, ok := st.(*State)
	if !ok || s == nil {
		return nil, fray.Errorf(fray.EINTERNAL, "The state is not a V&V state.")
	}
	return s, nil
}
