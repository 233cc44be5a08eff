package pp

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/rules/kit"
)

// View shows the page's order of play by Edge with markers, and the next
// page's order. A slot's tracks (Health, minions standing, Resolve) are
// its Status, never its Note (see slotOf); no note or history turn of P&P
// names another combatant, so About and Who stay empty. The state refers
// to combatants by id: the view says their names as they are now, the
// history's earlier pages too.
func (sys *System) View(st fray.State) fray.View {
	s, err := get(st)
	if err != nil {
		return kit.View(ID, nil, "")
	}
	v := kit.View(ID, &s.Encounter, s.current())
	for i := range v.Combatants {
		c := &v.Combatants[i]
		if c.Tracks == nil {
			c.Tracks = map[string]fray.Track{}
		}
		if ch := s.char(c.ID); ch != nil && ch.Minion {
			n := minionCount(c)
			down := 0
			if r := s.record(c.ID); r != nil {
				down = min(r.Down, n)
			}
			c.Tracks["minions"] = fray.Track{Value: n - down, Max: n}
		} else if h := Health(c); h > 0 {
			c.Tracks[StatHealth] = fray.Track{Value: s.healthLeft(c.ID), Max: h}
		}
		if r := resolveOf(c); r > 0 {
			c.Tracks[StatResolve] = fray.Track{Value: s.resolveLeft(c.ID), Max: r}
		}
		if len(c.Tracks) == 0 {
			c.Tracks = nil
		}
	}
	for _, h := range s.History {
		// A P&P turn names only whoever took it.
		turns, who := make([]string, len(h.Turns)), make([][]string, len(h.Turns))
		names := make([]string, len(h.Turns))
		for i, t := range h.Turns {
			turns[i] = t.words(&s.Encounter)
			names[i] = s.NameOf(t.ID)
			who[i] = names[i : i+1 : i+1]
		}
		v.History = append(v.History, fray.RoundTurns{Round: h.Round, Turns: turns, Who: who})
	}
	// A slot's words are its Edge and role, what its fight has left it
	// (resolutionWords) and, in this page's order, the actions of its
	// turn; track is the first of them that gives a track's numbers.
	words := func(id fray.CombatantID) (parts []string, track int) {
		c := s.char(id)
		parts = []string{"Edge " + strconv.Itoa(s.edge(id)), c.Role}
		if c.Minion {
			parts = append(parts, "minion")
		}
		res, t := s.resolutionWords(id)
		if track = -1; t >= 0 {
			track = len(parts) + t
		}
		return append(parts, res...), track
	}
	order := s.Order
	if !s.Started {
		order = s.rank()
	}
	for i, n := range order {
		parts, track := words(n)
		var marks []string
		switch {
		case !s.Started:
		case i < s.Pos:
			marks = []string{fray.MarkActed}
			if i < len(s.Taken) && s.Taken[i] > 1 {
				parts = append(parts, strconv.Itoa(s.Taken[i])+" actions")
			}
		case i == s.Pos:
			marks = []string{fray.MarkCurrent}
			switch {
			case s.Actions == 1:
				parts = append(parts, "1 action")
			case s.Actions > 1:
				parts = append(parts, strconv.Itoa(s.Actions)+" actions", "−"+strconv.Itoa(s.penalty(n))+"d")
			}
		}
		x := s.slotOf(n, parts, track)
		x.Markers = marks
		v.Order = append(v.Order, x)
	}
	if s.Started {
		for _, n := range s.rank() {
			parts, track := words(n)
			v.Next = append(v.Next, s.slotOf(n, parts, track))
		}
	}
	return v
}

// slotOf is the slot of the combatant id with the words parts, whose
// first track's numbers are parts[track] (none when track < 0). The words
// from there on are the slot's Status, declared private, so that players
// never read an NPC's Health, minions standing or Resolve in the order;
// since Slot.String puts Status after Note, the words after the first
// track's numbers ("defeated", "+1d assist", the turn's actions) go in
// Status too, and the slot reads exactly as one note of all its words.
func (s *State) slotOf(id fray.CombatantID, parts []string, track int) fray.Slot {
	x := fray.Slot{ID: id, Name: s.NameOf(id)}
	if track < 0 || track >= len(parts) {
		x.Note = strings.Join(parts, ", ")
		return x
	}
	x.Note, x.Status = strings.Join(parts[:track], ", "), strings.Join(parts[track:], ", ")
	return x
}

// Check reports a broken invariant of st.
func (sys *System) Check(st fray.State) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	bad := kit.Bad("P&P state: ")
	if err := kit.CheckRoster(&s.Encounter, s.Chars, "page", bad); err != nil {
		return err
	}
	for i, c := range s.Chars {
		if !slices.Contains(roles, c.Role) {
			return bad("role %d is %s's (%s) for combatant %q", i, c.ID, c.Role, s.Combatants[i].Name)
		}
	}
	present := func(id fray.CombatantID) bool { return s.char(id) != nil }
	if err := s.CheckOrder(&s.Encounter, present, "page", bad); err != nil {
		return err
	}
	if len(s.Taken) != min(s.Pos, len(s.Order)) {
		return bad("turn %d of %d with %d taken", s.Pos, len(s.Order), len(s.Taken))
	}
	for _, h := range s.History {
		for _, t := range h.Turns {
			if s.NameOf(t.ID) == "" {
				return bad("page %d's history holds %q, who was never in the encounter", h.Round, t.ID)
			}
		}
	}
	if s.Actions < 0 || s.Actions > MaxActions || (s.Actions > 0 && s.current() == "") {
		return bad("%d actions in the turn of %q", s.Actions, s.Current())
	}
	return s.checkResolution()
}
