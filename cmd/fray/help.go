package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"fray"
	"fray/engine"
)

// helpFor returns the help lines of the command words named, or all of
// them when none is; a word no declaration names is refused, with the
// nearest word when one is near.
func (p *player) helpFor(words []string) ([]fray.CommandDoc, error) {
	ds, err := p.declsFor(words)
	if err != nil {
		return nil, err
	}
	out := make([]fray.CommandDoc, 0, len(ds)+1)
	for _, d := range ds {
		out = append(out, d.Doc())
	}
	if len(words) == 0 {
		out = append(out, engine.DiceHelp)
	}
	return out, nil
}

// declsFor returns the declarations of the command words named, or of
// every command when none is.
func (p *player) declsFor(words []string) ([]fray.CommandDecl, error) {
	all := p.e.Decls()
	if len(words) == 0 {
		return all, nil
	}
	var out []fray.CommandDecl
	for _, w := range words {
		d, ok := fray.FindDecl(all, w)
		if !ok {
			return nil, fray.Errorf(fray.ENOTFOUND, "%s", engine.UnknownCommand(p.e.System(), all, w))
		}
		out = append(out, d)
	}
	return out, nil
}

// writeHelp prints help: a line for each command, grouped (the system's
// own, those every system shares, the engine's), or, for commands named,
// everything their declarations say.
func (p *player) writeHelp(words []string) bool {
	sys := p.e.System()
	if len(words) == 0 {
		own, shared, eng := helpGroups(p.e.Decls())
		width := 0
		for _, d := range p.e.Decls() {
			width = max(width, utf8.RuneCountInString(d.Name))
		}
		for _, g := range []struct {
			title string
			ds    []fray.CommandDecl
		}{
			{sys.Name() + " (" + sys.ID() + "):", own},
			{"Shared by every system:", shared},
			{"Undo, redo and questions:", eng},
		} {
			if len(g.ds) == 0 {
				continue
			}
			fmt.Fprintf(p.out, "%s\n", g.title)
			for _, d := range g.ds {
				pad := strings.Repeat(" ", width-utf8.RuneCountInString(d.Name))
				fmt.Fprintf(p.out, "  %s%s  %s\n", d.Name, pad, clipWords(firstSentence(d.Summary), helpWidth-width-4))
			}
		}
		// The example: attack where the system has it, else its first
		// command that rolls.
		example := engine.CmdUndo
		for _, d := range slices.Backward(own) {
			if d.Rolls && example != "attack" {
				example = d.Name
			}
		}
		fmt.Fprintf(p.out, "Rolls take the table's dice with %s=6,3 (the faces) or %s=9 (the total).\n", engine.OptDice, engine.OptRoll)
		fmt.Fprintf(p.out, "Type help COMMAND (help %s) for its arguments, options and examples.\n", example)
		return true
	}
	ds, err := p.declsFor(words)
	if err != nil {
		return p.refuse(err)
	}
	for _, d := range ds {
		fmt.Fprint(p.out, describeDecl(d))
	}
	return true
}

// helpWidth is the width plain help keeps its lines to, in characters.
const helpWidth = 80

// sharedWords and engineWords are the command words every system shares
// (engine.SharedDecls) and those the engine declares itself (undo, redo,
// the queries and odds), for help's groups.
var (
	sharedWords = declWords(engine.SharedDecls(engine.Spec{}))
	engineWords = append(declWords(engine.EngineDecls()), engine.CmdOdds)
)

func declWords(ds []fray.CommandDecl) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Name
	}
	return out
}

// helpGroups splits ds into the system's own commands, those every
// system shares and the engine's, each in the order of ds.
func helpGroups(ds []fray.CommandDecl) (own, shared, eng []fray.CommandDecl) {
	for _, d := range ds {
		switch {
		case slices.Contains(engineWords, d.Name):
			eng = append(eng, d)
		case slices.Contains(sharedWords, d.Name):
			shared = append(shared, d)
		default:
			own = append(own, d)
		}
	}
	return own, shared, eng
}

// firstSentence returns the first sentence of s, without its full stop:
// up to the first ". " outside parentheses.
func firstSentence(s string) string {
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case '.':
			if depth <= 0 && (i+1 == len(s) || s[i+1] == ' ') {
				return s[:i]
			}
		}
	}
	return s
}

// clipWords shortens s to at most n characters at a space, marking the
// cut with "…".
func clipWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)[:max(n-1, 1)]
	cut := string(rs)
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// describeDecl writes all a declaration says, for help COMMAND.
func describeDecl(d fray.CommandDecl) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s\n      %s\n", d.Usage(), d.Summary)
	for _, a := range d.Args {
		fmt.Fprintf(&b, "    %-14s %s\n", a.Name, paramText(a, true))
	}
	for _, o := range d.Opts {
		fmt.Fprintf(&b, "    %-14s %s\n", o.Name+"=", paramText(o, false))
	}
	fmt.Fprintf(&b, "    %s\n", sendText(d))
	for _, ex := range d.Examples {
		fmt.Fprintf(&b, "    example: %s\n", ex)
	}
	return b.String()
}

// paramText says in a line what an argument or an option takes.
func paramText(p fray.Param, positional bool) string {
	var parts []string
	switch p.Kind {
	case fray.KindCombatant:
		parts = append(parts, "a combatant's name")
	case fray.KindStat:
		parts = append(parts, "a stat")
	case fray.KindPower:
		parts = append(parts, "a power or weapon")
	case fray.KindNumber:
		n := "a whole number"
		if p.Max > p.Min {
			n += " from " + strconv.Itoa(p.Min) + " to " + strconv.Itoa(p.Max)
		}
		if len(p.Choices) > 0 {
			n += ", or " + strings.Join(p.Choices, ", ")
		}
		parts = append(parts, n)
	case fray.KindChoice:
		parts = append(parts, "one of "+strings.Join(p.Choices, ", "))
	case fray.KindDice:
		parts = append(parts, "the faces rolled at the table (6,3) or their total")
	default:
		t := "text"
		if len(p.Choices) > 0 {
			t += " such as " + strings.Join(p.Choices, ", ")
		}
		parts = append(parts, t)
	}
	if p.Help != "" {
		parts = append(parts, p.Help)
	}
	switch {
	case positional && p.Repeat:
		parts = append(parts, "one or more")
	case positional && p.Optional:
		parts = append(parts, "may be left out")
	case !positional && p.Required:
		parts = append(parts, "required")
	case p.Default != "":
		parts = append(parts, "default "+p.Default)
	}
	return strings.Join(parts, "; ")
}

// sendText says who may send the command.
func sendText(d fray.CommandDecl) string {
	s := ""
	switch d.Send {
	case fray.SendGM:
		s = "The GM's command."
	case fray.SendQuery:
		s = "Anyone may ask; it changes nothing."
	case fray.SendCurrent:
		s = "The GM or the current combatant's player may send it"
		for _, a := range d.Args {
			if a.Actor {
				s += " (or, naming " + a.Name + ", that combatant's player)"
			}
		}
		s += "."
	case fray.SendNamed:
		for _, a := range d.Args {
			if a.Actor {
				s = "The GM or the player of " + a.Name + " may send it."
			}
		}
	}
	if d.Rolls {
		s += " It rolls: dice= or roll= give the table's dice, and odds " + d.Name + " … shows the odds first."
	}
	return s
}
