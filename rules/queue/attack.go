package queue

import (
	"fmt"
	"strings"

	"fray/dice"
)

// Numbers of an attack (SPEC Q-4, ours): the to-hit roll is d20 + the
// attacker's Wits (+ any modifier) against DefaultHitBase + the target's
// Wits; a GM may set another base, or rule every hit instead.
const (
	// HitDie is the to-hit die.
	HitDie = "1d20"
	// DefaultHitBase is the number the target's Wits is added to for the
	// score a to-hit roll must reach.
	DefaultHitBase = 10
)

// Rulings on whether an attack hits, given with hit= instead of a roll.
const (
	RulingNone = ""    // the to-hit die decides
	RulingHit  = "yes" // the GM rules a hit
	RulingMiss = "no"  // the GM rules a miss
)

// Attack is everything an attack's dice depend on (SPEC ).
type Attack struct {
	// Weight is the weapon's weight.
	Weight DamageWeight `json:"weight"`
	// Ruling is RulingHit or RulingMiss when the GM rules the hit, or
	// RulingNone for a to-hit roll.
	Ruling string `json:"ruling,omitempty"`
	// Bonus is added to the d20: the attacker's Wits and any modifier.
	Bonus int `json:"bonus"`
	// Need is the score the d20 + Bonus must reach: the hit base plus
	// the target's Wits.
	Need int `json:"need"`
	// HP is the hit points left of who suffers the damage (the target,
	// or one who reacted to suffer it instead, Q-3); 0 means
	// Incapacitated already.
	HP int `json:"hp"`
}

// Expr returns the dice the attack rolls, in order: the d20 (unless the
// GM rules), then Red and Black. A ruled miss rolls nothing ("").
func (a Attack) Expr() string {
	switch a.Ruling {
	case RulingMiss:
		return ""
	case RulingHit:
		return DamageDice
	}
	return HitDie + "+" + DamageDice
}

// Check reports an attack the rules do not allow.
func (a Attack) Check() error {
	if _, err := ParseDamageWeight(string(a.Weight)); err != nil {
		return err
	}
	switch a.Ruling {
	case RulingNone, RulingHit, RulingMiss:
	default:
		return fmt.Errorf("ruling %q: want yes, no or none", a.Ruling)
	}
	if a.HP < 0 {
		return fmt.Errorf("%d hit points left: it must be 0 or more", a.HP)
	}
	return nil
}

// AttackResult is an attack's outcome with every die.
type AttackResult struct {
	// ToHit is the d20's face (0 when the GM ruled).
	ToHit int `json:"to_hit"`
	// Score is ToHit + Bonus (0 when the GM ruled).
	Score int `json:"score"`
	// Hit reports whether the attack hits.
	Hit bool `json:"hit"`
	// Damage is the damage roll on a hit (nil on a miss). Roll and Settle
	// take Red and Black with the d20 even on a miss (attack commands
	// roll them only on a hit).
	Damage *DamageResult `json:"damage,omitempty"`
	// Dice holds every face in the order rolled: the d20, Red, Black.
	Dice []int `json:"dice"`
	// Incapacitates reports that the damage takes the target's last hit
	// points.
	Incapacitates bool `json:"incapacitates,omitempty"`
	// Injures reports a hit on a target already Incapacitated: they take
	// an Injury.
	Injures bool `json:"injures,omitempty"`
}

// Settle works out an attack from the faces rolled for Expr, in order.
func (a Attack) Settle(faces []int) (*AttackResult, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	want := map[string]int{"": 0, DamageDice: 2, HitDie + "+" + DamageDice: 3}[a.Expr()]
	if len(faces) != want {
		return nil, fmt.Errorf("attack: %d dice given, but it rolls %d (%s)", len(faces), want, describeExpr(a.Expr()))
	}
	r := &AttackResult{Dice: append([]int{}, faces...)}
	switch a.Ruling {
	case RulingMiss:
		return r, nil
	case RulingHit:
		r.Hit = true
	default:
		if faces[0] < 1 || faces[0] > 20 {
			return nil, fmt.Errorf("attack: the d20 shows faces 1 to 20, not %d", faces[0])
		}
		r.ToHit = faces[0]
		r.Score = faces[0] + a.Bonus
		r.Hit = a.toHit().Succeeds(faces[0])
		faces = faces[1:]
	}
	if faces[0] < 1 || faces[0] > 6 || faces[1] < 1 || faces[1] > 6 {
		return nil, fmt.Errorf("attack: Red and Black show faces 1 to 6, not %d and %d", faces[0], faces[1])
	}
	if !r.Hit {
		return r, nil
	}
	d, err := DamageRoll{Weight: a.Weight}.FromDice(faces[0], faces[1])
	if err != nil {
		return nil, err
	}
	r.Damage = d
	r.Incapacitates, r.Injures = Hurt(a.HP, d.Damage)
	return r, nil
}

// Hurt says what damage does to a combatant with hp hit points left
// taking the last of them Incapacitates; any damage to one already
// Incapacitated (0 left) is an Injury. An attack's hit and the GM's
// damage command both go through it.
func Hurt(hp, damage int) (incapacitates, injures bool) {
	return hp > 0 && damage >= hp, hp == 0 && damage > 0
}

// ToHit is the d20 roll of the house rule (Q-4, ours): the d20 + Bonus
// must reach Need. An attack's to-hit roll is one; so is a check (check
// NAME vs=NAME|difficulty=N), against 10 + the opponent's Wits or the
// GM's difficulty.
type ToHit struct {
	// Bonus is added to the d20: Wits and any modifier.
	Bonus int `json:"bonus"`
	// Need is the score to reach.
	Need int `json:"need"`
}

// Succeeds reports whether the d20 showing face reaches the score.
func (t ToHit) Succeeds(face int) bool { return face+t.Bonus >= t.Need }

// P returns the exact probability of success: the faces of the d20 that
// succeed, out of 20.
func (t ToHit) P() float64 {
	n := 0
	for f := 1; f <= 20; f++ {
		if t.Succeeds(f) {
			n++
		}
	}
	return float64(n) / 20
}

func (a Attack) toHit() ToHit { return ToHit{Bonus: a.Bonus, Need: a.Need} }

func describeExpr(e string) string {
	switch e {
	case "":
		return "nothing: the GM ruled a miss"
	case DamageDice:
		return "Red and Black"
	}
	return "the d20, then Red and Black"
}

// settleRolled works out an attack from the faces a command rolled: the
// d20 alone on a miss, Red and Black after it only on a hit.
func (a Attack) settleRolled(faces []int) (*AttackResult, error) {
	if a.Ruling == RulingNone && len(faces) == 1 {
		if err := a.Check(); err != nil {
			return nil, err
		}
		if faces[0] < 1 || faces[0] > 20 {
			return nil, fmt.Errorf("attack: the d20 shows faces 1 to 20, not %d", faces[0])
		}
		if a.toHit().Succeeds(faces[0]) {
			return nil, fmt.Errorf("attack: a hit rolls Red and Black too")
		}
		return &AttackResult{ToHit: faces[0], Score: faces[0] + a.Bonus, Dice: []int{faces[0]}}, nil
	}
	return a.Settle(faces)
}

// Roll rolls the attack from src.
func (a Attack) Roll(src dice.Source) (*AttackResult, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	var faces []int
	if e := a.Expr(); e != "" {
		x, err := dice.Parse(e)
		if err != nil {
			return nil, fmt.Errorf("attack: %w", err)
		}
		res, err := x.Roll(src)
		if err != nil {
			return nil, fmt.Errorf("attack: %w", err)
		}
		for _, d := range res.Dice {
			faces = append(faces, d.Face)
		}
	}
	return a.Settle(faces)
}

// AttackOdds is the exact odds of an attack's outcomes.
type AttackOdds struct {
	// Hit is the probability of a hit.
	Hit float64 `json:"hit"`
	// Damage holds the probability of a hit dealing each damage 1 to 6
	// (they sum to Hit), with and without the special effect.
	Damage []DamageValueOdds `json:"damage"`
	// Special is the probability of a hit with Black 6: the weapon's
	// special effect.
	Special float64 `json:"special"`
	// Incapacitates is the probability that the attack takes the
	// target's last hit points.
	Incapacitates float64 `json:"incapacitates"`
	// Injures is the probability of an Injury: a hit on a target
	// already Incapacitated.
	Injures float64 `json:"injures"`
	// MeanDamage is the expected damage, a miss counting 0.
	MeanDamage float64 `json:"mean_damage"`
}

// Odds returns the exact odds of the attack: P(hit) from the 20 faces of
// the d20 (1 when the GM rules a hit, 0 a miss), times the odds of the
// 36 (Red, Black) pairs.
func (a Attack) Odds() (*AttackOdds, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	hit := 0.0
	switch a.Ruling {
	case RulingHit:
		hit = 1
	case RulingMiss:
	default:
		hit = a.toHit().P()
	}
	d, err := DamageRoll{Weight: a.Weight}.Odds()
	if err != nil {
		return nil, err
	}
	o := &AttackOdds{Hit: hit, Special: hit * d.Special, MeanDamage: hit * d.Mean}
	for _, v := range d.Values {
		o.Damage = append(o.Damage, DamageValueOdds{Damage: v.Damage, P: hit * v.P, PSpecial: hit * v.PSpecial})
		if a.HP > 0 && v.Damage >= a.HP {
			o.Incapacitates += hit * v.P
		}
	}
	if a.HP == 0 {
		o.Injures = hit
	}
	return o, nil
}

// MeanDamage returns the expected damage of the attack, a miss counting
// 0: the MeanDamage of its Odds, worked out the same way without the
// rest of them.
func (a Attack) MeanDamage() (float64, error) {
	if err := a.Check(); err != nil {
		return 0, err
	}
	hit := 0.0
	switch a.Ruling {
	case RulingHit:
		hit = 1
	case RulingMiss:
	default:
		hit = a.toHit().P()
	}
	return hit * DamageRoll{Weight: a.Weight}.mean(), nil
}

// String shows the odds on one line, such as
// "hit 55.0%; damage 1 5.6% … 6 5.6%; special 9.2%; incapacitates 18.3%".
func (o *AttackOdds) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "hit %.1f%%; damage", 100*o.Hit)
	for _, v := range o.Damage {
		fmt.Fprintf(&b, " %d: %.1f%%", v.Damage, 100*v.P)
	}
	fmt.Fprintf(&b, "; special %.1f%%; incapacitates %.1f%%; injury %.1f%%", 100*o.Special, 100*o.Incapacitates, 100*o.Injures)
	return b.String()
}
