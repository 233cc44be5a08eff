package queue

import (
	"bytes"
	"slices"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Apply changes the state by one event.
func (*System) Apply(st fray.State, ev fray.Event) error {
	s, err := kit.StateOf[State](st, "Combat Queue")
	if err != nil {
		return err
	}
	if handled, err := kit.ApplyShared(&s.Encounter, ev, kit.Roster{Added: s.placeAdded, Removed: s.dropRemoved}); handled {
		return err
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
		var u Unit
		if endsInList(ev) {
			var g initGroup
			if err := ev.Decode(&g); err != nil {
				return err
			}
			u = s.groupAt(g)
		} else {
			var d initData
			if err := ev.Decode(&d); err != nil {
				return err
			}
			u = unitAt(string(d.Key))
		}
		if len(ev.Rolls) != 1 {
			return fray.Errorf(fray.EINVALID, "Event %d enters initiative without a roll.", ev.Seq)
		}
		s.Initiative[u] = ev.Rolls[0]
	case fray.EventStarted:
		var d startData
		if err := ev.Decode(&d); err != nil {
			return err
		}
		if err := kit.ApplyStarted(&s.Started, ev); err != nil {
			return err
		}
		s.Round = 1
		s.Queue = d.Order
		for k, v := range d.Scores {
			s.Scores[k] = v
		}
		s.Turns = make([]Turn, 0, 2*len(s.Queue))
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
		} else if d, err = fray.Payload[actData](ev); err != nil {
			return err
		}
		if d.Name == "" || d.Name != s.current() {
			return fray.Errorf(fray.EINVALID, "Event %d is an action by %s out of turn.", ev.Seq, d.Name)
		}
		s.Actions = append(s.Actions, d.Kind)
	case EventTurnEnded:
		d, err := fray.Payload[fray.NameData](ev)
		if err != nil {
			return err
		}
		if d.Who == "" || d.Who != s.current() {
			return fray.Errorf(fray.EINVALID, "Event %d ends %s's turn, which is not in progress.", ev.Seq, d.Who)
		}
		s.toBottom()
	case EventReacted:
		var d reactData
		if endsInList(ev) {
			var n reactNoted
			if err := ev.Decode(&n); err != nil {
				return err
			}
			d = reactData{Name: n.Name, To: n.To, Note: n.Note, For: n.For}
		} else if err := ev.Decode(&d); err != nil {
			return err
		}
		r, o := s.ByID(d.Name), s.ByID(d.To)
		if r == nil || o == nil || s.current() == "" {
			return fray.Errorf(fray.EINVALID, "Event %d is a reaction that cannot be placed.", ev.Seq)
		}
		s.react(r, o.ID, d.For, d.Note)
	case EventMoved:
		return s.applyMoved(ev)
	default:
		return fray.Errorf(fray.EINVALID, "Event %d has the type %q, unknown to the Combat Queue.", ev.Seq, ev.Type)
	}
	return nil
}

// startTurn begins the turn of the top of the queue, starting a new round
// when they have already acted in this one.
func (s *State) startTurn() {
	s.Actions = nil
	s.Hits = nil
	top := s.current()
	if top == "" {
		return
	}
	if slices.Contains(s.Acted, top) {
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeEnd)
		s.History = append(s.History, &Round{Round: s.Round, Turns: s.Turns})
		s.Round++
		// A round has a turn for everyone and, often, reactions: room
		// for a reaction per turn saves growing the lists as it goes.
		n := len(s.Queue) + len(s.Below)
		s.Acted = make([]fray.CombatantID, 0, n)
		s.Turns = make([]Turn, 0, 2*n)
		engine.TurnEdge(&s.Encounter, s.Round, "", fray.EdgeStart)
	}
	engine.TurnEdge(&s.Encounter, s.Round, top, fray.EdgeStart)
	s.Acted = append(s.Acted, top)
	s.Turns = append(s.Turns, Turn{ID: top})
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

// react places the reactor r right below the one they answered, to:
// below the current actor once they go to the bottom, or below another
// reactor. A log recorded before reactions to those waiting in the queue
// were refused may hold one: the reactor goes right below them where they
// stand now. ally is the one the reaction is taken for (for=), if any;
// note is the reaction's note, if any.
func (s *State) react(r *fray.Combatant, to, ally fray.CombatantID, note string) {
	id := r.ID
	// The live state owns Queue and Below (Clone copies them), so the
	// reactor leaves them in place.
	s.Queue = without(s.Queue, id)
	s.Below = without(s.Below, id)
	delete(s.BelowWhom, id)
	if to == s.current() {
		s.Below = slices.Insert(s.Below, 0, id)
		s.BelowWhom[id] = to
	} else if i := slices.Index(s.Below, to); i >= 0 {
		s.Below = slices.Insert(s.Below, i+1, id)
		s.BelowWhom[id] = to
	} else if i := slices.Index(s.Queue, to); i >= 0 {
		s.Queue = slices.Insert(s.Queue, i+1, id)
	} else {
		s.Queue = append(s.Queue, id)
	}
	t := Turn{ID: id, To: to, For: ally}
	if note != "" {
		// The same search Decide made for the event's Mentions, on the
		// same state; Apply does not read Mentions, which events
		// recorded before it existed lack.
		t.Note = &TurnNote{Text: note, Mentions: s.mentions(note, r)}
	}
	s.Turns = append(s.Turns, t)
}

// without removes id from list, in place.
func without(list []fray.CombatantID, id fray.CombatantID) []fray.CombatantID {
	if i := slices.Index(list, id); i >= 0 {
		return slices.Delete(list, i, i+1)
	}
	return list
}

// endsInList reports whether ev's payload ends with a list: the ids
// that actNoted, reactNoted and initGroup add, as their last field, to
// actData, reactData and initData. Apply decodes such a payload into the
// type with the list (the fast decoder reads it; decoding it into the
// flat type would leave it to encoding/json) and any other into the flat
// type, whose payload is copied. Either type gives Apply the same fields,
// so a payload written otherwise (with blanks, or the list first, as in
// an older event that engine.Upgrade rewrote with its keys sorted) only
// decodes the slower way, and so does an unrecorded event holding the
// type with the list (fray.NewUnrecordedEvent), which has no Data to read.
func endsInList(ev fray.Event) bool {
	return bytes.HasSuffix(ev.Data, listEnd)
}

var listEnd = []byte("]}")

// placeAdded puts a combatant added after the start in the queue: where
// the command said, else with their group, else at the bottom. Before the
// start there is no queue yet: start makes it.
func (s *State) placeAdded(d *fray.AddedData) {
	if !s.Started {
		return
	}
	c := s.ByID(d.Combatant.ID)
	def := len(s.Queue)
	if c.Group != "" {
		for i, id := range s.Queue {
			if m := s.ByID(id); m != nil && strings.EqualFold(m.Group, c.Group) && i > 0 {
				def = i + 1
			}
		}
	}
	// A place next to someone not in the queue (or nobody) is no place.
	q, err := engine.Place(s.Queue, c.ID, d.Before, d.After, def)
	if err != nil || (len(q) > 1 && q[0] == c.ID) {
		q = append(s.Queue, c.ID)
	}
	s.Queue = q
	if len(s.Queue) == 1 {
		s.startTurn()
	}
}

// dropRemoved takes the removed combatant id out of the queue; when it
// was their turn, the next turn begins.
func (s *State) dropRemoved(id fray.CombatantID) {
	s.Tiebreak = engine.Without(s.Tiebreak, id)
	if s.Fighters = kit.Drop(s.Fighters, id); len(s.Fighters) == 0 {
		s.Fighters = nil
	}
	delete(s.Initiative, Unit{ID: id})
	delete(s.Scores, id)
	if slices.Contains(s.Hits, id) {
		s.Hits = without(s.Hits, id)
	}
	delete(s.BelowWhom, id)
	for k, v := range s.BelowWhom {
		if v == id {
			delete(s.BelowWhom, k)
		}
	}
	if !s.Started {
		return
	}
	wasCurrent := s.current() == id
	s.Queue = engine.Without(s.Queue, id)
	s.Below = engine.Without(s.Below, id)
	s.Acted = engine.Without(s.Acted, id)
	if wasCurrent {
		s.Queue = append(s.Queue, s.Below...)
		s.Below = nil
		clear(s.BelowWhom)
		s.startTurn()
	}
}
