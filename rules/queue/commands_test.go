package queue_test

import (
	"slices"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

// The usage lines help shows, written from the declarations: those of
// the system's own commands are the ones documented before declarations
// (but initiative's optional DIE, which dice= may give, and check's
// vs= and difficulty=, one of which it needs).
func TestCommandUsage(t *testing.T) {
	want := map[string]string{
		"add":        "add NAME [side=pc|npc] [kind=character|group|environment] [group=NAME] [aware=no|yes] [hidden=yes|no] [notes=TEXT] [before=NAME] [after=NAME] [wits=N …] [weapon=NAME:light|medium|heavy[:SPECIAL],…]",
		"order":      "order NAME …",
		"initiative": "initiative NAME [DIE]",
		"start":      "start",
		"act":        "act [NAME] major|minor [note=TEXT]",
		"next":       "next [NAME]",
		"move":       "move [NAME] zone=N [note=TEXT]",
		"react":      "react NAME to=NAME [for=ALLY] [note=TEXT]",
		"attack":     "attack ATTACKER TARGET [with=WEAPON] [hit=yes|no] [mod=±N] [injury=scarred|maimed|dead]",
		"injury":     "injury NAME scarred|maimed|dead …",
		"damage":     "damage NAME N [injury=scarred|maimed|dead]",
		"heal":       "heal NAME N",
		"check":      "check NAME [vs=NAME] [difficulty=N] [mod=±N]",
		"odds":       "odds COMMAND …",
	}
	for _, d := range queue.New().Commands() {
		if w, ok := want[d.Name]; ok && d.Usage() != w {
			t.Errorf("%s:\n got %s\nwant %s", d.Name, d.Usage(), w)
		}
		delete(want, d.Name)
	}
	for name := range want {
		t.Errorf("%s is not declared", name)
	}
}

// Whom each command a player may send acts for, as the web reads it from
// the declarations (fray.CommandDecl.Send and Actors): act, next and
// move are the current actor's (act and next may name them), react,
// attack, injury, check and initiative name theirs; the rest are the
// GM's, or queries.
func TestCommandActors(t *testing.T) {
	for _, tt := range []struct {
		line string
		send fray.Send
		who  []string
	}{
		{"act major", fray.SendCurrent, nil},
		{"act Bear minor note=x", fray.SendCurrent, []string{"Bear"}},
		{"next", fray.SendCurrent, nil},
		{"next Bear", fray.SendCurrent, []string{"Bear"}},
		{"move zone=2", fray.SendCurrent, nil},
		{"move Bear zone=2", fray.SendCurrent, nil}, // the current actor's, as before declarations
		{"react Bear to=Ann for=Cat", fray.SendNamed, []string{"Bear"}},
		{"attack Ann Bear with=sword", fray.SendNamed, []string{"Ann"}},
		{"injury Bear maimed scarred", fray.SendNamed, []string{"Bear"}},
		{"check Ann vs=Bear", fray.SendNamed, []string{"Ann"}},
		{"initiative Ann 14", fray.SendNamed, []string{"Ann"}},
		{"initiative Ann", fray.SendNamed, []string{"Ann"}},
		{"order Ann Bear", fray.SendGM, nil},
		{"start", fray.SendGM, nil},
		{"damage Bear 3", fray.SendGM, nil},
		{"heal Bear 3", fray.SendGM, nil},
		{"odds start", fray.SendQuery, nil},
	} {
		cmd, err := engine.ParseCommand(tt.line)
		if err != nil {
			t.Fatal(err)
		}
		d, ok := fray.FindDecl(queue.New().Commands(), cmd.Name)
		if !ok {
			t.Fatalf("%s is not declared", cmd.Name)
		}
		who, fits := d.Actors(cmd)
		if d.Send != tt.send || !fits || !slices.Equal(who, tt.who) {
			t.Errorf("%s: send %s, acts for %q (fits %v); want %s, %q", tt.line, d.Send, who, fits, tt.send, tt.who)
		}
	}
}

// The commands that roll are those odds answers (attack, check, start,
// initiative), and no other: odds refuses the rest before the rules see
// them.
func TestCommandsThatRoll(t *testing.T) {
	var rolls []string
	for _, d := range queue.New().Commands() {
		if d.Rolls {
			rolls = append(rolls, d.Name)
		}
		if d.Answers {
			t.Errorf("%s answers a roll; no command of the Combat Queue does", d.Name)
		}
	}
	if want := []string{"initiative", "start", "attack", "check"}; !slices.Equal(rolls, want) {
		t.Errorf("rolling commands %v, want %v", rolls, want)
	}
	e := newFight(t, "")
	for _, line := range []string{"odds damage Bob 1", "odds act major", "odds move zone=2"} {
		refuse(t, e, line, "rolls no dice, so it has no odds")
	}
}
