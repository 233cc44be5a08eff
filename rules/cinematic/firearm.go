package cinematic

import (
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// ammoKey is the track that counts a firearm's shots left.
func ammoKey(weapon string) string { return "ammo " + strings.ToLower(weapon) }

// ammo returns the shots left in a weapon's clip (full until first fired).
func ammo(c *fray.Combatant, w fray.Power) int {
	if t, ok := c.Tracks[ammoKey(w.Name)]; ok {
		return t.Value
	}
	return w.Clip
}

// firearm returns the combatant's weapon with a clip named name, or their
// only one when name is empty.
func firearm(c *fray.Combatant, name string) (fray.Power, error) {
	var guns []fray.Power
	for _, p := range c.Powers {
		if p.Kind == fray.PowerKindWeapon && p.Clip > 0 {
			if name != "" && fray.SameName(p.Name, name) {
				return p, nil
			}
			guns = append(guns, p)
		}
	}
	switch {
	case len(guns) == 0:
		return fray.Power{}, fray.Errorf(fray.EINVALID, "%s has no weapon with a clip on their sheet.", c)
	case name != "":
		return fray.Power{}, fray.Errorf(fray.ENOTFOUND, "%s has no weapon with a clip named %q (%s).", c, engine.Clip(name), gunList(guns))
	case len(guns) > 1:
		return fray.Power{}, fray.Errorf(fray.EINVALID, "%s has several firearms (%s); name one.", c, gunList(guns))
	}
	return guns[0], nil
}

func gunList(guns []fray.Power) string {
	names := make([]string, len(guns))
	for i, g := range guns {
		names[i] = g.Name
	}
	return strings.Join(names, ", ")
}

// decideReload decides "reload NAME [WEAPON]": an action on one's turn,
// spending the free attack or an extra action (C-8).
func (s *State) decideReload(cmd fray.Command, tx *kit.Txn[*State]) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	w, err := firearm(c, cmd.Arg(1))
	if err != nil {
		return err
	}
	if !s.Started || s.Current() != c.ID {
		return fray.Errorf(fray.EINVALID, "Reloading is an action on %s's own turn (C-8).", c)
	}
	if err := out(c, "reload"); err != nil {
		return err
	}
	if ammo(c, w) == w.Clip {
		return fray.Errorf(fray.EINVALID, "%s's %s is fully loaded (%d shots).", c, w.Name, w.Clip)
	}
	ch, b := s.char(c.ID), s.budget(c)
	d := reloadData{Who: c.ID, Weapon: w.Name}
	switch {
	case ch.Stood:
		return fray.Errorf(fray.EINVALID, "%s spent this round standing up and has no action left.", c)
	case b.Attack:
		d.Kind = ActionFree
	case b.Extras > 0:
		d.Kind, d.Modifier = ActionExtra, b.Next
	default:
		return fray.Errorf(fray.EINVALID, "%s has no action left this round to reload with (C-2).", c)
	}
	return tx.Emit(EventReloaded, d)
}

// decideSpend decides "spend NAME ammo=N [with=WEAPON]": shots fired
// without a roll.
func (s *State) decideSpend(cmd fray.Command, tx *kit.Txn[*State]) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	w, err := firearm(c, cmd.Opts[OptWith])
	if err != nil {
		return err
	}
	n, _ := intOpt(cmd, OptAmmo) // required: the declaration says so
	if left := ammo(c, w); left < n {
		return fray.Errorf(fray.EINVALID, "%s's %s has %d shots left, not %d.", c, w.Name, left, n)
	}
	return tx.Emit(EventShot, ammoData{Who: c.ID, Weapon: w.Name, Shots: n})
}
