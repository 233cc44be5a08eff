package cinematic

import (
	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// life returns a combatant's Life Points: the sheet's track, or
// (Strength + Constitution) × 4 + 10 from the stats of add.
func life(c *fray.Combatant) (fray.Track, bool) {
	if t, ok := c.Tracks[TrackLife]; ok {
		return t, true
	}
	st, ok1 := c.Stats["strength"]
	co, ok2 := c.Stats["constitution"]
	if !ok1 || !ok2 {
		return fray.Track{}, false
	}
	n := (st+co)*4 + 10
	return fray.Track{Value: n, Max: n}, true
}

func needLife(c *fray.Combatant) (fray.Track, error) {
	t, ok := life(c)
	if !ok {
		return t, fray.Errorf(fray.EINVALID, "%s has no Life Points; load a sheet, or give strength= and constitution= with add ((Strength + Constitution) × 4 + 10).", c)
	}
	return t, nil
}

// startTracks gives a combatant who joins the tracks resolution counts
// down: Life Points worked out from the stats of add, and a full clip for
// each firearm.
func startTracks(c *fray.Combatant) {
	set := func(k string, t fray.Track) {
		if _, ok := c.Tracks[k]; !ok {
			kit.SetTrack(c, k, t)
		}
	}
	if t, ok := life(c); ok {
		set(TrackLife, t)
	}
	for _, p := range c.Powers {
		if p.Kind == fray.PowerKindWeapon && p.Clip > 0 {
			set(ammoKey(p.Name), fray.Track{Value: p.Clip, Max: p.Clip})
		}
	}
}

// hurt emits damage (negative: healing) to the combatant id, dealt by
// the combatant by if any, and what it brings (C-6): Badly Injured from
// Life Points, and a Consciousness or Survival test due.
func (s *State) hurt(tx *kit.Txn[*State], id fray.CombatantID, n int, by fray.CombatantID) error {
	c := s.ByID(id)
	if c == nil {
		return fray.Errorf(fray.EINTERNAL, "The combatant %s is not present.", id)
	}
	lp, err := needLife(c)
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if err := tx.Emit(EventDamaged, damageData{Who: c.ID, Amount: n, By: by}); err != nil {
		return err
	}
	now := min(lp.Value-n, lp.Max)
	if n < 0 {
		now = min(lp.Value-n, max(lp.Max, lp.Value))
	}
	// Badly Injured follows Life Points.
	pen := 0
	switch {
	case now <= VeryBadlyInjured:
		pen = -4
	case now <= BadlyInjured:
		pen = -2
	}
	old := 0
	if x := c.Condition(CondBadlyInjured); x != nil && len(x.Modifiers) > 0 {
		old = x.Modifiers[0].Value
	}
	switch {
	case pen != 0 && pen != old:
		note := "10 or fewer Life Points"
		if pen == -4 {
			note = "5 or fewer Life Points"
		}
		err = setCondition(tx, c.ID, fray.Condition{Name: CondBadlyInjured, Since: s.Round, Note: note,
			Modifiers: []fray.Modifier{{Source: CondBadlyInjured, Value: pen, On: fray.AppliesAttack}, {Source: CondBadlyInjured, Value: pen, On: fray.AppliesDefence}}})
	case pen == 0 && c.Condition(CondBadlyInjured) != nil:
		err = tx.Emit(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: CondBadlyInjured})
	}
	if err != nil {
		return err
	}
	if c.Condition(CondDead) != nil {
		return nil
	}
	if n > 0 {
		if now <= 0 && c.Condition(CondUnconscious) == nil {
			pen := now + min(quality(c, QualityPain), -now)
			err = setCondition(tx, c.ID, fray.Condition{Name: CondConscious, Since: s.Round,
				Note: "due: Constitution + Willpower " + signed(pen) + "; test " + kit.QuoteName(c.Name) + " consciousness"})
		}
		if err == nil && now <= SurvivalBelow {
			if c.Condition(CondStabilised) != nil {
				if err = tx.Emit(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: CondStabilised}); err != nil {
					return err
				}
			}
			err = setCondition(tx, c.ID, fray.Condition{Name: CondSurvival, Since: s.Round,
				Note: "due: Constitution + Willpower " + signed(-(-now/10)+quality(c, QualityHardToKill)) + ", then each minute at a further −1 until stabilised; test " + kit.QuoteName(c.Name) + " survival"})
		}
		return err
	}
	for _, x := range []struct {
		cond string
		ok   bool
	}{{CondConscious, now > 0}, {CondSurvival, now > SurvivalBelow}, {CondStabilised, now > SurvivalBelow}} {
		if x.ok && c.Condition(x.cond) != nil {
			if err := tx.Emit(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: x.cond}); err != nil {
				return err
			}
		}
	}
	return nil
}

// decideDamage decides "damage NAME N" and "heal NAME N": Life Points
// lost or regained at the GM's word, with what they bring (C-5, C-6).
func (s *State) decideDamage(cmd fray.Command, tx *kit.Txn[*State]) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n, err := engine.Amount(cmd, 1, 1, "Life Points")
	if err != nil {
		return err
	}
	if _, err := needLife(c); err != nil {
		return err
	}
	var by fray.CombatantID
	if v, ok := cmd.Opts["by"]; ok {
		b, err := s.Lookup(v)
		if err != nil {
			return err
		}
		by = b.ID
	}
	if cmd.Name == "heal" {
		if c.Condition(CondDead) != nil {
			return fray.Errorf(fray.EINVALID, "%s is dead.", c)
		}
		n = -n
	}
	return s.hurt(tx, c.ID, n, by)
}

// decideStabilise decides "stabilise NAME": a medic attends the dying;
// no more Survival tests until hurt again (C-6).
func (s *State) decideStabilise(cmd fray.Command, tx *kit.Txn[*State]) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	lp, err := needLife(c)
	if err != nil {
		return err
	}
	switch {
	case c.Condition(CondDead) != nil:
		return fray.Errorf(fray.EINVALID, "%s is dead.", c)
	case lp.Value > SurvivalBelow:
		return fray.Errorf(fray.EINVALID, "%s has %d Life Points and is not dying (%d or fewer).", c, lp.Value, SurvivalBelow)
	case c.Condition(CondStabilised) != nil:
		return fray.Errorf(fray.EINVALID, "%s is stabilised already.", c)
	}
	if c.Condition(CondSurvival) != nil {
		if err := tx.Emit(fray.EventCleared, fray.ClearedData{Who: c.ID, Condition: CondSurvival}); err != nil {
			return err
		}
	}
	return setCondition(tx, c.ID, fray.Condition{Name: CondStabilised, Since: s.Round, Note: "no Survival tests until hurt again"})
}
