package pp

import (
	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// ID is the system's id, as given to fray play --rules.
const ID = "pp"

// Roles of a combatant, which break ties in Edge (P-10): heroes before
// villains before foes before extras. They are wire strings.
const (
	RoleHero    = "hero"
	RoleVillain = "villain"
	RoleFoe     = "foe"
	RoleExtra   = "extra"
)

// roles lists the roles in the order they win ties.
var roles = []string{RoleHero, RoleVillain, RoleFoe, RoleExtra}

// Keys of the add command beyond the shared ones and the traits.
const (
	KeyRole   = "role"   // hero, villain, foe or extra; default hero for side=pc, villain otherwise
	KeyMinion = "minion" // yes for a minion, who acts after everyone else
)

// ExtraActionPenalty is the dice each action after the first in a turn
// takes off that turn's rolls (P-10).
const ExtraActionPenalty = 2

// MaxActions is the most actions one character may take in one turn.
const MaxActions = 10

// Event types of the P&P order of play. They are wire strings: never rename
// one.
const (
	EventRole     = "pp.role"     // a combatant's role and whether a minion; data: RoleData
	EventRound    = "pp.round"    // a page (round) begins in Edge order; data: RoundData
	EventActed    = "pp.acted"    // the current character takes an action; data: ActData
	EventTurnDone = "pp.turn_end" // the current character's turn ends; data: fray.NameData
	EventTiebreak = "pp.tiebreak" // the GM's order for full ties; data: NamesData
)

// The payloads of P&P's events identify combatants by id (the format
// fray.FormatIDs), but for RoleData's; their words (a same-goal roll's
// Rivals, a group action's Given), like the rolls' labels and the odds,
// name them as they were called when the event was made.

// RoleData is the payload of EventRole.
//
// It follows the EventAdded of the combatant in the same step, and so
// names them: the rules cannot know the id the engine gives a newcomer
// as it records the step, and once that EventAdded is applied the name is
// theirs. Name is declared as a name (fray.TagName), so that About holds
// their id and no format rewrites it.
type RoleData struct {
	Name   string `json:"name" fray:"name"` // the combatant just added
	Role   string `json:"role"`             // hero, villain, foe or extra
	Minion bool   `json:"minion,omitempty"` // whether a minion, who acts last
}

// RoundData is the payload of EventRound (a page beginning).
type RoundData = kit.RoundData

// ActData is the payload of EventActed: Nth counts the actor's actions in
// this turn, from 1.
type ActData struct {
	Who fray.CombatantID `json:"name"` // whose action
	Nth int              `json:"nth"`  // the how-manyeth in the turn
}

// NamesData is a payload of several combatants.
type NamesData = kit.NamesData

// System is the P&P order of play. The zero value is ready to use.
type System struct{}

// New returns the P&P system.
func New() *System { return &System{} }

var spec = engine.Spec{
	Stats: []string{"agility", "intellect", "might", "perception", "toughness", "willpower", "edge", StatHealth, StatResolve, StatCount},
	Settings: map[string][]string{
		SettingResults:  {"narrative", "traditional"},
		SettingSwing:    {"no", "yes"},
		SettingDefining: {"reduce", "oneshot", "either"},
	},
	AddOpts: []fray.Param{
		{Name: KeyRole, Kind: fray.KindChoice, Choices: roles, Help: "breaks ties in Edge; default hero for side=pc, villain otherwise"},
		yesNo(KeyMinion, "yes: a minion, who acts after everyone else"),
	},
}

// Payloads returns the payload type of each event type of P&P that has
// one (engine.Payloads), so that events of older logs, which name
// combatants, can be rewritten with their ids. fray.EventStarted,
// EventScene and EventStory have none.
func (*System) Payloads() map[string]any {
	return map[string]any{
		EventRole:      RoleData{},
		EventRound:     RoundData{},
		EventActed:     ActData{},
		EventTurnDone:  fray.NameData{},
		EventTiebreak:  NamesData{},
		EventChecked:   CheckData{},
		EventSpent:     SpentData{},
		EventSides:     SidesData{},
		EventAssisted:  AssistData{},
		EventGrouped:   GroupData{},
		EventContest:   ContestData{},
		EventExchanged: ExchangeData{},
		EventDefining:  DefiningData{},
		EventDamaged:   HarmData{},
		EventHealed:    HarmData{},
	}
}

// ID returns "pp".
func (*System) ID() string { return ID }

// Name returns the system's full name.
func (*System) Name() string { return "Prowlers & Paragons Ultimate Edition" }

// NewState returns an empty encounter.
func (*System) NewState() fray.State { return &State{} }

func get(st fray.State) (*State, error) { return kit.StateOf[State](st, "P&P") }
