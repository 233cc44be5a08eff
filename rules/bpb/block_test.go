package bpb_test

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/sheet"
)

// telepaths loads examples/bpb-telepaths.yaml: Puppeteer (Telepathy 8,
// Mind Control 9), Mindwave (Telepathy 7 with expertise, Punch 3) and
// Bystander, who has no powers. Telepathy and Mind Control inflict no
// Endurance damage (attack … endurance=no).
func telepaths(t *testing.T) *engine.Engine {
	t.Helper()
	cs, err := sheet.Load("../../examples/bpb-telepaths.yaml", bpb.New(), fray.SideNPC)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine()
	if _, err := e.Join(cs); err != nil {
		t.Fatal(err)
	}
	return e
}

// mindFight starts Puppeteer, Mindwave and Bystander in that order.
func mindFight(t *testing.T) *engine.Engine {
	t.Helper()
	e := telepaths(t)
	run(t, e, "order Puppeteer Mindwave Bystander\nstart")
	return e
}

// examples/bpb-samepower.fray: a Telepathy block forced in round 1, a
// block with a similar power (similar=yes) in round 2 from the block that
// still stands, extreme, so Puppeteer acts after Mindwave from round 3.
func TestB8_SamePowerExample(t *testing.T) {
	e := telepaths(t)
	script, err := os.ReadFile("../../examples/bpb-samepower.fray")
	if err != nil {
		t.Fatal(err)
	}
	run(t, e, strings.TrimSpace(string(script)))
	want := []string{
		"Round 1: Puppeteer, Mindwave (blocks attack by Puppeteer), Bystander",
		"Round 2: Puppeteer, Mindwave, Bystander",
		"Round 3: Mindwave, Puppeteer",
	}
	if got := history(e.View()); !reflect.DeepEqual(got, want) {
		t.Errorf("history:\n got %q\nwant %q", got, want)
	}
	var blocks []string
	for _, ev := range e.Log() {
		if ev.Type != bpb.EventTask {
			continue
		}
		var d struct {
			Roll, With, Band  string
			Total, Difficulty int
		}
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if d.Roll == bpb.RollBlock {
			blocks = append(blocks, fmt.Sprintf("%s %s %d/%d", d.With, d.Band, d.Total, d.Difficulty))
		}
	}
	// 4 + 3 + 9 = 16 against 8 + 8; 6 + 5 + 9 = 20 against 8 + 9.
	if want := []string{"Telepathy success 16/16", "Telepathy extreme 20/17"}; !reflect.DeepEqual(blocks, want) {
		t.Errorf("blocks %q, want %q", blocks, want)
	}
}

// B-8: "if the defender has the same power as the attacker, they may use
// that power to attempt to block" (and to dodge), even against an attack
// that inflicts no Endurance damage, which nothing else blocks; with the
// GM's permission a similar power. The roll is still the block's Prowess
// (the dodge's Agility) against 8 + the attacker's rank, and it costs what
// any block costs: a forced action when it is not the defender's turn.
func TestB8_BlockWithSamePower(t *testing.T) {
	e := mindFight(t)
	// Telepathy does no damage, whatever the roll.
	ao, err := e.Odds(fray.Command{Name: "attack", Args: []string{"Puppeteer", "Mindwave"}, Opts: map[string]string{"with": "telepathy", "endurance": "no"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ao.Dist) != 1 || ao.Dist[0] != (fray.Point{V: 0, P: 1}) || ao.Mean != 0 {
		t.Errorf("Telepathy's damage distribution %v", ao.Dist)
	}
	refused(t, e, "attack Puppeteer Mindwave with=telepathy endurance=maybe", "endurance=maybe is not allowed")
	// Puppeteer's Telepathy (Accuracy 6) against 8 + Mindwave's Agility
	// 5 = 13: 4 + 3 + 6 = 13, a hit.
	evs := doLine(t, e, "attack Puppeteer Mindwave with=telepathy endurance=no dice=4,3")
	if d := task(t, evs, bpb.RollAttack); d["band"] != "success" || d["effect"] != true || d["damage"] != nil {
		t.Errorf("the Telepathy attack: %v", d)
	}
	refused(t, e, "block Mindwave", "Puppeteer's Telepathy inflicts no Endurance damage, so only the same power can block it: block Mindwave with=Telepathy")
	refused(t, e, "dodge Mindwave", "only the same power can dodge it")
	refused(t, e, "block Mindwave with=punch", "Mindwave's Punch is not the Telepathy Puppeteer attacked with")
	refused(t, e, "block Mindwave with=flight", `Mindwave has no power named "flight" to block with`)
	refused(t, e, "block Mindwave similar=yes", "similar=yes goes with with=POWER")
	refused(t, e, "block Mindwave with=telepathy similar=perhaps", "similar=perhaps is not allowed")
	// Prowess 6, +3 for her expertise in Telepathy: 2d6+9 against 8 + 8
	// = 16. It fails on 2-6 (15/36), negates on 7-9 (6+5+4 = 15/36), is
	// extreme on 10-12 (3+2+1 = 6/36).
	o, err := e.Odds(fray.Command{Name: "block", Args: []string{"Mindwave"}, Opts: map[string]string{"with": "telepathy"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Expr != "2d6+9" || o.Target != 16 {
		t.Errorf("odds: %s against %d, want 2d6+9 against 16", o.Expr, o.Target)
	}
	for i, want := range []float64{15.0 / 36, 15.0 / 36, 6.0 / 36} {
		if math.Abs(o.Bands[i].P-want) > 1e-12 {
			t.Errorf("odds band %s: %v, want %v", o.Bands[i].Name, o.Bands[i].P, want)
		}
	}
	// 4 + 3 + 9 = 16: negated. It is Puppeteer's turn, so Mindwave forces
	// her action: it costs her turn this round.
	evs = doLine(t, e, "block Mindwave with=telepathy dice=4,3")
	d := task(t, evs, bpb.RollBlock)
	if d["with"] != "Telepathy" || d["power"] != "Telepathy" || d["difficulty"] != 16.0 || d["total"] != 16.0 || d["band"] != "success" {
		t.Errorf("the block: %v", d)
	}
	if evs[0].Type != bpb.EventForced || e.State().(*bpb.State).Pending != nil || condition(e, "Mindwave", "blocking") == nil {
		t.Errorf("the block did not force, negate and stand: %v", evs[0].Type)
	}
	doLine(t, e, "next Puppeteer")
	if v := e.View(); v.Current != "Bystander" {
		t.Errorf("after Puppeteer, %s acts; Mindwave's turn was spent by her forced block", v.Current)
	}
	// Round 2: still blocking until her next action, Mindwave meets a
	// second Telepathy attack with her Telepathy at once: 6 + 6 + 6 = 18
	// hits; her 1 + 1 + 9 = 11 fails, and the hit lands (no Endurance
	// damage).
	run(t, e, "next Bystander")
	evs = doLine(t, e, "attack Puppeteer Mindwave with=telepathy endurance=no dice=6,6,1,1")
	if d := task(t, evs, bpb.RollBlock); d["with"] != "Telepathy" || d["band"] != "failure" {
		t.Errorf("the standing block: %v", d)
	}
	for _, ev := range evs {
		if ev.Type == bpb.EventForced {
			t.Errorf("the standing block forced an action again")
		}
	}
	if enduranceOf(e, "Mindwave") != 20 {
		t.Errorf("Telepathy took Endurance: %d", enduranceOf(e, "Mindwave"))
	}
	// Mind Control is not Telepathy: a similar power only with the GM's
	// leave. Dodging with it: Agility 5 + 3 against 8 + 9 = 17.
	e = mindFight(t)
	doLine(t, e, `attack Puppeteer Mindwave with="mind control" endurance=no dice=6,6`)
	refused(t, e, "dodge Mindwave with=telepathy", "Mindwave's Telepathy is not the Mind Control Puppeteer attacked with")
	d = task(t, doLine(t, e, "dodge Mindwave with=telepathy similar=yes dice=6,3"), bpb.RollDodge)
	if d["difficulty"] != 17.0 || d["total"] != 17.0 || d["band"] != "success" || d["stat"] != "agility" {
		t.Errorf("the similar dodge: %v", d)
	}
	// Without the power, a Telepathy attack cannot be blocked at all:
	// the error names no power to use.
	run(t, e, "next Puppeteer")
	e = mindFight(t)
	doLine(t, e, "attack Puppeteer Bystander with=telepathy endurance=no dice=6,6")
	refused(t, e, "block Bystander", "Puppeteer's Telepathy inflicts no Endurance damage, so only the same power can block it.")
	refused(t, e, "block Bystander with=telepathy", `Bystander has no power named "telepathy"`)
	// The same power blocks an attack that inflicts Endurance damage too:
	// Blueshift's Punch (rank 5) against Monolith's Punch, Prowess 8 + 3
	// (blocking) against 8 + 5 = 13: 2 + 2 + 11 = 15.
	e = seeded(t)
	doLine(t, e, "attack Blueshift Monolith with=punch dice=6,6")
	d = task(t, doLine(t, e, "block Monolith with=punch dice=2,2"), bpb.RollBlock)
	if d["with"] != "Punch" || d["difficulty"] != 13.0 || d["total"] != 15.0 || d["band"] != "success" {
		t.Errorf("Punch against Punch: %v", d)
	}
}

// B-8: a block or dodge declared on one's own turn (no roll yet) lasts
// until the defender's next action: each attack that hits meanwhile is
// met with a roll at once, without forcing; at the start of the
// defender's next turn the stance ends.
func TestB8_DefenceLastsUntilNextAction(t *testing.T) {
	e := seeded(t)
	run(t, e, "next Blueshift\nnext Ganyeka")
	evs := doLine(t, e, "block Monolith")
	if len(evs) != 1 || condition(e, "Monolith", "blocking") == nil {
		t.Fatalf("block on his turn: %v", evs)
	}
	doLine(t, e, "next Monolith")
	// The henchmen's Pistol (rank 5; Accuracy 4 + 5 + 6 = 15 against 11)
	// hits; Monolith's block, 2d6 + 8 + 3 against 13, rolls 1 + 1 = 13.
	evs = doLine(t, e, `attack "Ganyeka's henchmen" Monolith with=pistol dice=5,6,1,1`)
	if d := task(t, evs, bpb.RollBlock); d["difficulty"] != 13.0 || d["total"] != 13.0 || d["band"] != "success" {
		t.Errorf("the standing block: %v", d)
	}
	for _, ev := range evs {
		if ev.Type == bpb.EventForced {
			t.Errorf("a standing block forced an action")
		}
	}
	// Round 2, Blueshift's Sweep (rank 6, Prowess 7 + 3 + 2 + 2 = 14
	// against 11) hits; the block (1 + 2 + 11 = 14 against 14) holds.
	doLine(t, e, `next "Ganyeka's henchmen"`)
	evs = doLine(t, e, "attack Blueshift Monolith with=sweep dice=2,2,1,2")
	if d := task(t, evs, bpb.RollBlock); d["difficulty"] != 14.0 || d["band"] != "success" {
		t.Errorf("the block in round 2: %v", d)
	}
	run(t, e, "next Blueshift")
	if condition(e, "Monolith", "blocking") == nil {
		t.Errorf("the block ended before Monolith's next action")
	}
	run(t, e, "next Ganyeka")
	if condition(e, "Monolith", "blocking") != nil {
		t.Errorf("the block outlived the start of Monolith's next turn")
	}
	// The next hit waits for a fresh block, dodge or take.
	doLine(t, e, `next Monolith`)
	evs = doLine(t, e, `attack "Ganyeka's henchmen" Monolith with=pistol dice=5,6`)
	if len(evs) != 1 || e.State().(*bpb.State).Pending == nil {
		t.Errorf("with the stance gone, the hit should wait: %d events", len(evs))
	}
}
