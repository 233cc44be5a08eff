package web

import (
	"fray"
	"fray/engine"
)

// ActsFor returns the combatants a command acts for in an encounter
// whose commands are declared by ds (engine.Decls) and whose view is v,
// and whether the command is the GM's alone. It reads the command's
// declaration (fray.CommandDecl.Send and its Actor arguments): a word no
// declaration names is the GM's alone; a query acts for nobody and is not
// the GM's; "odds COMMAND …" acts for whom the command would. A word an
// Actor argument takes is whom the command acts for even when it names
// nobody (the rules refuse it, but it must not pass as the current
// combatant's). A player may send a command only when it is not the GM's
// and acts for their character alone (see allowed).
func ActsFor(ds []fray.CommandDecl, cmd fray.Command, v fray.View) (who []string, gmOnly bool) {
	who, gmOnly, _ = actsFor(ds, cmd, v)
	return who, gmOnly
}

// actsFor is ActsFor, and reports too whether the command's words fit its
// declaration (when they do not, the engine refuses it for anyone).
func actsFor(ds []fray.CommandDecl, cmd fray.Command, v fray.View) (who []string, gmOnly, fits bool) {
	if cmd.Name == engine.CmdOdds {
		inner, err := engine.OddsCommand(cmd)
		if err != nil {
			return nil, false, false // refused anyway, for anyone
		}
		return actsFor(ds, inner, v)
	}
	d, ok := fray.FindDecl(ds, cmd.Name)
	if !ok {
		return nil, true, true
	}
	switch d.Send {
	case fray.SendQuery:
		return nil, false, true
	case fray.SendCurrent, fray.SendNamed:
	default:
		return nil, true, true
	}
	named, fits := d.Actors(cmd)
	if !fits {
		return nil, false, false
	}
	for _, w := range named {
		for _, c := range v.Combatants {
			if fray.SameName(c.Name, w) {
				w = c.Name
				break
			}
		}
		who = append(who, w)
	}
	if len(who) == 0 && d.Send == fray.SendCurrent && v.Current != "" {
		who = []string{v.Current}
	}
	return who, false, true
}

// allowed reports whether the caller may send cmd, as an EFORBIDDEN
// *fray.Error when not. Whom the command acts for is resolved as the
// player may name combatants (s), and compared by id with the combatant
// their token is bound to. Nor may a player's command set an outcome
// the GM, the sheets or the dice give (see engine.CheckPlayerOptions; the
// encounter's settings, in v, say whether players enter their own dice).
func allowed(c caller, ds []fray.CommandDecl, cmd fray.Command, v fray.View, s *Sight) error {
	if c.Role == fray.RoleGM {
		return nil
	}
	// Whom a player's words name is read among the combatants players may
	// know of: a hidden one is a word that names nobody.
	known := v
	known.Combatants = make([]fray.Combatant, 0, len(v.Combatants))
	for _, x := range v.Combatants {
		if !x.Hidden {
			known.Combatants = append(known.Combatants, x)
		}
	}
	who, gmOnly, fits := actsFor(ds, cmd, known)
	if gmOnly {
		return fray.Errorf(fray.EFORBIDDEN, "Only the GM may use %s.", cmd.Name)
	}
	if !fits || (engine.IsQuery(cmd.Name) && cmd.Name != engine.CmdOdds) {
		// Words that fit no declaration are refused by the engine, for
		// anyone and in words that name no one.
		return nil
	}
	self := s.known.NameOf(c.Combatant)
	if len(who) == 0 {
		if d, ok := fray.FindDecl(ds, cmd.Name); ok && d.Send == fray.SendNamed {
			return fray.Errorf(fray.EFORBIDDEN, "Name the character %s acts for: %s %s.", cmd.Name, cmd.Name, self)
		}
		return fray.Errorf(fray.EFORBIDDEN, "%s does not act for %s now.", cmd.Name, self)
	}
	player := c.viewer()
	for _, w := range who {
		if x, err := s.known.Resolve(player, w); err != nil || x.ID != c.Combatant {
			return fray.Errorf(fray.EFORBIDDEN, "A player acts only for %s; %s acts for someone else.", self, cmd.Name)
		}
	}
	// The player's own command may still not set an outcome: a modifier,
	// a difficulty, a rank, the dice (unless player_dice=yes lets them).
	return engine.CheckPlayerOptions(v.Settings, cmd)
}
