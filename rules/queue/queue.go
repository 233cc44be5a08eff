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
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

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

// State is the state of a Combat Queue encounter. It refers to every
// combatant by id (fray.CombatantID): what a combatant is called is theirs
// to change (rename), and the view says it (View).
type State struct {
	fray.Encounter
	// Tiebreak is the GM's order for breaking ties that remain.
	Tiebreak []fray.CombatantID
	// Initiative holds physical dice entered before the start, by the
	// unit that rolls them (a combatant, or a group).
	Initiative map[Unit]fray.Roll
	// Scores holds the initiative scores rolled at the start.
	Scores map[fray.CombatantID]int
	// Queue is the Combat Queue, top first; the top is taking their turn.
	Queue []fray.CombatantID
	// Below lists those who reacted to the current actor (or to one
	// another), in order: they go to the bottom right after the current
	// actor does.
	Below []fray.CombatantID
	// BelowWhom maps each of Below to the one they answered.
	BelowWhom map[fray.CombatantID]fray.CombatantID
	// Actions lists the current actor's actions this turn.
	Actions []string
	// Hits lists those the current actor's attacks have hit this turn,
	// the targets (not who suffered the damage instead): a reaction for
	// one of them would come after the damage it takes.
	Hits []fray.CombatantID
	// Acted lists who has taken a turn this round; a round ends when the
	// top of the queue has already acted in it.
	Acted []fray.CombatantID
	// Turns lists this round's turns and reactions so far; the view says
	// them in the seeds' words (fray.RoundTurns).
	Turns []Turn
	// History holds the finished rounds, which are never changed again
	// (so a clone shares them).
	History []*Round
	// Fighters holds the weapons, damage and Injuries of those who have
	// any, in the order they first had one.
	Fighters []*Fighter
}

// Unit is who rolls one queue roll: a combatant (ID), or a group
// (Group, its name in lower case), whose members roll once.
type Unit struct {
	ID    fray.CombatantID
	Group string
}

// Turn is one entry of a round's history: a turn taken, or a reaction.
// The view says it (roundTurns): "Johann", "Johann (reacts to Brigand
// #2)", "Johann (takes the blow)".
type Turn struct {
	// ID is who took the turn, or reacted.
	ID fray.CombatantID
	// To is whom a reaction answered; "" for a turn.
	To fray.CombatantID
	// For is the ally on whose behalf a reaction was taken; "" for none.
	For fray.CombatantID
	// Note is a reaction's note (note=); nil for none.
	Note *TurnNote
}

// TurnNote is a reaction's note: its words as they were typed, and the
// other combatants they name. A recorded note is never changed, so
// copies of a state share it.
type TurnNote struct {
	Text string
	// Mentions lists the other combatants Text names (engine.Mentions),
	// by id, for fray.RoundTurns.Who.
	Mentions []fray.CombatantID
}

// Round is the history of one finished round.
type Round struct {
	Round int
	Turns []Turn
}

func newState() *State {
	return &State{Initiative: map[Unit]fray.Roll{}, Scores: map[fray.CombatantID]int{}, BelowWhom: map[fray.CombatantID]fray.CombatantID{}}
}

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State {
	d := *s
	d.Encounter = s.Encounter.CloneEncounter()
	d.Tiebreak = slices.Clone(s.Tiebreak)
	d.Initiative = make(map[Unit]fray.Roll, len(s.Initiative))
	for k, r := range s.Initiative {
		r.Dice = slices.Clone(r.Dice)
		d.Initiative[k] = r
	}
	d.Scores = maps.Clone(s.Scores)
	d.Queue = slices.Clone(s.Queue)
	d.Below = slices.Clone(s.Below)
	d.BelowWhom = maps.Clone(s.BelowWhom)
	d.Actions = slices.Clone(s.Actions)
	d.Hits = slices.Clone(s.Hits)
	d.Acted = slices.Clone(s.Acted)
	// This round's turns are only ever appended to, never changed once
	// recorded (nor their notes): the copy shares them, its capacity cut
	// to their length so that an append to either leaves the other as it
	// was.
	d.Turns = slices.Clip(s.Turns)
	// A finished round is never changed again, so the copy shares it;
	// only the list of rounds is copied.
	d.History = slices.Clone(s.History)
	if s.Fighters != nil {
		d.Fighters = make([]*Fighter, len(s.Fighters))
		for i, f := range s.Fighters {
			g := *f
			g.Weapons = slices.Clone(f.Weapons)
			g.Injuries = slices.Clone(f.Injuries)
			d.Fighters[i] = &g
		}
	}
	return &d
}

// current returns the id of whoever takes their turn, or "".
func (s *State) current() fray.CombatantID {
	if !s.Started || len(s.Queue) == 0 {
		return ""
	}
	return s.Queue[0]
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

// Parameters several commands share.
var (
	// optInjury is injury=: the Injury damage gives one Incapacitated.
	optInjury = fray.Param{Name: KeyInjury, Kind: fray.KindChoice, Choices: Injuries(), Help: "the Injury, if the damage gives one"}
	// argHP is the N of damage and heal: hit points, at least one.
	argHP = fray.Param{Name: "N", Kind: fray.KindNumber, Min: 1, Max: engine.MaxAmount, Help: "hit points"}
	// argCurrent is the NAME of act [NAME] and next [NAME]: the current
	// actor, by default.
	argCurrent = fray.Param{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Actor: true, Help: "the current actor"}
)

// Commands declares the commands the system accepts, worked out once:
// the caller must not change them.
func (*System) Commands() []fray.CommandDecl { return declared() }

// declared holds the declarations commands makes.
var declared = sync.OnceValue(commands)

// commands declares the commands this system accepts.
func commands() []fray.CommandDecl {
	return append(engine.SharedDecls(spec),
		fray.CommandDecl{Name: "order", Send: fray.SendGM,
			Summary: "The GM's tiebreak order for equal scores that PCs-first does not settle (before the start).",
			Args:    []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Repeat: true}}},
		fray.CommandDecl{Name: "initiative", Send: fray.SendNamed, Rolls: true,
			Summary:  "Enter the physical d20 of a combatant (or of their group) before the start: its face as DIE, or with dice=.",
			Args:     []fray.Param{engine.ArgActor, {Name: "DIE", Kind: fray.KindDice, Optional: true, Help: "the d20's face"}},
			Examples: []string{"initiative Johann 14"}},
		fray.CommandDecl{Name: "start", Send: fray.SendGM, Rolls: true,
			Summary: "Roll 1d20 + Wits for everyone, once per group, and form the queue (Q-1); the event records each party's chance to come first."},
		fray.CommandDecl{Name: "act", Send: fray.SendCurrent,
			Summary: "The current actor takes an action: Major (attacks, charges) and Minor, or two Minor, per turn (Q-2); the Incapacitated and the dead take none.",
			Args:    []fray.Param{argCurrent, {Name: "KIND", Kind: fray.KindChoice, Choices: []string{Major, Minor}}},
			Opts:    []fray.Param{engine.OptNote}},
		fray.CommandDecl{Name: "next", Send: fray.SendCurrent,
			Summary: "The current actor goes to the bottom of the queue.",
			Args:    []fray.Param{argCurrent}},
		fray.CommandDecl{Name: "move", Send: fray.SendCurrent,
			Summary: "The current actor's Minor action of traversing the battlefield to zone N (Q-2); add NAME zone=N records a zone.",
			Args:    []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Help: "the current actor"}},
			Opts: []fray.Param{{Name: KeyZone, Kind: fray.KindNumber, Min: minZone, Max: maxZone, Required: true, Help: "the zone moved to"},
				engine.OptNote},
			Examples: []string{"move Johann zone=2"}},
		fray.CommandDecl{Name: "react", Send: fray.SendNamed,
			Summary: "A reaction to the current actor (or to a reaction to them): NAME will stand right below the one answered, once that one has gone to the bottom (Q-3); for= names the ally it is taken for, who must be in NAME's zone: NAME suffers the damage instead when the current actor's attack then hits the ally; the Incapacitated and the dead take none.",
			Args:    []fray.Param{engine.ArgActor},
			Opts: []fray.Param{{Name: "to", Kind: fray.KindCombatant, Required: true, Help: "whose action it answers"},
				{Name: KeyFor, Kind: fray.KindCombatant, Hint: "ALLY", Help: "the ally it is taken for"}, engine.OptNote}},
		fray.CommandDecl{Name: "attack", Send: fray.SendNamed, Rolls: true,
			Summary: "A Major action: d20 + Wits against 10 + the target's Wits (or the GM's hit=), then Red and Black by the weapon's weight; a Black 6 triggers its special (Q-4); dice=D20,RED,BLACK.",
			Args:    []fray.Param{{Name: "ATTACKER", Kind: fray.KindCombatant, Actor: true}, {Name: "TARGET", Kind: fray.KindCombatant}},
			Opts: []fray.Param{{Name: KeyWith, Kind: fray.KindPower, Hint: "WEAPON"},
				{Name: KeyHit, Kind: fray.KindChoice, Choices: []string{"yes", "no"}, Also: []string{"y", "true", "on", "1", "n", "false", "off", "0"}, Help: "the GM rules the hit"},
				engine.OptMod("±N"), optInjury},
			Examples: []string{`attack Johann "Brigand #1" with=sword dice=14,4,6`}},
		fray.CommandDecl{Name: "injury", Send: fray.SendNamed,
			Summary:  "Choose the Injuries an Incapacitated combatant took, one or several at once; each at most once, so the third Injury gives all that are left, dead among them (Q-5).",
			Args:     []fray.Param{engine.ArgActor, {Name: "INJURY", Kind: fray.KindChoice, Choices: Injuries(), Repeat: true}},
			Examples: []string{"injury Bob scarred maimed"}},
		fray.CommandDecl{Name: "damage", Send: fray.SendGM,
			Summary: "The GM takes N hit points off (a trap, a fall): at 0 Incapacitated, and damage to the Incapacitated is an Injury, as an attack's (Q-5); no action.",
			Args:    []fray.Param{engine.ArgName, argHP}, Opts: []fray.Param{optInjury},
			Examples: []string{"damage Johann 3"}},
		fray.CommandDecl{Name: "heal", Send: fray.SendGM,
			Summary:  "The GM gives back up to N hit points (a potion), never above the combatant's; any regained ends Incapacitation, Injuries stay, the dead stay dead.",
			Args:     []fray.Param{engine.ArgName, argHP},
			Examples: []string{"heal Johann 2"}},
		fray.CommandDecl{Name: "check", Send: fray.SendNamed, Rolls: true,
			Summary: "A task: d20 + Wits against 10 + the opponent's Wits (vs=, the to-hit rule's roll) or the GM's difficulty= (one of them); it takes no action itself, the GM says with act whether it costs a Major or Minor; dice=D20.",
			Args:    []fray.Param{engine.ArgActor},
			Opts: []fray.Param{{Name: KeyVs, Kind: fray.KindCombatant, Help: "the opponent: against 10 + their Wits"},
				{Name: KeyDifficulty, Kind: fray.KindNumber, Min: 1, Max: MaxDifficulty, Help: "the GM's difficulty"}, engine.OptMod("±N")},
			Examples: []string{`check Melvina vs="Pet Bear" mod=+2`}},
		fray.CommandDecl{Name: engine.CmdOdds, Send: fray.SendQuery,
			Summary:  "The exact odds of an attack (miss, hit, a Black 6's special, Incapacitated, and the damage), a check, or the queue roll (odds start: each party's chance to come first; odds initiative NAME: NAME's party's chance and score) before rolling, with every modifier.",
			Args:     []fray.Param{{Name: "COMMAND", Kind: fray.KindText, Repeat: true, Hint: "COMMAND"}},
			Examples: []string{`odds attack Johann "Brigand #1"`, "odds start", "odds initiative Johann"}},
	)
}

func state(st fray.State) *State {
	s, _ := st.(*State)
	if s == nil {
		return newState()
	}
	return s
}

// Decide turns a command into events. The engine has checked the
// command's words against its declaration (Commands).
func (sys *System) Decide(st fray.State, cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	s := state(st)
	if cmd.Name == engine.CmdAdd {
		if evs, err := s.decideAdd(cmd); err != nil || evs != nil {
			return evs, err
		}
	}
	if evs, ok, err := s.decideSharedOK(cmd); ok {
		return evs, err
	}
	var ev fray.Event
	var err error
	switch cmd.Name {
	case "order":
		ev, err = s.decideOrder(cmd)
	case "initiative":
		ev, err = s.decideInitiative(cmd, r)
	case "start":
		return s.decideStart(cmd, r)
	case "act":
		ev, err = s.decideAct(cmd)
	case "next":
		ev, err = s.decideNext(cmd)
	case "react":
		ev, err = s.decideReact(cmd)
	case "attack":
		return s.decideAttack(cmd, r)
	case "injury":
		return s.decideInjury(cmd)
	case "damage":
		return s.decideDamage(cmd)
	case "heal":
		ev, err = s.decideHeal(cmd)
	case "check":
		return s.decideCheck(cmd, r)
	case "move":
		return s.decideMove(cmd)
	default:
		return nil, fray.Errorf(fray.EINTERNAL, "The Combat Queue does not decide the command %q: it is not declared, or declared and not decided.", engine.Clip(cmd.Name))
	}
	if err != nil {
		return nil, err
	}
	return []fray.Event{ev}, nil
}

// decideShared decides a shared command (add, remove, set, note, reveal).
func (s *State) decideShared(cmd fray.Command) ([]fray.Event, error) {
	evs, _, err := s.decideSharedOK(cmd)
	return evs, err
}

// decideSharedOK decides a shared command; handled is false for others.
func (s *State) decideSharedOK(cmd fray.Command) (evs []fray.Event, handled bool, err error) {
	if evs, ok, err := engine.DecideShared(&s.Encounter, cmd, spec); ok {
		if err != nil {
			return nil, true, err
		}
		if evs[0].Type == fray.EventAdded && s.Started {
			var d fray.AddedData
			if err := evs[0].Decode(&d); err == nil && (d.Before != "" || d.After != "") {
				if cur := s.ByID(s.current()); d.Before != "" && cur != nil && d.Before == cur.ID {
					return nil, true, fray.Errorf(fray.EINVALID, "%s is taking their turn at the top of the queue; nobody can be placed above them.", fray.Mention(cur.Name))
				}
				for _, id := range []fray.CombatantID{d.Before, d.After} {
					if id != "" && !slices.Contains(s.Queue, id) {
						return nil, true, fray.Errorf(fray.EINVALID, "%s is not in the queue just now (they reacted); place the newcomer next to someone in it.", fray.Mention(s.NameOf(id)))
					}
				}
			}
		}
		return evs, true, nil
	}
	return nil, false, nil
}

func (s *State) decideOrder(cmd fray.Command) (fray.Event, error) {
	if s.Started {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "The queue is already formed; the tiebreak order only matters at the start.")
	}
	ids := make([]fray.CombatantID, 0, len(cmd.Args))
	for _, a := range cmd.Args {
		c, err := s.Lookup(a)
		if err != nil {
			return fray.Event{}, err
		}
		if slices.Contains(ids, c.ID) {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "%s is named twice.", c)
		}
		ids = append(ids, c.ID)
	}
	return fray.NewEvent(EventTiebreak, namesData{Names: ids})
}

// groupKey begins the key of a group's unit (unitKey).
const groupKey = "group:"

// unitKey returns the key of the unit that rolls for c in a payload
// (initData.Key, initGroup.Key): "group:" and its group's name in lower
// case, or c's id (which holds no colon).
func unitKey(c *fray.Combatant) string {
	if c.Group != "" {
		return groupKey + strings.ToLower(c.Group)
	}
	return string(c.ID)
}

// unitOf returns the unit that rolls for c: its group, or c.
func unitOf(c *fray.Combatant) Unit {
	if c.Group != "" {
		return Unit{Group: strings.ToLower(c.Group)}
	}
	return Unit{ID: c.ID}
}

// unitAt returns the unit a payload's key stands for (unitKey): a group,
// or the combatant of that id.
func unitAt(key string) Unit {
	if g, ok := strings.CutPrefix(key, groupKey); ok {
		return Unit{Group: g}
	}
	return Unit{ID: fray.CombatantID(key)}
}

// groupAt returns the unit of a group's roll (initGroup): the group its
// key names. Where a combatant was called "group:" and the group's name,
// an older log's key became their id (engine.Upgrade); the older rules
// gave the roll to them if they were present and in no group, else to
// the group, that of the members.
func (s *State) groupAt(d initGroup) Unit {
	u := unitAt(d.Key)
	if c := s.ByID(u.ID); u.ID == "" || (c != nil && c.Group == "") || len(d.Members) == 0 {
		return u
	}
	if m := s.ByID(d.Members[0]); m != nil && m.Group != "" {
		return unitOf(m)
	}
	return u
}

func (s *State) decideInitiative(cmd fray.Command, r fray.Roller) (fray.Event, error) {
	if s.Started {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "Initiative is rolled at the start; the queue is already formed.")
	}
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return fray.Event{}, err
	}
	var roll fray.Roll
	if len(cmd.Args) == 2 {
		n, err := strconv.Atoi(cmd.Args[1])
		if err != nil {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "%q is not a d20 face; give a number from 1 to 20.", cmd.Args[1])
		}
		roll, err = engine.RollFaces(c.Name, "1d20", []int{n})
		if err != nil {
			return fray.Event{}, err
		}
	} else {
		roll, err = r.Roll(c.Name, "1d20")
		if err != nil {
			return fray.Event{}, err
		}
		if roll.Source == fray.RollSeeded {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "initiative enters a physical die: initiative %s 14.", c)
		}
	}
	if c.Group == "" {
		return fray.NewEvent(EventInitiative, initData{Key: c.ID}, roll)
	}
	roll.For = c.Group
	d := initGroup{Key: unitKey(c)}
	for _, m := range s.Combatants {
		if strings.EqualFold(m.Group, c.Group) {
			d.Members = append(d.Members, m.ID)
		}
	}
	return fray.NewEvent(EventInitiative, d, roll)
}

func (s *State) decideStart(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	ps, err := s.parties()
	if err != nil {
		return nil, err
	}
	// The odds the roll has, worked out before any die is rolled (E-6).
	odds, err := startOddsOf(cmd, ps)
	if err != nil {
		return nil, err
	}
	var rolls []fray.Roll
	ranked := make([]engine.Ranked, 0, len(ps))
	scores := make(map[fray.CombatantID]int, len(s.Combatants))
	for _, p := range ps {
		roll, ok := s.Initiative[p.unit]
		if !ok {
			var err error
			roll, err = r.Roll(p.name, "1d20")
			if err != nil {
				return nil, err
			}
		}
		rolls = append(rolls, roll)
		score := roll.Total + p.bonus
		pc := 0
		if p.pc {
			pc = 1
		}
		// The parties are in the GM's tiebreak order, which SortRanked
		// keeps for equal keys.
		ranked = append(ranked, engine.Ranked{Name: p.key, Keys: []int{score, pc}})
		for _, m := range p.members {
			scores[m] = score
		}
	}
	byKey := make(map[string]*party, len(ps))
	for _, p := range ps {
		byKey[p.key] = p
	}
	engine.SortRanked(ranked)
	order := make([]fray.CombatantID, 0, len(s.Combatants))
	for _, x := range ranked {
		order = append(order, byKey[x.Name].members...)
	}
	ev, err := fray.NewEvent(fray.EventStarted, startData{Order: order, Scores: scores}, rolls...)
	if err != nil {
		return nil, err
	}
	ev.Odds = &odds
	return []fray.Event{ev}, nil
}

// checkTurn checks an optional NAME against whose turn it is, and
// returns the combatant whose turn it is.
func (s *State) checkTurn(name string) (*fray.Combatant, error) {
	if !s.Started {
		return nil, fray.Errorf(fray.EINVALID, "The encounter has not started; add the combatants, then start.")
	}
	cur := s.ByID(s.current())
	if cur == nil {
		return nil, fray.Errorf(fray.EINVALID, "The queue is empty.")
	}
	if name != "" {
		c, err := s.Lookup(name)
		if err != nil {
			return nil, err
		}
		if c.ID != cur.ID {
			return nil, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", fray.Mention(cur.Name), c)
		}
	}
	return cur, nil
}

func (s *State) decideAct(cmd fray.Command) (fray.Event, error) {
	cur, kind, note, err := s.checkAct(cmd)
	if err != nil {
		return fray.Event{}, err
	}
	return s.actEvent(cur, kind, note)
}

// checkAct checks act [NAME] KIND [note=TEXT] against the rules and
// returns whose action it is, its kind and its note.
func (s *State) checkAct(cmd fray.Command) (cur *fray.Combatant, kind, note string, err error) {
	name, kind := "", cmd.Arg(0)
	if len(cmd.Args) == 2 {
		name, kind = cmd.Args[0], cmd.Args[1]
	}
	kind = strings.ToLower(kind)
	if cur, err = s.checkTurn(name); err != nil {
		return nil, "", "", err
	}
	if err := s.checkFit(cur); err != nil {
		return nil, "", "", err
	}
	switch {
	case len(s.Actions) >= 2:
		return nil, "", "", fray.Errorf(fray.EINVALID, "%s has already taken two actions this turn; next sends them to the bottom of the queue.", fray.Mention(cur.Name))
	case kind == Major && slices.Contains(s.Actions, Major):
		return nil, "", "", fray.Errorf(fray.EINVALID, "%s has already taken a Major action this turn; the second action must be Minor.", fray.Mention(cur.Name))
	}
	note = cmd.Opts["note"]
	if len(note) > 200 {
		return nil, "", "", fray.Errorf(fray.ETOOLARGE, "note= is longer than 200 bytes.")
	}
	return cur, kind, note, nil
}

// checkFit refuses an action or a Reaction of c when c can take none
// the dead, and the Incapacitated, who have lost all their hit
// points; attacks and checks refuse them too.
func (s *State) checkFit(c *fray.Combatant) error {
	switch {
	case s.dead(c):
		return fray.Errorf(fray.EINVALID, "%s is dead.", c)
	case s.incapacitated(c):
		return fray.Errorf(fray.EINVALID, "%s is Incapacitated and cannot act.", c)
	}
	return nil
}

// actEvent returns the event of an action by c, with the combatants its
// note names declared.
func (s *State) actEvent(c *fray.Combatant, kind, note string) (fray.Event, error) {
	if m := s.mentions(note, c); m != nil {
		return fray.NewEvent(EventActed, actNoted{Name: c.ID, Kind: kind, Note: note, Mentions: m})
	}
	return fray.NewEvent(EventActed, actData{Name: c.ID, Kind: kind, Note: note})
}

// mentions returns the other combatants than c whom note's words name
// (engine.Mentions), or nil.
func (s *State) mentions(note string, c *fray.Combatant) []fray.CombatantID {
	return engine.IDs(&s.Encounter, engine.Mentions(&s.Encounter, note, c.Name))
}

func (s *State) decideNext(cmd fray.Command) (fray.Event, error) {
	cur, err := s.checkTurn(cmd.Arg(0))
	if err != nil {
		return fray.Event{}, err
	}
	return fray.NewEvent(EventTurnEnded, fray.NameData{Who: cur.ID})
}

func (s *State) decideReact(cmd fray.Command) (fray.Event, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return fray.Event{}, err
	}
	o, err := s.Lookup(cmd.Opts["to"])
	if err != nil {
		return fray.Event{}, err
	}
	cur, err := s.checkTurn("")
	if err != nil {
		return fray.Event{}, err
	}
	switch {
	case c.ID == o.ID:
		return fray.Event{}, fray.Errorf(fray.EINVALID, "%s cannot react to their own action.", c)
	case c.ID == cur.ID:
		return fray.Event{}, fray.Errorf(fray.EINVALID, "It is %s's own turn; a reaction is taken when it is not.", c)
	case o.ID != cur.ID && !slices.Contains(s.Below, o.ID):
		// A Reaction counters an action: the current actor's, or
		// a Reaction to it this turn. One waiting in the queue, whose
		// turn is to come or over, takes none.
		return fray.Event{}, fray.Errorf(fray.EINVALID, "%s is waiting in the queue, taking no action to counter; a reaction answers %s, whose turn it is, or a reaction to them.", o, fray.Mention(cur.Name))
	}
	if err := s.checkFit(c); err != nil {
		return fray.Event{}, err
	}
	var ally fray.CombatantID
	if name, ok := cmd.Opts[KeyFor]; ok {
		a, err := s.Lookup(name)
		if err != nil {
			return fray.Event{}, err
		}
		if err := s.checkAlly(c, a); err != nil {
			return fray.Event{}, err
		}
		if err := s.checkCover(c, o, a); err != nil {
			return fray.Event{}, err
		}
		ally = a.ID
	}
	note := cmd.Opts["note"]
	if len(note) > 200 {
		return fray.Event{}, fray.Errorf(fray.ETOOLARGE, "note= is longer than 200 bytes.")
	}
	if m := s.mentions(note, c); m != nil {
		return fray.NewEvent(EventReacted, reactNoted{Name: c.ID, To: o.ID, Note: note, For: ally, Mentions: m})
	}
	return fray.NewEvent(EventReacted, reactData{Name: c.ID, To: o.ID, Note: note, For: ally})
}

func quoteName(n string) string {
	if strings.ContainsAny(n, " \"#=\\") {
		return strconv.Quote(n)
	}
	return n
}
