package queue_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

// renameFight is seed 004's encounter (setup) played into round 2: Johann
// took the blow for Melvina in round 1 (a reaction whose note names her),
// the bear reacted to Melvina, and now Brigand #2 takes his turn with
// Johann reacting to him, waiting below him. Melvina is shielded until
// the end of Johann's turn, by Johann; Johann is shaken until the start of
// Melvina's turn, by Brigand #2.
const renameFight = setup + `
next
next
react Johann to="Brigand #2" note="takes the blow for Melvina"
next
react "Pet Bear" to=Melvina
next
next
condition Melvina shielded until=end:Johann by=Johann mod=1 on=defence
condition Johann shaken until=start:Melvina by="Brigand #2" mod=-1 on=attack
react Johann to="Brigand #2"`

// The note Johann's player typed, which keeps the name it was typed with.
const typedNote = "takes the blow for Melvina"

// renames gives new names to the current actor (Brigand #2, whom Johann
// answered and who caused Johann's condition), to the reactor waiting
// below him (Johann, who anchors and caused Melvina's condition and took
// turns in the history) and to Melvina (named by a note, anchoring
// Johann's condition).
const renames = `rename "Brigand #2" Bruno
rename Johann Hans
rename Melvina Mel`

// TestRenameMidFight renames combatants the queue refers to in every way
// it does (the top, a reactor below, the one answered, the history, a
// note's mentions, the conditions' causes and anchors): the view shows
// only the new names, later commands take the new names and refuse the
// old ones, and undoing the renames gives the old names back everywhere.
func TestRenameMidFight(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
	run(t, e, renameFight)
	before := e.View()
	if before.Current != "Brigand #2" || queueOf(before) != "Brigand #2, Melvina, Pet Bear, Brigand #1, Johann" {
		t.Fatalf("the fight before the renames: %s current, queue %s", before.Current, queueOf(before))
	}
	run(t, e, renames)
	v := e.View()

	if v.Current != "Bruno" || v.CurrentID != before.CurrentID {
		t.Errorf("current %q (%s), want Bruno (%s)", v.Current, v.CurrentID, before.CurrentID)
	}
	if got, want := queueOf(v), "Bruno, Mel, Pet Bear, Brigand #1, Hans"; got != want {
		t.Errorf("queue %s, want %s", got, want)
	}
	if got, want := nextOf(v), "Mel, Pet Bear, Brigand #1, Bruno, Hans"; got != want {
		t.Errorf("next %s, want %s", got, want)
	}
	for i, sl := range v.Order {
		if sl.ID != before.Order[i].ID {
			t.Errorf("slot %d: id %s, want %s as before the renames", i, sl.ID, before.Order[i].ID)
		}
	}
	if hans := v.Order[4]; hans.Note != "below Bruno" || !reflect.DeepEqual(hans.About, []string{"Bruno"}) || !hans.Has(fray.MarkReacted) {
		t.Errorf("the reactor's slot: %+v, want below Bruno, about Bruno", hans)
	}
	wantHistory := []fray.RoundTurns{
		{Round: 1, Turns: []string{"Hans", "Brigand #1", "Bruno", "Hans (" + typedNote + ")", "Mel", "Pet Bear (reacts to Mel)"},
			Who: [][]string{{"Hans"}, {"Brigand #1"}, {"Bruno"}, {"Hans", "Mel"}, {"Mel"}, {"Pet Bear", "Mel"}}},
		{Round: 2, Turns: []string{"Brigand #1", "Bruno", "Hans (reacts to Bruno)"},
			Who: [][]string{{"Brigand #1"}, {"Bruno"}, {"Hans", "Bruno"}}},
	}
	if !reflect.DeepEqual(v.History, wantHistory) {
		t.Errorf("history\n%+v\nwant\n%+v", v.History, wantHistory)
	}
	if c := conditionOf(v, "Mel", "shielded"); c == nil || c.By != "Hans" || c.Until == nil || c.Until.Name != "Hans" {
		t.Errorf("Mel's shield: %+v, want by Hans until the end of Hans's turn", c)
	}
	if c := conditionOf(v, "Hans", "shaken"); c == nil || c.By != "Bruno" || c.Until == nil || c.Until.Name != "Mel" {
		t.Errorf("Hans shaken: %+v, want by Bruno until the start of Mel's turn", c)
	}
	// No old name is left in the view but in the words a person typed.
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(raw), typedNote, "")
	for _, old := range []string{"Johann", "Brigand #2", "Melvina"} {
		if strings.Contains(text, old) {
			t.Errorf("the view still names %s: %s", old, raw)
		}
	}

	// Undo gives the old names back, one rename at a time, and redo the
	// new ones.
	renamed := e.State().Clone()
	if _, err := e.Undo(); err != nil {
		t.Fatal(err)
	}
	if h := e.View().History[0]; h.Turns[4] != "Melvina" || !reflect.DeepEqual(h.Who[3], []string{"Hans", "Melvina"}) {
		t.Errorf("round 1 after undoing Melvina's rename: %+v", h)
	}
	if c := conditionOf(e.View(), "Hans", "shaken"); c == nil || c.Until.Name != "Melvina" {
		t.Errorf("Hans shaken after undoing Melvina's rename: %+v", c)
	}
	for range 2 {
		if _, err := e.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.View(); !reflect.DeepEqual(got, before) {
		t.Errorf("after undoing the renames the view is\n%+v\nwant as before them\n%+v", got, before)
	}
	for range 3 {
		if _, err := e.Redo(); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(e.State(), renamed) {
		t.Errorf("redoing the renames does not give the renamed state back")
	}

	// Later commands take the new names and refuse the old ones.
	refuse(t, e, `act "Brigand #2" major`, "no combatant")
	refuse(t, e, "act Johann major", "no combatant")
	refuse(t, e, "react Melvina to=Bruno", "no combatant")
	refuse(t, e, "react Mel to=Johann", "no combatant")
	run(t, e, "act Bruno major")
	refuse(t, e, `next "Brigand #2"`, "no combatant")
	run(t, e, "next Bruno")
	// Bruno goes to the bottom, Hans right below him, and Mel's turn
	// begins: Hans is no longer shaken (it ended at the start of Mel's
	// turn); Mel is shielded until Hans's turn ends.
	v = e.View()
	if v.Current != "Mel" || queueOf(v) != "Mel, Pet Bear, Brigand #1, Bruno, Hans" {
		t.Errorf("after Bruno's turn: %s current, queue %s", v.Current, queueOf(v))
	}
	if c := conditionOf(v, "Hans", "shaken"); c != nil {
		t.Errorf("Hans is still shaken at the start of Mel's turn: %+v", c)
	}
	if c := conditionOf(v, "Mel", "shielded"); c == nil {
		t.Error("Mel's shield ended before Hans's turn")
	}
	refuse(t, e, "react Johann to=Mel", "no combatant")
	run(t, e, "react Hans to=Mel\nnext Mel\nnext\nnext\nnext")
	// Hans reacted to Mel (no turn of his own) and stands below her; Pet
	// Bear ends round 2, and Brigand #1 and Bruno begin round 3 before
	// Mel's turn comes again, then Hans's.
	v = e.View()
	if v.Round != 3 || v.Current != "Mel" {
		t.Errorf("round %d, %s current; want round 3, Mel", v.Round, v.Current)
	}
	run(t, e, "next Mel")
	if v = e.View(); v.Current != "Hans" {
		t.Fatalf("%s current, want Hans", v.Current)
	}
	run(t, e, "next Hans")
	if c := conditionOf(e.View(), "Mel", "shielded"); c != nil {
		t.Errorf("Mel is still shielded after Hans's turn ended: %+v", c)
	}
	if got, want := e.View().History[2].String(), "Round 3: Brigand #1, Bruno, Mel, Hans, Pet Bear"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// A fighter's record (hit points, Injuries to choose) and weapons follow a
// rename: the view says the new name in the Injury's prompt, and damage,
// attacks and injury take the new name.
func TestRenameFighter(t *testing.T) {
	e := newFight(t, "damage Bob 6\ndamage Bob 1")
	run(t, e, "rename Bob Robert\nrename Ann Anna")
	v := e.View()
	if got, want := v.Order[1].Note, "Incapacitated, an Injury to choose: injury Robert scarred|maimed|dead"; got != want {
		t.Errorf("Robert's slot: %q, want %q", got, want)
	}
	if left, ok := e.State().(*queue.State).HP("Robert"); !ok || left != 0 {
		t.Errorf("Robert has %d hit points (%v), want 0", left, ok)
	}
	refuse(t, e, "injury Bob scarred", "no combatant")
	run(t, e, "injury Robert scarred")
	refuse(t, e, "attack Ann Robert with=sword hit=yes dice=1,1", "no combatant")
	run(t, e, "attack Anna Robert with=sword hit=yes dice=1,1")
	if v := e.View(); !strings.Contains(v.Order[1].Note, "scarred") || !strings.Contains(v.Order[1].Note, "injury Robert maimed|dead") {
		t.Errorf("Robert's slot after the attack: %q", v.Order[1].Note)
	}
	run(t, e, "next Anna\ndamage Anna 2\nheal Anna 1\nundo")
	// Undo the damage, the turn, the attack, the Injury and the renames.
	for range 6 {
		if _, err := e.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := e.View().Order[1].Note, "Incapacitated, an Injury to choose: injury Bob scarred|maimed|dead"; got != want {
		t.Errorf("after undoing the renames: %q, want %q", got, want)
	}
}

// Before the start, the GM's tiebreak order and a die entered with
// initiative follow a rename: the queue rolls for the combatant, whatever
// they are called.
func TestRenameBeforeStart(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e, "add A wits=0\nadd B wits=0\nadd C wits=0\norder C B A\ninitiative A 20\ninitiative B 1\ninitiative C 1")
	run(t, e, "rename A Zed\nrename C Cy")
	if got, want := queueOf(e.View()), "Cy, B, Zed"; got != want {
		t.Errorf("the tiebreak order %s, want %s", got, want)
	}
	refuse(t, e, "initiative A 5", "no combatant")
	run(t, e, "start")
	// Zed rolled 20; B and Cy tie on 1, and the GM put Cy first.
	if got, want := queueOf(e.View()), "Zed, Cy, B"; got != want {
		t.Errorf("the queue %s, want %s", got, want)
	}
}

// conditionOf returns the named combatant's condition in v, or nil.
func conditionOf(v fray.View, name, condition string) *fray.Condition {
	for _, c := range v.Combatants {
		if c.Name == name {
			return c.Condition(condition)
		}
	}
	return nil
}
