package bpb

import (
	"fray"
	"fray/engine"
	"sync"
)

// Parameters of this system's commands.
var (
	// argTurn is the NAME of next [NAME] and delay [NAME]: whose turn it
	// is, when given.
	argTurn = fray.Param{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Actor: true, Help: "whose turn it is (default: the current actor)"}
	// optMod is mod=N, the GM's modifier to a task roll.
	optMod    = fray.Param{Name: "mod", Kind: fray.KindNumber, Min: -20, Max: 20, Help: "the GM's modifier to the roll"}
	optBefore = fray.Param{Name: engine.KeyBefore, Kind: fray.KindCombatant, Help: "a place in the order: just before NAME"}
	optAfter  = fray.Param{Name: engine.KeyAfter, Kind: fray.KindCombatant, Help: "a place in the order: just after NAME"}
	// optFor is for=NAME of block, dodge and take: the one the waiting
	// hit is against, whom the named combatant protects (B-7).
	optFor = fray.Param{Name: "for", Kind: fray.KindCombatant, Help: "the one the hit is against: a forced action on their behalf, and a hit that lands, lands on the protector"}
)

// Commands declares the commands the system accepts, worked out once:
// the caller must not change them.
func (*System) Commands() []fray.CommandDecl { return declared() }

// declared holds the declarations commands makes.
var declared = sync.OnceValue(commands)

// commands declares the commands this system accepts.
func commands() []fray.CommandDecl {
	defence := func(name, example string) fray.CommandDecl {
		return fray.CommandDecl{Name: name, Send: fray.SendNamed, Rolls: true, Answers: true,
			Summary: "Prowess / Agility against 8 + the attack's rank (+1 for a remarkable hit): on one's turn it lasts until the next action, for further blocks (dodges) only; against a hit off one's turn it is forced unless already blocking (dodging); with=POWER uses one's own same power (similar=yes: a like one, GM's leave); an extreme success reorders play (B-8, B-9); for=NAME: on NAME's behalf, always forced, and a failure lands the hit on the protector (B-7).",
			Args:    []fray.Param{engine.ArgActor},
			Opts: []fray.Param{{Name: "with", Kind: fray.KindPower, Help: "one's own power, the same as the attack's"},
				{Name: "similar", Kind: fray.KindChoice, Choices: []string{"yes", "no"}, Also: engine.YesNoWords, Hint: "yes", Help: "yes: a power of like theme or source, with the GM's leave"},
				optMod, optFor},
			Examples: []string{example}}
	}
	amount := func(name, summary string) fray.CommandDecl {
		return fray.CommandDecl{Name: name, Send: fray.SendGM, Summary: summary,
			Args: []fray.Param{engine.ArgName, engine.ArgAmount}, Examples: []string{name + " Ganyeka 3"}}
	}
	return append(engine.SharedDecls(spec),
		fray.CommandDecl{Name: "order", Send: fray.SendGM,
			Summary:  "Declare the order of play (before the start), or a new order from the next round.",
			Args:     []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Repeat: true, Help: "the order of play, first to last"}},
			Examples: []string{"order Blueshift Ganyeka Monolith"}},
		fray.CommandDecl{Name: "aware", Send: fray.SendGM,
			Summary:  "An unaware combatant becomes aware and joins the order (default: last among the characters).",
			Args:     []fray.Param{engine.ArgName},
			Opts:     []fray.Param{optBefore, optAfter},
			Examples: []string{"aware Monolith after=Blueshift"}},
		fray.CommandDecl{Name: "initiative", Send: fray.SendNamed, Rolls: true,
			Summary: "Enter the physical 2d6 of a combatant's Perception roll (6,3 or a total) for a rolled order.",
			Args: []fray.Param{engine.ArgActor,
				{Name: "DIE", Kind: fray.KindDice, Optional: true, Help: "the two faces (6,3) or their total (9); or give dice=6,3"}},
			Examples: []string{"initiative Blueshift 6,3"}},
		fray.CommandDecl{Name: "start", Send: fray.SendGM, Rolls: true,
			Summary:  "Begin round 1, in the declared order or rolled by Perception (2d6 + Perception + Super-speed).",
			Opts:     []fray.Param{{Name: SettingOrder, Kind: fray.KindChoice, Choices: spec.Settings[SettingOrder], Help: "default: the order setting"}},
			Examples: []string{"start order=rolled"}},
		fray.CommandDecl{Name: "next", Send: fray.SendCurrent,
			Summary:  "The current actor ends their turn; the note replaces the default words in the history.",
			Args:     []fray.Param{argTurn},
			Opts:     []fray.Param{engine.OptNote},
			Examples: []string{`next Blueshift note="flies to the roof"`}},
		fray.CommandDecl{Name: "delay", Send: fray.SendCurrent,
			Summary: "The current actor delays their turn and holds it for later (B-6).",
			Args:    []fray.Param{argTurn}},
		// interrupt takes one name, but every word names whom it would
		// act for (as the web has always read it); Decide refuses more.
		fray.CommandDecl{Name: "interrupt", Send: fray.SendNamed,
			Summary:  "A combatant holding a delayed turn takes it now, pre-empting the current turn.",
			Args:     []fray.Param{engine.ArgActor},
			Opts:     []fray.Param{{Name: engine.KeyBefore, Kind: fray.KindCombatant, Help: "the turn pre-empted, which must be the current one"}},
			Examples: []string{"interrupt Monolith before=Ganyeka"}},
		fray.CommandDecl{Name: "force", Send: fray.SendNamed,
			Summary:  "A forced defensive action now; it costs the next available turn, once per round (B-7). To protect someone from a waiting hit: take, block or dodge NAME for=OTHER.",
			Args:     []fray.Param{engine.ArgActor},
			Opts:     []fray.Param{engine.OptNote},
			Examples: []string{`force Monolith note="blocks attack by Ganyeka"`}},
		fray.CommandDecl{Name: "reorder", Send: fray.SendGM,
			Summary:  "From the next round, NAME acts right after the other (B-9: extreme block or dodge); or before=NAME, right before.",
			Args:     []fray.Param{engine.ArgName},
			Opts:     []fray.Param{optAfter, optBefore},
			Examples: []string{"reorder Ganyeka after=Monolith"}},
		fray.CommandDecl{Name: RollCheck, Send: fray.SendNamed, Rolls: true,
			Summary: "A task roll: 2d6 + stat (+3 expertise) against 8 + RANK, N or 12 (B-1).",
			Args:    []fray.Param{engine.ArgActor, {Name: "STAT", Kind: fray.KindStat, Choices: taskStats}},
			Opts: []fray.Param{
				{Name: "vs", Kind: fray.KindNumber, Min: 0, Max: 100, Hint: "RANK", Help: "an opposing rank: difficulty 8 + RANK"},
				{Name: "difficulty", Kind: fray.KindNumber, Min: 0, Max: 200, Choices: []string{"challenging"}, Default: "challenging", Help: "the total to reach; challenging is 12"},
				{Name: "expertise", Kind: fray.KindText, Choices: []string{"yes"}, Hint: "yes|SKILL", Help: "+3: yes, or a skill of the combatant's"},
				optMod,
			},
			Examples: []string{"check Blueshift agility difficulty=challenging expertise=acrobatics"}},
		fray.CommandDecl{Name: RollAttack, Send: fray.SendNamed, Rolls: true,
			Summary: "Prowess (close) or Accuracy (ranged) against 8 + the target's Agility, on one's turn; a hit waits for block, dodge or take, but a target already blocking (dodging) blocks (dodges) it at once (dice= then takes all four faces); damage = rank (+1 remarkable) − protection off Endurance; endurance=no: a power that inflicts none, blocked only by the same power (B-8, B-10).",
			Args: []fray.Param{{Name: "ATTACKER", Kind: fray.KindCombatant, Actor: true},
				{Name: "TARGET", Kind: fray.KindCombatant}},
			Opts: []fray.Param{
				{Name: "with", Kind: fray.KindPower, Required: true, Help: "the power or weapon"},
				{Name: "choose", Kind: fray.KindChoice, Choices: []string{OptionOverwhelming, OptionSmashing, OptionStaggering}, Default: OptionOverwhelming, Help: "the option of an extreme success"},
				optMod,
				{Name: "rank", Kind: fray.KindNumber, Min: 0, Max: 30, Help: "the rank of a power not on the sheet"},
				{Name: "range", Kind: fray.KindChoice, Choices: []string{"close", "ranged"}, Help: "of a power not on the sheet (default: close)"},
				{Name: "endurance", Kind: fray.KindChoice, Choices: []string{"no", "yes"}, Also: engine.YesNoWords, Hint: "no", Help: "no: a power that inflicts no Endurance damage"},
			},
			Examples: []string{"attack Ganyeka Monolith with=blast rank=9 range=ranged choose=staggering"}},
		defence(RollBlock, "block Monolith"), defence(RollDodge, "dodge Mindwave with=telepathy"),
		fray.CommandDecl{Name: "take", Send: fray.SendNamed,
			Summary:  "The defender takes the hit waiting for a defence (any other command settles it too); NAME for=OTHER: NAME dives in front and takes it in OTHER's place, a forced action (B-7).",
			Args:     []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Actor: true, Help: "the defender, or with for= the protector; a player must name them"}},
			Opts:     []fray.Param{optFor},
			Examples: []string{"take Monolith", "take Blueshift for=Monolith"}},
		fray.CommandDecl{Name: RollDistract, Send: fray.SendNamed, Rolls: true,
			Summary:  "Willpower against 8 + the opponent's Willpower: +3 to the next attack on them next round (B-11).",
			Args:     []fray.Param{engine.ArgActor, {Name: "OPPONENT", Kind: fray.KindCombatant}},
			Opts:     []fray.Param{optMod},
			Examples: []string{"distract Blueshift Ganyeka"}},
		amount("damage", "Endurance lost at the GM's word; 0 is out: no actions, and their turns pass with next (B-10)."),
		amount("heal", "Endurance regained at the GM's word; above 0 an out character is back (B-10)."),
		fray.CommandDecl{Name: "award", Send: fray.SendGM,
			Summary: "Experience for a player's character, each award once a story arc: showed +0, the others +1; roleplayed and clever go to one player each, two different players, unless override=yes; flat: the same points to each player instead, 2 unless points=N (B-12).",
			Args:    []fray.Param{engine.ArgName, {Name: "AWARD", Kind: fray.KindChoice, Choices: awardNames}},
			Opts: []fray.Param{{Name: KeyPoints, Kind: fray.KindNumber, Min: 1, Max: 100, Hint: "2", Help: "the points of a flat award"},
				{Name: KeyOverride, Kind: fray.KindChoice, Choices: []string{"yes", "no"}, Also: engine.YesNoWords, Hint: "yes", Help: "yes: the GM's word over the suggestion that roleplayed and clever go to one player each, two different players"}},
			Examples: []string{"award Blueshift enthusiastic", "award Monolith flat points=3", "award Blueshift clever override=yes"}},
		fray.CommandDecl{Name: "spend", Send: fray.SendNamed,
			Summary: "Spend experience: 1 point per rank, 1 for expertise; new=yes buys a stat or power the character lacks at rank N (B-12).",
			Args:    []fray.Param{engine.ArgActor, {Name: "N", Kind: fray.KindNumber, Min: 1, Max: 100, Help: "experience points"}},
			Opts: []fray.Param{{Name: "on", Kind: fray.KindText, Required: true, Hint: "STAT|POWER|expertise:SKILL",
				Help: "a stat, a power or weapon, or expertise in a skill"},
				{Name: KeyNew, Kind: fray.KindChoice, Choices: []string{"yes", "no"}, Also: engine.YesNoWords, Hint: "yes", Help: "yes: a new stat or power, bought at rank N (up to 14)"},
				{Name: KeyRange, Kind: fray.KindChoice, Choices: []string{"close", "ranged"}, Help: "a new power's range (default: close)"},
				{Name: KeyDamage, Kind: fray.KindChoice, Choices: []string{"lethal", "stunning"}, Help: "a new power's damage (default: lethal)"}},
			Examples: []string{"spend Blueshift 1 on=expertise:acrobatics", "spend Monolith 3 on=Flight new=yes"}},
		fray.CommandDecl{Name: "control", Send: fray.SendGM,
			Summary:  "A character takes control of a vehicle or object (an environment participant): it then moves when they move it on their turn (move), or at the end of the round on its own turn, at their option; without by=, nobody controls it and it moves at the end of the round (B-5).",
			Args:     []fray.Param{{Name: "VEHICLE", Kind: fray.KindCombatant, Help: "a combatant added kind=environment"}},
			Opts:     []fray.Param{{Name: "by", Kind: fray.KindCombatant, Help: "the controlling character"}},
			Examples: []string{"control Truck by=Blueshift", "control Truck"}},
		fray.CommandDecl{Name: "move", Send: fray.SendCurrent,
			Summary:  "On the controller's turn, the vehicle they control moves now instead of at the end of the round; once a round (B-5).",
			Args:     []fray.Param{{Name: "VEHICLE", Kind: fray.KindCombatant, Help: "a vehicle the current actor controls"}},
			Opts:     []fray.Param{{Name: "note", Kind: fray.KindText, Help: "what the move is, for the log"}},
			Examples: []string{`move Truck note="swerves into the alley"`}},
		fray.CommandDecl{Name: "fall", Send: fray.SendGM,
			Summary:  "A character or object begins to fall: the condition falling, which ends with the environment's turn, when it falls (the GM gives the damage), or at the end of the round when there is none (B-5).",
			Args:     []fray.Param{engine.ArgName},
			Opts:     []fray.Param{{Name: "note", Kind: fray.KindText, Help: "the condition's words (default: falls on the environment's turn)"}},
			Examples: []string{`fall Ganyeka note="knocked off the roof"`}},
		fray.CommandDecl{Name: engine.CmdOdds, Send: fray.SendQuery,
			Summary:  "The exact odds of a roll (check, attack, block, dodge, distract; start order=rolled: who acts first) with every modifier, without rolling.",
			Args:     []fray.Param{{Name: "COMMAND", Kind: fray.KindText, Repeat: true, Hint: "COMMAND"}},
			Examples: []string{"odds check Blueshift agility"}},
	)
}
