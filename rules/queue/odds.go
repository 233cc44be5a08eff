package queue

import (
	"strconv"

	"fray"
)

// Bands of an attack's odds, worst for the attacker first. A band with
// the special effect adds its name: "hit, special (bleed)".
const (
	BandMiss          = "miss"
	BandHit           = "hit"
	BandIncapacitates = "hit, Incapacitated"
	BandInjury        = "hit, Injury"
)

// Odds returns the exact odds of the roll cmd would make in st without
// rolling (SPEC E-6): for attack, the chance to miss, to hit, to trigger
// the special effect and to Incapacitate the target (or Injure one
// already Incapacitated), the to-hit modifiers, and the distribution of
// damage (0 on a miss); for check, the chance of success and the
// distribution of the score; for start, each party's chance to head the
// queue it forms, and for initiative NAME, the chance that NAME's
// party heads it and the distribution of its score.
func (*System) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	s := state(st)
	if cmd.Name != "attack" {
		switch cmd.Name {
		case "initiative":
			return s.initiativeOdds(cmd)
		case "start":
			return s.startOdds(cmd)
		case "check":
			t, d, mods, _, err := s.CheckOf(cmd)
			if err != nil {
				return fray.Odds{}, err
			}
			return s.checkOdds(t, d, mods)
		}
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s rolls no dice, so it has no odds.", cmd.Name)
	}
	p, err := s.checkAttack(cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	return attackOdds(p.a, p.att, p.tgt, p.wp, p.mods)
}

// attackOdds turns an attack's odds into fray.Odds.
func attackOdds(a Attack, att, tgt *fray.Combatant, wp Weapon, mods []fray.Modifier) (fray.Odds, error) {
	ao, err := a.Odds()
	if err != nil {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s", err)
	}
	o := fray.Odds{For: att.Name, Roll: "attack", DistOf: "damage", Mean: ao.MeanDamage}
	switch a.Ruling {
	case RulingHit:
		o.Expr = DamageDice + " (Red, Black: a hit by the GM's ruling)"
	case RulingMiss:
		o.Expr = "nothing (a miss by the GM's ruling)"
	default:
		o.Expr = HitDie + signed(a.Bonus)
		o.Target, o.TargetKind = a.Need, strconv.Itoa(a.Need-tgt.Stat(StatWits))+" + "+tgt.Name+"'s Wits ="
		o.Modifiers = append(o.Modifiers, fray.Modifier{Source: att.Name + "'s Wits", Who: []string{att.Name}, Value: att.Stat(StatWits)})
		cond := 0
		for _, m := range mods {
			cond += m.Value
		}
		if m := a.Bonus - att.Stat(StatWits) - cond; m != 0 {
			o.Modifiers = append(o.Modifiers, fray.Modifier{Source: "the GM (mod=)", Value: m})
		}
		o.Modifiers = append(o.Modifiers, mods...)
	}
	special := "special"
	if wp.Special != "" {
		special += " (" + wp.Special + ")"
	}
	hurt := BandIncapacitates
	if a.HP == 0 {
		hurt = BandInjury
	}
	// Four kinds of hit: plain or hurting (taking the last hit points, or
	// an Injury), each with or without the special effect.
	var plain, plainSp, hurtP, hurtSp float64
	for _, v := range ao.Damage {
		hurts := a.HP == 0 || v.Damage >= a.HP
		if hurts {
			hurtP += v.P - v.PSpecial
			hurtSp += v.PSpecial
		} else {
			plain += v.P - v.PSpecial
			plainSp += v.PSpecial
		}
	}
	o.Bands = []fray.Band{
		{Name: BandMiss, P: 1 - ao.Hit},
		{Name: BandHit, P: plain},
		{Name: BandHit + ", " + special, P: plainSp},
		{Name: hurt, P: hurtP},
		{Name: hurt + ", " + special, P: hurtSp},
	}
	o.Dist = append(o.Dist, fray.Point{V: 0, P: 1 - ao.Hit})
	for _, v := range ao.Damage {
		if v.P > 0 {
			o.Dist = append(o.Dist, fray.Point{V: v.Damage, P: v.P})
		}
	}
	if o.Dist[0].P == 0 {
		o.Dist = o.Dist[1:]
	}
	return o, nil
}

func signed(n int) string {
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
