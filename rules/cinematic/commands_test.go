package cinematic_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray/engine"
	"fray/rules/cinematic"
	"fray/rules/rulestest"
)

// TestCommandSenders pins who may send each command, as web/actor.go's
// table said it before the declarations replaced it: the GM's, a query,
// the current character's (attack and act name the target, never the
// actor), or the named character's (the Actor argument, "?" when it may be
// left out).
func TestCommandSenders(t *testing.T) {
	want := map[string]string{
		"add": "gm", "remove": "gm", "note": "gm", "reveal": "gm", "rename": "gm", "condition": "gm", "clear": "gm", "set": "gm",
		"order": "gm", "start": "gm", "damage": "gm", "heal": "gm", "complication": "gm", "stabilise": "gm", "stabilize": "gm", "engage": "gm",
		"odds":   "query",
		"attack": "current", "act": "current",
		"next": "current NAME?",
		"full": "named NAME", "defend": "named NAME", "check": "named NAME", "test": "named NAME", "free": "named NAME",
		"kipup": "named NAME", "stand": "named NAME", "dodge": "named NAME", "parry": "named NAME", "take": "named NAME",
		"reload": "named NAME", "spend": "named NAME",
	}
	got := map[string]string{}
	for _, d := range cinematic.New().Commands() {
		s := string(d.Send)
		for _, p := range d.Args {
			if p.Actor {
				s += " " + p.Name
				if p.Optional {
					s += "?"
				}
			}
		}
		got[d.Name] = s
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("senders (-want +got):\n%s", diff)
	}
}

// TestCommandRolls pins the commands that roll (and so have odds) and
// those whose odds answer a roll that waits.
func TestCommandRolls(t *testing.T) {
	var rolls, answers []string
	for _, d := range cinematic.New().Commands() {
		if d.Rolls {
			rolls = append(rolls, d.Name)
		}
		if d.Answers {
			answers = append(answers, d.Name)
		}
	}
	if diff := cmp.Diff([]string{"attack", "dodge", "parry", "take", "check", "test", "free", "kipup"}, rolls); diff != "" {
		t.Errorf("Rolls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"dodge", "parry"}, answers); diff != "" {
		t.Errorf("Answers (-want +got):\n%s", diff)
	}
}

// TestCommandUsage pins the usage lines the declarations write, which
// say as much as the prose lines they replaced.
func TestCommandUsage(t *testing.T) {
	want := []string{
		"order NAME …",
		"full NAME defence|offence|none",
		"start",
		"attack [ATTACKER] [TARGET] [with=WEAPON] [defence=dodge|parry|none|wait] [shots=1-6] [unaware=yes] [mod=±N] [dmod=±N]",
		"dodge NAME [dmod=±N]",
		"parry NAME [dmod=±N]",
		"take NAME",
		"act [TARGET]",
		"defend NAME [against=NAME]",
		"check NAME STAT[+SKILL] [mod=±N] [vs=N]",
		"test NAME consciousness|survival [minutes=N] [mod=±N]",
		"damage NAME N [by=NAME]",
		"heal NAME N [by=NAME]",
		"complication NAME blind|bound|tied|down|large [mod=-N] [until=…] [by=NAME]",
		"free NAME [with=Acrobatics|Crime] [mod=±N]",
		"stand NAME",
		"kipup NAME [mod=±N]",
		"stabilise NAME",
		"stabilize NAME",
		"engage TARGET NAME …",
		"reload NAME [WEAPON]",
		"spend NAME ammo=N [with=WEAPON]",
		"odds COMMAND …",
		"next [NAME]",
	}
	var got []string
	for _, d := range cinematic.New().Commands() {
		if !slices.Contains([]string{"add", "remove", "note", "reveal", "rename", "condition", "clear", "set"}, d.Name) {
			got = append(got, d.Usage())
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("usage (-want +got):\n%s", diff)
	}
}

// TestCommandsDecided checks every declaration (rulestest.CheckDecidedAt)
// on each turn of a fight on the example sheets, whose weapons (Bernie's
// Pistol and its clip, Rosa's Stake) the conformance scripts do not
// reach.
func TestCommandsDecided(t *testing.T) {
	e := engine.New(cinematic.New(), rand.New(rand.NewPCG(1, 2)))
	joinSheets(t, e)
	do(t, e, "start")
	for range e.View().Order {
		if err := rulestest.CheckDecidedAt(e); err != nil {
			t.Fatalf("%s's turn: %v", e.View().Current, err)
		}
		do(t, e, "next")
	}
}

// TestCommandsAccepted sends words the declarations must take as the
// code took them before: the stances' other spellings, yes and no in
// their other forms, an empty defence=, a skill spelt with blanks.
func TestCommandsAccepted(t *testing.T) {
	newEngine(t, `add A strength=3 dexterity=7 constitution=3 perception=3 willpower=3
add B strength=3 dexterity=5 constitution=3 perception=2 willpower=3 side=pc
full A DEFENSE
full A fo
full A Offense
full A fd
full A None
start
attack A B with=punch unaware=N defence=
undo
attack A B with=punch unaware=off defence=Dodge mod=+20 dmod=-20
complication B TIED
free B with="C R I M E" mod=-20
damage B +45 by=A
heal B 1 by=A
test B CONSCIOUSNESS dice=10
test B Survival minutes=1 dice=10
stabilize B`)
}
