package pp

import (
	"slices"

	"fray"
	"fray/engine"
)

// Char is the P&P bookkeeping of one combatant.
type Char struct {
	Name   string `json:"name"`             // the combatant
	Role   string `json:"role"`             // hero, villain, foe or extra
	Minion bool   `json:"minion,omitempty"` // whether a minion
}

// State is the state of a P&P encounter.
type State struct {
	fray.Encounter
	// Chars holds each combatant's role, in the order added.
	Chars []*Char
	// Tiebreak is the GM's order for characters tied on Edge and role.
	Tiebreak []string
	// Order is this page's order of play; Pos the index of the turn in
	// progress, len(Order) when the page is over.
	Order []string
	Pos   int
	// Actions counts the actions taken in the turn in progress.
	Actions int
	// Taken counts the actions taken in each finished turn of this page,
	// by position in Order.
	Taken []int
	// History holds the turns taken on each page.
	History []fray.RoundTurns
	// Res holds what challenge rolls and combat keep (challenge.go).
	Res Resolution
}

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State {
	d := &State{
		Encounter: s.CloneEncounter(),
		Tiebreak:  slices.Clone(s.Tiebreak),
		Order:     slices.Clone(s.Order),
		Pos:       s.Pos,
		Actions:   s.Actions,
		Taken:     slices.Clone(s.Taken),
		Res:       s.Res.clone(),
	}
	if s.Chars != nil {
		d.Chars = make([]*Char, len(s.Chars))
		for i, c := range s.Chars {
			cc := *c
			d.Chars[i] = &cc
		}
	}
	// A finished page's turns are never changed again, so the copy
	// shares them; only the list and the last page's turns are copied.
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

// Edge returns the named combatant's Edge: Perception plus the higher of
// Agility and Intellect, or the edge stat when they were added with one.
func (s *State) Edge(name string) int {
	c := s.Find(name)
	if c == nil {
		return 0
	}
	if e, ok := c.Stats["edge"]; ok {
		return e
	}
	return c.Stat("perception") + max(c.Stat("agility"), c.Stat("intellect"))
}

// Current returns whose turn it is, or "".
func (s *State) Current() string {
	if s.Started && s.Pos < len(s.Order) {
		return s.Order[s.Pos]
	}
	return ""
}

// Penalty returns the dice the current turn's extra actions take off its
// rolls (P-10): 2 per action after the first. It is 0 for anyone but the
// character whose turn it is.
func (s *State) Penalty(name string) int {
	if cur := s.Current(); cur == "" || !fray.SameName(cur, name) || s.Actions < 2 {
		return 0
	}
	return ExtraActionPenalty * (s.Actions - 1)
}

// rank orders the combatants by Edge (P-10): minions last; then higher
// Edge; then heroes, villains, foes, extras; then the GM's order; then the
// order they were added.
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
		ca, cb := s.char(a), s.char(b)
		if ca.Minion != cb.Minion {
			if ca.Minion {
				return 1
			}
			return -1
		}
		if x := s.Edge(b) - s.Edge(a); x != 0 {
			return x
		}
		if x := slices.Index(roles, ca.Role) - slices.Index(roles, cb.Role); x != 0 {
			return x
		}
		return gm(a) - gm(b)
	})
	return names
}
