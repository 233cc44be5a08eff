package cinematic_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/rules/cinematic"
)

// renameFight is a round of the crypt with words in its history, a
// complication the Master caused and whose end is anchored to his turn,
// and, in round 2, the Master's attack waiting for Rosa's answer on his
// turn.
const renameFight = `attack Rosa Vampire with=Stake dice=5,3
defend Master against=Rosa
next
complication Bernie blind by=Master until=end:Master@2
attack
next
defend Rosa against=Vampire
next
next
next
next
attack Master Rosa with=Sword defence=wait dice=6`

// Renames in the middle of a fight: the Master, whose turn it is, whose
// attack waits, who caused Bernie's blindness and whose turn ends it, and
// Rosa, whose answer is due and who took turns in round 1. Everything the
// view shows follows the new names; the old ones are refused; undo brings
// them back.
func TestRenameMidFight(t *testing.T) {
	e := sheeted(t, renameFight)
	before := e.View()
	do(t, e, `rename Master Lord
rename rosa Buffy`)

	v := e.View()
	if v.Current != "Lord" || v.CurrentID != state(e).Current() {
		t.Errorf("current: %q (%s), want Lord (%s)", v.Current, v.CurrentID, state(e).Current())
	}
	var order, next []string
	for _, s := range v.Order {
		order = append(order, s.Name)
		if id := state(e).Find(s.Name).ID; s.ID != id {
			t.Errorf("%s's slot has the id %q, want %q", s.Name, s.ID, id)
		}
	}
	for _, s := range v.Next {
		next = append(next, s.Name)
	}
	want := []string{"Buffy", "Lord", "Vampire", "Bernie", "Oswin"}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, next); diff != "" {
		t.Errorf("next round (-want +got):\n%s", diff)
	}
	// The answer due, in the defender's slot.
	if n := slotNote(e, "Buffy"); !strings.Contains(n, "to answer Lord's attack (total 15)") {
		t.Errorf("Buffy's slot: %q", n)
	}
	for _, s := range v.Order {
		if s.Name == "Buffy" && !slices.Equal(s.About, []string{"Lord"}) {
			t.Errorf("Buffy's slot is about %q, want Lord", s.About)
		}
	}
	if w := state(e).Waiting; w == nil || state(e).NameOf(w.AttackerID) != "Lord" || state(e).NameOf(w.TargetID) != "Buffy" {
		t.Errorf("waiting: %+v", w)
	}
	// The history of round 1, in the new names.
	wantHistory := []fray.RoundTurns{{
		Round: 1,
		Turns: []string{"Buffy (attack on Vampire; Vampire defends; Lord defends)", "Lord (attack)", "Vampire (Buffy defends)", "Bernie", "Oswin"},
		Who:   [][]string{{"Buffy", "Vampire", "Lord"}, {"Lord"}, {"Vampire", "Buffy"}, {"Bernie"}, {"Oswin"}},
	}, {Round: 2, Turns: []string{"Buffy"}, Who: [][]string{{"Buffy"}}}}
	if diff := cmp.Diff(wantHistory, v.History); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	// The complication Lord caused, which ends with his turn.
	if x := cond(e, "Bernie", cinematic.CondBlind); x == nil || x.By != "Lord" || x.Until == nil || x.Until.Name != "Lord" {
		t.Errorf("Bernie's blindness: %+v", x)
	}
	// Nothing in the view says the old names.
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{"Master", "Rosa"} {
		if strings.Contains(string(raw), old) {
			t.Errorf("the view still says %s:\n%s", old, raw)
		}
	}

	// The attack waits for Buffy: the refusal says so in the new names.
	if msg := refusal(t, e, "next"); !strings.Contains(msg, "Lord's attack waits for Buffy's answer: dodge Buffy") {
		t.Errorf("next while the attack waits: %q", msg)
	}
	for _, line := range []string{"dodge Rosa dice=1", "take Rosa", "rename Master Lord"} {
		if msg := refusal(t, e, line); !strings.Contains(msg, "no combatant") {
			t.Errorf("%s: %q", line, msg)
		}
	}

	// Undo brings the old names back everywhere; redo the new ones.
	do(t, e, "undo\nundo")
	if diff := cmp.Diff(before, e.View()); diff != "" {
		t.Errorf("after undoing the renames (-before +after):\n%s", diff)
	}
	if x := cond(e, "Bernie", cinematic.CondBlind); x == nil || x.By != "Master" || x.Until.Name != "Master" {
		t.Errorf("Bernie's blindness after undo: %+v", x)
	}
	if w := state(e).Waiting; w == nil || state(e).NameOf(w.AttackerID) != "Master" || state(e).NameOf(w.TargetID) != "Rosa" {
		t.Errorf("waiting after undo: %+v", w)
	}
	do(t, e, "redo\nredo")
	if diff := cmp.Diff(v, e.View()); diff != "" {
		t.Errorf("after redoing the renames (-renamed +redone):\n%s", diff)
	}

	// Later commands take the new names. Buffy answers (Dexterity 7 +
	// Kung Fu 5 = 12, + 1 = 13 < 15: a hit); Lord's attacks on her count
	// once for Outnumbered, whatever he is called.
	do(t, e, `dodge Buffy dice=1
!defend Rosa
!engage Rosa Master
engage Buffy Lord Vampire`)
	if x := cond(e, "Buffy", cinematic.CondOutnumbered); x == nil || x.Note != "2 attackers this round" {
		t.Errorf("Buffy outnumbered: %+v", x)
	}
	// The end of Lord's turn in round 2 ends the blindness anchored to it.
	do(t, e, "next")
	if x := cond(e, "Bernie", cinematic.CondBlind); x != nil {
		t.Errorf("Bernie is still blind after Lord's turn: %+v", x)
	}
	h := e.View().History
	if got := h[len(h)-1].Turns; !slices.Equal(got, []string{"Buffy", "Lord (attack on Buffy; Buffy defends)"}) {
		t.Errorf("round 2 so far: %q", got)
	}
}

// A combatant renamed and then removed keeps their last name in the
// history; one added later under their old name is someone else.
func TestRenameThenRemove(t *testing.T) {
	e := newEngine(t, `add A dexterity=9 perception=3
add B dexterity=5 perception=3
start
defend B
next
rename A Ace
remove Ace
add A dexterity=1 perception=1
attack
next
next
!rename Ace A2`)
	want := []fray.RoundTurns{
		{Round: 1, Turns: []string{"Ace (B defends)", "B (attack)"}, Who: [][]string{{"Ace", "B"}, {"B"}}},
		{Round: 2, Turns: []string{"B"}, Who: [][]string{{"B"}}},
	}
	if diff := cmp.Diff(want, e.View().History); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	if got := e.View().Current; got != "A" {
		t.Errorf("current: %q, want the new A", got)
	}
}
