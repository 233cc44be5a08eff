package pp

import (
	"fmt"
	"strings"

	"fray/dice"
	"fray/rules/kit"
)

// This file is the system's named roll (kit.NamedRoll): a challenge roll
// against a threshold or an opponent's pool, for "fray roll --rules pp"
// and "fray prob --rules pp" and the HTTP API.

// NamedRoll returns the declaration of the challenge roll (P-1…P-5, P-9)
// by name. Its odds are those of Challenge.Odds: a big exploding pool
// takes a while, so they are CostlyOdds.
func (*System) NamedRoll() kit.NamedRoll {
	return kit.NamedRoll{
		Title: "Prowlers & Paragons challenge roll: d6 pool, 2 and 4 = 1 success, 6 = 2; net successes and narrative control (P-1…P-5, P-9)",
		Keys: []kit.RollKey{
			kit.RequiredKey("dice", "the trait's dice, with bonus dice other than the GM's"),
			kit.Key("mod", "-4..+4", "the GM's modifier in dice"),
			kit.Key("auto", "N|all", "dice not rolled: 1 automatic success per 2"),
			kit.NumberKey("resolve", "Resolve spent after the roll: +1 die a point, +3 in a defining moment"),
			kit.YesNoKey("defining", "defining moment: 6s explode (still 2 successes each)"),
			kit.YesNoKey("explode", "6s explode (1 Resolve spent when checking your swing)"),
			kit.YesNoKey("reroll", "1 Resolve spent to reroll the whole roll, keeping the better"),
			kit.YesNoKey("swing", "checking your swing, both sides: every even face is 1 success"),
			kit.Key("threshold", "N|NAME", "static threshold (default easy 0): easy average hard daunting brutal inhuman superhuman legendary godlike"),
			kit.NumberKey("vs", "or an opponent's pool of N dice, with vs-mod=, vs-auto=, vs-resolve=, vs-defining=, vs-explode=, vs-reroll= as above"),
			kit.AlongKey("vs-mod", "-4..+4", "the opponent's mod=", "vs"),
			kit.AlongKey("vs-auto", "N|all", "the opponent's auto=", "vs"),
			kit.AlongKey("vs-resolve", "N", "the opponent's resolve=", "vs"),
			kit.AlongKey("vs-defining", "yes|no", "the opponent's defining=", "vs"),
			kit.AlongKey("vs-explode", "yes|no", "the opponent's explode=", "vs"),
			kit.AlongKey("vs-reroll", "yes|no", "the opponent's reroll=", "vs"),
			kit.TableKey("faces", "A,B,…", "the actor's dice rolled at the table: the pool (each exploding 6 then its new die), then Resolve dice"),
			kit.TableKey("successes", "N", "or only the successes they showed (automatic ones are added)"),
			kit.TableKey("vs-faces", "A,B,…", "the opponent's dice rolled at the table"),
			kit.TableKey("vs-successes", "N", "or only the successes they showed"),
		},
		Examples: []string{
			"roll dice=12 faces=1,2,2,2,3,3,3,5,5,5,6,6 vs=12 vs-auto=all",
			"prob dice=12 vs=12 vs-auto=all",
			"prob dice=8 threshold=hard defining=yes resolve=1",
		},
		CostlyOdds: true,
		Roll:       namedRoll,
		Prob:       kit.Prob(namedChallenge, Challenge.Odds, namedOdds),
	}
}

// namedPool reads one side's pool: the keys as given for the actor, or
// with the prefix "vs-" for the opponent (whose dice are vs= itself).
func namedPool(a *kit.RollArgs, prefix string) (Pool, error) {
	var p Pool
	var err error
	diceKey := prefix + "dice"
	if prefix != "" {
		diceKey = "vs"
	}
	if p.Dice, err = a.Required(diceKey, 0, kit.Range); err != nil {
		return p, err
	}
	if p.Modifier, err = a.Int(prefix+"mod", 0, -MaxModifier, MaxModifier); err != nil {
		return p, err
	}
	if s, ok := a.Get(prefix + "auto"); ok {
		switch strings.ToLower(s) {
		case "all", "yes":
			p.SetAside = max(p.Count(), 0)
		case "no":
		default:
			if p.SetAside, err = a.Int(prefix+"auto", 0, 0, max(p.Count(), 0)); err != nil {
				return p, fmt.Errorf("%w (the dice after modifiers), or all", err)
			}
		}
	}
	if p.Resolve, err = a.Int(prefix+"resolve", 0, 0, 100); err != nil {
		return p, err
	}
	if p.DefiningMoment, err = a.Bool(prefix + "defining"); err != nil {
		return p, err
	}
	if p.Explode, err = a.Bool(prefix + "explode"); err != nil {
		return p, err
	}
	if p.Reroll, err = a.Bool(prefix + "reroll"); err != nil {
		return p, err
	}
	return p, p.Check()
}

func namedChallenge(a *kit.RollArgs) (Challenge, error) {
	var c Challenge
	var err error
	if c.Actor, err = namedPool(a, ""); err != nil {
		return c, err
	}
	if c.Swing, err = a.Bool("swing"); err != nil {
		return c, err
	}
	switch {
	case a.Has("vs") && a.Has("threshold"):
		return c, fmt.Errorf("threshold= and vs= are both given: a roll is against a static threshold or an opponent's pool")
	case a.Has("vs"):
		opp, err := namedPool(a, "vs-")
		if err != nil {
			return c, fmt.Errorf("opponent: %w", err)
		}
		c.Opponent = &opp
	default:
		if s, ok := a.Get("threshold"); ok {
			if c.Threshold, err = ParseThreshold(s); err != nil {
				return c, fmt.Errorf("threshold=%s: want a number of 0 or more, or easy, average, hard, daunting, brutal, inhuman, superhuman, legendary or godlike", s)
			}
		}
	}
	return c, nil
}

// namedDescribe writes a pool in words, such as "12 dice (6 set aside: 3
// automatic successes), defining moment".
func namedDescribe(p Pool) string {
	var parts []string
	if p.Desperate() {
		parts = append(parts, fmt.Sprintf("%s %s: fewer than one, so one die where only a 6 counts", plural(p.Dice, "die", "dice"), namedMod(p.Modifier)))
	} else {
		s := plural(p.Count(), "die", "dice")
		if p.Modifier != 0 {
			s = fmt.Sprintf("%s %s = %d", plural(p.Dice, "die", "dice"), namedMod(p.Modifier), p.Count())
		}
		parts = append(parts, s)
	}
	if p.SetAside > 0 {
		parts = append(parts, fmt.Sprintf("%d set aside for %s", p.SetAside, plural(p.Auto(), "automatic success", "automatic successes")))
	}
	if p.Resolve > 0 {
		parts = append(parts, fmt.Sprintf("%d Resolve for %s", p.Resolve, plural(p.ExtraDice(), "more die", "more dice")))
	}
	if p.Reroll {
		parts = append(parts, "1 Resolve to reroll, keeping the better")
	}
	if p.DefiningMoment {
		parts = append(parts, "defining moment: 6s explode")
	} else if p.Explode {
		parts = append(parts, "6s explode")
	}
	return strings.Join(parts, ", ")
}

func namedMod(m int) string {
	if m < 0 {
		return fmt.Sprintf("− %dd", -m)
	}
	return fmt.Sprintf("+ %dd", m)
}

func namedHeader(c Challenge) string {
	var b strings.Builder
	swing := ""
	if c.Swing {
		swing = " (checking your swing: every even face is 1 success)"
	}
	fmt.Fprintf(&b, "pp challenge roll%s\n", swing)
	fmt.Fprintf(&b, "  actor:     %s\n", namedDescribe(c.Actor))
	if c.Opponent != nil {
		fmt.Fprintf(&b, "  opponent:  %s\n", namedDescribe(*c.Opponent))
	} else {
		fmt.Fprintf(&b, "  threshold: %s\n", ThresholdName(c.Threshold))
	}
	return b.String()
}

// namedSide returns how one side's pool is settled: from faces given, from
// successes given, or rolled (nil).
func namedSide(a *kit.RollArgs, p Pool, swing bool, prefix string) (func(src dice.Source) (*PoolResult, error), bool, error) {
	faces, err := a.Faces(prefix+"faces", 6, 0)
	if err != nil {
		return nil, false, err
	}
	if faces != nil && a.Has(prefix+"successes") {
		return nil, false, fmt.Errorf("%sfaces= and %ssuccesses= are both given: give one", prefix, prefix)
	}
	if faces != nil {
		return func(dice.Source) (*PoolResult, error) {
			r, err := p.Roll(dice.Faces(faces...), swing)
			if err != nil {
				return nil, fmt.Errorf("%sfaces=: %w", prefix, err)
			}
			return r, nil
		}, true, nil
	}
	if a.Has(prefix + "successes") {
		n, err := a.Int(prefix+"successes", 0, 0, 1<<30)
		if err != nil {
			return nil, false, err
		}
		return func(dice.Source) (*PoolResult, error) {
			r, err := p.FromSuccesses(n, swing)
			if err != nil {
				return nil, fmt.Errorf("%ssuccesses=: %w", prefix, err)
			}
			return r, nil
		}, true, nil
	}
	return nil, false, nil
}

func namedRoll(a *kit.RollArgs) (kit.RollMaker, error) {
	c, err := namedChallenge(a)
	if err != nil {
		return kit.RollMaker{}, err
	}
	actor, physical, err := namedSide(a, c.Actor, c.Swing, "")
	if err != nil {
		return kit.RollMaker{}, err
	}
	var opp func(dice.Source) (*PoolResult, error)
	if c.Opponent != nil {
		var oppPhysical bool
		if opp, oppPhysical, err = namedSide(a, *c.Opponent, c.Swing, "vs-"); err != nil {
			return kit.RollMaker{}, err
		}
		physical = physical || oppPhysical
	}
	once := func(src dice.Source) (any, string, error) {
		var r *ChallengeResult
		if actor == nil && opp == nil {
			var err error
			if r, err = c.Roll(src); err != nil {
				return nil, "", err
			}
		} else {
			roll := func(f func(dice.Source) (*PoolResult, error), p Pool) (*PoolResult, error) {
				if f != nil {
					return f(src)
				}
				return p.Roll(src, c.Swing)
			}
			ar, err := roll(actor, c.Actor)
			if err != nil {
				return nil, "", fmt.Errorf("actor: %w", err)
			}
			var or *PoolResult
			if c.Opponent != nil {
				if or, err = roll(opp, *c.Opponent); err != nil {
					return nil, "", fmt.Errorf("opponent: %w", err)
				}
			}
			r = c.Settle(ar, or)
		}
		var b strings.Builder
		b.WriteString(namedHeader(c))
		namedShow(&b, "actor", r.Actor)
		if r.Opponent != nil {
			namedShow(&b, "opponent", r.Opponent)
		}
		fmt.Fprintf(&b, "  net %d − %d = %+d: %s (%s)\n", r.Successes, r.Threshold, r.Net, r.Band, r.Result)
		return r, b.String(), nil
	}
	return kit.RollMaker{Physical: physical, Make: once}, nil
}

// namedShow writes one side's dice and successes, and the roll not kept
// when Resolve bought a reroll.
func namedShow(b *strings.Builder, who string, r *PoolResult) {
	line := who + " " + namedRolled(r)
	if r.OtherRoll != nil {
		line += " (kept)"
	}
	b.WriteString("  " + line + "\n")
	if r.OtherRoll != nil {
		b.WriteString("    the other roll, not kept: " + namedRolled(r.OtherRoll) + "\n")
	}
}

// namedRolled describes one roll of a pool, such as "rolled 6 1 4 + 1
// automatic success: 4 successes".
func namedRolled(r *PoolResult) string {
	var s string
	auto := r.Auto > 0
	switch {
	case len(r.Dice) > 0 || len(r.ResolveDice) > 0:
		var parts []string
		if len(r.Dice) > 0 {
			d := kit.Dice(r.Dice)
			if r.Desperate {
				d = "one die, where only a 6 counts: " + d
			}
			parts = append(parts, d)
		}
		if len(r.ResolveDice) > 0 {
			parts = append(parts, "Resolve dice "+kit.Dice(r.ResolveDice))
		}
		s = "rolled " + strings.Join(parts, ", then ")
	case auto && r.Rolled == 0:
		s, auto = "took "+plural(r.Auto, "automatic success", "automatic successes"), false
	default:
		s = "counted " + plural(r.Rolled, "success", "successes") + " at the table"
	}
	if auto {
		s += " + " + plural(r.Auto, "automatic success", "automatic successes")
	}
	return s + ": " + plural(r.Successes, "success", "successes")
}

// namedOdds writes the odds of a challenge roll: how the net successes
// are made, each band with its result, the net counts (but the tails'
// least likely), their mean, and the probability the explosion depth
// limit cut off.
func namedOdds(b *strings.Builder, c Challenge, o *ChallengeOdds) {
	b.WriteString(namedHeader(c))
	actor := o.Actor
	if c.Actor.Reroll {
		actor = "best of two (" + actor + ")"
	}
	if c.Opponent != nil {
		opp := o.Opponent
		switch {
		case c.Opponent.Reroll:
			opp = "best of two (" + opp + ")"
		case strings.Contains(opp, "+"):
			opp = "(" + opp + ")"
		}
		fmt.Fprintf(b, "  net successes = %s − %s\n\n", actor, opp)
	} else {
		fmt.Fprintf(b, "  net successes = %s − %d\n\n", actor, o.Threshold)
	}
	nets := []string{"net ≤ −2", "net −1 to 0", "net 1 to 2", "net ≥ 3"}
	var rows []kit.Band
	for i, x := range o.Bands {
		rows = append(rows, kit.Band{Name: string(x.Band), P: x.P, Note: nets[i] + ": " + x.Result})
	}
	kit.Table(b, rows)
	b.WriteString("\n  net successes:\n")
	lo, hi := 0, len(o.Nets)-1
	for lo < hi && o.Nets[lo].P < kit.TailCut {
		lo++
	}
	for hi > lo && o.Nets[hi].P < kit.TailCut {
		hi--
	}
	rows = rows[:0]
	for _, n := range o.Nets[lo : hi+1] {
		rows = append(rows, kit.Band{Name: fmt.Sprintf("%+4d", n.Net), P: n.P})
	}
	kit.Table(b, rows)
	if n := len(o.Nets) - (hi - lo + 1); n > 0 {
		fmt.Fprintf(b, "  (%d net counts at the tails with P under %s are not shown; --json lists them)\n", n, kit.Pct(kit.TailCut))
	}
	fmt.Fprintf(b, "  mean net %+.3f\n", o.Mean)
	if o.Truncated > 0 {
		fmt.Fprintf(b, "  probability cut off by the explosion depth limit: %.3g\n", o.Truncated)
	}
}
