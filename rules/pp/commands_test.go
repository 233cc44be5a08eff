package pp_test

import (
	"errors"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/pp"
)

// The engine asks P&P's Odds only of a command declared to roll; any
// other is an internal error to it (the suite checks that it gives no
// odds of one, rulestest.CheckDecided).
func TestOddsOfWhatDoesNotRoll(t *testing.T) {
	e := newPP(t, "")
	for _, d := range pp.New().Commands() {
		if d.Rolls || d.Name == engine.CmdOdds {
			continue
		}
		_, err := pp.New().Odds(e.State(), fray.Command{Name: d.Name})
		if fe := (*fray.Error)(nil); !errors.As(err, &fe) || fe.Code != fray.EINTERNAL {
			t.Errorf("%s: Odds answers %v, want an internal error", d.Name, err)
		}
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
