package main

import (
	"fmt"
	"strconv"
	"strings"

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

// writeHelp prints help: a line of usage and the summary for each
// command, or, for commands named, everything their declarations say.
func (p *player) writeHelp(words []string) bool {
	sys := p.e.System()
	if len(words) == 0 {
		help, _ := p.helpFor(nil)
		fmt.Fprintf(p.out, "%s (%s):\n", sys.Name(), sys.ID())
		for _, d := range help {
			fmt.Fprintf(p.out, "  %s\n      %s\n", d.Usage, d.Summary)
		}
		fmt.Fprintf(p.out, "Type help COMMAND for its arguments, options and examples.\n")
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
