package cinematic

import (
	"slices"

	"fray"
	"fray/engine"
)

// Char is the Cinematic Unisystem bookkeeping of one combatant for the
// current round.
type Char struct {
	Name     string `json:"name"`               // the combatant
	Stance   string `json:"stance,omitempty"`   // declared for this round (C-7)
	Attacked bool   `json:"attacked,omitempty"` // the free attack is used
	Defended bool   `json:"defended,omitempty"` // the free defence is used
	Bonus    bool   `json:"bonus,omitempty"`    // Full Defence's extra defence is used
	Extras   int    `json:"extras,omitempty"`   // extra actions used
	// Stood reports that the character spent the round standing up from
	// Knocked Down (C-6): no action is left.
	Stood bool `json:"stood,omitempty"`
	// Foes lists who has attacked the character this round, each once,
	// for Outnumbered (C-6).
	Foes []string `json:"foes,omitempty"`
	// Engaged lists who the GM has declared engaging the character this
	// round (engage TARGET NAME…), counted for Outnumbered with Foes
	// (C-6).
	Engaged []string `json:"engaged,omitempty"`
	// Fired is the shots the character has fired in barrages this round:
	// at most a small clip, MaxShots (C-8).
	Fired int `json:"fired,omitempty"`
}

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

// State is the state of a Cinematic Unisystem encounter.
type State struct {
	fray.Encounter
	// Chars holds each combatant's actions this round, in the order added.
	Chars []*Char
	// Tiebreak is the GM's order for characters tied on initiative and
	// Dexterity (C-1).
	Tiebreak []string
	// Order is this round's order; Pos the index of the turn in progress,
	// len(Order) when the round is over. Its array is never changed in
	// place (a removal makes a new one), so copies of the state and the
	// history's turns share it.
	Order []string
	Pos   int
	// Begun reports that an action has been taken this round, after which
	// no stance may be declared.
	Begun bool
	// Turn holds the words of the turn in progress, as the history will
	// say it, with the attacks and defences made so far but without the
	// closing parenthesis: "Master (attack on Slayer; Slayer defends";
	// empty until the first. Apply writes each action into it, and makes
	// one string of it when the turn ends; it keeps its room from turn to
	// turn.
	Turn []byte
	// TurnWho lists, each once, the combatants the words of Turn name, the
	// one whose turn it is first, then the targets of attacks, those who
	// defend and those they defend against; nil while the words name
	// nobody but the one whose turn it is.
	TurnWho []string
	// History holds the turns of each round, with the attacks and
	// defences made in each and the combatants each turn names.
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

// HistoryTurn is one turn taken, as the history says it.
type HistoryTurn struct {
	// Text says the turn, beginning with the name of who took it:
	// "Master (attack on Slayer; Slayer defends)".
	Text string `json:"text"`
	// Who lists the combatants Text names, who took the turn first (see
	// fray.RoundTurns.Who). A turn that names its taker alone shares its
	// one name with the round's order.
	Who []string `json:"who"`
}

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State {
	d := &State{
		Encounter: s.CloneEncounter(),
		Tiebreak:  slices.Clone(s.Tiebreak),
		Order:     s.Order,
		Pos:       s.Pos,
		Begun:     s.Begun,
		Turn:      slices.Clone(s.Turn),
		TurnWho:   slices.Clone(s.TurnWho),
	}
	if s.Chars != nil {
		d.Chars = make([]*Char, len(s.Chars))
		for i, c := range s.Chars {
			cc := *c
			cc.Foes = slices.Clone(c.Foes)
			cc.Engaged = slices.Clone(c.Engaged)
			d.Chars[i] = &cc
		}
	}
	if s.Waiting != nil {
		w := *s.Waiting
		w.Modifiers = cloneMods(w.Modifiers)
		d.Waiting = &w
	}
	// A finished round's turns are never changed again, so the copy
	// shares them; only the list and the last round's turns are copied
	// (a turn taken, its names included, is never changed).
	d.History = slices.Clone(s.History)
	if n := len(d.History); n > 0 {
		d.History[n-1].Turns = slices.Clone(d.History[n-1].Turns)
	}
	return d
}

func (s *State) char(name string) *Char {
	for _, c := range s.Chars {
		if fray.SameName(c.Name, name) {
			return c
		}
	}
	return nil
}

// Initiative returns the named combatant's initiative (C-1):
// ⌊Dexterity × 0.5 + Perception + bonus⌋, where bonus is the stat of that
// name (initiative bonuses).
func (s *State) Initiative(name string) int {
	c := s.Find(name)
	if c == nil {
		return 0
	}
	n := c.Stat("dexterity") + 2*(c.Stat("perception")+c.Stat("bonus"))
	if n < 0 {
		return -((-n + 1) / 2)
	}
	return n / 2
}

// Current returns whose turn it is, or "".
func (s *State) Current() string {
	if s.Started && s.Pos < len(s.Order) {
		return s.Order[s.Pos]
	}
	return ""
}

// Budget returns what the named character has left this round.
func (s *State) Budget(name string) Budget {
	c, ch := s.Find(name), s.char(name)
	if c == nil || ch == nil || ch.Stood {
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
func (s *State) rank() []string {
	var names []string
	for _, c := range s.Combatants {
		names = append(names, c.Name)
	}
	gm := func(n string) int {
		if i := engine.Index(s.Tiebreak, n); i >= 0 {
			return i
		}
		return len(s.Tiebreak)
	}
	slices.SortStableFunc(names, func(a, b string) int {
		if x := s.Initiative(b) - s.Initiative(a); x != 0 {
			return x
		}
		if x := s.Find(b).Stat("dexterity") - s.Find(a).Stat("dexterity"); x != 0 {
			return x
		}
		return gm(a) - gm(b)
	})
	return names
}
