package bpb_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
)

// toRound6 plays the seed's rounds 1 to 5 in the order of rounds 4 and 5
// (Blueshift, Ganyeka, Monolith, Ganyeka's henchmen), so that round 6 of
// the seed's example is next.
func toRound6(t *testing.T, settings ...string) *engine.Engine {
	t.Helper()
	e := seeded(t, settings...)
	run(t, e, strings.Repeat("next\n", 4*5))
	if v := e.View(); v.Round != 6 || v.Current != "Blueshift" {
		t.Fatalf("after five rounds: round %d, %s's turn; want round 6, Blueshift's", v.Round, v.Current)
	}
	return e
}

// pending reports the hit waiting for a defence, or nil.
func pending(e *engine.Engine) *bpb.Hit { return e.State().(*bpb.State).Pending }

// damaged returns the payloads of the bpb.damaged events of evs.
func damaged(t *testing.T, evs []fray.Event) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ev := range evs {
		if ev.Type != bpb.EventDamaged {
			continue
		}
		var d map[string]any
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// B-7, round 6 of seed 000's example, with dice: "On the sixth round,
// Blueshift makes short work of two of Ganyeka's henchmen with a sweep
// attack. Ganyeka then pulls out a sinister-looking weapon, aims it at
// Monolith, and fires. Blueshift forces her next action to leap between
// Ganyeka and Monolith, taking the full brunt of Ganyeka's attack."
// The rounds then read as the seed lists them: "Round 6 Blueshift's turn
// Ganyeka's turn Blueshift's turn (forced from round 7) Monolith's turn
// Ganyeka's henchmen's turn", and "Round 7 Ganyeka's turn Monolith's turn
// Ganyeka's henchmen's turn". Undo takes the forced action and the hit
// back exactly, leaving the hit waiting on Monolith again.
func TestB7_ProtectSomeoneElse(t *testing.T) {
	e := toRound6(t)
	// Blueshift's Sweep (Prowess 7 + 3 expertise) against 8 + the
	// henchmen's Agility 4 = 12: 1 + 2 + 10 = 13 hits; rank 6 stunning −
	// Brawn 4 = 2 off their Endurance 12.
	d := task(t, doLine(t, e, `attack Blueshift "Ganyeka's henchmen" with=sweep dice=1,2`), bpb.RollAttack)
	if d["band"] != "success" || d["damage"] != 2.0 {
		t.Fatalf("the Sweep: %v", d)
	}
	run(t, e, `take "Ganyeka's henchmen"`+"\nnext Blueshift")
	if got := enduranceOf(e, "Ganyeka's henchmen"); got != 10 {
		t.Errorf("the henchmen's Endurance %d, want 10", got)
	}
	// Ganyeka's Blast (Accuracy 7) against 8 + Monolith's Agility 3 = 11:
	// 2 + 3 + 7 = 12 hits, and waits for Monolith's defence.
	doLine(t, e, "attack Ganyeka Monolith with=blast dice=2,3")
	h := pending(e)
	if h == nil {
		t.Fatal("the Blast does not wait for a defence")
	}
	before := e.State().Clone()
	evs := doLine(t, e, "take Blueshift for=Monolith")
	after := e.State().Clone()
	if evs[0].Type != bpb.EventForced {
		t.Errorf("taking the hit for Monolith did not force Blueshift's action: first event %s", evs[0].Type)
	}
	// The full brunt: rank 9 − Blueshift's own armour 2 = 7 off her
	// Endurance 20; Monolith takes nothing.
	want := []map[string]any{{"name": string(combatant(e, "Blueshift").ID), "amount": 7.0, "by": string(h.Attacker), "settles": true, "for": string(h.Defender)}}
	if diff := cmp.Diff(want, damaged(t, evs)); diff != "" {
		t.Errorf("the damage (-want +got):\n%s", diff)
	}
	if b, m := enduranceOf(e, "Blueshift"), enduranceOf(e, "Monolith"); b != 13 || m != 30 {
		t.Errorf("Endurance: Blueshift %d, Monolith %d; want 13 and 30", b, m)
	}
	if pending(e) != nil || e.View().Current != "Ganyeka" {
		t.Errorf("after the take: pending %v, current %s; want none, Ganyeka", pending(e), e.View().Current)
	}

	run(t, e, "undo")
	if !reflect.DeepEqual(before, e.State()) {
		t.Errorf("undo did not restore the encounter exactly: %s", cmp.Diff(before, e.State()))
	}
	run(t, e, "redo")
	if !reflect.DeepEqual(after, e.State()) {
		t.Errorf("redo did not restore the take exactly: %s", cmp.Diff(after, e.State()))
	}

	run(t, e, "next Ganyeka\nnext Monolith\nnext")
	if v := e.View(); v.Round != 7 || v.Current != "Ganyeka" {
		t.Errorf("round 7 begins with round %d, %s's turn; want Ganyeka's, Blueshift's turn being lost", v.Round, v.Current)
	}
	run(t, e, "next\nnext\nnext")
	got := history(e.View())
	for i, w := range []string{
		"Round 6: Blueshift, Ganyeka, Blueshift (forced from round 7), Monolith, Ganyeka's henchmen",
		"Round 7: Ganyeka, Monolith, Ganyeka's henchmen",
		"Round 8: Blueshift",
	} {
		if g := got[5+i]; g != w {
			t.Errorf("history:\n got %s\nwant %s", g, w)
		}
	}
}

// B-7 with B-8, B-9, B-1 and B-10: a protector's block or dodge is rolled
// with the protector's own stat and expertise against 8 + the attack's
// rank; success negates the attack, a failure lands it on the protector
// (ours); the hit that lands keeps its raised rank and meets the protector's own
// protection (Brawn against stunning damage).
func TestB7_ProtectWithDefence(t *testing.T) {
	cases := []struct {
		name     string
		settings []string
		before   string // Blueshift's turn, before she ends it
		attack   string // by Ganyeka on Monolith, on Ganyeka's turn
		protect  string
		band     string
		blue     int     // Blueshift's Endurance after
		cond     string  // a condition Blueshift holds after, or ""
		rollKind *string // the roll expected, or nil for none
	}{
		{name: "block succeeds", attack: "attack Ganyeka Monolith with=blast dice=2,3", protect: "block Blueshift for=Monolith dice=6,5",
			band: "success", blue: 20, cond: "blocking", rollKind: ptr(bpb.RollBlock)},
		{name: "block fails, the protector takes it", attack: "attack Ganyeka Monolith with=blast dice=2,3", protect: "block Blueshift for=Monolith dice=1,1",
			band: "failure", blue: 13, cond: "blocking", rollKind: ptr(bpb.RollBlock)},
		// Her own standing block meets attacks on her alone: protecting
		// Monolith is still forced (and ends the stance, which the block
		// then gives her again).
		{name: "a blocking protector still forces", before: "block Blueshift", attack: "attack Ganyeka Monolith with=blast dice=2,3", protect: "block Blueshift for=Monolith dice=6,5",
			band: "success", blue: 20, cond: "blocking", rollKind: ptr(bpb.RollBlock)},
		// Agility 9 + 3 dodging + 12 = 24 against 17: seven over, extreme.
		{name: "extreme dodge", attack: "attack Ganyeka Monolith with=blast dice=2,3", protect: "dodge Blueshift for=Monolith dice=6,6",
			band: "extreme", blue: 20, cond: "dodging", rollKind: ptr(bpb.RollDodge)},
		// Remarkable (6 + 1 + 7 = 14 against 11): rank 10 − armour 2 = 8.
		{name: "remarkable rank carries over", settings: []string{"success=expertise"}, attack: "attack Ganyeka Monolith with=blast dice=6,1",
			protect: "take Blueshift for=Monolith", blue: 12},
		// Strike 6 stunning against Blueshift's Brawn 4, not her armour 2.
		{name: "stunning meets the protector's Brawn", attack: "attack Ganyeka Monolith with=strike dice=3,3",
			protect: "take Blueshift for=Monolith", blue: 18},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := seeded(t, c.settings...)
			if c.before != "" {
				run(t, e, c.before)
			}
			run(t, e, "next Blueshift\n"+c.attack)
			if pending(e) == nil {
				t.Fatal("the attack does not wait for a defence")
			}
			evs := doLine(t, e, c.protect)
			if evs[0].Type != bpb.EventForced {
				t.Errorf("protecting Monolith did not force Blueshift's action: first event %s", evs[0].Type)
			}
			if c.rollKind != nil {
				d := task(t, evs, *c.rollKind)
				if d["band"] != c.band || d["difficulty"] != 17.0 || d["for"] != string(combatant(e, "Monolith").ID) || d["name"] != string(combatant(e, "Blueshift").ID) {
					t.Errorf("the roll: %v", d)
				}
			}
			if b, m := enduranceOf(e, "Blueshift"), enduranceOf(e, "Monolith"); b != c.blue || m != 30 {
				t.Errorf("Endurance: Blueshift %d, Monolith %d; want %d and 30", b, m, c.blue)
			}
			if pending(e) != nil {
				t.Error("the hit still waits")
			}
			if c.cond != "" && condition(e, "Blueshift", c.cond) == nil {
				t.Errorf("Blueshift is not %s: %v", c.cond, combatant(e, "Blueshift").Conditions)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// A protective block or dodge against the henchmen, who act after
// Blueshift: an extreme one moves them right after her (B-9).
func TestB7_ProtectiveExtremeReorders(t *testing.T) {
	e := seeded(t)
	run(t, e, "next Blueshift\nnext Ganyeka")
	// The Pistol (Accuracy 4) against 8 + Monolith's Agility 3: 4 + 3 + 4 = 11.
	run(t, e, `next Monolith`)
	doLine(t, e, `attack "Ganyeka's henchmen" Monolith with=pistol dice=4,3`)
	d := task(t, doLine(t, e, "dodge Blueshift for=Monolith dice=6,6"), bpb.RollDodge)
	if d["band"] != "extreme" {
		t.Fatalf("the dodge: %v", d)
	}
	s := e.State().(*bpb.State)
	var order []string
	for _, id := range s.Order {
		order = append(order, s.NameOf(id))
	}
	if got, want := strings.Join(order, ", "), "Blueshift, Ganyeka's henchmen, Ganyeka, Monolith"; got != want {
		t.Errorf("standing order %s, want %s", got, want)
	}
}

// Protecting someone is refused, changing nothing, when it cannot be a
// forced action on their behalf against the hit waiting.
func TestB7_ProtectRefusals(t *testing.T) {
	e := seeded(t)
	run(t, e, "next Blueshift")
	refused(t, e, "take Blueshift for=Monolith", "No attack is waiting")
	refused(t, e, "block Blueshift for=Monolith", "nothing to block for Monolith")
	doLine(t, e, "attack Ganyeka Monolith with=blast dice=2,3")
	for _, c := range []struct{ line, want string }{
		{"take for=Monolith", "Name who takes the hit"},
		{"take Blueshift for=Blueshift", "someone else"},
		{"block Monolith for=Monolith", "someone else"},
		{`take Blueshift for="Ganyeka's henchmen"`, "The attack waiting is against Monolith, not Ganyeka's henchmen"},
		{"dodge Blueshift for=Ganyeka", "The attack waiting is against Monolith, not Ganyeka"},
		{"take Ganyeka for=Monolith", "Ganyeka cannot protect Monolith from their own attack"},
	} {
		refused(t, e, c.line, c.want)
	}

	// Once per round, and never while out (B-7, B-10).
	e = seeded(t)
	run(t, e, "force Monolith\nnext Blueshift\nattack Ganyeka Blueshift with=blast dice=6,6")
	refused(t, e, "take Monolith for=Blueshift", "Monolith cannot take the hit for Blueshift")
	refused(t, e, "block Monolith for=Blueshift", "already forced an action in round 1")
	e = seeded(t)
	run(t, e, "damage Monolith 30\nnext Blueshift\nattack Ganyeka Blueshift with=blast dice=6,6")
	refused(t, e, "take Monolith for=Blueshift", "Monolith is out")
	refused(t, e, "dodge Monolith for=Blueshift", "Monolith is out")
}

// The odds of a protective block are the protector's: Blueshift's
// Prowess 7 against 8 + 9.
func TestB7_ProtectiveOdds(t *testing.T) {
	e := seeded(t)
	run(t, e, "next Blueshift\nattack Ganyeka Monolith with=blast dice=2,3")
	o, err := e.Odds(fray.Command{Name: "block", Args: []string{"Blueshift"}, Opts: map[string]string{"for": "Monolith"}})
	if err != nil {
		t.Fatal(err)
	}
	// 7 + 2d6 ≥ 17 needs 10 or more: 6 of the 36 rolls.
	if o.Target != 17 || len(o.Bands) == 0 {
		t.Fatalf("odds: %+v", o)
	}
	var p float64
	for _, b := range o.Bands {
		if b.Name != "fails" {
			p += b.P
		}
	}
	if diff := p - 6.0/36; diff > 1e-9 || diff < -1e-9 {
		t.Errorf("the chance to block for Monolith is %v, want 6/36", p)
	}
}
