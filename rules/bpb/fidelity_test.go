package bpb_test

import (
	"testing"

	"fray"
	"fray/rules/bpb"
)

// B-8 with B-1's remarkable success: "If the player rolls a remarkable
// success in combat, one rank is added to the weapon or power, solely
// for the purposes of that attack", and "the task difficulty to block it
// would be 9 + 8 = 17" for a rank 9 Blast: a remarkable Blast is blocked
// or dodged against 8 + 10, the waiting hit and the standing block alike.
func TestB8_RemarkableRaisesBlockDifficulty(t *testing.T) {
	e := seeded(t, "success=expertise")
	run(t, e, "next Blueshift")
	// Ganyeka's Blast (Accuracy 7, no expertise in it) against 8 +
	// Monolith's Agility 3 = 11: 6 + 1 + 7 = 14, three over: remarkable.
	d := task(t, doLine(t, e, "attack Ganyeka Monolith with=blast dice=6,1"), bpb.RollAttack)
	if d["band"] != "remarkable" || d["damage"] != 4.0 {
		t.Fatalf("the Blast: %v", d)
	}
	o, err := e.Odds(fray.Command{Name: "block", Args: []string{"Monolith"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Target != 18 {
		t.Errorf("odds block against a remarkable rank 9 Blast: difficulty %d, want 8 + 10 = 18", o.Target)
	}
	// Prowess 8 + 3 (blocking) + 3 + 3 = 17: short of 18, so the Blast
	// lands (rank 10 − armour 6 = 4).
	d = task(t, doLine(t, e, "block Monolith dice=3,3"), bpb.RollBlock)
	if d["difficulty"] != 18.0 || d["band"] != "failure" {
		t.Errorf("the block: %v", d)
	}
	if got := enduranceOf(e, "Monolith"); got != 26 {
		t.Errorf("Monolith's Endurance %d, want 26", got)
	}

	// A standing block meets a remarkable hit against the raised rank too:
	// the henchmen's Pistol (rank 5; Accuracy 4 + 5 + 5 = 14 against 11)
	// is remarkable, so 8 + 6 = 14; Monolith's 1 + 1 + 11 = 13 fails.
	e = seeded(t, "success=expertise")
	run(t, e, "next Blueshift\nnext Ganyeka\nblock Monolith\nnext Monolith")
	evs := doLine(t, e, `attack "Ganyeka's henchmen" Monolith with=pistol dice=5,5,1,1`)
	if d := task(t, evs, bpb.RollAttack); d["band"] != "remarkable" {
		t.Fatalf("the Pistol: %v", d)
	}
	if d := task(t, evs, bpb.RollBlock); d["difficulty"] != 14.0 || d["band"] != "failure" {
		t.Errorf("the standing block: %v", d)
	}
}

// B-8: "The defender may continue attempting to block additional attacks
// until their next action", and of dodging: "The defender may continue
// attempting to dodge additional attacks until their next action." A
// standing block gives further blocks, not dodges: a blocking defender
// who dodges a waiting hit off their turn forces an action for it (B-7),
// which is their next action and so ends the block.
func TestB8_StanceIsPerKind(t *testing.T) {
	e := mindFight(t)
	// Round 1: Mindwave forces a Telepathy block against Telepathy and
	// stands blocking.
	run(t, e, "attack Puppeteer Mindwave with=telepathy endurance=no dice=4,3\nblock Mindwave with=telepathy dice=4,3\nnext Puppeteer\nnext Bystander")
	if condition(e, "Mindwave", "blocking") == nil {
		t.Fatal("Mindwave is not blocking")
	}
	// Round 2: Mind Control (3 + 4 + 6 = 13) hits and waits, since her
	// block has no Mind Control to meet it with. She dodges it with her
	// Telepathy (similar=yes): Agility 5 + 3 + 6 + 5 = 19 against 17.
	doLine(t, e, `attack Puppeteer Mindwave with="mind control" endurance=no dice=3,4`)
	evs := doLine(t, e, "dodge Mindwave with=telepathy similar=yes dice=6,5")
	if evs[0].Type != bpb.EventForced {
		t.Errorf("a blocking defender's dodge did not force an action: first event %s", evs[0].Type)
	}
	if d := task(t, evs, bpb.RollDodge); d["band"] != "success" {
		t.Errorf("the dodge: %v", d)
	}
	if condition(e, "Mindwave", "dodging") == nil || condition(e, "Mindwave", "blocking") != nil {
		t.Errorf("after the forced dodge Mindwave should be dodging, not blocking: %v", combatant(e, "Mindwave").Conditions)
	}
	doLine(t, e, "next Puppeteer")
	if v := e.View(); v.Current != "Bystander" {
		t.Errorf("after Puppeteer, %s acts; Mindwave's round 2 turn was spent by her forced dodge", v.Current)
	}

	// A standing block meets every hit at once; a defender who would
	// rather dodge the next one gives the block up first (clear), and
	// the hit then waits for a forced dodge.
	e = seeded(t)
	run(t, e, "next Blueshift\nnext Ganyeka\nblock Monolith\nnext Monolith\nclear Monolith blocking")
	doLine(t, e, `attack "Ganyeka's henchmen" Monolith with=pistol dice=5,6`)
	if e.State().(*bpb.State).Pending == nil {
		t.Fatal("with the block given up, the hit should wait")
	}
	evs = doLine(t, e, "dodge Monolith dice=6,6")
	if evs[0].Type != bpb.EventForced || condition(e, "Monolith", "dodging") == nil {
		t.Errorf("the dodge after the block was given up: first event %s, conditions %v", evs[0].Type, combatant(e, "Monolith").Conditions)
	}
}

// B-10: "0 Endurance = out" (ours, configurable defaults). The seed's
// actions are all a character's ("Forcing an action allows a character
// to sacrifice their next turn in order to block, dodge …"); an out
// character takes none: their turn still comes, and passes with next.
func TestB10_OutCannotAct(t *testing.T) {
	e := seeded(t)
	run(t, e, "next Blueshift\ndelay Ganyeka\ndamage Ganyeka 24")
	if condition(e, "Ganyeka", "out") == nil {
		t.Fatal("Ganyeka is not out")
	}
	refused(t, e, "interrupt Ganyeka", "Ganyeka is out")
	refused(t, e, "force Ganyeka", "Ganyeka is out")
	refused(t, e, "distract Ganyeka Monolith", "Ganyeka is out")
	run(t, e, "next Monolith\nnext \"Ganyeka's henchmen\"\nnext Blueshift")
	if v := e.View(); v.Current != "Ganyeka" {
		t.Fatalf("round 2: %s's turn, want Ganyeka's", v.Current)
	}
	refused(t, e, "attack Ganyeka Monolith with=blast dice=6,6", "Ganyeka is out")
	refused(t, e, "block Ganyeka", "Ganyeka is out")
	refused(t, e, "dodge Ganyeka", "Ganyeka is out")
	refused(t, e, "delay Ganyeka", "Ganyeka is out")
	doLine(t, e, "next Ganyeka")
	if v := e.View(); v.Current != "Monolith" {
		t.Errorf("after Ganyeka's turn passes, %s acts, want Monolith", v.Current)
	}
}
