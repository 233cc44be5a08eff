package queue

import (
	"slices"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// View shows the queue. Order is the queue as it stands, top first, with
// those who reacted to the current actor at the end; Next is the queue
// once the current actor has gone to the bottom. A slot's words that show
// hit points are its Status (see slotWords); a reactor's slot names the
// one they answered in About; a round's history declares in Who the
// combatants its reactions' words name. The state holds ids: the view
// says each combatant's name as it is now, in every round of the history
// too.
func (*System) View(st fray.State) fray.View {
	s := state(st)
	v := kit.View(ID, &s.Encounter, s.current())
	for _, h := range s.History {
		v.History = append(v.History, s.roundTurns(h.Round, h.Turns))
	}
	for i := range v.Combatants {
		c := &v.Combatants[i]
		if left, ok := s.hpOf(c); ok {
			m, _, _ := maxHP(c)
			kit.SetTrack(c, StatHP, fray.Track{Value: left, Max: m})
		}
	}
	if !s.Started {
		for _, id := range engine.Tiebreak(&s.Encounter, s.Tiebreak) {
			v.Order = append(v.Order, s.slot(id))
		}
		return v
	}
	v.History = append(v.History, s.roundTurns(s.Round, s.Turns))
	for i, id := range s.Queue {
		sl := s.slot(id)
		words := ""
		if i == 0 {
			sl.Markers = []string{fray.MarkCurrent}
			words = strings.Join(s.Actions, ", ")
		} else if slices.Contains(s.Acted, id) {
			sl.Markers = []string{fray.MarkActed}
		}
		sl.Note, sl.Status = s.slotWords(id, words)
		v.Order = append(v.Order, sl)
	}
	for _, id := range s.Below {
		whom := s.NameOf(s.BelowWhom[id])
		sl := s.slot(id)
		sl.Markers = []string{fray.MarkReacted}
		if whom != "" {
			sl.About = []string{whom}
		}
		sl.Note, sl.Status = s.slotWords(id, "below "+whom)
		v.Order = append(v.Order, sl)
	}
	if len(s.Queue) > 0 {
		for _, id := range s.Queue[1:] {
			v.Next = append(v.Next, s.slot(id))
		}
		v.Next = append(v.Next, s.slot(s.Queue[0]))
		for _, id := range s.Below {
			v.Next = append(v.Next, s.slot(id))
		}
	}
	return v
}

// slot returns the plain slot of the combatant id.
func (s *State) slot(id fray.CombatantID) fray.Slot {
	return fray.Slot{ID: id, Name: s.NameOf(id)}
}

// slotWords returns the Note and the Status of the slot of the combatant
// id, whose own words (their actions this turn, whom they stand below)
// are words. The slot says the words and then its fight (fighterNote),
// joined by "; ", as it always has: "major; hp 7/12", "below Johann;
// Incapacitated, scarred". When the fight shows hit points, which only
// the GM and the combatant's player may see, the whole text is the
// Status: the hit points come first in the fight's words and a slot
// prints its Note before its Status, joined by ", ", so they could only
// be split with other words; the Note is then empty. Otherwise (no hit
// points, or none left: Incapacitated, Injuries, an Injury to choose,
// which the players choose) the text is the Note. A recorded zone, which
// everyone sees, follows the words in the Note ("major; zone 2"), and
// the fight is then the Status alone when it shows hit points.
func (s *State) slotWords(id fray.CombatantID, words string) (note, status string) {
	var fight, zone string
	var numbered bool
	if c := s.ByID(id); c != nil {
		fight, numbered = s.fighterNote(c)
		zone = zoneWords(c)
	}
	if zone != "" {
		if numbered {
			return joinNote(words, zone), fight
		}
		return joinNote(joinNote(words, zone), fight), ""
	}
	text := joinNote(words, fight)
	if numbered {
		return "", text
	}
	return text, ""
}

// roundTurns says a round's turns in the seeds' words, with the names the
// combatants have now: a turn is its taker's name, a reaction "NAME
// (reacts to NAME)", "NAME (reacts to NAME for ALLY)" or "NAME (its
// note)". Who lists each turn's names, its taker's first.
func (s *State) roundTurns(round int, turns []Turn) fray.RoundTurns {
	rt := fray.RoundTurns{Round: round, Turns: make([]string, len(turns))}
	for i, t := range turns {
		name := s.NameOf(t.ID)
		switch {
		case t.To == "":
			rt.Turns[i] = name
		case t.Note == nil && t.For != "":
			rt.Turns[i] = name + " (reacts to " + s.NameOf(t.To) + " for " + s.NameOf(t.For) + ")"
		case t.Note == nil:
			rt.Turns[i] = name + " (reacts to " + s.NameOf(t.To) + ")"
		default:
			rt.Turns[i] = name + " (" + t.Note.Text + ")"
		}
	}
	rt.Who = make([][]string, len(turns))
	for i, t := range turns {
		who := []string{s.NameOf(t.ID)}
		switch {
		case t.To == "":
		case t.Note == nil && t.For != "":
			who = append(who, s.NameOf(t.To), s.NameOf(t.For))
		case t.Note == nil:
			who = append(who, s.NameOf(t.To))
		default:
			for _, id := range t.Note.Mentions {
				who = append(who, s.NameOf(id))
			}
		}
		rt.Who[i] = who
	}
	return rt
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// Check reports a broken invariant of the state.
func (*System) Check(st fray.State) error {
	s := state(st)
	bad := kit.Bad("queue: ")
	if len(s.Actions) > 2 {
		return bad("%d actions in one turn", len(s.Actions))
	}
	majors := 0
	for _, a := range s.Actions {
		if a == Major {
			majors++
		} else if a != Minor {
			return bad("unknown action %q", a)
		}
	}
	if majors > 1 {
		return bad("two Major actions in one turn")
	}
	if !s.Started {
		if len(s.Queue)+len(s.Below) > 0 {
			return bad("a queue before the start")
		}
		return nil
	}
	seen := map[fray.CombatantID]bool{}
	for _, id := range append(slices.Clone(s.Queue), s.Below...) {
		if s.ByID(id) == nil {
			return bad("%s is in the queue but not in the encounter", id)
		}
		if seen[id] {
			return bad("%s stands in the queue twice", s.NameOf(id))
		}
		seen[id] = true
	}
	if len(seen) != len(s.Combatants) {
		return bad("%d combatants but %d in the queue", len(s.Combatants), len(seen))
	}
	if len(s.Queue) == 0 && len(s.Below) > 0 {
		return bad("reactions below nobody")
	}
	for k := range s.BelowWhom {
		if !slices.Contains(s.Below, k) {
			return bad("%s answered someone but is not below them", s.NameOf(k))
		}
	}
	if cur := s.current(); cur != "" && !slices.Contains(s.Acted, cur) {
		return bad("%s is current but not counted as acting this round", s.NameOf(cur))
	}
	for _, id := range s.Acted {
		if s.ByID(id) == nil {
			return bad("%s has acted this round but is not in the encounter", id)
		}
	}
	if err := s.checkTurns(s.Round, s.Turns); err != nil {
		return err
	}
	for _, h := range s.History {
		if err := s.checkTurns(h.Round, h.Turns); err != nil {
			return err
		}
	}
	if len(s.Actions) > 0 && s.current() == "" {
		return bad("actions with nobody current")
	}
	for _, f := range s.Fighters {
		c := s.ByID(f.ID)
		if c == nil {
			return bad("a record of %s, who is not present", f.ID)
		}
		m, start, _ := maxHP(c)
		if len(f.Injuries) > len(Injuries()) || f.Pending < 0 || start-f.Damage > m {
			return bad("%s has %d Injuries and %d damage", c.Name, len(f.Injuries), f.Damage)
		}
		seen := map[string]bool{}
		for _, i := range f.Injuries {
			if seen[i] {
				return bad("%s is %s twice", c.Name, i)
			}
			seen[i] = true
		}
	}
	return nil
}

// checkTurns reports a turn of a round's history that refers to nobody
// the encounter knows (present or gone).
func (s *State) checkTurns(round int, turns []Turn) error {
	known := func(id fray.CombatantID) bool { return s.NameOf(id) != "" }
	for i, t := range turns {
		ok := known(t.ID) && (t.To == "" || known(t.To))
		if t.Note != nil {
			for _, id := range t.Note.Mentions {
				ok = ok && known(id)
			}
		}
		if !ok {
			return fray.Errorf(fray.EINTERNAL, "queue: turn %d of round %d refers to a combatant the encounter does not know", i+1, round)
		}
	}
	return nil
}
