package bpb

import (
	"maps"
	"slices"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
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
	// ID is whose turn it is.
	ID fray.CombatantID `json:"id"`
	// Kind is regular, delayed or forced.
	Kind string `json:"kind"`
	// Mark is "" (pending), acted, delayed, forced or lost.
	Mark string `json:"mark,omitempty"`
	// From is the round whose turn a delayed or forced turn spends.
	From int `json:"from,omitempty"`
	// Noted holds the words that replace the default ones in the
	// history, as in "Monolith (blocks attack by Ganyeka)", with whom
	// they mention; nil for none (most turns). It is set once and never
	// changed in place, so copies of the turn (and the history) share it.
	Noted *TurnNote `json:"noted,omitempty"`
	// Env marks the environment's turn.
	Env bool `json:"env,omitempty"`
	// Began marks a turn whose start has been reported to the engine's
	// conditions (engine.TurnEdge).
	Began bool `json:"began,omitempty"`
}

// TurnNote is a turn's own words and the other combatants they mention.
type TurnNote struct {
	// Text is the words as the GM typed them. For the words the rules
	// write for a forced block or dodge ("blocks attack by Ganyeka"), it
	// is the words before the attacker's name (see By).
	Text string `json:"text"`
	// By is the attacker a forced block or dodge answers when the rules
	// wrote its words: they end with the attacker's name as it is now.
	By fray.CombatantID `json:"by,omitempty"`
	// Mentions lists the other combatants the words mention (nil for
	// none); the slot's About and the history's Who declare them.
	Mentions []fray.CombatantID `json:"mentions,omitempty"`
}

// noted returns the note for the words text that mention m (as the
// payload of the event that records them holds them, which the note then
// owns), or nil for no words. The words of a forced defence (see
// defenceVerbs), which end with the name of the one attacker they
// mention as it is when the event applies, keep their attacker as an id,
// so that they say the attacker's name as it is when they are shown.
func (s *State) noted(text string, m []fray.CombatantID) *TurnNote {
	if text == "" {
		return nil
	}
	n := &TurnNote{Text: text, Mentions: m}
	if len(m) == 1 {
		for _, verb := range defenceVerbs {
			if strings.HasPrefix(text, verb) && text[len(verb):] == s.NameOf(m[0]) {
				n.Text, n.By = verb, m[0]
				break
			}
		}
	}
	return n
}

// words returns the note's words as they are said now, or "" for none.
func (s *State) words(n *TurnNote) string {
	switch {
	case n == nil:
		return ""
	case n.By != "":
		return n.Text + s.NameOf(n.By)
	}
	return n.Text
}

// LostTurn is a future round's turn spent in advance by a forced action.
type LostTurn struct {
	ID    fray.CombatantID `json:"id"`
	Round int              `json:"round"`
}

// TakenTurn is a turn as the history keeps it: who took it, what kind
// of turn it was, the round whose turn it spent, and its own words.
type TakenTurn struct {
	ID    fray.CombatantID `json:"id"`
	Kind  string           `json:"kind"`
	From  int              `json:"from,omitempty"`
	Noted *TurnNote        `json:"noted,omitempty"`
}

// PastRound is a finished round as the history keeps it: the turns
// taken, in the order its history lists them (see taken). The view says
// them in words (see said), with the names the combatants have when it
// is shown.
type PastRound struct {
	Round int         `json:"round"`
	Turns []TakenTurn `json:"turns"`
}

// State is the state of a Bulletproof Blues encounter.
type State struct {
	fray.Encounter
	// Declared is the order the GM declared with the order command before
	// the start; in a rolled order it breaks ties.
	Declared []fray.CombatantID
	// Order is the standing order of play of the aware characters; the
	// environment follows it. Changes to it take effect from the next round.
	Order []fray.CombatantID
	// Seq is this round's sequence of turns, including delayed and forced
	// turns where they were taken.
	Seq []Turn
	// Pos is the index in Seq of the turn in progress; len(Seq) when
	// nobody can act.
	Pos int
	// Held maps a combatant holding a delayed turn to the round it was
	// delayed in.
	Held map[fray.CombatantID]int
	// Forced maps a combatant to the last round in which they forced an
	// action.
	Forced map[fray.CombatantID]int
	// Lost lists turns of future rounds already spent by forced actions.
	Lost []LostTurn
	// Initiative holds the physical dice entered for the rolled order,
	// by combatant (without their For: the roll is for the combatant
	// whose entry it is, whatever they are called when it is used).
	Initiative map[fray.CombatantID]fray.Roll
	// History holds the turns taken in each finished round; the view
	// says them in words.
	History []PastRound
	// Pending is an attack that has hit and waits for a block, dodge or
	// take (B-8); nil when none does.
	Pending *Hit
	// Awards lists the experience awards of this story arc (B-12).
	Awards []Award
	// Vehicles maps an environment participant under a character's
	// control to its controller (B-5).
	Vehicles map[fray.CombatantID]Vehicle `json:",omitempty"`
	// Began holds the conditions the start of the turn in progress ended,
	// so that a delayed turn pre-empting that turn gives them back (E-4).
	Began []EndedCondition
}

// EndedCondition is a condition that the start of a turn ended, with its
// holder.
type EndedCondition struct {
	Holder    fray.CombatantID `json:"holder"`
	Condition fray.Condition   `json:"condition"`
}

// Award is an experience award of the story arc (B-12).
type Award struct {
	ID     fray.CombatantID `json:"id"`
	Award  string           `json:"award"`
	Points int              `json:"points"`
}

func newState() *State {
	return &State{
		Held:       map[fray.CombatantID]int{},
		Forced:     map[fray.CombatantID]int{},
		Initiative: map[fray.CombatantID]fray.Roll{},
	}
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
	d.Declared = slices.Clone(s.Declared)
	d.Order = slices.Clone(s.Order)
	d.Seq = slices.Clone(s.Seq) // the turns' notes are shared (see Noted)
	d.Held = maps.Clone(s.Held)
	d.Forced = maps.Clone(s.Forced)
	d.Lost = slices.Clone(s.Lost)
	d.Initiative = make(map[fray.CombatantID]fray.Roll, len(s.Initiative))
	for k, r := range s.Initiative {
		r.Dice = slices.Clone(r.Dice)
		d.Initiative[k] = r
	}
	// A finished round is never changed again (nor are its turns) and
	// rounds are only ever appended, so the copy shares the list,
	// clipped: an append to either one then moves it to an array of its
	// own.
	d.History = slices.Clip(s.History)
	if s.Pending != nil {
		h := *s.Pending
		d.Pending = &h
	}
	d.Awards = slices.Clone(s.Awards)
	d.Vehicles = maps.Clone(s.Vehicles)
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
			if u := x.Until; u != nil && u.Edge == fray.EdgeStart && s.Round >= u.Round && u.ID == t.ID {
				s.Began = append(s.Began, EndedCondition{Holder: c.ID, Condition: x.Clone()})
			}
		}
	}
	engine.TurnEdge(&s.Encounter, s.Round, t.ID, fray.EdgeStart)
}

// preempt undoes the start of the turn a delayed turn (just inserted at
// Pos) pre-empts: the conditions that start ended come back, and the turn
// will start again when it resumes (E-4). They come back with the names
// their combatants have now, as the engine keeps a condition's names up
// to date with its ids (a rename since changed only the conditions in
// play).
func (s *State) preempt() {
	if s.Pos+1 >= len(s.Seq) || !s.Seq[s.Pos+1].Began {
		return
	}
	s.Seq[s.Pos+1].Began = false
	for _, x := range s.Began {
		if c := s.ByID(x.Holder); c != nil && c.Condition(x.Condition.Name) == nil {
			cond := x.Condition.Clone()
			if cond.ByID != "" {
				cond.By = s.NameOf(cond.ByID)
			}
			if u := cond.Until; u != nil && u.ID != "" {
				u.Name = s.NameOf(u.ID)
			}
			c.Conditions = append(c.Conditions, cond)
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

// currentID returns whose turn it is, or "".
func (s *State) currentID() fray.CombatantID {
	if t := s.current(); t != nil {
		return t.ID
	}
	return ""
}

// currentName returns the name of whose turn it is, or "".
func (s *State) currentName() string {
	if t := s.current(); t != nil {
		return s.NameOf(t.ID)
	}
	return ""
}

// environment returns the environment combatants, in the order they
// were added.
func (s *State) environment() []*fray.Combatant {
	var out []*fray.Combatant
	for _, c := range s.Combatants {
		if c.Kind == fray.KindEnvironment {
			out = append(out, c)
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

// lostIn reports whether id's turn in round r is already spent.
func (s *State) lostIn(id fray.CombatantID, r int) bool {
	return slices.ContainsFunc(s.Lost, func(l LostTurn) bool { return l.Round == r && l.ID == id })
}

// startRound begins round r: its sequence is the standing order, then the
// environment; turns spent in advance are marked lost.
func (s *State) startRound(r int) {
	s.Round = r
	engine.TurnEdge(&s.Encounter, r, "", fray.EdgeStart)
	// The live state owns Seq (Clone copies it), so its array is reused.
	s.Seq = s.Seq[:0]
	for _, id := range s.Order {
		t := Turn{ID: id, Kind: kindRegular}
		if s.lostIn(id, r) {
			t.Mark = markLost
		}
		s.Seq = append(s.Seq, t)
	}
	s.Lost = slices.DeleteFunc(s.Lost, func(l LostTurn) bool { return l.Round <= r })
	for _, c := range s.Combatants {
		if c.Kind == fray.KindEnvironment {
			s.Seq = append(s.Seq, Turn{ID: c.ID, Kind: kindRegular, Env: true})
		}
	}
	s.Pos = 0
}

// endRound files this round's turns in the history.
func (s *State) endRound() {
	engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
	s.History = append(s.History, PastRound{Round: s.Round, Turns: s.taken()})
}

// taken lists the turns taken so far this round, the one in progress
// included, in the order the history lists them.
//
// A forced action that spends a turn later in the same round is listed in
// the place of the turn it spends, as seed 000 lists Ganyeka's forced
// dodge in round 3 ("Blueshift, Monolith, Ganyeka (dodges an attack by
// Blueshift)"); one that spends a held turn or a later round's turn is
// listed where it was taken ("Blueshift (forced from round 7)").
func (s *State) taken() []TakenTurn {
	n := 0
	for i := range s.Seq {
		if _, ok := s.listed(i); ok {
			n++
		}
	}
	out := make([]TakenTurn, 0, n)
	for i := range s.Seq {
		if t, ok := s.listed(i); ok {
			out = append(out, TakenTurn{ID: t.ID, Kind: t.Kind, From: t.From, Noted: t.Noted})
		}
	}
	return out
}

// said returns the turns of round r in the seeds' words, with the names
// the combatants have now, and the combatants each turn's words mention
// (Who): for each turn, the one who took it, then the others its words
// mention.
func (s *State) said(r int, turns []TakenTurn) fray.RoundTurns {
	out := fray.RoundTurns{Round: r, Turns: make([]string, len(turns))}
	for i, t := range turns {
		out.Turns[i] = s.turnText(t, r)
	}
	out.Who = make([][]string, len(turns))
	for i, t := range turns {
		who := []string{s.NameOf(t.ID)}
		if t.Noted != nil {
			for _, id := range t.Noted.Mentions {
				who = append(who, s.NameOf(id))
			}
		}
		out.Who[i] = who
	}
	return out
}

// history returns the history of every round, this one so far included,
// in words.
func (s *State) history() []fray.RoundTurns {
	out := make([]fray.RoundTurns, 0, len(s.History)+1)
	for _, r := range s.History {
		out = append(out, s.said(r.Round, r.Turns))
	}
	if s.Started {
		out = append(out, s.said(s.Round, s.taken()))
	}
	return out
}

// listed returns the turn the history lists at the place i of this
// round's sequence, if any.
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

// spendsLater reports whether the forced turn at i spent a regular turn
// later in this round's sequence.
func (s *State) spendsLater(i int) bool {
	t := s.Seq[i]
	for j := i + 1; j < len(s.Seq); j++ {
		if u := s.Seq[j]; u.Kind == kindRegular && u.Mark == markForced && u.ID == t.ID {
			return s.spender(j) == i
		}
	}
	return false
}

// spender returns the index of the forced turn that spent the regular
// turn at j (the last forced turn of that combatant before it with From
// this round), or -1.
func (s *State) spender(j int) int {
	id := s.Seq[j].ID
	for i := j - 1; i >= 0; i-- {
		if u := s.Seq[i]; u.Kind == kindForced && u.From == s.Round && u.ID == id {
			return i
		}
	}
	return -1
}

// turnText says a turn of round r as the seed does: "Blueshift
// (delayed)", "Blueshift (forced from round 7)".
func (s *State) turnText(t TakenTurn, r int) string {
	if words := s.turnWords(t, r); words != "" {
		return s.NameOf(t.ID) + " (" + words + ")"
	}
	return s.NameOf(t.ID)
}

// turnWords returns the words in brackets after the name of a turn of
// round r: its note, or what kind of turn it is.
func (s *State) turnWords(t TakenTurn, r int) string {
	words := s.words(t.Noted)
	if words == "" {
		switch t.Kind {
		case kindDelayed:
			words = "delayed"
			if t.From != r {
				words += " from round " + itoa(t.From)
			}
		case kindForced:
			words = "forced"
			if t.From > r {
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
				delete(s.Held, t.ID)
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

// forceCost works out which turn a forced action by id spends: a held
// delayed turn, this round's turn still to come (its index in Seq), or the
// turn of a later round.
func (s *State) forceCost(id fray.CombatantID) (held bool, idx int, round int) {
	if _, ok := s.Held[id]; ok {
		return true, -1, s.Round
	}
	for i := s.Pos + 1; i < len(s.Seq); i++ {
		if t := s.Seq[i]; t.Kind == kindRegular && t.Mark == markPending && t.ID == id {
			return false, i, s.Round
		}
	}
	r := s.Round + 1
	for s.lostIn(id, r) {
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
