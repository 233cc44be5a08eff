package queue

import (
	"maps"
	"slices"
	"strings"

	"fray"
	"fray/rules/kit"
)

// This file is the state of an encounter: the queue, the units that roll
// for it, and the history of each round.

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
	ID fray.CombatantID `json:"id"`
	// To is whom a reaction answered; "" for a turn.
	To fray.CombatantID `json:"to,omitempty"`
	// For is the ally on whose behalf a reaction was taken; "" for none.
	For fray.CombatantID `json:"for,omitempty"`
	// Note is a reaction's note (note=); nil for none.
	Note *TurnNote `json:"note,omitempty"`
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
	Round int    `json:"round"`
	Turns []Turn `json:"turns"`
}

func newState() *State {
	return &State{Initiative: map[Unit]fray.Roll{}, Scores: map[fray.CombatantID]int{}, BelowWhom: map[fray.CombatantID]fray.CombatantID{}}
}

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State { return s.clone(s.CloneEncounter()) }

// CloneSharing returns a copy of the state that shares the combatants'
// sheets with it (fray.SheetSharer).
func (s *State) CloneSharing() fray.State { return s.clone(kit.ScratchEncounter(&s.Encounter)) }

// clone copies the state around the encounter enc.
func (s *State) clone(enc fray.Encounter) *State {
	d := *s
	d.Encounter = enc
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
	d.Fighters = kit.CloneEach(s.Fighters, func(f *Fighter) {
		f.Weapons = slices.Clone(f.Weapons)
		f.Injuries = slices.Clone(f.Injuries)
	})
	return &d
}

// current returns the id of whoever takes their turn, or "".
func (s *State) current() fray.CombatantID {
	if !s.Started || len(s.Queue) == 0 {
		return ""
	}
	return s.Queue[0]
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
