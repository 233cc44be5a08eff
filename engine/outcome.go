package engine

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
)

// SettingPlayerDice is the setting every system shares that lets players
// enter the faces they rolled at the table: set player_dice=yes. Even
// then a player gives faces only, with dice=; never a total or a
// modifier. The default is no: the server rolls a player's dice.
const SettingPlayerDice = "player_dice"

// sharedSettings lists, by key, the settings set accepts in every system
// besides the system's own Spec.Settings, the default value first.
var sharedSettings = map[string][]string{
	SettingPlayerDice: {"no", "yes"},
}

// settingsOf returns the settings s accepts: its own and the shared ones.
// A system's own setting keeps its values should it have the same key.
func settingsOf(s Spec) map[string][]string {
	all := maps.Clone(sharedSettings)
	maps.Copy(all, s.Settings)
	return all
}

// PlayerDice reports whether settings, an encounter's (fray.Encounter.Settings
// or fray.View.Settings), let players enter their own dice with dice=.
func PlayerDice(settings map[string]string) bool {
	return settings[SettingPlayerDice] == "yes"
}

// OutcomeValues says which values of an outcome option set the outcome.
type OutcomeValues int

const (
	// EveryValue means that any value sets the outcome: mod=+2.
	EveryValue OutcomeValues = iota
	// NumberValue means that a whole number sets it (vs=12, an opposing
	// rank); any other value names a combatant (vs=Bear), whose sheet
	// gives the number.
	NumberValue
	// YesNoValue means that yes or no sets it (expertise=yes, +3 the
	// sheet does not vouch for); any other value names an entry the
	// sheet holds (expertise=Stealth), which the rules check.
	YesNoValue
)

// Where the rules take an outcome from when no option gives it.
const (
	FromGM    = "the GM"     // a modifier, a difficulty, a ruling
	FromSheet = "the sheets" // a rank, a Level, what a power does
	FromDice  = "the dice"   // faces, totals, successes counted
)

// OutcomeKey is one option key that sets an outcome: a number or a ruling
// the rules would otherwise take from the sheets, the GM or the dice.
type OutcomeKey struct {
	// Key is the option's key, such as "mod".
	Key string
	// Sets says what the option sets, for the refusal: "a modifier".
	Sets string
	// From is where the rules take it from otherwise: FromGM, FromSheet
	// or FromDice.
	From string
	// Values says which of the option's values set the outcome.
	Values OutcomeValues
	// Bare marks a key attack also takes as a bare word after the
	// attacker and the target (vv: attack A B with=Claws unaware).
	Bare bool
	// Table marks dice=, which a player may give when the encounter's
	// player_dice setting is yes.
	Table bool
}

// OutcomeKeys lists, by key, the options of the five systems (and of
// engine's dice= and roll=) that set an outcome. From a player token
// every one is refused (see CheckPlayerOptions): a player's rolls take
// their numbers from the sheets, the GM and the server's dice. Options
// that choose what to do — the power, weapon or trait used (with=), the
// target (vs=NAME, for=), the defence named (defence=, def=), the shots,
// the range and facing on the table, the dice set aside (auto=), Resolve
// or Power spent — are not listed and stay the player's.
var OutcomeKeys = []OutcomeKey{
	{Key: "chance", Sets: "the percent chance of a check", From: FromGM},                           // vv check
	{Key: "cover", Sets: "the share of the target behind cover", From: FromGM},                     // vv attack
	{Key: "cover-protection", Sets: "the cover's protection", From: FromGM},                        // vv attack
	{Key: OptDice, Sets: "the faces rolled", From: FromDice, Table: true},                          // every roll
	{Key: "difficulty", Sets: "the difficulty", From: FromGM},                                      // bpb, queue check
	{Key: "dmod", Sets: "a modifier to the defence", From: FromGM},                                 // cinematic
	{Key: "endurance", Sets: "whether the power inflicts Endurance damage", From: FromSheet},       // bpb attack
	{Key: "expertise", Sets: "+3 for an expertise not named", From: FromSheet, Values: YesNoValue}, // bpb check
	{Key: "hit", Sets: "the ruling on the hit", From: FromGM},                                      // queue attack
	{Key: "immobile", Sets: "a target who cannot defend", From: FromGM, Bare: true},                // vv attack
	{Key: "inanimate", Sets: "the target's Level", From: FromSheet, Bare: true},                    // vv attack
	{Key: "injury", Sets: "the Injury a hit gives", From: FromGM},                                  // queue attack (the one hurt chooses)
	{Key: "knockback", Sets: "whether the attack knocks back", From: FromGM},                       // vv attack
	{Key: "minutes", Sets: "the minutes since the wound", From: FromGM},                            // cinematic test
	{Key: "mod", Sets: "a modifier to the roll", From: FromGM},                                     // every system
	{Key: "muscle", Sets: "whether the attack may be rolled with", From: FromGM},                   // vv attack
	{Key: "nonsentient", Sets: "the target's Level", From: FromSheet, Bare: true},                  // vv attack
	{Key: "noticed", Sets: "the defender's Perception roll", From: FromGM},                         // vv attack
	{Key: "rank", Sets: "a rank the sheet does not give", From: FromSheet},                         // bpb attack
	{Key: OptRoll, Sets: "the total of the dice", From: FromDice},                                  // every roll
	{Key: "similar", Sets: "the GM's leave to use a like power", From: FromGM},                     // bpb block, dodge
	{Key: "successes", Sets: "the successes counted", From: FromDice},                              // pp
	{Key: "threshold", Sets: "the threshold", From: FromGM},                                        // pp check, group
	{Key: "unaware", Sets: "a target unaware of the attacker", From: FromGM, Bare: true},           // vv, cinematic attack
	{Key: "vs", Sets: "an opposing rank or value", From: FromGM, Values: NumberValue},              // bpb, cinematic check
	{Key: "vs_mod", Sets: "the opponent's modifier", From: FromGM},                                 // pp
	{Key: "vs_successes", Sets: "the opponent's successes counted", From: FromDice},                // pp
}

// Command words CheckPlayerOptions reads the positional words of.
const (
	cmdAttack     = "attack"
	cmdInitiative = "initiative"
)

// CheckPlayerOptions returns nil when a player may send cmd as far as its
// outcome goes, and otherwise an EFORBIDDEN *fray.Error naming the first
// option (in key order) that sets an outcome (see OutcomeKeys). settings
// are the encounter's (fray.Encounter.Settings or fray.View.Settings):
// with player_dice=yes (SettingPlayerDice) dice= passes. It also refuses
// an attack's bare words among OutcomeKeys (vv: unaware) and the die of
// initiative NAME DIE, given as a word.
//
// "odds COMMAND …" passes whatever its options: it rolls, changes and
// logs nothing, so it changes no outcome, and a player may ask what a
// modifier or a difficulty would make of a roll (its dice= and roll= are
// refused to everyone, see OddsCommand). Whether a command acts for the
// player's character is not this function's business (see web's
// allowed), nor what odds a player may see (web's RedactOdds).
func CheckPlayerOptions(settings map[string]string, cmd fray.Command) error {
	if cmd.Name == CmdOdds {
		return nil
	}
	dice := PlayerDice(settings)
	for _, k := range slices.Sorted(maps.Keys(cmd.Opts)) {
		o, ok := outcomeKey(k)
		if !ok || !o.sets(cmd.Opts[k]) || (o.Table && dice) {
			continue
		}
		what := k + "="
		if o.Values != EveryValue {
			what += Clip(cmd.Opts[k])
		}
		return o.refuse(what, dice)
	}
	if cmd.Name == cmdAttack && len(cmd.Args) > 2 {
		for _, w := range cmd.Args[2:] {
			if o, ok := outcomeKey(strings.ToLower(w)); ok && o.Bare {
				return o.refuse(o.Key, dice)
			}
		}
	}
	if cmd.Name == cmdInitiative && len(cmd.Args) > 1 {
		if dice {
			return fray.Errorf(fray.EFORBIDDEN, "Only the GM may enter initiative dice as a word; give the faces you rolled with dice=, such as initiative %s dice=%s.", quoteArg(cmd.Arg(0)), Clip(cmd.Arg(1)))
		}
		return fray.Errorf(fray.EFORBIDDEN, "Only the GM may enter initiative dice; the server rolls your dice (the GM may let players enter theirs with set %s=yes).", SettingPlayerDice)
	}
	return nil
}

// outcomeKey returns the entry of OutcomeKeys for key.
func outcomeKey(key string) (OutcomeKey, bool) {
	for _, o := range OutcomeKeys {
		if o.Key == key {
			return o, true
		}
	}
	return OutcomeKey{}, false
}

// sets reports whether the value v of the option sets its outcome.
func (o OutcomeKey) sets(v string) bool {
	switch o.Values {
	case NumberValue:
		_, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(v), "+"))
		return err == nil
	case YesNoValue:
		_, err := ParseYesNo(o.Key, v)
		return err == nil
	}
	return true
}

// refuse returns the refusal of what (mod=, vs=12, unaware) from a player;
// dice says whether the encounter lets players enter their dice.
func (o OutcomeKey) refuse(what string, dice bool) error {
	switch {
	case o.Table:
		return fray.Errorf(fray.EFORBIDDEN, "Only the GM may set %s (%s) here; the server rolls your dice (the GM may let players enter theirs with set %s=yes).", what, o.Sets, SettingPlayerDice)
	case o.From == FromDice && dice:
		return fray.Errorf(fray.EFORBIDDEN, "Only the GM may set %s (%s); give the faces you rolled with %s= instead.", what, o.Sets, OptDice)
	case o.From == FromDice:
		return fray.Errorf(fray.EFORBIDDEN, "Only the GM may set %s (%s); the server rolls your dice.", what, o.Sets)
	}
	return fray.Errorf(fray.EFORBIDDEN, "Only the GM may set %s (%s): the rules take it from %s; the server rolls your dice.", what, o.Sets, o.From)
}

// quoteArg quotes a name as a command line would need it.
func quoteArg(s string) string {
	return fray.Command{Name: "x", Args: []string{Clip(s)}}.String()[2:]
}
