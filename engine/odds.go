package engine

import (
	"strings"

	"fray"
)

// CmdOdds shows the odds of a command's roll without rolling (SPEC E-6):
// "odds attack Ganyeka Monolith with=blast". It is a query: nothing is
// rolled, changed or logged.
const CmdOdds = "odds"

// OddsCommand returns the command an odds command asks about: its first
// positional word becomes the command's name. dice= and roll= are refused,
// since odds roll nothing.
func OddsCommand(cmd fray.Command) (fray.Command, error) {
	if len(cmd.Args) == 0 {
		return fray.Command{}, fray.Errorf(fray.EINVALID, "Usage: odds COMMAND … (the command whose roll to show the odds of, such as odds check Ann agility).")
	}
	for _, k := range []string{OptDice, OptRoll} {
		if _, ok := cmd.Opts[k]; ok {
			return fray.Command{}, fray.Errorf(fray.EINVALID, "odds rolls nothing, so %s= has nothing to give; leave it out.", k)
		}
	}
	inner := fray.Command{Name: strings.ToLower(cmd.Args[0]), Args: cmd.Args[1:], Opts: cmd.Opts}
	if len(inner.Args) == 0 {
		inner.Args = nil
	}
	switch inner.Name {
	case CmdOdds, CmdUndo, CmdRedo, CmdShow, CmdHistory, CmdLog, CmdHelp:
		return fray.Command{}, fray.Errorf(fray.EINVALID, "%s rolls no dice, so it has no odds.", inner.Name)
	}
	return inner, nil
}

// Odds returns the exact odds of the roll cmd (an odds command, or the
// command itself) would make now, without rolling, changing or logging
// anything. A system that does not implement fray.Oddser, or a command
// that rolls nothing, is refused with an EINVALID error.
func (e *Engine) Odds(cmd fray.Command) (fray.Odds, error) { return e.OddsAs(fray.GM, cmd) }

// OddsAs returns the odds of cmd as the viewer v asks for them: names
// resolve as v may name combatants (see DoAs).
func (e *Engine) OddsAs(v fray.Viewer, cmd fray.Command) (fray.Odds, error) {
	if enc := e.encounter(); enc != nil && !v.IsGM() {
		enc.Asker = &v
		defer func() { enc.Asker = nil }()
	}
	return e.odds(cmd)
}

func (e *Engine) odds(cmd fray.Command) (fray.Odds, error) {
	if cmd.Name == CmdOdds {
		var err error
		if cmd, err = OddsCommand(cmd); err != nil {
			return fray.Odds{}, err
		}
	}
	o, ok := e.sys.(fray.Oddser)
	if !ok {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s cannot show odds yet.", e.sys.Name())
	}
	d, err := e.checkDecl(cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	if !d.Rolls {
		return fray.Odds{}, fray.Errorf(fray.EINVALID, "%s rolls no dice, so it has no odds.", d.Name)
	}
	odds, err := o.Odds(e.st, cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	if odds.Command == "" {
		odds.Command = cmd.String()
	}
	return odds, nil
}
