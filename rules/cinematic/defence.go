package cinematic

import (
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// defenceValue plans a dodge (Dexterity + Kung Fu) or a parry (Dexterity
// + the better of Kung Fu and Getting Medieval); ours, after the
// published game: the seed says only "a similar roll".
func defenceValue(c *fray.Combatant, kind string) (fray.Modifier, bool) {
	kf, kfName, _ := skill(c, "Kung Fu")
	if kind == DefenceDodge {
		return fray.Modifier{Source: kfName + " (dodge)", Value: kf}, true
	}
	gmv, gmName, _ := skill(c, "Getting Medieval")
	if gmv > kf {
		return fray.Modifier{Source: gmName + " (parry)", Value: gmv}, true
	}
	return fray.Modifier{Source: kfName + " (parry)", Value: kf}, true
}

// defenceRank is the value of defenceValue, without its words: what the
// choice between a dodge and a parry weighs.
func defenceRank(c *fray.Combatant, kind string) int {
	kf, _, _ := skill(c, "Kung Fu")
	if kind == DefenceDodge {
		return kf
	}
	gmv, _, _ := skill(c, "Getting Medieval")
	return max(gmv, kf)
}

// planDefence decides how the target answers (C-4): the defence= named,
// or the better of dodge and parry; no roll when the target has no
// defence left, is on Full Offence, cannot act, or is attacked unaware
// without Situational Awareness (the attack then hits on 9+). With
// defence=wait the attack waits for the target's own answer when they
// can give one (the odds take the better defence), and is settled at
// once, as with none, when they cannot.
func (s *State) planDefence(cmd fray.Command, p *planned, a, b *fray.Combatant) error {
	want := strings.ToLower(cmd.Opts[OptDefence])
	unaware := b.Unaware
	if v, ok := cmd.Opts[OptUnaware]; ok {
		var err error
		if unaware, err = engine.ParseYesNo(OptUnaware, v); err != nil {
			return err
		}
	}
	if _, ok := cmd.Opts[OptDMod]; ok && want == DefenceNone {
		return fray.Errorf(fray.EINVALID, "dmod= changes the defence roll; with defence=none there is none.")
	}
	if _, ok := cmd.Opts[OptDMod]; ok && want == DefenceWait {
		return fray.Errorf(fray.EINVALID, "With defence=wait the defence's modifier comes with the answer: dodge %s dmod=N or parry %s dmod=N.", kit.QuoteName(b.Name), kit.QuoteName(b.Name))
	}
	if want == DefenceParry && p.weapon.Damage == "bullet" {
		return fray.Errorf(fray.EINVALID, "%s cannot parry a bullet; say defence=dodge or none.", b)
	}
	act, why := s.canDefend(a, b, unaware)
	if want == DefenceNone {
		why = "takes it"
	}
	if why != "" {
		if want != "" && want != DefenceNone && want != DefenceWait {
			return fray.Errorf(fray.EINVALID, "%s cannot %s: %s", b, want, why).Naming(a.Name)
		}
		p.undefended = strings.TrimSuffix(why, ".")
		if want == DefenceNone {
			p.undefended = "the attack says defence=none"
		}
		p.d.Defence = DefenceNone
		if want == DefenceWait {
			p.d.Note = "nothing waits: " + strings.TrimSuffix(why, ".")
		}
		return nil
	}
	kind := want
	if kind == "" || kind == DefenceWait {
		dg, pa := defenceRank(b, DefenceDodge), defenceRank(b, DefenceParry)
		for _, x := range b.Conditions {
			for _, m := range x.Modifiers {
				if m.On == AppliesDodge && x.From <= s.Round {
					dg += m.Value
				}
			}
		}
		kind = DefenceDodge
		if pa > dg && p.weapon.Damage != "bullet" {
			kind = DefenceParry
		}
	}
	n := len(p.spent)
	if err := s.defenceTerms(cmd, p, b, kind, act); err != nil {
		return err
	}
	if want == DefenceWait {
		// Only the attack is rolled now; the answer spends the defence
		// and what the defence's modifiers use up.
		p.waits, p.def, p.spent = true, nil, p.spent[:n]
	}
	return nil
}

// noDefenceDie refuses faces (dice=) for a defence roll that is not made,
// once the attack's D10 is rolled: the target rolls no defence
// (p.undefended says why), and the engine would only say the faces are
// too many.
func (p *planned) noDefenceDie(r fray.Roller) error {
	left, ok := r.(interface{ FacesLeft() int })
	if p.undefended == "" || !ok || left.FacesLeft() == 0 {
		return nil
	}
	return fray.Errorf(fray.EINVALID, "The dice give a face for %s's defence, but %s rolls none: %s; the attack hits on 9+. Give the attack's die alone.",
		p.target, p.target, p.undefended).Naming(p.target)
}

// canDefend returns the action b's defence against a would spend, or why
// b cannot defend: unable to act, unaware (without Situational Awareness)
// or with no defence left this round (C-2, C-4, C-6, C-7).
func (s *State) canDefend(a, b *fray.Combatant, unaware bool) (ActionData, string) {
	act, err := s.defenceAction(b, a.ID)
	switch {
	case out(b, "defend") != nil:
		return act, fray.ErrorMessage(out(b, "defend"))
	case unaware && quality(b, QualityAwareness) == 0:
		return act, b.Name + " is unaware of " + a.Name + " and cannot defend"
	case err != nil:
		return act, fray.ErrorMessage(err)
	}
	return act, ""
}

// defenceTerms plans b's defence of the kind given, spending act: D10 +
// Dexterity + the defence's skill, the extra action's penalty, Full
// Defence, conditions, Size against a dodge, and the GM's dmod=.
func (s *State) defenceTerms(cmd fray.Command, p *planned, b *fray.Combatant, kind string, act ActionData) error {
	dex, err := stat(b, "dexterity")
	if err != nil {
		return err
	}
	sk, _ := defenceValue(b, kind)
	p.dmod = []fray.Modifier{{Source: "Dexterity", Value: dex}, sk}
	if act.Kind == ActionExtra {
		p.dmod = append(p.dmod, fray.Modifier{Source: "extra action", Value: s.budget(b).Next})
	}
	if s.char(b.ID).Stance == StanceDefence {
		p.dmod = append(p.dmod, fray.Modifier{Source: "Full Defence", Value: FullDefenceBonus})
	}
	cm, spent := engine.Modifiers(b, nil, fray.AppliesDefence, s.Round)
	p.dmod, p.spent = append(p.dmod, cm...), append(p.spent, spent...)
	if kind == DefenceDodge {
		for _, x := range b.Conditions {
			for _, m := range x.Modifiers {
				if m.On == AppliesDodge && x.From <= s.Round {
					p.dmod = append(p.dmod, fray.Modifier{Source: x.Name, Value: m.Value})
				}
			}
		}
	}
	p.dmod = gm(cmd, OptDMod, p.dmod)
	p.def = &act
	p.d.Defence, p.d.DefValue = kind, sum(p.dmod)
	p.roll.Opposed, p.roll.Defence = true, p.d.DefValue
	return nil
}
