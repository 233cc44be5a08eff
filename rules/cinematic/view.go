package cinematic

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// View shows the round's order by initiative with markers and each
// character's actions left, and the next round's order. It says the
// combatants by the names they have now, in every round of the history
// too.
func (sys *System) View(st fray.State) fray.View {
	s, err := get(st)
	if err != nil {
		return kit.View(ID, nil, "")
	}
	v := kit.View(ID, &s.Encounter, s.Current())
	if len(s.History) > 0 {
		v.History = make([]fray.RoundTurns, len(s.History))
		var b []byte
		for i, h := range s.History {
			v.History[i], b = h.view(&s.Encounter, b)
		}
	}
	order := s.Order
	if !s.Started {
		order = s.rank()
	}
	for i, id := range order {
		c := s.ByID(id)
		if c == nil {
			continue // Check refuses such a state
		}
		x := fray.Slot{ID: id, Name: c.Name}
		x.Note, x.Status, x.About = s.budgetWords(c)
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
		for _, id := range s.rank() {
			c := s.ByID(id)
			v.Next = append(v.Next, fray.Slot{ID: id, Name: c.Name, Note: "initiative " + strconv.Itoa(initiative(c))})
		}
	}
	return v
}

// view returns the round as the view shows it, its combatants named as
// enc names them, with the combatants each turn names (Who, its taker
// first); b is room for the words of a turn, returned for the next call.
func (h HistoryRound) view(enc *fray.Encounter, b []byte) (fray.RoundTurns, []byte) {
	r := fray.RoundTurns{Round: h.Round, Turns: make([]string, len(h.Turns)), Who: make([][]string, len(h.Turns))}
	for i, t := range h.Turns {
		r.Turns[i], b = t.words(enc, b)
		r.Who[i] = t.who(enc)
	}
	return r, b
}

// words says the turn: "Master (attack on Slayer; Slayer defends)", or
// the taker's name alone for a turn without actions.
func (t HistoryTurn) words(enc *fray.Encounter, b []byte) (string, []byte) {
	if len(t.Acts) == 0 {
		return enc.NameOf(t.Who), b
	}
	b = append(append(b[:0], enc.NameOf(t.Who)...), " ("...)
	for i, a := range t.Acts {
		if i > 0 {
			b = append(b, "; "...)
		}
		b = appendAct(b, enc, a)
	}
	b = append(b, ')')
	return string(b), b
}

// who lists, each once, the names of the combatants the turn's words
// name: the taker first, then, action by action, those who defend and
// the targets and attackers named.
func (t HistoryTurn) who(enc *fray.Encounter) []string {
	ids := []fray.CombatantID{t.Who}
	mention := func(id fray.CombatantID) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, a := range t.Acts {
		mention(a.Who)
		mention(a.Other)
	}
	return engine.NamesOf(enc, ids)
}

// budgetWords says a character's initiative, Life Points, conditions,
// the answer due, stance and actions left: "initiative 9, LP 40/42,
// attack, defence, 3 extra (next −2)", and the other combatants those
// words name (about). The words from Life Points on are the status, which
// players see only on a player character's slot (fray.Slot.Status); the
// note before them is the initiative alone. The slot says them in that
// order, note then status, so its words stay those of one list. A
// character without Life Points has no status: the note says it all.
func (s *State) budgetWords(c *fray.Combatant) (note, status string, about []string) {
	ch, b := s.char(c.ID), s.budget(c)
	note = "initiative " + strconv.Itoa(initiative(c))
	var w []string
	if t, ok := c.Tracks[TrackLife]; ok {
		w = append(w, "LP "+strconv.Itoa(t.Value)+"/"+strconv.Itoa(t.Max))
	}
	for _, x := range c.Conditions {
		w = append(w, x.Name)
	}
	if x := s.waitWords(c.ID); x != "" {
		w = append(w, x)
		about = []string{s.NameOf(s.Waiting.AttackerID)}
	}
	if ch == nil {
		ch = &Char{} // Check refuses such a state
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
	bad := kit.Bad("Cinematic Unisystem state: ")
	if err := kit.CheckRoster(&s.Encounter, s.Chars, "round", bad); err != nil {
		return err
	}
	present := func(id fray.CombatantID) bool { return s.char(id) != nil }
	if err := s.CheckOrder(&s.Encounter, present, "round", bad); err != nil {
		return err
	}
	for i, ch := range s.Chars {
		c := s.Combatants[i]
		for _, foes := range [][]fray.CombatantID{ch.Foes, ch.Engaged} {
			for _, f := range foes {
				if f == ch.ID || s.NameOf(f) == "" {
					return bad("%s is attacked by %s (%q)", c.Name, f, s.NameOf(f))
				}
			}
		}
		if ch.Extras < 0 || ch.Extras > ExtraActions(c.Stat("dexterity")) {
			return bad("%s used %d extra actions with Dexterity %d", c.Name, ch.Extras, c.Stat("dexterity"))
		}
		if (ch.Stance == StanceDefence && ch.Attacked) || (ch.Stance == StanceOffence && ch.Defended) || (ch.Bonus && ch.Stance != StanceDefence) {
			return bad("%s acted against the stance %q", c.Name, ch.Stance)
		}
	}
	if w := s.Waiting; w != nil {
		if s.char(w.TargetID) == nil || w.AttackerID != s.Current() {
			return bad("%s's attack on %s waits, but it is %s's turn", w.AttackerID, w.TargetID, s.Current())
		}
	}
	for _, h := range s.History {
		for _, t := range h.Turns {
			if s.NameOf(t.Who) == "" {
				return bad("round %d's history holds a turn of %s, who never was", h.Round, t.Who)
			}
			for _, a := range t.Acts {
				if (a.Who != "" && s.NameOf(a.Who) == "") || (a.Other != "" && s.NameOf(a.Other) == "") {
					return bad("round %d's history names %s or %s, who never were", h.Round, a.Who, a.Other)
				}
			}
		}
	}
	return nil
}
