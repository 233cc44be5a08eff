package cinematic

import (
	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// ID is the system's id, as given to fray play --rules.
const ID = "cinematic"

// Stances a character may declare at the top of a round (C-7). They are
// wire strings.
const (
	StanceNone    = ""        // the usual free attack and defence
	StanceDefence = "defence" // Full Defence: one extra defence at no penalty, +3 to all defence, no attacks
	StanceOffence = "offence" // Full Offence: +2 to all attacks, no defence
)

// Modifiers of the stances (C-7) and the penalty of each extra action (C-2).
const (
	FullDefenceBonus = 3
	FullOffenceBonus = 2
	ExtraPenalty     = 2
)

// ExtraActions returns the extra actions a Dexterity gives each round
// (C-2): 5–6: 1, 7–8: 2, 9–10: 3, 11–12: 4, 13–14: 5, 15 and up: 6.
func ExtraActions(dex int) int {
	switch {
	case dex < 5:
		return 0
	case dex >= 15:
		return 6
	}
	return (dex - 3) / 2
}

// Event types of the Cinematic Unisystem order of play. They are wire
// strings: never rename one.
const (
	EventRound    = "cinematic.round"    // a round begins in initiative order; data: RoundData
	EventAttack   = "cinematic.attack"   // the current character attacks; data: ActionData
	EventDefence  = "cinematic.defence"  // a character defends; data: ActionData
	EventStance   = "cinematic.stance"   // Full Defence or Full Offence declared; data: StanceData
	EventTurnDone = "cinematic.turn_end" // the current character's turn ends; data: fray.NameData
	EventTiebreak = "cinematic.tiebreak" // the GM's order for full ties; data: NamesData
)

// RoundData is the payload of EventRound.
type RoundData = kit.RoundData

// Kinds of action in ActionData.
const (
	ActionFree  = "free"  // the round's free attack or free defence
	ActionBonus = "bonus" // Full Defence's extra defence at no penalty
	ActionExtra = "extra" // an extra action at a cumulative −2
)

// ActionData is the payload of EventAttack and EventDefence.
type ActionData struct {
	// Who attacks or defends.
	Who fray.CombatantID `json:"name"`
	// Other is the target of an attack or the attacker defended against,
	// when named.
	Other fray.CombatantID `json:"other,omitempty"`
	// Kind is ActionFree, ActionBonus or ActionExtra.
	Kind string `json:"kind"`
	// Modifier is what the action's roll gets: the extra action's
	// penalty plus the stance's bonus.
	Modifier int `json:"modifier"`
}

// StanceData is the payload of EventStance.
type StanceData struct {
	Who    fray.CombatantID `json:"name"`   // who declares
	Stance string           `json:"stance"` // StanceDefence, StanceOffence or StanceNone
}

// NamesData is a payload that concerns several combatants.
type NamesData = kit.NamesData

// System is the Cinematic Unisystem order of play. The zero value is ready
// to use.
type System struct{}

// New returns the Cinematic Unisystem system.
func New() *System { return &System{} }

// Payloads declares the payload type of each event type the system
// emits besides the shared ones (engine.Payloads), so that an older log's
// names can be rewritten into ids.
func (*System) Payloads() map[string]any {
	return map[string]any{
		EventRound:    RoundData{},
		EventAttack:   ActionData{},
		EventDefence:  ActionData{},
		EventStance:   StanceData{},
		EventTurnDone: fray.NameData{},
		EventTiebreak: NamesData{},
		EventRolled:   rollData{},
		EventDamaged:  damageData{},
		EventShot:     ammoData{},
		EventReloaded: reloadData{},
		EventStood:    fray.NameData{},
		EventEngaged:  engagedData{},
		EventWaits:    waitData{},
	}
}

var _ engine.Payloads = (*System)(nil)

var spec = engine.Spec{Stats: []string{"strength", "dexterity", "constitution", "intelligence", "perception", "willpower", "bonus"}}

// ID returns "cinematic".
func (*System) ID() string { return ID }

// Name returns the system's full name.
func (*System) Name() string { return "Cinematic Unisystem variant" }

// NewState returns an empty encounter.
func (*System) NewState() fray.State { return &State{} }

func get(st fray.State) (*State, error) { return kit.StateOf[State](st, "Cinematic Unisystem") }
