package cinematic

import (
	"slices"

	"fray"
	"fray/rules/kit"
)

// Char is the Cinematic Unisystem bookkeeping of one combatant for the
// current round.
type Char struct {
	ID       fray.CombatantID `json:"id"`                 // the combatant
	Stance   string           `json:"stance,omitempty"`   // declared for this round (C-7)
	Attacked bool             `json:"attacked,omitempty"` // the free attack is used
	Defended bool             `json:"defended,omitempty"` // the free defence is used
	Bonus    bool             `json:"bonus,omitempty"`    // Full Defence's extra defence is used
	Extras   int              `json:"extras,omitempty"`   // extra actions used
	// Stood reports that the character spent the round standing up from
	// Knocked Down (C-6): no action is left.
	Stood bool `json:"stood,omitempty"`
	// Foes lists who has attacked the character this round, each once,
	// for Outnumbered (C-6).
	Foes []fray.CombatantID `json:"foes,omitempty"`
	// Engaged lists who the GM has declared engaging the character this
	// round (engage TARGET NAME…), counted for Outnumbered with Foes
	// (C-6).
	Engaged []fray.CombatantID `json:"engaged,omitempty"`
	// Fired is the shots the character has fired in barrages this round:
	// at most a small clip, MaxShots (C-8).
	Fired int `json:"fired,omitempty"`
}

// Key returns the id of the character's combatant (kit.Keyed).
func (c *Char) Key() fray.CombatantID { return c.ID }

// Budget is what a character has left of a round's actions (C-2, C-7).
type Budget struct {
	// Attack and Defence report whether the free attack and the free
	// defence are left and allowed by the stance.
	Attack, Defence bool
	// Bonus reports whether Full Defence's extra defence is left.
	Bonus bool
	// Extras is the extra actions left; Next the penalty of the next one.
	Extras, Next int
}

// State is the state of a Cinematic Unisystem encounter. It refers to
// combatants by id; View gives their names.
type State struct {
	fray.Encounter
	// Chars holds each combatant's actions this round, in the order added.
	Chars []*Char
	// Rounds is the order of play: the GM's order for characters tied on
	// initiative and Dexterity (C-1), this round's order and the turn in
	// progress.
	kit.Rounds
	// Begun reports that an action has been taken this round, after which
	// no stance may be declared.
	Begun bool
	// Turn holds the actions of the turn in progress, the attacks and
	// defences made so far, reloads and standing up; empty until the
	// first. When the turn ends the history keeps them and Turn goes on
	// in the room after them: the history's turns never grow, and Clone
	// copies Turn, so that room is this state's alone.
	Turn []Act
	// History holds the turns of each round, with the actions taken in
	// each; View says them in words.
	History []HistoryRound
	// Waiting is an attack made with defence=wait, waiting for its
	// target's answer (C-4), or nil.
	Waiting *Waiting `json:"waiting,omitempty"`
}

// HistoryRound is one round of State.History. It is kept smaller than a
// fray.RoundTurns, which View makes of it: a snapshot of the state copies
// the list of every round so far.
type HistoryRound struct {
	Round int           `json:"round"`
	Turns []HistoryTurn `json:"turns"`
}

// HistoryTurn is one turn taken: who took it and the actions they and
// others took in it. View says it, with the names the combatants have
// then: "Master (attack on Slayer; Slayer defends)".
type HistoryTurn struct {
	// Who took the turn.
	Who fray.CombatantID `json:"who"`
	// Acts are the turn's actions, in order; nil for a turn without any.
	Acts []Act `json:"acts,omitempty"`
}

// ActType says what an action of the history is.
type ActType uint8

// Types of Act.
const (
	ActAttack  ActType = iota + 1 // "attack on Vamp"
	ActDefence                    // "Vamp defends against Slayer"
	ActReload                     // "reloads Pistol"
	ActStand                      // "stands up"
)

// Act is one action of a turn, as the history keeps it.
type Act struct {
	// Who is who defends (ActDefence; the others are the taker's).
	Who fray.CombatantID `json:"who,omitempty"`
	// Other is the target of an attack or the attacker defended against,
	// when named and not the one whose turn it is (who is implied).
	Other fray.CombatantID `json:"other,omitempty"`
	// Weapon is the weapon reloaded (ActReload).
	Weapon string `json:"weapon,omitempty"`
	// Modifier is what the roll of an attack or a defence gets.
	Modifier int `json:"modifier,omitempty"`
	// Type is ActAttack, ActDefence, ActReload or ActStand.
	Type ActType `json:"type"`
	// Extra and Bonus report the action an attack or a defence spent: an
	// extra action (ActionExtra) or Full Defence's extra defence
	// (ActionBonus); neither for the free one.
	Extra bool `json:"extra,omitempty"`
	Bonus bool `json:"bonus,omitempty"`
}

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State { return kit.Clone(s) }

// CloneSharing returns a copy of the state that shares the combatants'
// sheets with it (fray.SheetSharer).
func (s *State) CloneSharing() fray.State { return kit.Scratch(s) }

// CloneSharingInto is CloneSharing made in the memory of spare
// (fray.SpareSharer).
func (s *State) CloneSharingInto(spare fray.State) fray.State { return kit.ScratchSpare(s, spare) }

// CopyRest copies all of the state but its encounter into d, in the
// memory d has where it has room (none, for a new state): kit.Copyable.
func (s *State) CopyRest(d *State) {
	d.Rounds = s.Rounds.Clone()
	d.Begun = s.Begun
	d.Turn = kit.CloneInto(d.Turn, s.Turn)
	d.Chars = kit.CloneEachInto(d.Chars, s.Chars, func(c *Char) {
		c.Foes, c.Engaged = slices.Clone(c.Foes), slices.Clone(c.Engaged)
	})
	d.Waiting = nil
	if s.Waiting != nil {
		w := *s.Waiting
		w.Modifiers = cloneMods(w.Modifiers)
		d.Waiting = &w
	}
	// A turn taken, its actions included, is never changed, and a round's
	// turns are only ever appended to (note): the copy shares them, only
	// the list of rounds copied, with the last round's turns capped at
	// their length so that an append to either leaves the other as it was.
	d.History = kit.CloneInto(d.History, s.History)
	if n := len(d.History); n > 0 {
		d.History[n-1].Turns = slices.Clip(d.History[n-1].Turns)
	}
}

// char returns the bookkeeping of the combatant id, or nil.
func (s *State) char(id fray.CombatantID) *Char { return kit.Find(s.Chars, id) }

// who returns the present combatant id and their bookkeeping, or nils.
func (s *State) who(id fray.CombatantID) (*fray.Combatant, *Char) {
	if id == "" {
		return nil, nil
	}
	for i, c := range s.Combatants {
		if c.ID == id {
			if i < len(s.Chars) && s.Chars[i].ID == id {
				return c, s.Chars[i] // the characters follow the combatants
			}
			return c, s.char(id)
		}
	}
	return nil, nil
}

// Initiative returns the named combatant's initiative (C-1):
// ⌊Dexterity × 0.5 + Perception + bonus⌋, where bonus is the stat of that
// name (initiative bonuses).
func (s *State) Initiative(name string) int {
	c := s.Find(name)
	if c == nil {
		return 0
	}
	return initiative(c)
}

func initiative(c *fray.Combatant) int {
	n := c.Stat("dexterity") + 2*(c.Stat("perception")+c.Stat("bonus"))
	if n < 0 {
		return -((-n + 1) / 2)
	}
	return n / 2
}

// Budget returns what the named character has left this round.
func (s *State) Budget(name string) Budget {
	c := s.Find(name)
	if c == nil {
		return Budget{}
	}
	return s.budget(c)
}

// budget returns what the character c has left this round.
func (s *State) budget(c *fray.Combatant) Budget {
	ch := s.char(c.ID)
	if ch == nil || ch.Stood {
		return Budget{}
	}
	return Budget{
		Attack:  !ch.Attacked && ch.Stance != StanceDefence,
		Defence: !ch.Defended && ch.Stance != StanceOffence,
		Bonus:   ch.Stance == StanceDefence && !ch.Bonus,
		Extras:  max(0, ExtraActions(c.Stat("dexterity"))-ch.Extras),
		Next:    -ExtraPenalty * (ch.Extras + 1),
	}
}

// rank orders the combatants by initiative, then Dexterity, then the GM's
// order, then the order they were added (C-1).
func (s *State) rank() []fray.CombatantID {
	type ranked struct {
		id       fray.CombatantID
		init, dx int
		gm       int
	}
	rs := make([]ranked, len(s.Combatants))
	for i, c := range s.Combatants {
		gm := slices.Index(s.Tiebreak, c.ID)
		if gm < 0 {
			gm = len(s.Tiebreak)
		}
		rs[i] = ranked{id: c.ID, init: initiative(c), dx: c.Stat("dexterity"), gm: gm}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if x := b.init - a.init; x != 0 {
			return x
		}
		if x := b.dx - a.dx; x != 0 {
			return x
		}
		return a.gm - b.gm
	})
	var ids []fray.CombatantID
	for _, r := range rs {
		ids = append(ids, r.id)
	}
	return ids
}
