package queue

import (
	"maps"
	"slices"
	"strings"

	"fray"
	"fray/engine"
)

// View shows the queue. Order is the queue as it stands, top first, with
// those who reacted to the current actor at the end; Next is the queue
// once the current actor has gone to the bottom. A slot's words that show
// hit points are its Status (see slotWords); a reactor's slot names the
// one they answered in About; a round's history declares in Who the
// combatants its reactions' words name.
func (*System) View(st fray.State) fray.View {
	s := state(st)
	v := fray.View{
		Rules:      ID,
		Started:    s.Started,
		Round:      s.Round,
		Current:    s.current(),
		Order:      []fray.Slot{},
		History:    []fray.RoundTurns{},
		Combatants: s.CombatantList(),
		Settings:   maps.Clone(s.Settings),
	}
	for _, h := range s.History {
		v.History = append(v.History, fray.RoundTurns{Round: h.Round, Turns: slices.Clone(h.Turns), Who: whoOf(h.Turns, h.Who)})
	}
	for i := range v.Combatants {
		c := &v.Combatants[i]
		if left, ok := s.HP(c.Name); ok {
			if c.Tracks == nil {
				c.Tracks = map[string]fray.Track{}
			}
			m, _, _ := maxHP(c)
			c.Tracks[StatHP] = fray.Track{Value: left, Max: m}
		}
	}
	if !s.Started {
		for _, n := range engine.Tiebreak(&s.Encounter, s.Tiebreak) {
			v.Order = append(v.Order, fray.Slot{Name: n})
		}
		return v
	}
	v.History = append(v.History, fray.RoundTurns{Round: s.Round, Turns: slices.Clone(s.Turns), Who: whoOf(s.Turns, s.Who)})
	for i, n := range s.Queue {
		sl := fray.Slot{Name: n}
		words := ""
		if i == 0 {
			sl.Markers = []string{fray.MarkCurrent}
			words = strings.Join(s.Actions, ", ")
		} else if engine.Index(s.Acted, n) >= 0 {
			sl.Markers = []string{fray.MarkActed}
		}
		sl.Note, sl.Status = s.slotWords(n, words)
		v.Order = append(v.Order, sl)
	}
	for _, n := range s.Below {
		whom := s.BelowWhom[n]
		sl := fray.Slot{Name: n, Markers: []string{fray.MarkReacted}}
		if whom != "" {
			sl.About = []string{whom}
		}
		sl.Note, sl.Status = s.slotWords(n, "below "+whom)
		v.Order = append(v.Order, sl)
	}
	if len(s.Queue) > 0 {
		for _, n := range s.Queue[1:] {
			v.Next = append(v.Next, fray.Slot{Name: n})
		}
		v.Next = append(v.Next, fray.Slot{Name: s.Queue[0]})
		for _, n := range s.Below {
			v.Next = append(v.Next, fray.Slot{Name: n})
		}
	}
	return v
}

// slotWords returns the Note and the Status of the named combatant's
// slot, whose own words (their actions this turn, whom they stand below)
// are words. The slot says the words and then its fight (fighterNote),
// joined by "; ", as it always has: "major; hp 7/12", "below Johann;
// Incapacitated, scarred". When the fight shows hit points, which only
// the GM and the combatant's player may see, the whole text is the
// Status: the hit points come first in the fight's words and a slot
// prints its Note before its Status, joined by ", ", so they could only
// be split with other words; the Note is then empty. Otherwise (no hit
// points, or none left: Incapacitated, Injuries, an Injury to choose,
// which the players choose) the text is the Note.
func (s *State) slotWords(name, words string) (note, status string) {
	fight, numbered := s.fighterNote(name)
	text := joinNote(words, fight)
	if numbered {
		return "", text
	}
	return text, ""
}

// whoOf returns a copy of a round's names per turn (see State.Who) for
// its view, a turn's own name filled in, or nil when every turn names
// only whoever took it.
func whoOf(turns []string, who [][]string) [][]string {
	for _, w := range who {
		if len(w) > 1 {
			out := make([][]string, len(who))
			for i, w := range who {
				if w == nil {
					w = turns[i : i+1]
				}
				out[i] = slices.Clone(w)
			}
			return out
		}
	}
	return nil
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
	bad := func(format string, args ...any) error { return fray.Errorf(fray.EINTERNAL, "queue: "+format, args...) }
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
	seen := map[string]bool{}
	for _, n := range append(slices.Clone(s.Queue), s.Below...) {
		c := s.Find(n)
		if c == nil {
			return bad("%s is in the queue but not in the encounter", n)
		}
		if seen[c.Name] {
			return bad("%s stands in the queue twice", n)
		}
		seen[c.Name] = true
	}
	if len(seen) != len(s.Combatants) {
		return bad("%d combatants but %d in the queue", len(s.Combatants), len(seen))
	}
	if len(s.Queue) == 0 && len(s.Below) > 0 {
		return bad("reactions below nobody")
	}
	if cur := s.current(); cur != "" && engine.Index(s.Acted, cur) < 0 {
		return bad("%s is current but not counted as acting this round", cur)
	}
	if s.Who != nil && len(s.Who) != len(s.Turns) {
		return bad("%d turns this round but names for %d", len(s.Turns), len(s.Who))
	}
	for _, h := range s.History {
		if h.Who != nil && len(h.Who) != len(h.Turns) {
			return bad("%d turns in round %d but names for %d", len(h.Turns), h.Round, len(h.Who))
		}
	}
	if len(s.Actions) > 0 && s.current() == "" {
		return bad("actions with nobody current")
	}
	for _, f := range s.Fighters {
		if s.Find(f.Name) == nil {
			return bad("a record of %s, who is not present", f.Name)
		}
		m, start, _ := maxHP(s.Find(f.Name))
		if len(f.Injuries) > len(Injuries()) || f.Pending < 0 || start-f.Damage > m {
			return bad("%s has %d Injuries and %d damage", f.Name, len(f.Injuries), f.Damage)
		}
		seen := map[string]bool{}
		for _, i := range f.Injuries {
			if seen[i] {
				return bad("%s is %s twice", f.Name, i)
			}
			seen[i] = true
		}
	}
	return nil
}
