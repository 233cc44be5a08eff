package pp

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"

	"fray"
	"fray/dice"
	"fray/rules/kit"
)

// Odds returns the exact odds of the roll cmd would make in st, without
// rolling (SPEC E-6): for check and attack each narrative band (or
// traditional result) and the distribution of net successes or of Health
// lost; for spend the same of the last roll once the Resolve is spent
// (of an exchange who wins it, of an assist its bonus, of a group action
// how many succeed after sharing); for assist the bonus dice;
// for group how many succeed; for contest and exchange who wins the
// exchange: the commands declared to roll (Commands). A command Decide
// would refuse is refused in the same words.
func (sys *System) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	s, err := get(st)
	if err != nil {
		return fray.Odds{}, err
	}
	switch cmd.Name {
	case "check":
		d, sides, err := s.planCheck(cmd)
		if err != nil {
			return fray.Odds{}, err
		}
		return s.checkOdds(d, sides)
	case "attack":
		d, sides, _, err := s.planAttack(cmd)
		if err != nil {
			return fray.Odds{}, err
		}
		return s.checkOdds(d, sides[:])
	case "spend":
		sp, sd, how, n, err := s.planSpend(cmd)
		if err != nil {
			return fray.Odds{}, err
		}
		return s.spendOdds(sp, sd, how, n)
	case "assist":
		sd, _, err := s.planAssist(cmd)
		if err != nil {
			return fray.Odds{}, err
		}
		return s.assistOdds(sd)
	case "group":
		d, sides, err := s.planGroup(cmd)
		if err != nil {
			return fray.Odds{}, err
		}
		return s.groupOdds(d, sides)
	case "exchange":
		sides, err := s.planExchange(cmd)
		if err != nil {
			return fray.Odds{}, err
		}
		return s.exchangeOdds(sides)
	case "contest":
		// The odds of the first exchange, which the contest rolls.
		_, next, err := s.planContest(cmd)
		if err != nil {
			return fray.Odds{}, err
		}
		sides, err := next.planExchange(firstExchange(cmd))
		if err != nil {
			return fray.Odds{}, err
		}
		return next.exchangeOdds(sides)
	}
	return fray.Odds{}, fray.Errorf(fray.EINTERNAL, "P&P gives no odds of %q, which it does not declare to roll.", cmd.Name)
}

// successDist returns the exact distribution of a pool's successes.
func successDist(p Pool, swing bool) (*dice.Dist, error) {
	d, err := p.dist(swing)
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "The odds cannot be worked out: %v.", err)
	}
	return d, nil
}

// pmf is a distribution over consecutive whole numbers: p[i] is the
// probability of min+i.
type pmf struct {
	min int
	p   []float64
}

// points turns a distribution shifted by shift into a pmf; the dice.Dist
// is shared, never changed.
func points(d *dice.Dist, shift int) pmf { return pmf{min: d.Min + shift, p: d.P} }

// tiny is the probability under which a point is left out of Odds.Dist.
const tiny = 1e-12

// checkOdds is the odds of a planned check or attack: the distribution
// of the actor's net successes, and the bands it falls in.
func (s *State) checkOdds(d CheckData, sides []side) (fray.Odds, error) {
	a, err := successDist(d.Pool, s.swing())
	if err != nil {
		return fray.Odds{}, err
	}
	o := fray.Odds{For: sides[0].name, Roll: d.Kind, Expr: d.Pool.Expr(s.swing())}
	o.Modifiers = poolModifiers(d.Trait, d.Pool, d.Assist, d.Penalty, sides[0].mods)
	if len(sides) > 1 {
		for _, m := range sides[1].mods {
			m.Source = sides[1].name + "'s " + m.Source + " (dice, on their roll)"
			o.Modifiers = append(o.Modifiers, m)
		}
		if a := sides[1].assist; a != 0 {
			o.Modifiers = append(o.Modifiers, fray.Modifier{Source: sides[1].name + "'s assist (dice, on their roll)", Value: a})
		}
	}
	if d.Same {
		for i, sd := range sides[1:] {
			sep := " and "
			if i == 0 {
				sep = " against "
			}
			o.Expr += sep + sd.name + "'s " + sd.pool.Expr(s.swing())
		}
		joint, err := s.sameGoal(sides)
		if err != nil {
			return fray.Odds{}, err
		}
		names := make([]string, len(sides))
		for i, sd := range sides {
			names[i] = sd.name
		}
		return s.sameOdds(o, names, 0, joint), nil
	}
	var net pmf
	if d.Static {
		net = points(a, -d.Threshold)
		o.Target, o.TargetKind = d.Threshold, "threshold"
	} else {
		n, err := netDist(d.Pool, d.OppPool, s.swing())
		if err != nil {
			return fray.Odds{}, fray.Errorf(fray.EINVALID, "The odds cannot be worked out: %v.", err)
		}
		net = points(n, 0)
		o.Expr += " against " + sides[1].name + "'s " + d.OppPool.Expr(s.swing())
	}
	var opp fray.CombatantID
	if len(sides) > 1 {
		opp = sides[1].id
	}
	return s.netOdds(o, d, net, opp), nil
}

// checkWorksOut refuses the check or attack checkOdds would refuse, in
// the same words, without building its odds: the distributions it rolls
// from, which checkOdds works out first, cannot be worked out.
func (s *State) checkWorksOut(d CheckData, sides []side) error {
	if _, err := successDist(d.Pool, s.swing()); err != nil {
		return err
	}
	switch {
	case d.Same:
		for _, sd := range sides {
			if _, err := successDist(sd.pool, s.swing()); err != nil {
				return err
			}
		}
	case !d.Static:
		if _, err := netDist(d.Pool, d.OppPool, s.swing()); err != nil {
			return fray.Errorf(fray.EINVALID, "The odds cannot be worked out: %v.", err)
		}
	}
	return nil
}

// actorNet is one outcome of a same-goal roll (P-3): who is the place,
// in the order named, of the actor, the one who rolls most (a tie going
// to the one named first); net is their successes less the next most.
type actorNet struct{ who, net int }

// compareActorNet orders actorNets by who, then net, for sums over a map
// that come out the same to the last bit at every run (a map's order
// varies).
func compareActorNet(a, b actorNet) int {
	return cmp.Or(cmp.Compare(a.who, b.who), cmp.Compare(a.net, b.net))
}

// sameGoal is the chance of each actor and net successes among several
// pools rolled for the same goal (P-3): the joint distribution of the
// two largest and of who rolled the largest, built one pool at a time in
// the order named.
func (s *State) sameGoal(sides []side) (map[actorNet]float64, error) {
	type key struct{ hi, lo, who int }
	order := func(a, b key) int {
		return cmp.Or(cmp.Compare(a.hi, b.hi), cmp.Compare(a.lo, b.lo), cmp.Compare(a.who, b.who))
	}
	joint := map[key]float64{}
	for i, sd := range sides {
		d, err := successDist(sd.pool, s.swing())
		if err != nil {
			return nil, err
		}
		keys := slices.SortedFunc(maps.Keys(joint), order)
		next := map[key]float64{}
		for j, p := range d.P {
			if p == 0 {
				continue
			}
			v := d.Min + j
			if i == 0 {
				next[key{v, math.MinInt, 0}] += p
				continue
			}
			for _, k := range keys {
				q := joint[k]
				switch {
				case v > k.hi: // only more takes the lead: ties go to the one named first
					k = key{v, k.hi, i}
				case v > k.lo:
					k.lo = v
				}
				next[k] += p * q
			}
		}
		joint = next
	}
	out := map[actorNet]float64{}
	for _, k := range slices.SortedFunc(maps.Keys(joint), order) {
		out[actorNet{k.who, k.hi - k.lo}] += joint[k]
	}
	return out, nil
}

// inOrder returns m's keys in increasing order, for sums over m that
// come out the same to the last bit at every run (a map's order varies).
func inOrder(m map[int]float64) []int { return slices.Sorted(maps.Keys(m)) }

// netOdds fills o's bands and distribution from the actor's net
// successes; opp is the target of an attack. A same-goal roll's are
// sameOdds.
func (s *State) netOdds(o fray.Odds, d CheckData, net pmf, opp fray.CombatantID) fray.Odds {
	if d.Kind == KindAttack {
		return s.harmOdds(o, d, net, opp)
	}
	var bands [4]float64
	for i, p := range net.p {
		bands[slices.Index(Bands(), BandOf(net.min+i))] += p
	}
	for i, b := range Bands() {
		o.Bands = append(o.Bands, fray.Band{Name: s.bandWords(b), P: bands[i]})
	}
	o.Dist, o.Mean = distPoints(net)
	o.DistOf = "net successes"
	return o
}

// sameOdds fills o's bands and distribution from joint, the chance of
// each actor and net successes of a same-goal roll (P-3) among names, in
// the order named. Each band says who is the actor, the one whose result
// counts: "Gatecrasher is the actor: actor narrates", its Who that name.
// The bands go by actor in the order named but for last (the one the
// odds are for), whose come last; each actor's worst first. A band no
// roll can reach is left out. Dist is the net successes of whoever is the
// actor.
func (s *State) sameOdds(o fray.Odds, names []string, last int, joint map[actorNet]float64) fray.Odds {
	p := make([][4]float64, len(names)) // p[who][band]
	net := map[int]float64{}
	for _, k := range slices.SortedFunc(maps.Keys(joint), compareActorNet) {
		p[k.who][slices.Index(Bands(), BandOf(k.net))] += joint[k]
		net[k.net] += joint[k]
	}
	order := make([]int, 0, len(names))
	for i := range names {
		if i != last {
			order = append(order, i)
		}
	}
	for _, i := range append(order, last) {
		for j, b := range Bands() {
			if p[i][j] > 0 {
				o.Bands = append(o.Bands, fray.Band{Name: names[i] + " is the actor: " + s.bandWords(b), P: p[i][j], Who: []string{names[i]}})
			}
		}
	}
	o.Dist, o.Mean = distPoints(toPMF(net))
	o.DistOf = "net successes of whoever rolls more"
	return o
}

// distPoints lists the points of a pmf above tiny, and its mean.
func distPoints(d pmf) ([]fray.Point, float64) {
	out := make([]fray.Point, 0, len(d.p))
	mean := 0.0
	for i, p := range d.p {
		mean += float64(d.min+i) * p
		if p > tiny {
			out = append(out, fray.Point{V: d.min + i, P: p})
		}
	}
	return out, mean
}

// harmOdds fills o's bands and distribution of what an attack on opp
// takes.
func (s *State) harmOdds(o fray.Odds, d CheckData, net pmf, opp fray.CombatantID) fray.Odds {
	avail := s.harmAvail(d, opp)
	h := harmTally{avail: avail}
	for i, p := range net.p {
		h.add(min(max(net.min+i, 0), avail), p)
	}
	return h.odds(o, d.Minion)
}

// meanHarm returns the expected harm of a planned attack, d and sides as
// planAttack gives them: the Mean of checkOdds, summed in the same order
// to the last bit, without building the odds' words, bands or points. A
// roll for the same goal (never an attack) goes through checkOdds.
func (s *State) meanHarm(d CheckData, sides []side) (float64, error) {
	if d.Kind != KindAttack || d.Same || d.Static {
		o, err := s.checkOdds(d, sides)
		return o.Mean, err
	}
	if _, err := successDist(d.Pool, s.swing()); err != nil {
		return 0, err
	}
	n, err := netDist(d.Pool, d.OppPool, s.swing())
	if err != nil {
		return 0, fray.Errorf(fray.EINVALID, "The odds cannot be worked out: %v.", err)
	}
	var opp fray.CombatantID
	if len(sides) > 1 {
		opp = sides[1].id
	}
	return meanTaken(points(n, 0), s.harmAvail(d, opp)), nil
}

// meanTaken returns the mean of what an attack whose net successes are
// net takes of a target with avail left: the Mean harmTally.odds gives,
// to the last bit. harmTally puts every net success at or below 0 on 0
// (which adds nothing to the mean), each between 0 and avail on its own
// point, and those at or above avail on avail, summed in the order of
// net; distPoints then adds up value × chance point by point, so the
// point at avail comes last.
func meanTaken(net pmf, avail int) float64 {
	mean, all, top := 0.0, 0.0, false
	for i, p := range net.p {
		switch lost := min(max(net.min+i, 0), avail); {
		case lost >= avail && lost > 0:
			all += p
			top = true
		case lost > 0:
			mean += float64(lost) * p
		}
	}
	if top {
		mean += float64(avail) * all
	}
	return mean
}

// harmAvail returns what the target opp of an attack has left to lose:
// Health, or for minions those standing.
func (s *State) harmAvail(d CheckData, opp fray.CombatantID) int {
	if d.Minion {
		down := 0
		if r := s.record(opp); r != nil {
			down = r.Down
		}
		return minionCount(s.ByID(opp)) - down
	}
	return s.healthLeft(opp)
}

// harmTally adds up the odds of what an attack takes of its target, who
// has avail left to lose (Health, or minions standing).
type harmTally struct {
	avail           int
	dist            []float64 // dist[v] is the chance of taking v
	none, some, all float64
}

// add counts the chance p of taking lost.
func (h *harmTally) add(lost int, p float64) {
	for len(h.dist) <= lost {
		h.dist = append(h.dist, 0)
	}
	h.dist[lost] += p
	switch {
	case lost == 0:
		h.none += p
	case lost >= h.avail:
		h.all += p
	default:
		h.some += p
	}
}

// odds fills o's bands and distribution from the tally.
func (h *harmTally) odds(o fray.Odds, minion bool) fray.Odds {
	o.Bands = []fray.Band{{Name: "no harm", P: h.none}, {Name: "hurt", P: h.some}, {Name: "defeated", P: h.all}}
	o.Dist, o.Mean = distPoints(pmf{p: h.dist})
	o.DistOf = "Health lost"
	if minion {
		o.Bands[1].Name, o.Bands[2].Name = "some defeated", "all defeated"
		o.DistOf = "minions defeated"
	}
	return o
}

func sortedDist(m map[int]float64) ([]fray.Point, float64) {
	var vs []int
	for v := range m {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	var out []fray.Point
	mean := 0.0
	for _, v := range vs {
		mean += float64(v) * m[v]
		if m[v] > tiny {
			out = append(out, fray.Point{V: v, P: m[v]})
		}
	}
	return out, mean
}

// poolModifiers lists the terms of a pool, in dice.
func poolModifiers(trait string, p Pool, assist, penalty int, mods []fray.Modifier) []fray.Modifier {
	cond := 0
	for _, m := range mods {
		cond += m.Value
	}
	ms := make([]fray.Modifier, 0, len(mods)+5)
	ms = append(ms, fray.Modifier{Source: kit.Title(trait) + " (dice)", Value: p.Dice - assist + penalty - cond})
	for _, m := range mods {
		m.Source += " (dice)"
		ms = append(ms, m)
	}
	if assist != 0 {
		ms = append(ms, fray.Modifier{Source: "assist (dice)", Value: assist})
	}
	if penalty != 0 {
		ms = append(ms, fray.Modifier{Source: "extra actions or a one-shot defining moment (dice)", Value: -penalty})
	}
	if p.Modifier != 0 {
		ms = append(ms, fray.Modifier{Source: "the GM (dice)", Value: p.Modifier})
	}
	if p.SetAside != 0 {
		ms = append(ms, fray.Modifier{Source: "dice set aside, " + strconv.Itoa(p.Auto()) + " automatic successes", Value: -p.SetAside})
	}
	return ms
}

// toPMF turns a map of value → probability into a pmf.
func toPMF(m map[int]float64) pmf {
	if len(m) == 0 {
		return pmf{}
	}
	lo, hi := math.MaxInt, math.MinInt
	for v := range m {
		lo, hi = min(lo, v), max(hi, v)
	}
	p := make([]float64, hi-lo+1)
	for v, q := range m {
		p[v-lo] = q
	}
	return pmf{min: lo, p: p}
}

// assistOdds is the odds of an assist: the chance of each bonus.
func (s *State) assistOdds(sd side) (fray.Odds, error) {
	x, err := successDist(sd.pool, s.swing())
	if err != nil {
		return fray.Odds{}, err
	}
	bonus := map[int]float64{}
	for i, p := range x.P {
		bonus[AssistBonus(x.Min+i-AssistThreshold)] += p
	}
	o := fray.Odds{For: sd.name, Roll: "assist", Expr: sd.pool.Expr(s.swing()), Target: AssistThreshold, TargetKind: "threshold"}
	o.Modifiers = poolModifiers(sd.trait, sd.pool, sd.assist, sd.penalty, sd.mods)
	return bonusBands(o, bonus), nil
}

// bonusBands fills o with the chance of each bonus of an assist.
func bonusBands(o fray.Odds, bonus map[int]float64) fray.Odds {
	o.DistOf = "bonus dice"
	o.Dist, o.Mean = sortedDist(bonus)
	for _, p := range o.Dist {
		o.Bands = append(o.Bands, fray.Band{Name: "+" + strconv.Itoa(p.V) + "d", P: p.P})
	}
	return o
}

// groupOdds is the odds of a group action: how many members reach 1 net
// success by their own roll, before any are handed successes.
func (s *State) groupOdds(d GroupData, sides []side) (fray.Odds, error) {
	k := []float64{1} // k[i]: P(i members succeed so far)
	var exprs []string
	for _, sd := range sides {
		x, err := successDist(sd.pool, s.swing())
		if err != nil {
			return fray.Odds{}, err
		}
		exprs = append(exprs, sd.name+" "+sd.pool.Expr(s.swing()))
		p := x.AtLeast(d.Threshold + 1)
		next := make([]float64, len(k)+1)
		for i, q := range k {
			next[i] += q * (1 - p)
			next[i+1] += q * p
		}
		k = next
	}
	o := fray.Odds{Roll: "group", Expr: joinStrings(exprs, "; "), Target: d.Threshold, TargetKind: "threshold"}
	return memberBands(o, k, "members who succeed before sharing"), nil
}

// memberBands fills o with k[i], the chance that i members of a group
// succeed.
func memberBands(o fray.Odds, k []float64, of string) fray.Odds {
	o.DistOf = of
	for i, p := range k {
		o.Bands = append(o.Bands, fray.Band{Name: strconv.Itoa(i) + " of " + strconv.Itoa(len(k)-1) + " succeed", P: p})
		o.Dist = append(o.Dist, fray.Point{V: i, P: p})
		o.Mean += float64(i) * p
	}
	return o
}

func joinStrings(xs []string, sep string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += sep
		}
		out += x
	}
	return out
}

// exchangeOdds is the odds of a contest's next exchange: who wins it.
func (s *State) exchangeOdds(sides []side) (fray.Odds, error) {
	if len(sides) > 2 {
		return s.rivalOdds(sides)
	}
	diff, err := netDist(sides[0].pool, sides[1].pool, s.swing())
	if err != nil {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "The odds cannot be worked out: %v.", err)
	}
	o := fray.Odds{For: sides[0].name, Roll: "exchange", Expr: sides[0].pool.Expr(s.swing()) + " against " + sides[1].name + "'s " + sides[1].pool.Expr(s.swing())}
	return exchangeBands(o, sides[0].name, sides[1].name, points(diff, 0)), nil
}

// exchangeBands fills o with who wins an exchange between A and B from
// the distribution of A's successes less B's.
func exchangeBands(o fray.Odds, nameA, nameB string, diff pmf) fray.Odds {
	o.DistOf = "difference in successes"
	var wa, tie, wb float64
	for i, p := range diff.p {
		v := diff.min + i
		switch {
		case v > 0:
			wa += p
		case v < 0:
			wb += p
		default:
			tie += p
		}
	}
	o.Bands = []fray.Band{{Name: nameB + " wins", P: wb}, {Name: "tie", P: tie}, {Name: nameA + " wins", P: wa}}
	o.Dist, o.Mean = distPoints(diff)
	return o
}
