package cinematic

import (
	"slices"
	"strconv"

	"fray"
	"fray/dice"
)

// TargetDifficulty is what a roll alone aims at (fray.Odds.TargetKind):
// 9, the total that succeeds. It is a wire string.
const TargetDifficulty = "difficulty"

// Band names.
const (
	BandLost = "no attack (Notice failed)"
	BandMiss = "miss"
)

// band names an outcome as the odds and the event say it: an attack is
// a miss (no defence roll) or defended, else a hit with its success
// levels; any other roll a failure or its success levels.
func (p *planned) band(success bool, levels int) string {
	switch {
	case !p.attacks() && !success:
		return "failure"
	case !p.attacks():
		return levelWords(levels)
	case !success && p.roll.Opposed:
		return "defended"
	case !success:
		return BandMiss
	}
	return "hit, " + levelWords(levels)
}

// attacks reports whether the planned roll settles an attack: the attack
// itself or an answer to one that waits.
func (p *planned) attacks() bool { return p.d.Roll == RollAttack || isAnswer(p.d.Roll) }

// odds returns the exact odds of the planned roll, from the distribution
// of the D10 package dice gives (d10): each attack total's chance times
// the chance the defence total stays below it.
func (p *planned) odds(cmdText string) (fray.Odds, error) {
	o := fray.Odds{Command: cmdText, For: p.name, Roll: p.d.Roll, Expr: testExpr(p.roll.Value), Target: TestSuccess, TargetKind: TargetDifficulty}
	mods := make([]fray.Modifier, 0, len(p.mods)+len(p.dmod)+len(p.nmods))
	mods = append(mods, p.mods...)
	att := d10Plus(p.roll.Value)
	if w := p.known; w != nil {
		// An answer: the attack's total is known.
		att, o.For = knownDist(w.Total), p.target
		o.Expr = p.name + "'s attack total " + strconv.Itoa(w.Total) + " (" + testExpr(w.Value) + " rolled " + strconv.Itoa(w.Face) + ")"
		if p.roll.Opposed {
			o.Expr = testExpr(p.roll.Defence) + " (" + p.d.Defence + ") against " + o.Expr
		} else {
			// Taken: nobody rolls; the attack's total meets 9.
			o.For = p.name
			o.Expr = strconv.Itoa(w.Total) + " (" + testExpr(w.Value) + " rolled " + strconv.Itoa(w.Face) + "; " + p.target + " takes it)"
		}
	}
	var def *dice.Dist
	if p.roll.Opposed {
		def = d10Plus(p.roll.Defence)
		switch {
		case p.known != nil:
		case p.attacks():
			o.Expr += " against " + p.target + "'s " + p.d.Defence + " " + testExpr(p.roll.Defence)
			if p.waits {
				o.Expr += " (the better defence: " + p.target + " answers with dodge, parry or take)"
			}
		default:
			o.Expr += " against the opponent's " + testExpr(p.roll.Defence)
		}
		o.TargetKind, o.Target = "", 0
		for _, m := range p.dmod {
			mods = append(mods, fray.Modifier{Source: "defence: " + m.Source, Who: m.Who, Value: m.Value})
		}
	}
	q := 1.0 // the chance the attack is made (a blind attacker's Notice check)
	if p.notice != nil {
		q = d10Plus(p.notice.Value).AtLeast(TestSuccess)
		o.Bands = append(o.Bands, fray.Band{Name: BandLost, P: 1 - q})
		for _, m := range p.nmods {
			mods = append(mods, fray.Modifier{Source: "Notice check: " + m.Source, Who: m.Who, Value: m.Value})
		}
	}
	if p.d.Note != "" {
		o.Expr = p.d.Note + " — " + o.Expr
	}
	o.Modifiers = mods
	fail, minL, ps := levelOdds(att, def)
	o.Bands = slices.Grow(o.Bands, 1+len(ps))
	o.Bands = append(o.Bands, fray.Band{Name: p.band(false, 0), P: fail * q})
	for i, pr := range ps {
		if pr > 0 { // levels the roll cannot win with are left out
			o.Bands = append(o.Bands, fray.Band{Name: p.band(true, minL+i), P: pr * q})
		}
	}
	if !p.attacks() {
		o.Mean = att.Mean()
		o.Dist = make([]fray.Point, 0, len(att.P))
		for i, pr := range att.P {
			o.Dist = append(o.Dist, fray.Point{V: att.Min + i, P: pr})
		}
		return o, nil
	}
	// The damage each band deals; bands with the same damage share a point.
	o.DistOf = fray.DistDamage
	add := func(v int, pr float64) {
		if pr == 0 {
			return
		}
		o.Mean += float64(v) * pr
		for i := range o.Dist {
			if o.Dist[i].V == v {
				o.Dist[i].P += pr
				return
			}
		}
		o.Dist = append(o.Dist, fray.Point{V: v, P: pr})
	}
	add(0, 1-q+fail*q)
	for i, pr := range ps {
		add(p.damageFor(minL+i), pr*q)
	}
	slices.SortFunc(o.Dist, func(a, b fray.Point) int { return a.V - b.V })
	return o, nil
}

// meanDamage returns the expected damage of the planned attack: the Mean
// odds gives, summed in the same order to the last bit, without building
// its words, bands or points. A roll that is no attack gives the mean of
// its total, as odds does.
func (p *planned) meanDamage() float64 {
	att := d10Plus(p.roll.Value)
	if w := p.known; w != nil {
		att = knownDist(w.Total)
	}
	if !p.attacks() {
		return att.Mean()
	}
	var def *dice.Dist
	if p.roll.Opposed {
		def = d10Plus(p.roll.Defence)
	}
	q := 1.0
	if p.notice != nil {
		q = d10Plus(p.notice.Value).AtLeast(TestSuccess)
	}
	// The miss (and the Notice check lost) deals 0, which adds nothing.
	_, minL, ps := levelOdds(att, def)
	mean := 0.0
	for i, pr := range ps {
		if pq := pr * q; pq != 0 {
			mean += float64(p.damageFor(minL+i)) * pq
		}
	}
	return mean
}

// Odds returns the exact odds of the roll a command would make (E-6).
func (*System) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	s, err := get(st)
	if err != nil {
		return fray.Odds{}, err
	}
	if err := s.awaiting(cmd); err != nil {
		return fray.Odds{}, err
	}
	p, err := s.plan(cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	return p.odds(cmd.String())
}
