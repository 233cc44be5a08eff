package cinematic

import (
	"fmt"
	"strings"

	"fray/dice"
	"fray/rules/kit"
)

// This file is the system's named roll (kit.NamedRoll): a test or an
// attack, for "fray roll --rules cinematic" and "fray prob --rules
// cinematic" and the HTTP API.

// NamedRoll returns the declaration of a test, or an attack against a
// defence, by name (C-3, C-4).
func (*System) NamedRoll() kit.NamedRoll {
	return kit.NamedRoll{
		Title: "Cinematic Unisystem: D10 + value, 9+ succeeds, success levels; an attack against a defence (C-3, C-4)",
		Keys: []kit.RollKey{
			kit.RequiredKey("value", "attribute + skill + modifiers (attribute × 2 without a skill)"),
			kit.NumberKey("vs", "an attack: the defender rolls D10 + N; higher wins, ties to the defender"),
			kit.TableKey("roll", "1-10", "the D10 rolled at the table (0 = 10)"),
			kit.TableKey("vs-roll", "1-10", "the defender's D10 rolled at the table"),
		},
		Examples: []string{"roll value=7 vs=5"},
		Roll:     namedRoll,
		Prob:     kit.Prob(namedTest, TestRoll.Odds, namedOdds),
	}
}

func namedTest(a *kit.RollArgs) (TestRoll, error) {
	var t TestRoll
	var err error
	if t.Value, err = a.Required("value", -kit.Range, kit.Range); err != nil {
		return t, err
	}
	if a.Has("vs") {
		t.Opposed = true
		if t.Defence, err = a.Int("vs", 0, -kit.Range, kit.Range); err != nil {
			return t, err
		}
	}
	return t, nil
}

func namedHeader(t TestRoll) string {
	if t.Opposed {
		return fmt.Sprintf("cinematic attack: %s against the defence %s (higher wins, ties to the defender)\n", t.Expr(), t.DefenceExpr())
	}
	return fmt.Sprintf("cinematic roll: %s (9 or more succeeds)\n", t.Expr())
}

func namedRoll(a *kit.RollArgs) (kit.RollMaker, error) {
	t, err := namedTest(a)
	if err != nil {
		return kit.RollMaker{}, err
	}
	var fixed [2]int
	for i, key := range []string{"roll", "vs-roll"} {
		f, err := a.Faces(key, 10, 10)
		if err != nil {
			return kit.RollMaker{}, err
		}
		if len(f) > 1 {
			return kit.RollMaker{}, fmt.Errorf("%s=: %d faces given; want one D10", key, len(f))
		}
		if len(f) == 1 {
			fixed[i] = f[0]
		}
	}
	if fixed[1] != 0 && !t.Opposed {
		return kit.RollMaker{}, fmt.Errorf("vs-roll= is the defender's D10: it needs vs= (the defender's value)")
	}
	return kit.Fixed(fixed[:], func(src dice.Source) (any, string, error) {
		r, err := t.Roll(src)
		if err != nil {
			return nil, "", err
		}
		var b strings.Builder
		b.WriteString(namedHeader(t))
		side := func(who string, s TestSide, value int) {
			fmt.Fprintf(&b, "  %s D10 %d %s = %d (%s)\n", who, s.Roll, kit.Signed(value), s.Total, kit.Count(s.Levels, "success level", "success levels"))
		}
		if t.Opposed {
			side("attacker:", r.Attack, t.Value)
			side("defender:", *r.Defence, t.Defence)
			fmt.Fprintf(&b, "  %s\n", r.Band)
		} else {
			fmt.Fprintf(&b, "  D10 %d %s = %d: %s\n", r.Attack.Roll, kit.Signed(t.Value), r.Total, r.Band)
		}
		return r, b.String(), nil
	}), nil
}

// namedOdds writes the odds of a test or an attack: each band, the
// chance of success and the mean total.
func namedOdds(b *strings.Builder, t TestRoll, o *TestOdds) {
	b.WriteString(namedHeader(t))
	var rows []kit.Band
	for _, x := range o.Bands {
		rows = append(rows, kit.Band{Name: x.Band, P: x.P})
	}
	kit.Table(b, rows)
	fmt.Fprintf(b, "  success %s   mean total %.2f\n", kit.Pct(o.Success), o.Mean)
}
