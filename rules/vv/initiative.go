package vv

import (
	"math"
	"slices"
	"sync"

	"fray"
	"fray/dice"
)

// InitiativeDice is each character's initiative die (V-1). A full tie on
// phase, Agility and Move Rate that the GM has not ordered is settled by
// a toss of dice of as many faces as there are characters left to place
// (V-2; see State.toss).
const InitiativeDice = "1d10"

// InitiativeRoll is the Roll of the odds the initiative roll records.
const InitiativeRoll = "initiative"

// InitiativeExpr is the Expr of those odds: the expression each character
// rolls, in words.
const InitiativeExpr = "1d10 + Agility each"

// NobodyFirst names the band of a roll after which nobody has an action
// phase (every initiative at 0 or below, or lost to surprise).
const NobodyFirst = "no one acts"

// FirstBand returns the name of the band of the character named name
// acting first in the new turn: "Ann first".
func FirstBand(name string) string { return name + " first" }

// initPoints is the distribution of InitiativeDice, lowest face first.
var initPoints = func() []fray.Point {
	d, err := dice.MustParse(InitiativeDice).Dist(dice.DistOptions{})
	if err != nil {
		panic(err)
	}
	pts := make([]fray.Point, len(d.P))
	for i, p := range d.P {
		pts[i] = fray.Point{V: d.Min + i, P: p}
	}
	return pts
}()

// Roles of a character in a turn's initiative roll under the house rule of
// surprise (V-4).
const (
	rolePlain    = iota // rolls in full; sets no mark and loses nothing
	roleAttacker        // an attacker: the highest attacker's initiative is the mark
	roleVictim          // failed to notice: halved, and loses every phase above the mark
)

// ambush is how a turn's initiative roll treats the ambush (V-4).
type ambush struct {
	// surprise is true on the first turn when someone failed to notice;
	// raw when the victims then roll nothing (the rules as written).
	surprise, raw bool
	// victimSides holds the sides with a victim; allSides is true when
	// every character's side (objects aside) has one.
	victimSides map[string]bool
	allSides    bool
}

// ambushOf returns how the roll for turn treats the ambush.
func (s *State) ambushOf(turn int) ambush {
	a := ambush{raw: s.Setting(SetSurprise, House) == RAW, victimSides: map[string]bool{}}
	for _, ch := range s.Chars {
		if ch.Victim {
			a.surprise = turn == 1
			a.victimSides[s.ByID(ch.ID).Side] = true
		}
	}
	a.allSides = true
	for _, c := range s.Combatants {
		a.allSides = a.allSides && (a.victimSides[c.Side] || c.Kind == fray.KindEnvironment)
	}
	return a
}

// attacker reports whether a character who noticed is an attacker: one on
// no victim's side, or anyone who noticed when every side has a victim. A
// defender who noticed neither loses actions nor sets the mark.
func (a ambush) attacker(c *fray.Combatant) bool {
	return a.allSides || !a.victimSides[c.Side]
}

// party is one character rolling initiative, as the odds see it.
type party struct {
	name string
	// agility, move, gm and added are the keys of the order on one phase
	// (see sortSched); ranked is true when the GM's order names them.
	agility, move, gm, added int
	ranked                   bool
	role                     int
	// init is the distribution of the initiative total, after halving.
	init []fray.Point
}

// initiativeOdds returns the odds of the initiative roll that begins turn
// (V-1, V-2, V-4): for each character who rolls, the exact chance of
// acting first in the new turn, that is of holding its highest phase not
// lost to surprise, after the tie rules of sortSched (Agility, Move Rate,
// the GM's order, then the tie toss, which is even). Dice entered
// with initiative are not looked at: the odds are those the roll had before
// any die was rolled. A held action carried over from the previous turn
// does not count as acting first.
func (s *State) initiativeOdds(turn int) fray.Odds {
	amb := s.ambushOf(turn)
	o := fray.Odds{Roll: InitiativeRoll, Expr: InitiativeExpr}
	if amb.surprise {
		if amb.raw {
			o.Expr += "; the surprised do not roll on the first turn (V-4)"
		} else {
			o.Expr += "; the surprised halve theirs and lose the phases above the attackers' highest (V-4)"
		}
	}
	ps := make([]party, 0, len(s.Combatants))
	capped := false
	raw := s.Setting(SetTies, House) == RAW // as written, Move Rate breaks no tie
	for i, c := range s.Combatants {
		ch := s.char(c.ID)
		if ch == nil || c.Kind == fray.KindEnvironment {
			continue // an object rolls no initiative (V-1)
		}
		p := party{name: c.Name, agility: c.Stat("agility"), move: moveRate(c), added: i}
		if raw {
			p.move = 0
		}
		if p.gm = slices.Index(s.Tiebreak, c.ID); p.gm < 0 {
			p.gm = len(s.Tiebreak)
		} else {
			p.ranked = true
		}
		switch {
		case amb.surprise && ch.Victim && amb.raw:
			continue // rolls nothing on the first turn
		case amb.surprise && ch.Victim:
			p.role = roleVictim
		case amb.surprise && !amb.raw && amb.attacker(c):
			p.role, capped = roleAttacker, true
		}
		p.init = make([]fray.Point, len(initPoints))
		for k, pt := range initPoints {
			v := pt.V + p.agility
			if p.role == roleVictim {
				v = floorHalf(v)
			}
			p.init[k] = fray.Point{V: v, P: pt.P}
		}
		o.Modifiers = append(o.Modifiers, fray.Modifier{Source: c.Name + ": Agility", Who: []string{c.Name}, Value: p.agility})
		ps = append(ps, p)
	}
	if !capped {
		// Without attackers nobody sets the mark: the victims only
		// halve their initiative.
		for i := range ps {
			if ps[i].role == roleVictim {
				ps[i].role = rolePlain
			}
		}
	}
	total := 0.0
	for i := range ps {
		p := firstChance(ps, i)
		total += p
		if p > 0 {
			o.Bands = append(o.Bands, fray.Band{Name: FirstBand(ps[i].name), P: p, Who: []string{ps[i].name}})
		}
	}
	if rest := 1 - total; rest > 1e-12 {
		o.Bands = append(o.Bands, fray.Band{Name: NobodyFirst, P: rest})
	}
	return o
}

// firstChance returns the chance that ps[i] acts first. Each party's
// initiative is independent, so it is the sum over the phases t ps[i] may
// act first on of P(its first phase is t) times the chance that nobody
// beats it there. Under surprise the victims' first phases depend on the
// mark, the attackers' highest initiative B; ps[i] acting first on t
// means B = t when it is an attacker or a victim, and B ≤ t when it
// noticed without being an attacker, which splits the product (see
// products.first).
func firstChance(ps []party, i int) float64 {
	me := &ps[i]
	sum := 0.0
	for _, pt := range me.init {
		if me.role != roleVictim {
			if pt.V > 0 {
				sum += pt.P * firstAt(ps, i, pt.V)
			}
			continue
		}
		// A victim's first phase not lost is t = V − 15k when the mark
		// is t.
		for t := pt.V; t > 0; t -= PhaseStep {
			sum += pt.P * firstAt(ps, i, t)
		}
	}
	return sum
}

// firstAt returns the chance that nobody beats ps[i] acting on phase t
// (and, for a victim, that the mark is t), averaged over the tie toss
// when someone fully tied with it may also be on t.
func firstAt(ps []party, i int, t int) float64 {
	me := &ps[i]
	fixed := products{1, 1, 1, 1}
	// The parties fully tied with ps[i] that may be on t, grouped by
	// role and by their chances of being below t and on it: they share
	// Agility and Move Rate, so most of them fall in few groups.
	var tied []tieGroup
	for j := range ps {
		if j == i {
			continue
		}
		o := &ps[j]
		b, a := phaseChance(o, t)
		switch {
		case a > 0 && fullTie(me, o):
			g := tieGroup{role: o.role, below: b, at: a, n: 1}
			k := slices.IndexFunc(tied, func(x tieGroup) bool { x.n = 1; return x == g })
			if k < 0 {
				tied = append(tied, g)
			} else {
				tied[k].n++
			}
		case before(me, o):
			fixed.add(o.role, b+a, b, 1)
		default:
			fixed.add(o.role, b, b, 1)
		}
	}
	if len(tied) == 0 {
		return fixed.first(me.role)
	}
	// The toss orders a tie evenly at random, as if each tied character
	// drew a number u uniform on [0, 1], the highest first: another beats
	// ps[i] on t when its u is higher. The chance is the integral over
	// ps[i]'s u of a polynomial in u of degree at most the number of tied
	// characters, which a Gauss–Legendre rule of enough points gives
	// exactly.
	deg := 0
	for _, g := range tied {
		deg += g.n
	}
	sum := 0.0
	for _, nd := range legendre(deg) {
		tie := fixed
		for _, g := range tied {
			tie.add(g.role, g.below+g.at*nd.u, g.below, g.n)
		}
		sum += nd.w * tie.first(me.role)
	}
	return sum
}

// node is a point u of [0, 1] and its weight w in a quadrature rule.
type node struct{ u, w float64 }

// rules caches the Gauss–Legendre rules legendre has worked out, by
// number of points.
var rules sync.Map // int → []node

// legendre returns a Gauss–Legendre rule on [0, 1] that integrates every
// polynomial of degree deg or less exactly (up to rounding): n points,
// n the least power of two with 2n − 1 ≥ deg. The points are the roots
// of the Legendre polynomial P_n, found by Newton's method.
func legendre(deg int) []node {
	n := 1
	for 2*n-1 < deg {
		n *= 2
	}
	if r, ok := rules.Load(n); ok {
		return r.([]node)
	}
	out := make([]node, n)
	for i := range (n + 1) / 2 {
		z := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		dp := 1.0
		for range 100 {
			p0, p1 := 1.0, z // P_0(z), P_1(z), then P_{k-1}(z), P_k(z)
			for k := 2; k <= n; k++ {
				p0, p1 = p1, (float64(2*k-1)*z*p1-float64(k-1)*p0)/float64(k)
			}
			if n == 1 {
				dp = 1
			} else {
				dp = float64(n) * (z*p1 - p0) / (z*z - 1) // P_n'(z)
			}
			dz := p1 / dp
			z -= dz
			if math.Abs(dz) < 1e-16 {
				break
			}
		}
		// On [−1, 1] the weight is 2 / ((1 − z²) P_n'(z)²); on [0, 1]
		// half that.
		w := 1 / ((1 - z*z) * dp * dp)
		out[i] = node{u: (1 - z) / 2, w: w}
		out[n-1-i] = node{u: (1 + z) / 2, w: w}
	}
	rules.Store(n, out)
	return out
}

// tieGroup is n characters fully tied with one whose first phase may be
// the same as theirs, alike in role and in their chances of a first
// phase below it and on it.
type tieGroup struct {
	role      int
	below, at float64
	n         int
}

// fullTie reports whether two characters on one phase are ordered by the
// tie toss: same Agility and Move Rate, and neither in the GM's order.
func fullTie(a, b *party) bool {
	return a.agility == b.agility && a.move == b.move && !a.ranked && !b.ranked
}

// phaseChance returns the chances that p's first phase not lost is below t
// (or that it has none) and that it is t, given, for a victim, that the
// mark is t.
func phaseChance(p *party, t int) (below, at float64) {
	for _, pt := range p.init {
		switch {
		case p.role == roleVictim && pt.V >= t && (pt.V-t)%PhaseStep == 0:
			at += pt.P
		case p.role != roleVictim && pt.V == t:
			at += pt.P
		case p.role == roleVictim || pt.V < t:
			below += pt.P
		}
	}
	return below, at
}

// products accumulates, over the other parties, the chance that none of
// them beats one party on its phase: plain over those who are neither
// attackers nor victims, attNot and vicNot over the attackers and the
// victims (given the mark is that phase), and attBelow the chance that
// every attacker is below it. Nobody yet is products{1, 1, 1, 1}.
type products struct{ plain, attNot, attBelow, vicNot float64 }

// add multiplies in n parties of role, each of which does not beat the
// party with probability notBeat and is below its phase with probability
// below.
func (p *products) add(role int, notBeat, below float64, n int) {
	if n != 1 {
		notBeat, below = math.Pow(notBeat, float64(n)), math.Pow(below, float64(n))
	}
	switch role {
	case roleAttacker:
		p.attNot *= notBeat
		p.attBelow *= below
	case roleVictim:
		p.vicNot *= notBeat
	default:
		p.plain *= notBeat
	}
}

// first returns the chance that the party of role is first on its phase.
// Given the mark t: an attacker needs every other party not to beat it
// (then the mark is t); a victim needs the attackers not to beat it with
// at least one on t (the mark is t); a character who noticed without
// being an attacker needs every attacker below t (then every victim is
// below t too), or the attackers not beating it with one on t and the
// victims not beating it.
func (p products) first(role int) float64 {
	switch role {
	case roleAttacker:
		return p.plain * p.attNot * p.vicNot
	case roleVictim:
		return p.plain * (p.attNot - p.attBelow) * p.vicNot
	}
	return p.plain * (p.attBelow + (p.attNot-p.attBelow)*p.vicNot)
}

// before reports whether a goes before b on one phase without the tie toss:
// higher Agility, then higher Move Rate, then the GM's order (V-2).
func before(a, b *party) bool {
	switch {
	case a.agility != b.agility:
		return a.agility > b.agility
	case a.move != b.move:
		return a.move > b.move
	}
	return a.gm < b.gm
}
