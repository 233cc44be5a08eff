package sim

import (
	"slices"
	"strings"

	"fray"
)

// This file holds the tactics: how a side's combatants choose their
// moves, and how a tactic is named.

// Tactic is how the combatants of one side choose their moves. Tactics
// are wire strings: never rename one.
type Tactic string

// The tactics. Under each, a combatant on its turn makes one attack, with
// the attack that has the most expected damage on the foe chosen, then
// ends the turn; to a roll that waits it gives the answer that costs
// nothing, and it takes no defence that costs it anything, except under
// Cautious.
const (
	// FocusWeakest attacks the standing foe with the least left of its
	// track, ties going to the one added first.
	FocusWeakest Tactic = "focus-weakest"
	// FocusStrongest attacks the standing foe with the most left of its
	// track, ties going to the one added first.
	FocusStrongest Tactic = "focus-strongest"
	// Random attacks a standing foe chosen at random.
	Random Tactic = "random"
	// Cautious attacks as FocusWeakest does and, when a hit meets it
	// and the rules offer a defence that costs something (a forced
	// block or dodge, a dodge or parry that spends a defence, Resolve
	// spent on the attack's roll), takes the one whose exact odds of
	// negating the hit are best, when they are better than even (the
	// system's fray.SimGuarder); otherwise the answer that costs
	// nothing. Attacked, it answers the attack itself where the rules
	// let the target wait to see the attack's roll (SimWait).
	Cautious Tactic = "cautious"
)

// Tactics lists the tactics, the default first.
var Tactics = []Tactic{FocusWeakest, FocusStrongest, Random, Cautious}

// ParseTactics reads a tactic for each side or combatant, such as
// "pc=focus-weakest,npc=random,Ann=focus-strongest"; Run tells a side from
// a combatant's name. A combatant left out takes its side's tactic, a
// side left out FocusWeakest.
func ParseTactics(spec string) (map[string]Tactic, error) {
	out := map[string]Tactic{}
	if strings.TrimSpace(spec) == "" {
		return out, nil
	}
	for _, part := range strings.Split(spec, ",") {
		side, word, ok := strings.Cut(strings.TrimSpace(part), "=")
		side, t := strings.ToLower(strings.TrimSpace(side)), Tactic(strings.ToLower(strings.TrimSpace(word)))
		if !ok || side == "" {
			return nil, fray.Errorf(fray.EINVALID, "The tactics %q are not SIDE=TACTIC, such as pc=focus-weakest,npc=random.", part)
		}
		if !slices.Contains(Tactics, t) {
			return nil, fray.Errorf(fray.EINVALID, "There is no tactic %q; choose %s.", t, tacticList())
		}
		out[side] = t
	}
	return out, nil
}

func tacticList() string {
	s := make([]string, len(Tactics))
	for i, t := range Tactics {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// tacticOf returns the tactic c follows: its own, else its side's.
func (p *plan) tacticOf(c *fray.Combatant) Tactic {
	if t, ok := p.own[c.ID]; ok {
		return t
	}
	if s := slices.Index(p.sides, c.Side); s >= 0 {
		return p.tactics[s]
	}
	return FocusWeakest
}

// choose returns the index in f.moves of the move the acting side's
// tactic picks, and whether it is a defence that costs something: a
// cautious combatant's defence (see guard); else an answer (the one
// that costs nothing, listed first); else, unless the actor has attacked
// this turn, the best attack on the tactic's target; else the end of the
// turn. Defences (fray.SimDefend) are passed by.
func (f *fighter) choose(st fray.State, enc *fray.Encounter, acted fray.CombatantID) (int, bool) {
	if f.cautious != nil {
		if i, ok := f.defend(st); ok {
			return i, true
		}
	}
	ms := f.moves
	for i, m := range ms {
		if m.Kind == fray.SimAnswer {
			return i, false
		}
	}
	first := slices.IndexFunc(ms, func(m fray.SimMove) bool { return m.Kind != fray.SimDefend })
	if first < 0 {
		return 0, true
	}
	actor := ms[first].Actor
	if actor != "" && actor != acted {
		if i, ok := f.attack(st, enc, actor); ok {
			return i, false
		}
	}
	for i, m := range f.moves {
		if m.Kind == fray.SimEnd {
			return i, false
		}
	}
	return slices.IndexFunc(f.moves, func(m fray.SimMove) bool { return m.Kind != fray.SimDefend }), false
}

// defend returns the index in f.moves of the defence a cautious
// combatant takes, if any: of the answers after the first (which costs
// nothing) and the defences (fray.SimDefend) open to a cautious
// combatant, the one with the best exact odds of negating the hit, when
// they are better than even. Those the rules refuse are dropped from
// f.moves.
func (f *fighter) defend(st fray.State) (int, bool) {
	best, odds := -1, 0.5
	answers := 0
	for i := 0; i < len(f.moves); i++ {
		m := f.moves[i]
		switch m.Kind {
		case fray.SimAnswer:
			if answers++; answers == 1 {
				continue
			}
		case fray.SimDefend:
		default:
			continue
		}
		if !f.cautious[m.Actor] {
			continue
		}
		p, ok := f.guard.SimGuard(st, m)
		if !ok {
			f.moves = slices.Delete(f.moves, i, i+1)
			i--
			continue
		}
		if p > odds {
			best, odds = i, p
		}
	}
	return best, best >= 0
}

// attack returns the index in f.moves of the actor's best attack by
// expected damage on the target its tactic picks, or false when it has
// none. Attacks the rules refuse are dropped from f.moves. An attack on
// a cautious target is made so that the target answers it, where the
// rules let it (fray.SimGuarder's SimWait).
func (f *fighter) attack(st fray.State, enc *fray.Encounter, actor fray.CombatantID) (int, bool) {
	i, ok := f.bestAttack(st, enc, actor)
	if ok && f.cautious != nil && f.cautious[f.moves[i].Target] {
		if w, ok := f.guard.SimWait(st, f.moves[i]); ok {
			f.moves[i] = w
		}
	}
	return i, ok
}

// bestAttack returns the index in f.moves of the actor's best attack by
// expected damage on the target its tactic picks (see attack).
func (f *fighter) bestAttack(st fray.State, enc *fray.Encounter, actor fray.CombatantID) (int, bool) {
	a := enc.ByID(actor)
	if a == nil {
		return 0, false
	}
	tactic := f.tacticOf(a)
	for {
		// The targets the attacks reach, in the encounter's order.
		f.pick = f.pick[:0]
		for j, c := range enc.Combatants {
			if slices.ContainsFunc(f.moves, func(m fray.SimMove) bool { return m.Kind == fray.SimAttack && m.Target == c.ID }) {
				f.pick = append(f.pick, j)
			}
		}
		if len(f.pick) == 0 {
			return 0, false
		}
		target := f.pick[0]
		switch tactic {
		case Random:
			target = f.pick[f.roller.intN(len(f.pick))]
		case FocusWeakest, FocusStrongest, Cautious:
			for _, j := range f.pick[1:] {
				if (tactic != FocusStrongest && f.health[j] < f.health[target]) || (tactic == FocusStrongest && f.health[j] > f.health[target]) {
					target = j
				}
			}
		}
		id := enc.Combatants[target].ID
		// With one attack on the target there is nothing to weigh; a
		// refusal of it comes from Decide.
		only, count := -1, 0
		for i, m := range f.moves {
			if m.Kind == fray.SimAttack && m.Target == id {
				only, count = i, count+1
			}
		}
		if count == 1 {
			return only, true
		}
		best := -1
		for i := 0; i < len(f.moves); i++ {
			m := &f.moves[i]
			if m.Kind != fray.SimAttack || m.Target != id {
				continue
			}
			e, ok := f.sm.SimExpect(st, *m)
			if !ok {
				f.moves = slices.Delete(f.moves, i, i+1)
				i--
				continue
			}
			m.Expect = e
			if best < 0 || e > f.moves[best].Expect {
				best = i
			}
		}
		if best >= 0 {
			return best, true
		}
	}
}
