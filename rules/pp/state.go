package pp

import (
	"slices"

	"fray"
	"fray/rules/kit"
)

// Char is the P&P bookkeeping of one combatant.
type Char struct {
	ID     fray.CombatantID `json:"id"`               // the combatant
	Role   string           `json:"role"`             // hero, villain, foe or extra
	Minion bool             `json:"minion,omitempty"` // whether a minion
}

// Key returns the id of the character's combatant (kit.Keyed).
func (c *Char) Key() fray.CombatantID { return c.ID }

// State is the state of a P&P encounter. It refers to combatants by id
// (fray.CombatantID), as the payloads do; their names are looked up when
// the view is drawn or an event's words are written, so that a rename
// changes nothing else.
type State struct {
	fray.Encounter
	// Chars holds each combatant's role, in the order added.
	Chars []*Char
	// Rounds is the order of play: the GM's order for characters tied on
	// Edge and role, this page's order and the turn in progress.
	kit.Rounds
	// Actions counts the actions taken in the turn in progress.
	Actions int
	// Taken counts the actions taken in each finished turn of this page,
	// by position in Order.
	Taken []int
	// History holds the turns taken on each page.
	History []Page
	// Res holds what challenge rolls and combat keep (challenge.go).
	Res Resolution
}

// Page is the history of one page (round): the turns taken on it, in
// order. The view says them in words (Turn.words) with the names the
// combatants have when it is drawn.
type Page struct {
	Round int
	Turns []Turn
}

// Turn is one turn taken: whose, and how many actions it took.
type Turn struct {
	ID      fray.CombatantID
	Actions int
}

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State { return s.clone(s.CloneEncounter()) }

// CloneSharing returns a copy of the state that shares the combatants'
// sheets with it (fray.SheetSharer).
func (s *State) CloneSharing() fray.State { return s.clone(kit.ScratchEncounter(&s.Encounter)) }

// clone copies the state around the encounter enc.
func (s *State) clone(enc fray.Encounter) *State {
	d := &State{
		Encounter: enc,
		Rounds:    s.Rounds.Clone(),
		Actions:   s.Actions,
		Taken:     slices.Clone(s.Taken),
		Res:       s.Res.clone(),
	}
	d.Chars = kit.CloneEach(s.Chars, nil)
	// A turn taken is never changed, and a page's turns are only ever
	// appended to: the copy shares them, only the list of pages copied,
	// with the last page's turns capped at their length so that an append
	// to either leaves the other as it was.
	d.History = slices.Clone(s.History)
	if n := len(d.History); n > 0 {
		d.History[n-1].Turns = slices.Clip(d.History[n-1].Turns)
	}
	return d
}

// char returns the bookkeeping of the combatant id, or nil.
func (s *State) char(id fray.CombatantID) *Char { return kit.Find(s.Chars, id) }

// presentID returns the id of the present combatant called name, or ""
// (IDOf also finds the departed).
func (s *State) presentID(name string) fray.CombatantID {
	if c := s.Find(name); c != nil {
		return c.ID
	}
	return ""
}

// Edge returns the named combatant's Edge: Perception plus the higher of
// Agility and Intellect, or the edge stat when they were added with one.
func (s *State) Edge(name string) int { return s.edge(s.presentID(name)) }

func (s *State) edge(id fray.CombatantID) int {
	if c := s.ByID(id); c != nil {
		return edgeOf(c)
	}
	return 0
}

// edgeOf is edge for the combatant c.
func edgeOf(c *fray.Combatant) int {
	if e, ok := c.Stats["edge"]; ok {
		return e
	}
	return c.Stat("perception") + max(c.Stat("agility"), c.Stat("intellect"))
}

// Current returns the name of whose turn it is, or "".
func (s *State) Current() string {
	if id := s.current(); id != "" {
		return s.NameOf(id)
	}
	return ""
}

// current returns the id of whose turn it is, or "".
func (s *State) current() fray.CombatantID { return s.Rounds.Current() }

// Penalty returns the dice the current turn's extra actions take off its
// rolls (P-10): 2 per action after the first. It is 0 for anyone but the
// character whose turn it is.
func (s *State) Penalty(name string) int { return s.penalty(s.presentID(name)) }

func (s *State) penalty(id fray.CombatantID) int {
	if cur := s.current(); cur == "" || cur != id || s.Actions < 2 {
		return 0
	}
	return ExtraActionPenalty * (s.Actions - 1)
}

// rank orders the combatants by Edge (P-10): minions last; then higher
// Edge; then heroes, villains, foes, extras; then the GM's order; then the
// order they were added.
func (s *State) rank() []fray.CombatantID {
	if len(s.Combatants) == 0 {
		return nil
	}
	// Each combatant's place is worked out once, not at every comparison.
	type place struct {
		id             fray.CombatantID
		minion         bool
		edge, role, gm int
	}
	var room [16]place
	places := room[:0]
	for _, c := range s.Combatants {
		ch := s.char(c.ID)
		gm := slices.Index(s.Tiebreak, c.ID)
		if gm < 0 {
			gm = len(s.Tiebreak)
		}
		places = append(places, place{id: c.ID, minion: ch.Minion, edge: edgeOf(c), role: slices.Index(roles, ch.Role), gm: gm})
	}
	slices.SortStableFunc(places, func(a, b place) int {
		if a.minion != b.minion {
			if a.minion {
				return 1
			}
			return -1
		}
		if x := b.edge - a.edge; x != 0 {
			return x
		}
		if x := a.role - b.role; x != 0 {
			return x
		}
		return a.gm - b.gm
	})
	ids := make([]fray.CombatantID, len(places))
	for i, p := range places {
		ids[i] = p.id
	}
	return ids
}
