package vv

import (
	"errors"
	"fmt"

	"fray"
)

// Odds returns the exact odds of the roll cmd would make in st without
// rolling (SPEC E-6). For attack: the chance to go astray, to miss, to hit
// the cover and to hit, every modifier of the chance (skill, Levels,
// range with its inches, facing, the GM's, conditions), and the
// distribution of the damage after the pull, the cover and protection (0
// on a miss). For check: the chance of success and failure of the d%,
// with the chance and its modifiers. For start, and for the next (hold,
// decline) that ends a turn, and for initiative (the d10 a character
// enters or rolls for the next of them): the chance of each character
// acting first in the new turn, from the initiative roll (see
// initiativeOdds). Other
// commands, and a next that ends no turn, have no odds to show.
func (sys *System) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	s, err := get(st)
	if err != nil {
		return fray.Odds{}, err
	}
	switch cmd.Name {
	case "start", "next", "hold", "decline":
		// The command is decided on a copy up to the roll, which is
		// not made.
		d := newDecider(sys, s.working(nil))
		d.oddsOnly = true
		err := d.decide(cmd, noRoller{})
		if d.odds != nil {
			return *d.odds, nil
		}
		if err != nil {
			return fray.Odds{}, err
		}
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s has none to show now: it rolls nothing; initiative is rolled by start and by the next (or hold, decline) that ends a turn.", cmd.Name)
	}
	if cmd.Name == "initiative" {
		// The 1d10 entered or rolled serves the next initiative roll, so
		// its odds are that roll's, as start shows them.
		c, err := s.Lookup(cmd.Arg(0))
		if err != nil {
			return fray.Odds{}, err
		}
		if c.Kind == fray.KindEnvironment {
			return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s is an object (kind=environment): objects roll no initiative and have no phases (V-1).", c)
		}
		o := s.initiativeOdds(s.Round + 1)
		o.Command, o.For = cmd.String(), c.Name
		return o, nil
	}
	if cmd.Name == "check" {
		p, err := s.planCheck(cmd)
		if err != nil {
			return fray.Odds{}, err
		}
		return p.odds(), nil
	}
	if cmd.Name != "attack" {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "V&V shows the odds of attack, check and the initiative roll (initiative, start, or the next that ends a turn); %s has none to show.", cmd.Name)
	}
	p, err := s.planAttack(cmd, true)
	if err != nil {
		return fray.Odds{}, err
	}
	return p.odds()
}

// odds turns an attack plan's odds into fray.Odds.
func (p *attackPlan) odds() (fray.Odds, error) {
	ao, err := p.a.Odds()
	if err == nil && p.notice != nil {
		var uo *AttackOdds
		if uo, err = p.unnoticed.Odds(); err == nil {
			ao = mixOdds(ao, uo, p.notice.Success())
		}
	}
	if err != nil {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "The damage dice %q cannot be rolled.", p.a.Dice)
	}
	o := fray.Odds{For: p.att.Name, Roll: "attack", Expr: HitDice, Target: p.a.Hit.Chance, TargetKind: "chance",
		DistOf: fray.DistDamage, Mean: ao.Mean, Modifiers: p.mods}
	if p.a.Special {
		o.Expr = HitDice + " twice (Special Attack: both must hit)"
	}
	if p.a.Hit.Defenceless {
		o.Expr += " (" + p.tgt.Name + " unaware: hit on anything but 20)"
	}
	if p.notice != nil {
		o.Expr += fmt.Sprintf(" (%s unaware: notices on a Perception d%% ≤ %d%%, else hit on anything but 20)", p.tgt.Name, p.notice.Chance)
	}
	o.Bands = []fray.Band{{Name: BandAstray, P: ao.Astray}, {Name: BandMiss, P: ao.Miss}}
	if p.a.Cover > 0 && !p.a.Special {
		o.Bands = append(o.Bands, fray.Band{Name: BandOnCover, P: ao.OnCover})
	}
	o.Bands = append(o.Bands, fray.Band{Name: BandHit, P: ao.Hit})
	for v, pv := range ao.Damage {
		if pv > 0 {
			o.Dist = append(o.Dist, fray.Point{V: v, P: pv})
		}
	}
	return o, nil
}

// meanDamage returns the expected damage of the planned attack: the Mean
// odds gives, to the last bit (Attack.MeanDamage, mixed as mixOdds mixes
// it), without building the odds; it refuses what odds refuses, in the
// same words.
func (p *attackPlan) meanDamage() (float64, error) {
	mean, err := p.a.MeanDamage()
	if err == nil && p.notice != nil {
		var um float64
		if um, err = p.unnoticed.MeanDamage(); err == nil {
			q := p.notice.Success()
			mean = q*mean + (1-q)*um
		}
	}
	if err != nil {
		return 0, fray.Errorf(fray.EINVALID, "The damage dice %q cannot be rolled.", p.a.Dice)
	}
	return mean, nil
}

// mixOdds returns the odds of an attack whose target notices it with
// probability q (the attack of noticed) and otherwise does not (that of
// unnoticed).
func mixOdds(noticed, unnoticed *AttackOdds, q float64) *AttackOdds {
	o := &AttackOdds{
		Astray:  q*noticed.Astray + (1-q)*unnoticed.Astray,
		Miss:    q*noticed.Miss + (1-q)*unnoticed.Miss,
		OnCover: q*noticed.OnCover + (1-q)*unnoticed.OnCover,
		Hit:     q*noticed.Hit + (1-q)*unnoticed.Hit,
		Damage:  make([]float64, max(len(noticed.Damage), len(unnoticed.Damage))),
		Mean:    q*noticed.Mean + (1-q)*unnoticed.Mean,
	}
	for v, p := range noticed.Damage {
		o.Damage[v] += q * p
	}
	for v, p := range unnoticed.Damage {
		o.Damage[v] += (1 - q) * p
	}
	return o
}

// errOddsOnly stops a decider in odds-only mode at the initiative roll.
var errOddsOnly = errors.New("vv: odds only, nothing rolled")

// noRoller refuses to roll: an odds-only decider must not reach a die.
type noRoller struct{}

func (noRoller) Roll(string, string) (fray.Roll, error) {
	return fray.Roll{}, fray.Errorf(fray.EINTERNAL, "Working out odds rolls nothing.")
}
