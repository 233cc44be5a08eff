package rulestest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"fray"
	"fray/engine"
)

// kinds lists every fray.Kind a declaration may use.
var kinds = []fray.Kind{fray.KindCombatant, fray.KindStat, fray.KindPower, fray.KindNumber, fray.KindChoice, fray.KindText, fray.KindDice}

// sends lists every fray.Send a declaration may use.
var sends = []fray.Send{fray.SendGM, fray.SendQuery, fray.SendCurrent, fray.SendNamed}

// CheckDecls reports what is wrong with the command declarations of sys
// (engine.Decls): a word declared twice or not in lower case, no
// summary, an unknown kind or send, a choice with no choices, a number
// whose bounds are upside down, an option repeated, an optional or
// repeated argument before a required one, a repeated one that is not
// last, an Actor argument on a GM's command or a query, a SendNamed one
// without an Actor argument, every shared command missing, or an example
// that does not parse or whose words do not fit its declaration.
func CheckDecls(sys fray.System) error {
	var errs []error
	bad := func(d fray.CommandDecl, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", d.Name, fmt.Sprintf(format, args...)))
	}
	ds := engine.Decls(sys)
	seen := map[string]bool{}
	for _, d := range ds {
		if d.Name == "" || d.Name != strings.ToLower(d.Name) || strings.ContainsAny(d.Name, " =\"") {
			bad(d, "the word must be lower case, with no blank, = or quote")
		}
		if seen[d.Name] {
			bad(d, "declared twice")
		}
		seen[d.Name] = true
		if strings.TrimSpace(d.Summary) == "" {
			bad(d, "no summary")
		}
		if !slices.Contains(sends, d.Send) {
			bad(d, "send %q is not one of %v", d.Send, sends)
		}
		actors, optional := 0, false
		for i, p := range d.Args {
			checkParam(d, p, bad)
			if p.Actor {
				actors++
			}
			if p.Repeat && i != len(d.Args)-1 {
				bad(d, "%s repeats but is not the last argument", p.Name)
			}
			if p.Required {
				bad(d, "%s: Required is for options; an argument is required unless Optional", p.Name)
			}
			if optional && !p.Optional && p.Repeat {
				bad(d, "%s: a required repeated argument after an optional one", p.Name)
			}
			optional = optional || p.Optional
		}
		switch {
		case actors > 0 && (d.Send == fray.SendGM || d.Send == fray.SendQuery):
			bad(d, "an Actor argument on a command a player never sends for a combatant")
		case actors == 0 && d.Send == fray.SendNamed:
			bad(d, "SendNamed needs an Actor argument")
		case actors > 1:
			bad(d, "%d Actor arguments; mark one (a repeated one names several)", actors)
		}
		keys := map[string]bool{}
		for _, p := range d.Opts {
			checkParam(d, p, bad)
			if keys[p.Name] {
				bad(d, "the option %s= is declared twice", p.Name)
			}
			keys[p.Name] = true
			if p.Name != strings.ToLower(p.Name) || p.Name == engine.OptDice || p.Name == engine.OptRoll {
				bad(d, "the option %s= must be lower case and not dice= or roll= (the engine's)", p.Name)
			}
			if p.Optional || p.Repeat || p.Actor {
				bad(d, "the option %s= is marked Optional, Repeat or Actor, which only arguments are", p.Name)
			}
		}
		for _, ex := range d.Examples {
			cmd, err := engine.ParseCommand(ex)
			if err == nil && cmd.Name != d.Name {
				err = errors.New("it is not of this command")
			}
			if err == nil {
				err = d.Check(engine.WithoutDice(cmd))
			}
			if err == nil && cmd.Name == engine.CmdOdds {
				// The command asked about fits its own declaration.
				inner, ierr := engine.OddsCommand(cmd)
				if err = ierr; err == nil {
					if id, ok := fray.FindDecl(ds, inner.Name); !ok {
						err = fmt.Errorf("%s is not declared", inner.Name)
					} else if err = id.Check(inner); err == nil && !id.Rolls {
						err = fmt.Errorf("%s does not roll", inner.Name)
					}
				}
			}
			if err != nil {
				bad(d, "example %q: %v", ex, err)
			}
		}
	}
	for _, w := range []string{engine.CmdAdd, engine.CmdRemove, engine.CmdSet, engine.CmdNote, engine.CmdReveal, engine.CmdRename, engine.CmdCondition, engine.CmdClear, engine.CmdOdds} {
		if !seen[w] {
			errs = append(errs, fmt.Errorf("the shared command %s is not declared (engine.SharedDecls)", w))
		}
	}
	return errors.Join(errs...)
}

// checkParam reports what is wrong with one argument or option.
func checkParam(d fray.CommandDecl, p fray.Param, bad func(fray.CommandDecl, string, ...any)) {
	if p.Name == "" {
		bad(d, "a parameter has no name")
	}
	if !slices.Contains(kinds, p.Kind) {
		bad(d, "%s: kind %q is not one of %v", p.Name, p.Kind, kinds)
	}
	if p.Kind == fray.KindChoice && len(p.Choices) == 0 {
		bad(d, "%s: a choice with no choices", p.Name)
	}
	if p.Max < p.Min {
		bad(d, "%s: bounds %d to %d are upside down", p.Name, p.Min, p.Max)
	}
	if (p.Min != 0 || p.Max != 0) && p.Kind != fray.KindNumber {
		bad(d, "%s: bounds on a %s", p.Name, p.Kind)
	}
}
