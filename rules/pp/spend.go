package pp

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// What the last roll was, which Resolve may be spent on after it
// (Resolution.LastOf, SpentData.Of). They are wire strings.
const (
	LastCheck    = ""         // a challenge roll or an attack: Resolution.Last
	LastExchange = "exchange" // an exchange of a contest: Resolution.LastExchange
	LastAssist   = "assist"   // an assist: Resolution.LastAssist
	LastGroup    = "group"    // a group action: Resolution.LastGroup
)

// Ways to spend Resolve after a roll (SpentData.How). They are wire
// strings.
const (
	HowDice    = "dice"    // +1d a point, 3 in a defining moment (P-4, P-9)
	HowReroll  = "reroll"  // 1 point: the whole roll again, the better kept (P-4)
	HowExplode = "explode" // 1 point: the 6s explode, checking your swing (P-5)
)

// spender is the roll of the one who spends Resolve: which side of the
// last roll is theirs (0 the actor, A of an exchange or the helper; 1 the
// opponent or B; a group member's place), its pool, successes and 6s.
type spender struct {
	idx              int
	pool             Pool
	successes, sixes int
	// ranked reports a same-goal check of three or more: idx is the
	// place in Resolution.Sides, and spending ranks them all again.
	ranked bool
}

// SpentData is the payload of EventSpent.
type SpentData struct {
	Who     fray.CombatantID `json:"name"`
	Resolve int              `json:"resolve"`
	// How: dice (+1d a point, 3 in a defining moment), reroll or explode.
	How string `json:"how"`
	// Of is what the roll was: LastCheck (a check or an attack, settled
	// by the fields below), LastExchange, LastAssist or LastGroup (settled
	// again in Exchange, Assist or Group).
	Of string `json:"of,omitempty"`
	// Opp reports that Who is the roll's opponent (of an exchange, B).
	Opp bool `json:"opp,omitempty"`
	// Successes is Who's side's successes after spending; Sixes its 6s.
	Successes int `json:"successes"`
	Sixes     int `json:"sixes"`
	// Net, Band, Result and Shown (CheckData's) are the roll's after
	// spending, and Swapped who is the actor of a same-goal roll.
	Net     int    `json:"net"`
	Band    string `json:"band"`
	Result  string `json:"result"`
	Shown   string `json:"shown,omitempty"`
	Swapped bool   `json:"swapped,omitempty"`
	// Lost is an attack's Health (or minions) lost after spending.
	Lost int `json:"lost,omitempty"`
	// Check and Sides are a same-goal check of three or more, ranked
	// again with Who's new successes.
	Check *CheckData `json:"check,omitempty"`
	Sides *SidesData `json:"sides,omitempty"`
	// Exchange, Assist and Group are the exchange, assist or group action
	// Resolve was spent on, settled again with Who's new successes.
	Exchange *ExchangeData `json:"exchange,omitempty"`
	Assist   *AssistData   `json:"assist,omitempty"`
	Group    *GroupData    `json:"group,omitempty"`
}

// inLast reports whether the combatant id rolled in the last roll.
func (s *State) inLast(id fray.CombatantID) bool {
	switch s.Res.LastOf {
	case LastExchange:
		return s.Res.Before.A == id || s.Res.Before.B == id || slices.Contains(s.Res.Before.More, id)
	case LastAssist:
		return s.Res.LastAssist.Helper == id || s.Res.LastAssist.For == id
	case LastGroup:
		return slices.Contains(s.Res.LastGroup.Who, id)
	}
	for _, x := range s.Res.Sides.Sides {
		if x.Who == id {
			return true
		}
	}
	return s.Res.Last.Actor == id || s.Res.Last.Opponent != "" && s.Res.Last.Opponent == id
}

// lastWords names the last roll: "Gatecrasher's might", "the exchange
// between Gatecrasher and Whisper".
func (s *State) lastWords() string {
	switch s.Res.LastOf {
	case LastExchange:
		a, b := s.Res.Before.names(&s.Encounter)
		return "the exchange between " + a + " and " + b
	case LastAssist:
		return s.NameOf(s.Res.LastAssist.Helper) + "'s assist"
	case LastGroup:
		return "the group's " + s.Res.LastGroup.Trait
	}
	return s.NameOf(s.Res.Last.Actor) + "'s " + s.Res.Last.Trait
}

// lastNames returns the combatants lastWords names.
func (s *State) lastNames() []string {
	switch s.Res.LastOf {
	case LastExchange:
		a, b := s.Res.Before.names(&s.Encounter)
		return []string{a, b}
	case LastAssist:
		return []string{s.NameOf(s.Res.LastAssist.Helper)}
	case LastGroup:
		return nil
	}
	return []string{s.NameOf(s.Res.Last.Actor)}
}

// findSpender finds the side of the last roll of the combatant id.
func (s *State) findSpender(id fray.CombatantID) (spender, bool) {
	switch s.Res.LastOf {
	case LastExchange:
		x := s.Res.LastExchange
		switch id {
		case s.Res.Before.A:
			return spender{0, x.PoolA, x.SuccessesA, x.SixesA, false}, true
		case s.Res.Before.B:
			return spender{1, x.PoolB, x.SuccessesB, x.SixesB, false}, true
		}
		for i, r := range x.More {
			if r.Who == id {
				return spender{2 + i, r.Pool, r.Successes, r.Sixes, false}, true
			}
		}
	case LastAssist:
		a := s.Res.LastAssist
		if id == a.Helper {
			return spender{0, a.Pool, a.Successes, a.Sixes, false}, true
		}
	case LastGroup:
		g := s.Res.LastGroup
		n := len(g.Who)
		if i := slices.Index(g.Who, id); i >= 0 && len(g.Successes) == n && len(g.Pools) == n && len(g.Sixes) == n {
			return spender{i, g.Pools[i], g.Successes[i], g.Sixes[i], false}, true
		}
	default:
		if all := s.Res.Sides.Sides; len(all) > 0 {
			for i, x := range all {
				if x.Who == id {
					return spender{i, x.Pool, x.Successes, x.Sixes, true}, true
				}
			}
			return spender{}, false
		}
		d := s.Res.Last
		switch {
		case id == d.Actor:
			return spender{0, d.Pool, d.Successes, d.Sixes, false}, true
		case !d.Static && id == d.Opponent:
			return spender{1, d.OppPool, d.OppSuccesses, d.OppSixes, false}, true
		}
	}
	return spender{}, false
}

// planSpend checks spend NAME … and returns the spender's side of the last
// roll, the dice to roll for it, how (HowDice, HowReroll or HowExplode)
// and the Resolve spent (P-4, P-5, P-9). Resolve is spent on the last
// roll of any kind: a check, an attack, an exchange of a contest, an
// assist or a group action, by anyone who rolled in it.
func (s *State) planSpend(cmd fray.Command) (spender, side, string, int, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return spender{}, side{}, "", 0, err
	}
	if !s.Res.HasLast {
		return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "There is no roll to spend Resolve on; Resolve is spent right after a check, an attack, an exchange, an assist or a group action.")
	}
	sp, ok := s.findSpender(c.ID)
	if !ok {
		return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "%s did not make the last roll (%s); only those who rolled may spend Resolve on it.", c, s.lastWords()).Naming(s.lastNames()...)
	}
	how, n := HowDice, 0
	switch a := strings.ToLower(cmd.Arg(1)); a {
	case "":
		v, ok := cmd.Opts[KeyResolve]
		if !ok {
			return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "Say what %s spends: resolve=N (a die a point), reroll or explode.", c)
		}
		n, _ = strconv.Atoi(v) // the declaration bounds it
	default: // reroll or explode, the declaration's choices
		if _, ok := cmd.Opts[KeyResolve]; ok {
			return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "A %s costs 1 Resolve; leave resolve= out.", a)
		}
		how, n = a, 1
	}
	if left := s.resolveLeft(c.ID); n > left {
		return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "%s has %s left, not %d.", c, plural(left, "Resolve point", "Resolve points"), n)
	}
	p := sp.pool
	sd := side{id: c.ID, name: c.Name, counted: -1}
	switch how {
	case HowDice:
		// Only the dice Resolve buys are rolled: 1 a point, 3 in a
		// defining moment, exploding as the roll's dice did.
		sd.pool = Pool{Dice: Pool{Resolve: n, DefiningMoment: p.DefiningMoment}.ExtraDice(), Explode: p.DefiningMoment || p.Explode}
		if err := sd.pool.Check(); err != nil {
			return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "resolve=%d: %v.", n, err)
		}
	case HowReroll:
		sd.pool = p
	case HowExplode:
		if !s.swing() {
			return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "6s explode for Resolve only when checking your swing (set swing=yes); here every 6 is already worth 2.")
		}
		if p.DefiningMoment || p.Explode {
			return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "%s's 6s explode already.", c)
		}
		if sp.sixes == 0 {
			return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "%s rolled no 6s to explode.", c)
		}
		sd.pool = Pool{Dice: sp.sixes, Explode: true}
	}
	if v, ok := cmd.Opts[KeySuccesses]; ok {
		k, err := strconv.Atoi(v)
		if err != nil || k < 0 {
			return spender{}, side{}, "", 0, fray.Errorf(fray.EINVALID, "successes=%s is not a count of successes.", engine.Clip(v))
		}
		sd.counted = k + sd.pool.Auto()
	}
	return sp, sd, how, n, nil
}

// afterSpend returns the spender's successes and 6s once the Resolve dice,
// the reroll or the exploded 6s showed got successes and sixes 6s: a
// reroll keeps the better roll (the first when they tie); the others add.
func afterSpend(how string, sp spender, got, sixes int) (int, int) {
	switch how {
	case HowReroll:
		if got > sp.successes {
			return got, sixes
		}
		return sp.successes, sp.sixes
	case HowDice:
		return sp.successes + got, sp.sixes + sixes
	}
	// The exploded 6s are still on the table; the new 6s are those of
	// the dice they added.
	return sp.successes + got, sixes
}

// spentPool is the spender's pool once the Resolve is spent: the dice it
// bought counted in Resolve, or its 6s exploding.
func spentPool(p Pool, how string, n int) Pool {
	switch how {
	case HowDice:
		p.Resolve += n
	case HowExplode:
		p.Explode = true
	}
	return p
}

// decideSpend decides spend NAME resolve=N | reroll | explode (P-4, P-5,
// P-9): Resolve spent on the last roll after seeing it. The roll is
// settled again with the spender's new successes: a check's or attack's
// net successes, band and harm; an exchange's winner, its +2d carry into
// the next and the contest's outcome; an assist's bonus and whether it is
// the best; a group's net successes and what is handed over.
func (s *State) decideSpend(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	sp, sd, how, n, err := s.planSpend(cmd)
	if err != nil {
		return err
	}
	odds, err := s.spendOdds(sp, sd, how, n)
	if err != nil {
		return err
	}
	res, rolls, err := rollSides(r, s.swing(), []side{sd})
	if err != nil {
		return err
	}
	d := SpentData{Who: sd.id, Resolve: n, How: how, Of: s.Res.LastOf, Opp: sp.idx == 1 && s.Res.LastOf != LastGroup && !sp.ranked}
	d.Successes, d.Sixes = afterSpend(how, sp, res[0].successes, res[0].sixes)
	pool := spentPool(sp.pool, how, n)
	var w string
	switch s.Res.LastOf {
	case LastExchange:
		x := s.Res.LastExchange
		switch {
		case sp.idx >= 2:
			x.More = slices.Clone(x.More)
			r := &x.More[sp.idx-2]
			r.Successes, r.Sixes, r.Pool = d.Successes, d.Sixes, pool
		case d.Opp:
			x.SuccessesB, x.SixesB, x.PoolB = d.Successes, d.Sixes, pool
		default:
			x.SuccessesA, x.SixesA, x.PoolA = d.Successes, d.Sixes, pool
		}
		settleExchange(s.Res.Before, &x)
		d.Exchange, w = &x, exchangeWords(s.Res.Before, x, &s.Encounter)
	case LastAssist:
		a := s.Res.LastAssist
		a.Successes, a.Sixes, a.Pool = d.Successes, d.Sixes, pool
		settleAssist(&a)
		target := s.NameOf(a.For)
		d.Assist, w = &a, "assists "+target+": "+assistWords(a, target)
	case LastGroup:
		g := s.Res.LastGroup.clone()
		g.Successes[sp.idx], g.Sixes[sp.idx], g.Pools[sp.idx] = d.Successes, d.Sixes, pool
		names := engine.NamesOf(&s.Encounter, g.Who)
		settleGroup(&g, names)
		d.Group, w = &g, groupWords(g, names)
	case LastCheck:
		if sp.ranked {
			// A same-goal check of three or more: everyone is ranked
			// again.
			all := s.Res.Sides
			all.Sides = slices.Clone(all.Sides)
			x := &all.Sides[sp.idx]
			x.Successes, x.Sixes, x.Pool = d.Successes, d.Sixes, pool
			nd := s.Res.Last
			rank(&nd, all, &s.Encounter)
			s.settle(&nd)
			d.Net, d.Band, d.Result, d.Shown = nd.Net, nd.Band, nd.Result, nd.Shown
			d.Check, d.Sides, w = &nd, &all, outcome(nd, s)
			break
		}
		nd := s.Res.Last
		if d.Opp {
			nd.OppSuccesses = d.Successes
		} else {
			nd.Successes = d.Successes
		}
		s.settle(&nd)
		d.Net, d.Band, d.Result, d.Shown, d.Swapped = nd.Net, nd.Band, nd.Result, nd.Shown, nd.Swapped
		if nd.Kind == KindAttack {
			d.Lost = s.lostAfter(nd, nd.Opponent, nd.Lost)
		}
		w = outcome(withLost(nd, d.Lost), s)
	}
	for i := range rolls {
		rolls[i].For = sd.name + " (" + how + ", " + plural(n, "Resolve", "Resolve") + ": " + strconv.Itoa(sp.successes) + " → " + strconv.Itoa(d.Successes) + " successes; " + w + ")"
	}
	return addRoll(tx, cmd, EventSpent, d, rolls, odds, nil)
}

func withLost(d CheckData, lost int) CheckData { d.Lost = lost; return d }

// lostAfter is what an attack on opp takes once its net successes are
// nd.Net, when it had taken prev before Resolve was spent on it.
func (s *State) lostAfter(nd CheckData, opp fray.CombatantID, prev int) int {
	if nd.Net <= 0 || nd.Swapped {
		return 0
	}
	if nd.Minion {
		down := 0
		if r := s.record(opp); r != nil {
			down = r.Down
		}
		return min(nd.Net, minionCount(s.ByID(opp))-(down-prev))
	}
	return min(nd.Net, s.healthLeft(opp)+prev)
}

// applySpent applies EventSpent: the Resolve is spent and the last roll
// is settled again as the event says.
func (s *State) applySpent(ev fray.Event) error {
	var d SpentData
	if err := ev.Decode(&d); err != nil {
		return err
	}
	bad := !s.Res.HasLast || s.ByID(d.Who) == nil || d.Of != s.Res.LastOf || d.Resolve < 0
	switch d.Of {
	case LastExchange:
		bad = bad || d.Exchange == nil || d.Exchange.N != s.Res.LastExchange.N
	case LastAssist:
		bad = bad || d.Assist == nil || d.Assist.Helper != s.Res.LastAssist.Helper || d.Assist.For != s.Res.LastAssist.For
	case LastGroup:
		bad = bad || d.Group == nil || len(d.Group.Who) != len(s.Res.LastGroup.Who)
	case LastCheck:
		ranked := len(s.Res.Sides.Sides) > 0
		bad = bad || (d.Check != nil) != ranked || (d.Sides != nil) != ranked || ranked && (len(d.Sides.Sides) != len(s.Res.Sides.Sides) || s.ByID(d.Check.Actor) == nil || s.ByID(d.Check.Opponent) == nil)
	}
	if !bad && d.Sides != nil {
		for _, x := range d.Sides.Sides {
			bad = bad || s.ByID(x.Who) == nil
		}
	}
	if !bad && d.Group != nil {
		for _, id := range d.Group.Who {
			bad = bad || s.ByID(id) == nil
		}
	}
	if bad {
		return fray.Errorf(fray.EINVALID, "Event %d spends Resolve on no roll.", ev.Seq)
	}
	s.ensureRecord(d.Who).Spent += d.Resolve
	switch d.Of {
	case LastExchange:
		// The exchange is settled again from the contest as it stood
		// before it: its winner carries +2d into the next, and it may now
		// end the contest, or, tied, be rolled again.
		s.Res.LastExchange = *d.Exchange
		s.Res.Contest = s.Res.Before
		s.applyExchange(*d.Exchange)
		return nil
	case LastAssist:
		a := *d.Assist
		a.Before = s.Res.LastAssist.Before
		s.Res.LastAssist = a
		best := a.Before
		if a.Kept {
			best = a.Bonus
		}
		s.ensureRecord(a.For).Assist = best
		return nil
	case LastGroup:
		s.Res.LastGroup = keepGroup(*d.Group)
		return nil
	}
	if d.Check != nil {
		// A same-goal check of three or more, ranked again.
		s.Res.Last, s.Res.Sides = keepCheck(*d.Check), *d.Sides
		return nil
	}
	l := &s.Res.Last
	if d.Opp {
		l.OppSuccesses, l.OppSixes = d.Successes, d.Sixes
	} else {
		l.Successes, l.Sixes = d.Successes, d.Sixes
	}
	p := &l.Pool
	if d.Opp {
		p = &l.OppPool
	}
	*p = spentPool(*p, d.How, d.Resolve)
	l.Net, l.Band, l.Result, l.Shown, l.Swapped = d.Net, d.Band, d.Result, d.Shown, d.Swapped
	if l.Kind == KindAttack {
		s.harm(l.Opponent, l.Minion, d.Lost-l.Lost)
		l.Lost = d.Lost
	}
	return nil
}

// spendOdds is the odds of the last roll once Resolve is spent on it: of
// a check its bands and net successes, of an attack what it takes, of an
// exchange who wins it, of an assist its bonus, of a group action how many
// members succeed after sharing. Only the spender's dice are still to
// roll, so each is exact.
func (s *State) spendOdds(sp spender, sd side, how string, n int) (fray.Odds, error) {
	x, err := successDist(sd.pool, s.swing())
	if err != nil {
		return fray.Odds{}, err
	}
	// mine is the distribution of the spender's successes after spending.
	mine := map[int]float64{}
	for i, p := range x.P {
		if p == 0 {
			continue
		}
		v, _ := afterSpend(how, sp, x.Min+i, 0)
		mine[v] += p
	}
	o := fray.Odds{For: sd.name, Roll: "spend (" + how + ")", Expr: sd.pool.Expr(s.swing())}
	o.Modifiers = []fray.Modifier{{Source: "Resolve spent", Value: n}}
	switch s.Res.LastOf {
	case LastExchange:
		ex := s.Res.LastExchange
		if len(ex.More) > 0 {
			return s.rivalSpendBands(o, ex, sp.idx, mine), nil
		}
		diff := map[int]float64{}
		for _, v := range inOrder(mine) {
			p := mine[v]
			if sp.idx == 1 {
				diff[ex.SuccessesA-v] += p
			} else {
				diff[v-ex.SuccessesB] += p
			}
		}
		a, b := s.Res.Before.names(&s.Encounter)
		return exchangeBands(o, a, b, toPMF(diff)), nil
	case LastAssist:
		bonus := map[int]float64{}
		for _, v := range inOrder(mine) {
			p := mine[v]
			bonus[AssistBonus(v-AssistThreshold)] += p
		}
		o.Target, o.TargetKind = AssistThreshold, "threshold"
		return bonusBands(o, bonus), nil
	case LastGroup:
		g := s.Res.LastGroup
		k := make([]float64, len(g.Who)+1)
		names := engine.NamesOf(&s.Encounter, g.Who)
		for _, v := range inOrder(mine) {
			p := mine[v]
			nd := GroupData{Who: g.Who, Threshold: g.Threshold, Successes: slices.Clone(g.Successes), Chosen: g.Chosen, Gifts: g.Gifts}
			nd.Successes[sp.idx] = v
			settleGroup(&nd, names)
			k[succeeding(nd.Nets)] += p
		}
		o.Target, o.TargetKind = g.Threshold, "threshold"
		return memberBands(o, k, "members who succeed after sharing"), nil
	}
	if sp.ranked {
		// The most successes less the next most, whoever they are.
		all := s.Res.Sides.Sides
		succ := make([]int, len(all))
		for i, x := range all {
			succ[i] = x.Successes
		}
		joint := map[actorNet]float64{}
		names := make([]string, len(all))
		for i, x := range all {
			names[i] = s.NameOf(x.Who)
		}
		for _, v := range inOrder(mine) {
			succ[sp.idx] = v
			joint[topTwo(succ)] += mine[v]
		}
		return s.sameOdds(o, names, sp.idx, joint), nil
	}
	d := s.Res.Last
	if d.Same {
		// Two with the same goal: whoever has more is the actor, a tie
		// going to the one who called the roll.
		joint := map[actorNet]float64{}
		for _, v := range inOrder(mine) {
			succ := []int{d.Successes, d.OppSuccesses}
			succ[sp.idx] = v
			joint[topTwo(succ)] += mine[v]
		}
		return s.sameOdds(o, []string{s.NameOf(d.Actor), s.NameOf(d.Opponent)}, sp.idx, joint), nil
	}
	netm := map[int]float64{}
	for _, v := range inOrder(mine) {
		p := mine[v]
		a, b := v, d.OppSuccesses
		if d.Static {
			b = d.Threshold
		}
		if sp.idx == 1 {
			a, b = d.Successes, v
		}
		netm[a-b] += p
	}
	net := toPMF(netm)
	if d.Kind == KindAttack {
		// What the attack takes, counting what it took already.
		return s.harmAfter(o, d, net), nil
	}
	return s.netOdds(o, d, net, d.Opponent), nil
}

// topTwo returns who of xs has the most (the first of a tie) and by how
// much more than the next most.
func topTwo(xs []int) actorNet {
	who, hi, lo := 0, math.MinInt, math.MinInt
	for i, x := range xs {
		switch {
		case x > hi:
			who, hi, lo = i, x, hi
		case x > lo:
			lo = x
		}
	}
	return actorNet{who, hi - lo}
}

// succeeding counts the group members with 1 net success or more.
func succeeding(nets []int) int {
	n := 0
	for _, x := range nets {
		if x >= 1 {
			n++
		}
	}
	return n
}

// harmAfter is harmOdds for an attack that has already taken d.Lost.
func (s *State) harmAfter(o fray.Odds, d CheckData, net pmf) fray.Odds {
	h := harmTally{avail: max(0, s.lostAfter(CheckData{Net: 1 << 20, Minion: d.Minion}, d.Opponent, d.Lost))}
	for i, p := range net.p {
		nd := d
		nd.Net, nd.Swapped = net.min+i, false
		h.add(s.lostAfter(nd, d.Opponent, d.Lost), p)
	}
	return h.odds(o, d.Minion)
}
