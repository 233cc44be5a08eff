package engine

import (
	"maps"
	"slices"
	"strings"

	"fray"
)

// Parameters many commands share, for systems' declarations.
var (
	// ArgName is a positional combatant's name.
	ArgName = fray.Param{Name: "NAME", Kind: fray.KindCombatant}
	// ArgActor is the combatant a command acts for.
	ArgActor = fray.Param{Name: "NAME", Kind: fray.KindCombatant, Actor: true}
	// OptNote is note=TEXT, the words a turn's history shows.
	OptNote = fray.Param{Name: "note", Kind: fray.KindText, Help: "the words the history shows"}
)

// YesNoWords lists the words ParseYesNo reads: a yes/no choice takes
// them all (fray.Param.Also).
var YesNoWords = []string{"yes", "y", "true", "on", "1", "no", "n", "false", "off", "0"}

// MaxMod bounds a modifier declared with OptMod.
const MaxMod = 100

// OptMod returns the mod= option: a whole number from -MaxMod to MaxMod
// added to a roll, shown in usage as hint ("N", "±N").
func OptMod(hint string) fray.Param {
	return fray.Param{Name: "mod", Kind: fray.KindNumber, Min: -MaxMod, Max: MaxMod, Hint: hint, Help: "a modifier to the roll"}
}

// ArgAmount is the N of damage NAME N and heal NAME N: from 0 to
// MaxAmount.
var ArgAmount = fray.Param{Name: "N", Kind: fray.KindNumber, Min: 0, Max: MaxAmount}

// SharedDecls declares the commands every system shares (add, remove,
// note, reveal, rename, condition, clear, set), as s shapes them: add
// takes the stats s names, before= and after= when s.Placement, and
// s.AddOpts; set takes the settings of s and the shared ones.
func SharedDecls(s Spec) []fray.CommandDecl {
	add := fray.CommandDecl{Name: CmdAdd, Send: fray.SendGM,
		Summary: "Add a combatant; stats by name: " + strings.Join(s.Stats, ", ") + ".",
		Args:    []fray.Param{{Name: "NAME", Kind: fray.KindText, Help: "the new combatant's name"}},
		Opts: []fray.Param{
			{Name: KeySide, Kind: fray.KindChoice, Choices: []string{fray.SidePC, fray.SideNPC}, Default: fray.SideNPC},
			{Name: KeyKind, Kind: fray.KindChoice, Choices: []string{fray.KindCharacter, fray.KindGroup, fray.KindEnvironment}, Default: fray.KindCharacter},
			{Name: KeyGroup, Kind: fray.KindText, Hint: "NAME", Help: "the group the combatant belongs to"},
			{Name: KeyAware, Kind: fray.KindChoice, Choices: []string{"no", "yes"}, Also: YesNoWords, Help: "no: present but without a turn"},
			{Name: KeyHidden, Kind: fray.KindChoice, Choices: []string{"yes", "no"}, Also: YesNoWords, Help: "yes: known to the GM alone"},
			{Name: KeyNotes, Kind: fray.KindText, Help: "for the GM"},
		},
		Examples: []string{`add "Grey Ghost" side=pc`}}
	if s.Placement {
		add.Opts = append(add.Opts,
			fray.Param{Name: KeyBefore, Kind: fray.KindCombatant, Help: "a place in the order: just before NAME"},
			fray.Param{Name: KeyAfter, Kind: fray.KindCombatant, Help: "a place in the order: just after NAME"})
	}
	for i, st := range s.Stats {
		add.Opts = append(add.Opts, fray.Param{Name: st, Kind: fray.KindNumber, Min: -1000, Max: 1000, Folded: i > 0})
	}
	add.Opts = append(add.Opts, s.AddOpts...)
	set := fray.CommandDecl{Name: CmdSet, Send: fray.SendGM}
	settings := settingsOf(s)
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		keys = append(keys, k+"="+strings.Join(settings[k], "|"))
		set.Opts = append(set.Opts, fray.Param{Name: k, Kind: fray.KindChoice, Choices: settings[k], Default: settings[k][0]})
	}
	set.Summary = "Change one setting: " + strings.Join(keys, ", ") + " (the first of each is the default)." +
		" With " + SettingPlayerDice + "=yes, players enter the faces they rolled at the table (dice, never a total or a modifier)."
	set.Examples = []string{"set " + exampleSetting(s)}
	return append([]fray.CommandDecl{add,
		{Name: CmdRemove, Send: fray.SendGM, Summary: "Remove a combatant from the encounter.", Args: []fray.Param{ArgName}},
		{Name: CmdNote, Send: fray.SendGM, Summary: "Record a note about a combatant for the GM.",
			Args: []fray.Param{ArgName, {Name: "TEXT", Kind: fray.KindText, Optional: true, Repeat: true}},
			Opts: []fray.Param{{Name: "text", Kind: fray.KindText, Folded: true}}},
		{Name: CmdReveal, Send: fray.SendGM, Summary: "Show a hidden combatant to the players.", Args: []fray.Param{ArgName}},
		{Name: CmdRename, Send: fray.SendGM, Summary: "Give a combatant another name; everything that refers to them follows.",
			Args: []fray.Param{ArgName, {Name: "NEWNAME", Kind: fray.KindText}}},
	}, append(ConditionDecls(), set)...)
}

// UntilHelp says what until= of a condition means (E-4).
const UntilHelp = "the turn edge it ends at: start, the next start of the holder's turn; end, the next end of it, the turn in progress counting (set during the holder's own turn, that turn's end); start:NAME and end:NAME, of NAME's turn; round, the end of this round; @ROUND or @+N, not before that round"

// ConditionDecls declares the condition commands.
func ConditionDecls() []fray.CommandDecl {
	return []fray.CommandDecl{
		{Name: CmdCondition, Send: fray.SendGM,
			Summary: "Put a combatant in a condition until an anchored turn edge (default: until cleared); mod= is added to the rolls on= names.",
			Args:    []fray.Param{ArgName, {Name: "CONDITION", Kind: fray.KindText}},
			Opts: []fray.Param{
				{Name: KeyUntil, Kind: fray.KindText, Choices: []string{"cleared", "start", "end", "round"}, Default: "cleared",
					Hint: "cleared|start|end|start:NAME|end:NAME|round][@ROUND|@+N", Help: UntilHelp},
				{Name: KeyMod, Kind: fray.KindNumber, Min: -100, Max: 100, Help: "added to the rolls on= names"},
				{Name: KeyOn, Kind: fray.KindChoice, Choices: []string{fray.AppliesAll, fray.AppliesAttack, fray.AppliesAttacked, fray.AppliesDefence, fray.AppliesCheck}, Default: fray.AppliesAll},
				{Name: KeyFrom, Kind: fray.KindText, Choices: []string{"now", "next"}, Hint: "now|next|ROUND", Default: "now"},
				{Name: KeyOnce, Kind: fray.KindChoice, Choices: []string{"yes", "no"}, Also: YesNoWords, Help: "ends after the first roll it changes"},
				{Name: KeyBy, Kind: fray.KindCombatant, Help: "who caused it"},
				{Name: "note", Kind: fray.KindText},
			},
			Examples: []string{"condition Bernie stunned until=end mod=-2"}},
		{Name: CmdClear, Send: fray.SendGM, Summary: "End a combatant's condition now.",
			Args: []fray.Param{ArgName, {Name: "CONDITION", Kind: fray.KindText}}},
	}
}

// EngineDecls declares the commands the engine handles itself, which no
// system declares: undo, redo and the queries.
func EngineDecls() []fray.CommandDecl {
	return []fray.CommandDecl{
		{Name: CmdUndo, Send: fray.SendGM, Summary: "Take back the last step, exactly."},
		{Name: CmdRedo, Send: fray.SendGM, Summary: "Restore the last step taken back."},
		{Name: CmdShow, Send: fray.SendQuery, Summary: "Show the order of play: this round with markers, the next round, the history."},
		{Name: CmdHistory, Send: fray.SendQuery, Summary: "Show the turns taken, round by round."},
		{Name: CmdLog, Send: fray.SendQuery, Summary: "Show the event log, dice included."},
		{Name: CmdHelp, Send: fray.SendQuery, Summary: "List the commands, or tell all about those named.",
			Args: []fray.Param{{Name: "COMMAND", Kind: fray.KindText, Optional: true, Repeat: true}}},
	}
}

// oddsDecl declares odds, for a system that does not declare its own.
var oddsDecl = fray.CommandDecl{Name: CmdOdds, Send: fray.SendQuery,
	Summary: "The exact odds of a command's roll with every modifier, without rolling.",
	Args:    []fray.Param{{Name: "COMMAND", Kind: fray.KindText, Repeat: true, Hint: "COMMAND"}}}

// Decls returns every command sys accepts: its own declarations, odds
// when it declares none, then EngineDecls. It is what help, the check of
// a command's words, GET /api/systems and the web's rule of who may send
// what read.
func Decls(sys fray.System) []fray.CommandDecl {
	ds := slices.Clone(sys.Commands())
	if _, ok := fray.FindDecl(ds, CmdOdds); !ok {
		ds = append(ds, oddsDecl)
	}
	return append(ds, EngineDecls()...)
}

// HelpDocs returns every help line of sys: one for each of Decls, then
// one for the table's dice on any command that rolls. It is what `fray
// play` shows for help.
func HelpDocs(sys fray.System) []fray.CommandDoc {
	ds := Decls(sys)
	docs := make([]fray.CommandDoc, 0, len(ds)+1)
	for _, d := range ds {
		docs = append(docs, d.Doc())
	}
	return append(docs, DiceHelp)
}

// DiceHelp is the line of help on the table's dice, which any command
// that rolls takes.
var DiceHelp = fray.CommandDoc{Usage: "… " + OptDice + "=6,3 | " + OptRoll + "=9",
	Summary: "On any command that rolls: the faces rolled at the table, every face of every roll the command makes, in the order it makes them (an attack that a defence meets at once takes the attack's faces, then the defence's: dice=3,2,6,4 in bpb against a defender already blocking or dodging), or, for a command's single roll, their total before bonuses, instead of the seeded roll."}

// checkDecl refuses cmd when no declaration of ds names its word, with a
// suggestion of the nearest word, or when its words do not fit the
// declaration (fray.CommandDecl.Check).
func checkDecl(sys fray.System, ds []fray.CommandDecl, cmd fray.Command) (fray.CommandDecl, error) {
	d, ok := fray.FindDecl(ds, cmd.Name)
	if !ok {
		return d, fray.Errorf(fray.EINVALID, "%s", UnknownCommand(sys, ds, cmd.Name))
	}
	return d, d.Check(cmd)
}

// UnknownCommand says that sys, whose commands ds declares, has no
// command word w, with the nearest word when one is near: `Bulletproof
// Blues has no command "atack"; did you mean attack?`.
func UnknownCommand(sys fray.System, ds []fray.CommandDecl, w string) string {
	msg := sys.Name() + " has no command \"" + Clip(w) + "\""
	if near := nearestWord(ds, w); near != "" {
		return msg + "; did you mean " + near + "?"
	}
	return msg + "; type help for the list."
}

// nearestWord returns the command word of ds nearest to w (see
// fray.Nearest); "" when none is near.
func nearestWord(ds []fray.CommandDecl, w string) string {
	words := make([]string, len(ds))
	for i, d := range ds {
		words[i] = d.Name
	}
	return fray.Nearest(words, w)
}
