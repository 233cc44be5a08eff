package engine_test

import (
	"bytes"
	"go/build"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/rules/queue"
)

func newQueue() *engine.Engine { return engine.New(queue.New(), rand.New(rand.NewPCG(5, 5))) }

func do(t *testing.T, e *engine.Engine, lines ...string) []fray.Event {
	t.Helper()
	var all []fray.Event
	for _, l := range lines {
		cmd, err := engine.ParseCommand(l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		evs, err := e.Do(cmd)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		all = append(all, evs...)
	}
	return all
}

func refuse(t *testing.T, e *engine.Engine, line, want string) {
	t.Helper()
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	n := len(e.Log())
	before := e.State().Clone()
	_, err = e.Do(cmd)
	if err == nil {
		t.Fatalf("%s: accepted, want a refusal containing %q", line, want)
	}
	if !strings.Contains(fray.ErrorMessage(err), want) {
		t.Errorf("%s: %q, want it to contain %q", line, fray.ErrorMessage(err), want)
	}
	if len(e.Log()) != n || !reflect.DeepEqual(before, e.State()) {
		t.Errorf("%s: the refusal changed the encounter", line)
	}
}

func TestUndoRedo(t *testing.T) {
	e := newQueue()
	do(t, e, "add A side=pc wits=3", "add B wits=1")
	s2 := e.State().Clone()
	do(t, e, "start")
	s3 := e.State().Clone()
	do(t, e, "act major")
	do(t, e, "undo")
	if !reflect.DeepEqual(e.State(), s3) {
		t.Fatal("undo did not restore the state before act")
	}
	do(t, e, "undo")
	if !reflect.DeepEqual(e.State(), s2) {
		t.Fatal("a second undo did not restore the state before start")
	}
	do(t, e, "redo")
	if !reflect.DeepEqual(e.State(), s3) {
		t.Fatal("redo did not restore the state after start (same dice)")
	}
	// A new command clears what can be redone.
	do(t, e, "act minor")
	refuse(t, e, "redo", "nothing to redo")
	if a, r := e.Steps(); a != 4 || r != 0 {
		t.Errorf("steps %d applied, %d redoable; want 4, 0", a, r)
	}
	refuse(t, e, "undo now", "Usage: undo (quote names with spaces).")
	for range 4 {
		do(t, e, "undo")
	}
	refuse(t, e, "undo", "nothing to undo")
	// The whole history, undo and redo included, is in the log.
	types := []string{}
	for _, ev := range e.Log() {
		types = append(types, ev.Type)
	}
	want := "added added started queue.acted undo undo redo queue.acted undo undo undo undo"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("log types:\n got %s\nwant %s", got, want)
	}
}

func TestPhysicalDice(t *testing.T) {
	e := newQueue()
	do(t, e, "add A side=pc wits=3")
	refuse(t, e, "initiative A dice=21", "do not fit")
	refuse(t, e, "initiative A dice=3,4", "1 more dice than")
	refuse(t, e, "initiative A dice=x", "not a die face")
	refuse(t, e, "initiative A roll=22", "cannot come from")
	refuse(t, e, "initiative A dice=3 roll=3", "not both")
	refuse(t, e, "add B dice=3", "rolls no dice here")
	evs := do(t, e, "initiative A roll=14")
	if r := evs[0].Rolls[0]; r.Total != 14 || r.Source != fray.RollTotal {
		t.Errorf("roll= gives %+v", r)
	}
	evs = do(t, e, "initiative A dice=17")
	if r := evs[0].Rolls[0]; r.Total != 17 || r.Source != fray.RollFaces || !reflect.DeepEqual(r.Dice, []int{17}) {
		t.Errorf("dice= gives %+v", r)
	}
	do(t, e, "add B wits=1", "add C")
	refuse(t, e, "start dice=4", "do not fit the command's rolls")
	do(t, e, "initiative C 5")
	// A's and C's entered dice are used; dice= gives B's, the one roll left.
	evs = do(t, e, "start dice=4")
	want := []fray.Roll{
		{For: "A", Who: e.Encounter().Find("A").ID, Expr: "1d20", Dice: []int{17}, Total: 17, Source: fray.RollFaces},
		{For: "B", Who: e.Encounter().Find("B").ID, Expr: "1d20", Dice: []int{4}, Total: 4, Source: fray.RollFaces},
		{For: "C", Who: e.Encounter().Find("C").ID, Expr: "1d20", Dice: []int{5}, Total: 5, Source: fray.RollFaces},
	}
	if got := evs[0].Rolls; !reflect.DeepEqual(got, want) {
		t.Errorf("start rolls\n got %+v\nwant %+v", got, want)
	}
}

func TestRollsAreNotRerolledOnReplay(t *testing.T) {
	e := newQueue()
	do(t, e, "add A side=pc", "add B", "add C", "start")
	// Replaying with a different random source rebuilds the same queue.
	r, err := engine.Replay(queue.New(), rand.New(rand.NewPCG(99, 99)), e.Log())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e.View(), r.View()) {
		t.Errorf("replay rerolled: %+v vs %+v", e.View().Order, r.View().Order)
	}
}

func TestExportImport(t *testing.T) {
	e := engine.New(bpb.New(), rand.New(rand.NewPCG(1, 1)))
	e.Seed = 42
	do(t, e, "add Ann side=pc", "add Bob", "start", "next", "delay", "undo")
	var buf bytes.Buffer
	if err := e.Export(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if want := `{"schema":"fray.log","version":3,"rules":"bpb","seed":42}`; lines[0] != want {
		t.Errorf("header %s, want %s", lines[0], want)
	}
	if len(lines) != 1+len(e.Log()) {
		t.Errorf("%d lines for %d events", len(lines), len(e.Log()))
	}
	im, err := engine.Import(strings.NewReader(buf.String()), bpb.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e.State(), im.State()) {
		t.Error("import gives another state")
	}
	do(t, im, "redo") // the undone step is still redoable after import
	if im.View().Current != "Ann" {
		t.Errorf("after redo, current %q", im.View().Current)
	}

	bad := []struct{ name, log, want string }{
		{"empty", "", "empty"},
		{"no header", `{"seq":1}`, "header"},
		{"new version", `{"schema":"fray.log","version":4,"rules":"bpb"}`, "version 4"},
		{"other rules", `{"schema":"fray.log","version":1,"rules":"queue"}`, `for the rules "queue"`},
		{"gap", lines[0] + "\n" + strings.Replace(lines[1], `"seq":1`, `"seq":3`, 1), "out of sequence"},
		{"not json", lines[0] + "\n{", "not an event"},
		{"bad undo", lines[0] + "\n" + `{"seq":1,"step":0,"type":"undo","data":{"step":1}}`, "not the last applied step"},
		{"bad data", lines[0] + "\n" + `{"seq":1,"step":1,"type":"bpb.turn_ended","data":{"name":"Zed"}}`, "cannot be applied"},
		{"unknown type", lines[0] + "\n" + `{"seq":1,"step":1,"type":"bpb.nonsense","data":{}}`, "unknown to Bulletproof Blues"},
		{"long line", lines[0] + "\n" + strings.Repeat("x", engine.MaxLogLine+1), "MaxLogLine"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := engine.Import(strings.NewReader(tt.log), bpb.New(), nil)
			if err == nil || !strings.Contains(fray.ErrorMessage(err), tt.want) {
				t.Errorf("Import: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestSharedCommands(t *testing.T) {
	e := newQueue()
	do(t, e, "add Ann side=pc wits=2 hidden=yes notes=tall")
	refuse(t, e, "add ann", "already a combatant")
	refuse(t, e, "add Bob side=alien", "add: side=alien is not allowed; use one of pc, npc.")
	refuse(t, e, "add Bob kind=dragon", "add: kind=dragon is not allowed; use one of character, group, environment.")
	refuse(t, e, "add Bob agility=3", "does not know the key agility=")
	refuse(t, e, "add Bob wits=lots", "not a whole number")
	refuse(t, e, "add Bob hidden=maybe", "add: hidden=maybe is not allowed; use one of yes, no.")
	refuse(t, e, `add " Bob"`, "starts or ends with a blank")
	refuse(t, e, "add "+strings.Repeat("x", engine.MaxNameLen+1), "MaxNameLen")
	refuse(t, e, "add Bob Carl", "Usage: add NAME [side=pc|npc]")
	refuse(t, e, "remove Zed", `no combatant named "Zed"`)
	refuse(t, e, "reveal Zed", `no combatant named "Zed"`)
	refuse(t, e, "set x=y", "set does not know the key x=; it takes hitbase=, player_dice=, tohit=.")
	do(t, e, "note Ann has a sword", "reveal Ann")
	refuse(t, e, "reveal Ann", "not hidden")
	c := e.View().Combatants[0]
	if c.Hidden || c.Notes != "tall\nhas a sword" || c.Stat("wits") != 2 || !c.IsPC() {
		t.Errorf("Ann is %+v", c)
	}
	do(t, e, "remove ANN")
	if n := len(e.View().Combatants); n != 0 {
		t.Errorf("%d combatants after remove", n)
	}
}

// TestImports guards the layering: fray and engine use the standard
// library only (engine also fray and fray/dice), and Unicode
// normalisation, which names are compared in.
func TestImports(t *testing.T) {
	const norm = "golang.org/x/text/unicode/norm"
	for dir, allowed := range map[string][]string{"..": {norm}, ".": {"fray", "fray/dice", norm}} {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range pkg.Imports {
			first, _, _ := strings.Cut(imp, "/")
			std := !strings.Contains(first, ".") && first != "fray"
			ok := std
			for _, a := range allowed {
				ok = ok || imp == a
			}
			if !ok {
				t.Errorf("package %s imports %s", pkg.ImportPath, imp)
			}
		}
	}
}
