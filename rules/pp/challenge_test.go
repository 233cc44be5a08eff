package pp_test

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/pp"
	"fray/rules/rulestest"
)

// resolutionExamples are the example scripts of challenge rolls and combat.
var resolutionExamples = []string{"pp-challenges", "pp-combat"}

func TestConformanceResolution(t *testing.T) {
	var scripts []rulestest.Script
	for _, name := range resolutionExamples {
		scripts = append(scripts, rulestest.Script{Name: name, Text: readExample(t, name)})
	}
	rulestest.Run(t, func() fray.System { return pp.New() }, scripts...)
}

// heroes is a cast for the tests: three heroes, a villain and three goons.
const heroes = `add Gatecrasher side=pc might=12 toughness=8 agility=4 perception=3 intellect=2 willpower=5 resolve=3
add "Citizen Soldier" side=pc might=12 toughness=10 agility=6 perception=4 intellect=3 willpower=6 resolve=2
add Whisper side=pc agility=5 intellect=4 perception=5 might=2 toughness=3 willpower=4 resolve=1
add Vile role=villain perception=3 agility=2 intellect=5 might=3 toughness=3 willpower=6 health=4
add Goons role=extra minion=yes count=3 perception=2 agility=3 might=3 toughness=2`

func newPP(t *testing.T, script string) *engine.Engine {
	t.Helper()
	e := engine.New(pp.New(), rand.New(rand.NewPCG(5, 6)))
	do(t, e, heroes)
	do(t, e, script)
	return e
}

// refuse expects line to be refused with a *fray.Error containing want,
// changing nothing.
func refuse(t *testing.T, e *engine.Engine, line, want string) {
	t.Helper()
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	before := e.State().Clone()
	n := len(e.Log())
	_, err = e.Do(cmd)
	fe, ok := err.(*fray.Error)
	if !ok || !strings.Contains(fe.Message, want) {
		t.Fatalf("%s: error %v, want a *fray.Error containing %q", line, err, want)
	}
	if len(e.Log()) != n || !reflect.DeepEqual(before, e.State()) {
		t.Errorf("%s: the refusal changed the encounter", line)
	}
}

func last(t *testing.T, e *engine.Engine, typ string, v any) fray.Event {
	t.Helper()
	log := e.Log()
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type == typ {
			// Decoding into a used value would keep the fields the
			// payload leaves out.
			reflect.ValueOf(v).Elem().SetZero()
			if err := log[i].Decode(v); err != nil {
				t.Fatal(err)
			}
			return log[i]
		}
	}
	t.Fatalf("no %s event", typ)
	return fray.Event{}
}

func st(e *engine.Engine) *pp.State { return e.State().(*pp.State) }

// idOf returns the id of the combatant e's encounter calls name, as the
// payloads hold it.
func idOf(e *engine.Engine, name string) fray.CombatantID { return st(e).IDOf(name) }

// The seed's example as a command with physical dice: 7 against 6
// automatic, 1 net success; same goal, so Gatecrasher is the actor; actor
// narrates, opponent embellishes.
func TestP1_SeedGatecrasherVsCitizenSoldier(t *testing.T) {
	e := newPP(t, `check Gatecrasher might vs="Citizen Soldier" vs_auto=all same=yes dice=1,2,2,2,3,3,3,5,5,5,6,6`)
	var d pp.CheckData
	ev := last(t, e, pp.EventChecked, &d)
	if d.Successes != 7 || d.OppSuccesses != 6 || d.Net != 1 || d.Swapped || d.Band != "actor narrates, opponent embellishes" || d.OppPool.Auto() != 6 {
		t.Errorf("check: %+v", d)
	}
	if len(ev.Rolls) != 1 || !reflect.DeepEqual(ev.Rolls[0].Dice, []int{1, 2, 2, 2, 3, 3, 3, 5, 5, 5, 6, 6}) || ev.Rolls[0].Total != 7 || ev.Rolls[0].Source != fray.RollFaces {
		t.Errorf("rolls: %+v", ev.Rolls)
	}
	if !strings.Contains(ev.Rolls[0].For, "Gatecrasher is the actor: actor narrates, opponent embellishes") {
		t.Errorf("label: %s", ev.Rolls[0].For)
	}
	// Each band says who is the actor: Gatecrasher in three, Citizen
	// Soldier in two (a tie goes to Gatecrasher, named first).
	if ev.Odds == nil || len(ev.Odds.Bands) != 5 {
		t.Errorf("odds: %+v", ev.Odds)
	}
}

// P-1: set-aside dice give 1 automatic success per 2, halves rounding up
// (SPEC §1.4; the seed's "rounding up as always"); counted successes are
// taken as they are.
func TestP1_AutomaticSuccessesAndCounted(t *testing.T) {
	e := newPP(t, "check Gatecrasher might threshold=hard auto=5 dice=6,6,2,1,1,1,1")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	// 7 dice rolled: 6, 6, 2 = 2+2+1 = 5; 5 set aside: 2.5, rounding up
	// to 3; 5 + 3 = 8 against Hard (2): 6 net.
	if d.Successes != 5+3 || d.Net != 6 {
		t.Errorf("7 dice rolled (5 successes) and 5 set aside (3): %+v", d)
	}
	for aside, want := range map[int]int{0: 0, 1: 1, 2: 1, 3: 2, 5: 3, 12: 6} {
		if got := (pp.Pool{Dice: 12, SetAside: aside}).Auto(); got != want {
			t.Errorf("%d dice set aside: %d automatic successes, want %d", aside, got, want)
		}
	}
	e = newPP(t, "check Gatecrasher might threshold=hard successes=4")
	last(t, e, pp.EventChecked, &d)
	if d.Successes != 4 || d.Net != 2 {
		t.Errorf("successes=4: %+v", d)
	}
	refuse(t, e, "check Gatecrasher might threshold=hard successes=25", "0 to 24")
	refuse(t, e, "check Gatecrasher might threshold=hard dice=1,2", "do not fit")
	refuse(t, e, "check Gatecrasher might threshold=hard roll=7", "give the faces with dice=")
	refuse(t, e, "check Gatecrasher might threshold=hard mod=+5d", "-4d to +4d")
	refuse(t, e, "check Gatecrasher might threshold=hard auto=13", "only 12 dice")
	refuse(t, e, "check Gatecrasher strength threshold=hard", "not a trait")
}

// P-1: penalties that leave fewer than one die: one die is rolled, and
// only a 6 counts, for 1 success.
func TestP1_FewerThanOneDie(t *testing.T) {
	// Whisper's Might 2d at −3d: −1 dice, so one die, a 6: 1 success.
	e := newPP(t, "check Whisper might threshold=average mod=-3 dice=6")
	var d pp.CheckData
	ev := last(t, e, pp.EventChecked, &d)
	if !d.Pool.Desperate() || d.Successes != 1 || d.Net != 0 || ev.Rolls[0].Expr != "1d{0,0,0,0,0,1}" {
		t.Errorf("a 6: %+v %+v", d, ev.Rolls)
	}
	// A 4 would be 1 success in a pool; here it fails the roll completely.
	e = newPP(t, "check Whisper might threshold=average mod=-3 dice=4")
	last(t, e, pp.EventChecked, &d)
	if d.Successes != 0 || d.Net != -1 {
		t.Errorf("a 4: %+v", d)
	}
	refuse(t, e, "check Whisper might threshold=average mod=-3 dice=6,6", "1 more dice than check rolls")
	refuse(t, e, "check Whisper might threshold=average mod=-3 auto=1", "set aside")
}

// P-2: static thresholds by name or number; an opposed roll's threshold is
// the opponent's successes.
func TestP2_StaticAndOpposedThresholds(t *testing.T) {
	var d pp.CheckData
	e := newPP(t, "check Whisper agility threshold=brutal dice=6,6,2,1,1")
	last(t, e, pp.EventChecked, &d)
	if !d.Static || d.Threshold != 4 || d.Net != 1 {
		t.Errorf("brutal: %+v", d)
	}
	e = newPP(t, "check Whisper agility vs=Vile dice=6,6,2,1,1,4,4")
	last(t, e, pp.EventChecked, &d)
	if d.Static || d.OppSuccesses != 2 || d.Net != 3 || d.OppTrait != "agility" {
		t.Errorf("opposed: %+v", d)
	}
	e = newPP(t, "check Whisper intellect vs=Vile willpower successes=2 vs_successes=5")
	last(t, e, pp.EventChecked, &d)
	if d.OppTrait != "willpower" || d.Net != -3 || d.Band != string(pp.BandOpponent) {
		t.Errorf("opposed with another trait: %+v", d)
	}
	refuse(t, e, "check Whisper intellect", "Give the threshold")
	refuse(t, e, "check Whisper intellect vs=Vile threshold=2", "not both")
	refuse(t, e, "check Whisper intellect threshold=tough", "threshold=tough is not a whole number from 0 to 1000000000 or easy, average, hard")
}

// P-3: with the same goal, whoever rolls more is the actor; the bands
// read as traditional results when the setting says so.
func TestP3_SameGoalAndTraditionalResults(t *testing.T) {
	var d pp.CheckData
	e := newPP(t, `check Gatecrasher might vs="Citizen Soldier" same=yes successes=4 vs_successes=7`)
	last(t, e, pp.EventChecked, &d)
	if !d.Swapped || d.Net != 3 || d.Band != string(pp.BandActor) {
		t.Errorf("the Soldier rolled more and is the actor with 3 net: %+v", d)
	}
	e = newPP(t, "set results=traditional\ncheck Whisper agility threshold=hard successes=1")
	ev := last(t, e, pp.EventChecked, &d)
	if !strings.Contains(ev.Rolls[0].For, "failure with a silver lining") || ev.Odds.P("failure with a silver lining") == 0 {
		t.Errorf("traditional: %s, odds %+v", ev.Rolls[0].For, ev.Odds.Bands)
	}
}

// P-3: several characters with the same goal: the most successes is the
// actor, the next the opponent.
func TestP3_SeveralWithTheSameGoal(t *testing.T) {
	e := newPP(t, `check Whisper might vs="Gatecrasher,Citizen Soldier" same=yes successes=1 vs_successes=5,7`)
	var d pp.CheckData
	ev := last(t, e, pp.EventChecked, &d)
	if d.Actor != idOf(e, "Citizen Soldier") || d.Opponent != idOf(e, "Gatecrasher") || d.Net != 2 || d.By != idOf(e, "Whisper") || d.Rivals != "Whisper 1" || !slices.Equal(d.RivalIDs, []fray.CombatantID{idOf(e, "Whisper")}) {
		t.Errorf("check: %+v", d)
	}
	if !strings.Contains(ev.Rolls[len(ev.Rolls)-1].For, "Citizen Soldier is the actor and Gatecrasher the opponent (then Whisper 1)") {
		t.Errorf("label: %s", ev.Rolls[len(ev.Rolls)-1].For)
	}
	refuse(t, e, `check Whisper might vs="Gatecrasher,Citizen Soldier"`, "same=yes")
	refuse(t, e, `check Whisper might vs="Gatecrasher,Whisper" same=yes`, "named twice")
	refuse(t, e, `check Whisper might vs="Gatecrasher,Vile" same=yes vs_successes=1`, "gives 1 counts for 2")
}

// P-4: Resolve after the roll adds a die a point, or rerolls keeping the
// better; Resolve one does not have is refused.
func TestP4_ResolveAfterTheRoll(t *testing.T) {
	e := newPP(t, "check Whisper agility threshold=daunting dice=2,1,1,1,1\nspend Whisper resolve=1 dice=6")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	var sp pp.SpentData
	last(t, e, pp.EventSpent, &sp)
	if sp.Successes != 3 || sp.Net != 0 || st(e).ResolveLeft("Whisper") != 0 {
		t.Errorf("spend: %+v, Resolve left %d", sp, st(e).ResolveLeft("Whisper"))
	}
	refuse(t, e, "spend Whisper resolve=1", "has 0 Resolve points left, not 1")
	refuse(t, e, "spend Whisper reroll", "has 0 Resolve points left")
	refuse(t, e, "spend Vile resolve=1", "did not make the last roll")
	e = newPP(t, "check Gatecrasher might threshold=hard dice=6,6,6,6,6,6,6,6,6,6,6,6\nspend Gatecrasher reroll dice=1,1,1,1,1,1,1,1,1,1,1,1")
	last(t, e, pp.EventSpent, &sp)
	if sp.Successes != 24 || sp.How != "reroll" {
		t.Errorf("a worse reroll keeps the better roll: %+v", sp)
	}
	e = newPP(t, "check Gatecrasher might threshold=hard successes=0\nspend Gatecrasher reroll successes=5")
	last(t, e, pp.EventSpent, &sp)
	if sp.Successes != 5 || sp.Net != 3 {
		t.Errorf("a better reroll is kept: %+v", sp)
	}
	refuse(t, newPP(t, ""), "spend Gatecrasher resolve=1", "no roll to spend Resolve on")
}

// P-4 on a contest (P-8): either side spends Resolve after an exchange's
// roll; the exchange is settled again, its winner taking the +2d into
// the next, and after the last one the contest's outcome changes with it.
func TestP4_ResolveOnExchanges(t *testing.T) {
	// Exchange 1 of 2: Gatecrasher 3 against Whisper 1, Gatecrasher wins
	// and carries +2d.
	e := newPP(t, "contest Gatecrasher Whisper agility exchanges=2 successes=3 vs_successes=1")
	// Whisper's 1 Resolve buys 1d, a 6: 1 + 2 = 3 against 3, a tie: no
	// winner, no carry.
	do(t, e, "spend Whisper resolve=1 dice=6")
	var sp pp.SpentData
	ev := last(t, e, pp.EventSpent, &sp)
	if sp.Of != pp.LastExchange || !sp.Opp || sp.Successes != 3 || sp.Exchange == nil || sp.Exchange.Winner != "" || sp.Exchange.SuccessesA != 3 || sp.Exchange.SuccessesB != 3 {
		t.Fatalf("spent: %+v %+v", sp, sp.Exchange)
	}
	if !strings.Contains(ev.Rolls[0].For, "1 → 3 successes; exchange 1 of 2: 3 against 3, a tie") || ev.Odds == nil {
		t.Errorf("label %q, odds %+v", ev.Rolls[0].For, ev.Odds)
	}
	if c := st(e).Res.Contest; !c.Active || c.Done != 1 || c.Carry != "" || st(e).ResolveLeft("Whisper") != 0 {
		t.Errorf("contest %+v, Whisper's Resolve %d", c, st(e).ResolveLeft("Whisper"))
	}
	odds := func(line string) fray.Odds {
		t.Helper()
		cmd, _ := engine.ParseCommand(line)
		o, err := e.Odds(cmd)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	// No carry: Gatecrasher's Agility 4d as it is.
	if o := odds("odds exchange"); !strings.HasPrefix(o.Expr, "4d") {
		t.Errorf("after the tie: %s", o.Expr)
	}
	refuse(t, e, "spend Whisper resolve=1", "has 0 Resolve points left, not 1")
	refuse(t, e, "spend Vile resolve=1", "did not make the last roll (the exchange between Gatecrasher and Whisper)")
	// Gatecrasher's 1 Resolve, 1 success counted: 4 against 3, he wins
	// again and carries +2d: 4 + 2 = 6d.
	do(t, e, "spend Gatecrasher resolve=1 successes=1")
	last(t, e, pp.EventSpent, &sp)
	if sp.Opp || sp.Exchange.Winner != idOf(e, "Gatecrasher") || sp.Exchange.Over {
		t.Errorf("spent: %+v %+v", sp, sp.Exchange)
	}
	if o := odds("odds exchange"); !strings.HasPrefix(o.Expr, "6d") {
		t.Errorf("the winner's +2d: %s", o.Expr)
	}
	// Exchange 2 of 2, the last: 1 against 2, Whisper wins the contest.
	do(t, e, "exchange successes=1 vs_successes=2")
	if st(e).Res.Contest.Active {
		t.Fatal("the contest goes on after its last exchange")
	}
	// Gatecrasher spends 1 more for 1 success: 2 against 2, the last
	// exchange tied: the contest is back, to roll it again.
	do(t, e, "spend Gatecrasher resolve=1 successes=1")
	last(t, e, pp.EventSpent, &sp)
	if sp.Exchange.Over || sp.Exchange.Winner != "" {
		t.Errorf("a tied last exchange: %+v", sp.Exchange)
	}
	if c := st(e).Res.Contest; !c.Active || c.Done != 2 {
		t.Errorf("contest %+v", c)
	}
	// His last point rerolls his 6d: 3 successes, better than 2: 3
	// against 2, Gatecrasher wins the contest.
	do(t, e, "spend Gatecrasher reroll successes=3")
	last(t, e, pp.EventSpent, &sp)
	if !sp.Exchange.Over || sp.Exchange.Outcome != idOf(e, "Gatecrasher") || sp.Successes != 3 || st(e).Res.Contest.Active {
		t.Errorf("the reroll wins the contest: %+v", sp.Exchange)
	}
	refuse(t, e, "spend Gatecrasher resolve=1", "has 0 Resolve points left, not 1")
	refuse(t, e, "exchange", "No contest")
}

// P-4 on an assist (P-6): the helper spends Resolve after the assist's
// roll; the bonus is worked out again, and only the best helper's counts.
func TestP4_ResolveOnAssists(t *testing.T) {
	// Whisper: 3 against Hard (2), 1 net: +1d. The Soldier: 4, 2 net:
	// +1d, no better.
	e := newPP(t, "assist Whisper for=Gatecrasher agility successes=3\nassist \"Citizen Soldier\" for=Gatecrasher might successes=4")
	// The Soldier's 1 Resolve buys a 6: 4 + 2 = 6, 4 net: +2d, now the
	// best.
	do(t, e, `spend "Citizen Soldier" resolve=1 dice=6`)
	var sp pp.SpentData
	ev := last(t, e, pp.EventSpent, &sp)
	if sp.Of != pp.LastAssist || sp.Assist == nil || sp.Assist.Successes != 6 || sp.Assist.Net != 4 || sp.Assist.Bonus != 2 || !sp.Assist.Kept || sp.Assist.Before != 1 {
		t.Fatalf("spent: %+v %+v", sp, sp.Assist)
	}
	if !strings.Contains(ev.Rolls[0].For, "6 against Hard (2): 4 net successes, +2d to Gatecrasher, the best helper's, replacing +1d") {
		t.Errorf("label %q", ev.Rolls[0].For)
	}
	refuse(t, e, "spend Gatecrasher resolve=1", "did not make the last roll (Citizen Soldier's assist)")
	refuse(t, e, `spend "Citizen Soldier" resolve=2`, "has 1 Resolve point left, not 2")
	do(t, e, "check Gatecrasher might threshold=hard successes=3")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	if d.Assist != 2 || d.Pool.Dice != 14 {
		t.Errorf("the Soldier's +2d: %+v", d)
	}
	// A reroll that does no better keeps the roll, and the better helper
	// before it still counts: Whisper +1d; the Soldier 2 (+0d), rerolled
	// for 1.
	e = newPP(t, "assist Whisper for=Gatecrasher agility successes=3\nassist \"Citizen Soldier\" for=Gatecrasher might successes=2\nspend \"Citizen Soldier\" reroll successes=1")
	last(t, e, pp.EventSpent, &sp)
	if sp.Assist.Successes != 2 || sp.Assist.Bonus != 0 || sp.Assist.Kept {
		t.Errorf("reroll: %+v", sp.Assist)
	}
	do(t, e, "check Gatecrasher might threshold=hard successes=3")
	last(t, e, pp.EventChecked, &d)
	if d.Assist != 1 {
		t.Errorf("Whisper's +1d is lost: %+v", d)
	}
}

// P-4 on a group action (P-7): a member spends Resolve after the group's
// roll; the net successes and what is handed over are worked out again.
func TestP4_ResolveOnGroupActions(t *testing.T) {
	// Against Hard (2): Gatecrasher 6 (4 net), the Soldier 2 (0), Whisper
	// 0 (−2): Gatecrasher's 1 above 3 goes to Whisper: 3, 0, −1.
	e := newPP(t, `group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=6,2,0`)
	var g pp.GroupData
	last(t, e, pp.EventGrouped, &g)
	if !reflect.DeepEqual(g.Nets, []int{3, 0, -1}) {
		t.Fatalf("group: %+v", g)
	}
	// Gatecrasher's 2 Resolve buy two 6s: 10, 8 net; 5 above 3: 3 to
	// Whisper (−2 → 1), 1 to the Soldier (0 → 1), 1 left over: 4, 1, 1.
	do(t, e, "spend Gatecrasher resolve=2 dice=6,6")
	var sp pp.SpentData
	ev := last(t, e, pp.EventSpent, &sp)
	if sp.Of != pp.LastGroup || sp.Group == nil || !reflect.DeepEqual(sp.Group.Nets, []int{4, 1, 1}) || !reflect.DeepEqual(sp.Group.Successes, []int{10, 2, 0}) ||
		!reflect.DeepEqual(sp.Group.Given, []string{"Gatecrasher to Whisper: 3", "Gatecrasher to Citizen Soldier: 1"}) {
		t.Fatalf("spent: %+v %+v", sp, sp.Group)
	}
	if !strings.Contains(ev.Rolls[0].For, "6 → 10 successes; net after sharing: Gatecrasher +4, Citizen Soldier +1, Whisper +1") {
		t.Errorf("label %q", ev.Rolls[0].For)
	}
	if o := ev.Odds; o == nil || o.P("3 of 3 succeed") == 0 {
		t.Errorf("odds %+v", o)
	}
	refuse(t, e, "spend Vile resolve=1", "did not make the last roll (the group's might)")
	refuse(t, e, "spend Whisper resolve=2", "has 1 Resolve point left, not 2")
	// Whisper's own roll, rerolled for 1: 1 against 0, the better; the
	// sharing is worked out again from 10, 2, 1: 8, 0, −1: 2 to Whisper,
	// 1 to the Soldier: 5, 1, 1.
	do(t, e, "spend Whisper reroll successes=1")
	last(t, e, pp.EventSpent, &sp)
	if !reflect.DeepEqual(sp.Group.Nets, []int{5, 1, 1}) {
		t.Errorf("reroll: %+v", sp.Group)
	}
}

// P-4 on a same-goal roll of three or more (P-3): anyone who rolled may
// spend Resolve, and everyone is ranked again.
func TestP4_ResolveOnSeveralWithTheSameGoal(t *testing.T) {
	// The Soldier 3, Gatecrasher 2, Whisper (who called it) 1: the Soldier
	// is the actor, Gatecrasher the opponent.
	e := newPP(t, `check Whisper might vs="Gatecrasher,Citizen Soldier" same=yes successes=1 vs_successes=2,3`)
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	if d.Actor != idOf(e, "Citizen Soldier") || d.Opponent != idOf(e, "Gatecrasher") || d.Rivals != "Whisper 1" {
		t.Fatalf("check: %+v", d)
	}
	// Whisper's 1 Resolve buys a die, counted 2: 3, tied with the Soldier;
	// the tie goes to the one named first, Whisper: 3 against the
	// Soldier's 3, 0 net: opponent narrates, actor embellishes.
	do(t, e, "spend Whisper resolve=1 successes=2")
	var sp pp.SpentData
	ev := last(t, e, pp.EventSpent, &sp)
	if sp.Check == nil || sp.Check.Actor != idOf(e, "Whisper") || sp.Check.Opponent != idOf(e, "Citizen Soldier") || sp.Check.Rivals != "Gatecrasher 2" || sp.Check.By != "" || sp.Net != 0 || sp.Band != string(pp.BandOpponentEmbellished) {
		t.Fatalf("spent: %+v, check %+v", sp, sp.Check)
	}
	if !strings.Contains(ev.Rolls[0].For, "Whisper is the actor and Citizen Soldier the opponent (then Gatecrasher 2)") {
		t.Errorf("label %q", ev.Rolls[0].For)
	}
	if l := st(e).Res.Last; st(e).NameOf(l.Actor) != "Whisper" || l.Successes != 3 {
		t.Errorf("last roll %+v", l)
	}
	// Gatecrasher, now third, spends 2 for 3 successes: 5, the actor,
	// against 3 (Whisper, named first of the two on 3): 2 net.
	do(t, e, "spend Gatecrasher resolve=2 successes=3")
	last(t, e, pp.EventSpent, &sp)
	if sp.Check.Actor != idOf(e, "Gatecrasher") || sp.Check.Opponent != idOf(e, "Whisper") || sp.Net != 2 || sp.Check.By != idOf(e, "Whisper") {
		t.Errorf("spent: %+v", sp.Check)
	}
	refuse(t, e, "spend Whisper resolve=1", "has 0 Resolve points left, not 1")
	refuse(t, e, "spend Vile resolve=1", "did not make the last roll")
}

// P-5: checking your swing: every even face is 1 success; 6s explode only
// for 1 Resolve.
func TestP5_CheckingYourSwing(t *testing.T) {
	e := newPP(t, "set swing=yes\ncheck Whisper agility threshold=hard dice=6,6,2,4,1")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	if d.Successes != 4 || d.Sixes != 2 {
		t.Errorf("swing: %+v", d)
	}
	// The two 6s explode: 6 (explodes: 3), 1.
	do(t, e, "spend Whisper explode dice=6,3,1")
	var sp pp.SpentData
	last(t, e, pp.EventSpent, &sp)
	if sp.Successes != 5 || sp.Net != 3 {
		t.Errorf("explode: %+v", sp)
	}
	refuse(t, newPP(t, "check Whisper agility threshold=hard dice=6,6,2,4,1"), "spend Whisper explode", "only when checking your swing")
	refuse(t, newPP(t, "set swing=yes\ncheck Whisper agility threshold=hard dice=1,1,2,4,1"), "spend Whisper explode", "no 6s")
}

// P-5: when checking your swing, 6s explode on the physical 6 (the
// notation's !@6), not on every face worth 1 success like 2 and 4:
// 12d{0,1,0,1,0,1}!@6 in a defining moment.
func TestP5_ExplodesOnThePhysicalSix(t *testing.T) {
	// One 6 among 6, 2, 4, 1, 1: 3 successes; the exploding die shows a
	// 4, worth 1 and not exploding: 4 successes, and no die is missing.
	e := newPP(t, "set swing=yes\ncheck Whisper agility threshold=hard dice=6,2,4,1,1\nspend Whisper explode dice=4")
	var sp pp.SpentData
	ev := last(t, e, pp.EventSpent, &sp)
	if sp.Successes != 4 || sp.How != pp.HowExplode || ev.Rolls[0].Expr != "1d{0,1,0,1,0,1}!@6" {
		t.Errorf("explode: %+v %+v", sp, ev.Rolls)
	}
	// Gatecrasher's 12 dice from the seed in a defining moment, checking
	// his swing: 2, 2, 2 and the two 6s are 5 successes; the first 6
	// explodes into a 2 (1), the second into a 6 (1), which explodes into
	// a 1 (0): 7 successes.
	e = newPP(t, "set swing=yes\ndefining Gatecrasher reduce=might\ncheck Gatecrasher might threshold=hard dice=1,2,2,2,3,3,3,5,5,5,6,2,6,6,1")
	var d pp.CheckData
	ev = last(t, e, pp.EventChecked, &d)
	if d.Successes != 7 || ev.Rolls[0].Expr != "12d{0,1,0,1,0,1}!@6" || len(ev.Rolls[0].Dice) != 15 {
		t.Errorf("defining moment, checking the swing: %+v %+v", d, ev.Rolls)
	}
	refuse(t, e, "spend Gatecrasher explode", "explode already")
}

// P-6: an assist rolls against Hard (2): +1d per 2 net successes, rounding
// up; only the best helper counts; the bonus goes to the next roll.
func TestP6_OnlyBestHelperCounts(t *testing.T) {
	for net, want := range map[int]int{-2: 0, 0: 0, 1: 1, 2: 1, 3: 2, 7: 4} {
		if got := pp.AssistBonus(net); got != want {
			t.Errorf("AssistBonus(%d) = %d, want %d", net, got, want)
		}
	}
	e := newPP(t, `assist Whisper for=Gatecrasher agility successes=5
assist "Citizen Soldier" for=Gatecrasher might successes=4
assist Vile for=Gatecrasher intellect successes=9`)
	var a pp.AssistData
	last(t, e, pp.EventAssisted, &a)
	if a.Bonus != 4 || !a.Kept {
		t.Errorf("Vile's assist: %+v", a)
	}
	do(t, e, "assist Goons for=Gatecrasher might successes=2")
	last(t, e, pp.EventAssisted, &a)
	if a.Kept {
		t.Errorf("a worse assist is kept: %+v", a)
	}
	do(t, e, "check Gatecrasher might threshold=hard successes=3")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	if d.Assist != 4 || d.Pool.Dice != 16 {
		t.Errorf("the best helper's +4d: %+v", d)
	}
	do(t, e, "check Gatecrasher might threshold=hard successes=3")
	last(t, e, pp.EventChecked, &d)
	if d.Assist != 0 || d.Pool.Dice != 12 {
		t.Errorf("the assist is used up: %+v", d)
	}
	refuse(t, e, "assist Whisper for=Whisper agility", "cannot assist themselves")
	refuse(t, e, "assist Whisper agility", "for=NAME")
}

// P-7: everyone rolls; net successes above 3 go to allies.
func TestP7_GroupSharesNetAboveThree(t *testing.T) {
	e := newPP(t, `group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=8,2,0`)
	var g pp.GroupData
	last(t, e, pp.EventGrouped, &g)
	// Gatecrasher 6 net: 3 above 3; Whisper −2 needs 3 to succeed; the
	// Soldier (0) then gets nothing more.
	if !reflect.DeepEqual(g.Nets, []int{3, 0, 1}) || len(g.Given) != 1 {
		t.Errorf("group: %+v", g)
	}
	e = newPP(t, `group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=9,2,0`)
	last(t, e, pp.EventGrouped, &g)
	if !reflect.DeepEqual(g.Nets, []int{3, 1, 1}) {
		t.Errorf("group: %+v", g)
	}
	refuse(t, e, "group might Gatecrasher Gatecrasher threshold=2", "named twice")
	refuse(t, e, "group might Gatecrasher Whisper", "threshold")
	refuse(t, e, "group might Gatecrasher Whisper threshold=2 successes=1", "gives 1 counts for 2")
}

// P-8: a contest over exchanges; the winner of each takes +2d into the
// next; the winner of the last decides.
func TestP8_ContestCarryAndLastExchange(t *testing.T) {
	e := newPP(t, "contest Gatecrasher Whisper agility exchanges=2 successes=3 vs_successes=1")
	var x pp.ExchangeData
	last(t, e, pp.EventExchanged, &x)
	if x.Winner != idOf(e, "Gatecrasher") || x.Over {
		t.Errorf("exchange 1: %+v", x)
	}
	refuse(t, e, "contest Whisper Vile agility", "under way")
	odds, err := e.Odds(fray.Command{Name: "odds", Args: []string{"exchange"}})
	if err != nil || !strings.Contains(odds.Expr, "6d") {
		t.Errorf("the next exchange's odds carry +2d: %+v, %v", odds, err)
	}
	do(t, e, "exchange successes=1 vs_successes=1")
	last(t, e, pp.EventExchanged, &x)
	if x.CarryA != 2 || x.Winner != "" || x.Over {
		t.Errorf("a tied last exchange is rolled again: %+v", x)
	}
	do(t, e, "exchange successes=0 vs_successes=2")
	last(t, e, pp.EventExchanged, &x)
	if x.CarryA != 0 || x.Winner != idOf(e, "Whisper") || !x.Over || x.Outcome != idOf(e, "Whisper") {
		t.Errorf("the winner of the last exchange wins: %+v", x)
	}
	refuse(t, e, "exchange", "No contest")
	// Exchanges take the GM's modifiers and automatic successes (P-1):
	// Gatecrasher sets his Agility 4d aside for 2 against Whisper's 1;
	// then the winner's +2d is among the dice he may set aside: 6d, 3.
	do(t, e, "contest Gatecrasher Whisper agility auto=all vs_successes=1")
	last(t, e, pp.EventExchanged, &x)
	if x.SuccessesA != 2 || x.Winner != idOf(e, "Gatecrasher") || x.PoolA.SetAside != 4 {
		t.Errorf("auto=all: %+v", x)
	}
	do(t, e, "exchange auto=all vs_mod=-4 vs_successes=0")
	last(t, e, pp.EventExchanged, &x)
	if x.SuccessesA != 3 || x.PoolA.SetAside != 6 || x.CarryA != 2 || x.PoolB.Modifier != -4 || x.PoolB.Count() != 1 {
		t.Errorf("the carry set aside: %+v", x)
	}
}

// P-9: a defining moment: once per story per hero, one hero per scene.
func TestP9_DefiningMomentLimits(t *testing.T) {
	e := newPP(t, "defining Whisper reduce=agility")
	refuse(t, e, "defining Gatecrasher reduce=might", "one hero per scene")
	refuse(t, e, "defining Vile reduce=might", "Only a hero")
	refuse(t, e, "check Whisper intellect threshold=hard", "mental task")
	do(t, e, "check Whisper agility threshold=hard dice=6,6,1,2,3,4,5")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	// 6 (explodes: 6, explodes: 1), 2, 3, 4, 5: 2+2+0+1+0+1+0 = 6.
	if !d.Pool.DefiningMoment || d.Successes != 6 || d.Cost != "agility" {
		t.Errorf("defining moment: %+v", d)
	}
	if c := st(e).Find("Whisper"); c.Stat("agility") != 4 {
		t.Errorf("agility %d after the cost, want 4", c.Stat("agility"))
	}
	refuse(t, e, "defining Whisper reduce=intellect", "one per story")
	do(t, e, "scene")
	refuse(t, e, "defining Whisper reduce=intellect", "one per story")
	do(t, e, "defining Gatecrasher reduce=might\nstory\ndefining Whisper reduce=intellect")
}

// P-9: each Resolve buys 3 dice in a defining moment.
func TestP9_DefiningResolveBuysThreeDice(t *testing.T) {
	e := newPP(t, "defining Whisper reduce=agility\ncheck Whisper agility threshold=hard dice=1,1,1,1,1\nspend Whisper resolve=1 dice=2,2,2")
	var sp pp.SpentData
	last(t, e, pp.EventSpent, &sp)
	if sp.Successes != 3 {
		t.Errorf("3 dice for 1 Resolve: %+v", sp)
	}
}

// P-9: the one-shot variant: Health to 0, −2d for the rest of the story.
func TestP9_OneShot(t *testing.T) {
	e := newPP(t, "")
	refuse(t, e, "defining Whisper oneshot", "not allowed")
	do(t, e, "set defining=oneshot\ndefining Whisper\ncheck Whisper intellect threshold=hard successes=3")
	if !st(e).Defeated("Whisper") || st(e).HealthLeft("Whisper") != 0 {
		t.Error("Whisper is not at 0 Health")
	}
	// Unconscious until the scene ends: no roll of any kind.
	refuse(t, e, "check Whisper intellect threshold=hard successes=3", "unconscious")
	refuse(t, e, "assist Whisper for=Gatecrasher agility successes=3", "unconscious")
	refuse(t, e, "group might Whisper Gatecrasher threshold=2 successes=3,3", "unconscious")
	// A second defining moment this story is refused, in this scene or
	// the next.
	refuse(t, e, "defining Whisper", "one per story")
	do(t, e, "scene")
	refuse(t, e, "defining Whisper", "one per story")
	// She regains her wits at the end of the scene: her rolls are at −2d
	// for the rest of the story; Intellect 4d − 2d = 2d.
	do(t, e, "check Whisper intellect threshold=hard successes=1")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	if d.Penalty != 2 || d.Pool.Dice != 2 {
		t.Errorf("after the scene: %+v", d)
	}
	// Still at 0 Health, she is out of any fight.
	do(t, e, "start")
	refuse(t, e, `attack "`+st(e).Current()+`" Whisper with=might`, "already defeated")
}

// P-10: Health derived when not given, halves rounding up.
func TestP10_HealthDerived(t *testing.T) {
	e := newPP(t, "")
	for name, want := range map[string]int{"Gatecrasher": 10, "Citizen Soldier": 11, "Whisper": 4, "Vile": 4} {
		if got := pp.Health(st(e).Find(name)); got != want {
			t.Errorf("%s: Health %d, want %d", name, got, want)
		}
	}
}

// P-10: an attack against the best defence, 1 Health per net success,
// minions one per net success, −2d per earlier action.
func TestP10_AttackHealthMinionsPenalty(t *testing.T) {
	e := newPP(t, "start")
	// Edge: Whisper 10, Soldier 10, Vile 8, Gatecrasher 7, Goons last.
	if cur := st(e).Current(); cur != "Citizen Soldier" && cur != "Whisper" {
		t.Fatalf("current %s", cur)
	}
	cur := st(e).Current()
	do(t, e, "attack \""+cur+"\" Vile with=agility successes=5 vs_successes=2")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	if d.OppTrait != "might" || d.Lost != 3 || st(e).HealthLeft("Vile") != 1 {
		t.Errorf("attack: %+v, Vile's Health %d", d, st(e).HealthLeft("Vile"))
	}
	do(t, e, "attack \""+cur+"\" Goons with=agility successes=5 vs_successes=1")
	last(t, e, pp.EventChecked, &d)
	if d.Penalty != 2 || !d.Minion || d.Lost != 3 || !st(e).Defeated("Goons") {
		t.Errorf("second action: %+v", d)
	}
	refuse(t, e, "attack \""+cur+"\" Goons with=agility", "already defeated")
	refuse(t, e, "attack Vile \""+cur+"\" with=intellect", "turn")
	refuse(t, e, "attack \""+cur+"\" Vile", "needs with=TRAIT")
	do(t, e, "attack \""+cur+"\" Vile with=agility successes=4 vs_successes=1")
	if !st(e).Defeated("Vile") {
		t.Error("Vile is not defeated at 0 Health")
	}
}

// roller plays back fixed faces, as physical dice do.
type faceRoller struct{ faces []int }

func (f faceRoller) Roll(forWhom, expr string) (fray.Roll, error) {
	return engine.RollFaces(forWhom, expr, f.faces)
}

type seededRoller struct{ r *rand.Rand }

func (s seededRoller) Roll(forWhom, expr string) (fray.Roll, error) {
	return engine.RollSeeded(forWhom, expr, s.r)
}

// bandOf reads which band of o an event's outcome falls in.
func bandOf(t *testing.T, s *pp.State, evs []fray.Event) string {
	t.Helper()
	ev := evs[len(evs)-1]
	if ev.Type == pp.EventSides {
		ev = evs[len(evs)-2] // the check it lists the rolls of
	}
	switch ev.Type {
	case pp.EventChecked:
		var d pp.CheckData
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if d.Kind == pp.KindAttack {
			return harmBand(s, s.NameOf(d.Opponent), d.Minion, d.Lost, 0)
		}
		if d.Same {
			return sameGoalBand(s, d)
		}
		return d.Band
	case pp.EventSpent:
		var d pp.SpentData
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		switch d.Of {
		case pp.LastExchange:
			if d.Exchange.Winner == "" {
				return "tie"
			}
			return s.NameOf(d.Exchange.Winner) + " wins"
		case pp.LastAssist:
			return "+" + itoa(d.Assist.Bonus) + "d"
		case pp.LastGroup:
			n := 0
			for _, x := range d.Group.Nets {
				if x >= 1 {
					n++
				}
			}
			return itoa(n) + " of " + itoa(len(d.Group.Nets)) + " succeed"
		}
		if l := s.Res.Last; l.Kind == pp.KindAttack {
			return harmBand(s, s.NameOf(l.Opponent), l.Minion, d.Lost, l.Lost)
		}
		switch l := s.Res.Last; {
		case d.Check != nil:
			return sameGoalBand(s, *d.Check)
		case l.Same:
			l.Band, l.Swapped = d.Band, d.Swapped
			return sameGoalBand(s, l)
		}
		return d.Band
	case pp.EventGrouped:
		var d pp.GroupData
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		n := 0 // before sharing, as the group's odds count
		for _, x := range d.Successes {
			if x-d.Threshold >= 1 {
				n++
			}
		}
		return itoa(n) + " of " + itoa(len(d.Successes)) + " succeed"
	case pp.EventAssisted:
		var d pp.AssistData
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		return "+" + itoa(d.Bonus) + "d"
	case pp.EventExchanged:
		var d pp.ExchangeData
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if d.Winner == "" {
			return "tie"
		}
		return s.NameOf(d.Winner) + " wins"
	}
	t.Fatalf("no band for %s", ev.Type)
	return ""
}

// harmBand names what an attack took, lost in all (prev of it before
// Resolve was spent), as its odds do: no harm, hurt, defeated, or for
// minions some or all defeated.
func harmBand(s *pp.State, target string, minion bool, lost, prev int) string {
	left := s.HealthLeft(target) + prev
	if minion {
		var down int
		for _, r := range s.Res.Records {
			if s.NameOf(r.ID) == target {
				down = r.Down
			}
		}
		left = s.Find(target).Stats[pp.StatCount] - down + prev
	}
	switch {
	case lost == 0:
		return "no harm"
	case lost >= left && minion:
		return "all defeated"
	case lost >= left:
		return "defeated"
	case minion:
		return "some defeated"
	}
	return "hurt"
}

// sameGoalBand names the band of a same-goal roll (P-3) as its odds do:
// who is the actor, and their band.
func sameGoalBand(s *pp.State, d pp.CheckData) string {
	actor := d.Actor
	if d.Swapped {
		actor = d.Opponent
	}
	return s.NameOf(actor) + " is the actor: " + d.Band
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// oddsCases are commands whose odds are checked, with the script that sets
// them up; small pools so that every face can be enumerated.
var oddsCases = []struct{ name, setup, cmd string }{
	{"check static", "add A side=pc agility=3", "check A agility threshold=2"},
	{"check opposed same goal", "add A side=pc might=2\nadd B side=pc might=2", "check A might vs=B same=yes"},
	{"check desperate", "add A side=pc might=1", "check A might threshold=1 mod=-2"},
	{"check same goal of three", "add A side=pc might=2\nadd B side=pc might=1\nadd C side=pc might=2", "check A might vs=B,C same=yes"},
	{"check defining moment", "add A side=pc might=2 resolve=1\ndefining A reduce=might", "check A might threshold=2"},
	{"check swing", "add A side=pc might=3\nset swing=yes", "check A might threshold=1"},
	{"attack", "add A side=pc might=2\nadd B toughness=2 health=2\nstart\nnext", "attack A B with=might"},
	{"attack minions", "add A side=pc might=2\nadd B role=extra minion=yes count=2 agility=1\nstart", "attack A B with=might"},
	{"spend on an attack", "add A side=pc might=2 resolve=1\nadd B toughness=1 health=3\nstart\nattack A B with=might successes=2 vs_successes=1", "spend A resolve=1"},
	{"assist", "add A side=pc agility=3\nadd B side=pc", "assist A for=B agility"},
	{"spend dice", "add A side=pc might=2 resolve=2\ncheck A might threshold=3 dice=2,1", "spend A resolve=2"},
	{"spend reroll", "add A side=pc might=2 resolve=2\ncheck A might threshold=2 dice=2,1", "spend A reroll"},
	{"exchange", "add A side=pc agility=2\nadd B side=pc agility=1\ncontest A B agility successes=1 vs_successes=0", "exchange"},
	{"group", "add A side=pc might=2\nadd B side=pc might=1", "group might A B threshold=1"},
	{"contest", "add A side=pc agility=2\nadd B side=pc agility=1", "contest A B agility"},
	{"spend dice on an exchange", "add A side=pc agility=2 resolve=1\nadd B side=pc agility=1\ncontest A B agility successes=0 vs_successes=1", "spend A resolve=1"},
	{"spend reroll on an exchange", "add A side=pc agility=1\nadd B side=pc agility=2 resolve=1\ncontest A B agility successes=1 vs_successes=0", "spend B reroll"},
	{"spend explode on an exchange", "set swing=yes\nadd A side=pc agility=2 resolve=1\nadd B side=pc agility=2\ncontest A B agility dice=6,1,2,1", "spend A explode"},
	{"spend dice on an assist", "add A side=pc agility=2 resolve=2\nadd B side=pc\nassist A for=B agility successes=2", "spend A resolve=2"},
	{"spend reroll on an assist", "add A side=pc agility=3 resolve=1\nadd B side=pc\nassist A for=B agility successes=1", "spend A reroll"},
	{"spend by the third of a same-goal roll", "add A side=pc might=1 resolve=1\nadd B side=pc might=1\nadd C side=pc might=1\ncheck A might vs=B,C same=yes successes=0 vs_successes=1,1", "spend A resolve=1"},
	{"spend dice on a group", "add A side=pc might=2 resolve=1\nadd B side=pc might=1\ngroup might A B threshold=0 successes=2,0", "spend A resolve=1"},
	// A defining moment is the hero's next challenge roll of any kind.
	{"check resisted in a defining moment", "add A side=pc might=1\nadd B side=pc might=1\ndefining B reduce=might", "check A might vs=B"},
	{"assist in a defining moment", "add A side=pc agility=2\nadd B side=pc\ndefining A reduce=agility", "assist A for=B agility"},
	{"group in a defining moment", "add A side=pc might=1\nadd B side=pc might=1\ndefining B reduce=might", "group might A B threshold=1"},
	{"contest in a defining moment", "add A side=pc agility=2\nadd B side=pc agility=1\ndefining B reduce=agility", "contest A B agility"},
}

func setupCase(t *testing.T, setup string) *engine.Engine {
	t.Helper()
	e := engine.New(pp.New(), rand.New(rand.NewPCG(1, 1)))
	do(t, e, setup)
	if st(e).Current() == "B" {
		do(t, e, "next")
	}
	return e
}

// Every rolling command's odds agree with enumerating every face of its
// dice (explosions up to two extra dice, the rest of the mass bounded).
func TestOddsBruteForce(t *testing.T) {
	for _, c := range oddsCases {
		t.Run(c.name, func(t *testing.T) {
			e := setupCase(t, c.setup)
			cmd, err := engine.ParseCommand(c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			sys := pp.New()
			o, err := sys.Odds(e.State(), cmd)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]float64{}
			covered := 0.0
			// Enumerate face sequences of growing length: a sequence the
			// roll takes exactly has probability 6^-n.
			var walk func(fs []int)
			walk = func(fs []int) {
				evs, err := sys.Decide(e.State(), cmd, faceRoller{fs})
				if err == nil {
					p := math.Pow(6, -float64(len(fs)))
					got[bandOf(t, e.State().(*pp.State), evs)] += p
					covered += p
					return
				}
				if len(fs) >= 6 || !strings.Contains(err.Error(), "needs more") {
					return
				}
				for f := 1; f <= 6; f++ {
					walk(append(append([]int{}, fs...), f))
				}
			}
			walk(nil)
			if covered < 0.97 {
				t.Fatalf("enumeration covers %v of the mass", covered)
			}
			for _, b := range o.Bands {
				if math.Abs(got[b.Name]-b.P) > 1-covered+1e-12 {
					t.Errorf("%s: odds %v, enumeration %v (uncovered %v)", b.Name, b.P, got[b.Name], 1-covered)
				}
				delete(got, b.Name)
			}
			for b, p := range got {
				if p > 0 {
					t.Errorf("enumeration finds band %q (%v) that the odds do not list", b, p)
				}
			}
		})
	}
}

// Every rolling command's odds agree with 100,000 seeded rolls of the same
// command, within 4 standard errors; 20,000 for a same-goal roll of three,
// whose every roll works out the exact odds of three pools (half a
// millisecond under the race detector) and whose odds the enumeration of
// TestOddsBruteForce checks exactly besides.
func TestOddsSeeded(t *testing.T) {
	for _, c := range oddsCases {
		n := 100000
		if strings.Contains(c.name, "of three") {
			n = 20000
		}
		if testing.Short() {
			n = 10000
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := setupCase(t, c.setup)
			cmd, _ := engine.ParseCommand(c.cmd)
			sys := pp.New()
			o, err := sys.Odds(e.State(), cmd)
			if err != nil {
				t.Fatal(err)
			}
			r := seededRoller{rand.New(rand.NewPCG(7, 8))}
			count := map[string]int{}
			for range n {
				evs, err := sys.Decide(e.State(), cmd, r)
				if err != nil {
					t.Fatal(err)
				}
				count[bandOf(t, e.State().(*pp.State), evs)]++
			}
			for _, b := range o.Bands {
				se := math.Sqrt(b.P * (1 - b.P) / float64(n))
				if got := float64(count[b.Name]) / float64(n); math.Abs(got-b.P) > 4*se+1e-9 {
					t.Errorf("%s: %v of %d seeded rolls, odds %v (4 SE = %v)", b.Name, got, n, b.P, 4*se)
				}
				delete(count, b.Name)
			}
			if len(count) > 0 {
				t.Errorf("rolled bands the odds do not list: %v", count)
			}
		})
	}
}

// odds COMMAND refuses what the command would refuse, in the same words.
func TestOddsRefusals(t *testing.T) {
	e := newPP(t, "")
	for line, want := range map[string]string{
		"odds check Whisper agility":           "Give the threshold",
		"odds spend Whisper resolve=1":         "no roll",
		"odds defining Whisper":                "no odds",
		"odds attack Whisper Vile with=might":  "not started",
		"odds attack Whisper Vile":             "needs with=TRAIT",
		"odds contest A B might":               `no combatant named "A"`,
		"odds contest Whisper Whisper agility": "against themselves",
	} {
		cmd, _ := engine.ParseCommand(line)
		if _, err := e.Odds(cmd); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
}

// BenchmarkCheck resolves one challenge roll, its odds included.
func BenchmarkCheck(b *testing.B) {
	for _, c := range oddsCases {
		b.Run(c.name, func(b *testing.B) {
			e := engine.New(pp.New(), rand.New(rand.NewPCG(1, 1)))
			for _, line := range strings.Split(c.setup, "\n") {
				cmd, _ := engine.ParseCommand(line)
				if _, err := e.Do(cmd); err != nil {
					b.Fatal(err)
				}
			}
			if e.State().(*pp.State).Current() == "B" {
				if _, err := e.Do(fray.Command{Name: "next"}); err != nil {
					b.Fatal(err)
				}
			}
			cmd, _ := engine.ParseCommand(c.cmd)
			sys := pp.New()
			r := seededRoller{rand.New(rand.NewPCG(7, 8))}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := sys.Decide(e.State(), cmd, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Health and Resolve come from character sheets too (engine.Join): Health
// derived when the sheet leaves it out.
func TestP10_SheetHealthAndResolve(t *testing.T) {
	e := engine.New(pp.New(), rand.New(rand.NewPCG(1, 2)))
	_, err := e.Join([]fray.Combatant{
		{Name: "Gate", Side: fray.SidePC, Stats: map[string]int{"might": 12, "toughness": 8, "willpower": 5}, Tracks: map[string]fray.Track{"resolve": {Value: 1, Max: 1}}},
		{Name: "Vile", Stats: map[string]int{"might": 3}, Tracks: map[string]fray.Track{"health": {Value: 7, Max: 7}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if h := pp.Health(st(e).Find("Gate")); h != 10 {
		t.Errorf("Gate's Health %d, want max(ceil(20/2), ceil(13/2)) = 10", h)
	}
	if h := pp.Health(st(e).Find("Vile")); h != 7 {
		t.Errorf("Vile's Health %d, want the sheet's 7", h)
	}
	do(t, e, "check Gate might threshold=hard successes=2\nspend Gate resolve=1 successes=1")
	refuse(t, e, "spend Gate resolve=1", "0 Resolve points left")
}

// Conditions (E-4) add their modifiers, in dice, to the rolls they apply
// to, listed in the odds; a once-only one is used up; one anchored to the
// end of a turn ends there.
func TestP10_ConditionModifiers(t *testing.T) {
	e := newPP(t, "condition Vile exposed mod=2 on=attacked once=yes\ncondition Vile braced mod=1 on=defence\nstart")
	cur := st(e).Current()
	line := "odds attack \"" + cur + "\" Vile with=agility"
	cmd, _ := engine.ParseCommand(line)
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	want := itoa(st(e).Find(cur).Stat("agility")+2) + "d"
	if !strings.HasPrefix(o.Expr, want) || !strings.Contains(o.Expr, "Vile's 4d") {
		t.Errorf("%s: %+v", line, o)
	}
	do(t, e, "attack \""+cur+"\" Vile with=agility successes=3 vs_successes=1")
	var d pp.CheckData
	last(t, e, pp.EventChecked, &d)
	if d.Pool.Dice != st(e).Find(cur).Stat("agility")+2 || d.OppPool.Dice != 4 {
		t.Errorf("pools %+v %+v", d.Pool, d.OppPool)
	}
	if st(e).Find("Vile").Condition("exposed") != nil || st(e).Find("Vile").Condition("braced") == nil {
		t.Error("exposed is not used up, or braced went with it")
	}
	do(t, e, "condition \""+cur+"\" winded mod=-1 on=all until=\"end:"+cur+"\"\nnext")
	if st(e).Find(cur).Condition("winded") != nil {
		t.Error("winded did not end with the turn")
	}
}

// BenchmarkAttack resolves one attack with every kind of modifier, its
// odds included (goal: under 20 µs): a condition on each side, an assist
// waiting, the −2d of a second action, the GM's modifiers on both sides
// and dice set aside.
func BenchmarkAttack(b *testing.B) {
	e := engine.New(pp.New(), rand.New(rand.NewPCG(1, 2)))
	for _, line := range strings.Split(`add Paragon side=pc perception=9 agility=5 might=8 resolve=3
add Whisper side=pc agility=5
add Vile role=villain might=6 agility=4 toughness=5 health=1000
condition Vile exposed mod=2 on=attacked
condition Vile braced mod=1 on=defence
assist Whisper for=Paragon agility successes=5
start
act`, "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.Do(cmd); err != nil {
			b.Fatal(line, err)
		}
	}
	cmd, _ := engine.ParseCommand("attack Paragon Vile with=might mod=+1d auto=2 vs_mod=-1d")
	sys := pp.New()
	r := seededRoller{rand.New(rand.NewPCG(7, 8))}
	evs, err := sys.Decide(e.State(), cmd, r)
	if err != nil {
		b.Fatal(err)
	}
	var d pp.CheckData
	if err := evs[1].Decode(&d); err != nil || d.Assist != 2 || d.Penalty != 2 || len(evs[1].Odds.Modifiers) < 6 {
		b.Fatalf("the attack leaves out a modifier: %+v, odds %+v (%v)", d, evs[1].Odds, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sys.Decide(e.State(), cmd, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFight runs a 10-combatant, 10-page fight of attacks (issue 4:
// under 5 ms).
func BenchmarkFight(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		e := engine.New(pp.New(), rand.New(rand.NewPCG(1, 2)))
		for i := range 10 {
			n := "C" + string(rune('A'+i))
			if _, err := e.Do(fray.Command{Name: "add", Args: []string{n}, Opts: map[string]string{"might": "6", "agility": "4", "perception": "3", "health": "1000"}}); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := e.Do(fray.Command{Name: "start"}); err != nil {
			b.Fatal(err)
		}
		for range 10 * 10 {
			cur := e.State().(*pp.State).Current()
			target := "CA"
			if cur == target {
				target = "CB"
			}
			if _, err := e.Do(fray.Command{Name: "attack", Args: []string{cur, target}, Opts: map[string]string{"with": "might"}}); err != nil {
				b.Fatal(err)
			}
			if _, err := e.Do(fray.Command{Name: "next"}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func FuzzResolution(f *testing.F) {
	var seeds []string
	for _, name := range resolutionExamples {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", name+".fray"))
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(b))
	}
	rulestest.FuzzScript(f, func() fray.System { return pp.New() }, seeds...)
}
