package vv

import (
	"fmt"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

// damage decides damage NAME N [type=TYPE] [divert=N] [falling=yes].
func (d *decider) damage(cmd fray.Command) error {
	s := d.State
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n := number(cmd.Arg(1))
	if _, ok := hitPoints(c); !ok {
		return fray.Errorf(fray.EINVALID, "%s has no Hit Points (a sheet's hit points track, or add … hp=N), so damage has nothing to take.", c)
	}
	data := DamageData{Who: c.ID, Amount: n, Damage: n}
	if v, ok := cmd.Opts[KeyType]; ok {
		data.Type = strings.ToLower(v)
		data.Protection = protection(c, data.Type, s.Round)
		data.Damage = Attack{Protection: data.Protection, Gas: data.Type == DamageGas}.damage(n, false)
	}
	falling := false
	if v, ok := cmd.Opts[KeyFalling]; ok {
		if falling, err = engine.ParseYesNo(KeyFalling, v); err != nil {
			return err
		}
	}
	divert, err := s.checkDivert(cmd, c, false, falling, falling, "this damage (say falling=yes for a fall)")
	if err != nil {
		return err
	}
	data.ToPower = min(divert, data.Damage)
	data.ToHits = data.Damage - data.ToPower
	return d.Emit(EventDamaged, data)
}

// heal decides heal NAME N.
func (d *decider) heal(cmd fray.Command) error {
	s := d.State
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n := number(cmd.Arg(1))
	t, ok := c.Tracks[TrackHitPoints]
	if !ok {
		return fray.Errorf(fray.EINVALID, "%s has no Hit Points (a sheet's hit points track, or add … hp=N) to restore.", c)
	}
	if t.Value >= t.Max {
		return fray.Errorf(fray.EINVALID, "%s already has all %d Hit Points.", c, t.Max)
	}
	return d.Emit(EventHealed, HealData{Who: c.ID, Hits: min(n, t.Max-t.Value)})
}

// protect decides protect NAME TYPE N: a condition adding protection
// against a damage type until cleared. Each protect is a source of its
// own, a condition of its own, added to the others (V-12).
func (d *decider) protect(cmd fray.Command) error {
	s := d.State
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	typ, n := strings.ToLower(cmd.Arg(1)), number(cmd.Arg(2))
	if len(c.Conditions) >= engine.MaxConditions {
		return fray.Errorf(fray.ETOOLARGE, "%s already holds %d conditions, the limit (MaxConditions).", c, engine.MaxConditions)
	}
	name := protectionName(c, typ)
	cond := fray.Condition{Name: name, Since: s.Round, Modifiers: []fray.Modifier{{Source: name, Value: n, On: protectionOn + typ}},
		Note: fmt.Sprintf("+%d protection against %s damage (V-12)", n, typ)}
	if v, ok := cmd.Opts[engine.KeyUntil]; ok {
		if cond.Until, err = engine.ParseUntil(&s.Encounter, c.Name, v); err != nil {
			return err
		}
		if u := cond.Until; u != nil && u.Name != "" && u.ID == "" {
			// ParseUntil gives the anchor's name (the holder's, or one
			// it looked up); the payload holds whose turn it is too.
			u.ID = s.IDOf(u.Name)
		}
	}
	return d.Emit(fray.EventCondition, fray.ConditionData{Who: c.ID, Condition: cond})
}

// protectionName returns the name of the condition of a new source of
// protection against typ on c: "protection vs energy", or, when c holds
// that already, the first of "protection vs energy 2", "… 3" … it does
// not hold.
func protectionName(c *fray.Combatant, typ string) string {
	name := "protection vs " + typ
	for k := 2; c.Condition(name) != nil; k++ {
		name = "protection vs " + typ + " " + strconv.Itoa(k)
	}
	return name
}
