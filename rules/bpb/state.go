package bpb

import (
	"maps"
	"slices"

	"fray"
	"fray/engine"
)

// Kinds of turn in a round's sequence.
const (
	kindRegular = "regular" // a combatant's turn in the order of play
	kindDelayed = "delayed" // a delayed turn taken later (B-6)
	kindForced  = "forced"  // a forced defensive action (B-7)
)

// Marks of a turn in a round's sequence.
const (
	markPending = ""        // still to come (or in progress when at Pos)
	markActed   = "acted"   // taken
	markDelayed = "delayed" // delayed by its owner and held for later
	markForced  = "forced"  // spent by an earlier forced action
	markLost    = "lost"    // lost to a forced action in an earlier round
)

// Turn is one turn in a round's sequence.
type Turn struct {
	Name string `json:"name" fray:"who"`
	// Kind is regular, delayed or forced.
	Kind string `json:"kind"`
	// Mark is "" (pending), acted, delayed, forced or lost.
	Mark string `json:"mark,omitempty"`
	// From is the round whose turn a delayed or forced turn spends.
	From int `json:"from,omitempty"`
	// Noted holds the words that replace the default ones in the
	// history, as in "Monolith (blocks attack by Ganyeka)", with whom
	// they mention; nil for none (most turns). It is set once and never
	// changed in place, so copies of the turn share it.
	Noted *TurnNote `json:"noted,omitempty"`
	// Env marks the environment's turn.
	Env bool `json:"env,omitempty"`
	// Began marks a turn whose start has been reported to the engine's
	// conditions (engine.TurnEdge).
	Began bool `json:"began,omitempty"`
}

// TurnNote is a turn's own words and the other combatants they mention.
type TurnNote struct {
	Text string `json:"text"`
	// Mentions names the other combatants the words mention (nil for
	// none); the slot's About and the history's Who declare them.
	Mentions []string `json:"mentions,omitempty" fray:"who"`
}

// note returns the turn's own words, or "".
func (t Turn) note() string {
	if t.Noted == nil {
		return ""
	}
	return t.Noted.Text
}

// noted returns the note for the words text that mention m, or nil for
// no words.
func noted(text string, m []string) *TurnNote {
	if text == "" {
		return nil
	}
	return &TurnNote{Text: text, Mentions: m}
}

// LostTurn is a future round's turn spent in advance by a forced action.
type LostTurn struct {
	Name  string `json:"name" fray:"who"`
	Round int    `json:"round"`
}

// State is the state of a Bulletproof Blues encounter.
type State struct {
	fray.Encounter
	// Declared is the order the GM declared with the order command before
	// the start; in a rolled order it breaks ties.
	Declared []string
	// Order is the standing order of play of the aware characters; the
	// environment follows it. Changes to it take effect from the next round.
	Order []string
	// Seq is this round's sequence of turns, including delayed and forced
	// turns where they were taken.
	Seq []Turn
	// Pos is the index in Seq of the turn in progress; len(Seq) when
	// nobody can act.
	Pos int
	// Held maps a combatant holding a delayed turn to the round it was
	// delayed in.
	Held map[string]int
	// Forced maps a combatant to the last round in which they forced an
	// action.
	Forced map[string]int
	// Lost lists turns of future rounds already spent by forced actions.
	Lost []LostTurn
	// Initiative holds the physical dice entered for the rolled order,
	// by combatant.
	Initiative map[string]fray.Roll
	// History holds the turns taken in each finished round, with the
	// combatants their words mention (Who, in a round where a turn's
	// note mentions another).
	History []fray.RoundTurns
	// Pending is an attack that has hit and waits for a block, dodge or
	// take (B-8); nil when none does.
	Pending *Hit
	// Awards lists the experience awards of this story arc (B-12).
	Awards []awardData
	// Began holds the conditions the start of the turn in progress ended,
	// so that a delayed turn pre-empting that turn gives them back (E-4).
	Began []EndedCondition
}

// EndedCondition is a condition that the start of a turn ended, with its
// holder.
type EndedCondition struct {
	Holder    string         `json:"holder" fray:"who"`
	Condition fray.Condition `json:"condition"`
}

func newState() *State {
	return &State{
		Held:       map[string]int{},
		Forced:     map[string]int{},
		Initiative: map[string]fray.Roll{},
	}
}

// Clone returns a deep copy of the state.
func (s *State) Clone() fray.State {
	d := *s
	d.Encounter = s.Encounter.CloneEncounter()
	d.Declared = slices.Clone(s.Declared)
	d.Order = slices.Clone(s.Order)
	d.Seq = slices.Clone(s.Seq) // the turns' notes are shared (see Noted)
	d.Held = maps.Clone(s.Held)
	d.Forced = maps.Clone(s.Forced)
	d.Lost = slices.Clone(s.Lost)
	d.Initiative = make(map[string]fray.Roll, len(s.Initiative))
	for k, r := range s.Initiative {
		r.Dice = slices.Clone(r.Dice)
		d.Initiative[k] = r
	}
	// A finished round is never changed again and rounds are only ever
	// appended, so the copy shares the list, clipped: an append to
	// either one then moves it to an array of its own.
	d.History = slices.Clip(s.History)
	if s.Pending != nil {
		h := *s.Pending
		d.Pending = &h
	}
	d.Awards = slices.Clone(s.Awards)
	if s.Began != nil {
		d.Began = make([]EndedCondition, len(s.Began))
		for i, x := range s.Began {
			d.Began[i] = EndedCondition{Holder: x.Holder, Condition: x.Condition.Clone()}
		}
	}
	return &d
}

// begin reports the start of the turn in progress to the conditions, once
// per turn (E-4: conditions anchored to the start of a turn end then).
//
// The conditions it ends are kept in Began until the next turn starts:
// a delayed turn that pre-empts this one (B-6) comes before it, so
// preempt gives them back and this turn starts again after it.
func (s *State) begin() {
	t := s.current()
	if t == nil || t.Began {
		return
	}
	t.Began = true
	s.Began = nil
	for _, c := range s.Combatants {
		for _, x := range c.Conditions {
			if u := x.Until; u != nil && u.Edge == fray.EdgeStart && s.Round >= u.Round && fray.SameName(u.Name, t.Name) {
				s.Began = append(s.Began, EndedCondition{Holder: c.Name, Condition: x.Clone()})
			}
		}
	}
	engine.TurnEdge(&s.Encounter, s.Round, t.Name, fray.EdgeStart)
}

// preempt undoes the start of the turn a delayed turn (just inserted at
// Pos) pre-empts: the conditions that start ended come back, and the turn
// will start again when it resumes (E-4).
func (s *State) preempt() {
	if s.Pos+1 >= len(s.Seq) || !s.Seq[s.Pos+1].Began {
		return
	}
	s.Seq[s.Pos+1].Began = false
	for _, x := range s.Began {
		if c := s.Find(x.Holder); c != nil && c.Condition(x.Condition.Name) == nil {
			c.Conditions = append(c.Conditions, x.Condition.Clone())
		}
	}
	s.Began = nil
}

// current returns the turn in progress, or nil.
func (s *State) current() *Turn {
	if !s.Started || s.Pos >= len(s.Seq) {
		return nil
	}
	return &s.Seq[s.Pos]
}

// currentName returns whose turn it is, or "".
func (s *State) currentName() string {
	if t := s.current(); t != nil {
		return t.Name
	}
	return ""
}

// environment returns the names of the environment combatants, in the
// order they were added.
func (s *State) environment() []string {
	var out []string
	for _, c := range s.Combatants {
		if c.Kind == fray.KindEnvironment {
			out = append(out, c.Name)
		}
	}
	return out
}

// hasTurns reports whether anyone has a place in the order of play.
func (s *State) hasTurns() bool {
	if len(s.Order) > 0 {
		return true
	}
	for _, c := range s.Combatants {
		if c.Kind == fray.KindEnvironment {
			return true
		}
	}
	return false
}

// lostIn reports whether name's turn in round r is already spent.
func (s *State) lostIn(name string, r int) bool {
	return slices.ContainsFunc(s.Lost, func(l LostTurn) bool { return l.Round == r && fray.SameName(l.Name, name) })
}

// startRound begins round r: its sequence is the standing order, then the
// environment; turns spent in advance are marked lost.
func (s *State) startRound(r int) {
	s.Round = r
	engine.TurnEdge(&s.Encounter, r, "", fray.EdgeStart)
	// The live state owns Seq (Clone copies it), so its array is reused.
	s.Seq = s.Seq[:0]
	for _, n := range s.Order {
		t := Turn{Name: n, Kind: kindRegular}
		if s.lostIn(n, r) {
			t.Mark = markLost
		}
		s.Seq = append(s.Seq, t)
	}
	s.Lost = slices.DeleteFunc(s.Lost, func(l LostTurn) bool { return l.Round <= r })
	for _, c := range s.Combatants {
		if c.Kind == fray.KindEnvironment {
			s.Seq = append(s.Seq, Turn{Name: c.Name, Kind: kindRegular, Env: true})
		}
	}
	s.Pos = 0
}

// endRound files this round's turns in the history.
func (s *State) endRound() {
	engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
	s.History = append(s.History, s.roundHistory())
}

// roundHistory returns this round's turns so far (see roundTurns) with
// the combatants each turn's words mention (see roundWho).
func (s *State) roundHistory() fray.RoundTurns {
	return fray.RoundTurns{Round: s.Round, Turns: s.roundTurns(), Who: s.roundWho()}
}

// roundTurns lists the turns taken so far this round, the one in progress
// included, in the seeds' words.
//
// A forced action that spends a turn later in the same round is listed in
// the place of the turn it spends, as seed 000 lists Ganyeka's forced
// dodge in round 3 ("Blueshift, Monolith, Ganyeka (dodges an attack by
// Blueshift)"); one that spends a held turn or a later round's turn is
// listed where it was taken ("Blueshift (forced from round 7)").
func (s *State) roundTurns() []string {
	out := []string{}
	for i := range s.Seq {
		if t, ok := s.listed(i); ok {
			out = append(out, s.turnText(t))
		}
	}
	return out
}

// roundWho returns the Who of the turns roundTurns lists: for each, the
// one who took it, then the others its words mention. It is nil in a
// round where no turn mentions another (most rounds), which declares the
// same.
func (s *State) roundWho() [][]string {
	if !slices.ContainsFunc(s.Seq, func(t Turn) bool { return t.Noted != nil && t.Noted.Mentions != nil }) {
		return nil // no turn of the round has words that mention another
	}
	n, mentions := 0, false
	for i := range s.Seq {
		if t, ok := s.listed(i); ok {
			n++
			mentions = mentions || s.turnMentions(t) != nil
		}
	}
	if !mentions {
		return nil
	}
	who := make([][]string, 0, n)
	for i := range s.Seq {
		if t, ok := s.listed(i); ok {
			who = append(who, append([]string{t.Name}, s.turnMentions(t)...))
		}
	}
	return who
}

// listed returns the turn roundTurns lists at the place i of this round's
// sequence, if any.
func (s *State) listed(i int) (Turn, bool) {
	t := s.Seq[i]
	switch {
	case t.Kind == kindForced && t.From == s.Round && s.spendsLater(i):
		// Listed at the turn it spends.
	case t.Kind == kindRegular && t.Mark == markForced:
		if j := s.spender(i); j >= 0 {
			return s.Seq[j], true
		}
	case t.Mark == markActed || (i == s.Pos && t.Mark == markPending):
		return t, true
	}
	return Turn{}, false
}

// turnMentions returns the other combatants a turn's words (see
// turnWords) mention: its note's mentions, when the words are its note.
func (s *State) turnMentions(t Turn) []string {
	if t.Noted == nil {
		return nil
	}
	return t.Noted.Mentions
}

// spendsLater reports whether the forced turn at i spent a regular turn
// later in this round's sequence.
func (s *State) spendsLater(i int) bool {
	t := s.Seq[i]
	for j := i + 1; j < len(s.Seq); j++ {
		if u := s.Seq[j]; u.Kind == kindRegular && u.Mark == markForced && fray.SameName(u.Name, t.Name) {
			return s.spender(j) == i
		}
	}
	return false
}

// spender returns the index of the forced turn that spent the regular
// turn at j (the last forced turn of that name before it with From this
// round), or -1.
func (s *State) spender(j int) int {
	name := s.Seq[j].Name
	for i := j - 1; i >= 0; i-- {
		if u := s.Seq[i]; u.Kind == kindForced && u.From == s.Round && fray.SameName(u.Name, name) {
			return i
		}
	}
	return -1
}

// turnText says a turn as the seed does: "Blueshift (delayed)",
// "Blueshift (forced from round 7)".
func (s *State) turnText(t Turn) string {
	if words := s.turnWords(t); words != "" {
		return t.Name + " (" + words + ")"
	}
	return t.Name
}

// turnWords returns the words in brackets after a turn's name: its note,
// or what kind of turn it is.
func (s *State) turnWords(t Turn) string {
	words := t.note()
	if words == "" {
		switch t.Kind {
		case kindDelayed:
			words = "delayed"
			if t.From != s.Round {
				words += " from round " + itoa(t.From)
			}
		case kindForced:
			words = "forced"
			if t.From > s.Round {
				words += " from round " + itoa(t.From)
			}
		}
	}
	return words
}

// settle moves Pos to the next turn that can be taken, ending rounds as
// needed, and lapses a delayed turn whose owner's regular turn comes up
// (B-6, ours). It stops with nobody current when nobody can act.
func (s *State) settle() {
	for guard := 0; ; guard++ {
		for s.Pos < len(s.Seq) && s.Seq[s.Pos].Mark != markPending {
			s.Pos++
		}
		if s.Pos < len(s.Seq) {
			if t := s.Seq[s.Pos]; t.Kind == kindRegular {
				delete(s.Held, t.Name)
			}
			return
		}
		if !s.hasTurns() || guard > len(s.Lost)+1 {
			return
		}
		s.endRound()
		s.startRound(s.Round + 1)
	}
}

// forceCost works out which turn a forced action by name spends: a held
// delayed turn, this round's turn still to come (its index in Seq), or the
// turn of a later round.
func (s *State) forceCost(name string) (held bool, idx int, round int) {
	if _, ok := s.Held[name]; ok {
		return true, -1, s.Round
	}
	for i := s.Pos + 1; i < len(s.Seq); i++ {
		if t := s.Seq[i]; t.Kind == kindRegular && t.Mark == markPending && fray.SameName(t.Name, name) {
			return false, i, s.Round
		}
	}
	r := s.Round + 1
	for s.lostIn(name, r) {
		r++
	}
	return false, -1, r
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
