package pp

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"fray/dice"
	"fray/rules/kit"
)

// The dice of a challenge roll, in the notation of package dice. Faces 1
// to 6 are worth the listed successes.
const (
	// PoolDie is a pool die: each 2 and 4 is one success, each 6 two.
	PoolDie = "d{0,1,0,1,0,2}"
	// SwingDie is a pool die when checking your swing: every even face
	// is one success.
	SwingDie = "d{0,1,0,1,0,1}"
	// DesperateDie is the one die rolled when penalties leave fewer than
	// one: only a 6 counts, for one success.
	DesperateDie = "d{0,0,0,0,0,1}"
	// ExplodeSixes makes a pool die explode on a 6 (the physical face,
	// whatever it is worth).
	ExplodeSixes = "!@6"
)

// Numbers of a challenge roll (SPEC P-1, P-4, P-9).
const (
	// MaxModifier bounds the GM's modifier: −4d to +4d.
	MaxModifier = 4
	// DicePerAuto is how many dice not rolled give one automatic success.
	DicePerAuto = 2
	// ResolveDice is the dice one Resolve point buys after the roll.
	ResolveDice = 1
	// DefiningResolveDice is the dice one Resolve point buys in a
	// defining moment.
	DefiningResolveDice = 3
)

// Pool is one side of a challenge roll: d6s equal to a trait, changed by
// modifiers, some perhaps set aside for automatic successes, with Resolve
// dice added after the roll (SPEC P-1, P-4, P-9).
type Pool struct {
	// Dice is the trait's dice, plus any bonus or penalty dice other than
	// the GM's modifier (assists, contests, extra actions).
	Dice int `json:"dice"`
	// Modifier is the GM's modifier in dice, −4 to +4.
	Modifier int `json:"modifier,omitempty"`
	// SetAside is how many dice are not rolled: each 2 of them is one
	// automatic success, an odd one left over rounding up to one more
	// (see Auto).
	SetAside int `json:"set_aside,omitempty"`
	// Resolve is the Resolve points spent on extra dice after the roll:
	// each buys ResolveDice dice, DefiningResolveDice in a defining
	// moment. The point spent to make 6s explode is not counted here.
	Resolve int `json:"resolve,omitempty"`
	// DefiningMoment makes 6s explode (each 6 still counts) and Resolve
	// buy DefiningResolveDice dice a point.
	DefiningMoment bool `json:"defining_moment,omitempty"`
	// Explode makes 6s explode outside a defining moment: 1 Resolve spent
	// when checking your swing, or a power that allows it.
	Explode bool `json:"explode,omitempty"`
	// Reroll spends 1 Resolve, after seeing the roll, to roll the whole
	// pool (Resolve dice included) again and keep the better of the two
	// rolls (SPEC P-4).
	Reroll bool `json:"reroll,omitempty"`
}

// Count returns the dice after modifiers.
func (p Pool) Count() int { return p.Dice + p.Modifier }

// Desperate reports a pool left with fewer than one die: one die is
// rolled and only a 6 counts, for one success.
func (p Pool) Desperate() bool { return p.Count() < 1 }

// Rolled returns how many pool dice are rolled (before Resolve dice).
func (p Pool) Rolled() int {
	if p.Desperate() {
		return 1
	}
	return p.Count() - p.SetAside
}

// Auto returns the automatic successes for the dice set aside: 1 for
// every 2, halves rounding up ("rounding up as always", the seed says of
// the assist's 1 die per 2 net successes; SPEC §1.4: all halves round up
// in this system), so 5 dice set aside are 3 successes.
func (p Pool) Auto() int { return ceilDiv(p.SetAside, DicePerAuto) }

// ExtraDice returns the dice bought with Resolve.
func (p Pool) ExtraDice() int {
	if p.DefiningMoment {
		return p.Resolve * DefiningResolveDice
	}
	return p.Resolve * ResolveDice
}

func (p Pool) explodes() bool { return p.DefiningMoment || p.Explode }

func (p Pool) die(swing bool) string {
	d := PoolDie
	if swing {
		d = SwingDie
	}
	if p.explodes() {
		d += ExplodeSixes
	}
	return d
}

// Expr returns the notation of everything the pool counts, in the order
// it is rolled: the pool, then the Resolve dice, then the automatic
// successes, such as 10d{0,1,0,1,0,2}+2d{0,1,0,1,0,2}+1. A pool with
// nothing to roll or count is "0". Swing selects SwingDie.
func (p Pool) Expr(swing bool) string {
	var terms []string
	switch {
	case p.Desperate():
		terms = append(terms, "1"+DesperateDie)
	case p.Rolled() > 0:
		terms = append(terms, strconv.Itoa(p.Rolled())+p.die(swing))
	}
	if n := p.ExtraDice(); n > 0 {
		terms = append(terms, strconv.Itoa(n)+p.die(swing))
	}
	if a := p.Auto(); a > 0 {
		terms = append(terms, strconv.Itoa(a))
	}
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, "+")
}

// Check reports a pool the rules do not allow.
func (p Pool) Check() error {
	switch {
	case p.Dice < 0:
		return fmt.Errorf("pool of %d dice: a trait has 0 dice or more", p.Dice)
	case p.Dice > dice.MaxDice:
		return fmt.Errorf("pool of %d dice: the limit is %d (dice.MaxDice)", p.Dice, dice.MaxDice)
	case p.Modifier < -MaxModifier || p.Modifier > MaxModifier:
		return fmt.Errorf("modifier %+dd: the GM's modifier is −%dd to +%dd", p.Modifier, MaxModifier, MaxModifier)
	case p.SetAside < 0:
		return fmt.Errorf("%d dice set aside: it must be 0 or more", p.SetAside)
	case p.SetAside > 0 && p.Desperate():
		return fmt.Errorf("%d dice set aside: the pool has fewer than one die after modifiers", p.SetAside)
	case p.SetAside > 0 && p.SetAside > p.Count():
		return fmt.Errorf("%d dice set aside: the pool has only %d after modifiers", p.SetAside, p.Count())
	case p.Resolve < 0:
		return fmt.Errorf("%d Resolve: it must be 0 or more", p.Resolve)
	case p.Resolve > dice.MaxDice:
		return fmt.Errorf("%d Resolve: the limit is %d", p.Resolve, dice.MaxDice)
	}
	return nil
}

// PoolResult is one side's roll, showing every die.
type PoolResult struct {
	// Expr is the notation rolled (see Pool.Expr).
	Expr string `json:"expr"`
	// Desperate marks a pool left with fewer than one die.
	Desperate bool `json:"desperate,omitempty"`
	// Dice holds the pool's dice as rolled, explosions included; empty
	// when only the successes were given.
	Dice []dice.Die `json:"dice"`
	// ResolveDice holds the dice bought with Resolve.
	ResolveDice []dice.Die `json:"resolve_dice,omitempty"`
	// Rolled is the successes the dice show.
	Rolled int `json:"rolled"`
	// Auto is the automatic successes for dice set aside.
	Auto int `json:"auto"`
	// Successes is Rolled + Auto.
	Successes int `json:"successes"`
	// OtherRoll is, when Resolve bought a reroll, the other of the two
	// rolls: the one not kept (the first when they tie).
	OtherRoll *PoolResult `json:"other_roll,omitempty"`
}

// Roll rolls the pool, then its Resolve dice, from src, and with Reroll
// all of it a second time. Physical dice are played back with dice.Faces:
// the pool's faces in order (each exploding 6 followed by the die it
// adds), then the Resolve dice, then the reroll's.
func (p Pool) Roll(src dice.Source, swing bool) (*PoolResult, error) {
	r, err := p.roll(src, swing)
	if err != nil {
		return nil, err
	}
	if err := checkUnused(src); err != nil {
		return nil, err
	}
	return r, nil
}

func checkUnused(src dice.Source) error {
	if fs, ok := src.(*dice.FaceSource); ok && fs.Unused() > 0 {
		return fmt.Errorf("challenge roll: %d more physical dice given than the roll needs", fs.Unused())
	}
	return nil
}

func (p Pool) roll(src dice.Source, swing bool) (*PoolResult, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	first, err := p.rollOnce(src, swing)
	if err != nil || !p.Reroll {
		return first, err
	}
	second, err := p.rollOnce(src, swing)
	if err != nil {
		return nil, fmt.Errorf("reroll: %w", err)
	}
	if second.Successes > first.Successes {
		second.OtherRoll = first
		return second, nil
	}
	first.OtherRoll = second
	return first, nil
}

func (p Pool) rollOnce(src dice.Source, swing bool) (*PoolResult, error) {
	e, err := dice.Parse(p.Expr(swing))
	if err != nil {
		return nil, fmt.Errorf("challenge roll: %w", err)
	}
	res, err := e.Roll(src)
	if err != nil {
		return nil, fmt.Errorf("challenge roll: %w", err)
	}
	r := &PoolResult{Expr: e.String(), Desperate: p.Desperate(), Dice: []dice.Die{}, Auto: p.Auto()}
	// Pool 0 is the pool unless nothing was rolled from it; the Resolve
	// dice are the pool after it.
	resolvePool := 1
	if p.Rolled() == 0 {
		resolvePool = 0
	}
	for _, d := range res.Dice {
		if p.ExtraDice() > 0 && d.Pool == resolvePool {
			r.ResolveDice = append(r.ResolveDice, d)
		} else {
			r.Dice = append(r.Dice, d)
		}
	}
	r.Successes = res.Total
	r.Rolled = res.Total - r.Auto
	return r, nil
}

// Successes of each face, 1 to 6, of the dice of a challenge roll
// (PoolDie, SwingDie, DesperateDie).
var (
	poolFaces      = [7]int{0, 0, 1, 0, 1, 0, 2}
	swingFaces     = [7]int{0, 0, 1, 0, 1, 0, 1}
	desperateFaces = [7]int{0, 0, 0, 0, 0, 0, 1}
)

// playback counts the successes physical faces fs show for the pool, as
// Roll does from dice.Faces(fs...) but without building its result: the
// pool's dice (each exploding 6 followed by the die it adds, at most
// dice.MaxExplodeDepth extra dice a die), then the Resolve dice, then with
// Reroll all of it again, the better roll kept. It returns the successes,
// automatic ones included, and how many faces were used; fs may hold more.
func (p Pool) playback(fs []int, swing bool) (successes, used int, err error) {
	if err := p.Check(); err != nil {
		return 0, 0, err
	}
	successes, used, err = p.playOnce(fs, swing)
	if err != nil || !p.Reroll {
		return successes, used, err
	}
	again, n, err := p.playOnce(fs[used:], swing)
	if err != nil {
		return 0, 0, fmt.Errorf("reroll: %w", err)
	}
	return max(successes, again), used + n, nil
}

func (p Pool) playOnce(fs []int, swing bool) (successes, used int, err error) {
	faces := &poolFaces
	if swing {
		faces = &swingFaces
	}
	explode := p.explodes()
	// play plays n dice of the given faces from fs[used:].
	play := func(n int, faces *[7]int, explode bool) error {
		for range n {
			for k := 0; ; k++ {
				if used >= len(fs) {
					return fmt.Errorf("challenge roll: %s needs more dice than the %d given", p.Expr(swing), len(fs))
				}
				f := fs[used]
				if f < 1 || f > 6 {
					return fmt.Errorf("challenge roll: %d is not a face of a d6", f)
				}
				used++
				successes += faces[f]
				if !explode || f != 6 || k == maxExplodeDepth {
					break
				}
			}
		}
		return nil
	}
	if p.Desperate() {
		err = play(1, &desperateFaces, false)
	} else {
		err = play(p.Rolled(), faces, explode)
	}
	if err == nil {
		err = play(p.ExtraDice(), faces, explode)
	}
	return successes + p.Auto(), used, err
}

// maxExplodeDepth is the most extra dice one die adds by exploding, as
// package dice rolls them.
const maxExplodeDepth = dice.MaxExplodeDepth

// maxRolled returns the most successes the dice can show, or -1 when 6s
// explode and there is no most.
func (p Pool) maxRolled(swing bool) int {
	if p.explodes() && (!p.Desperate() || p.ExtraDice() > 0) {
		return -1
	}
	per := 2
	if swing {
		per = 1
	}
	n := p.ExtraDice() * per
	switch {
	case p.Desperate():
		n++
	default:
		n += p.Rolled() * per
	}
	return n
}

// FromSuccesses settles a pool from physical dice counted at the table:
// rolled is the successes the pool and Resolve dice showed (with a
// reroll, the better roll's); the automatic successes are added to it.
func (p Pool) FromSuccesses(rolled int, swing bool) (*PoolResult, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if m := p.maxRolled(swing); rolled < 0 || m >= 0 && rolled > m {
		return nil, fmt.Errorf("%d successes: the dice of %s show 0 to %d", rolled, p.Expr(swing), max(m, 0))
	}
	return &PoolResult{
		Expr:      p.Expr(swing),
		Desperate: p.Desperate(),
		Dice:      []dice.Die{},
		Rolled:    rolled,
		Auto:      p.Auto(),
		Successes: rolled + p.Auto(),
	}, nil
}

// Threshold is a named static threshold (SPEC P-2).
type Threshold struct {
	// Name is the difficulty, such as Hard.
	Name string `json:"name"`
	// Min is its lowest threshold; it reaches up to the next one's Min.
	Min int `json:"min"`
}

// Thresholds returns the static thresholds, easiest first.
func Thresholds() []Threshold {
	return []Threshold{
		{"Easy", 0}, {"Average", 1}, {"Hard", 2}, {"Daunting", 3}, {"Brutal", 4},
		{"Inhuman", 5}, {"Superhuman", 6}, {"Legendary", 9}, {"Godlike", 12},
	}
}

// ParseThreshold reads a static threshold: a number of 0 or more, or a
// difficulty name (easy … godlike, any case), which gives its lowest
// threshold.
func ParseThreshold(s string) (int, error) {
	for _, t := range Thresholds() {
		if strings.EqualFold(s, t.Name) {
			return t.Min, nil
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > dice.MaxNumber {
		return 0, fmt.Errorf("threshold %q: want a number of 0 or more, or easy, average, hard, daunting, brutal, inhuman, superhuman, legendary or godlike", s)
	}
	return n, nil
}

// ThresholdName returns a static threshold with its difficulty, such as
// "Superhuman (7)".
func ThresholdName(n int) string {
	name := "Easy"
	for _, t := range Thresholds() {
		if n >= t.Min {
			name = t.Name
		}
	}
	return name + " (" + strconv.Itoa(n) + ")"
}

// Band is the narrative-control band of a number of net successes
// (SPEC P-3).
type Band string

// The four bands, worst for the actor first.
const (
	// BandOpponent is −2 or fewer net successes.
	BandOpponent Band = "opponent narrates"
	// BandOpponentEmbellished is −1 or 0 net successes.
	BandOpponentEmbellished Band = "opponent narrates, actor embellishes"
	// BandActorEmbellished is 1 or 2 net successes.
	BandActorEmbellished Band = "actor narrates, opponent embellishes"
	// BandActor is 3 or more net successes.
	BandActor Band = "actor narrates"
)

// Bands returns the four bands, worst for the actor first.
func Bands() []Band {
	return []Band{BandOpponent, BandOpponentEmbellished, BandActorEmbellished, BandActor}
}

// BandOf returns the band of net successes.
func BandOf(net int) Band {
	switch {
	case net <= -2:
		return BandOpponent
	case net <= 0:
		return BandOpponentEmbellished
	case net <= 2:
		return BandActorEmbellished
	}
	return BandActor
}

// Traditional returns the traditional result of the band: failure;
// failure with a silver lining; success with a complication; success.
func (b Band) Traditional() string {
	switch b {
	case BandOpponent:
		return "failure"
	case BandOpponentEmbellished:
		return "failure with a silver lining"
	case BandActorEmbellished:
		return "success with a complication"
	case BandActor:
		return "success"
	}
	return ""
}

// Challenge is a challenge roll: the actor's pool against a static
// threshold or an opponent's pool (SPEC P-1 … P-5, P-9).
type Challenge struct {
	// Actor is the acting character's pool.
	Actor Pool `json:"actor"`
	// Opponent is the resisting character's pool; nil for a static
	// threshold.
	Opponent *Pool `json:"opponent,omitempty"`
	// Threshold is the static threshold when Opponent is nil.
	Threshold int `json:"threshold"`
	// Swing is the "checking your swing" option: every even face is one
	// success, and 6s explode only with Pool.Explode (1 Resolve spent) or
	// in a defining moment.
	Swing bool `json:"swing,omitempty"`
}

// Check reports a challenge the rules do not allow.
func (c Challenge) Check() error {
	if err := c.Actor.Check(); err != nil {
		return fmt.Errorf("actor: %w", err)
	}
	if c.Opponent != nil {
		if err := c.Opponent.Check(); err != nil {
			return fmt.Errorf("opponent: %w", err)
		}
	} else if c.Threshold < 0 || c.Threshold > dice.MaxNumber {
		return fmt.Errorf("threshold %d: it must be 0 or more", c.Threshold)
	}
	return nil
}

// ChallengeResult is a challenge roll that shows every die.
type ChallengeResult struct {
	// Successes is the actor's successes.
	Successes int `json:"successes"`
	// Threshold is the static threshold or the opponent's successes.
	Threshold int `json:"threshold"`
	// Net is Successes − Threshold.
	Net int `json:"net"`
	// Band is the narrative-control band of Net.
	Band Band `json:"band"`
	// Result is the band's traditional result.
	Result string `json:"result"`
	// Actor is the actor's roll.
	Actor *PoolResult `json:"actor"`
	// Opponent is the opponent's roll, when opposed.
	Opponent *PoolResult `json:"opponent,omitempty"`
	// Dice holds the actor's dice: the pool's, then the Resolve dice.
	Dice []dice.Die `json:"dice"`
}

// Roll rolls the actor's pool, then the opponent's, from src. Physical
// dice are played back with dice.Faces, in that order (see Pool.Roll).
func (c Challenge) Roll(src dice.Source) (*ChallengeResult, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	actor, err := c.Actor.roll(src, c.Swing)
	if err != nil {
		return nil, fmt.Errorf("actor: %w", err)
	}
	var opp *PoolResult
	if c.Opponent != nil {
		if opp, err = c.Opponent.roll(src, c.Swing); err != nil {
			return nil, fmt.Errorf("opponent: %w", err)
		}
	}
	if err := checkUnused(src); err != nil {
		return nil, err
	}
	return c.Settle(actor, opp), nil
}

// Settle works out the net successes and band of rolls already made; opp
// is nil for a static threshold.
func (c Challenge) Settle(actor, opp *PoolResult) *ChallengeResult {
	r := &ChallengeResult{Successes: actor.Successes, Threshold: c.Threshold, Actor: actor, Opponent: opp}
	if opp != nil {
		r.Threshold = opp.Successes
	}
	r.Net = r.Successes - r.Threshold
	r.Band = BandOf(r.Net)
	r.Result = r.Band.Traditional()
	r.Dice = append(append([]dice.Die{}, actor.Dice...), actor.ResolveDice...)
	return r
}

// BandOdds is the chance of one band.
type BandOdds struct {
	// Band is the narrative-control band.
	Band Band `json:"band"`
	// Result is its traditional result.
	Result string `json:"result"`
	// P is its probability.
	P float64 `json:"p"`
}

// NetOdds is the chance of one number of net successes.
type NetOdds struct {
	// Net is the net successes.
	Net int `json:"net"`
	// P is its probability.
	P float64 `json:"p"`
}

// ChallengeOdds is the exact odds of a challenge roll.
type ChallengeOdds struct {
	// Actor is the notation of the actor's pool (rolled twice, the
	// better kept, with Pool.Reroll).
	Actor string `json:"actor"`
	// Opponent is the notation of the opponent's pool, when opposed.
	Opponent string `json:"opponent,omitempty"`
	// Threshold is the static threshold, when not opposed.
	Threshold int `json:"threshold"`
	// Bands holds the odds of the four bands, worst for the actor first.
	Bands []BandOdds `json:"bands"`
	// Nets holds the odds of each net count that can happen, fewest
	// first.
	Nets []NetOdds `json:"nets"`
	// Mean is the expected net successes.
	Mean float64 `json:"mean"`
	// Truncated is the probability cut off by the explosion depth limit
	// (0 when no 6s explode).
	Truncated float64 `json:"truncated"`
}

// P returns the probability of band b.
func (o *ChallengeOdds) P(b Band) float64 {
	return kit.BandP(o.Bands, b, func(x BandOdds) (Band, float64) { return x.Band, x.P })
}

// Odds returns the exact odds of each band and of each net count: the
// distribution of the actor's successes less the threshold, or less the
// opponent's successes (their difference, dice.Sub). Resolve dice and
// rerolls are counted as if the Resolve were spent.
func (c Challenge) Odds() (*ChallengeOdds, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	a, err := c.Actor.dist(c.Swing)
	if err != nil {
		return nil, fmt.Errorf("actor: %w", err)
	}
	o := &ChallengeOdds{Actor: c.Actor.Expr(c.Swing)}
	net, shift := a, -c.Threshold
	if c.Opponent != nil {
		b, err := c.Opponent.dist(c.Swing)
		if err != nil {
			return nil, fmt.Errorf("opponent: %w", err)
		}
		net = dice.Sub(a, b)
		o.Opponent, shift = c.Opponent.Expr(c.Swing), 0
	} else {
		o.Threshold = c.Threshold
	}
	o.Truncated = net.Truncated
	for _, b := range Bands() {
		o.Bands = append(o.Bands, BandOdds{Band: b, Result: b.Traditional()})
	}
	for i, p := range net.P {
		if p == 0 {
			continue
		}
		v := net.Min + i + shift
		o.Nets = append(o.Nets, NetOdds{Net: v, P: p})
		o.Mean += p * float64(v)
		for j := range o.Bands {
			if o.Bands[j].Band == BandOf(v) {
				o.Bands[j].P += p
			}
		}
	}
	return o, nil
}

// dist returns the distribution of the pool's successes; with a reroll,
// of the better of two rolls: P(best ≤ k) = P(roll ≤ k)². It is a pure
// function of the pool, kept in distCache; callers must not change it.
func (p Pool) dist(swing bool) (*dice.Dist, error) {
	k := distKey{p, swing}
	if d, ok := distCache.get(k); ok {
		return d, nil
	}
	d, err := p.workOut(swing)
	if err != nil {
		return nil, err
	}
	distCache.put(k, d)
	return d, nil
}

func (p Pool) workOut(swing bool) (*dice.Dist, error) {
	e, err := dice.Parse(p.Expr(swing))
	if err != nil {
		return nil, fmt.Errorf("challenge odds: %w", err)
	}
	d, err := e.Dist(dice.DistOptions{})
	if err != nil {
		return nil, fmt.Errorf("challenge odds: %w", err)
	}
	if !p.Reroll {
		return d, nil
	}
	best := &dice.Dist{Min: d.Min, P: make([]float64, len(d.P)), Depth: d.Depth}
	best.Truncated = 1 - (1-d.Truncated)*(1-d.Truncated)
	below, cum := 0.0, 0.0
	for i, q := range d.P {
		cum += q
		if i == len(d.P)-1 {
			cum = 1
		}
		best.P[i] = cum*cum - below*below
		below = cum
	}
	return best, nil
}

// netDist returns the distribution of a's successes less b's (dice.Sub),
// kept in netCache; callers must not change it.
func netDist(a, b Pool, swing bool) (*dice.Dist, error) {
	k := netKey{distKey{a, swing}, distKey{b, swing}}
	if d, ok := netCache.get(k); ok {
		return d, nil
	}
	x, err := a.dist(swing)
	if err != nil {
		return nil, err
	}
	y, err := b.dist(swing)
	if err != nil {
		return nil, err
	}
	d := dice.Sub(x, y)
	netCache.put(k, d)
	return d, nil
}

// distKey names the distribution of a pool's successes: the distribution
// depends on nothing else.
type distKey struct {
	pool  Pool
	swing bool
}

// netKey names the distribution of one pool's successes less another's.
type netKey struct{ a, b distKey }

// maxCached bounds each cache of distributions; a full cache is emptied.
// A fight reuses a handful of pools (each trait's dice, give or take the
// modifiers), so the bound is seldom reached.
const maxCached = 512

// distCache and netCache keep the exact distributions worked out lately:
// the odds of every roll are worked out before it is rolled, and an
// exploding pool takes a while.
var (
	distCache = newCache[distKey]()
	netCache  = newCache[netKey]()
)

// cache is a bounded map of distributions, safe for concurrent use.
type cache[K comparable] struct {
	mu sync.Mutex
	m  map[K]*dice.Dist
}

func newCache[K comparable]() *cache[K] { return &cache[K]{m: map[K]*dice.Dist{}} }

func (c *cache[K]) get(k K) (*dice.Dist, bool) {
	c.mu.Lock()
	d, ok := c.m[k]
	c.mu.Unlock()
	return d, ok
}

func (c *cache[K]) put(k K, d *dice.Dist) {
	c.mu.Lock()
	if len(c.m) >= maxCached {
		clear(c.m)
	}
	c.m[k] = d
	c.mu.Unlock()
}
