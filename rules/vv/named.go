package vv

import (
	"fmt"
	"strings"

	"fray/dice"
	"fray/rules/kit"
)

// This file is the system's named roll (kit.NamedRoll): a to-hit roll,
// for "fray roll --rules vv" and "fray prob --rules vv" and the HTTP API.

// NamedRoll returns the declaration of the to-hit roll (V-8) by name.
func (*System) NamedRoll() kit.NamedRoll {
	return kit.NamedRoll{
		Title: "Villains & Vigilantes to hit: 1d20 at or under the chance; 1 always hits, 20 always misses (V-8)",
		Keys: []kit.RollKey{
			kit.RequiredKey("chance", "skill + Level − defender's Level + range, facing and GM modifiers"),
			kit.YesNoKey("defenceless", "the target cannot defend: anything but a 20 hits"),
			kit.TableKey("roll", "1-20", "the d20 rolled at the table"),
		},
		Examples: []string{"roll chance=12 roll=20"},
		Roll:     namedRoll,
		Prob:     kit.Prob(namedHit, func(h HitRoll) (*HitOdds, error) { return h.Odds(), nil }, namedOdds),
	}
}

func namedHit(a *kit.RollArgs) (HitRoll, error) {
	var h HitRoll
	var err error
	if h.Chance, err = a.Required("chance", -kit.Range, kit.Range); err != nil {
		return h, err
	}
	h.Defenceless, err = a.Bool("defenceless")
	return h, err
}

func namedHeader(h HitRoll) string {
	if h.Defenceless {
		return fmt.Sprintf("vv to hit: %s against a target that cannot defend (anything but 20 hits)\n", HitDice)
	}
	return fmt.Sprintf("vv to hit: %s at or under %d (hits on 1 to %d; 1 always hits, 20 always misses)\n", HitDice, h.Chance, h.Needed())
}

func namedRoll(a *kit.RollArgs) (kit.RollMaker, error) {
	h, err := namedHit(a)
	if err != nil {
		return kit.RollMaker{}, err
	}
	face, err := a.Int("roll", 0, 1, 20)
	if err != nil {
		return kit.RollMaker{}, err
	}
	return kit.Fixed([]int{face}, func(src dice.Source) (any, string, error) {
		r, err := h.Roll(src)
		if err != nil {
			return nil, "", err
		}
		return r, namedHeader(h) + fmt.Sprintf("  d20: %d: %s\n", r.Total, r.Band.Describe()), nil
	}), nil
}

// namedOdds writes the odds of a to-hit roll: each band with the faces
// that give it.
func namedOdds(b *strings.Builder, h HitRoll, o *HitOdds) {
	b.WriteString(namedHeader(h))
	notes := map[HitBand]string{
		HitHit:    fmt.Sprintf("d20 1 to %d", h.Needed()),
		HitMiss:   fmt.Sprintf("d20 %d to 19", h.Needed()+1),
		HitAstray: "d20 20: always misses and goes astray (incidental effect)",
	}
	if h.Needed() == 19 {
		notes[HitMiss] = "no face"
	}
	var rows []kit.Band
	for _, x := range o.Bands {
		rows = append(rows, kit.Band{Name: string(x.Band), P: x.P, Note: notes[x.Band]})
	}
	kit.Table(b, rows)
	fmt.Fprintf(b, "  any other miss may also go astray, at the GM's option\n")
}
