package vv_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
)

// renameFight plays a turn and a half: in turn 1 Alpha spends Power on a
// note that names Bravo, and everyone acts or declines; in turn 2 Bravo
// holds on 30, Charlie is dazed by Bravo until the end of Alpha's turn,
// and on Alpha's 25 Bravo interrupts with the held action. Bravo is then
// both acting and the one the count waits on, Alpha is interrupted and
// anchors the condition, Bravo caused it.
const renameFight = `add Alpha agility=30 move=30 power=20
add Bravo agility=20 power=10
add Charlie agility=10
initiative Alpha 10
initiative Bravo 10
initiative Charlie 10
start
spend Alpha power=2 note="shield for Bravo"
act
next
next
act
next
next
next
next
initiative Alpha 10
initiative Bravo 10
initiative Charlie 10
next
act
next
hold
condition Charlie dazed by=Bravo until=end:Alpha mod=-2 on=attack
interrupt Bravo before=Alpha`

// renames are the renames the tests make, old name first.
var renames = [][2]string{{"Alpha", "Ace"}, {"Bravo", "Bolt"}, {"Charlie", "Cinder"}}

func renameAll(t *testing.T, e *engine.Engine) {
	t.Helper()
	for _, r := range renames {
		do(t, e, "rename "+r[0]+" "+r[1])
	}
}

// viewWords returns every string of the view but the ones a person typed
// (the spending's note), for a search for old names.
func viewWords(t *testing.T, v fray.View) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "shield for Bravo", "shield for …")
}

func TestRenameMidFight(t *testing.T) {
	e, _ := newEngine(t, renameFight)
	before, beforeState := e.View(), e.State().Clone()
	if before.Current != "Bravo" {
		t.Fatalf("current %q, want Bravo interrupting", before.Current)
	}
	renameAll(t, e)

	v := e.View()
	if v.Current != "Bolt" || v.CurrentID != before.CurrentID {
		t.Errorf("current %q (%s), want Bolt (%s)", v.Current, v.CurrentID, before.CurrentID)
	}
	if got := st(e).Current(); got != "Bolt" {
		t.Errorf("State.Current %q, want Bolt", got)
	}
	wantOrder := []string{"40 Ace [acted]", "30 Bolt [held]", "25 Bolt [current]", "25 Ace", "20 Cinder", "15 Bolt", "10 Ace", "5 Cinder"}
	if diff := cmp.Diff(wantOrder, order(e)); diff != "" {
		t.Errorf("order after the renames (-want +got):\n%s", diff)
	}
	for i, sl := range v.Order {
		if sl.ID != before.Order[i].ID {
			t.Errorf("slot %d is %s (%s), was %s", i, sl.Name, sl.ID, before.Order[i].ID)
		}
	}
	wantHistory := []string{
		"Round 1: Ace (2 Power spent on phase 40: shield for Bravo), Ace (40), Bolt (30, declined), Ace (25, 2 Power), Cinder (20, declined), Bolt (15, declined), Ace (10, declined), Cinder (5, declined)",
		"Round 2: Ace (40), Bolt (30, held)",
	}
	if diff := cmp.Diff(wantHistory, history(e)); diff != "" {
		t.Errorf("history after the renames (-want +got):\n%s", diff)
	}
	// The typed note keeps its words; whom it names follows the rename.
	if diff := cmp.Diff([][]string{{"Ace", "Bolt"}, {"Ace"}, {"Bolt"}, {"Ace"}, {"Cinder"}, {"Bolt"}, {"Ace"}, {"Cinder"}}, v.History[0].Who); diff != "" {
		t.Errorf("round 1's Who (-want +got):\n%s", diff)
	}
	var dazed *fray.Condition
	for i := range v.Combatants {
		if x := v.Combatants[i].Condition("dazed"); x != nil {
			dazed = x
		}
	}
	if dazed == nil || dazed.By != "Bolt" || dazed.Until == nil || dazed.Until.Name != "Ace" {
		t.Errorf("dazed is %+v, want by Bolt until the end of Ace's turn", dazed)
	}
	words := viewWords(t, v)
	for _, r := range renames {
		if strings.Contains(words, r[0]) {
			t.Errorf("the view still says %s: %s", r[0], words)
		}
	}

	// Undoing the renames brings back every old name, and the state as
	// it was; redoing them, the new.
	renamed := e.View()
	for range renames {
		if _, err := e.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(before, e.View()); diff != "" {
		t.Errorf("view after undoing the renames (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(beforeState, e.State()); diff != "" {
		t.Errorf("state after undoing the renames (-before +after):\n%s", diff)
	}
	for range renames {
		if _, err := e.Redo(); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(renamed, e.View()); diff != "" {
		t.Errorf("view after redoing the renames (-renamed +redone):\n%s", diff)
	}

	// Later commands take the new names and refuse the old ones. Bolt's
	// held action is taken; then Ace's interrupted phase ends, and with it
	// the dazed anchored to the end of Ace's turn.
	do(t, e, `!act Bravo
act Bolt
!next Bravo
next Bolt
!next Alpha`)
	if got := e.View().Current; got != "Ace" {
		t.Fatalf("current %q after the interrupt, want Ace", got)
	}
	if st(e).Find("Cinder").Condition("dazed") == nil {
		t.Errorf("dazed ended before the end of Ace's turn")
	}
	do(t, e, `next Ace
!facing Charlie north
facing Cinder north
!upkeep Alpha 1
upkeep Ace 1
!order Bravo Alpha
order Bolt Ace
!spend Alpha power=1
spend Ace power=1 note="for Bolt"
!remove Charlie
remove Cinder`)
	if x := st(e).Find("Cinder"); x != nil {
		t.Errorf("Cinder is still present")
	}
	if got := st(e).Phases("Ace"); !cmp.Equal(got, []int{40, 25, 10}) {
		t.Errorf("Ace's phases %v, want 40, 25, 10", got)
	}
	if got := st(e).Holding("Bolt"); got != 0 {
		t.Errorf("Bolt holds %d actions after using the held one", got)
	}
	if got := st(e).Power("Ace"); got != 15 {
		t.Errorf("Ace's Power %d, want 20 − 2 − 2 − 1", got)
	}
	wantHistory = []string{
		wantHistory[0],
		"Round 2: Ace (40), Bolt (30, held), Bolt (25, held action from phase 30), Ace (25, declined), Ace (1 Power spent on phase 20: for Bolt)",
	}
	if diff := cmp.Diff(wantHistory, history(e)); diff != "" {
		t.Errorf("history at the end (-want +got):\n%s", diff)
	}
	v = e.View()
	if diff := cmp.Diff([][]string{{"Ace"}, {"Bolt"}, {"Bolt"}, {"Ace"}, {"Ace", "Bolt"}}, v.History[1].Who); diff != "" {
		t.Errorf("round 2's Who (-want +got):\n%s", diff)
	}
	if got := st(e).Find("Ace").Condition("dazed"); got != nil {
		t.Errorf("Ace is dazed: %+v", got)
	}
	for _, c := range v.Combatants {
		if c.Condition("dazed") != nil {
			t.Errorf("%s is still dazed after the end of Ace's turn", c.Name)
		}
	}
}

// TestRenameUndoThenOldName: after the rename is undone, the old name is
// the one commands take.
func TestRenameUndoThenOldName(t *testing.T) {
	e, _ := newEngine(t, renameFight)
	do(t, e, "rename Bravo Bolt\n!act Bravo")
	if _, err := e.Undo(); err != nil {
		t.Fatal(err)
	}
	do(t, e, "!act Bolt\nact Bravo\nnext Bravo")
	if got := e.View().Current; got != "Alpha" {
		t.Errorf("current %q, want Alpha", got)
	}
	if diff := cmp.Diff("Round 2: Alpha (40), Bravo (30, held), Bravo (25, held action from phase 30)", history(e)[1]); diff != "" {
		t.Errorf("round 2 (-want +got):\n%s", diff)
	}
}

// TestRenameAcrossTurns: a rename in a later turn renames the earlier
// turns' history, a gone combatant's turns keep the name they left with,
// and a combatant renamed to a name a removed one had is not mistaken
// for them.
func TestRenameAcrossTurns(t *testing.T) {
	e, _ := newEngine(t, renameFight)
	do(t, e, `act Bravo
next
next
remove Charlie
rename Bravo Charlie
rename Alpha Bravo`)
	want := []string{
		"Round 1: Bravo (2 Power spent on phase 40: shield for Bravo), Bravo (40), Charlie (30, declined), Bravo (25, 2 Power), Charlie (20, declined), Charlie (15, declined), Bravo (10, declined), Charlie (5, declined)",
		"Round 2: Bravo (40), Charlie (30, held), Charlie (25, held action from phase 30), Bravo (25, declined)",
	}
	if diff := cmp.Diff(want, history(e)); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	// Round 1's note names the Bravo that is now Charlie.
	if diff := cmp.Diff([][]string{{"Bravo", "Charlie"}, {"Bravo"}, {"Charlie"}, {"Bravo"}, {"Charlie"}, {"Charlie"}, {"Bravo"}, {"Charlie"}}, e.View().History[0].Who); diff != "" {
		t.Errorf("round 1's Who (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"40 Bravo [acted]", "30 Charlie [held]", "25 Bravo", "15 Charlie [current]", "10 Bravo"}, order(e)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	do(t, e, "!next Bravo\nnext Charlie\n!next Charlie\n!next Alpha\nnext Bravo")
	if v := e.View(); v.Round != 3 {
		t.Errorf("turn %d, want 3", v.Round)
	}
	want[1] += ", Charlie (15, declined), Bravo (10, declined)"
	if diff := cmp.Diff(want, history(e)[:2]); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
}
