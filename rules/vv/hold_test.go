package vv_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/rulestest"
	"fray/rules/vv"
)

// holdSetup gives A (Agility 30) phases 36, 21 and 6, and B (Agility 26)
// phases 27 and 12: A acts first.
const holdSetup = `add A agility=30
add B agility=26
initiative A 6
initiative B 1
`

// V-3 and E-4: an action saved with hold keeps its holder's turn open for
// conditions; the turn ends when the held action is used (the interrupt
// that spends it is finished) or lapses (house rule: at the holder's next
// action; as written: at the end of the turn), not when hold is typed.
// The start edge stays where it was: at the phase reached and again at
// the interrupt.
//
// A script is played line by line; "? NAME COND" checks that NAME is in
// the condition COND, "?! NAME COND" that they are not, "?ev TYPE" that
// the command before made an event of that type ("?!ev TYPE": made none)
// and "?plain" that no hold recorded open.
func TestV3_HoldKeepsTheTurnOpen(t *testing.T) {
	tests := []struct {
		name, script string
	}{
		{"used by an interrupt", holdSetup + `start
condition B dazed until=end:A
hold
?ev vv.held
? B dazed
interrupt A
? B dazed
act
? B dazed
next
?! B dazed`},
		{"the start edge stays at the interrupt", holdSetup + `start
hold
condition B marked until=start:A
? B marked
interrupt A
?! B marked`},
		{"until=end set after the hold", holdSetup + `start
hold
condition B dazed until=end:A
? B dazed
interrupt A
? B dazed
next
?! B dazed`},
		{"put back, then used", holdSetup + `start
condition B dazed until=end:A
hold
interrupt A
hold
? B dazed
interrupt A
? B dazed
act
next
?! B dazed`},
		{"lapses at the next action (house rule)", holdSetup + `start
condition B dazed until=end:A
condition B wary until=end:B
hold
? B dazed
next
?ev vv.hold_lapsed
?! B dazed
?! B wary`},
		{"carried into the next turn (house rule)", holdSetup + `start
next
next
next
next
initiative A 1
initiative B 10
condition B dazed until=end:A
hold
?ev vv.turn
? B dazed
interrupt A
next
?! B dazed`},
		{"lost at the end of the turn (as written)", "set held=raw\n" + holdSetup + `start
next
next
next
next
condition B dazed until=end:A
condition B later until=end:A@+1
hold
?ev vv.hold_lapsed
?! B dazed
? B later`},
		{"dropped by held=raw", holdSetup + `start
next
next
next
next
initiative A 1
initiative B 10
condition B dazed until=end:A
hold
?ev vv.turn
? B dazed
set held=raw
?ev vv.hold_lapsed
?! B dazed`},
		{"lapses when a removal moves the count on", holdSetup + `add C agility=16
initiative C 8
start
condition B dazed until=end:A
hold
next
? B dazed
remove C
?ev vv.hold_lapsed
?! B dazed`},
		{"nothing anchored: the log is as before", holdSetup + `start
hold
?!ev vv.hold_lapsed
next
?!ev vv.hold_lapsed
?plain`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
			var last []fray.Event
			var script []string
			for _, line := range strings.Split(tt.script, "\n") {
				w := strings.Fields(line)
				switch {
				case len(w) == 1 && w[0] == "?plain":
					checkHeldEvents(t, e)
				case len(w) == 3 && (w[0] == "?" || w[0] == "?!"):
					c := st(e).Find(w[1])
					if has := c.Condition(w[2]) != nil; has != (w[0] == "?") {
						t.Fatalf("after %q: %s in %s is %v, want %v", script[len(script)-1], w[1], w[2], has, !has)
					}
				case len(w) == 2 && (w[0] == "?ev" || w[0] == "?!ev"):
					made := slices.ContainsFunc(last, func(ev fray.Event) bool { return ev.Type == w[1] })
					if made != (w[0] == "?ev") {
						t.Fatalf("after %q: made a %s event is %v, want %v (events %v)", script[len(script)-1], w[1], made, !made, types(last))
					}
				default:
					n := len(e.Log())
					do(t, e, line)
					last = e.Log()[n:]
					script = append(script, line)
				}
			}
			if err := rulestest.CheckReplay(e); err != nil {
				t.Fatal(err)
			}
			rulestest.RunScript(t, func() fray.System { return vv.New() }, rulestest.Script{Name: tt.name, Text: strings.Join(script, "\n")})
		})
	}
}

// checkHeldEvents checks that with no condition anchored to the end of the
// holder's turn, hold records what it always did: a vv.held naming its
// holder alone.
func checkHeldEvents(t *testing.T, e *engine.Engine) {
	t.Helper()
	for _, ev := range e.Log() {
		if ev.Type == vv.EventHeld && strings.Contains(string(ev.Data), "open") {
			t.Errorf("event %d: %s, want no open", ev.Seq, ev.Data)
		}
	}
}

func types(evs []fray.Event) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Type)
	}
	return out
}

// A log written before holds kept turns open ends the holder's turn at
// the hold: its vv.held has no open, and it replays as it was. (The log
// here is today's with open taken out.)
func TestV3_OldHoldEndsTheTurn(t *testing.T) {
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	do(t, e, holdSetup+"start\ncondition B dazed until=end:A\nhold")
	if st(e).Find("B").Condition("dazed") == nil {
		t.Fatal("B is no longer dazed after A's hold")
	}
	var buf bytes.Buffer
	if err := e.Export(&buf); err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(buf.String(), `,"open":true`, "", 1)
	if old == buf.String() {
		t.Fatalf("the hold records no open:\n%s", old)
	}
	im, err := engine.Import(strings.NewReader(old), vv.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if im.State().(*vv.State).Find("B").Condition("dazed") != nil {
		t.Error("an old hold kept the turn open; it ended the turn at once")
	}
	if err := rulestest.CheckReplay(im); err != nil {
		t.Fatal(err)
	}
}
