package bpb_test

import (
	"testing"

	"fray"
	"fray/rules/bpb"
)

// The system's own declarations: who may send each command (as the web's
// table of actors had it before declarations: the GM's, the current
// actor's, or the named combatant's), the usage line help shows, and
// which commands roll and answer a waiting roll. Every other declaration
// is a shared one, the GM's.
func TestCommandDecls(t *testing.T) {
	type decl struct {
		usage          string
		send           fray.Send
		actor          string // the argument that names whom it acts for
		rolls, answers bool
	}
	want := map[string]decl{
		"order":      {usage: "order NAME …", send: fray.SendGM},
		"aware":      {usage: "aware NAME [before=NAME] [after=NAME]", send: fray.SendGM},
		"initiative": {usage: "initiative NAME [DIE]", send: fray.SendNamed, actor: "NAME", rolls: true},
		"start":      {usage: "start [order=declared|rolled]", send: fray.SendGM, rolls: true},
		"next":       {usage: "next [NAME] [note=TEXT]", send: fray.SendCurrent, actor: "NAME"},
		"delay":      {usage: "delay [NAME]", send: fray.SendCurrent, actor: "NAME"},
		"interrupt":  {usage: "interrupt NAME [before=NAME]", send: fray.SendNamed, actor: "NAME"},
		"force":      {usage: "force NAME [note=TEXT]", send: fray.SendNamed, actor: "NAME"},
		"reorder":    {usage: "reorder NAME [after=NAME] [before=NAME]", send: fray.SendGM},
		"check": {usage: "check NAME STAT [vs=RANK] [difficulty=challenging|N] [expertise=yes|SKILL] [mod=N]",
			send: fray.SendNamed, actor: "NAME", rolls: true},
		"attack": {usage: "attack ATTACKER TARGET with=POWER [choose=overwhelming|smashing|staggering] [mod=N] [rank=N] [range=close|ranged] [endurance=no]",
			send: fray.SendNamed, actor: "ATTACKER", rolls: true},
		"block":    {usage: "block NAME [with=POWER] [similar=yes] [mod=N] [for=NAME]", send: fray.SendNamed, actor: "NAME", rolls: true, answers: true},
		"dodge":    {usage: "dodge NAME [with=POWER] [similar=yes] [mod=N] [for=NAME]", send: fray.SendNamed, actor: "NAME", rolls: true, answers: true},
		"take":     {usage: "take [NAME] [for=NAME]", send: fray.SendNamed, actor: "NAME"},
		"distract": {usage: "distract NAME OPPONENT [mod=N]", send: fray.SendNamed, actor: "NAME", rolls: true},
		"damage":   {usage: "damage NAME N", send: fray.SendGM},
		"heal":     {usage: "heal NAME N", send: fray.SendGM},
		"award":    {usage: "award NAME showed|enthusiastic|concluded|lowest|roleplayed|clever|flat [points=2] [override=yes]", send: fray.SendGM},
		"spend":    {usage: "spend NAME N on=STAT|POWER|expertise:SKILL [new=yes] [range=close|ranged] [damage=lethal|stunning]", send: fray.SendNamed, actor: "NAME"},
		"control":  {usage: "control VEHICLE [by=NAME]", send: fray.SendGM},
		"move":     {usage: "move VEHICLE [note=TEXT]", send: fray.SendCurrent},
		"fall":     {usage: "fall NAME [note=TEXT]", send: fray.SendGM},
		"odds":     {usage: "odds COMMAND …", send: fray.SendQuery},
	}
	seen := map[string]bool{}
	for _, d := range bpb.New().Commands() {
		seen[d.Name] = true
		w, ok := want[d.Name]
		if !ok {
			if d.Send != fray.SendGM || d.Rolls {
				t.Errorf("%s: a shared command, yet send %s, rolls %v", d.Name, d.Send, d.Rolls)
			}
			continue
		}
		actor := ""
		for _, p := range d.Args {
			if p.Actor {
				actor = p.Name
			}
		}
		got := decl{usage: d.Usage(), send: d.Send, actor: actor, rolls: d.Rolls, answers: d.Answers}
		if got != w {
			t.Errorf("%s:\n got %+v\nwant %+v", d.Name, got, w)
		}
	}
	for w := range want {
		if !seen[w] {
			t.Errorf("%s is not declared", w)
		}
	}
}
