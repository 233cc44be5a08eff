package queue

import (
	"bytes"
	"slices"
	"strings"

	"fray"
	"fray/engine"
)

// Apply changes the state by one event.
func (*System) Apply(st fray.State, ev fray.Event) error {
	s, ok := st.(*State)
	if !ok {
		return fray.Errorf(fray.EINTERNAL, "The state is not a Combat Queue state.")
	}
	added, removed, handled, err := engine.ApplyShared(&s.Encounter, ev)
	if err != nil {
		return err
	}
	if handled {
		switch {
		case added != nil && s.Started:
			s.placeAdded(added)
		case removed != "":
			s.dropRemoved(removed)
		}
		return nil
	}
	if ok, err := s.applyCombat(ev); ok {
		return err
	}
	if ok, err := s.applyDamage(ev); ok {
		return err
	}
	switch ev.Type {
	case EventTiebreak:
		var d namesData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		s.Tiebreak = d.Names
	case EventInitiative:
		var d initData
		if endsInList(ev) {
			var g initGroup
			if err := ev.Decode(&g); err != nil {
				return err
			}
			d.Key = g.Key
		} else if err := ev.Decode(&d); err != nil {
			return err
		}
		if len(ev.Rolls) != 1 {
			return fray.Errorf(fray.EINVALID, "Event %d enters initiative without a roll.", ev.Seq)
		}
		s.Initiative[d.Key] = ev.Rolls[0]
	case fray.EventStarted:
		var d startData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if s.Started {
			return fray.Errorf(fray.EINVALID, "Event %d starts an encounter already started.", ev.Seq)
		}
		s.Started = true
		s.Round = 1
		s.Queue = d.Order
		for k, v := range d.Scores {
			s.Scores[k] = v
		}
		s.Turns = make([]string, 0, 2*len(s.Queue))
		s.Who = nil
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
		s.startTurn()
	case EventActed:
		var d actData
		if endsInList(ev) {
			var n actNoted
			if err := ev.Decode(&n); err != nil {
				return err
			}
			d = actData{Name: n.Name, Kind: n.Kind, Note: n.Note}
		} else if err := ev.Decode(&d); err != nil {
			return err
		}
		if !fray.SameName(s.current(), d.Name) {
			return fray.Errorf(fray.EINVALID, "Event %d is an action by %s out of turn.", ev.Seq, fray.Mention(d.Name))
		}
		s.Actions = append(s.Actions, d.Kind)
	case EventTurnEnded:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		cur := s.current()
		if !fray.SameName(cur, d.Name) {
			return fray.Errorf(fray.EINVALID, "Event %d ends %s's turn, which is not in progress.", ev.Seq, fray.Mention(d.Name))
		}
		s.toBottom()
	case EventReacted:
		var d reactData
		if endsInList(ev) {
			var n reactNoted
			if err := ev.Decode(&n); err != nil {
				return err
			}
			d = reactData{Name: n.Name, To: n.To, Note: n.Note}
		} else if err := ev.Decode(&d); err != nil {
			return err
		}
		if s.Find(d.Name) == nil || s.Find(d.To) == nil || s.current() == "" {
			return fray.Errorf(fray.EINVALID, "Event %d is a reaction that cannot be placed.", ev.Seq)
		}
		s.react(d)
	default:
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, unknown to the Combat Queue.", ev.Seq, ev.Type)
	}
	return nil
}

// startTurn begins the turn of the top of the queue, starting a new round
// when they have already acted in this one.
func (s *State) startTurn() {
	s.Actions = nil
	top := s.current()
	if top == "" {
		return
	}
	if engine.Index(s.Acted, top) >= 0 {
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
		s.History = append(s.History, &fray.RoundTurns{Round: s.Round, Turns: s.Turns, Who: s.Who})
		s.Round++
		// A round has a turn for everyone and, often, reactions: room
		// for a reaction per turn saves growing the lists as it goes.
		n := len(s.Queue) + len(s.Below)
		s.Acted = make([]string, 0, n)
		s.Turns = make([]string, 0, 2*n)
		s.Who = nil
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
	}
	engine.TurnEdge(&s.Encounter, s.Round, top, fray.EdgeStart)
	s.Acted = append(s.Acted, top)
	s.Turns = append(s.Turns, top)
	if s.Who != nil {
		// A turn's words are its taker's name (see addWho).
		s.Who = append(s.Who, nil)
	}
}

// toBottom sends the current actor to the bottom of the queue, with those
// who reacted to them right below, and starts the next turn.
func (s *State) toBottom() {
	// The live state owns Queue (Clone copies it), so it turns in place.
	cur := s.Queue[0]
	engine.TurnEdge(&s.Encounter, s.Round, cur, fray.EdgeEnd)
	copy(s.Queue, s.Queue[1:])
	s.Queue[len(s.Queue)-1] = cur
	s.Queue = append(s.Queue, s.Below...)
	s.Below = nil
	clear(s.BelowWhom)
	s.startTurn()
}

// react places a reactor right below the one they answered: below
// the current actor once they go to the bottom, or below another reactor.
// A log recorded before reactions to those waiting in the queue were
// refused may hold one: the reactor goes right below them where they
// stand now.
func (s *State) react(d reactData) {
	name := s.Find(d.Name).Name
	to := s.Find(d.To).Name
	s.Queue = engine.Without(s.Queue, name)
	s.Below = engine.Without(s.Below, name)
	delete(s.BelowWhom, name)
	switch {
	case fray.SameName(to, s.current()):
		s.Below = slices.Insert(s.Below, 0, name)
		s.BelowWhom[name] = to
	case engine.Index(s.Below, to) >= 0:
		s.Below = slices.Insert(s.Below, engine.Index(s.Below, to)+1, name)
		s.BelowWhom[name] = to
	case engine.Index(s.Queue, to) >= 0:
		s.Queue = slices.Insert(s.Queue, engine.Index(s.Queue, to)+1, name)
	default:
		s.Queue = append(s.Queue, name)
	}
	words := d.Note
	var who []string
	if words == "" {
		words = "reacts to " + to
		who = s.sharedWho(name, to)
	} else {
		// The same search Decide made for the event's Mentions, on the
		// same state; Apply does not read Mentions, which events
		// recorded before it existed lack.
		who = append([]string{name}, engine.Mentions(&s.Encounter, d.Note, name)...)
	}
	s.Turns = append(s.Turns, name+" ("+words+")")
	s.addWho(who)
}

// addWho records the names of the reaction just added to Turns: the
// one who took it, then the others its words name (see State.Who).
func (s *State) addWho(who []string) {
	if s.Who == nil {
		s.Who = make([][]string, len(s.Turns)-1, cap(s.Turns))
	}
	s.Who = append(s.Who, who)
}

// sharedWho returns the names of a turn as a list of them: one that this
// round or the last already holds, when one does (the same reactions
// come round after round, and a turn's names are never changed once
// recorded), or else a new one.
func (s *State) sharedWho(names ...string) []string {
	if w := findWho(s.Who, names); w != nil {
		return w
	}
	if n := len(s.History); n > 0 {
		if w := findWho(s.History[n-1].Who, names); w != nil {
			return w
		}
	}
	return slices.Clone(names)
}

func findWho(who [][]string, names []string) []string {
	for _, w := range who {
		if slices.Equal(w, names) {
			return w
		}
	}
	return nil
}

// endsInList reports whether ev's payload ends with a list: the names
// that actNoted, reactNoted and initGroup add, as their last field, to
// actData, reactData and initData. Apply decodes such a payload into the
// type with the list (the fast decoder reads it; decoding it into the
// flat type would leave it to encoding/json) and any other into the flat
// type, whose payload is copied. Either type gives Apply the same fields,
// so a payload written otherwise (with blanks, or the list first) only
// decodes the slower way.
func endsInList(ev fray.Event) bool {
	return bytes.HasSuffix(ev.Data, listEnd)
}

var listEnd = []byte("]}")

// placeAdded puts a combatant added after the start in the queue: where
// the command said, else with their group, else at the bottom.
func (s *State) placeAdded(d *fray.AddedData) {
	c := s.Find(d.Combatant.Name)
	def := len(s.Queue)
	if c.Group != "" {
		for i, n := range s.Queue {
			if m := s.Find(n); m != nil && strings.EqualFold(m.Group, c.Group) && i > 0 {
				def = i + 1
			}
		}
	}
	q, err := engine.Place(s.Queue, c.Name, d.Before, d.After, def)
	if err != nil || (len(q) > 1 && fray.SameName(q[0], c.Name)) {
		q = append(s.Queue, c.Name)
	}
	s.Queue = q
	if len(s.Queue) == 1 {
		s.startTurn()
	}
}

// dropRemoved takes a removed combatant out of the queue; when it was
// their turn, the next turn begins.
func (s *State) dropRemoved(name string) {
	s.Tiebreak = engine.Without(s.Tiebreak, name)
	if i := slices.IndexFunc(s.Fighters, func(f *Fighter) bool { return fray.SameName(f.Name, name) }); i >= 0 {
		if s.Fighters = slices.Delete(s.Fighters, i, i+1); len(s.Fighters) == 0 {
			s.Fighters = nil
		}
	}
	delete(s.Initiative, name)
	delete(s.Scores, name)
	delete(s.BelowWhom, name)
	for k, v := range s.BelowWhom {
		if fray.SameName(v, name) {
			delete(s.BelowWhom, k)
		}
	}
	if !s.Started {
		return
	}
	wasCurrent := fray.SameName(s.current(), name)
	s.Queue = engine.Without(s.Queue, name)
	s.Below = engine.Without(s.Below, name)
	s.Acted = engine.Without(s.Acted, name)
	if wasCurrent {
		s.Queue = append(s.Queue, s.Below...)
		s.Below = nil
		clear(s.BelowWhom)
		s.startTurn()
	}
}
