package queue

import (
	"sync"

	"fray"
	"fray/engine"
)

// This file declares the commands the system accepts.

// Parameters several commands share.
var (
	// optInjury is injury=: the Injury damage gives one Incapacitated.
	optInjury = fray.Param{Name: KeyInjury, Kind: fray.KindChoice, Choices: Injuries(), Help: "the Injury, if the damage gives one"}
	// argHP is the N of damage and heal: hit points, at least one.
	argHP = fray.Param{Name: "N", Kind: fray.KindNumber, Min: 1, Max: engine.MaxAmount, Help: "hit points"}
	// argCurrent is the NAME of act [NAME] and next [NAME]: the current
	// actor, by default.
	argCurrent = fray.Param{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Actor: true, Help: "the current actor"}
)

// Commands declares the commands the system accepts, worked out once:
// the caller must not change them.
func (*System) Commands() []fray.CommandDecl { return declared() }

// declared holds the declarations commands makes.
var declared = sync.OnceValue(commands)

// commands declares the commands this system accepts.
func commands() []fray.CommandDecl {
	return append(engine.SharedDecls(spec),
		fray.CommandDecl{Name: "order", Send: fray.SendGM,
			Summary: "The GM's tiebreak order for equal scores that PCs-first does not settle (before the start).",
			Args:    []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Repeat: true}}},
		fray.CommandDecl{Name: "initiative", Send: fray.SendNamed, Rolls: true,
			Summary:  "Enter the physical d20 of a combatant (or of their group) before the start: its face as DIE, or with dice=.",
			Args:     []fray.Param{engine.ArgActor, {Name: "DIE", Kind: fray.KindDice, Optional: true, Help: "the d20's face"}},
			Examples: []string{"initiative Johann 14"}},
		fray.CommandDecl{Name: "start", Send: fray.SendGM, Rolls: true,
			Summary: "Roll 1d20 + Wits for everyone, once per group, and form the queue (Q-1); the event records each party's chance to come first."},
		fray.CommandDecl{Name: "act", Send: fray.SendCurrent,
			Summary: "The current actor takes an action: Major (attacks, charges) and Minor, or two Minor, per turn (Q-2); the Incapacitated and the dead take none.",
			Args:    []fray.Param{argCurrent, {Name: "KIND", Kind: fray.KindChoice, Choices: []string{Major, Minor}}},
			Opts:    []fray.Param{engine.OptNote}},
		fray.CommandDecl{Name: "next", Send: fray.SendCurrent,
			Summary: "The current actor goes to the bottom of the queue.",
			Args:    []fray.Param{argCurrent}},
		fray.CommandDecl{Name: "move", Send: fray.SendCurrent,
			Summary: "The current actor's Minor action of traversing the battlefield to zone N (Q-2); add NAME zone=N records a zone.",
			Args:    []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Help: "the current actor"}},
			Opts: []fray.Param{{Name: KeyZone, Kind: fray.KindNumber, Min: minZone, Max: maxZone, Required: true, Help: "the zone moved to"},
				engine.OptNote},
			Examples: []string{"move Johann zone=2"}},
		fray.CommandDecl{Name: "react", Send: fray.SendNamed,
			Summary: "A reaction to the current actor (or to a reaction to them): NAME will stand right below the one answered, once that one has gone to the bottom (Q-3); for= names the ally it is taken for, who must be in NAME's zone: NAME suffers the damage instead when the current actor's attack then hits the ally; the Incapacitated and the dead take none.",
			Args:    []fray.Param{engine.ArgActor},
			Opts: []fray.Param{{Name: "to", Kind: fray.KindCombatant, Required: true, Help: "whose action it answers"},
				{Name: KeyFor, Kind: fray.KindCombatant, Hint: "ALLY", Help: "the ally it is taken for"}, engine.OptNote}},
		fray.CommandDecl{Name: "attack", Send: fray.SendNamed, Rolls: true,
			Summary: "A Major action: d20 + Wits against 10 + the target's Wits (or the GM's hit=), then Red and Black by the weapon's weight; a Black 6 triggers its special (Q-4); dice=D20,RED,BLACK.",
			Args:    []fray.Param{{Name: "ATTACKER", Kind: fray.KindCombatant, Actor: true}, {Name: "TARGET", Kind: fray.KindCombatant}},
			Opts: []fray.Param{{Name: KeyWith, Kind: fray.KindPower, Hint: "WEAPON"},
				{Name: KeyHit, Kind: fray.KindChoice, Choices: []string{"yes", "no"}, Also: []string{"y", "true", "on", "1", "n", "false", "off", "0"}, Help: "the GM rules the hit"},
				engine.OptMod("±N"), optInjury},
			Examples: []string{`attack Johann "Brigand #1" with=sword dice=14,4,6`}},
		fray.CommandDecl{Name: "injury", Send: fray.SendNamed,
			Summary:  "Choose the Injuries an Incapacitated combatant took, one or several at once; each at most once, so the third Injury gives all that are left, dead among them (Q-5).",
			Args:     []fray.Param{engine.ArgActor, {Name: "INJURY", Kind: fray.KindChoice, Choices: Injuries(), Repeat: true}},
			Examples: []string{"injury Bob scarred maimed"}},
		fray.CommandDecl{Name: "damage", Send: fray.SendGM,
			Summary: "The GM takes N hit points off (a trap, a fall): at 0 Incapacitated, and damage to the Incapacitated is an Injury, as an attack's (Q-5); no action.",
			Args:    []fray.Param{engine.ArgName, argHP}, Opts: []fray.Param{optInjury},
			Examples: []string{"damage Johann 3"}},
		fray.CommandDecl{Name: "heal", Send: fray.SendGM,
			Summary:  "The GM gives back up to N hit points (a potion), never above the combatant's; any regained ends Incapacitation, Injuries stay, the dead stay dead.",
			Args:     []fray.Param{engine.ArgName, argHP},
			Examples: []string{"heal Johann 2"}},
		fray.CommandDecl{Name: "check", Send: fray.SendNamed, Rolls: true,
			Summary: "A task: d20 + Wits against 10 + the opponent's Wits (vs=, the to-hit rule's roll) or the GM's difficulty= (one of them); it takes no action itself, the GM says with act whether it costs a Major or Minor; dice=D20.",
			Args:    []fray.Param{engine.ArgActor},
			Opts: []fray.Param{{Name: KeyVs, Kind: fray.KindCombatant, Help: "the opponent: against 10 + their Wits"},
				{Name: KeyDifficulty, Kind: fray.KindNumber, Min: 1, Max: MaxDifficulty, Help: "the GM's difficulty"}, engine.OptMod("±N")},
			Examples: []string{`check Melvina vs="Pet Bear" mod=+2`}},
		fray.CommandDecl{Name: engine.CmdOdds, Send: fray.SendQuery,
			Summary:  "The exact odds of an attack (miss, hit, a Black 6's special, Incapacitated, and the damage), a check, or the queue roll (odds start: each party's chance to come first; odds initiative NAME: NAME's party's chance and score) before rolling, with every modifier.",
			Args:     []fray.Param{{Name: "COMMAND", Kind: fray.KindText, Repeat: true, Hint: "COMMAND"}},
			Examples: []string{`odds attack Johann "Brigand #1"`, "odds start", "odds initiative Johann"}},
	)
}
