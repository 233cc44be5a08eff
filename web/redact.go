package web

import (
	"encoding/json"
	"errors"
	"strings"

	"fray"
	"fray/engine"
)

// Sight is what players may know of an encounter at one revision, worked
// out from its state by ids and declared visibility, never by searching
// words: which combatants, present or gone, they may know of (those not
// hidden), which of those are player characters, and the names the rules
// hold for them. It is a snapshot: later changes to the encounter do not
// touch it.
type Sight struct {
	known   fray.Encounter // every combatant, present and gone, reduced to who it is
	visible map[fray.CombatantID]bool
	pcs     map[fray.CombatantID]bool
	byName  map[string]fray.CombatantID // folded name → id, present ones over gone
	exact   map[string]fray.CombatantID // the same by the name as the rules hold it
	health  string                      // the health track, for bands (HealthTrack)
	sys     fray.System                 // the rules, which tell events in words (told.go)
	names   map[fray.CombatantID]string // every combatant's name now, present or gone
}

// NewSight returns what players may know of enc now, an encounter under
// sys (whose health track gives the bands players see: HealthTrack).
func NewSight(sys fray.System, enc *fray.Encounter) *Sight {
	if enc == nil {
		enc = &fray.Encounter{}
	}
	n := len(enc.Combatants) + len(enc.Gone)
	s := &Sight{health: HealthTrack(sys), sys: sys, names: make(map[fray.CombatantID]string, n), visible: make(map[fray.CombatantID]bool, n), pcs: make(map[fray.CombatantID]bool, n), byName: make(map[string]fray.CombatantID, n), exact: make(map[string]fray.CombatantID, n)}
	note := func(id fray.CombatantID, name, side string, hidden bool) {
		key := fold(name)
		s.names[id] = name
		s.exact[name] = id
		if !hidden {
			s.visible[id] = true
			if side == fray.SidePC {
				s.pcs[id] = true
			}
		}
		s.byName[key] = id
	}
	for i := len(enc.Gone) - 1; i >= 0; i-- {
		g := enc.Gone[i]
		if _, ok := s.byName[fold(g.Name)]; !ok {
			note(g.ID, g.Name, g.Side, g.Hidden)
		} else if _, ok := s.names[g.ID]; !ok {
			s.names[g.ID] = g.Name
		}
	}
	for _, c := range enc.Combatants {
		note(c.ID, c.Name, c.Side, c.Hidden)
		s.known.Combatants = append(s.known.Combatants, &fray.Combatant{ID: c.ID, Name: c.Name, Kind: c.Kind, Side: c.Side, Hidden: c.Hidden})
	}
	return s
}

// present reports whether the combatant id is in the encounter.
func (s *Sight) present(id fray.CombatantID) bool { return s.known.ByID(id) != nil }

// fold returns the key names are told apart by: case does not count.
func fold(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return strings.ToLower(strings.ToUpper(name))
		}
	}
	return strings.ToLower(name)
}

// id returns the id of the combatant the rules call name, or "".
func (s *Sight) id(name string) fray.CombatantID {
	if id, ok := s.exact[name]; ok {
		return id
	}
	return s.byName[fold(name)]
}

// sees reports whether players may know of the combatant named name (as
// the rules hold it); a name that is no combatant's is not seen.
func (s *Sight) sees(name string) bool { return s.visible[s.id(name)] }

// seesAll reports whether players may know of every combatant named.
func (s *Sight) seesAll(names []string) bool {
	for _, n := range names {
		if !s.sees(n) {
			return false
		}
	}
	return true
}

// Redact returns what a caller with the given role may see of a view and
// of events, given what players may know of the encounter (see Sight). It
// is the one place hidden information is taken out: every endpoint and
// the event stream pass through it, and it decides by ids and declared
// visibility alone.
//
// A GM sees everything. A player sees:
//   - of the combatants, those not hidden, without GM notes, an NPC
//     reduced to its name, kind, side, group, awareness and conditions
//     (and the band of its health, see Band), and no condition that
//     declares (Condition.By, Until) someone players may not know of;
//   - of the order, the slots of combatants they may know of; a slot's
//     Status (its tracks) only on a player character's slot, its Note only
//     when every combatant the note declares (Slot.About) may be known;
//     whose turn it is only when that may be known;
//   - of the history, the turns of combatants they may know of, cut to
//     the taker's name when the turn's words declare (RoundTurns.Who)
//     someone players may not know of;
//   - only the events every combatant of whose About they may know of, no
//     noted event, no event that concerned a combatant hidden at the time
//     (fray.Event.Hidden, so that a reveal does not give away what the
//     combatant did unseen or the name they had then), without the command text and the odds a roll had, with
//     added combatants reduced as above, and — for an event that concerns
//     anyone but visible player characters — without the numbers of its
//     data and without the rolls made for anyone but those characters, so
//     that a roll against an NPC says who rolled, what and which band
//     came, but not the NPC's stat, difficulty or dice. An event that
//     declares nothing because it comes from a log older than
//     declarations (fray.AboutUndeclared) is the GM's alone.
//
// Players do not get the log itself: it is the GM's whole record, and a
// log with events taken out could not be imported (see exportLog).
func Redact(role string, s *Sight, v fray.View, evs []fray.Event) (View, []fray.Event) {
	if role == fray.RoleGM {
		return withBands(v, v.Combatants, s.health), evs
	}
	return withBands(redactView(s, v), v.Combatants, s.health), redactEvents(s, evs)
}

func redactView(s *Sight, v fray.View) fray.View {
	p := v
	p.Combatants = make([]fray.Combatant, 0, len(v.Combatants))
	for _, c := range v.Combatants {
		if !c.Hidden && s.visible[c.ID] {
			p.Combatants = append(p.Combatants, forPlayers(s, c))
		}
	}
	slots := func(in []fray.Slot) []fray.Slot {
		if in == nil {
			return nil
		}
		out := make([]fray.Slot, 0, len(in))
		for _, sl := range in {
			id := sl.ID
			if id == "" {
				id = s.id(sl.Name)
			}
			if !s.visible[id] {
				continue
			}
			if !s.pcs[id] {
				sl.Status = ""
			}
			if !s.seesAll(sl.About) {
				sl.Note, sl.About = "", nil
			}
			out = append(out, sl)
		}
		return out
	}
	p.Order, p.Next = slots(v.Order), slots(v.Next)
	cur := v.CurrentID
	if cur == "" {
		cur = s.id(v.Current)
	}
	if v.Current != "" && !s.visible[cur] {
		p.Current, p.CurrentID = "", ""
	}
	p.History = make([]fray.RoundTurns, len(v.History))
	for i, h := range v.History {
		turns := []string{}
		for j, t := range h.Turns {
			// Every system declares each turn's taker first (a turn
			// that declares nobody is left out).
			if j >= len(h.Who) || len(h.Who[j]) == 0 {
				continue
			}
			who := h.Who[j]
			switch {
			case !s.sees(who[0]):
				continue
			case !s.seesAll(who):
				t = who[0] // "Ann (reacts to Zed)" → "Ann"
			}
			turns = append(turns, t)
		}
		p.History[i] = fray.RoundTurns{Round: h.Round, Turns: turns}
	}
	return p
}

// forPlayers returns what players see of a combatant that is not
// hidden: no GM notes, no condition that declares someone players may not
// know of, and of an NPC only its id, name, kind, side, group, awareness
// and conditions (so a field added to the character sheet later stays
// the GM's until it is shown here on purpose).
func forPlayers(s *Sight, c fray.Combatant) fray.Combatant {
	var conds []fray.Condition
	for _, k := range c.Conditions {
		if s.seesAll(k.Who()) {
			conds = append(conds, k)
		}
	}
	if c.IsPC() {
		c.Notes = ""
		c.Conditions = conds
		return c
	}
	return fray.Combatant{ID: c.ID, Name: c.Name, Kind: c.Kind, Side: c.Side, Group: c.Group, Unaware: c.Unaware, Conditions: conds}
}

func redactEvents(s *Sight, evs []fray.Event) []fray.Event {
	out := make([]fray.Event, 0, len(evs))
next:
	for _, ev := range evs {
		if ev.Type == fray.EventNoted || ev.Hidden {
			continue
		}
		for _, id := range ev.About {
			if !s.visible[id] {
				continue next
			}
		}
		pcsOnly := s.pcsOnly(ev)
		ev.Command = ""
		// Odds are the GM's view before a roll: against an NPC they give
		// away its stats and bound its tracks.
		ev.Odds = nil
		if ev.Type == fray.EventAdded {
			var d fray.AddedData
			if ev.Decode(&d) != nil || d.Combatant.Hidden {
				continue
			}
			d.Combatant = forPlayers(s, d.Combatant)
			clean, err := fray.NewEvent(ev.Type, d, ev.Rolls...)
			if err != nil {
				continue
			}
			ev.Data = clean.Data
		}
		if !pcsOnly && !redactNumbers(&ev, s) {
			continue
		}
		out = append(out, ev)
	}
	return out
}

// pcsOnly reports whether the event concerns visible player characters
// alone, whose numbers players may see: every combatant of its About, and
// everyone its rolls are for. A roll that does not say by id whom it is
// for (an older log's label, "Vile (might 3d)") may be anyone's.
func (s *Sight) pcsOnly(ev fray.Event) bool {
	for _, id := range ev.About {
		if !s.pcs[id] {
			return false
		}
	}
	for _, r := range ev.Rolls {
		if !s.pcs[r.Who] {
			return false
		}
	}
	return true
}

// redactNumbers takes out of a player's event that concerns anyone but
// visible player characters every number of its data, and the rolls made
// for anyone but those characters: what an NPC rolled, its stat, its
// difficulty, the damage it took stay the GM's; who acted, what the roll
// was and which band came stay in the event's words. It reports false
// when the data cannot be read, and the event is then left out.
func redactNumbers(ev *fray.Event, s *Sight) bool {
	var v any
	if len(ev.Data) > 0 && json.Unmarshal(ev.Data, &v) != nil {
		return false
	}
	var rolls []fray.Roll
	for _, r := range ev.Rolls {
		if s.pcs[r.Who] {
			rolls = append(rolls, r)
		}
	}
	// A new event, so that no payload kept from NewEvent outlives its data.
	clean := fray.Event{Seq: ev.Seq, Step: ev.Step, Type: ev.Type, Command: ev.Command, Rolls: rolls, Odds: ev.Odds, About: ev.About}
	if v != nil {
		b, err := json.Marshal(withoutNumbers(v, 0))
		if err != nil {
			return false
		}
		clean.Data = b
	}
	*ev = clean
	return true
}

// withoutNumbers returns the decoded JSON v without its numbers: an
// object's members whose values are numbers go, and so do the numbers of
// an array.
func withoutNumbers(v any, depth int) any {
	if depth > 64 {
		return nil
	}
	switch x := v.(type) {
	case float64:
		return nil
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			if _, num := e.(float64); !num {
				out = append(out, withoutNumbers(e, depth+1))
			}
		}
		return out
	case map[string]any:
		for k, e := range x {
			if _, num := e.(float64); num {
				delete(x, k)
			} else {
				x[k] = withoutNumbers(e, depth+1)
			}
		}
		return x
	}
	return v
}

// noSuchCombatant is what a player reads for any name nobody has, hidden
// or not, so that the answers cannot tell the two apart.
const noSuchCombatant = "There is no combatant by that name."

// RedactError returns the message of the refusal err as a caller with
// the given role may read it. A player gets the same sentence for every
// name they may not use (ENOTFOUND): the rules resolve a player's names
// among the combatants players may know of (see fray.Encounter.Resolve),
// so a hidden one is refused exactly as a name nobody has. A refusal
// declares the combatants its words mention (fray.Error's About and
// Names, made by fray.Errorf from its arguments); when one of them is a
// combatant players may not know of (whose turn it is, say), a player
// reads a plain sentence instead. Nothing in the words is searched.
func RedactError(role string, s *Sight, err error) string {
	msg := fray.ErrorMessage(err)
	if role == fray.RoleGM {
		return msg
	}
	if fray.ErrorCode(err) == fray.ENOTFOUND {
		return noSuchCombatant
	}
	var fe *fray.Error
	if errors.As(err, &fe) {
		for _, id := range fe.About {
			if !s.visible[id] {
				return refused
			}
		}
		if !s.seesAll(fe.Names) {
			return refused
		}
	}
	return msg
}

// refused is what a player reads for a refusal whose words are the GM's.
const refused = "The rules refuse this command now."

// RedactOdds reports whether a caller with the given role may have the
// odds o that the command cmd ("odds COMMAND …") gave; it returns nil when
// they may, and an EFORBIDDEN *fray.Error saying that the GM keeps them
// when not.
//
// The GM always gets the odds. A player gets them only when the roll
// involves player characters alone: no word of the command (an argument,
// or an option's value or one of its comma-separated names) names, as the
// player may name combatants, one that is not a player character; every
// combatant the odds declare (who rolls, the combatants a modifier's
// source names) is a visible player character; and the roll does not
// answer another that the command leaves unnamed: a defence (block, dodge,
// parry, defend) or a spend on a roll already made is an answer and needs
// the command to name a second PC, the one answered. Otherwise the whole
// answer is refused, not only the target and the modifiers: with their
// own numbers known, the chance of each band alone gives a player an
// NPC's defence or attack back. A refusal names no one; that a roll is
// refused can still tell a player that someone besides the PCs bears on
// it (a hidden combatant's condition on their character, say), which is
// the price of never giving odds that leave that out.
func RedactOdds(role string, s *Sight, ds []fray.CommandDecl, cmd fray.Command, o fray.Odds) error {
	if role == fray.RoleGM {
		return nil
	}
	kept := fray.Errorf(fray.EFORBIDDEN, oddsKept)
	inner, err := engine.OddsCommand(cmd)
	if err != nil {
		return kept
	}
	words := append([]string(nil), inner.Args...)
	for _, val := range inner.Opts {
		words = append(words, val)
		words = append(words, strings.Split(val, ",")...)
	}
	player := fray.Viewer{Role: fray.RolePlayer}
	named := map[fray.CombatantID]bool{}
	for _, w := range words {
		c, err := s.known.Resolve(player, strings.TrimSpace(w))
		if err != nil {
			continue // not a name players may use
		}
		if !s.pcs[c.ID] {
			return kept
		}
		named[c.ID] = true
	}
	names, ids := fray.Refs(o)
	for _, n := range names {
		if !s.pcs[s.id(n)] {
			return kept
		}
	}
	for _, id := range ids {
		if !s.pcs[id] {
			return kept
		}
	}
	if d, ok := fray.FindDecl(ds, inner.Name); ok && d.Answers && len(named) < 2 {
		return kept
	}
	return nil
}

// oddsKept is what a player reads when the GM keeps the odds of a roll.
const oddsKept = "The GM keeps the odds of this roll: it involves someone other than the player characters, and its chances would give their numbers away."
