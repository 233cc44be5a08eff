package queue

import (
	"cmp"
	"slices"
	"sync"

	"fray"
	"fray/dice"
	"fray/engine"
)

// Bands of the queue roll's odds are named after the party that
// rolls: "Johann first", "Brigands first"; odds initiative NAME adds
// "NAME not first".
const (
	bandFirst    = " first"
	bandNotFirst = " not first"
)

// InitiativeExpr is the queue roll in words, as its odds show it: every
// party (a combatant, or a group rolling once) rolls it.
const InitiativeExpr = HitDie + " + Wits each"

// party is one roll of the queue: a combatant, or a group whose
// members roll once and stand together.
type party struct {
	key     string             // unitKey: the combatant's id, or "group:" and the group's name
	unit    Unit               // the unit that rolls (unitOf)
	name    string             // who rolls: the combatant's name or the group's
	members []fray.CombatantID // in the GM's tiebreak order
	names   []string           // the members' names, in the same order
	bonus   int                // Wits + bonus; a group's is its best member's
	byBonus bool               // bonus holds a bonus stat as well as Wits
	pc      bool               // a PC is among the members: equal scores favour PCs
	added   int                // where the party's first member stands in the encounter
}

// parties returns those who roll at the start, in the GM's tiebreak order
// (engine.Tiebreak: those named with order first, then in the order they
// were added); a group stands where its first member would. It refuses,
// in Decide's words, a start that cannot be made.
func (s *State) parties() ([]*party, error) {
	if s.Started {
		return nil, fray.Errorf(fray.EINVALID, "The encounter has already started.")
	}
	if len(s.Combatants) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "Nobody is in the encounter; add the combatants first.")
	}
	added := make(map[string]int, len(s.Combatants))
	for i, c := range s.Combatants {
		if _, ok := added[unitKey(c)]; !ok {
			added[unitKey(c)] = i
		}
	}
	var out []*party
	byKey := map[string]*party{}
	for _, id := range engine.Tiebreak(&s.Encounter, s.Tiebreak) {
		c := s.ByID(id)
		k := unitKey(c)
		b := c.Stat(StatWits) + c.Stat(StatBonus)
		p := byKey[k]
		if p == nil {
			p = &party{key: k, unit: unitOf(c), name: c.Name, bonus: b, byBonus: c.Stat(StatBonus) != 0, added: added[k]}
			if c.Group != "" {
				p.name = c.Group
			}
			byKey[k] = p
			out = append(out, p)
		}
		p.members = append(p.members, c.ID)
		p.names = append(p.names, c.Name)
		if b > p.bonus {
			p.bonus, p.byBonus = b, c.Stat(StatBonus) != 0
		}
		p.pc = p.pc || c.IsPC()
	}
	return out, nil
}

// beatsOnTie reports whether party a (at index ia of the tiebreak order)
// stands above party b (at ib) when both score the same: PCs first, then
// the GM's tiebreak order, as engine.SortRanked on {score, pc} does with
// the parties in that order.
func beatsOnTie(a, b *party, ia, ib int) bool {
	if a.pc != b.pc {
		return a.pc
	}
	return ia < ib
}

// d20 is the distribution of the queue roll's die, from package dice,
// with its cumulative chances, worked out once and never written.
type d20 struct {
	dist   *dice.Dist
	atMost []float64 // atMost[i]: the chance of dist.Min+i or less
}

var d20Odds = sync.OnceValues(func() (d20, error) {
	d, err := mustParse(HitDie).Dist(dice.DistOptions{})
	if err != nil {
		return d20{}, fray.Errorf(fray.EINTERNAL, "The queue roll's odds: %v.", err)
	}
	atMost, _ := d.Cumulative()
	return d20{dist: d, atMost: atMost}, nil
})

// prob returns the chance that the die plus bonus shows exactly v.
func (d d20) prob(bonus, v int) float64 {
	return d.dist.Prob(v - bonus)
}

// below returns the chance that the die plus bonus shows less than v.
func (d d20) below(bonus, v int) float64 {
	i := v - 1 - bonus - d.dist.Min
	switch {
	case i < 0:
		return 0
	case i >= len(d.atMost):
		return 1
	}
	return d.atMost[i]
}

// firstOdds returns, for each party (in the order given, the GM's
// tiebreak order), the exact chance that it heads the new queue. The
// rolls are independent, so P(i first) = Σ_t P(X_i = t) · Π_{j≠i} P(j
// does not beat i at t), where j does not beat i at t when X_j < t, or
// X_j = t and i wins the tie (beatsOnTie). The tie rules settle every
// tie (the GM's order, then the order of adding), so no tie is split.
// It takes O(parties² × 20) steps.
func firstOdds(ps []*party) ([]float64, error) {
	d, err := d20Odds()
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(ps))
	for i, p := range ps {
		for k, pt := range d.dist.P {
			t := d.dist.Min + k + p.bonus
			q := pt
			for j, o := range ps {
				if j == i {
					continue
				}
				not := d.below(o.bonus, t)
				if beatsOnTie(p, o, i, j) {
					not += d.prob(o.bonus, t)
				}
				if q *= not; q == 0 {
					break
				}
			}
			out[i] += q
		}
	}
	return out, nil
}

// scoreDist returns the distribution of a party's score, 1d20 + bonus:
// the die's, moved by the bonus.
func scoreDist(bonus int) (*dice.Dist, error) {
	d, err := d20Odds()
	if err != nil {
		return nil, err
	}
	return &dice.Dist{Min: d.dist.Min + bonus, P: d.dist.P}, nil
}

// startOdds returns the odds of the queue roll the start makes (Q-1,
// SPEC E-6): one band per party, "NAME first", in the order the parties
// were added, with the exact chance that it heads the new queue after the
// tie rules (PCs first, then the GM's order with order, then the order of
// adding); parties that cannot come first are left out. Each party's
// bonus is a modifier, "NAME: Wits" (a group's is its best member's).
// Dice entered with initiative NAME DIE, or dice= and roll= on start, are
// the roll's physical dice: the odds are those the roll had before any
// die was thrown.
func (s *State) startOdds(cmd fray.Command) (fray.Odds, error) {
	ps, err := s.parties()
	if err != nil {
		return fray.Odds{}, err
	}
	return startOddsOf(cmd, ps)
}

// startOddsOf works out startOdds for the parties ps (in the GM's
// tiebreak order).
func startOddsOf(cmd fray.Command, ps []*party) (fray.Odds, error) {
	pf, err := firstOdds(ps)
	if err != nil {
		return fray.Odds{}, err
	}
	o := fray.Odds{Command: cmd.String(), Roll: "initiative", Expr: InitiativeExpr, Bands: []fray.Band{}}
	for _, i := range byAdded(ps) {
		p := ps[i]
		o.Modifiers = append(o.Modifiers, p.modifier())
		if pf[i] > 0 {
			o.Bands = append(o.Bands, fray.Band{Name: p.name + bandFirst, P: pf[i], Who: p.who()})
		}
	}
	return o, nil
}

// byAdded returns the indexes of ps in the order their parties were
// added to the encounter.
func byAdded(ps []*party) []int {
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(ps[a].added, ps[b].added) })
	return idx
}

// modifier returns the party's bonus as its odds list it: "Johann: Wits",
// "Ann: Wits + bonus".
func (p *party) modifier() fray.Modifier {
	src := p.name + ": Wits"
	if p.byBonus {
		src += " + bonus"
	}
	return fray.Modifier{Source: src, Who: p.who(), Value: p.bonus}
}

// who returns whom the party's words name: the combatant who rolls, or a
// group's members (a group's name is no combatant's).
func (p *party) who() []string {
	if p.unit.Group != "" {
		return append([]string{p.name}, p.names...)
	}
	return []string{p.name}
}

// initiativeOdds gives the odds of one party's queue roll (odds
// initiative NAME): the chance that the party of NAME (its group, if it
// has one) heads the queue the start would form, and the distribution of
// its score, 1d20 + Wits + bonus. It is refused where initiative
// NAME would be: once the queue is formed.
func (s *State) initiativeOdds(cmd fray.Command) (fray.Odds, error) {
	if len(cmd.Args) != 1 {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "Usage: odds initiative NAME (the odds of NAME's queue roll; a die's face has no odds).")
	}
	if s.Started {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "Initiative is rolled at the start; the queue is already formed.")
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return fray.Odds{}, err
	}
	ps, err := s.parties()
	if err != nil {
		return fray.Odds{}, err
	}
	pf, err := firstOdds(ps)
	if err != nil {
		return fray.Odds{}, err
	}
	i := 0
	for ps[i].key != unitKey(c) {
		i++
	}
	p := ps[i]
	d, err := scoreDist(p.bonus)
	if err != nil {
		return fray.Odds{}, err
	}
	o := fray.Odds{
		Command: cmd.String(), For: p.name, Roll: "initiative", Expr: HitDie + signed(p.bonus),
		Bands:     []fray.Band{{Name: p.name + bandNotFirst, P: 1 - pf[i], Who: p.who()}, {Name: p.name + bandFirst, P: pf[i], Who: p.who()}},
		Modifiers: []fray.Modifier{p.modifier()},
		Mean:      d.Mean(),
	}
	for k, q := range d.P {
		if q > 0 {
			o.Dist = append(o.Dist, fray.Point{V: d.Min + k, P: q})
		}
	}
	return o, nil
}
