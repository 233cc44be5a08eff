package vv

import (
	"fmt"

	"fray/dice"
	"fray/rules/kit"
)

// HitDice is the dice notation of a to-hit roll.
const HitDice = "1d20"

// HitBand is the outcome of a to-hit roll.
type HitBand string

// The outcomes of a to-hit roll (SPEC V-8, V-16).
const (
	// HitHit is a hit: the die is at most the chance, or shows 1.
	HitHit HitBand = "hit"
	// HitMiss is a miss on 2 to 19; the GM may still rule an incidental
	// effect.
	HitMiss HitBand = "miss"
	// HitAstray is a miss on a 20: the attack always misses and goes
	// astray (an incidental effect).
	HitAstray HitBand = "astray"
)

// HitBands returns the outcomes of a to-hit roll, best first.
func HitBands() []HitBand { return []HitBand{HitHit, HitMiss, HitAstray} }

// Describe returns the band in words.
func (b HitBand) Describe() string {
	switch b {
	case HitHit:
		return "hit"
	case HitMiss:
		return "miss"
	case HitAstray:
		return "miss on a 20: the attack goes astray (incidental effect)"
	}
	return string(b)
}

// HitAlways and HitNever are the faces that always hit and always miss.
const (
	HitAlways = 1
	HitNever  = 20
)

// HitRoll is a Villains & Vigilantes to-hit roll: 1d20 at or under the
// chance hits, but a 1 always hits and a 20 always misses (SPEC V-8).
type HitRoll struct {
	// Chance is the final chance to hit: skill score + attacker Level −
	// defender Level + range, facing and GM modifiers.
	Chance int `json:"chance"`
	// Defenceless marks a target that cannot defend itself (immobile,
	// unconscious, or unaware of the attack and failing to notice it): it
	// is hit on anything but a 20, whatever the chance.
	Defenceless bool `json:"defenceless,omitempty"`
}

// Needed returns the highest face that hits. A 1 always hits and a 20
// always misses, so it is between 1 and 19.
func (h HitRoll) Needed() int {
	if h.Defenceless {
		return HitNever - 1
	}
	return min(max(h.Chance, HitAlways), HitNever-1)
}

// Band returns the outcome of the die showing face (1 to 20).
func (h HitRoll) Band(face int) HitBand {
	switch {
	case face >= HitNever:
		return HitAstray
	case face <= h.Needed():
		return HitHit
	}
	return HitMiss
}

// HitResult is a to-hit roll that shows its die.
type HitResult struct {
	// Chance is the chance to hit the roll was made against.
	Chance int `json:"chance"`
	// Needed is the highest face that hits.
	Needed int `json:"needed"`
	// Total is the face of the d20.
	Total int `json:"total"`
	// Band is the outcome.
	Band HitBand `json:"band"`
	// Dice holds the d20 as rolled.
	Dice []dice.Die `json:"dice"`
}

var hitExpr = dice.MustParse(HitDice)

// Roll rolls the d20 from src. A physical die is played back with
// dice.Faces(face).
func (h HitRoll) Roll(src dice.Source) (*HitResult, error) {
	res, err := hitExpr.Roll(src)
	if err != nil {
		return nil, fmt.Errorf("roll to hit: %w", err)
	}
	if fs, ok := src.(*dice.FaceSource); ok && fs.Unused() > 0 {
		return nil, fmt.Errorf("roll to hit: %d physical dice given, but a to-hit roll takes 1", 1+fs.Unused())
	}
	return &HitResult{
		Chance: h.Chance,
		Needed: h.Needed(),
		Total:  res.Total,
		Band:   h.Band(res.Total),
		Dice:   res.Dice,
	}, nil
}

// FromDie settles a to-hit roll from the face of a physical d20.
func (h HitRoll) FromDie(face int) (*HitResult, error) {
	return h.Roll(dice.Faces(face))
}

// HitBandOdds is the chance of one outcome.
type HitBandOdds struct {
	// Band is the outcome.
	Band HitBand `json:"band"`
	// P is its probability.
	P float64 `json:"p"`
}

// HitOdds is the exact odds of a to-hit roll.
type HitOdds struct {
	// Chance is the chance to hit.
	Chance int `json:"chance"`
	// Needed is the highest face that hits.
	Needed int `json:"needed"`
	// Bands holds the odds of hit, miss and astray, in that order.
	Bands []HitBandOdds `json:"bands"`
}

// P returns the probability of band b.
func (o *HitOdds) P(b HitBand) float64 {
	return kit.BandP(o.Bands, b, func(x HitBandOdds) (HitBand, float64) { return x.Band, x.P })
}

// Odds returns the exact odds of each outcome (see bandOdds): the one
// path the named roll, odds attack and an attack's event all take.
func (h HitRoll) Odds() *HitOdds {
	hit, miss, astray := h.bandOdds(false)
	return &HitOdds{Chance: h.Chance, Needed: h.Needed(), Bands: []HitBandOdds{
		{Band: HitHit, P: hit}, {Band: HitMiss, P: miss}, {Band: HitAstray, P: astray},
	}}
}

// bandOdds returns the chances of a hit, a miss and going astray: of one
// d20, or of two when twice (a Special Attack, V-11: the second is rolled
// on a hit and must hit too, and a 20 on either goes astray). Each is its
// count of faces (of 20, or of 400 pairs) divided once, so each is the
// nearest float64 to the exact fraction, and the same wherever it is
// asked for.
func (h HitRoll) bandOdds(twice bool) (hit, miss, astray float64) {
	n := h.Needed() // faces 1 to n hit; 20 goes astray
	hits, astrays, all := n, 1, 20
	if twice {
		hits, astrays, all = n*n, 20+n, 400
	}
	return float64(hits) / float64(all), float64(all-hits-astrays) / float64(all), float64(astrays) / float64(all)
}
