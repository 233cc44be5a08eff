package cinematic

import (
	"fray"
	"fray/engine"
	"sync"
)

// Parameters the commands share.
var (
	optMod  = fray.Param{Name: OptMod, Kind: fray.KindNumber, Min: -20, Max: 20, Hint: "±N", Help: "the GM's modifier to the roll"}
	optDMod = fray.Param{Name: OptDMod, Kind: fray.KindNumber, Min: -20, Max: 20, Hint: "±N", Help: "the GM's modifier to the defence"}
	optBy   = fray.Param{Name: engine.KeyBy, Kind: fray.KindCombatant, Help: "who caused it"}
	argLP   = fray.Param{Name: "N", Kind: fray.KindNumber, Min: 1, Max: engine.MaxAmount, Help: "Life Points"}
)

// Commands declares the commands the system accepts, worked out once:
// the caller must not change them.
func (*System) Commands() []fray.CommandDecl { return declared() }

// declared holds the declarations commands makes.
var declared = sync.OnceValue(commands)

// commands declares the commands the system accepts.
func commands() []fray.CommandDecl {
	return append(engine.SharedDecls(spec),
		fray.CommandDecl{Name: "order", Send: fray.SendGM,
			Summary: "The GM's order for characters tied on initiative and Dexterity.",
			Args:    []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Repeat: true}}},
		fray.CommandDecl{Name: "full", Send: fray.SendNamed,
			Summary: "Declare Full Defence or Full Offence at the top of the round (C-7).",
			Args: []fray.Param{engine.ArgActor, {Name: "STANCE", Kind: fray.KindChoice, Choices: []string{StanceDefence, StanceOffence, "none"},
				Also: []string{"defense", "fd", "offense", "fo"}}},
			Examples: []string{"full Watcher defence"}},
		fray.CommandDecl{Name: "start", Send: fray.SendGM,
			Summary: "Begin: turns by initiative, ⌊Dexterity × 0.5 + Perception + bonus⌋, highest first (C-1)."},
		fray.CommandDecl{Name: RollAttack, Send: fray.SendCurrent, Rolls: true,
			Summary: "attack ATTACKER TARGET with=WEAPON: the current character attacks and the target answers in the same command (C-4): D10 + Dexterity + the weapon's skill against the target's dodge (Dexterity + Kung Fu) or parry (Dexterity + the better of Kung Fu and Getting Medieval; never against bullets), the better of the two unless defence= names one; higher wins, ties to the defender. Both spend their actions (C-2: free, then extra at −2, −4 …; Full Offence +2, Full Defence +3). No defence left, Full Offence, unconscious, tied, or unaware (unaware=yes) without Situational Awareness, or defence=none: no roll, the attack hits on 9+. A hit deals (weapon + success levels − armour) × 2 for bullet, slash and stab against humans, × 1 for bash (C-5). shots=N is a barrage: one roll at −N, one bullet lands per success level, and a character's barrages fire at most 6 shots in a round (a small clip, C-8). Outnumbered (C-6): +2 per attacker on the target this round, this one and those declared with engage counted, once two or more. dice=ATTACK,DEFENCE gives the table's D10s (a blind attacker's Notice check first: dice=NOTICE,ATTACK,DEFENCE); against a target who rolls no defence, or with defence=wait, give the attack's D10 alone. defence=wait rolls the attack alone and waits for the target's own answer (dodge, parry or take). attack [TARGET], without with= and without options: the current character spends an attack, the free one then extra actions at −2, −4, … (C-2), without a roll (act is the same).",
			Args: []fray.Param{
				{Name: "ATTACKER", Kind: fray.KindCombatant, Optional: true, Help: "with with=, the attacker (the current character); without, the target"},
				{Name: "TARGET", Kind: fray.KindCombatant, Optional: true, Help: "with with=, the target"}},
			Opts: []fray.Param{
				{Name: OptWith, Kind: fray.KindPower, Hint: "WEAPON", Help: "the weapon: one on the sheet, punch or kick; without it, no roll"},
				// "defence=" (empty) is the default defence, as when left out.
				{Name: OptDefence, Kind: fray.KindChoice, Choices: []string{DefenceDodge, DefenceParry, DefenceNone, DefenceWait}, Also: []string{""},
					Help: "the target's answer; the better of dodge and parry when left out"},
				{Name: OptShots, Kind: fray.KindNumber, Min: 1, Max: MaxShots, Hint: "1-6", Help: "a barrage from a firearm (C-8)"},
				{Name: OptUnaware, Kind: fray.KindChoice, Choices: []string{"yes"}, Also: []string{"no", "y", "n", "true", "false", "on", "off", "1", "0"},
					Help: "the target does not know the attacker is there"},
				optMod, optDMod},
			Examples: []string{`attack Bernie Vamp with="Baseball Bat"`, "attack Slayer Thug with=punch defence=wait dice=7", "attack Vamp"}},
		fray.CommandDecl{Name: RollDodge, Send: fray.SendNamed, Rolls: true, Answers: true,
			Summary: "The target answers an attack made with defence=wait (C-4), after seeing its total: D10 + Dexterity + Kung Fu against it (higher wins, ties to the defender), spending a defence (free, then extra at −2, −4 …), settled as the one-command attack would be with the same dice. A target who cannot defend (no defence left, Full Offence, unconscious, tied, unaware) is not waited for: the attack is settled at once. While an attack waits, only the answer (dodge, parry or take), condition, clear, note, reveal, rename, undo and queries are taken. dice=D gives the defender's D10.",
			Args:    []fray.Param{engine.ArgActor}, Opts: []fray.Param{optDMod},
			Examples: []string{"dodge Thug dice=5"}},
		fray.CommandDecl{Name: RollParry, Send: fray.SendNamed, Rolls: true, Answers: true,
			Summary: "The target answers an attack made with defence=wait (C-4) as dodge does, with D10 + Dexterity + the better of Kung Fu and Getting Medieval; no parrying bullets.",
			Args:    []fray.Param{engine.ArgActor}, Opts: []fray.Param{optDMod}},
		fray.CommandDecl{Name: RollTake, Send: fray.SendNamed, Rolls: true,
			Summary: "The target answers an attack made with defence=wait (C-4) by taking it: the defence is kept and the attack hits on 9+.",
			Args:    []fray.Param{engine.ArgActor}},
		fray.CommandDecl{Name: "act", Send: fray.SendCurrent,
			Summary: "The same as attack [TARGET] without with=: the current character spends an attack, the free one then extra actions at −2, −4, … (C-2), without a roll.",
			Args:    []fray.Param{{Name: "TARGET", Kind: fray.KindCombatant, Optional: true}}},
		fray.CommandDecl{Name: "defend", Send: fray.SendNamed,
			Summary: "A character spends a defence without a roll: the free defence, then extra actions at −2, −4, … (C-2).",
			Args:    []fray.Param{engine.ArgActor},
			Opts:    []fray.Param{{Name: "against", Kind: fray.KindCombatant, Help: "the attacker"}}},
		fray.CommandDecl{Name: RollCheck, Send: fray.SendNamed, Rolls: true,
			Summary:  "A task (C-3): D10 + attribute + skill (+ a second attribute: constitution+willpower), or attribute × 2 without one; 9+ succeeds, the total gives success levels (9–10 1, 11–12 2, … 17–20 5, 21–23 6, +1 per 3). vs=N: against an opponent's D10 + N, ties to the opponent.",
			Args:     []fray.Param{engine.ArgActor, {Name: "STAT", Kind: fray.KindStat, Hint: "STAT[+SKILL]"}},
			Opts:     []fray.Param{optMod, {Name: OptVs, Kind: fray.KindNumber, Min: -100, Max: 100, Help: "the opponent's value"}},
			Examples: []string{`check Bernie "dexterity+Kung Fu" mod=-2`}},
		fray.CommandDecl{Name: RollTest, Send: fray.SendNamed, Rolls: true,
			Summary: "The tests of C-6, prompted after damage: Consciousness at 0 Life Points or fewer, Constitution + Willpower −1 per point below zero (Resistance (Pain) cancels 1 per level), failing: unconscious; Survival at −10 or fewer, −1 per 10 below zero, + Hard to Kill, −1 per minute since the wound (minutes=), failing: dead.",
			Args:    []fray.Param{engine.ArgActor, {Name: "TEST", Kind: fray.KindChoice, Choices: []string{"consciousness", "survival"}}},
			Opts:    []fray.Param{{Name: OptMinutes, Kind: fray.KindNumber, Min: 0, Max: 1000, Help: "minutes since the wound (Survival)"}, optMod}},
		fray.CommandDecl{Name: "damage", Send: fray.SendGM,
			Summary: "The GM takes Life Points off; Badly Injured and the tests follow (C-5, C-6).",
			Args:    []fray.Param{engine.ArgName, argLP}, Opts: []fray.Param{optBy}},
		fray.CommandDecl{Name: "heal", Send: fray.SendGM,
			Summary: "The GM gives Life Points back; Badly Injured and the tests due follow (C-6).",
			Args:    []fray.Param{engine.ArgName, argLP}, Opts: []fray.Param{optBy}},
		fray.CommandDecl{Name: "complication", Send: fray.SendGM,
			Summary: "C-6: blind (−5 to all; a Perception + Notice check before each attack; Echolocation unaffected), bound (arms in front: −2 to punches), tied (no attack or defence until free), down (Knocked Down: −4 to attack and defence), large (Size: mod=-N to dodge, −2 unless given). End one with clear NAME CONDITION, free, stand or kipup.",
			Args:    []fray.Param{engine.ArgName, {Name: "COMPLICATION", Kind: fray.KindChoice, Choices: []string{"blind", "bound", "tied", "down", "large"}}},
			Opts: []fray.Param{
				{Name: OptMod, Kind: fray.KindNumber, Min: -20, Max: -1, Hint: "-N", Help: "Size's penalty to dodge (large)"},
				{Name: engine.KeyUntil, Kind: fray.KindText, Choices: []string{"cleared", "start", "end", "round"}, Hint: "…", Help: "the turn edge it ends at, as condition's until="},
				optBy},
			Examples: []string{"complication Vamp down by=Bernie until=end"}},
		fray.CommandDecl{Name: RollFree, Send: fray.SendNamed, Rolls: true,
			Summary: "A tied character rolls Dexterity + Acrobatics (or Crime); 9+ frees them (C-6).",
			Args:    []fray.Param{engine.ArgActor},
			// with= is read without regard to case or blanks: its words
			// are suggestions, not the only ones taken.
			Opts: []fray.Param{{Name: OptWith, Kind: fray.KindText, Choices: []string{"Acrobatics", "Crime"}, Hint: "Acrobatics|Crime", Help: "the skill"}, optMod}},
		fray.CommandDecl{Name: "stand", Send: fray.SendNamed,
			Summary: "Up from Knocked Down the slow way (C-6): it takes the round (no action left).",
			Args:    []fray.Param{engine.ArgActor}},
		fray.CommandDecl{Name: RollKipUp, Send: fray.SendNamed, Rolls: true,
			Summary: "Up from Knocked Down with a kip-up (C-6): Dexterity + Acrobatics; at 2 success levels or more the character stands without costing an action.",
			Args:    []fray.Param{engine.ArgActor}, Opts: []fray.Param{optMod}},
		fray.CommandDecl{Name: "stabilise", Send: fray.SendGM,
			Summary: "A medic attends someone at −10 Life Points or fewer: no more Survival tests until hurt again (C-6).",
			Args:    []fray.Param{engine.ArgName}},
		fray.CommandDecl{Name: "stabilize", Send: fray.SendGM, Summary: "The same as stabilise.", Args: []fray.Param{engine.ArgName}},
		fray.CommandDecl{Name: "engage", Send: fray.SendGM,
			Summary:  "The GM declares who is attacking TARGET this round, for Outnumbered (C-6): +2 per attacker to every attack on TARGET, the first included, counting these and whoever has attacked it (at most 5, +10; a sixth attacker is refused). A new declaration replaces the last; it ends with the round.",
			Args:     []fray.Param{{Name: "TARGET", Kind: fray.KindCombatant}, {Name: "NAME", Kind: fray.KindCombatant, Repeat: true}},
			Examples: []string{"engage Bernie Vampire Master"}},
		fray.CommandDecl{Name: "reload", Send: fray.SendNamed,
			Summary: "Firearms (C-8): reloading fills the clip and is an action (the free attack or an extra). An attack with an empty clip is refused.",
			Args:    []fray.Param{engine.ArgActor, {Name: "WEAPON", Kind: fray.KindPower, Optional: true, Help: "the firearm, when the sheet has several"}}},
		fray.CommandDecl{Name: "spend", Send: fray.SendNamed,
			Summary: "Firearms (C-8): shots taken out of the clip without a roll.",
			Args:    []fray.Param{engine.ArgActor},
			Opts: []fray.Param{{Name: OptAmmo, Kind: fray.KindNumber, Min: 1, Max: 1000, Required: true, Help: "the shots spent"},
				{Name: OptWith, Kind: fray.KindPower, Hint: "WEAPON", Help: "the firearm, when the sheet has several"}}},
		fray.CommandDecl{Name: engine.CmdOdds, Send: fray.SendQuery,
			Summary:  "The exact odds of attack (with=; defence=wait gives those of the target's better defence), dodge, parry or take (against the waiting attack's total), check, test, free or kipup before rolling, with every modifier.",
			Args:     []fray.Param{{Name: "COMMAND", Kind: fray.KindText, Repeat: true, Hint: "COMMAND"}},
			Examples: []string{`odds check Bernie "dexterity+Kung Fu"`, "odds take Thug"}},
		fray.CommandDecl{Name: "next", Send: fray.SendCurrent,
			Summary: "The current character's turn ends (NAME, when given, must be theirs); after the last a new round begins.",
			Args:    []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Actor: true}}},
	)
}
