package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"testing"
)

func runSim(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(append([]string{"sim"}, args...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestSimErrors checks that bad input gives one line on stderr, nothing
// on stdout and a non-zero exit.
func TestSimErrors(t *testing.T) {
	sheets := []string{"--party", "../../examples/queue-party.yaml", "--foes", "../../examples/queue-foes.yaml"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no fights", append([]string{"--rules", "queue", "-n", "0"}, sheets...), "-n 0"},
		{"absurd fights", append([]string{"--rules", "queue", "-n", "1000000000000"}, sheets...), "MaxFights"},
		{"unknown rules", append([]string{"--rules", "dnd"}, sheets...), `unknown rules "dnd"`},
		{"no rules", sheets, "--rules"},
		{"missing sheet", []string{"--rules", "queue", "--party", "no-such-party.yaml"}, "no-such-party.yaml"},
		{"missing script", []string{"--rules", "queue", "no-such-script.fray"}, "no-such-script.fray"},
		{"rounds", append([]string{"--rules", "queue", "--rounds", "0"}, sheets...), "--rounds 0"},
		{"tactics", append([]string{"--rules", "queue", "--tactics", "pc=cowardly"}, sheets...), "cowardly"},
		{"one side", []string{"--rules", "queue", "--party", "../../examples/queue-party.yaml"}, "two sides"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runSim(t, tt.args...)
			if code == 0 {
				t.Errorf("exit 0, want non-zero")
			}
			if out != "" {
				t.Errorf("stdout = %q, want nothing", out)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "fray sim: ") || !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr = %q, want one line naming %q", errOut, tt.want)
			}
		})
	}
}

// simJSON is the object fray sim --json prints (issue 15).
type simJSON struct {
	Fights int    `json:"fights"`
	Seed   uint64 `json:"seed"`
	Sides  []struct {
		Side string     `json:"side"`
		Win  float64    `json:"win"`
		CI95 [2]float64 `json:"ci95"`
	} `json:"sides"`
	Unfinished float64 `json:"unfinished"`
	Rounds     struct {
		Mean float64      `json:"mean"`
		Dist [][2]float64 `json:"dist"`
	} `json:"rounds"`
	Combatants []struct {
		Name string   `json:"name"`
		Down *float64 `json:"down"`
	} `json:"combatants"`
}

// TestSimJSON checks the object --json prints, and that it is the same
// for 1, 2 and 8 workers.
func TestSimJSON(t *testing.T) {
	var first string
	for _, w := range []string{"1", "2", "8"} {
		code, out, errOut := runSim(t, "--rules", "bpb", "--party", "../../examples/bpb-party.yaml", "--foes", "../../examples/bpb-foes.yaml",
			"-n", "300", "--seed", "4", "--json", "--workers", w)
		if code != 0 {
			t.Fatalf("workers %s: exit %d: %s", w, code, errOut)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Errorf("workers %s printed\n%s\nworkers 1 printed\n%s", w, out, first)
		}
	}
	var r simJSON
	if err := json.Unmarshal([]byte(first), &r); err != nil {
		t.Fatalf("%v: %s", err, first)
	}
	if r.Fights != 300 || r.Seed != 4 {
		t.Errorf("fights %d, seed %d; want 300 and 4", r.Fights, r.Seed)
	}
	if len(r.Sides) != 2 || r.Sides[0].Side != "pc" || r.Sides[1].Side != "npc" {
		t.Fatalf("sides = %+v, want pc then npc", r.Sides)
	}
	sum := r.Unfinished
	for _, s := range r.Sides {
		sum += s.Win
		if s.CI95[0] > s.Win || s.Win > s.CI95[1] {
			t.Errorf("%s: win %v outside %v", s.Side, s.Win, s.CI95)
		}
	}
	if sum < 0.999999 || sum > 1.000001 {
		t.Errorf("the shares add up to %v", sum)
	}
	if len(r.Rounds.Dist) == 0 || r.Rounds.Mean < 1 {
		t.Errorf("rounds = %+v", r.Rounds)
	}
	names := []string{}
	for _, c := range r.Combatants {
		if c.Down == nil {
			t.Errorf("%s has no down", c.Name)
		}
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ", "); got != "Blueshift, Monolith, Ganyeka, Ganyeka's henchmen" {
		t.Errorf("combatants = %s", got)
	}
}

// TestSimText checks the text report and a script that stops mid-fight.
func TestSimText(t *testing.T) {
	code, out, errOut := runSim(t, "--rules", "queue", "-n", "200", "--seed", "2", "../../examples/queue-blow.fray")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"The Combat Queue: 200 fights (seed 2)", "pc   wins", "npc  wins", "(95%: ", "unfinished after 100 rounds", "Rounds: mean", "│█", "Johann", "hp left"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// The example shows a refusal on line 60; the setup goes on past it,
	// as fray play's does, and says so. No progress bar: not a terminal.
	if errOut != "fray sim: note: ../../examples/queue-blow.fray line 60: refused (invalid): Pet Bear's attack has already hit Melvina: the damage is dealt. To suffer it instead, Johann reacts before the attack: undo it, react, then enter the attack again with its dice (dice=).\n" {
		t.Errorf("stderr = %q, want the note of line 60's refusal alone", errOut)
	}
}

// TestSimHelp checks that the help gives an example for every system.
func TestSimHelp(t *testing.T) {
	code, _, errOut := runSim(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, id := range systemIDs() {
		if !strings.Contains(errOut, "fray sim --rules "+id+" ") {
			t.Errorf("the help has no example for %s", id)
		}
	}
}

// TestSimReadme runs the command README.md's "Will they survive?" shows
// and checks that it prints what the README says it prints.
func TestSimReadme(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "## Will they survive?")
	if !ok {
		t.Fatal(`README.md has no "Will they survive?" section`)
	}
	_, block, _ := strings.Cut(sec, "```\n$ fray sim ")
	block, _, ok = strings.Cut(block, "```\n")
	if !ok {
		t.Fatal("the section shows no fray sim command in a code block")
	}
	cmdLine, want, _ := strings.Cut(block, "\n")
	args := strings.Fields(cmdLine)
	for i, a := range args {
		if strings.HasPrefix(a, "examples/") {
			args[i] = "../../" + a
		}
	}
	code, out, errOut := runSim(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != want {
		t.Errorf("fray sim %s prints\n%s\nand README.md shows\n%s", cmdLine, out, want)
	}
}

// TestSimSheetTactics checks the order in which tactics are chosen, the
// most specific first: --tactics NAME=, then the sheet's tactic:, then
// --tactics SIDE=, then focus-weakest; and the report's tactic column.
func TestSimSheetTactics(t *testing.T) {
	b, err := os.ReadFile("../../examples/pp-party.yaml")
	if err != nil {
		t.Fatal(err)
	}
	party := t.TempDir() + "/party.yaml"
	text := strings.Replace(string(b), "- name: Gatecrasher\n", "- name: Gatecrasher\n    tactic: cautious\n", 1)
	if text == string(b) {
		t.Fatal("the example party has no Gatecrasher")
	}
	if err := os.WriteFile(party, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ tactics, gatecrasher, soldier string }{
		{"", "cautious", "focus-weakest"},
		{"pc=random", "cautious", "focus-weakest"},
		{"npc=random", "cautious", "random"},
		{"gatecrasher=focus-strongest,pc=random", "focus-strongest", "focus-weakest"},
	}
	for _, tt := range tests {
		code, out, errOut := runSim(t, "--rules", "pp", "--party", party, "--foes", "../../examples/pp-foes.yaml", "-n", "20", "--seed", "1", "--json", "--tactics", tt.tactics)
		if code != 0 {
			t.Fatalf("--tactics %q: exit %d: %s", tt.tactics, code, errOut)
		}
		var r struct {
			Combatants []struct{ Name, Tactic string }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, c := range r.Combatants {
			got[c.Name] = c.Tactic
		}
		if got["Gatecrasher"] != tt.gatecrasher || got["Citizen Soldier"] != tt.soldier {
			t.Errorf("--tactics %q: %v, want Gatecrasher %s, Citizen Soldier %s", tt.tactics, got, tt.gatecrasher, tt.soldier)
		}
	}
	code, out, errOut := runSim(t, "--rules", "pp", "--party", party, "--foes", "../../examples/pp-foes.yaml", "-n", "20", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "resolve left  tactic\n") || !strings.Contains(out, "  cautious\n") {
		t.Errorf("the report shows no tactic column:\n%s", out)
	}
}

// TestSimExact checks --exact: the hand-checked queue duel of package
// sim's TestExactQueueByHand (over three rounds Ann wins 0.744, Bo
// 0.248, 0.008 unfinished) in the JSON's fields and the text's lines
// (TestSimExactTooBig has a fight too big).
func TestSimExact(t *testing.T) {
	script := t.TempDir() + "/duel.fray"
	if err := os.WriteFile(script, []byte("add Ann side=pc wits=2 hp=1 weapon=sword:medium\nadd Bo side=npc wits=1 hp=1 weapon=club:medium\ninitiative Ann 15\ninitiative Bo 3\nstart\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runSim(t, "--rules", "queue", script, "--rounds", "3", "-n", "2000", "--seed", "3", "--exact", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Exact           *bool    `json:"exact"`
		ExactUnfinished *float64 `json:"exact_unfinished"`
		Sides           []struct {
			Side     string   `json:"side"`
			Win      float64  `json:"win"`
			ExactWin *float64 `json:"exact_win"`
		} `json:"sides"`
		Fights int `json:"fights"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Exact == nil || !*got.Exact || got.ExactUnfinished == nil || math.Abs(*got.ExactUnfinished-0.008) > 1e-9 {
		t.Errorf("exact %v, exact_unfinished %v; want true and 0.008: %s", got.Exact, got.ExactUnfinished, out)
	}
	want := map[string]float64{"pc": 0.744, "npc": 0.248}
	if len(got.Sides) != 2 || got.Fights != 2000 {
		t.Fatalf("sides %+v, fights %d", got.Sides, got.Fights)
	}
	for _, s := range got.Sides {
		if s.ExactWin == nil || math.Abs(*s.ExactWin-want[s.Side]) > 1e-9 || s.Win == 0 {
			t.Errorf("%s: win %v, exact_win %v; want exact_win %v beside the simulated win", s.Side, s.Win, s.ExactWin, want[s.Side])
		}
	}

	code, out, errOut = runSim(t, "--rules", "queue", script, "--rounds", "3", "-n", "2000", "--exact")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, line := range []string{"pc   wins 74.400%", "npc  wins 24.800%", "unfinished after 3 rounds: 0.800%"} {
		if !strings.Contains(out, line) {
			t.Errorf("the text lacks %q:\n%s", line, out)
		}
	}
}

// TestSimInterrupted checks that a run stopped (Ctrl-C cancels the
// context) says so in one line and exits non-zero, printing nothing.
func TestSimInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code := cmdSim(ctx, []string{"--rules", "bpb", "--party", "../../examples/bpb-party.yaml", "--foes", "../../examples/bpb-foes.yaml", "-n", "1000"}, &out, &errOut)
	if code == 0 || out.Len() != 0 || errOut.String() != "fray sim: stopped (interrupted) before the 1000 fights were played\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// TestSimGC checks that fray sim raises the collector's target while it
// plays its fights, unless GOGC is set, and puts it back once they are
// played.
func TestSimGC(t *testing.T) {
	t.Setenv("GOGC", "") // as when the environment sets none
	old := debug.SetGCPercent(150)
	defer debug.SetGCPercent(old)
	restore := fightsGC()
	during := debug.SetGCPercent(simGCPercent)
	restore()
	if during != simGCPercent {
		t.Errorf("while playing, GOGC is %d, want %d", during, simGCPercent)
	}
	if code, _, errOut := runSim(t, "--rules", "bpb", "--party", "../../examples/bpb-party.yaml", "--foes", "../../examples/bpb-foes.yaml", "-n", "50"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("after fray sim, GOGC is %d, want 150 as it was", got)
	}
	t.Setenv("GOGC", "100")
	restore = fightsGC()
	got := debug.SetGCPercent(150)
	restore()
	if got != 150 {
		t.Errorf("with GOGC set in the environment, fray sim changed it to %d", got)
	}
}
