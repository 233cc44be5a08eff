package pp

import (
	"fray"
	"fray/engine"
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

// RoundData is the payload of EventRound.
type RoundData struct {
	Round int                `json:"round"` // the page beginning, from 1
	Order []fray.CombatantID `json:"order"` // its order of play
}

// ActData is the payload of EventActed: Nth counts the actor's actions in
// this turn, from 1.
type ActData struct {
	Who fray.CombatantID `json:"name"` // whose action
	Nth int              `json:"nth"`  // the how-manyeth in the turn
}

// NamesData is a payload of several combatants.
type NamesData struct {
	Who []fray.CombatantID `json:"names"` // the combatants, in order
}

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

// Commands lists the commands the system accepts.
func (*System) Commands() []fray.CommandDoc {
	docs := engine.SharedDocs(spec)
	docs[0].Usage += " [role=hero|villain|foe|extra] [minion=yes]"
	return append(docs,
		fray.CommandDoc{Usage: "order NAME …", Summary: "The GM's order for characters tied on Edge and role."},
		fray.CommandDoc{Usage: "start", Summary: "Begin the first page: turns by Edge, highest first (P-10)."},
		fray.CommandDoc{Usage: "act [NAME]", Summary: "The current character takes an action; each after the first is −2d to the turn's rolls."},
		fray.CommandDoc{Usage: "next", Summary: "The current character's turn ends; after the last a new page begins."},
		fray.CommandDoc{Usage: "check NAME TRAIT [vs=NAME [TRAIT]] [threshold=hard|N] [mod=±Nd] [auto=N|all] [vs_mod=±Nd] [vs_auto=N|all] [same=yes] [successes=N] [vs_successes=N]", Summary: "A challenge roll against a static threshold or an opponent; same=yes: whoever rolls more is the actor (P-1 … P-3)."},
		fray.CommandDoc{Usage: "spend NAME resolve=N | spend NAME reroll | spend NAME explode", Summary: "Resolve after the last roll (a check, an attack, an exchange, an assist or a group action), by anyone who rolled in it: +1d a point (3 in a defining moment), a reroll keeping the better, or (checking your swing) exploding 6s; the roll is settled again (P-4, P-5)."},
		fray.CommandDoc{Usage: "assist HELPER for=NAME TRAIT", Summary: "Help against Hard (2): +1d to NAME's next challenge roll of any kind (a check, an attack or resisting one, an exchange, a group action; not NAME's own assist roll) per 2 net successes, rounding up; only the best helper counts (P-6)."},
		fray.CommandDoc{Usage: "group TRAIT NAME NAME … threshold=N", Summary: "A group action: everyone rolls; net successes above 3 go to allies who failed (P-7)."},
		fray.CommandDoc{Usage: "contest A B TRAIT [TRAIT_B] [exchanges=3] [mod=±Nd] [vs_mod=±Nd] [auto=N|all] [vs_auto=N|all]", Summary: "A contest; rolls its first exchange; the winner of each takes +2d into the next, the winner of the last decides (P-8)."},
		fray.CommandDoc{Usage: "exchange [mod=±Nd] [vs_mod=±Nd] [auto=N|all] [vs_auto=N|all]", Summary: "Roll the contest's next exchange."},
		fray.CommandDoc{Usage: "defining NAME reduce=TRAIT | defining NAME oneshot", Summary: "A hero's defining moment for their next roll: 6s explode, 3 dice a Resolve; once a story, one hero a scene; then −1d to an ability of the task's kind, or the one-shot cost (P-9)."},
		fray.CommandDoc{Usage: "scene / story", Summary: "Begin a new scene (another hero may have a defining moment; a hero knocked out by a one-shot one comes to) or a new story (every hero may again; a one-shot defining moment's cost is over: no more −2d, and the Health it took comes back)."},
		fray.CommandDoc{Usage: "attack ATTACKER TARGET with=TRAIT [def=TRAIT]", Summary: "An action: the trait against the defender's best defence (agility, might, toughness); 1 Health per net success, one minion per net success; −2d per earlier action this turn (P-10)."},
		fray.CommandDoc{Usage: "damage NAME N", Summary: "The GM takes N Health off (no more than is left; for minions, N of them defeated); 0 Health is defeated, as by an attack (P-10); no action. Example: damage Paragon 2."},
		fray.CommandDoc{Usage: "heal NAME N", Summary: "The GM gives back N Health, never above the character's Health (for minions, N defeated ones back up); a hero unconscious after a one-shot defining moment stays so until the scene ends. Example: heal \"Doctor Vile\" 3."},
		fray.CommandDoc{Usage: "odds COMMAND …", Summary: "The exact odds of a roll (check, attack, assist, group, contest, exchange, or spending Resolve on the last roll) before rolling: each narrative-control band (or traditional result), every modifier. Example: odds check Gatecrasher might vs=\"Citizen Soldier\"."},
	)
}

func get(st fray.State) (*State, error) {
	s, ok := st.(*State)
	if !ok || s == nil {
		return nil, fray.Errorf(fray.EINTERNAL, "The state is not a P&P state.")
	}
	return s, nil
}
