package pp

import (
	"strconv"
	"strings"
	"sync"

	"fray"
	"fray/dice"
	"fray/engine"
)

// yesNo declares an option that takes yes or no, in every spelling
// engine.ParseYesNo reads.
func yesNo(key, help string) fray.Param {
	return fray.Param{Name: key, Kind: fray.KindChoice, Choices: []string{"yes"},
		Also: []string{"y", "true", "on", "1", "no", "n", "false", "off", "0"}, Help: help}
}

// rollOpts declares the options of one side of a roll (sideOpts): its
// modifier and dice set aside, and its successes counted at the table.
// whose is "" for the actor's, "the opponent's " for the opponent's.
func rollOpts(o sideOpts, whose string) (mod, auto, successes fray.Param) {
	return fray.Param{Name: o.mod, Kind: fray.KindText, Hint: "±Nd", Help: whose + "modifier in dice, from -" + strconv.Itoa(MaxModifier) + "d to +" + strconv.Itoa(MaxModifier) + "d"},
		fray.Param{Name: o.auto, Kind: fray.KindNumber, Choices: []string{"all"}, Hint: "N|all", Help: whose + "dice set aside: 1 automatic success per 2"},
		fray.Param{Name: o.successes, Kind: fray.KindNumber, Help: whose + "successes counted at the table, instead of rolling"}
}

// Commands declares the commands the system accepts, worked out once:
// the caller must not change them.
func (*System) Commands() []fray.CommandDecl { return declared() }

// declared holds the declarations commands makes.
var declared = sync.OnceValue(commands)

// commands declares the commands the system accepts.
func commands() []fray.CommandDecl {
	mod, auto, successes := rollOpts(actorOpts, "")
	vsMod, vsAuto, vsSuccesses := rollOpts(oppOpts, "the opponent's ")
	var thresholds []string
	for _, t := range Thresholds() {
		thresholds = append(thresholds, strings.ToLower(t.Name))
	}
	threshold := fray.Param{Name: KeyThreshold, Kind: fray.KindNumber, Choices: thresholds, Max: dice.MaxNumber,
		Hint: "hard|N", Help: "a static threshold: a number, or a difficulty from easy to godlike"}
	trait := fray.Param{Name: "TRAIT", Kind: fray.KindStat, Help: traitHelp}
	withTrait := func(key, help string) fray.Param {
		return fray.Param{Name: key, Kind: fray.KindStat, Hint: "TRAIT", Help: help}
	}
	also := fray.Param{Name: KeyAlso, Kind: fray.KindText, Hint: "NAME[,NAME…]", Help: "more contestants after B, each rolling B's trait"}
	alsoSuccesses := fray.Param{Name: KeyAlsoSuccesses, Kind: fray.KindText, Hint: "N[,N…]", Help: "the successes of the contestants after B counted at the table, in the order also= names them"}
	current := fray.Param{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Actor: true, Help: "the current character"}
	return append(engine.SharedDecls(spec),
		fray.CommandDecl{Name: "order", Send: fray.SendGM, Summary: "The GM's order for characters tied on Edge and role.",
			Args: []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Repeat: true}}},
		fray.CommandDecl{Name: "start", Send: fray.SendGM, Summary: "Begin the first page: turns by Edge, highest first (P-10)."},
		fray.CommandDecl{Name: "act", Send: fray.SendCurrent, Args: []fray.Param{current},
			Summary: "The current character takes an action; each after the first is −2d to the turn's rolls."},
		fray.CommandDecl{Name: "next", Send: fray.SendCurrent, Args: []fray.Param{current},
			Summary: "The current character's turn ends; after the last a new page begins."},
		fray.CommandDecl{Name: "initiative", Send: fray.SendCurrent,
			Summary: "Always refused: P&P rolls no initiative, turns go by Edge (Perception + the higher of Agility and Intellect).",
			Args:    []fray.Param{current, {Name: "WORD", Kind: fray.KindText, Optional: true, Repeat: true}}},
		fray.CommandDecl{Name: "check", Send: fray.SendNamed, Rolls: true,
			Summary: "A challenge roll against a static threshold or an opponent (vs=, who rolls VS_TRAIT, by default the same); vs=B,C same=yes: several with the same goal, whoever rolls more is the actor (P-1 … P-3).",
			Args:    []fray.Param{engine.ArgActor, trait, {Name: "VS_TRAIT", Kind: fray.KindStat, Optional: true, Help: "the opponent's trait"}},
			Opts: []fray.Param{
				{Name: KeyVs, Kind: fray.KindCombatant, Hint: "NAME[,NAME…]", Help: "the opponent, or several with the same goal"},
				threshold, mod, auto, vsMod, vsAuto,
				yesNo(KeySame, "yes: a same-goal roll, whoever rolls more is the actor"),
				successes,
				{Name: KeyVsSuccesses, Kind: fray.KindText, Hint: "N[,N…]", Help: "the opponents' successes counted at the table, in the order vs= names them"},
			},
			Examples: []string{"check Whisper intellect threshold=hard", `check Gatecrasher might vs="Citizen Soldier"`}},
		fray.CommandDecl{Name: "spend", Send: fray.SendNamed, Rolls: true, Answers: true,
			Summary: "Resolve after the last roll (a check, an attack, an exchange, an assist or a group action), by anyone who rolled in it: resolve=N, +1d a point (3 in a defining moment); reroll, the roll again keeping the better; or explode (checking your swing), exploding 6s; the roll is settled again (P-4, P-5).",
			Args:    []fray.Param{engine.ArgActor, {Name: "HOW", Kind: fray.KindChoice, Choices: []string{HowReroll, HowExplode}, Optional: true, Help: "1 Resolve, instead of resolve=N"}},
			Opts: []fray.Param{
				{Name: KeyResolve, Kind: fray.KindNumber, Min: 1, Max: dice.MaxDice, Help: "the Resolve points spent on dice"},
				successes,
			},
			Examples: []string{"spend Gatecrasher resolve=1", "spend Gatecrasher reroll"}},
		fray.CommandDecl{Name: "assist", Send: fray.SendNamed, Rolls: true,
			Summary:  "Help against Hard (2): +1d to NAME's next challenge roll of any kind (a check, an attack or resisting one, an exchange, a group action; not NAME's own assist roll) per 2 net successes, rounding up; only the best helper counts (P-6).",
			Args:     []fray.Param{{Name: "HELPER", Kind: fray.KindCombatant, Actor: true}, trait},
			Opts:     []fray.Param{{Name: KeyFor, Kind: fray.KindCombatant, Required: true, Help: "whom the helper assists"}, mod, auto, successes},
			Examples: []string{`assist "Citizen Soldier" might for=Gatecrasher`}},
		fray.CommandDecl{Name: "group", Send: fray.SendGM, Rolls: true,
			Summary: "A group action of 2 to " + strconv.Itoa(MaxGroup) + " characters: everyone rolls their own challenge roll (traits= gives each their own trait); net successes above 3 go to allies who failed, as the earners choose (give=) or else to the lowest first (P-7).",
			Args:    []fray.Param{trait, engine.ArgName, {Name: "NAME", Kind: fray.KindCombatant, Repeat: true}},
			Opts: []fray.Param{needed(threshold),
				{Name: KeySuccesses, Kind: fray.KindText, Hint: "N,N,…", Help: "each member's successes counted at the table, in order"},
				{Name: KeyMod, Kind: fray.KindText, Hint: "±Nd[,±Nd…]", Help: "the GM's modifier in dice, from -" + strconv.Itoa(MaxModifier) + "d to +" + strconv.Itoa(MaxModifier) + "d: one for everyone, or one a member in order"},
				{Name: KeyAuto, Kind: fray.KindText, Hint: "N|all[,…]", Help: "dice set aside, 1 automatic success per 2: one for everyone, or one a member in order"},
				{Name: KeyTraits, Kind: fray.KindText, Hint: "TRAIT,TRAIT,…", Help: "each member's own trait, in order, instead of TRAIT"},
				{Name: KeyGive, Kind: fray.KindText, Hint: "EARNER>ALLY:N,…|none", Help: "the earners' choice: who hands how many net successes above 3 to whom (none: they keep them); fray hands out nothing else"}},
			Examples: []string{`group might Gatecrasher "Citizen Soldier" threshold=daunting`, `group agility Whisper Gatecrasher traits=agility,might threshold=hard mod=-1d give=Gatecrasher>Whisper:2`}},
		fray.CommandDecl{Name: "contest", Send: fray.SendGM, Rolls: true,
			Summary: "A contest between A (rolling TRAIT) and B (rolling TRAIT_B, by default the same), and any more named by also= (rolling TRAIT_B); rolls its first exchange; the one with the most successes wins it and takes +2d into the next, the winner of the last decides (P-8).",
			Args: []fray.Param{{Name: "A", Kind: fray.KindCombatant}, {Name: "B", Kind: fray.KindCombatant}, trait,
				{Name: "TRAIT_B", Kind: fray.KindStat, Optional: true}},
			Opts: []fray.Param{{Name: KeyExchanges, Kind: fray.KindNumber, Min: 1, Max: MaxExchanges, Hint: "3", Default: "3", Help: "the exchanges it lasts"},
				mod, vsMod, auto, vsAuto, successes, vsSuccesses, also, alsoSuccesses},
			Examples: []string{"contest Gatecrasher Whisper agility", `contest Gatecrasher Whisper agility also="Citizen Soldier"`}},
		fray.CommandDecl{Name: "exchange", Send: fray.SendGM, Rolls: true,
			Summary: "Roll the contest's next exchange (every contestant rolls; the most successes alone wins it); each exchange may be a different part of the task, rolling other traits (TRAIT for A, TRAIT_B for B, by default the same as A's; without them, the contest's) (P-8).",
			Args: []fray.Param{{Name: "TRAIT", Kind: fray.KindStat, Optional: true, Help: "A's trait for this exchange: " + traitHelp},
				{Name: "TRAIT_B", Kind: fray.KindStat, Optional: true, Help: "B's trait for this exchange"}},
			Opts:     []fray.Param{mod, vsMod, auto, vsAuto, successes, vsSuccesses, alsoSuccesses},
			Examples: []string{"exchange might"}},
		fray.CommandDecl{Name: "defining", Send: fray.SendNamed,
			Summary:  "A hero's defining moment for their next challenge roll of any kind (a check or an attack, made or resisted, an assist, a group action, an exchange): 6s explode, 3 dice a Resolve; once a story, one hero a scene; then −1d to an ability of the task's kind (reduce=TRAIT), or the one-shot cost (oneshot) (P-9).",
			Args:     []fray.Param{engine.ArgActor, {Name: "COST", Kind: fray.KindChoice, Choices: []string{KeyOneShot}, Optional: true, Help: "the one-shot cost, instead of reduce="}},
			Opts:     []fray.Param{withTrait(KeyReduce, "the ability to give up 1d of afterwards")},
			Examples: []string{"defining Gatecrasher reduce=might", "defining Gatecrasher oneshot"}},
		fray.CommandDecl{Name: "scene", Send: fray.SendGM,
			Summary: "Begin a new scene: another hero may have a defining moment; a hero knocked out by a one-shot one comes to."},
		fray.CommandDecl{Name: "story", Send: fray.SendGM,
			Summary: "Begin a new story: every hero may again have a defining moment; a one-shot defining moment's cost is over (no more −2d, and the Health it took comes back)."},
		fray.CommandDecl{Name: "attack", Send: fray.SendNamed, Rolls: true,
			Summary: "An action: the trait against the defender's best defence (agility, might, toughness) unless def= names one; 1 Health per net success, one minion per net success; −2d per earlier action this turn (P-10).",
			Args:    []fray.Param{{Name: "ATTACKER", Kind: fray.KindCombatant, Actor: true}, {Name: "TARGET", Kind: fray.KindCombatant}},
			Opts: []fray.Param{needed(withTrait(KeyWith, "the attacker's trait: "+traitHelp)), withTrait(KeyDef, "the defender's trait"),
				mod, auto, vsMod, vsAuto, successes, vsSuccesses},
			Examples: []string{"attack Gatecrasher Vile with=might"}},
		fray.CommandDecl{Name: "damage", Send: fray.SendGM, Args: []fray.Param{engine.ArgName, amount},
			Summary:  "The GM takes N Health off (no more than is left; for minions, N of them defeated); 0 Health is defeated, as by an attack (P-10); no action.",
			Examples: []string{"damage Paragon 2"}},
		fray.CommandDecl{Name: "heal", Send: fray.SendGM, Args: []fray.Param{engine.ArgName, amount},
			Summary:  "The GM gives back N Health, never above the character's Health (for minions, N defeated ones back up); a hero unconscious after a one-shot defining moment stays so until the scene ends.",
			Examples: []string{`heal "Doctor Vile" 3`}},
		fray.CommandDecl{Name: engine.CmdOdds, Send: fray.SendQuery,
			Summary:  "The exact odds of a roll (check, attack, assist, group, contest, exchange, or spending Resolve on the last roll) before rolling: each narrative-control band (or traditional result), every modifier.",
			Args:     []fray.Param{{Name: "COMMAND", Kind: fray.KindText, Repeat: true, Hint: "COMMAND"}},
			Examples: []string{"odds spend Gatecrasher reroll"}},
	)
}

// traitHelp says what a trait is: the dice a roll takes.
const traitHelp = "an ability (agility, intellect, might, perception, toughness, willpower) or a power or talent on the sheet, its rank in dice"

// needed returns the option p, required.
func needed(p fray.Param) fray.Param { p.Required = true; return p }

// amount is the N of damage NAME N and heal NAME N: Health, or minions.
var amount = fray.Param{Name: "N", Kind: fray.KindNumber, Min: 1, Max: engine.MaxAmount, Help: "Health, or minions"}
