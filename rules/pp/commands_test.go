package pp_test

import (
	"errors"
	"strconv"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/pp"
)

// fitting returns a command of d's word whose words fit the declaration:
// its required arguments and options, each a word of its kind.
func fitting(d fray.CommandDecl) fray.Command {
	word := func(p fray.Param) string {
		switch p.Kind {
		case fray.KindChoice:
			return p.Choices[0]
		case fray.KindNumber:
			return strconv.Itoa(max(p.Min, 1))
		case fray.KindCombatant:
			return "Whisper"
		case fray.KindStat:
			return "might"
		}
		return "x"
	}
	cmd := fray.Command{Name: d.Name, Opts: map[string]string{}}
	for _, p := range d.Args {
		if !p.Optional {
			cmd.Args = append(cmd.Args, word(p))
		}
	}
	for _, p := range d.Opts {
		if p.Required {
			cmd.Opts[p.Name] = word(p)
		}
	}
	return cmd
}

// Every command P&P declares is decided (a declared word Decide does not
// know is an internal error), and Odds answers exactly those declared to
// roll.
func TestCommandsDecided(t *testing.T) {
	for _, d := range pp.New().Commands() {
		if d.Name == engine.CmdOdds {
			continue
		}
		cmd := fitting(d)
		t.Run(cmd.String(), func(t *testing.T) {
			if err := d.Check(cmd); err != nil {
				t.Fatalf("the command does not fit its own declaration: %v", err)
			}
			e := newPP(t, "")
			_, err := e.Do(cmd)
			if fe := (*fray.Error)(nil); errors.As(err, &fe) && fe.Code == fray.EINTERNAL {
				t.Errorf("declared but not decided: %v", err)
			}
			// The engine asks Odds only of a command declared to roll;
			// any other is an internal error to it.
			_, err = pp.New().Odds(e.State(), cmd)
			if fe := (*fray.Error)(nil); errors.As(err, &fe) && fe.Code == fray.EINTERNAL == d.Rolls {
				t.Errorf("Rolls is %v, but Odds says %v", d.Rolls, err)
			}
		})
	}
}

// Who may send each command is what the web's table said before the
// declarations (web/actor.go at 2511094): the GM's alone unless listed;
// act, next and initiative the current character's, or whom their
// optional NAME names; check, spend, assist, defining and attack the
// player's of whom their first word names. Only spend answers a roll
// already made.
func TestCommandsSend(t *testing.T) {
	players := map[string]fray.Send{
		"act": fray.SendCurrent, "next": fray.SendCurrent, "initiative": fray.SendCurrent,
		"check": fray.SendNamed, "spend": fray.SendNamed, "assist": fray.SendNamed,
		"defining": fray.SendNamed, "attack": fray.SendNamed,
		engine.CmdOdds: fray.SendQuery,
	}
	for _, d := range pp.New().Commands() {
		want, ok := players[d.Name]
		if !ok {
			want = fray.SendGM
		}
		if d.Send != want {
			t.Errorf("%s: Send %q, want %q", d.Name, d.Send, want)
		}
		var actors []int
		for i, p := range d.Args {
			if p.Actor {
				actors = append(actors, i)
			}
		}
		if player := want == fray.SendCurrent || want == fray.SendNamed; player != (len(actors) == 1 && actors[0] == 0) {
			t.Errorf("%s: Actor arguments %v, want the first alone for a player's command", d.Name, actors)
		}
		if want == fray.SendCurrent && len(actors) > 0 && !d.Args[0].Optional {
			t.Errorf("%s: the current character's command has a required NAME", d.Name)
		}
		if d.Answers != (d.Name == "spend") {
			t.Errorf("%s: Answers %v", d.Name, d.Answers)
		}
	}
}
