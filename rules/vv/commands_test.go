package vv_test

import (
	"slices"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/vv"
)

// Who may send each command word, as the web's table said before the
// declarations (web/actor.go): the GM's, a query, the current
// character's, or the named one's, and which argument, if any, names
// whom it acts for.
var senders = map[string]struct {
	send     fray.Send
	actor    int  // the index of the Actor argument, or -1
	optional bool // whether the Actor argument may be left out
}{
	"add": {fray.SendGM, -1, false}, "remove": {fray.SendGM, -1, false}, "set": {fray.SendGM, -1, false},
	"note": {fray.SendGM, -1, false}, "reveal": {fray.SendGM, -1, false}, "rename": {fray.SendGM, -1, false},
	"condition": {fray.SendGM, -1, false}, "clear": {fray.SendGM, -1, false}, "undo": {fray.SendGM, -1, false},
	"redo": {fray.SendGM, -1, false}, "start": {fray.SendGM, -1, false}, "surprise": {fray.SendGM, -1, false},
	"order": {fray.SendGM, -1, false}, "damage": {fray.SendGM, -1, false}, "heal": {fray.SendGM, -1, false},
	"protect": {fray.SendGM, -1, false},

	"show": {fray.SendQuery, -1, false}, "history": {fray.SendQuery, -1, false}, "log": {fray.SendQuery, -1, false},
	"help": {fray.SendQuery, -1, false}, "odds": {fray.SendQuery, -1, false},

	// The current character's, whatever the words say.
	"move": {fray.SendCurrent, -1, false}, "hold": {fray.SendCurrent, -1, false}, "decline": {fray.SendCurrent, -1, false},
	// The current character's, or the one the first word names.
	"act": {fray.SendCurrent, 0, true}, "next": {fray.SendCurrent, 0, true},
	// The one the first word names.
	"initiative": {fray.SendNamed, 0, false}, "upkeep": {fray.SendNamed, 0, false}, "facing": {fray.SendNamed, 0, false},
	"prone": {fray.SendNamed, 0, false}, "stand": {fray.SendNamed, 0, false}, "attack": {fray.SendNamed, 0, false},
	"spend": {fray.SendNamed, 0, false}, "check": {fray.SendNamed, 0, false},
	// Every one the words name.
	"interrupt": {fray.SendNamed, 0, false},
}

// Every command word is declared once with who may send it, as the web's
// table said; every player's command names its actor where it did.
func TestDeclaredSenders(t *testing.T) {
	ds := engine.Decls(vv.New())
	for _, d := range ds {
		want, ok := senders[d.Name]
		if !ok {
			t.Errorf("%s is declared but not in the table", d.Name)
			continue
		}
		actor := slices.IndexFunc(d.Args, func(p fray.Param) bool { return p.Actor })
		if d.Send != want.send || actor != want.actor || (actor >= 0 && d.Args[actor].Optional != want.optional) {
			t.Errorf("%s: send %s, actor argument %d; want %s, %d (optional %v)", d.Name, d.Send, actor, want.send, want.actor, want.optional)
		}
	}
	for w := range senders {
		if _, ok := fray.FindDecl(ds, w); !ok {
			t.Errorf("%s is not declared", w)
		}
	}
	if d, _ := fray.FindDecl(ds, "interrupt"); !d.Args[0].Repeat {
		t.Error("interrupt acts for every character it names")
	}
}

// The commands odds answers are declared to roll, and those it does not
// are refused as rolling nothing.
func TestDeclaredRolls(t *testing.T) {
	ds := vv.New().Commands()
	for _, w := range []string{"start", "next", "hold", "decline", "initiative", "attack", "check"} {
		if d, _ := fray.FindDecl(ds, w); !d.Rolls {
			t.Errorf("%s rolls", w)
		}
	}
	e, _ := newEngine(t, "add A agility=10 power=5\nadd B agility=5\nstart")
	for _, line := range []string{"move 3", "act", "spend A power=1", "facing A B", "upkeep A 1"} {
		refuseOdds(t, e, line, "rolls no dice")
	}
}
