package engine_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
)

// TestRename: rename checks the new name as add does, follows the
// combatant by id (its conditions' "by" and "until" included), and undo
// brings the old name back.
func TestRename(t *testing.T) {
	e := newQueue()
	do(t, e, "add Ann side=pc", "add Bob", "add Cid hidden=yes", "start",
		"condition Ann marked by=Bob until=end:Bob")
	id := e.View().Combatants[1].ID
	refuse(t, e, "rename Bob ann", "already a combatant")
	refuse(t, e, "rename Bob Bob", "already called that")
	refuse(t, e, "rename Bob \"\u202eboB\"", "")
	refuse(t, e, "rename Bob "+strings.Repeat("x", engine.MaxNameLen+1), "MaxNameLen")
	refuse(t, e, "rename Zed Yan", `no combatant named "Zed"`)
	refuse(t, e, "rename Bob", "rename NAME NEWNAME")
	refuse(t, e, "rename Bob Yan x=1", "")
	before := e.State().Clone()
	evs := do(t, e, "rename bob Boris")
	if len(evs) != 1 || evs[0].Type != fray.EventRenamed || !reflect.DeepEqual(evs[0].About, []fray.CombatantID{id}) {
		t.Fatalf("rename gave %+v", evs)
	}
	v := e.View()
	if c := v.Combatants[1]; c.ID != id || c.Name != "Boris" {
		t.Fatalf("after rename: %+v", c)
	}
	x := v.Combatants[0].Conditions[0]
	if x.By != "Boris" || x.ByID != id || x.Until.Name != "Boris" || x.Until.ID != id {
		t.Errorf("Ann's condition after the rename: %+v %+v", x, *x.Until)
	}
	do(t, e, "rename Boris boris") // a change of case alone is a rename
	if got := e.View().Combatants[1].Name; got != "boris" {
		t.Errorf("name %q, want boris", got)
	}
	do(t, e, "undo", "undo")
	if !reflect.DeepEqual(before, e.State()) {
		t.Errorf("undo does not bring the old name back")
	}
	// A player cannot rename anyone: the command word is the GM's (web),
	// and a hidden combatant cannot even be named.
	cmd, _ := engine.ParseCommand("rename Cid Carl")
	if _, err := e.DoAs(fray.Viewer{Role: fray.RolePlayer, Combatant: e.View().Combatants[0].ID}, cmd); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Errorf("a player renaming a hidden combatant: %v, want %s", err, fray.ENOTFOUND)
	}
}

// TestHiddenMark: an event that concerned a combatant hidden when it
// happened is marked Hidden and stays so after the reveal; one after the
// reveal is not; a log written before the mark existed gets it on import.
func TestHiddenMark(t *testing.T) {
	e := newQueue()
	do(t, e, "add Ann side=pc", "add Cid hidden=yes", "condition Ann marked by=Cid", "condition Ann shaken", "reveal Cid", "condition Ann dazed by=Cid")
	want := map[int]bool{1: false, 2: true, 3: true, 4: false, 5: false, 6: false}
	check := func(evs []fray.Event, where string) {
		t.Helper()
		for _, ev := range evs {
			if ev.Hidden != want[ev.Seq] {
				t.Errorf("%s: event %d (%s) hidden %v, want %v", where, ev.Seq, ev.Type, ev.Hidden, want[ev.Seq])
			}
		}
	}
	check(e.Log(), "as played")
	var b bytes.Buffer
	if err := e.Export(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"hidden":true`) {
		t.Fatalf("the exported log records no mark:\n%s", b.String())
	}
	// The same log without the marks, as an older fray wrote it.
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "hidden")
		out, _ := json.Marshal(m)
		lines = append(lines, string(out))
	}
	im, err := engine.Import(strings.NewReader(strings.Join(lines, "\n")), e.System(), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	check(im.Log(), "imported from a log without marks")
}
