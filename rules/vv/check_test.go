package vv_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/vv"
)

// lastEvent returns the payload of the last event of type typ.
func lastEvent[T any](t *testing.T, e *engine.Engine, typ string) (T, fray.Event) {
	t.Helper()
	var d T
	log := e.Log()
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type == typ {
			if err := log[i].Decode(&d); err != nil {
				t.Fatal(err)
			}
			return d, log[i]
		}
	}
	t.Fatalf("no %s event", typ)
	return d, fray.Event{}
}

// idOf returns the id of the present combatant the rules call name.
func idOf(e *engine.Engine, name string) fray.CombatantID {
	return e.State().(*vv.State).IDOf(name)
}

// spend takes Power off the character's current Power at any time: before
// the start, on the spender's own phase, on someone else's phase (outside
// the action sequence, as V-7's talking and facing changes are) and once
// the turn's phases are over. The history and the log show it, and undo
// gives it back exactly.
func TestSpendPower(t *testing.T) {
	// Grue has power=30; Jack power=45. Grue acts on phase 30 (agility
	// 20 + die 10), Jack on 11, Mook on 1.
	e := newFightWith(t, "spend Grue power=4 note=\"Force Field\"", "")
	if got := power(e, "Grue"); got != 26 { // 30 − 4
		t.Fatalf("Grue's Power after spending 4 of 30 before the start: %d, want 26", got)
	}
	d, _ := lastEvent[vv.SpendData](t, e, vv.EventSpent)
	if !reflect.DeepEqual(d, vv.SpendData{Who: idOf(e, "Grue"), Power: 4, Note: "Force Field"}) {
		t.Errorf("before the start: %+v", d)
	}

	// Jack spends on Grue's phase 30: allowed, not his action.
	before := e.State().Clone()
	run(t, e, "spend Jack power=5 note=Flight")
	if got := power(e, "Jack"); got != 40 { // 45 − 5
		t.Errorf("Jack's Power: %d, want 40", got)
	}
	if cur := e.State().(*vv.State).Current(); cur != "Grue" {
		t.Errorf("spending changed who acts: %s", cur)
	}
	d, _ = lastEvent[vv.SpendData](t, e, vv.EventSpent)
	if !reflect.DeepEqual(d, vv.SpendData{Who: idOf(e, "Jack"), Power: 5, Phase: 30, Note: "Flight"}) {
		t.Errorf("on Grue's phase: %+v", d)
	}
	h := history(e)
	if len(h) != 1 || !strings.Contains(h[0], "Jack (5 Power spent on phase 30: Flight)") {
		t.Errorf("history %q", h)
	}
	if _, err := e.Undo(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, e.State()) {
		t.Error("undo did not restore the state exactly")
	}
	if _, err := e.Redo(); err != nil {
		t.Fatal(err)
	}
	if got := power(e, "Jack"); got != 40 {
		t.Errorf("after redo Jack's Power: %d, want 40", got)
	}

	// The whole of what is left may be spent: Grue 26 → 0.
	run(t, e, "spend Grue power=26")
	if got := power(e, "Grue"); got != 0 {
		t.Errorf("Grue's Power after spending all 26 left: %d, want 0", got)
	}
	// The view's power track shows what is left.
	for _, c := range e.View().Combatants {
		if c.Name == "Jack" && (c.Tracks[vv.TrackPower] != fray.Track{Value: 40, Max: 45}) {
			t.Errorf("Jack's power track %+v, want 40 of 45", c.Tracks[vv.TrackPower])
		}
	}
}

// Every refusal of spend says what is wrong and changes nothing.
func TestSpendRefusals(t *testing.T) {
	e := newFightWith(t, "add Wall agility=1", "spend Jack power=15")
	// Jack: 45 − 15 = 30 Power left.
	for _, c := range []struct{ line, want string }{
		{"spend Jack power=31", "Jack has 30 Power; spending 31 is more than that"},
		{"spend Jack power=0", "from 1 to"},
		{"spend Jack power=-2", "from 1 to"},
		{"spend Jack power=lots", "from 1 to"},
		{"spend Jack", "power=N"},
		{"spend Nobody power=1", "Nobody"},
		{"spend Wall power=1", "Wall has no Power"},
		{"spend", "spend NAME power=N"},
		{"spend Jack Grue power=1", "spend NAME power=N"},
		{"spend Jack power=1 on=Flight", "on"},
		{"spend Jack power=1 note=" + strings.Repeat("x", 201), "longer than 200"},
		{"spend Jack power=1 dice=3", "rolls no dice"},
	} {
		t.Run(c.line, func(t *testing.T) { refuse(t, e, c.line, c.want) })
	}
}

// check rolls d%: at or under the chance succeeds (V-4's Detect Danger,
// V-8's unaware defender), 100 faces, no automatic result. The event
// records the die, the odds and what the roll was for.
func TestCheckPercentile(t *testing.T) {
	for _, c := range []struct {
		line   string
		chance int // the final chance, worked out by hand
		face   int
		band   string
	}{
		{"check Jack chance=45 dice=45", 45, 45, vv.CheckSuccess}, // 45 ≤ 45
		{"check Jack chance=45 dice=46", 45, 46, vv.CheckFailure}, // 46 > 45
		{"check Jack chance=45 dice=1", 45, 1, vv.CheckSuccess},
		{"check Jack chance=45 mod=-10 dice=36", 35, 36, vv.CheckFailure}, // 45 − 10 = 35 < 36
		{"check Jack chance=45% mod=+10 dice=55", 55, 55, vv.CheckSuccess},
		{"check Jack chance=0 dice=1", 0, 1, vv.CheckFailure},         // no automatic success on a 1
		{"check Jack chance=100 dice=100", 100, 100, vv.CheckSuccess}, // nor failure on 100
		{"check Jack chance=5 mod=-20 dice=1", -15, 1, vv.CheckFailure},
		{"check Jack chance=95 mod=+20 dice=100", 115, 100, vv.CheckSuccess},
	} {
		t.Run(c.line, func(t *testing.T) {
			e := newFight(t, "")
			before := power(e, "Jack")
			run(t, e, c.line+` note="Detect Danger"`)
			d, ev := lastEvent[vv.CheckData](t, e, vv.EventChecked)
			if d.Chance != c.chance || d.Roll != c.face || d.Band != c.band || d.Who != idOf(e, "Jack") || d.Note != "Detect Danger" {
				t.Errorf("%+v, want chance %d, d%% %d, %s", d, c.chance, c.face, c.band)
			}
			if len(ev.Rolls) != 1 || ev.Rolls[0].Total != c.face || ev.Rolls[0].Source != fray.RollFaces {
				t.Errorf("rolls %+v", ev.Rolls)
			}
			if ev.Odds == nil || ev.Odds.Target != c.chance || ev.Odds.Expr != vv.CheckDice {
				t.Errorf("odds %+v", ev.Odds)
			}
			if power(e, "Jack") != before || e.State().(*vv.State).Current() != "Grue" {
				t.Error("a check cost Power or changed who acts")
			}
		})
	}
}

// Every refusal of check says what is wrong and changes nothing.
func TestCheckRefusals(t *testing.T) {
	e := newFight(t, "")
	for _, c := range []struct{ line, want string }{
		{"check Jack", "chance=PCT"},
		{"check Jack chance=101", "from 0 to 100"},
		{"check Jack chance=-1", "from 0 to 100"},
		{"check Jack chance=half", "from 0 to 100"},
		{"check Jack chance=50 mod=200", "mod=200"},
		{"check Nobody chance=50", "Nobody"},
		{"check chance=50", "check NAME chance=PCT"},
		{"check Jack Perception chance=50", "check NAME chance=PCT"},
		{"check Jack chance=50 with=Perception", "with"},
		{"check Jack chance=50 note=" + strings.Repeat("x", 201), "longer than 200"},
		{"check Jack chance=50 dice=101", "do not fit"},
		{"check Jack chance=50 dice=0", "not a die face"},
		{"check Jack chance=50 dice=30,40", "more dice"},
		{"check Jack chance=50 roll=0", "roll=0"},
		{"check Jack chance=50 dice=3 roll=3", "either dice="},
	} {
		t.Run(c.line, func(t *testing.T) { refuse(t, e, c.line, c.want) })
	}
	cmd, _ := engine.ParseCommand("odds check Jack chance=101")
	if _, err := e.Odds(cmd); err == nil || !strings.Contains(fray.ErrorMessage(err), "from 0 to 100") {
		t.Errorf("odds of a refused check: %v", err)
	}
}

// Physical dice: dice= gives the face, roll= the total, both d%.
func TestCheckPhysicalDice(t *testing.T) {
	e := newFight(t, "check Jack chance=30 roll=30\ncheck Jack chance=30 dice=31")
	log := e.Log()
	var got []vv.CheckData
	for _, ev := range log {
		if ev.Type == vv.EventChecked {
			var d vv.CheckData
			if err := ev.Decode(&d); err != nil {
				t.Fatal(err)
			}
			got = append(got, d)
		}
	}
	want := []vv.CheckData{
		{Who: idOf(e, "Jack"), Given: 30, Chance: 30, Roll: 30, Band: vv.CheckSuccess},
		{Who: idOf(e, "Jack"), Given: 30, Chance: 30, Roll: 31, Band: vv.CheckFailure},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("checks %+v, want %+v", got, want)
	}
}

// A condition's modifier on check rolls (on=check) adds to the chance in
// percent, and a once-only one is used up; a modifier on all rolls (a d20
// modifier in V&V) is left out.
func TestCheckConditions(t *testing.T) {
	e := newFight(t, `condition Jack alert mod=+15 on=check once=yes
condition Jack dazed mod=-2`)
	o := oddsOf(t, e, "check Jack chance=40 mod=-5")
	// 40 − 5 + 15 = 50: success on 1 to 50, 50 faces of 100.
	wantMods := []fray.Modifier{{Source: "the GM's chance (chance=)", Value: 40}, {Source: "the GM (mod=)", Value: -5}, {Source: "alert", Value: 15}}
	if o.Target != 50 || !reflect.DeepEqual(o.Modifiers, wantMods) || !near(o.P(vv.CheckSuccess), 0.5) || !near(o.P(vv.CheckFailure), 0.5) {
		t.Errorf("odds %+v", o)
	}
	run(t, e, "check Jack chance=40 mod=-5 dice=50")
	if d, _ := lastEvent[vv.CheckData](t, e, vv.EventChecked); d.Chance != 50 || d.Band != vv.CheckSuccess {
		t.Errorf("check %+v", d)
	}
	if st := e.State().(*vv.State); st.Find("Jack").Condition("alert") != nil || st.Find("Jack").Condition("dazed") == nil {
		t.Error("the once-only alert was not used up, or dazed was")
	}
	// alert used up: 40 − 5 = 35.
	if o := oddsOf(t, e, "check Jack chance=40 mod=-5"); o.Target != 35 || !near(o.P(vv.CheckSuccess), 0.35) {
		t.Errorf("odds after alert %+v", o)
	}
}

// The odds of check agree with enumerating the 100 faces of d%: through
// CheckRoll, and through the command itself with each face as dice=.
func TestCheckOddsBruteForce(t *testing.T) {
	for chance := -3; chance <= 103; chance++ {
		r := vv.CheckRoll{Chance: chance}
		wins := 0
		for face := 1; face <= 100; face++ {
			if r.Band(face) == vv.CheckSuccess {
				wins++
			}
		}
		// By hand: min(max(chance, 0), 100) faces of 100 succeed.
		if want := min(max(chance, 0), 100); wins != want || !near(r.Success(), float64(want)/100) {
			t.Errorf("chance %d: %d faces succeed, Success %v, want %d", chance, wins, r.Success(), want)
		}
	}
	e := newFight(t, "condition Jack keen mod=3 on=check")
	sys := vv.New()
	for _, line := range []string{"check Jack chance=0", "check Jack chance=37 mod=-4", "check Jack chance=100"} {
		o := oddsOf(t, e, line)
		wins := 0
		for face := 1; face <= 100; face++ {
			cmd, _ := engine.ParseCommand(line)
			evs, err := sys.Decide(e.State(), cmd, fixedRoller(face))
			if err != nil {
				t.Fatal(err)
			}
			var d vv.CheckData
			if err := evs[0].Decode(&d); err != nil {
				t.Fatal(err)
			}
			if d.Band == vv.CheckSuccess {
				wins++
			}
		}
		if !near(o.P(vv.CheckSuccess), float64(wins)/100) || !near(o.P(vv.CheckSuccess)+o.P(vv.CheckFailure), 1) {
			t.Errorf("%s: odds %+v, enumeration %d of 100", line, o.Bands, wins)
		}
	}
}

// fixedRoller rolls every expression as the one face given.
type fixedRoller int

func (f fixedRoller) Roll(forWhom, expr string) (fray.Roll, error) {
	return fray.Roll{For: forWhom, Expr: expr, Dice: []int{int(f)}, Total: int(f), Source: fray.RollFaces}, nil
}

// The odds of check agree with 100,000 seeded rolls of the same command
// within 5 standard errors.
func TestCheckOddsSeeded(t *testing.T) {
	e := newFight(t, "condition Jack keen mod=7 on=check")
	sys := vv.New()
	for _, line := range []string{"check Jack chance=45", "check Jack chance=12 mod=-2", "check Jack chance=93"} {
		cmd, _ := engine.ParseCommand(line)
		o, err := sys.Odds(e.State(), cmd)
		if err != nil {
			t.Fatal(err)
		}
		r := seededRoller{rand.New(rand.NewPCG(3, 4))}
		const n = 100000
		wins := 0
		for range n {
			evs, err := sys.Decide(e.State(), cmd, r)
			if err != nil {
				t.Fatal(err)
			}
			var d vv.CheckData
			if err := evs[0].Decode(&d); err != nil {
				t.Fatal(err)
			}
			if d.Band == vv.CheckSuccess {
				wins++
			}
		}
		p := o.P(vv.CheckSuccess)
		se := math.Sqrt(p * (1 - p) / n)
		if got := float64(wins) / n; math.Abs(got-p) > 5*se+1e-9 {
			t.Errorf("%s: %v of %d seeded rolls succeed, odds %v (5 SE = %v)", line, got, n, p, 5*se)
		}
	}
}

// BenchmarkCheck resolves one percentile roll with a condition's modifier,
// odds included.
func BenchmarkCheck(b *testing.B) {
	e := newFight(b, "condition Jack keen mod=7 on=check")
	cmd, _ := engine.ParseCommand("check Jack chance=45 mod=-5 note=\"Detect Danger\"")
	sys := vv.New()
	r := seededRoller{rand.New(rand.NewPCG(9, 9))}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sys.Decide(e.State(), cmd, r); err != nil {
			b.Fatal(err)
		}
	}
}

// facesRoller rolls each expression as the next of its faces (one die
// each), and the last face once they run out.
type facesRoller struct {
	faces []int
	i     *int
}

func (f facesRoller) Roll(forWhom, expr string) (fray.Roll, error) {
	x := f.faces[min(*f.i, len(f.faces)-1)]
	*f.i++
	return fray.Roll{For: forWhom, Expr: expr, Dice: []int{x}, Total: x, Source: fray.RollFaces}, nil
}

// V-8: an unaware defender gets a Perception roll to notice the attacker;
// attack … unaware noticed=PCT% rolls it in the attack, d% first. Noticed
// (d% ≤ PCT): a normal roll against the chance, and the target may roll
// with the punch; not noticed: a hit on anything but 20, and no rolling
// with it.
func TestV8_PerceptionRollInTheAttack(t *testing.T) {
	// Grue's Punch at Jack: skill 12 + Level 3 − Level 2 = 13. Jack has
	// 45 Power, so divert=4 (⌊45/10⌋ = 4) is allowed.
	const line = "attack Grue Jack with=Punch unaware noticed=40% divert=4 dice="
	for _, c := range []struct {
		dice            string
		noticed         bool
		band            string
		toPower, toHits int
	}{
		{"41,19,6", false, vv.BandHit, 0, 6},   // 41 > 40: not noticed; 19 hits; 6 damage, none rolled with
		{"40,19", true, vv.BandMiss, 0, 0},     // 40 ≤ 40: noticed; 19 > 13 misses
		{"1,13,6", true, vv.BandHit, 4, 2},     // noticed; 13 ≤ 13 hits; 6 damage, 4 rolled with
		{"100,20", false, vv.BandAstray, 0, 0}, // not noticed, but a 20 still misses
	} {
		t.Run(c.dice, func(t *testing.T) {
			e := newFight(t, line+c.dice)
			d := lastAttack(t, e)
			if d.Perception != 40 || d.Noticed != c.noticed || d.Defenceless == c.noticed || d.Band != c.band || d.ToPower != c.toPower || d.ToHits != c.toHits {
				t.Errorf("%+v", d)
			}
			if hp, pw := hitPoints(e, "Jack"), power(e, "Jack"); hp != 14-c.toHits || pw != 45-c.toPower {
				t.Errorf("Jack at %d Hit Points and %d Power, want %d and %d", hp, pw, 14-c.toHits, 45-c.toPower)
			}
		})
	}
	e := newFight(t, "")
	for _, c := range []struct{ line, want string }{
		{"attack Grue Jack with=Punch unaware noticed=101%", "from 0 to 100"},
		{"attack Grue Jack with=Punch unaware noticed=maybe", "say yes, no, or the chance"},
		{"attack Grue Jack with=Punch noticed=40%", "say unaware too"},
		{"attack Grue Jack with=Punch unaware noticed=40% dice=40,19,6", "more dice"},
		{"attack Grue Jack with=Punch unaware noticed=40% roll=30", "rolls more than once"},
	} {
		t.Run(c.line, func(t *testing.T) { refuse(t, e, c.line, c.want) })
	}
}

// The odds of an attack with the Perception roll in it agree with
// enumerating the 100 faces of the d%, the 20 of the d20 and the damage
// die: 40% × (hit on 1–13) + 60% × (hit on 1–19) = 0.4 × 0.65 + 0.6 ×
// 0.95 = 0.83; astray 0.05 either way.
func TestV8_PerceptionOddsBruteForce(t *testing.T) {
	e := newFight(t, "")
	sys := vv.New()
	line := "attack Grue Jack with=Punch unaware noticed=40% divert=4"
	o := oddsOf(t, e, line)
	if !near(o.P(vv.BandHit), 0.83) || !near(o.P(vv.BandAstray), 0.05) || !near(o.P(vv.BandMiss), 0.12) {
		t.Errorf("bands %+v, want hit 0.83, astray 0.05, miss 0.12", o.Bands)
	}
	cmd, _ := engine.ParseCommand(line)
	w := 1.0 / (100 * 20 * 6)
	bands := map[string]float64{}
	dmg := map[int]float64{}
	for pct := 1; pct <= 100; pct++ {
		for d20 := 1; d20 <= 20; d20++ {
			for d6 := 1; d6 <= 6; d6++ {
				i := 0
				evs, err := sys.Decide(e.State(), cmd, facesRoller{[]int{pct, d20, d6}, &i})
				if err != nil {
					t.Fatal(err)
				}
				var d vv.AttackData
				if err := evs[1].Decode(&d); err != nil {
					t.Fatal(err)
				}
				bands[d.Band] += w
				dmg[d.Damage] += w
			}
		}
	}
	for _, b := range o.Bands {
		if !near(b.P, bands[b.Name]) {
			t.Errorf("%s: odds %v, enumeration %v", b.Name, b.P, bands[b.Name])
		}
	}
	for _, p := range o.Dist {
		if !near(p.P, dmg[p.V]) {
			t.Errorf("damage %d: odds %v, enumeration %v", p.V, p.P, dmg[p.V])
		}
	}
}

// V-4: examples/vv-ambush.fray rolls the victims' Detect Danger before
// naming the surprised: at 30%, Jack's d% 22 ≤ 30 notices, Flicker's 71
// and Brick's 58 do not, and exactly those two are named with surprise.
func TestV4_DetectDangerInTheAmbush(t *testing.T) {
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	var failed []string
	for _, line := range splitLines(readExample(t, "vv-ambush")) {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		if cmd.Name == "surprise" {
			if !reflect.DeepEqual(cmd.Args, failed) {
				t.Errorf("surprise %v, but the failed Detect Danger rolls are %v", cmd.Args, failed)
			}
			break
		}
		evs, err := e.Do(cmd)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if cmd.Name == "check" {
			var d vv.CheckData
			if err := evs[0].Decode(&d); err != nil {
				t.Fatal(err)
			}
			if d.Chance != 30 || d.Note != "Detect Danger" {
				t.Errorf("%s: %+v", line, d)
			}
			if d.Band == vv.CheckFailure {
				failed = append(failed, e.State().(*vv.State).NameOf(d.Who))
			}
		}
	}
	if len(failed) != 2 {
		t.Errorf("failed: %v, want Flicker and Brick", failed)
	}
}
