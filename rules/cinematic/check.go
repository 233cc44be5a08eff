package cinematic

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// planCheck plans "check NAME STAT[+SKILL|+STAT] [mod=N] [vs=N]" (C-3).
func (s *State) planCheck(cmd fray.Command) (*planned, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return nil, err
	}
	what := cmd.Arg(1)
	a, b, plus := strings.Cut(what, "+")
	a = strings.ToLower(strings.TrimSpace(a))
	if !slices.Contains(stats, a) {
		return nil, fray.Errorf(fray.EINVALID, "%s is not an attribute; roll one of %s, with +SKILL if one applies.", engine.Clip(a), strings.Join(stats, ", "))
	}
	v, err := stat(c, a)
	if err != nil {
		return nil, err
	}
	p := &planned{d: rollData{Who: c.ID, Roll: RollCheck}, name: c.Name}
	switch b = strings.TrimSpace(b); {
	case !plus:
		// Without a skill, the attribute counts twice (C-3).
		p.mods = []fray.Modifier{{Source: kit.Title(a) + " × 2", Value: 2 * v}}
		p.d.What = a
	case slices.Contains(stats, strings.ToLower(b)):
		w, err := stat(c, strings.ToLower(b))
		if err != nil {
			return nil, err
		}
		p.mods = []fray.Modifier{{Source: kit.Title(a), Value: v}, {Source: kit.Title(strings.ToLower(b)), Value: w}}
		p.d.What = a + "+" + strings.ToLower(b)
	default:
		// A skill not on the sheet is rank 0, as in an attack; the
		// breakdown says so.
		if b == "" || len(b) > 64 {
			return nil, fray.Errorf(fray.EINVALID, "%s: name the skill after +, up to 64 bytes (%s).", engine.Clip(what), skillList(c))
		}
		r, name, ok := skill(c, b)
		if !ok {
			name += " (untrained)"
		}
		p.mods = []fray.Modifier{{Source: kit.Title(a), Value: v}, {Source: name, Value: r}}
		p.d.What = a + "+" + name
	}
	cm, spent := engine.Modifiers(c, nil, fray.AppliesCheck, s.Round)
	p.mods, p.spent = append(p.mods, cm...), spent
	p.mods = gm(cmd, OptMod, p.mods)
	p.roll = TestRoll{Value: sum(p.mods)}
	if n, ok := intOpt(cmd, OptVs); ok {
		p.roll.Opposed, p.roll.Defence = true, n
	}
	return p, checkRoll(p.roll)
}

func skillList(c *fray.Combatant) string {
	var names []string
	for _, p := range c.Powers {
		if p.Kind == fray.PowerKindSkill {
			names = append(names, p.Name+" "+strconv.Itoa(p.Rank))
		}
	}
	if len(names) == 0 {
		return "no skills on a sheet"
	}
	return "skills: " + strings.Join(names, ", ")
}

// planTest plans "test NAME consciousness|survival [minutes=N] [mod=N]"
// (C-6).
func (s *State) planTest(cmd fray.Command) (*planned, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return nil, err
	}
	kind := strings.ToLower(cmd.Arg(1))
	if c.Condition(CondDead) != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s is dead.", c)
	}
	lp, err := needLife(c)
	if err != nil {
		return nil, err
	}
	con, err := stat(c, "constitution")
	if err != nil {
		return nil, err
	}
	wil, err := stat(c, "willpower")
	if err != nil {
		return nil, err
	}
	p := &planned{d: rollData{Who: c.ID, Roll: RollTest, What: kind}, name: c.Name}
	p.mods = []fray.Modifier{{Source: "Constitution", Value: con}, {Source: "Willpower", Value: wil}}
	if kind == "consciousness" {
		if lp.Value > 0 {
			return nil, fray.Errorf(fray.EINVALID, "%s has %d Life Points; the Consciousness test is at 0 or fewer (C-6).", c, lp.Value)
		}
		if c.Condition(CondUnconscious) != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s is unconscious already.", c)
		}
		if _, ok := cmd.Opts[OptMinutes]; ok {
			return nil, fray.Errorf(fray.EINVALID, "minutes= is for the Survival test.")
		}
		// −1 per point below zero; Resistance (Pain) cancels 1 per level
		// (never turning the penalty into a bonus).
		if lp.Value < 0 {
			p.mods = append(p.mods, fray.Modifier{Source: "below zero (" + strconv.Itoa(lp.Value) + " LP)", Value: lp.Value})
			if r := min(quality(c, QualityPain), -lp.Value); r > 0 {
				p.mods = append(p.mods, fray.Modifier{Source: QualityPain, Value: r})
			}
		}
	} else {
		if lp.Value > SurvivalBelow {
			return nil, fray.Errorf(fray.EINVALID, "%s has %d Life Points; the Survival test is at %d or fewer (C-6).", c, lp.Value, SurvivalBelow)
		}
		if c.Condition(CondStabilised) != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s has been stabilised; no Survival test until hurt again.", c)
		}
		// −1 per full 10 below zero: −56 is −5.
		p.mods = append(p.mods, fray.Modifier{Source: "per 10 below zero (" + strconv.Itoa(lp.Value) + " LP)", Value: -(-lp.Value / 10)})
		if h := quality(c, QualityHardToKill); h > 0 {
			p.mods = append(p.mods, fray.Modifier{Source: QualityHardToKill, Value: h})
		}
		if n, ok := intOpt(cmd, OptMinutes); ok && n > 0 {
			p.mods = append(p.mods, fray.Modifier{Source: "minutes since the wound", Value: -n})
		}
	}
	p.mods = gm(cmd, OptMod, p.mods)
	p.roll = TestRoll{Value: sum(p.mods)}
	return p, checkRoll(p.roll)
}

// planFree plans "free NAME [with=acrobatics|crime]" and "kipup NAME":
// Dexterity + Acrobatics (or Crime) to get out of being tied up, and
// Dexterity + Acrobatics with 2 success levels to kip up (C-6).
func (s *State) planFree(cmd fray.Command) (*planned, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return nil, err
	}
	need := CondTied
	if cmd.Name == RollKipUp {
		need = CondDown
	}
	if c.Condition(need) == nil {
		return nil, fray.Errorf(fray.EINVALID, "%s is not %s.", c, need)
	}
	for _, x := range []string{CondDead, CondUnconscious} {
		if c.Condition(x) != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s is %s.", c, x)
		}
	}
	if cmd.Name == RollKipUp && c.Condition(CondTied) != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s is tied up; get free first.", c)
	}
	dex, err := stat(c, "dexterity")
	if err != nil {
		return nil, err
	}
	sk := "Acrobatics"
	if w, ok := cmd.Opts[OptWith]; ok {
		switch squash(w) {
		case "acrobatics":
		case "crime":
			sk = "Crime"
		default:
			return nil, fray.Errorf(fray.EINVALID, "with=%s: one gets free with Acrobatics or Crime.", engine.Clip(w))
		}
	}
	v, name, _ := skill(c, sk)
	p := &planned{d: rollData{Who: c.ID, Roll: cmd.Name, What: "dexterity+" + name}, name: c.Name}
	p.mods = []fray.Modifier{{Source: "Dexterity", Value: dex}, {Source: name, Value: v}}
	cm, spent := engine.Modifiers(c, nil, fray.AppliesCheck, s.Round)
	p.mods, p.spent = append(p.mods, cm...), spent
	p.mods = gm(cmd, OptMod, p.mods)
	p.roll = TestRoll{Value: sum(p.mods)}
	return p, checkRoll(p.roll)
}

// decideRoll decides check, test, free and kipup.
func (s *State) decideRoll(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	p, ev, err := s.rolled(cmd, r)
	if err != nil {
		return err
	}
	if err := tx.Add(ev); err != nil {
		return err
	}
	c := s.ByID(p.d.Who)
	switch p.d.Roll {
	case RollTest:
		due, fail := CondConscious, CondUnconscious
		if p.d.What == "survival" {
			due, fail = CondSurvival, CondDead
		}
		if c.Condition(due) != nil {
			if err := tx.Emit(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: due}); err != nil {
				return err
			}
		}
		if !p.d.Success {
			if err := setCondition(tx, c.ID, fray.Condition{Name: fail, Since: s.Round, Note: "failed the " + p.d.What + " test"}); err != nil {
				return err
			}
		}
	case RollFree:
		if p.d.Success {
			err = tx.Emit(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: CondTied})
		}
	case RollKipUp:
		if p.d.Levels >= KipUpLevels {
			err = tx.Emit(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: CondDown})
		}
	}
	if err != nil {
		return err
	}
	return spend(s, p.spent, tx)
}
