package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
)

// play runs fray play with args on the script stdin and returns what it
// printed and its exit code.
func play(t *testing.T, stdin string, args ...string) (string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(append([]string{"play"}, args...), strings.NewReader(stdin), &stdout, &stderr)
	return stdout.String() + stderr.String(), code
}

// blueshift is the start of examples/bpb-resolution.fray: Ganyeka's
// blast hits Monolith (3 and 2: 12 against 11), who blocks it (6 and 4:
// 21 against 17, extreme).
const blueshift = `order Blueshift Ganyeka Monolith "Ganyeka's henchmen"
start
next Blueshift
attack Ganyeka Monolith with=blast dice=3,2
block Monolith dice=6,4
`

var blueshiftArgs = []string{"--rules", "bpb", "--seed", "1", "--party", "../../examples/bpb-party.yaml", "--foes", "../../examples/bpb-foes.yaml"}

// TestPlayUndoRedoWords checks that undo and redo say in a sentence which
// step they took back or restored, with its command.
func TestPlayUndoRedoWords(t *testing.T) {
	out, code := play(t, blueshift+"undo\nredo\nundo\nundo\n", blueshiftArgs...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  Undid") || strings.HasPrefix(l, "  Redid") {
			got = append(got, l)
		}
	}
	want := []string{
		"  Undid step 7: block Monolith dice=6,4",
		"  Redid step 7: block Monolith dice=6,4",
		"  Undid step 7: block Monolith dice=6,4",
		"  Undid step 6: attack Ganyeka Monolith dice=3,2 with=blast",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("undo and redo (-want +got):\n%s\n%s", diff, out)
	}
	if strings.Contains(out, `{"step"`) {
		t.Errorf("undo shows raw JSON:\n%s", out)
	}
}

// TestPlayLogWords checks log: a line for each step with its command,
// the undone ones marked, its events under it with the dice and the
// outcome, undo and redo in sentences; and log --json as before, every
// event of the log as recorded.
func TestPlayLogWords(t *testing.T) {
	out, code := play(t, blueshift+"undo\nredo\nundo\nlog\n", blueshiftArgs...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	_, log, _ := strings.Cut(out, "> log\n")
	// Checked against seed 000 by hand: Ganyeka's Accuracy 7 against
	// 8 + Monolith's Agility 3; the block's Prowess 8 + 3 expertise
	// against 8 + the Blast's rank 9 = 17, and 21 is 3 over: extreme,
	// which puts Ganyeka after Monolith (B-9). The odds: 2d6+7 >= 14 is
	// 21/36 (58%), 11..13 12/36 (33%); 2d6+11 >= 20 is 10/36 (28%),
	// 17..19 16/36 (44%).
	want := `  1  join Blueshift Monolith
       Blueshift joins as a player character.
       Monolith joins as a player character.
  2  join Ganyeka "Ganyeka's henchmen"
       Ganyeka joins as an NPC.
       Ganyeka's henchmen joins as a group.
  3  order Blueshift Ganyeka Monolith "Ganyeka's henchmen"
       The GM declares the order of play: Blueshift, Ganyeka, Monolith, Ganyeka's henchmen.
  4  start
       The fight starts (declared order): Blueshift, Ganyeka, Monolith, Ganyeka's henchmen.
  5  next Blueshift
       Blueshift's turn ends.
  6  attack Ganyeka Monolith dice=3,2 with=blast
       Ganyeka attacks Monolith with Blast: 2d6 3, 2 + 7 = 12 against 11 — hit, 3 damage if it lands (odds: miss 8% · hit 33% · extreme hit 58%).
  7  block Monolith dice=6,4  [undone]
       Monolith forces an action (blocks attack by Ganyeka), spending their turn this round.
       Monolith blocks Ganyeka's Blast: 2d6 6, 4 + 11 = 21 against 17 — extreme: negates the attack and reorders (odds: fails 28% · negates 44% · negates, extreme: reorders 28%).
       Monolith is blocking (may block further attacks until their next action) until the start of Monolith's turn (round 1 or later).
       Ganyeka moves in the order from next round, after Monolith.
  Undid step 7: block Monolith dice=6,4
  Redid step 7: block Monolith dice=6,4
  Undid step 7: block Monolith dice=6,4
`
	if diff := cmp.Diff(want, log); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}

	out, code = play(t, blueshift+"undo\nlog\n", append(blueshiftArgs, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last struct {
		OK  bool         `json:"ok"`
		Log []fray.Event `json:"log"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatalf("log --json: %v\n%s", err, lines[len(lines)-1])
	}
	var types []string
	for _, ev := range last.Log {
		types = append(types, ev.Type)
	}
	wantTypes := []string{"added", "added", "added", "added", "bpb.declared", "started", "bpb.turn_ended", "bpb.task", "bpb.forced", "bpb.task", "condition", "bpb.reordered", "undo"}
	if diff := cmp.Diff(wantTypes, types); diff != "" || !last.OK {
		t.Errorf("log --json: the events' types (-want +got):\n%s", diff)
	}
	if n := len(last.Log); n == 0 || string(last.Log[n-1].Data) != `{"step":7}` {
		t.Errorf("log --json: the undo is not as recorded: %+v", last.Log)
	}
}

// TestPlayHelpShort checks plain help in every system: a line a command,
// each within helpWidth, grouped the system's own first, then the shared
// ones, then the engine's; every command the system declares there once;
// and last the line that points to help COMMAND.
func TestPlayHelpShort(t *testing.T) {
	for _, id := range systemIDs() {
		t.Run(id, func(t *testing.T) {
			out, code := play(t, "help\n", "--rules", id)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, out)
			}
			help := strings.TrimPrefix(out, "> help\n")
			lines := strings.Split(strings.TrimSuffix(help, "\n"), "\n")
			for _, l := range lines {
				if n := utf8.RuneCountInString(l); n > helpWidth {
					t.Errorf("a line of %d characters, more than %d: %q", n, helpWidth, l)
				}
			}
			sys := systems[id]()
			own, shared, eng := -1, -1, -1
			for i, l := range lines {
				switch l {
				case sys.Name() + " (" + id + "):":
					own = i
				case "Shared by every system:":
					shared = i
				case "Undo, redo and questions:":
					eng = i
				}
			}
			if own != 0 || shared <= own || eng <= shared {
				t.Errorf("the groups are not the system's, the shared, the engine's (at lines %d, %d, %d):\n%s", own, shared, eng, help)
			}
			var words []string
			for _, l := range lines {
				if strings.HasPrefix(l, "  ") {
					words = append(words, strings.Fields(l)[0])
				}
			}
			var want []string
			for _, d := range engine.Decls(sys) {
				want = append(want, d.Name)
			}
			if len(want) != len(words) {
				t.Errorf("%d command lines for %d commands:\n%s", len(words), len(want), help)
			}
			for _, w := range want {
				n := 0
				for _, x := range words {
					if x == w {
						n++
					}
				}
				if n != 1 {
					t.Errorf("command %s has %d lines, want 1", w, n)
				}
			}
			if len(lines) > len(want)+5 {
				t.Errorf("help has %d lines for %d commands:\n%s", len(lines), len(want), help)
			}
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, "Type help COMMAND (help ") {
				t.Errorf("the last line is %q, not the pointer to help COMMAND", last)
			}
			// help COMMAND, which the last line points to, still works.
			if out, code := play(t, "help undo\n", "--rules", id); code != 0 || !strings.Contains(out, "Take back the last step, exactly.") {
				t.Errorf("help undo: exit %d\n%s", code, out)
			}
		})
	}
}

// TestRollShowsWholeExpression checks that fray roll shows the work of
// the whole expression, constants and operators included, under the
// pools' dice, and nothing more for a lone pool.
func TestRollShowsWholeExpression(t *testing.T) {
	tests := []struct {
		name, expr, faces, want string
	}{
		{"plus a constant", "2d6 + 3", "4,5", "2d6+3 = 12\n  2d6: 4 5 = 9\n  9+3 = 12\n"},
		{"two pools", "3d6+4-1d4", "2,5,6,3", "3d6+4-1d4 = 14\n  3d6: 2 5 6 = 13\n  1d4: 3 = 3\n  13+4-3 = 14\n"},
		{"grouping", "2*(1d8-1)", "5", "2*(1d8-1) = 8\n  1d8: 5 = 5\n  2*(5-1) = 8\n"},
		{"a pool below zero", "3d10>=8f1+2", "1,1,9", "3d10>=8f1+2 = 1\n  3d10>=8f1: 1✗ 1✗ 9✓ = -1 success\n  (-1)+2 = 1\n"},
		{"a lone pool", "4d6kh3", "6,5,3,1", "4d6kh3 = 14\n  4d6kh3: 6 5 3 (1) = 14\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Main([]string{"roll", tt.expr, "--dice", tt.faces}, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if diff := cmp.Diff(tt.want, stdout.String()); diff != "" {
				t.Errorf("fray roll %q (-want +got):\n%s", tt.expr, diff)
			}
		})
	}
}

// TestPromptComplete checks Tab at the prompt: a command word, an
// option, a name with a space (quoted), what several candidates share,
// and the list when they share no more than what is typed.
func TestPromptComplete(t *testing.T) {
	e := engine.New(bpb.New(), rand.New(rand.NewPCG(1, 2)))
	for _, line := range []string{`add "Ganyeka's henchmen"`, "add Ganyeka", "add Monolith"} {
		cmd, err := engine.ParseCommand(line)
		if err == nil {
			_, err = e.Do(cmd)
		}
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	tests := []struct {
		name, line string
		pos        int // -1: the end of the line
		want       string
		wantPos    int
		list       string
	}{
		{"a command word", "hist", -1, "history ", 8, ""},
		{"an option", "attack Ganyeka Monolith wi", -1, "attack Ganyeka Monolith with=", 29, ""},
		{"a name", "attack Ganyeka Mon", -1, "attack Ganyeka Monolith ", 24, ""},
		{"what names share", "attack gan", -1, "attack Ganyeka", 14, ""},
		{"a quoted name", `attack "Ganyeka'`, -1, `attack "Ganyeka's henchmen" `, 28, ""},
		{"in the middle", "hist Monolith", 4, "history  Monolith", 8, ""},
		{"the list", "a", -1, "a", 1, "  add  aware  attack  award\n"},
		{"nothing fits", "zz", -1, "zz", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			p := &player{e: e, out: &out}
			pos := tt.pos
			if pos < 0 {
				pos = len(tt.line)
			}
			got, gotPos, ok := p.complete(tt.line, pos, '\t')
			if !ok || got != tt.want || gotPos != tt.wantPos || out.String() != tt.list {
				t.Errorf("Tab on %q at %d: %q at %d (ok %v), listed %q; want %q at %d, listed %q", tt.line, pos, got, gotPos, ok, out.String(), tt.want, tt.wantPos, tt.list)
			}
		})
	}
	if _, _, ok := (&player{e: e}).complete("hist", 4, 'x'); ok {
		t.Errorf("a key other than Tab was taken")
	}
}
