package bpb_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/rules/bpb"
)

// renames are the renames of TestRenameMidFight, old name first.
var renames = [][2]string{
	{"Ganyeka", "Ganny"},
	{"Blueshift", "Azure"},
	{"Monolith", "Slab"},
	{"Ganyeka's henchmen", "Thugs"},
}

// noOldNames fails when any text of the view (the combatants' notes
// aside, which the GM wrote) holds one of the old names of renames.
func noOldNames(t *testing.T, when string, v fray.View) {
	t.Helper()
	for i := range v.Combatants {
		v.Combatants[i].Notes = ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, r := range renames {
		if i := strings.Index(text, r[0]); i >= 0 {
			t.Errorf("%s: the view still says %q: …%s…", when, r[0], text[max(i-60, 0):min(i+len(r[0])+20, len(text))])
		}
	}
}

// TestRenameMidFight renames, in the middle of round 2, the combatant
// whose turn it is (Ganyeka: the attacker of a hit waiting for a defence,
// who caused two conditions and anchors them, one of them ended by the
// start of his turn), the defender the hit waits on, who holds a delayed
// turn (Blueshift), the holder of the conditions, whose forced block the
// history of round 1 records (Monolith), and the henchmen. The view says
// only the new names, in every round of the history too; later commands
// go by the new names and refuse the old ones; undoing the renames brings
// the old names back everywhere.
func TestRenameMidFight(t *testing.T) {
	e := seeded(t)
	run(t, e, `next Blueshift
condition Monolith marked by=Ganyeka until=start:Ganyeka@2
attack Ganyeka Monolith with=blast dice=6,1
block Monolith dice=4,3
next Ganyeka
next "Ganyeka's henchmen"
delay Blueshift
condition Monolith dazzled by=Ganyeka until=end:Ganyeka
attack Ganyeka Blueshift with=blast dice=6,5`)
	if e.State().(*bpb.State).Pending == nil {
		t.Fatal("Ganyeka's Blast should wait for Blueshift's defence")
	}
	if has(e, "Monolith", "marked") {
		t.Fatal("the start of Ganyeka's turn should have ended Monolith's marked")
	}
	before, st := e.View(), e.State().Clone()
	ids := map[string]fray.CombatantID{}
	for _, c := range before.Combatants {
		ids[c.Name] = c.ID
	}

	for _, r := range renames {
		doLine(t, e, "rename "+quote(r[0])+" "+quote(r[1]))
	}
	if e.State().(*bpb.State).Pending == nil {
		t.Fatal("the renames settled the hit waiting for a defence")
	}
	v := e.View()
	noOldNames(t, "after the renames", v)
	if v.Current != "Ganny" || v.CurrentID != ids["Ganyeka"] {
		t.Errorf("current %q (%s), want Ganny (%s)", v.Current, v.CurrentID, ids["Ganyeka"])
	}
	if got, want := names(v.Order), "Azure (delayed), Ganny (current), Slab, Thugs"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	if got, want := names(v.Next), "Azure, Ganny, Slab, Thugs"; got != want {
		t.Errorf("next round %q, want %q", got, want)
	}
	for i, sl := range v.Order {
		if sl.ID != before.Order[i].ID || sl.ID != ids[renamedFrom(sl.Name)] {
			t.Errorf("slot %d: %s is %s, want %s", i, sl.Name, sl.ID, before.Order[i].ID)
		}
	}
	wantHistory := []string{"Round 1: Azure, Ganny, Slab (blocks attack by Ganny), Thugs", "Round 2: Ganny"}
	if got := history(v); !slices.Equal(got, wantHistory) {
		t.Errorf("history %q, want %q", got, wantHistory)
	}
	if who := v.History[0].Who; len(who) != 4 || !slices.Equal(who[2], []string{"Slab", "Ganny"}) {
		t.Errorf("round 1's Who %q, want Slab's turn to mention Ganny", who)
	}
	if x := condition(e, "Slab", "dazzled"); x == nil || x.By != "Ganny" || x.Until == nil || x.Until.Name != "Ganny" {
		t.Errorf("Slab's dazzled after the renames: %+v", x)
	}
	if x := condition(e, "Slab", "blocking"); x == nil || x.Until == nil || x.Until.Name != "Slab" {
		t.Errorf("Slab's blocking after the renames: %+v", x)
	}

	// The old names name nobody now.
	for _, line := range []string{"take Blueshift", "block Blueshift", "interrupt Blueshift", "next Ganyeka", "force Monolith", "attack Ganyeka Azure with=blast"} {
		refused(t, e, line, "no combatant named")
	}
	refused(t, e, "take Slab", "against Azure, not Slab")
	refused(t, e, "next Azure", "It is Ganny's turn, not Azure's")

	// Undoing the renames brings the old names back everywhere.
	for range renames {
		doLine(t, e, "undo")
	}
	if !reflect.DeepEqual(e.State(), st) {
		t.Error("undoing the renames does not restore the state before them")
	}
	if got := e.View(); !reflect.DeepEqual(got, before) {
		t.Errorf("undoing the renames does not restore the view:\n%+v\nwant\n%+v", got, before)
	}
	for range renames {
		doLine(t, e, "redo")
	}

	// Later commands go by the new names, and the payloads they record
	// hold the same ids.
	evs := doLine(t, e, "take Azure")
	for _, ev := range evs {
		if ev.Type != bpb.EventDamaged {
			continue
		}
		var d struct{ Name, By fray.CombatantID }
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if d.Name != ids["Blueshift"] || d.By != ids["Ganyeka"] {
			t.Errorf("the damage records %+v, want Azure hurt by Ganny", d)
		}
	}
	if got := enduranceOf(e, "Azure"); got != 13 {
		t.Errorf("Azure's Endurance %d, want 20 − (9 − 2) = 13", got)
	}
	// Azure's delayed turn pre-empts Ganny's, whose start gives back
	// the condition it ended, with the new names.
	doLine(t, e, "interrupt Azure")
	if v := e.View(); v.Current != "Azure" || names(v.Order) != "Azure (delayed), Azure (delayed, current), Ganny, Slab, Thugs" {
		t.Errorf("after interrupt Azure: current %s, order %q", v.Current, names(v.Order))
	}
	if x := condition(e, "Slab", "marked"); x == nil || x.By != "Ganny" || x.Until == nil || x.Until.Name != "Ganny" {
		t.Errorf("Slab's marked, given back by the pre-empted start of Ganny's turn: %+v", x)
	}
	doLine(t, e, "next Azure")
	if v := e.View(); v.Current != "Ganny" || has(e, "Slab", "marked") {
		t.Errorf("after Azure's delayed turn: current %s, Slab marked %v; want Ganny's turn to start again and end it", v.Current, has(e, "Slab", "marked"))
	}
	doLine(t, e, "next Ganny")
	if has(e, "Slab", "dazzled") || has(e, "Slab", "blocking") {
		t.Errorf("the end of Ganny's turn and the start of Slab's should end dazzled and blocking: %v", combatant(e, "Slab").Conditions)
	}
	doLine(t, e, "force Azure")
	refused(t, e, "force Azure", "Azure has already forced an action in round 2")
	run(t, e, "next Slab\nnext Thugs")
	v = e.View()
	noOldNames(t, "in round 3", v)
	wantHistory = []string{
		"Round 1: Azure, Ganny, Slab (blocks attack by Ganny), Thugs",
		"Round 2: Azure (delayed), Ganny, Slab, Azure (forced from round 3), Thugs",
		"Round 3: Ganny",
	}
	if got := history(v); !slices.Equal(got, wantHistory) {
		t.Errorf("history %q, want %q", got, wantHistory)
	}
	if got, want := names(v.Order), "Azure (lost), Ganny (current), Slab, Thugs"; got != want {
		t.Errorf("round 3's order %q, want %q", got, want)
	}
}

// TestRenameBeforeStart: a rename before the start keeps the declared
// order and the physical dice entered for the rolled order with the
// combatant, and the start records the new name.
func TestRenameBeforeStart(t *testing.T) {
	e := newEngine()
	run(t, e, `add Blueshift side=pc perception=4
add Ganyeka perception=3
add Monolith side=pc perception=3
order Monolith Blueshift Ganyeka
initiative Blueshift 6,6
initiative Monolith 1,1
rename Blueshift Azure
rename Monolith Slab`)
	if got, want := names(e.View().Order), "Slab, Azure, Ganyeka"; got != want {
		t.Errorf("declared order %q, want %q", got, want)
	}
	refused(t, e, "initiative Blueshift 3,3", "no combatant named")
	evs := doLine(t, e, "start order=rolled")
	if got, want := startedOrder(t, e, evs), []string{"Azure", "Ganyeka", "Slab"}; !slices.Equal(got, want) {
		t.Errorf("rolled order %q, want %q", got, want)
	}
	for _, r := range evs[0].Rolls {
		if r.For == "Blueshift" || r.For == "Monolith" {
			t.Errorf("the start records a roll for %q, renamed", r.For)
		}
		if r.For == "Azure" && r.Total != 12 || r.For == "Slab" && r.Total != 2 {
			t.Errorf("the roll for %s is %d, not the dice entered", r.For, r.Total)
		}
	}
	if v := e.View(); v.Current != "Azure" {
		t.Errorf("current %q, want Azure", v.Current)
	}
}

// renamedFrom returns the old name of a new name of renames.
func renamedFrom(name string) string {
	for _, r := range renames {
		if r[1] == name {
			return r[0]
		}
	}
	return name
}

// quote quotes a name as a command line needs it.
func quote(name string) string {
	return fray.Command{Name: "x", Args: []string{name}}.String()[2:]
}
