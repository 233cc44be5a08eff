package cinematic

import (
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Complications the complication command sets (C-6).
var complications = map[string]func(c *fray.Combatant) fray.Condition{
	"blind": func(c *fray.Combatant) fray.Condition {
		if quality(c, QualityEcholocation) > 0 {
			return fray.Condition{Name: CondBlind, Note: "Echolocation: unaffected"}
		}
		return fray.Condition{Name: CondBlind, Note: "a Perception + Notice check before each attack",
			Modifiers: []fray.Modifier{{Source: CondBlind, Value: BlindPenalty, On: fray.AppliesAll}}}
	},
	"bound": func(*fray.Combatant) fray.Condition {
		return fray.Condition{Name: CondBound, Note: "arms bound in front: −2 to punches, kicks as usual"}
	},
	"tied": func(*fray.Combatant) fray.Condition {
		return fray.Condition{Name: CondTied, Note: "no attack or defence until free (free NAME with=Acrobatics|Crime)"}
	},
	"large": func(*fray.Combatant) fray.Condition {
		return fray.Condition{Name: CondLarge, Note: "larger than normal size: a penalty to dodge (and to stealth, at the GM's word)",
			Modifiers: []fray.Modifier{{Source: CondLarge, Value: LargePenalty, On: AppliesDodge}}}
	},
	"down": func(*fray.Combatant) fray.Condition {
		return fray.Condition{Name: CondDown, Note: "until up: stand NAME (the round) or kipup NAME (2 success levels)",
			Modifiers: []fray.Modifier{{Source: CondDown, Value: DownPenalty, On: fray.AppliesAttack}, {Source: CondDown, Value: DownPenalty, On: fray.AppliesDefence}}}
	},
}

// decideComplication decides "complication NAME blind|bound|tied|down|large
// [mod=-N] [until=…] [by=NAME]".
func (s *State) decideComplication(cmd fray.Command, tx *kit.Txn[*State]) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	kind := strings.ToLower(cmd.Arg(1))
	mk, ok := complications[kind]
	if !ok {
		return fray.Errorf(fray.EINTERNAL, "The complication %q is declared but not known.", engine.Clip(kind))
	}
	x := mk(c)
	if n, ok := intOpt(cmd, OptMod); ok && kind != "large" {
		return fray.Errorf(fray.EINVALID, "mod= gives Size's penalty to dodge (complication NAME large mod=-N); %s has its own.", x.Name)
	} else if ok {
		x.Modifiers[0].Value = n
	}
	x.Since = s.Round
	if v, ok := cmd.Opts[engine.KeyUntil]; ok {
		if x.Until, err = engine.ParseUntil(&s.Encounter, c.Name, v); err != nil {
			return err
		}
	}
	if v, ok := cmd.Opts[engine.KeyBy]; ok {
		b, err := s.Lookup(v)
		if err != nil {
			return err
		}
		x.By, x.ByID = b.Name, b.ID
	}
	if c.Condition(x.Name) != nil {
		return fray.Errorf(fray.EINVALID, "%s is %s already.", c, x.Name)
	}
	return setCondition(tx, c.ID, x)
}

// decideStand decides "stand NAME": up from Knocked Down the slow way,
// which takes the round: no action is left (C-6).
func (s *State) decideStand(cmd fray.Command, tx *kit.Txn[*State]) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	if c.Condition(CondDown) == nil {
		return fray.Errorf(fray.EINVALID, "%s is not knocked down.", c)
	}
	if err := out(c, "stand"); err != nil {
		return err
	}
	if !s.Started || s.Current() != c.ID {
		return fray.Errorf(fray.EINVALID, "Standing takes %s's round: do it on their turn (or kipup %s at any time).", c, kit.QuoteName(c.Name))
	}
	if err := tx.Emit(EventStood, fray.NameData{Who: c.ID}); err != nil {
		return err
	}
	return tx.Emit(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: CondDown})
}
