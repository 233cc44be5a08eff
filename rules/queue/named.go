package queue

import (
	"fmt"
	"strings"

	"fray/dice"
	"fray/rules/kit"
)

// This file is the system's named roll (kit.NamedRoll): a weapon's
// damage, for "fray roll --rules queue" and "fray prob --rules queue"
// and the HTTP API.

// NamedRoll returns the declaration of the damage roll by name.
func (*System) NamedRoll() kit.NamedRoll {
	return kit.NamedRoll{
		Title: "Combat Queue damage: Red and Black d6; light the lower, medium Red, heavy the higher; Black 6 = special (Q-4)",
		Keys: []kit.RollKey{
			kit.Key("weapon", "light|medium|heavy", "the weapon's weight (required to roll; prob shows all three without it)"),
			kit.TableKey("red", "1-6", "the Red die rolled at the table"),
			kit.TableKey("black", "1-6", "the Black die rolled at the table"),
		},
		Examples: []string{"prob weapon=heavy"},
		Roll:     namedRoll,
		Prob:     namedProb,
	}
}

// namedDamage is the JSON form of a damage roll by name. Its field names
// are wire strings.
type namedDamage struct {
	Weight DamageWeight `json:"weight"`
	Total  int          `json:"total"`
	Band   string       `json:"band"`
	Red    int          `json:"red"`
	Black  int          `json:"black"`
	Damage int          `json:"damage"`
	// Special reports a Black 6.
	Special bool       `json:"special"`
	Dice    []dice.Die `json:"dice"`
}

// namedOdds is the JSON form of the odds of a damage roll by name.
type namedOdds struct {
	Weight  DamageWeight    `json:"weight"`
	Bands   []namedBandOdds `json:"bands"`
	Special float64         `json:"special"`
	Mean    float64         `json:"mean"`
}

type namedBandOdds struct {
	Band     string  `json:"band"`
	Damage   int     `json:"damage"`
	P        float64 `json:"p"`
	PSpecial float64 `json:"p_special"`
}

var namedWhich = map[DamageWeight]string{
	DamageLight:  "the lower of Red and Black",
	DamageMedium: "Red",
	DamageHeavy:  "the higher of Red and Black",
}

func namedWeight(a *kit.RollArgs, required bool) (DamageWeight, error) {
	s, ok := a.Get("weapon")
	if !ok {
		if required {
			return "", fmt.Errorf("weapon= is required: light, medium or heavy")
		}
		return "", nil
	}
	w, err := ParseDamageWeight(strings.ToLower(s))
	if err != nil {
		return "", fmt.Errorf("weapon=%s: want light, medium or heavy", s)
	}
	return w, nil
}

func namedBand(damage int, special bool) string {
	s := fmt.Sprintf("%d damage", damage)
	if special {
		s += " + special"
	}
	return s
}

func namedRoll(a *kit.RollArgs) (kit.RollMaker, error) {
	w, err := namedWeight(a, true)
	if err != nil {
		return kit.RollMaker{}, err
	}
	var fixed [2]int
	for i, key := range []string{"red", "black"} {
		if fixed[i], err = a.Int(key, 0, 1, 6); err != nil {
			return kit.RollMaker{}, err
		}
	}
	return kit.Fixed(fixed[:], func(src dice.Source) (any, string, error) {
		r, err := DamageRoll{Weight: w}.Roll(src)
		if err != nil {
			return nil, "", err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "queue damage, %s weapon (%s)\n", w, namedWhich[w])
		fmt.Fprintf(&b, "  Red %d, Black %d\n", r.Red, r.Black)
		fmt.Fprintf(&b, "  %d damage", r.Damage)
		if r.Special {
			b.WriteString("; Black 6: the weapon's special effect triggers")
		}
		b.WriteString("\n")
		out := namedDamage{Weight: w, Total: r.Damage, Band: namedBand(r.Damage, r.Special), Red: r.Red, Black: r.Black, Damage: r.Damage, Special: r.Special, Dice: r.Dice}
		return out, b.String(), nil
	}), nil
}

func namedProb(a *kit.RollArgs) ([]any, string, error) {
	w, err := namedWeight(a, false)
	if err != nil {
		return nil, "", err
	}
	weights := DamageWeights()
	if w != "" {
		weights = []DamageWeight{w}
	}
	var objs []any
	var b strings.Builder
	for i, w := range weights {
		o, err := DamageRoll{Weight: w}.Odds()
		if err != nil {
			return nil, "", err
		}
		out := namedOdds{Weight: w, Special: o.Special, Mean: o.Mean}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "queue damage, %s weapon (%s)\n", w, namedWhich[w])
		var rows []kit.Band
		for _, v := range o.Values {
			out.Bands = append(out.Bands, namedBandOdds{Band: namedBand(v.Damage, false), Damage: v.Damage, P: v.P, PSpecial: v.PSpecial})
			rows = append(rows, kit.Band{Name: namedBand(v.Damage, false), P: v.P, Note: "with the special effect " + kit.Pct(v.PSpecial)})
		}
		kit.Table(&b, rows)
		fmt.Fprintf(&b, "  special effect (Black 6): %s   mean damage %.3f\n", kit.Pct(o.Special), o.Mean)
		objs = append(objs, out)
	}
	return objs, b.String(), nil
}
