package vv

import (
	"math/bits"
	"sync"

	"fray"
	"fray/dice"
)

// Damage types (V-12). They are wire strings: never rename one.
const (
	DamageBiochemical = "biochemical"
	DamageEnergy      = "energy"
	DamagePsychic     = "psychic"
	DamageKinetic     = "kinetic"
	DamageEntropy     = "entropy"
	DamageGas         = "gas" // any protection against Gas negates it
)

// DamageTypes returns the six damage types in the seed's order.
func DamageTypes() []string {
	return []string{DamageBiochemical, DamageEnergy, DamagePsychic, DamageKinetic, DamageEntropy, DamageGas}
}

// CoverDice is the dice notation of the cover roll (V-11): percent dice.
const CoverDice = "1d100"

// RangeModifier returns the modifier to hit at an effective range in
// inches (V-9): 0 up to 7", -1 for 8 to 15", -2 for 16 to 31", and 1
// less for each further doubling (8192 to 16383": -11).
func RangeModifier(inches int) int {
	if inches <= 7 {
		return 0
	}
	// 8 to 15 have 4 binary digits, 16 to 31 have 5, …
	return -(bits.Len(uint(inches)) - 3)
}

// Facings an attack can come from or go to (V-10), as attack's facing=
// and attacker-facing= name them. Between two facings the modifier is the
// average of theirs.
const (
	FacingFront     = "front"
	FacingFrontSide = "front-side"
	FacingSide      = "side"
	FacingSideRear  = "side-rear"
	FacingRear      = "rear"
	FacingAbove     = "above" // counts as from behind; directly above a prone target
	FacingBelow     = "below" // counts as from behind; directly below a prone target
)

// DefenderFacing returns the bonus on the chance to hit a defender
// attacked from the given facing (V-10): front 0, side +2, rear (above,
// below) +4; between two facings the average: front-side +1, side-rear
// (3/4 behind) +3. ok is false for an unknown facing.
func DefenderFacing(f string) (mod int, ok bool) {
	switch f {
	case FacingFront:
		return 0, true
	case FacingFrontSide:
		return 1, true // (0 + 2) / 2
	case FacingSide:
		return 2, true
	case FacingSideRear:
		return 3, true // (2 + 4) / 2
	case FacingRear, FacingAbove, FacingBelow:
		return 4, true
	}
	return 0, false
}

// AttackerFacing returns the modifier for attacking towards one's own
// facing f (V-10): front 0, side -2, between them -1. ok is false for the
// rear, or between side and rear, where no attack can be made, and for an
// unknown facing.
func AttackerFacing(f string) (mod int, ok bool) {
	switch f {
	case FacingFront:
		return 0, true
	case FacingFrontSide:
		return -1, true // (0 - 2) / 2
	case FacingSide:
		return -2, true
	}
	return 0, false
}

// Attack is one attack's numbers once every modifier is known: the to-hit
// roll (V-8), a Special Attack (V-11), cover (V-11), the damage roll and
// protection (V-12), rolling with the punch (V-13), knockback (V-14) and
// the pulled punch (V-15). Settle works out what given dice do; Odds gives
// the exact chance of each outcome.
type Attack struct {
	// Hit is the to-hit roll: the chance, or a defenceless target.
	Hit HitRoll `json:"hit"`
	// Special marks a Special Attack: two to-hit rolls, both of which must
	// hit (a prone target beyond 2", or aiming past cover).
	Special bool `json:"special,omitempty"`
	// Cover is the percentage of the target covered, 0 for none; a hit is
	// on the cover when the d% is at or under it. A Special Attack
	// ignores cover.
	Cover int `json:"cover,omitempty"`
	// CoverProtection is the cover's protection against the damage.
	CoverProtection int `json:"cover_protection,omitempty"`
	// Dice is the damage roll in dice notation, such as "1d10".
	Dice string `json:"dice"`
	// Pull is the damage held back (V-15).
	Pull int `json:"pull,omitempty"`
	// Protection is the target's protection against the damage type.
	Protection int `json:"protection,omitempty"`
	// Gas marks Gas damage, negated by any protection against Gas.
	Gas bool `json:"gas,omitempty"`
	// Effect marks a power with an effect other than damage: it takes
	// hold when its damage after protection is at least 1, and takes no
	// Hit Points.
	Effect bool `json:"effect,omitempty"`
	// Divert is the most damage the target rolls with, to Power (V-13).
	Divert int `json:"divert,omitempty"`
	// Knockback marks an impact-like attack, which throws the target
	// back (V-14); BasicHits is the target's Basic Hits.
	Knockback bool `json:"knockback,omitempty"`
	BasicHits int  `json:"basic_hits,omitempty"`
	// HitPoints is the target's Hit Points before the attack, which tell
	// whether the blow incapacitates.
	HitPoints int `json:"hit_points"`
}

// AttackResult is what an attack did.
type AttackResult struct {
	// Band is hit, miss or astray (a 20 on a to-hit roll).
	Band HitBand `json:"band"`
	// OnCover reports a hit on the cover.
	OnCover bool `json:"on_cover,omitempty"`
	// Rolled is the damage dice's total.
	Rolled int `json:"rolled,omitempty"`
	// Damage is the damage after the pull, the cover and protection.
	Damage int `json:"damage"`
	// Affects reports that an effect power takes hold.
	Affects bool `json:"affects,omitempty"`
	// ToPower and ToHits split the damage between Power (rolled with) and
	// Hit Points.
	ToPower int `json:"to_power,omitempty"`
	ToHits  int `json:"to_hits,omitempty"`
	// Incapacitated reports that the blow took the target to 0 Hit Points
	// or below.
	Incapacitated bool `json:"incapacitated,omitempty"`
	// Knockback is the distance the target is thrown, in inches.
	Knockback int `json:"knockback,omitempty"`
}

// Settle works out the attack from the faces of the first and second d20
// (the second counts only for a Special Attack), the d% of the cover roll
// and the damage dice's total. Faces a roll does not need are ignored.
func (a Attack) Settle(first, second, pct, rolled int) AttackResult {
	res := AttackResult{Band: a.Hit.Band(first)}
	if res.Band == HitHit && a.Special {
		res.Band = a.Hit.Band(second)
	}
	if res.Band != HitHit {
		return res
	}
	res.Rolled = rolled
	res.OnCover = a.Cover > 0 && !a.Special && pct <= a.Cover
	res.Damage = a.damage(rolled, res.OnCover)
	if a.Effect {
		res.Affects = res.Damage >= 1
		return res
	}
	res.ToPower = min(a.Divert, res.Damage)
	res.ToHits = res.Damage - res.ToPower
	res.Incapacitated = res.ToHits > 0 && a.HitPoints > 0 && a.HitPoints-res.ToHits <= 0
	if a.Knockback {
		thrown := res.ToHits
		if res.Incapacitated {
			thrown += res.ToPower
		}
		res.Knockback = max(0, thrown-a.BasicHits)
	}
	return res
}

// damage is the damage a rolled total deals: less the pull, the cover's
// protection when the cover is hit, and the target's protection; any
// protection against Gas negates it (V-12, V-15).
func (a Attack) damage(rolled int, onCover bool) int {
	x := max(0, rolled-a.Pull)
	if onCover {
		x = max(0, x-a.CoverProtection)
	}
	if a.Gas && a.Protection >= 1 {
		return 0
	}
	return max(0, x-a.Protection)
}

// Bands of an attack's odds, worst for the attacker first.
const (
	BandAstray  = "astray"        // a 20: a miss that goes astray (V-16)
	BandMiss    = "miss"          // a miss on 2 to 19
	BandOnCover = "hit the cover" // a hit on the cover (V-11)
	BandHit     = "hit"           // a hit on the target
)

// AttackOdds is the exact odds of an attack.
type AttackOdds struct {
	// Astray, Miss, OnCover and Hit are the chances of each band; they
	// sum to 1.
	Astray, Miss, OnCover, Hit float64
	// Damage is the distribution of the damage after the pull, the cover
	// and protection, a miss counting as 0: Damage[v] is P(damage = v).
	Damage []float64
	// Mean is the expected damage.
	Mean float64
}

// distCache keeps the distributions of damage dice by notation, up to
// maxDists of them; a distribution is never changed once made.
var (
	distCache sync.Map // string → *dice.Dist
	distMu    sync.Mutex
	distCount int
)

const maxDists = 1024

// damageDist returns the exact distribution of the damage dice expr.
func damageDist(expr string) (*dice.Dist, error) {
	if d, ok := distCache.Load(expr); ok {
		return d.(*dice.Dist), nil
	}
	x, err := dice.Parse(expr)
	if err != nil {
		return nil, err
	}
	d, err := x.Dist(dice.DistOptions{})
	if err != nil {
		return nil, err
	}
	distMu.Lock()
	if distCount < maxDists {
		if _, loaded := distCache.LoadOrStore(expr, d); !loaded {
			distCount++
		}
	}
	distMu.Unlock()
	return d, nil
}

// Odds returns the exact odds of the attack: each band, from the faces of
// the d20 (both must hit in a Special Attack), the cover's share of the
// hits, and the damage from the exact distribution of the damage dice.
func (a Attack) Odds() (*AttackOdds, error) {
	dd, err := damageDist(a.Dice)
	if err != nil {
		return nil, err
	}
	o := &AttackOdds{}
	o.Hit, o.Miss, o.Astray = a.Hit.bandOdds(a.Special)
	cover := 0.0
	if a.Cover > 0 && !a.Special {
		cover = float64(min(a.Cover, 100)) / 100
	}
	o.OnCover, o.Hit = o.Hit*cover, o.Hit*(1-cover)
	o.Damage = make([]float64, max(0, a.damage(dd.Max(), false))+1)
	o.Mean = a.tally(o, dd)
	return o, nil
}

// tally fills o.Damage, zeroed and long enough for the most damage dd
// can deal, from o's bands and the damage dice dd, and returns the mean
// damage: Odds and MeanDamage both add it up here, so that the two agree
// to the last bit.
func (a Attack) tally(o *AttackOdds, dd *dice.Dist) float64 {
	o.Damage[0] = o.Astray + o.Miss
	for i, pv := range dd.P {
		v := dd.Min + i
		if o.OnCover > 0 {
			o.Damage[a.damage(v, true)] += o.OnCover * pv
		}
		o.Damage[a.damage(v, false)] += o.Hit * pv
	}
	mean := 0.0
	for v, pv := range o.Damage {
		mean += float64(v) * pv
	}
	return mean
}

// MeanDamage returns the expected damage of the attack, a miss counting
// 0: the Mean of its Odds, worked out the same way to the last bit, the
// distribution kept on the stack when it is short.
func (a Attack) MeanDamage() (float64, error) {
	dd, err := damageDist(a.Dice)
	if err != nil {
		return 0, err
	}
	o := AttackOdds{}
	o.Hit, o.Miss, o.Astray = a.Hit.bandOdds(a.Special)
	cover := 0.0
	if a.Cover > 0 && !a.Special {
		cover = float64(min(a.Cover, 100)) / 100
	}
	o.OnCover, o.Hit = o.Hit*cover, o.Hit*(1-cover)
	var buf [64]float64
	if n := max(0, a.damage(dd.Max(), false)) + 1; n <= len(buf) {
		o.Damage = buf[:n]
	} else {
		o.Damage = make([]float64, n)
	}
	return a.tally(&o, dd), nil
}

// band names the band of a result.
func (r AttackResult) band() string {
	switch {
	case r.Band == HitAstray:
		return BandAstray
	case r.Band == HitMiss:
		return BandMiss
	case r.OnCover:
		return BandOnCover
	}
	return BandHit
}

// protection returns the combatant's protection against a damage type: the
// sheet's protection plus the conditions that add to it (protect), from
// round on (V-12: protection from every source adds up).
func protection(c *fray.Combatant, typ string, round int) int {
	n := c.Protection[typ]
	for _, x := range c.Conditions {
		if x.From > round {
			continue
		}
		for _, m := range x.Modifiers {
			if m.On == protectionOn+typ {
				n += m.Value
			}
		}
	}
	return n
}

// protectionOn prefixes the damage type in the Modifier.On of a condition
// that adds protection ("protection:energy").
const protectionOn = "protection:"
