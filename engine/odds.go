package engine

import (
	"errors"
	"math/rand/v2"
	"slices"
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
	if fe := e.refusal(d, cmd); fe != nil {
		odds.Refused, odds.RefusedAbout, odds.RefusedNames = fe.Message, fe.About, fe.Names
	}
	return odds, nil
}

// refusal returns why cmd, declared by d, would be refused now, or nil
// when it would be accepted: the odds of a roll that cannot be made now
// (an attack off the attacker's turn) say so. Deciding changes nothing,
// and the dice it rolls come from a source of their own, not the
// encounter's. A command that takes the dice rolled at the table as an
// argument (initiative NAME DIE) is not decided: without them it is
// always refused, and its odds are those of the dice it asks for.
func (e *Engine) refusal(d fray.CommandDecl, cmd fray.Command) *fray.Error {
	if slices.ContainsFunc(d.Args, func(p fray.Param) bool { return p.Kind == fray.KindDice }) {
		return nil
	}
	r, cmd, err := newRoller(rand.New(rand.NewPCG(0, 0)), cmd)
	if err == nil {
		_, err = e.sys.Decide(e.st, cmd, r)
	}
	if err == nil {
		return nil
	}
	var fe *fray.Error
	if !errors.As(err, &fe) || fe.Code == fray.EINTERNAL {
		return nil
	}
	return fe
}
