package pp_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/pp"
)

// midFight is a fight on its second page, with everything P&P waits on
// or keeps of a combatant: the Soldier's turn in progress (an attack
// taken) and the page before in the history, with two actions of his;
// the attack on Vile, which the Soldier may still spend Resolve on;
// Vile dazed by the Soldier until the end of his turn; an assist waiting
// for Gatecrasher; and Whisper's defining moment, this scene's.
const midFight = `defining Whisper reduce=agility
check Whisper agility threshold=hard successes=2
start
act
act
next
next
next
next
next
assist Whisper for=Gatecrasher agility successes=4
attack "Citizen Soldier" Vile with=might successes=3 vs_successes=1
condition Vile dazed mod=-1 on=all until="end:Citizen Soldier" by="Citizen Soldier"`

// renamesMidFight renames the four of midFight whom the state refers to,
// one step each.
const renamesMidFight = `rename "Citizen Soldier" Captain
rename Vile Malice
rename Gatecrasher Gate
rename Whisper Wisp`

// oldNames are the names renamesMidFight gives up.
var oldNames = []string{"Citizen Soldier", "Vile", "Gatecrasher", "Whisper"}

// viewText is the view as JSON, for looking for names in all of it.
func viewText(t *testing.T, e *engine.Engine) string {
	t.Helper()
	b, err := json.Marshal(e.View())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Renamed in the middle of a fight, the combatants are called by their
// new names everywhere the view shows them: the order, whose turn it is,
// the earlier page's history, the conditions they caused or anchor.
func TestRenameMidFight_View(t *testing.T) {
	e := newPP(t, midFight)
	do(t, e, renamesMidFight)
	v := e.View()
	if v.Current != "Captain" || v.CurrentID != st(e).Find("Captain").ID {
		t.Errorf("current %q (%s), want Captain", v.Current, v.CurrentID)
	}
	want := []string{"Captain", "Wisp", "Malice", "Gate", "Goons"}
	if diff := cmp.Diff(want, names(v.Order)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, names(v.Next)); diff != "" {
		t.Errorf("next page's order (-want +got):\n%s", diff)
	}
	for _, x := range v.Order {
		if c := st(e).Find(x.Name); c == nil || x.ID != c.ID {
			t.Errorf("slot %q has the id %q", x.Name, x.ID)
		}
	}
	if len(v.History) != 2 {
		t.Fatalf("history %+v, want two pages", v.History)
	}
	if got, want := v.History[0].String(), "Round 1: Captain (2 actions, −2d), Wisp, Malice, Gate, Goons"; got != want {
		t.Errorf("page 1: %q, want %q", got, want)
	}
	if len(v.History[1].Turns) != 0 {
		t.Errorf("page 2: %q, want no turn ended yet", v.History[1].Turns)
	}
	dazed := st(e).Find("Malice").Condition("dazed")
	if dazed == nil || dazed.By != "Captain" || dazed.Until == nil || dazed.Until.Name != "Captain" {
		t.Errorf("Malice's dazed: %+v", dazed)
	}
	if note := slotNote(e, "Gate"); !strings.Contains(note, "+1d assist") {
		t.Errorf("Gate's slot %q: the assist waiting for Gatecrasher is lost", note)
	}
	if note := slotNote(e, "Malice"); !strings.Contains(note, "Health 2/4") {
		t.Errorf("Malice's slot %q: the attack's harm is lost", note)
	}
	text := viewText(t, e)
	for _, n := range oldNames {
		if strings.Contains(text, n) {
			t.Errorf("the view still says %q: %s", n, text)
		}
	}
	// The last roll follows by id.
	if l := st(e).Res.Last; st(e).NameOf(l.Actor) != "Captain" || st(e).NameOf(l.Opponent) != "Malice" {
		t.Errorf("last roll by %q against %q", l.Actor, l.Opponent)
	}
}

// After the renames, the commands take the new names and refuse the old
// ones, and what the state waits on carries on: Resolve spent on the
// attack, the scene's defining moment, the assist, the condition ending
// with the renamed one's turn.
func TestRenameMidFight_Commands(t *testing.T) {
	e := newPP(t, midFight)
	do(t, e, renamesMidFight)
	for _, line := range []string{`act "Citizen Soldier"`, "spend Vile resolve=1", "damage Vile 1", "check Whisper might threshold=hard"} {
		refuse(t, e, line, "There is no combatant named")
	}
	refuse(t, e, "act Gate", "It is Captain's turn, not Gate's.")
	// The Soldier's Resolve on his attack: 4 against 1, 3 net; Malice
	// loses 1 Health more, 3 of 4.
	do(t, e, "spend Captain resolve=1 successes=1")
	var sp pp.SpentData
	ev := last(t, e, pp.EventSpent, &sp)
	if sp.Who != idOf(e, "Captain") || sp.Lost != 3 || !strings.Contains(ev.Rolls[0].For, "Malice loses 3 Health") {
		t.Errorf("spent %+v, label %q", sp, ev.Rolls[0].For)
	}
	if got := st(e).HealthLeft("Malice"); got != 1 {
		t.Errorf("Malice's Health %d, want 1", got)
	}
	refuse(t, e, "defining Captain reduce=might", "Wisp has had this scene's defining moment")
	// Gatecrasher's assist waits for Gate's roll.
	do(t, e, "check Gate agility threshold=hard successes=1")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	if d.Actor != idOf(e, "Gate") || d.Assist != 1 {
		t.Errorf("Gate's check %+v, want the +1d assist", d)
	}
	// Dazed ends with the end of Captain's turn.
	do(t, e, "act Captain\nnext")
	if st(e).Find("Malice").Condition("dazed") != nil {
		t.Error("dazed outlived the end of Captain's turn")
	}
	if got, want := e.View().History[1].String(), "Round 2: Captain (2 actions, −2d)"; got != want {
		t.Errorf("page 2: %q, want %q", got, want)
	}
	text := viewText(t, e)
	for _, n := range oldNames {
		if strings.Contains(text, n) {
			t.Errorf("the view still says %q: %s", n, text)
		}
	}
}

// Undoing the renames brings back the old names everywhere: the view is
// the one before them, the old names are taken again and the new ones
// refused; redoing them gives the new names back.
func TestRenameMidFight_Undo(t *testing.T) {
	e := newPP(t, midFight)
	before := e.View()
	do(t, e, renamesMidFight)
	renamed := e.View()
	do(t, e, "undo\nundo\nundo\nundo")
	if diff := cmp.Diff(before, e.View()); diff != "" {
		t.Errorf("undone, the view differs (-before +undone):\n%s", diff)
	}
	if l := st(e).Res.Last; st(e).NameOf(l.Actor) != "Citizen Soldier" || st(e).NameOf(l.Opponent) != "Vile" {
		t.Errorf("last roll by %q against %q", l.Actor, l.Opponent)
	}
	do(t, e, "redo\nredo\nredo\nredo")
	if diff := cmp.Diff(renamed, e.View()); diff != "" {
		t.Errorf("redone, the view differs (-renamed +redone):\n%s", diff)
	}
	do(t, e, "undo\nundo\nundo\nundo")
	refuse(t, e, "spend Captain resolve=1", "There is no combatant named")
	do(t, e, `spend "Citizen Soldier" resolve=1 successes=1`)
	var sp pp.SpentData
	ev := last(t, e, pp.EventSpent, &sp)
	if sp.Who != idOf(e, "Citizen Soldier") || !strings.Contains(ev.Rolls[0].For, "Vile loses 3 Health") {
		t.Errorf("spent %+v, label %q", sp, ev.Rolls[0].For)
	}
}

// Whoever rolled in the last roll may spend Resolve on it under their new
// name, and the roll is settled again in the new names: a same-goal roll
// of three, a group action, an assist, an exchange of a contest.
func TestRenameLastRoll(t *testing.T) {
	for _, tt := range []struct {
		name, setup, rename string
		old, spend          string // a command in the old name, refused; the spend in the new
		check               func(t *testing.T, e *engine.Engine, sp pp.SpentData)
	}{{
		name:   "same goal",
		setup:  `check Whisper might vs="Gatecrasher,Citizen Soldier" same=yes successes=1 vs_successes=2,3`,
		rename: `rename Whisper Wisp`,
		old:    "spend Whisper resolve=1",
		spend:  "spend Wisp resolve=1 successes=2",
		check: func(t *testing.T, e *engine.Engine, sp pp.SpentData) {
			if sp.Check == nil || sp.Check.Actor != idOf(e, "Wisp") || sp.Check.Opponent != idOf(e, "Citizen Soldier") || sp.Check.Rivals != "Gatecrasher 2" || sp.Sides.Sides[0].Who != idOf(e, "Wisp") {
				t.Errorf("check %+v, sides %+v", sp.Check, sp.Sides)
			}
		},
	}, {
		name:   "group",
		setup:  `group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=6,2,0`,
		rename: `rename Whisper Wisp`,
		old:    "spend Whisper resolve=1",
		spend:  "spend Wisp resolve=1 successes=0",
		check: func(t *testing.T, e *engine.Engine, sp pp.SpentData) {
			if sp.Group == nil || !slices.Equal(sp.Group.Who, []fray.CombatantID{idOf(e, "Gatecrasher"), idOf(e, "Citizen Soldier"), idOf(e, "Wisp")}) || len(sp.Group.Given) == 0 || !strings.Contains(strings.Join(sp.Group.Given, "; "), "to Wisp") {
				t.Errorf("group %+v", sp.Group)
			}
		},
	}, {
		name:   "assist",
		setup:  "assist Whisper for=Gatecrasher agility successes=4",
		rename: "rename Gatecrasher Gate",
		old:    "check Gatecrasher might threshold=hard",
		spend:  "spend Whisper resolve=1 successes=2",
		check: func(t *testing.T, e *engine.Engine, sp pp.SpentData) {
			if sp.Assist == nil || sp.Assist.For != idOf(e, "Gate") || sp.Assist.Helper != idOf(e, "Whisper") || sp.Assist.Bonus != 2 {
				t.Errorf("assist %+v", sp.Assist)
			}
		},
	}, {
		name:   "exchange",
		setup:  "contest Gatecrasher Whisper agility exchanges=2 successes=3 vs_successes=1",
		rename: "rename Gatecrasher Gate",
		old:    "spend Gatecrasher resolve=1",
		spend:  "spend Gate resolve=1 successes=1",
		check: func(t *testing.T, e *engine.Engine, sp pp.SpentData) {
			if sp.Exchange == nil || sp.Exchange.Winner != idOf(e, "Gate") {
				t.Errorf("exchange %+v", sp.Exchange)
			}
		},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			e := newPP(t, tt.setup)
			do(t, e, tt.rename)
			refuse(t, e, tt.old, "There is no combatant named")
			do(t, e, tt.spend)
			var sp pp.SpentData
			last(t, e, pp.EventSpent, &sp)
			tt.check(t, e, sp)
		})
	}
}

// A contest goes on under the new names: the winner's +2d carry follows
// the rename, and the next exchange and the contest's outcome name the
// new name.
func TestRenameMidContest(t *testing.T) {
	e := newPP(t, "contest Gatecrasher Whisper agility exchanges=2 successes=3 vs_successes=1")
	do(t, e, "rename Gatecrasher Gate")
	cmd, _ := engine.ParseCommand("odds exchange")
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(o.Expr, "6d") || o.For != "Gate" || !slices.ContainsFunc(o.Bands, func(b fray.Band) bool { return b.Name == "Gate wins" }) {
		t.Errorf("odds of the next exchange: %+v", o)
	}
	refuse(t, e, "contest Gatecrasher Whisper agility", "A contest between Gate and Whisper is under way")
	do(t, e, "exchange successes=3 vs_successes=1")
	var x pp.ExchangeData
	ev := last(t, e, pp.EventExchanged, &x)
	if x.Winner != idOf(e, "Gate") || x.Outcome != idOf(e, "Gate") || !x.Over || !strings.Contains(ev.Rolls[len(ev.Rolls)-1].For, "Gate wins the contest") {
		t.Errorf("exchange %+v, labels %+v", x, ev.Rolls)
	}
}
