package vv

import (
	"fray"
	"fray/engine"
	"sync"
)

// Commands declares the commands the system accepts, worked out once:
// the caller must not change them.
func (*System) Commands() []fray.CommandDecl { return declared() }

// declared holds the declarations commands makes.
var declared = sync.OnceValue(commands)

// commands declares the commands the system accepts: the shared ones,
// the order of play's and resolution's.
func commands() []fray.CommandDecl {
	ds := engine.SharedDecls(spec)
	ds[0].Summary += " For attacks without a sheet: hp= Hit Points, attack= powers with their damage dice, type and skill score, protection= per damage type."
	return append(ds, decls...)
}

// Parameters of several commands.
var (
	argNames  = fray.Param{Name: "NAME", Kind: fray.KindCombatant, Repeat: true}
	argType   = fray.Param{Name: "TYPE", Kind: fray.KindChoice, Choices: DamageTypes(), Hint: "TYPE", Help: "a damage type"}
	optDivert = fray.Param{Name: KeyDivert, Kind: fray.KindNumber, Min: 0, Max: 1000, Help: "the most damage rolled with to Power (V-13)"}
	// argNow names the current character, who alone may take the
	// command; left out, it is the current character.
	argNow = fray.Param{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Help: "the current character"}
)

// yesNo declares an option that takes yes or no (engine.ParseYesNo's
// words): shows is what usage offers ("yes", or "yes" and "no").
func yesNo(key, help string, shows ...string) fray.Param {
	return fray.Param{Name: key, Kind: fray.KindChoice, Choices: shows, Also: engine.YesNoWords, Help: help}
}

// attackDecl declares attack: its words (unaware …) may also be given as
// options (unaware=yes).
func attackDecl() fray.CommandDecl {
	facings := []string{FacingFront, FacingFrontSide, FacingSide, FacingSideRear, FacingRear, FacingAbove, FacingBelow}
	d := fray.CommandDecl{Name: "attack", Send: fray.SendNamed, Rolls: true,
		Summary: "The current character attacks as their action (V-8 … V-16): 1d20 at or under skill + Level − target's Level + range + facing + mod; a 1 hits, a 20 misses and goes astray; damage less protection off Hit Points. An unaware target that fails its Perception roll is hit on anything but 20: the GM says noticed=yes|no, or gives its chance, noticed=45%, and the d% is rolled first. Each word may be given as an option too: unaware=yes.",
		Args: []fray.Param{
			{Name: "ATTACKER", Kind: fray.KindCombatant, Actor: true},
			{Name: "TARGET", Kind: fray.KindCombatant},
			{Name: "WORD", Kind: fray.KindChoice, Choices: attackFlags, Optional: true, Repeat: true, Help: "what is true of this attack"},
		},
		Opts: []fray.Param{
			{Name: KeyWith, Kind: fray.KindPower, Required: true, Help: "the power attacked with"},
			{Name: KeyRange, Kind: fray.KindNumber, Min: 0, Max: MaxRange, Hint: "INCHES", Help: "the distance in inches"},
			// An empty facing= is the front, as the rules read it.
			{Name: KeyFacing, Kind: fray.KindChoice, Choices: facings, Also: []string{""}, Default: FacingFront, Help: "the target's facing the attack comes from (V-10)"},
			// Rear and side-rear reach the rules, which refuse them with the reason (V-10).
			{Name: KeyAttackerFacing, Kind: fray.KindChoice, Choices: facings[:3], Also: []string{FacingSideRear, FacingRear, ""}, Default: FacingFront, Help: "where the target is for the attacker (V-10)"},
			{Name: KeyNoticed, Kind: fray.KindText, Choices: []string{"yes", "no"}, Hint: "yes|no|PCT%", Help: "whether an unaware target noticed, or the chance of its Perception roll"},
			engine.OptMod("±N"),
			{Name: KeyPull, Kind: fray.KindNumber, Min: 0, Max: 1000, Help: "the damage held back (V-15)"},
			{Name: KeyCover, Kind: fray.KindNumber, Min: 0, Max: 100, Hint: "PCT", Help: "the percent of the target covered (V-11)"},
			{Name: KeyCoverProtection, Kind: fray.KindNumber, Min: 0, Max: 1000, Help: "the cover's protection"},
			optDivert,
			yesNo(KeyMuscle, "whether the target may roll with the attack (house rule)", "yes", "no"),
			yesNo(KeyKnockback, "whether the attack is impact-like (V-14); the default is kinetic's", "yes", "no"),
		},
		Examples: []string{`attack Grue "Jack B. Nimble" with=Claws range=1 facing=side-rear divert=2`, "attack Grue Brick with=Claws unaware noticed=45%"}}
	for i, f := range attackFlags {
		p := yesNo(f, "", "yes", "no")
		p.Folded = i > 0
		d.Opts = append(d.Opts, p)
	}
	return d
}

// decls declares the system's own commands.
var decls = []fray.CommandDecl{
	{Name: "surprise", Send: fray.SendGM, Args: []fray.Param{argNames},
		Summary: "Before the start, mark the ambush victims who failed to notice (V-4)."},
	{Name: "initiative", Send: fray.SendNamed, Rolls: true,
		Args:     []fray.Param{engine.ArgActor, {Name: "DIE", Kind: fray.KindNumber, Min: 1, Max: 10, Optional: true, Help: "the face of the d10"}},
		Summary:  "Enter the 1d10 a character rolled at the table for the next initiative roll: as DIE, or as dice=N; with neither, it is rolled now.",
		Examples: []string{"initiative Brick 7"}},
	{Name: "order", Send: fray.SendGM, Args: []fray.Param{argNames},
		Summary: "The GM's order for characters tied on phase, Agility and Move Rate (V-2; on phase and Agility with ties=raw), from the next turn rolled."},
	{Name: "upkeep", Send: fray.SendNamed,
		Args:    []fray.Param{engine.ArgActor, {Name: "POWER", Kind: fray.KindNumber, Min: 0, Max: 1000, Help: "the Power spent between turns"}},
		Summary: "Power the character spends between turns, before initiative is rerolled (V-5); upkeep NAME 0 stops it. Never more than the Power left: refused now, and at the end of a turn an upkeep the character can no longer pay is not paid and ends."},
	{Name: "start", Send: fray.SendGM, Rolls: true,
		Summary: "Begin: every character rolls 1d10 + Agility and the phases are counted down (V-1); objects (kind=environment) roll none and have no phases."},
	{Name: "act", Send: fray.SendCurrent, Args: []fray.Param{actor(argNow)},
		Summary: "The current character takes their action; after the first in a turn it costs 2 Power."},
	{Name: "move", Send: fray.SendCurrent, Args: []fray.Param{{Name: "INCHES", Kind: fray.KindNumber, Min: 1, Max: MaxInches}},
		Summary: "The current character moves, before or after acting but not both (V-6)."},
	{Name: "hold", Send: fray.SendCurrent, Rolls: true, Args: []fray.Param{argNow},
		Summary: "The current character saves their action (V-3) and the count goes on."},
	{Name: "next", Send: fray.SendCurrent, Rolls: true, Args: []fray.Param{actor(argNow)},
		Summary: "The current character is done; an action not taken is declined (no Power spent). Once a turn's phases are over, next (naming nobody) begins the next turn."},
	{Name: "decline", Send: fray.SendCurrent, Rolls: true, Args: []fray.Param{argNow},
		Summary: "The current character declines this action and spends no Power."},
	{Name: "interrupt", Send: fray.SendNamed, Args: []fray.Param{actor(argNames)},
		Opts: []fray.Param{{Name: engine.KeyBefore, Kind: fray.KindCombatant, Help: "the character acting now"},
			{Name: KeyPhase, Kind: fray.KindNumber, Min: 1, Max: 10000, Help: "a phase where nobody acts, between the last counted and the one acting now, who has not begun"}},
		Summary:  "Characters with held actions act now, higher Agility first (V-3); phase=N uses them on a phase where nobody acts, before the one acting now has begun theirs.",
		Examples: []string{"interrupt Grue phase=14"}},
	{Name: "facing", Send: fray.SendNamed, Args: []fray.Param{engine.ArgActor, {Name: "DIRECTION", Kind: fray.KindText, Optional: true}},
		Summary: "Change facing: free on one's own phase, else 2 Power and once per phase (V-7)."},
	{Name: "prone", Send: fray.SendNamed, Args: []fray.Param{engine.ArgActor},
		Summary: "Drop prone: free on one's own phase, else 2 Power and once per phase (V-7)."},
	{Name: "stand", Send: fray.SendNamed, Args: []fray.Param{engine.ArgActor},
		Summary: "A prone character gets up, on their own phase only."},
	attackDecl(),
	{Name: engine.CmdOdds, Send: fray.SendQuery, Args: []fray.Param{{Name: "COMMAND", Kind: fray.KindText, Repeat: true}},
		// The odds commands stay in the summary: an example is checked
		// against odds's own declaration, which takes no options.
		Summary: "The exact odds of an attack or a check before rolling: astray, miss, hit the cover and hit, every modifier, and the damage after protection: odds attack Grue Brick with=Claws range=1; success and failure: odds check Brick chance=45; who acts first from the initiative roll (V-1): odds start, or odds next when it ends the turn."},
	{Name: "damage", Send: fray.SendGM,
		Args: []fray.Param{engine.ArgName, engine.ArgAmount},
		Opts: []fray.Param{{Name: KeyType, Kind: fray.KindChoice, Choices: DamageTypes(), Hint: "TYPE", Help: "a damage type"}, optDivert,
			yesNo(KeyFalling, "falling damage, which may be rolled with", "yes")},
		Summary:  "The GM deals N damage of a type (less protection; Gas negated by any), such as a fall; divert= rolls with some to Power (V-13).",
		Examples: []string{"damage Vex 7 type=kinetic falling=yes divert=2"}},
	{Name: "heal", Send: fray.SendGM,
		Args:     []fray.Param{engine.ArgName, {Name: "N", Kind: fray.KindNumber, Min: 1, Max: engine.MaxAmount}},
		Summary:  "Restore up to N Hit Points, no higher than the sheet's.",
		Examples: []string{"heal Vex 3"}},
	{Name: "protect", Send: fray.SendGM,
		Args: []fray.Param{engine.ArgName, argType, {Name: "N", Kind: fray.KindNumber, Min: 1, Max: 1000}},
		Opts: []fray.Param{{Name: engine.KeyUntil, Kind: fray.KindText, Choices: []string{"cleared", "start", "end", "round"}, Default: "cleared",
			Hint: "cleared|start|end|start:NAME|end:NAME|round][@ROUND|@+N", Help: "the turn edge it ends at"}},
		Summary:  "Add N protection against a damage type, until cleared (clear NAME \"protection vs TYPE\") or an anchored turn edge. Protection from every source adds up (V-12): the sheet's and each protect's, a condition of its own (the second against a type is \"protection vs TYPE 2\", and so on).",
		Examples: []string{"protect Brick energy 4 until=end"}},
	{Name: "spend", Send: fray.SendNamed,
		Args:     []fray.Param{engine.ArgActor},
		Opts:     []fray.Param{{Name: KeyPower, Kind: fray.KindNumber, Min: 1, Max: MaxSpend, Required: true, Help: "the Power spent"}, engine.OptNote},
		Summary:  "The character spends N Power: a power's cost, or any the GM calls for. Power may be spent at any time, on anyone's phase (as talking and off-phase facing changes are outside the action sequence, V-7).",
		Examples: []string{`spend Brick power=5 note="Force Field"`}},
	{Name: "check", Send: fray.SendNamed, Rolls: true,
		Args: []fray.Param{engine.ArgActor},
		Opts: []fray.Param{{Name: KeyChance, Kind: fray.KindText, Hint: "PCT", Required: true, Help: "the chance in percent, from 0 to 100, that the GM gives"},
			engine.OptMod("±N"), engine.OptNote},
		Summary:  "A percentile roll: d% at or under the chance succeeds, such as the Perception roll to Detect Danger of an ambush (V-4) or of an unaware defender (V-8). The seed gives no formula for the chance, so the GM gives it; mod= and conditions with on=check add to it.",
		Examples: []string{`check Brick chance=45 note="Detect Danger"`}},
}

// KeyPhase is the option of interrupt naming a phase where nobody acts.
const KeyPhase = "phase"

// actor returns p marked as naming whom the command acts for.
func actor(p fray.Param) fray.Param {
	p.Actor = true
	return p
}
