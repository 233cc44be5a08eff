package queue

import (
	"fmt"

	"fray/dice"
)

// DamageWeight is how heavy a weapon is; it picks which of the Red and
// Black dice is the damage (SPEC Q-4).
type DamageWeight string

// The three weapon weights.
const (
	DamageLight  DamageWeight = "light"  // deals the lower of Red and Black
	DamageMedium DamageWeight = "medium" // deals Red
	DamageHeavy  DamageWeight = "heavy"  // deals the higher of Red and Black
)

// DamageWeights returns the weapon weights, lightest first.
func DamageWeights() []DamageWeight {
	return []DamageWeight{DamageLight, DamageMedium, DamageHeavy}
}

// ParseDamageWeight reads a weapon weight: light, medium or heavy.
func ParseDamageWeight(s string) (DamageWeight, error) {
	switch w := DamageWeight(s); w {
	case DamageLight, DamageMedium, DamageHeavy:
		return w, nil
	}
	return "", fmt.Errorf("weapon weight %q: want light, medium or heavy", s)
}

// DamageDice is the dice notation of a damage roll: two d6, Red first,
// then Black.
const DamageDice = "2d6"

// DamageSpecialFace is the Black face that triggers the weapon's special
// effect.
const DamageSpecialFace = 6

// DamageRoll is a Combat Queue damage roll on a hit: Red and Black d6, the
// weapon's weight choosing which counts, a Black 6 triggering its special
// effect.
type DamageRoll struct {
	// Weight is the weapon's weight.
	Weight DamageWeight `json:"weight"`
}

// DamageResult is a damage roll that shows both dice by colour.
type DamageResult struct {
	// Weight is the weapon's weight.
	Weight DamageWeight `json:"weight"`
	// Red and Black are the faces of the two dice.
	Red   int `json:"red"`
	Black int `json:"black"`
	// Damage is the damage dealt: the lower die (light), Red (medium) or
	// the higher die (heavy).
	Damage int `json:"damage"`
	// Special reports a Black 6: the weapon's special effect triggers.
	Special bool `json:"special"`
	// Dice holds the two dice as rolled, Red then Black.
	Dice []dice.Die `json:"dice"`
}

var damageExpr = mustParse(DamageDice)

func mustParse(s string) *dice.Expr {
	e, err := dice.Parse(s)
	if err != nil {
		panic(err)
	}
	return e
}

// Roll rolls Red then Black from src. Physical dice are played back with
// dice.Faces(red, black).
func (r DamageRoll) Roll(src dice.Source) (*DamageResult, error) {
	if _, err := ParseDamageWeight(string(r.Weight)); err != nil {
		return nil, err
	}
	res, err := damageExpr.Roll(src)
	if err != nil {
		return nil, fmt.Errorf("roll damage: %w", err)
	}
	if fs, ok := src.(*dice.FaceSource); ok && fs.Unused() > 0 {
		return nil, fmt.Errorf("roll damage: %d physical dice given, but a damage roll takes 2 (Red, Black)", 2+fs.Unused())
	}
	out := r.result(res.Dice[0].Face, res.Dice[1].Face)
	out.Dice = res.Dice
	return out, nil
}

// FromDice settles a damage roll from the faces of physical Red and Black
// dice.
func (r DamageRoll) FromDice(red, black int) (*DamageResult, error) {
	return r.Roll(dice.Faces(red, black))
}

func (r DamageRoll) result(red, black int) *DamageResult {
	return &DamageResult{
		Weight:  r.Weight,
		Red:     red,
		Black:   black,
		Damage:  r.Weight.Damage(red, black),
		Special: black == DamageSpecialFace,
	}
}

// Damage returns the damage a weapon of weight w deals when Red and Black
// show red and black.
func (w DamageWeight) Damage(red, black int) int {
	switch w {
	case DamageLight:
		return min(red, black)
	case DamageHeavy:
		return max(red, black)
	}
	return red
}

// DamageValueOdds is the chance of one damage value, alone and together
// with the special effect.
type DamageValueOdds struct {
	// Damage is the damage dealt.
	Damage int `json:"damage"`
	// P is the probability of dealing exactly Damage.
	P float64 `json:"p"`
	// PSpecial is the probability of dealing exactly Damage and triggering
	// the special effect (Black 6).
	PSpecial float64 `json:"p_special"`
}

// DamageOdds is the exact odds of a damage roll.
type DamageOdds struct {
	// Weight is the weapon's weight.
	Weight DamageWeight `json:"weight"`
	// Values holds the odds of each damage value 1 to 6, in order.
	Values []DamageValueOdds `json:"values"`
	// Special is the probability of a Black 6 (the special effect).
	Special float64 `json:"special"`
	// Mean is the expected damage.
	Mean float64 `json:"mean"`
}

// mean returns the expected damage of a roll of a valid weight: Mean of
// its Odds.
func (r DamageRoll) mean() float64 {
	sum := 0
	for red := 1; red <= 6; red++ {
		for black := 1; black <= 6; black++ {
			sum += r.Weight.Damage(red, black)
		}
	}
	return float64(sum) / 36
}

// Odds returns the exact odds of each damage value, of the special effect,
// and of both together. The 36 equally likely (Red, Black) pairs are
// enumerated.
func (r DamageRoll) Odds() (*DamageOdds, error) {
	if _, err := ParseDamageWeight(string(r.Weight)); err != nil {
		return nil, err
	}
	o := &DamageOdds{Weight: r.Weight, Values: make([]DamageValueOdds, 6)}
	for i := range o.Values {
		o.Values[i].Damage = i + 1
	}
	var all, special [6]int
	sum, specials := 0, 0
	for red := 1; red <= 6; red++ {
		for black := 1; black <= 6; black++ {
			d := r.Weight.Damage(red, black)
			all[d-1]++
			sum += d
			if black == DamageSpecialFace {
				special[d-1]++
				specials++
			}
		}
	}
	for i := range o.Values {
		o.Values[i].P = float64(all[i]) / 36
		o.Values[i].PSpecial = float64(special[i]) / 36
	}
	o.Special = float64(specials) / 36
	o.Mean = float64(sum) / 36
	return o, nil
}
