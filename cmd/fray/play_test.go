package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fray"
)

var updatePlay = flag.Bool("update-play", false, "rewrite the play golden files in testdata/play (check every change by hand)")

// TestPlayGolden runs fray play on the example scripts and compares the
// transcript with testdata/play/NAME.golden. Each golden file was checked
// by hand: the history lines against the seeds' text (seed 000 rounds 1–8,
// seed 004's queues), and every status line against the order of play;
// bpb-resolution's odds against counts of the 36 rolls of 2d6, its totals,
// bands and damage against B-1, B-8 … B-11, and its history against seed
// 000's block and dodge examples; bpb-samepower's difficulties (8 + the
// power's rank) and reorder against B-8 and B-9; cinematic-vampires'
// odds, success levels, damage and tests against seed 001 (outnumbered
// +2 per attacker, knocked down −4, Consciousness at −1 per Life Point
// below zero less Resistance (Pain), Survival at −1 per 10 plus Hard to
// Kill) by counting the hundred pairs of D10s; vv-resolution's chances,
// damage less protection, rolling with the punch, knockback and the
// Special Attack's two rolls against seed 002 and the example's comments.
func TestPlayGolden(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"bpb-blueshift", []string{"play", "--rules", "bpb", "../../examples/bpb-blueshift.fray"}, ""},
		{"bpb-reorder", []string{"play", "--rules", "bpb", "../../examples/bpb-reorder.fray"}, ""},
		{"bpb-resolution", []string{"play", "--rules", "bpb", "--party", "../../examples/bpb-party.yaml", "--foes", "../../examples/bpb-foes.yaml", "../../examples/bpb-resolution.fray"}, ""},
		{"bpb-samepower", []string{"play", "--rules", "bpb", "--party", "../../examples/bpb-telepaths.yaml", "../../examples/bpb-samepower.fray"}, ""},
		{"cinematic-vampires", []string{"play", "--rules", "cinematic", "--party", "../../examples/cinematic-party.yaml", "--foes", "../../examples/cinematic-foes.yaml", "../../examples/cinematic-vampires.fray"}, ""},
		{"vv-resolution", []string{"play", "--rules", "vv", "--party", "../../examples/vv-party.yaml", "--foes", "../../examples/vv-foes.yaml", "../../examples/vv-resolution.fray"}, ""},
		{"bpb-sheet-error", []string{"play", "--rules", "bpb", "--foes", "testdata/play/bad-foes.yaml"}, ""},
		{"queue-johann", []string{"play", "--rules", "queue", "../../examples/queue-johann.fray"}, ""},
		{"queue-json", []string{"play", "--rules", "queue", "--json", "--seed", "3"}, "add Ann side=pc wits=2\nadd Bear wits=1\ninitiative Ann 12\nstart roll=9\nact major\nact major\nnext Bear\nundo\n"},
		{"refusals", []string{"play", "--rules", "bpb"}, "add Ann side=pc\nadd \"Ann\"\nstart\nforce Ann\nadd \"Bob\nnext\nnext Ann\n"},
		{"no-rules", []string{"play"}, ""},
		{"unknown-rules", []string{"play", "--rules", "dnd"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			got := fmt.Sprintf("$ fray %s\n# exit %d\n# stdout\n%s# stderr\n%s", strings.Join(tt.args, " "), code, stdout.String(), stderr.String())
			path := filepath.Join("testdata", "play", tt.name+".golden")
			if *updatePlay {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s:\n%s", path, got)
			}
		})
	}
}

// TestPlayJSONShape checks the wire shape of --json answers.
func TestPlayJSONShape(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"play", "--rules", "bpb", "--json", "--seed", "1"}, strings.NewReader("add Ann side=pc\nadd Bob\nstart\ndelay\nbogus\n"), &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1 (one command refused)", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d answers for 5 commands:\n%s", len(lines), stdout.String())
	}
	var ok struct {
		OK     bool              `json:"ok"`
		Events []json.RawMessage `json:"events"`
		View   struct {
			Round   int    `json:"round"`
			Current string `json:"current"`
			Order   []struct {
				Name    string   `json:"name"`
				Markers []string `json:"markers"`
			} `json:"order"`
			History []struct {
				Round int      `json:"round"`
				Turns []string `json:"turns"`
			} `json:"history"`
		} `json:"view"`
	}
	if err := json.Unmarshal([]byte(lines[3]), &ok); err != nil {
		t.Fatal(err)
	}
	if !ok.OK || len(ok.Events) != 1 || ok.View.Round != 1 || ok.View.Current != "Bob" ||
		len(ok.View.History) != 1 || strings.Join(ok.View.History[0].Turns, ",") != "Bob" ||
		len(ok.View.Order) != 2 || strings.Join(ok.View.Order[0].Markers, ",") != "delayed" {
		t.Errorf("answer to delay: %s", lines[3])
	}
	var bad struct {
		OK    bool `json:"ok"`
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(lines[4]), &bad); err != nil {
		t.Fatal(err)
	}
	if bad.OK || bad.Error.Code != "invalid" || !strings.Contains(bad.Error.Message, `"bogus"`) {
		t.Errorf("answer to bogus: %s", lines[4])
	}
}

// TestPlayLogResume writes a log, resumes it, undoes across the two runs
// and checks the log file holds everything.
func TestPlayLogResume(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "fight.jsonl")
	run := func(stdin string, args ...string) (string, int) {
		var stdout, stderr bytes.Buffer
		code := Main(append([]string{"play"}, args...), strings.NewReader(stdin), &stdout, &stderr)
		return stdout.String() + stderr.String(), code
	}
	if out, code := run("add Ann side=pc\nadd Bob\nstart\nnext\n", "--rules", "bpb", "--seed", "5", "--log", log); code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, out)
	}
	if out, code := run("add Cat\n", "--rules", "bpb", "--log", log); code != 2 || !strings.Contains(out, "already holds a log") {
		t.Errorf("reusing a log without --resume: exit %d\n%s", code, out)
	}
	out, code := run("undo\nshow\n", "--resume", log)
	if code != 0 || !strings.Contains(out, "Round 1: Ann's turn.") {
		t.Fatalf("resume: exit %d\n%s", code, out)
	}
	out, code = run("redo\nhistory\n", "--resume", log)
	if code != 0 || !strings.Contains(out, "Round 1: Ann, Bob") {
		t.Fatalf("second resume: exit %d\n%s", code, out)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	// Header, four steps, an undo and a redo.
	if len(lines) != 7 || !strings.Contains(lines[0], `"schema":"fray.log"`) || !strings.Contains(lines[5], `"type":"undo"`) || !strings.Contains(lines[6], `"type":"redo"`) {
		t.Errorf("log file:\n%s", b)
	}
}

// TestPlayHelpCommand checks help COMMAND: all the declarations of the
// words named say (each argument and option, who may send it, examples),
// in any case, and nothing of other commands; a word nothing declares
// refused with the nearest word, in text and in JSON. Plain help is
// TestPlayHelpShort's.
func TestPlayHelpCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"play", "--rules", "cinematic"}, strings.NewReader("help dodge PARRY\nhelp\nhelp wibble\n"), &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1 (one command refused)", code)
	}
	out := stdout.String()
	first, rest, _ := strings.Cut(out, "> help\n")
	for _, line := range []string{
		"\n  dodge NAME [dmod=±N]\n", "\n  parry NAME [dmod=±N]\n",
		"\n    dmod=          a whole number from -20 to 20; the GM's modifier to the defence\n",
		"\n    The GM or the player of NAME may send it. It rolls",
		"\n    example: dodge Thug dice=5\n",
	} {
		if !strings.Contains(first, line) {
			t.Errorf("help dodge PARRY lacks %q:\n%s", line, first)
		}
	}
	if n := strings.Count(first, "\n  dodge NAME"); n != 1 {
		t.Errorf("help dodge PARRY describes dodge %d times, want once:\n%s", n, first)
	}
	if strings.Contains(first, "\n  attack ") || strings.Contains(first, "\n  undo\n") {
		t.Errorf("help dodge PARRY shows lines of other commands:\n%s", first)
	}
	_, refused, _ := strings.Cut(rest, "> help wibble\n")
	if want := `refused (not_found): Cinematic Unisystem variant has no command "wibble"; type help for the list.`; !strings.Contains(refused, want) {
		t.Errorf("help wibble: %q, want %q", refused, want)
	}
	stdout.Reset()
	Main([]string{"play", "--rules", "cinematic"}, strings.NewReader("help atack\n"), &stdout, &stderr)
	if want := `has no command "atack"; did you mean attack?`; !strings.Contains(stdout.String(), want) {
		t.Errorf("help atack: %q, want %q", stdout.String(), want)
	}

	stdout.Reset()
	Main([]string{"play", "--rules", "queue", "--json"}, strings.NewReader("help heal\n"), &stdout, &stderr)
	var got struct {
		OK   bool              `json:"ok"`
		Help []fray.CommandDoc `json:"help"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, stdout.Bytes())
	}
	if !got.OK || len(got.Help) != 1 || !strings.HasPrefix(got.Help[0].Usage, "heal NAME N") {
		t.Errorf("help heal in JSON: %s", stdout.Bytes())
	}
}
