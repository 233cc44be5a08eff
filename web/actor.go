package web

import (
	"fray"
	"fray/engine"
)

// How a command word says whom it acts for.
const (
	actsGM        = iota // the GM's alone: it changes the encounter itself
	actsQuery            // it only reads (show, history, log, help)
	actsCurrent          // the current actor: move INCHES, hold, decline
	actsNamed            // the first word when it names a combatant, else the current actor
	actsAll              // every word that names a combatant: interrupt A B
	actsNamedOnly        // the first word, which must name the actor: take NAME
)

// commandActors says whom each command word acts for. A word not listed
// is the GM's alone, so a command a system adds later is safe until it is
// listed here.
var commandActors = map[string]int{
	engine.CmdAdd: actsGM, engine.CmdRemove: actsGM, engine.CmdSet: actsGM,
	engine.CmdNote: actsGM, engine.CmdReveal: actsGM, engine.CmdRename: actsGM, engine.CmdUndo: actsGM,
	engine.CmdRedo: actsGM, "order": actsGM, "reorder": actsGM, "start": actsGM,
	"surprise": actsGM, "aware": actsGM,

	engine.CmdShow: actsQuery, engine.CmdHistory: actsQuery,
	engine.CmdLog: actsQuery, engine.CmdHelp: actsQuery,

	"move": actsCurrent, "hold": actsCurrent, "decline": actsCurrent,

	"next": actsNamed, "delay": actsNamed, "act": actsNamed, "force": actsNamed,
	"react": actsNamed, "full": actsNamed, "defend": actsNamed, "upkeep": actsNamed,
	"initiative": actsNamed, "facing": actsNamed, "prone": actsNamed, "stand": actsNamed,
	"attack": actsNamed, "block": actsNamed, "dodge": actsNamed, "parry": actsNamed,
	"check": actsNamed, "assist": actsNamed, "spend": actsNamed, "defining": actsNamed,
	"distract": actsNamed, "reload": actsNamed, "test": actsNamed, "free": actsNamed,
	"kipup": actsNamed, "injury": actsNamed,

	// take answers an attack waiting for the defender: without a name it
	// would pass as the current actor's, who is the attacker.
	"take": actsNamedOnly,

	"interrupt": actsAll,
}

// systemActors overrides commandActors for one system's word.
var systemActors = map[string]map[string]int{
	// cinematic: "attack [TARGET]" — the current character attacks.
	"cinematic": {"attack": actsCurrent},
}

// ActsFor returns the combatants a command acts for in an encounter under
// the rules id whose view is v, and whether the command is the GM's alone.
// A query acts for nobody and is not the GM's; "odds COMMAND …" acts for
// whom the command would. A player may send a command
// only when it is not the GM's and acts for their character alone (see
// allowed).
func ActsFor(rules string, cmd fray.Command, v fray.View) (who []string, gmOnly bool) {
	if cmd.Name == engine.CmdOdds {
		// The odds of a command act for whom the command would.
		inner, err := engine.OddsCommand(cmd)
		if err != nil {
			return nil, false // refused anyway, for anyone
		}
		return ActsFor(rules, inner, v)
	}
	kind, ok := systemActors[rules][cmd.Name]
	if !ok {
		kind, ok = commandActors[cmd.Name]
	}
	if !ok {
		return nil, true
	}
	named := func(w string) string {
		for _, c := range v.Combatants {
			if fray.SameName(c.Name, w) {
				return c.Name
			}
		}
		return ""
	}
	current := func() []string {
		if v.Current == "" {
			return nil
		}
		return []string{v.Current}
	}
	switch kind {
	case actsGM:
		return nil, true
	case actsQuery:
		return nil, false
	case actsCurrent:
		return current(), false
	case actsNamed:
		if n := named(cmd.Arg(0)); n != "" {
			return []string{n}, false
		}
		if len(cmd.Args) > 0 && kindTakesName(cmd.Name) {
			// A word that names nobody: the system will refuse it, but
			// it must not pass as the current actor's.
			return []string{cmd.Arg(0)}, false
		}
		return current(), false
	case actsAll:
		return append(who, cmd.Args...), false
	case actsNamedOnly:
		if len(cmd.Args) == 0 {
			return nil, false
		}
		if n := named(cmd.Arg(0)); n != "" {
			return []string{n}, false
		}
		return []string{cmd.Arg(0)}, false
	}
	return nil, true
}

// kindTakesName reports whether the first word of the command, when
// there is one, always names the actor (rather than, say, major|minor).
func kindTakesName(name string) bool {
	switch name {
	case "act":
		return false
	}
	return true
}

// allowed reports whether the caller may send cmd, as an EFORBIDDEN
// *fray.Error when not. Whom the command acts for is resolved as the
// player may name combatants (s), and compared by id with the combatant
// their token is bound to. Nor may a player's command set an outcome
// the GM, the sheets or the dice give (see engine.CheckPlayerOptions; the
// encounter's settings, in v, say whether players enter their own dice).
func allowed(c caller, rules string, cmd fray.Command, v fray.View, s *Sight) error {
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
	who, gmOnly := ActsFor(rules, cmd, known)
	if gmOnly {
		return fray.Errorf(fray.EFORBIDDEN, "Only the GM may use %s.", cmd.Name)
	}
	if engine.IsQuery(cmd.Name) && cmd.Name != engine.CmdOdds {
		return nil
	}
	self := s.known.NameOf(c.Combatant)
	if len(who) == 0 {
		if k, ok := commandActors[cmd.Name]; ok && k == actsNamedOnly {
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
