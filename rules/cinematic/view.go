package cinematic

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

// View shows the round's order by initiative with markers and each
// character's actions left, and the next round's order.
func (sys *System) View(st fray.State) fray.View {
	v := fray.View{Rules: ID, History: []fray.RoundTurns{}, Order: []fray.Slot{}}
	s, err := get(st)
	if err != nil {
		return v
	}
	v.Started, v.Round, v.Current = s.Started, s.Round, s.Current()
	v.Combatants = s.CombatantList()
	if len(s.Settings) > 0 {
		v.Settings = maps.Clone(s.Settings)
	}
	if len(s.History) > 0 {
		v.History = make([]fray.RoundTurns, len(s.History))
		for i, h := range s.History {
			v.History[i] = h.view()
		}
	}
	order := s.Order
	if !s.Started {
		order = s.rank()
	}
	for i, n := range order {
		x := fray.Slot{Name: n}
		x.Note, x.Status, x.About = s.budgetWords(n)
		switch {
		case !s.Started:
		case i < s.Pos:
			x.Markers = []string{fray.MarkActed}
		case i == s.Pos:
			x.Markers = []string{fray.MarkCurrent}
		}
		v.Order = append(v.Order, x)
	}
	if s.Started {
		for _, n := range s.rank() {
			v.Next = append(v.Next, fray.Slot{Name: n, Note: "initiative " + strconv.Itoa(s.Initiative(n))})
		}
	}
	return v
}

// view returns the round as the view shows it. Its Who stops at the last
// turn that names anyone besides its taker, and is nil in a round where
// no turn does.
func (h HistoryRound) view() fray.RoundTurns {
	r := fray.RoundTurns{Round: h.Round, Turns: make([]string, len(h.Turns))}
	last := -1
	for i, t := range h.Turns {
		r.Turns[i] = t.Text
		if len(t.Who) > 1 {
			last = i
		}
	}
	if last >= 0 {
		r.Who = make([][]string, last+1)
		for i, t := range h.Turns[:last+1] {
			r.Who[i] = slices.Clone(t.Who)
		}
	}
	return r
}

// budgetWords says a character's initiative, Life Points, conditions,
// the answer due, stance and actions left: "initiative 9, LP 40/42,
// attack, defence, 3 extra (next −2)", and the other combatants those
// words name (about). The words from Life Points on are the status, which
// players see only on a player character's slot (fray.Slot.Status); the
// note before them is the initiative alone. The slot says them in that
// order, note then status, so its words stay those of one list. A
// character without Life Points has no status: the note says it all.
func (s *State) budgetWords(name string) (note, status string, about []string) {
	ch, b := s.char(name), s.Budget(name)
	note = "initiative " + strconv.Itoa(s.Initiative(name))
	var w []string
	c := s.Find(name)
	if t, ok := c.Tracks[TrackLife]; ok {
		w = append(w, "LP "+strconv.Itoa(t.Value)+"/"+strconv.Itoa(t.Max))
	}
	for _, x := range c.Conditions {
		w = append(w, x.Name)
	}
	if x := s.waitWords(name); x != "" {
		w = append(w, x)
		about = []string{s.Waiting.Attacker}
	}
	switch ch.Stance {
	case StanceDefence:
		w = append(w, "Full Defence")
	case StanceOffence:
		w = append(w, "Full Offence")
	}
	if b.Attack {
		w = append(w, "attack")
	}
	if b.Defence {
		w = append(w, "defence")
	}
	if b.Bonus {
		w = append(w, "extra defence")
	}
	if b.Extras > 0 {
		w = append(w, strconv.Itoa(b.Extras)+" extra (next "+signed(b.Next)+")")
	}
	if !b.Attack && !b.Defence && !b.Bonus && b.Extras == 0 {
		w = append(w, "no actions left")
	}
	if _, ok := c.Tracks[TrackLife]; ok {
		return note, strings.Join(w, ", "), about
	}
	return strings.Join(append([]string{note}, w...), ", "), "", about
}

// Check reports a broken invariant of st.
func (sys *System) Check(st fray.State) error {
	s, err := get(st)
	if err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINTERNAL, "Cinematic Unisystem state: "+format, args...)
	}
	if s.Started != (s.Round >= 1) {
		return bad("started is %v in round %d", s.Started, s.Round)
	}
	if len(s.Chars) != len(s.Combatants) {
		return bad("%d combatants but %d characters", len(s.Combatants), len(s.Chars))
	}
	for i, ch := range s.Chars {
		c := s.Combatants[i]
		if !fray.SameName(ch.Name, c.Name) {
			return bad("character %d is %q, combatant %d is %q", i, ch.Name, i, c.Name)
		}
		if ch.Extras < 0 || ch.Extras > ExtraActions(c.Stat("dexterity")) {
			return bad("%s used %d extra actions with Dexterity %d", c.Name, ch.Extras, c.Stat("dexterity"))
		}
		if (ch.Stance == StanceDefence && ch.Attacked) || (ch.Stance == StanceOffence && ch.Defended) || (ch.Bonus && ch.Stance != StanceDefence) {
			return bad("%s acted against the stance %q", c.Name, ch.Stance)
		}
	}
	if s.Pos < 0 || s.Pos > len(s.Order) {
		return bad("turn %d of %d", s.Pos, len(s.Order))
	}
	if w := s.Waiting; w != nil && (s.char(w.Target) == nil || !fray.SameName(w.Attacker, s.Current())) {
		return bad("%s's attack on %s waits, but it is %q's turn", w.Attacker, w.Target, s.Current())
	}
	for i, n := range s.Order {
		if s.char(n) == nil {
			return bad("the order names %q, who is not present", n)
		}
		if engine.Index(s.Order[i+1:], n) >= 0 {
			return bad("%s has two turns in one round", n)
		}
	}
	return nil
}
