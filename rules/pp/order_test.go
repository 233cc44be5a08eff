package pp_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/pp"
	"fray/rules/rulestest"
)

// do runs script, one command per line; a line starting with "!" must be
// refused with a user error that changes nothing.
func do(t *testing.T, e *engine.Engine, script string) {
	t.Helper()
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		refuse := strings.HasPrefix(line, "!")
		cmd, err := engine.ParseCommand(strings.TrimPrefix(line, "!"))
		if err != nil {
			t.Fatalf("parse %q: %v", line, err)
		}
		if cmd.Name == "" {
			continue
		}
		before := e.State().Clone()
		_, err = e.Do(cmd)
		switch {
		case refuse && err == nil:
			t.Fatalf("%s: accepted, want a refusal", line)
		case refuse && fray.ErrorCode(err) == fray.EINTERNAL:
			t.Fatalf("%s: internal error %v", line, err)
		case refuse:
			if diff := cmp.Diff(before, e.State()); diff != "" {
				t.Fatalf("%s: refused but changed the state:\n%s", line, diff)
			}
		case err != nil:
			t.Fatalf("%s: %v", line, err)
		}
		if err := e.System().Check(e.State()); err != nil {
			t.Fatalf("after %s: %v", line, err)
		}
	}
}

func newEngine(t *testing.T, script string) *engine.Engine {
	t.Helper()
	e := engine.New(pp.New(), rand.New(rand.NewPCG(1, 2)))
	do(t, e, script)
	return e
}

func names(slots []fray.Slot) []string {
	var out []string
	for _, s := range slots {
		out = append(out, s.Name)
	}
	return out
}

// P-10: Edge = Perception + the higher of Agility and Intellect, highest
// first; ties heroes > villains > foes > extras; minions last.
func TestP10_EdgeOrder(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   []string
	}{
		{"edge", `add A perception=2 agility=5 intellect=1
add B perception=3 agility=1 intellect=6
add C perception=4 agility=4 intellect=4`, []string{"B", "C", "A"}},
		{"roles", `add Ex role=extra perception=3 agility=3
add Foe role=foe perception=3 agility=3
add Vil role=villain perception=3 agility=3
add Hero side=pc perception=3 agility=3`, []string{"Hero", "Vil", "Foe", "Ex"}},
		{"minions last", `add Mook minion=yes perception=9 agility=9
add Slow role=extra perception=1 agility=1
add Mook2 minion=yes role=villain perception=1 agility=1
add Mook3 minion=yes role=extra perception=1 agility=1`, []string{"Slow", "Mook", "Mook2", "Mook3"}},
		{"GM order", `add A side=pc perception=3 agility=3
add B side=pc perception=3 agility=3
order B A`, []string{"B", "A"}},
		{"edge stat", `add A perception=3 agility=3
add B edge=7`, []string{"B", "A"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t, tt.script+"\nstart")
			if diff := cmp.Diff(tt.want, names(e.View().Order)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}

// P-10: one turn per page; each extra action is −2d to that turn's rolls.
func TestP10_PagesAndExtraActions(t *testing.T) {
	e := newEngine(t, `add A side=pc perception=5 agility=5
add B perception=3 agility=3
start
act
act
act
!act B
!next B`)
	s := e.State().(*pp.State)
	if got := s.Penalty("A"); got != 4 {
		t.Errorf("penalty after three actions = %dd, want 4d", got)
	}
	if got := s.Penalty("B"); got != 0 {
		t.Errorf("B's penalty = %dd on A's turn, want 0", got)
	}
	do(t, e, "next\nact\nnext")
	s = e.State().(*pp.State)
	if s.Round != 2 || s.Current() != "A" || s.Penalty("A") != 0 {
		t.Errorf("page %d, current %q, penalty %d; want page 2, A, 0", s.Round, s.Current(), s.Penalty("A"))
	}
	if got := e.View().History[0].String(); got != "Round 1: A (3 actions, −4d), B" {
		t.Errorf("history %q", got)
	}
}

func TestRefusals(t *testing.T) {
	newEngine(t, `!start
!act
add A perception=1
!add B role=sidekick
!add B minion=maybe
!add A
!initiative A 3
!order A A
!order Nobody
add B perception=0
start
!start
!act B
remove A
act B
next
act B`)
}

var examples = []string{"pp-page"}

func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", name+".fray"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// transcript writes what a table sees: each command, each refusal, and
// the view wherever the script says show or history.
var transcript = rulestest.Transcript{
	System: func() fray.System { return pp.New() },
	Round:  "page",
}

// TestExamples runs the example scripts against their golden transcripts
// (go test -update rewrites them; check every line against the rules).
func TestExamples(t *testing.T) {
	for _, name := range examples {
		t.Run(name, func(t *testing.T) {
			transcript.Check(t, filepath.Join("testdata", name+".golden"), readExample(t, name))
		})
	}
}
