// Package queue runs the order of play of the Combat Queue (seed 004): the
// queue by 1d20 + Wits with PCs winning ties and one roll for a group
// two actions a turn — Major and Minor, or two Minor — and then to
// the bottom, and reactions that put the reactor right below the one
// they answered once that one has gone to the bottom. A reaction
// counters an action being taken: the current actor's, or a reaction to
// it; one waiting in the queue, whose turn is to come or over, takes none
// to counter. The Incapacitated and the dead take no action and no
// reaction.
//
// The queue roll has exact odds (SPEC E-6), worked out before the dice:
// the start event records each party's chance to head the new queue, a
// band "NAME first" per combatant or group (a group rolls once, with its
// best member's Wits + bonus), in the order they were added, after the
// tie rules exactly as the queue applies them: PCs first, then the GM's
// order (order NAME …), then the order of adding, which stands for a
// negotiation the GM has not declared; so every tie is settled by the
// state and none is split. A party that cannot come first has no band.
// odds start shows these odds without rolling; odds initiative NAME gives
// NAME's party's chance to come first or not and the distribution of its
// score. Dice entered with initiative NAME DIE, or dice= and roll= on
// start, are the roll's physical dice: the odds are those the roll had
// before any die was thrown, not the odds given the dice already entered.
//
// Attacks (attack A B with=WEAPON) are Major actions: d20 + Wits against
// 10 + the target's Wits (ours; set hitbase= and tohit=gm change it, and
// hit=yes|no rules a hit), then Red and Black by the weapon's weight, a
// Black 6 triggering its special (Q-4, Attack and DamageRoll, each with its
// exact odds). At 0 hit points a combatant is Incapacitated; each further
// damage is an Injury — scarred, maimed or dead, each once.
//
// The GM's damage NAME N (a trap, a fall) takes hit points off through
// the same code as an attack's hit (Hurt, then State.hurt when applied):
// it Incapacitates at 0, and on one already Incapacitated it is an Injury,
// named with injury= or chosen later with injury NAME … (several at once);
// the third Injury, counting those still to choose, gives every one left
// at once (each is taken once, so three are all three, dead among them). heal NAME N gives hit points back, never above the
// combatant's hit points. Rulings where the seed is silent (ours): healing
// an Incapacitated combatant lifts Incapacitation, which the seed defines
// as having lost all hit points, so having some again ends it; Injuries
// stay ("each can only be opted for only once": a scar does not heal, and
// a healed combatant hurt again to 0 and beyond takes the ones left);
// the dead are not healed. Neither damage nor heal is an action.
//
// check NAME vs=NAME|difficulty=N [mod=±N] is a task roll: the house
// to-hit roll (ToHit, Q-4 ours), d20 + Wits (+ mod= and the conditions'
// modifiers to checks) against the hit base (10, set hitbase=) + the
// opponent's Wits, or against the GM's difficulty, a tie succeeding. Its
// odds are exact (the score's distribution from package dice) and recorded
// in its event; dice=D20 or roll=D20 enters a physical die. A check is no
// action of its own: the GM decides whether it costs a Major or a Minor
// action and says so with act. The Incapacitated and the dead make none.
//
// Zones (seed 004, "distances are handled in abstract Zones") are the
// stat zone=, a whole number the GM may leave unrecorded; the order shows
// a recorded one ("zone 2"). move [NAME] zone=N is the current actor's
// Minor action of "traversing the battlefield". A reaction on an
// ally's behalf, react NAME to=NAME for=ALLY, needs the ally in the
// reactor's zone ("an ally in his zone") when both zones are recorded.
//
// A reaction for an ally suffers the damage instead (Q-3, seed 004: "to
// suffer the damage instead of an ally in his zone"): declared before the
// current actor's attack on the ally, it moves that attack's damage, if it
// hits, onto the reactor, with its Incapacitation and Injuries,
// judged on the reactor's hit points; the attack's event names who
// suffered it (cover.go gives the rulings).
//
// Secrets are declared (fray.TagWho): every event's payload holds the ids
// of the combatants it refers to (fray.CombatantID), and of those its
// note's words name (Mentions, read once when the command is decided),
// except a newcomer's weapons, named (armedData); a slot's words that
// show hit points are its Status, never its Note; a reactor's slot names
// in About the one they stand below; and each round's history names in
// Who the combatants a reaction's words name.
package queue

import (
	"strconv"

	"fray"
	"fray/engine"
)

// ID is the system's id.
const ID = "queue"

// Event types of this system. They are wire strings: never rename one.
const (
	EventTiebreak   = "queue.tiebreak"   // the GM's tiebreak order; data: namesData
	EventInitiative = "queue.initiative" // physical dice entered for a combatant or group; data: initData, Rolls[0]
	EventActed      = "queue.acted"      // the current actor takes an action; data: actData
	EventTurnEnded  = "queue.turn_ended" // the current actor goes to the bottom; data: fray.NameData
	EventReacted    = "queue.reacted"    // a reaction; data: reactData
)

// Kinds of action. They are wire strings: never rename one.
const (
	Major = "major" // attacks, charges, anything that significantly alters an opponent
	Minor = "minor" // readying, reloading, moving between Zones
)

// Stats this system knows.
const (
	StatWits  = "wits"  // added to the 1d20 of the queue
	StatBonus = "bonus" // other bonuses to the initiative score
)

var spec = engine.Spec{
	Stats:     []string{StatWits, StatBonus, StatHP, StatZone},
	Placement: true,
	AddOpts:   []fray.Param{{Name: KeyWeapon, Kind: fray.KindText, Hint: "NAME:light|medium|heavy[:SPECIAL],…", Help: "the combatant's weapons"}},
	Settings: map[string][]string{
		SettingToHit:   {"roll", "gm"},
		SettingHitBase: hitBases(),
	},
}

// hitBases lists the values set hitbase= accepts, the default first.
func hitBases() []string {
	out := []string{strconv.Itoa(DefaultHitBase)}
	for i := 0; i <= 30; i++ {
		if i != DefaultHitBase {
			out = append(out, strconv.Itoa(i))
		}
	}
	return out
}

// Payloads of this system's events. They refer to combatants by id
// (fray.CombatantID), which declares them (fray.TagWho); so does a list
// of the combatants a note's words name (Mentions), which Apply never
// reads. Most notes name nobody and most units are not groups, so the
// frequent payloads stay flat (copied in Apply, not decoded) without a
// list: actData and actNoted, reactData and reactNoted, initData and
// initGroup share one JSON form each, the second used only when its list
// has ids. Logs older than ids in payloads (fray.FormatIDs) named the
// combatants instead; engine.Upgrade rewrites them by the types Payloads
// declares.

// Payloads returns the payload type of each event type the system emits
// (engine.Payloads), so that older logs can be rewritten into ids.
func (*System) Payloads() map[string]any {
	return map[string]any{
		EventTiebreak:     namesData{},
		EventInitiative:   initGroup{},
		fray.EventStarted: startData{},
		EventActed:        actNoted{},
		EventTurnEnded:    fray.NameData{},
		EventReacted:      reactNoted{},
		EventArmed:        armedData{},
		EventAttacked:     attackData{},
		EventInjured:      injuryData{},
		EventDamaged:      damagedData{},
		EventHealed:       healedData{},
		EventChecked:      checkData{},
		EventMoved:        movedData{},
	}
}

type namesData struct {
	Names []fray.CombatantID `json:"names"`
}

// initData is the payload of EventInitiative for a combatant's own roll.
type initData struct {
	// Key is the combatant's id (unitKey).
	Key fray.CombatantID `json:"key"`
}

// initGroup is the payload of EventInitiative for a group's roll, and the
// type that declares the event's payload (Payloads).
type initGroup struct {
	// Key is "group:" and the group's name in lower case (unitKey): words,
	// which name nobody. It is declared (fray.TagWho) for the older logs,
	// whose key for a combatant's own roll was their name (initData's
	// key, an id now); a group's key is no combatant's name and stays.
	Key string `json:"key" fray:"who"`
	// Members are the members of the group whose roll it is: the roll is
	// theirs, and a group's name is nobody's.
	Members []fray.CombatantID `json:"members,omitempty"`
}

type actData struct {
	Name fray.CombatantID `json:"name"`
	Kind string           `json:"kind"`
	Note string           `json:"note,omitempty"`
}

// actNoted is the payload of EventActed when its note names other
// combatants.
type actNoted struct {
	Name fray.CombatantID `json:"name"`
	Kind string           `json:"kind"`
	Note string           `json:"note,omitempty"`
	// Mentions are the other combatants Note names.
	Mentions []fray.CombatantID `json:"mentions,omitempty"`
}

type reactData struct {
	Name fray.CombatantID `json:"name"`
	To   fray.CombatantID `json:"to"`
	Note string           `json:"note,omitempty"`
	// For is the ally on whose behalf the reaction is taken (for=), if
	// any.
	For fray.CombatantID `json:"for,omitempty"`
}

// reactNoted is the payload of EventReacted when its note names other
// combatants.
type reactNoted struct {
	Name fray.CombatantID `json:"name"`
	To   fray.CombatantID `json:"to"`
	Note string           `json:"note,omitempty"`
	For  fray.CombatantID `json:"for,omitempty"`
	// Mentions are the other combatants Note names.
	Mentions []fray.CombatantID `json:"mentions,omitempty"`
}

type startData struct {
	// Order is everyone, top first; Scores is keyed by the same ids.
	Order  []fray.CombatantID       `json:"order"`
	Scores map[fray.CombatantID]int `json:"scores"`
}

// System is the Combat Queue. Its zero value is ready to use.
type System struct{}

// New returns the system.
func New() *System { return &System{} }

// ID returns "queue".
func (*System) ID() string { return ID }

// Name returns the system's full name.
func (*System) Name() string { return "The Combat Queue" }

// NewState returns an empty encounter.
func (*System) NewState() fray.State { return newState() }
