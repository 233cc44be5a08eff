package web

import (
	"encoding/json"
	"strings"

	"fray"
	"fray/engine"
)

// Redact returns what a caller with the given role may see of a view and
// of events, given the names of the combatants kept secret from players
// (lower case; those added hidden and not revealed since, removed ones
// included). It is the one place hidden information is taken out: every
// endpoint and the event stream pass through it.
//
// A GM sees everything. A player sees:
//   - the view without hidden combatants (fray.View.ForPlayers), without
//     any GM note, without an NPC's numbers (see forPlayers) but with the
//     band of its health (see Band), and without
//     any other mention of a secret combatant (a slot's note, a turn's
//     words, a condition);
//   - only the events that name no secret combatant anywhere in their
//     data or rolls, with no noted events at all, without the command
//     text (which may carry notes= or an NPC's numbers), without the odds
//     a roll had (against an NPC they give away its stats), and with the
//     notes and NPC numbers taken out of added events; an event that
//     names anyone but visible PCs (in its data or its rolls) also loses
//     every number of its data and the rolls made for anyone but a
//     visible PC, so that a roll against an NPC says who rolled, what and
//     which band came, but not the NPC's stat, difficulty or dice (see
//     redactNumbers);
//   - the answer to "odds COMMAND …" only for a roll that involves player
//     characters alone (see RedactOdds); any other is refused whole.
//
// The secret set is the current one: once the GM reveals a combatant,
// players see its past events too (those still naming a secret excepted).
// Players do not get the log itself: it is the GM's whole record, and a
// log with events taken out could not be imported (see exportLog).
func Redact(role string, secret map[string]bool, v fray.View, evs []fray.Event) (View, []fray.Event) {
	if role == fray.RoleGM {
		return withBands(v, v.Combatants), evs
	}
	return withBands(redactView(secret, v), v.Combatants), redactEvents(secret, v.Combatants, evs)
}

func redactView(secret map[string]bool, v fray.View) fray.View {
	p := v.ForPlayers()
	cs := make([]fray.Combatant, 0, len(p.Combatants))
	for _, c := range p.Combatants {
		if !secret[strings.ToLower(c.Name)] {
			cs = append(cs, forPlayers(secret, c))
		}
	}
	p.Combatants = cs
	hit := func(s string) bool { return holds(s, secret) }
	slots := func(in []fray.Slot) []fray.Slot {
		if in == nil {
			return nil
		}
		out := make([]fray.Slot, 0, len(in))
		for _, sl := range in {
			if hit(sl.Name) {
				continue
			}
			if hit(sl.Note) {
				sl.Note = ""
			}
			out = append(out, sl)
		}
		return out
	}
	p.Order, p.Next = slots(p.Order), slots(p.Next)
	if hit(p.Current) {
		p.Current = ""
	}
	hist := make([]fray.RoundTurns, len(p.History))
	for i, h := range p.History {
		turns := []string{}
		for _, t := range h.Turns {
			if hit(t) {
				// "Ann (reacts to Zed)" → "Ann"; a secret's own turn goes.
				name, _, _ := strings.Cut(t, " (")
				if hit(name) {
					continue
				}
				t = name
			}
			turns = append(turns, t)
		}
		hist[i] = fray.RoundTurns{Round: h.Round, Turns: turns}
	}
	p.History = hist
	// A last check over every string, in case a system puts a name
	// somewhere new: keep only the order's names then.
	if b, err := json.Marshal(p); err != nil || walkJSON(b, hit) {
		safe := fray.View{Rules: p.Rules, Started: p.Started, Round: p.Round, Current: p.Current, History: []fray.RoundTurns{}, Combatants: p.Combatants}
		for _, sl := range p.Order {
			safe.Order = append(safe.Order, fray.Slot{Name: sl.Name, Phase: sl.Phase, Markers: sl.Markers})
		}
		return safe
	}
	return p
}

// holds reports whether s holds a secret name, without regard to case.
func holds(s string, secret map[string]bool) bool {
	if s == "" || len(secret) == 0 {
		return false
	}
	s = strings.ToLower(s)
	for name := range secret {
		if strings.Contains(s, name) {
			return true
		}
	}
	return false
}

// walkJSON reports whether f holds for any string in the JSON b (or b is
// not JSON).
func walkJSON(b []byte, f func(string) bool) bool {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return true
	}
	return walk(v, f, 0)
}

// forPlayers returns what players see of a combatant that is not
// hidden: no GM notes, no condition that names a secret combatant, and of
// an NPC only its name, kind, side, group, awareness and conditions (so a
// field added to the character sheet later stays the GM's until it is
// shown here on purpose).
func forPlayers(secret map[string]bool, c fray.Combatant) fray.Combatant {
	var conds []fray.Condition
	for _, k := range c.Conditions {
		if b, err := json.Marshal(k); err == nil && !walkJSON(b, func(s string) bool { return holds(s, secret) }) {
			conds = append(conds, k)
		}
	}
	if c.IsPC() {
		c.Notes = ""
		c.Conditions = conds
		return c
	}
	return fray.Combatant{Name: c.Name, Kind: c.Kind, Side: c.Side, Group: c.Group, Unaware: c.Unaware, Conditions: conds}
}

func redactEvents(secret map[string]bool, cs []fray.Combatant, evs []fray.Event) []fray.Event {
	others, pcs := parties(secret, cs)
	// A combatant removed since its events may still be added in them.
	for _, ev := range evs {
		var d fray.AddedData
		if ev.Type == fray.EventAdded && ev.Decode(&d) == nil && !d.Combatant.IsPC() {
			name := strings.ToLower(d.Combatant.Name)
			others[name] = true
			delete(pcs, name)
		}
	}
	out := make([]fray.Event, 0, len(evs))
	for _, ev := range evs {
		if ev.Type == fray.EventNoted || mentions(ev, secret) {
			continue
		}
		ev.Command = ""
		// Odds are the GM's view before a roll: against an NPC they give
		// away its stats and bound its tracks.
		ev.Odds = nil
		if ev.Type == fray.EventAdded {
			var d fray.AddedData
			if ev.Decode(&d) != nil || d.Combatant.Hidden {
				continue
			}
			d.Combatant = forPlayers(secret, d.Combatant)
			clean, err := fray.NewEvent(ev.Type, d, ev.Rolls...)
			if err != nil {
				continue
			}
			ev.Data = clean.Data
		}
		if !redactNumbers(&ev, others, pcs) {
			continue
		}
		out = append(out, ev)
	}
	return out
}

// parties returns the names (lower case) of the visible PCs among cs, and
// of everyone else: NPCs, groups, environments, hidden combatants and
// every secret name.
func parties(secret map[string]bool, cs []fray.Combatant) (others, pcs map[string]bool) {
	others, pcs = map[string]bool{}, map[string]bool{}
	for name := range secret {
		others[name] = true
	}
	for _, c := range cs {
		name := strings.ToLower(c.Name)
		if c.IsPC() && !c.Hidden && !secret[name] {
			pcs[name] = true
		} else {
			others[name] = true
		}
	}
	return others, pcs
}

// redactNumbers takes out of a player's event that names anyone but the
// visible PCs pcs (a name of others in its data, or a roll for anyone
// else) every number of its data, and the rolls made for anyone but
// them: what an NPC rolled, its stat, its difficulty, the damage it took
// stay the GM's; who acted, what the roll was and which band came stay
// in the event's words. It reports false when the data cannot be read,
// and the event is then left out.
func redactNumbers(ev *fray.Event, others, pcs map[string]bool) bool {
	var v any
	if len(ev.Data) > 0 && json.Unmarshal(ev.Data, &v) != nil {
		return false
	}
	involves := v != nil && walk(v, func(s string) bool { return holds(s, others) }, 0)
	var rolls []fray.Roll
	for _, r := range ev.Rolls {
		if pcs[strings.ToLower(r.For)] {
			rolls = append(rolls, r)
		} else {
			involves = true
		}
	}
	if !involves {
		return true
	}
	// A new event, so that no payload kept from NewEvent outlives its data.
	clean := fray.Event{Seq: ev.Seq, Step: ev.Step, Type: ev.Type, Command: ev.Command, Rolls: rolls, Odds: ev.Odds}
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

// mentions reports whether any string in the event's data, rolls or odds holds
// a secret name (compared without regard to case). An event whose data
// cannot be read counts as mentioning one.
func mentions(ev fray.Event, secret map[string]bool) bool {
	if len(secret) == 0 {
		return false
	}
	hit := func(s string) bool { return holds(s, secret) }
	for _, r := range ev.Rolls {
		if hit(r.For) {
			return true
		}
	}
	if ev.Odds != nil {
		if b, err := json.Marshal(ev.Odds); err != nil || walkJSON(b, hit) {
			return true
		}
	}
	return len(ev.Data) > 0 && walkJSON(ev.Data, hit)
}

// walk reports whether f holds for any string (key or value) in v.
func walk(v any, f func(string) bool, depth int) bool {
	if depth > 64 {
		return true
	}
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		for _, e := range x {
			if walk(e, f, depth+1) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if f(k) || walk(e, f, depth+1) {
				return true
			}
		}
	}
	return false
}

// RedactCommand refuses a player's command that names a secret combatant
// exactly as it would refuse a name nobody has, so that a player cannot
// find a hidden combatant by guessing its name. It returns nil for a GM.
func RedactCommand(role string, secret map[string]bool, cmd fray.Command) error {
	if role == fray.RoleGM || len(secret) == 0 {
		return nil
	}
	words := append([]string(nil), cmd.Args...)
	for _, v := range cmd.Opts {
		words = append(words, v)
	}
	for _, w := range words {
		if secret[strings.ToLower(w)] {
			return fray.Errorf(fray.ENOTFOUND, noSuchCombatant)
		}
	}
	return nil
}

// noSuchCombatant is what a player reads for any name nobody has, hidden
// or not, so that the answers cannot tell the two apart.
const noSuchCombatant = "There is no combatant by that name."

// RedactError returns the message of a refusal with the given code as a
// caller with the given role may read it: a player gets a plain sentence
// instead of one that names a secret combatant, and the same sentence for
// every name nobody has.
func RedactError(role string, secret map[string]bool, code, msg string) string {
	if role == fray.RoleGM {
		return msg
	}
	if code == fray.ENOTFOUND {
		return noSuchCombatant
	}
	if holds(msg, secret) {
		return "The rules refuse this command now."
	}
	return msg
}

// RedactOdds reports whether a caller with the given role may have the
// odds o that the command cmd ("odds COMMAND …") gave in an encounter
// whose whole view (the GM's) is v; it returns nil when they may, and an
// EFORBIDDEN *fray.Error saying that the GM keeps them when not.
//
// The GM always gets the odds. A player gets them only when the roll
// involves player characters alone: no word of the command (an argument,
// or an option's value or one of its comma-separated names) names a
// combatant that is not a visible PC, no text of the odds (who rolls, the
// command, a modifier's source) holds the name of one, and the roll does
// not answer another that the command leaves unnamed: a defence (block,
// dodge, parry, defend) or a spend on a roll already made is an answer
// and needs the command to name a second PC, the one answered. Otherwise
// the whole answer is refused, not only the target and the modifiers:
// with their own numbers known, the chance of each band alone gives a
// player an NPC's defence or attack back. A refusal names no one; that a
// roll is refused can still tell a player that someone besides the PCs
// bears on it (a hidden combatant's condition on their character, say),
// which is the price of never giving odds that leave that out.
func RedactOdds(role string, secret map[string]bool, v fray.View, cmd fray.Command, o fray.Odds) error {
	if role == fray.RoleGM {
		return nil
	}
	kept := fray.Errorf(fray.EFORBIDDEN, oddsKept)
	inner, err := engine.OddsCommand(cmd)
	if err != nil {
		return kept
	}
	// others holds every name a player's odds may not involve: NPCs,
	// environments, groups, and anyone hidden or secret.
	others, pcs := parties(secret, v.Combatants)
	words := append([]string(nil), inner.Args...)
	for _, val := range inner.Opts {
		words = append(words, val)
		words = append(words, strings.Split(val, ",")...)
	}
	named := map[string]bool{}
	for _, w := range words {
		w = strings.ToLower(strings.TrimSpace(w))
		if others[w] {
			return kept
		}
		if pcs[w] {
			named[w] = true
		}
	}
	if b, err := json.Marshal(o); err != nil || walkJSON(b, func(s string) bool { return holds(s, others) }) {
		return kept
	}
	if oddsAnswers[inner.Name] && len(named) < 2 {
		return kept
	}
	return nil
}

// oddsKept is what a player reads when the GM keeps the odds of a roll.
const oddsKept = "The GM keeps the odds of this roll: it involves someone other than the player characters, and its chances would give their numbers away."

// oddsAnswers lists the command words whose roll answers another roll
// (an attack to block, a roll to spend on) that the command need not
// name: their odds hold the numbers of the roll answered.
var oddsAnswers = map[string]bool{"block": true, "dodge": true, "parry": true, "defend": true, "spend": true}
