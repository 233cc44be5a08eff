package vv_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/vv"
	"fray/sheet"
)

// fight is Grue (Level 3, 20 Hit Points, 30 Power) acting first on phase
// 30 and again on 15, Jack (Level 2, 14 Hit Points, 45 Power, 2 Basic
// Hits, protection 3 against Energy and 1 against Gas) on 11, and Mook
// (Level 1, 3 Hit Points, 20 Power, 1 Basic Hit) on 1.
const fightSetup = `add Grue agility=20 move=40 power=30 level=3 hits=2 hp=20 attack=Blast:1d10:energy:10:ranged,Punch:1d6:kinetic:12:close,Gas:1d6:gas:9:ranged,Hold:2d6:entropy:8:ranged protection=kinetic:2
add Jack side=pc agility=10 move=90 power=45 level=2 hits=2 hp=14 attack=Punch:1d4:kinetic:11:close protection=energy:3,gas:1
add Mook level=1 hits=1 hp=3 power=20
initiative Grue 10
initiative Jack 1
initiative Mook 1`

func newFight(t testing.TB, script string) *engine.Engine {
	t.Helper()
	return newFightWith(t, "", script)
}

// newFightWith runs pre before the start and script after it.
func newFightWith(t testing.TB, pre, script string) *engine.Engine {
	t.Helper()
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e, fightSetup)
	run(t, e, pre)
	run(t, e, "start")
	run(t, e, script)
	return e
}

func run(t testing.TB, e *engine.Engine, script string) {
	t.Helper()
	for _, line := range strings.Split(script, "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if cmd.Name == "" {
			continue
		}
		if _, err := e.Do(cmd); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
}

// refuse runs line, expects a *fray.Error containing want, and checks
// that nothing changed.
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

// lastAttack returns the payload of the last attack.
func lastAttack(t *testing.T, e *engine.Engine) vv.AttackData {
	t.Helper()
	log := e.Log()
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type == vv.EventAttacked {
			var d vv.AttackData
			if err := json.Unmarshal(log[i].Data, &d); err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	t.Fatal("no attack")
	return vv.AttackData{}
}

func hitPoints(e *engine.Engine, name string) int {
	hp, _ := e.State().(*vv.State).HitPoints(name)
	return hp
}

func power(e *engine.Engine, name string) int { return e.State().(*vv.State).Power(name) }

func oddsOf(t *testing.T, e *engine.Engine, line string) fray.Odds {
	t.Helper()
	cmd, err := engine.ParseCommand("odds " + line)
	if err != nil {
		t.Fatal(err)
	}
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func near(x, y float64) bool { return math.Abs(x-y) < 1e-12 }

// V-8: the chance is the skill score + the attacker's Level − the
// defender's Level + range, facing and the GM's modifiers; 1 always hits,
// 20 always misses; an immobile target is hit on anything but 20 with the
// attacker's modifiers, an unaware one that fails to notice on anything
// but 20.
func TestV8_ChanceToHit(t *testing.T) {
	tests := []struct {
		name, line string
		chance     int
		band       string
	}{
		// Blast 10 + Grue 3 − Jack 2 = 11.
		{"at the chance", "attack Grue Jack with=Blast dice=11,5", 11, vv.BandHit},
		{"over the chance", "attack Grue Jack with=Blast dice=12", 11, vv.BandMiss},
		// 11 − 30 = −19: only a 1 hits.
		{"a 1 always hits", "attack Grue Jack with=Blast mod=-30 dice=1,5", -19, vv.BandHit},
		// 11 + 30 = 41, yet a 20 misses.
		{"a 20 always misses", "attack Grue Jack with=Blast mod=+30 dice=20", 41, vv.BandAstray},
		// 10 + 3 − 0 = 13; 10 + 3 − 4 = 9.
		{"inanimate is Level 0", "attack Grue Jack with=Blast inanimate dice=13,5", 13, vv.BandHit},
		{"nonsentient is Level 4", "attack Grue Jack with=Blast nonsentient=yes dice=10", 9, vv.BandMiss},
		// Anything but 20: 19, then range 20" −2 = 17.
		{"immobile", "attack Grue Jack with=Blast immobile range=20 dice=17,5", 17, vv.BandHit},
		{"immobile, over", "attack Grue Jack with=Blast immobile range=20 dice=18", 17, vv.BandMiss},
		// Unaware and not noticed: a 19 hits even at 11 − 30.
		{"unaware hit on 19", "attack Grue Jack with=Blast unaware mod=-30 dice=19,5", -19, vv.BandHit},
		{"unaware astray on 20", "attack Grue Jack with=Blast unaware dice=20", 11, vv.BandAstray},
		{"unaware but noticed", "attack Grue Jack with=Blast unaware noticed=yes dice=12", 11, vv.BandMiss},
		// Mook at 0 Hit Points cannot defend: anything but 20, with no
		// skill or Levels.
		{"incapacitated target", "damage Mook 3\nattack Grue Mook with=Blast dice=19,5", 19, vv.BandHit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newFight(t, tt.line)
			d := lastAttack(t, e)
			if d.Chance != tt.chance || d.Band != tt.band {
				t.Errorf("chance %d, band %q; want %d, %q", d.Chance, d.Band, tt.chance, tt.band)
			}
		})
	}
}

// V-8: an attack is the attacker's action on their phase; a second action
// in the turn costs 2 Power (V-1).
func TestV8_AttackIsAnAction(t *testing.T) {
	e := newFight(t, "attack Grue Jack with=Blast dice=12")
	refuse(t, e, "attack Grue Jack with=Blast", "already acted on phase 30")
	run(t, e, "next")
	refuse(t, e, "attack Jack Grue with=Punch", "It is Grue's action on phase 15, not Jack's")
	run(t, e, "attack Grue Jack with=Blast dice=12")
	if p := power(e, "Grue"); p != 28 {
		t.Errorf("Grue has %d Power; want 30 − 2 = 28", p)
	}
	h := e.View().History
	if got := h[len(h)-1].Turns; !reflect.DeepEqual(got[:1], []string{"Grue (30)"}) {
		t.Errorf("history %v", got)
	}
}

// V-9: the range modifier, 0 up to 7", then −1 per doubling.
func TestV9_RangeDoubling(t *testing.T) {
	for _, tt := range []struct{ in, mod int }{
		{0, 0}, {7, 0}, {8, -1}, {15, -1}, {16, -2}, {31, -2}, {32, -3}, {63, -3}, {64, -4}, {100, -4},
		{127, -4}, {128, -5}, {1023, -7}, {1024, -8}, {4096, -10}, {8191, -10}, {8192, -11}, {16383, -11}, {16384, -12},
	} {
		if got := vv.RangeModifier(tt.in); got != tt.mod {
			t.Errorf("RangeModifier(%d) = %d, want %d", tt.in, got, tt.mod)
		}
	}
}

// V-9: the attacker's inches moved this phase before the attack add to
// the range; under the house rule the target's inches this turn do too.
func TestV9_MovementAddsToRange(t *testing.T) {
	tests := []struct {
		name, pre, script string
		rangeIn           int
		chance            int
	}{
		// 5" + 5" moved = 10": −1, chance 11 − 1 = 10.
		{"attacker moved", "", "move 5\nattack Grue Jack with=Blast range=5 dice=12", 10, 10},
		// Jack (phase 20) moves 10"; Grue (15): 5" + 10" = 15": −1.
		{"target moved (house)", "initiative Jack 10", "next\nmove 10\nnext\nattack Grue Jack with=Blast range=5 dice=12", 15, 10},
		{"target moved (raw)", "initiative Jack 10\nset moving=raw", "next\nmove 10\nnext\nattack Grue Jack with=Blast range=5 dice=12", 5, 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newFightWith(t, tt.pre, tt.script)
			if d := lastAttack(t, e); d.Range != tt.rangeIn || d.Chance != tt.chance {
				t.Errorf("range %d, chance %d; want %d, %d", d.Range, d.Chance, tt.rangeIn, tt.chance)
			}
		})
	}
}

// V-10: the defender's facing, +2 from the side, +4 from behind, above or
// below, the average between two facings; the attacker's side −2, no
// attacks to the rear.
func TestV10_Facing(t *testing.T) {
	for f, want := range map[string]int{"front": 0, "front-side": 1, "side": 2, "side-rear": 3, "rear": 4, "above": 4, "below": 4} {
		if got, ok := vv.DefenderFacing(f); !ok || got != want {
			t.Errorf("DefenderFacing(%s) = %d, want %d", f, got, want)
		}
	}
	for f, want := range map[string]int{"front": 0, "front-side": -1, "side": -2} {
		if got, ok := vv.AttackerFacing(f); !ok || got != want {
			t.Errorf("AttackerFacing(%s) = %d, want %d", f, got, want)
		}
	}
	// 11 − 2 (to Grue's side) + 2 (Jack's side) = 11.
	e := newFight(t, "attack Grue Jack with=Blast attacker-facing=side facing=side dice=11,1")
	if d := lastAttack(t, e); d.Chance != 11 || d.Band != vv.BandHit {
		t.Errorf("chance %d, band %s", d.Chance, d.Band)
	}
	e = newFight(t, "")
	refuse(t, e, "attack Grue Jack with=Blast attacker-facing=rear", "cannot attack to their rear")
	refuse(t, e, "attack Grue Jack with=Blast attacker-facing=side-rear", "cannot attack to their rear")
	refuse(t, e, "attack Grue Jack with=Blast facing=north", "facing=north is not allowed")
}

// V-10: 3/4 behind is between the side (+2) and the rear (+4): the
// average, +3 on the chance to be hit. The seed's "(in this case, -3)"
// gives the size; the sign is the defender's bonus to be hit.
func TestV10_ThreeQuartersBehindAveraged(t *testing.T) {
	e := newFight(t, "")
	o := oddsOf(t, e, "attack Grue Jack with=Blast facing=side-rear")
	// 10 + 3 − 2 + 3 = 14: 14 faces of 20 hit.
	if o.Target != 14 || !near(o.P(vv.BandHit), 14.0/20) {
		t.Errorf("odds %+v", o)
	}
	found := false
	for _, m := range o.Modifiers {
		found = found || (m.Source == "from the side-rear" && m.Value == 3)
	}
	if !found {
		t.Errorf("modifiers %v lack +3 from the side-rear", o.Modifiers)
	}
}

// V-11: a prone target beyond 2" needs a Special Attack, a second
// successful to-hit roll; within 2" or from directly above, a normal one.
func TestV11_ProneNeedsSpecialAttack(t *testing.T) {
	tests := []struct {
		name, line string
		special    bool
		band       string
		damage     int
	}{
		// Blast 5 − 3 protection = 2.
		{"both hit", "attack Grue Jack with=Blast range=5 dice=3,4,5", true, vv.BandHit, 2},
		{"second misses", "attack Grue Jack with=Blast range=5 dice=3,15", true, vv.BandMiss, 0},
		{"second astray", "attack Grue Jack with=Blast range=5 dice=3,20", true, vv.BandAstray, 0},
		{"within 2 inches", "attack Grue Jack with=Blast range=2 dice=3,5", false, vv.BandHit, 2},
		{"from above", "attack Grue Jack with=Blast range=10 facing=above dice=14,5", false, vv.BandHit, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newFight(t, "prone Jack\n"+tt.line)
			if d := lastAttack(t, e); d.Special != tt.special || d.Band != tt.band || d.Damage != tt.damage {
				t.Errorf("special %v, band %s, damage %d", d.Special, d.Band, d.Damage)
			}
		})
	}
	// Chance 11: both of two rolls hit (11/20)²; astray on a first 20, or
	// a first hit and a second 20: 1/20 + 11/400.
	o := oddsOf(t, newFight(t, "prone Jack"), "attack Grue Jack with=Blast range=5")
	if !near(o.P(vv.BandHit), 121.0/400) || !near(o.P(vv.BandAstray), 31.0/400) || !near(o.P(vv.BandMiss), 248.0/400) {
		t.Errorf("odds %+v", o.Bands)
	}
}

// V-11: after a hit the d% decides: at or under the cover's percentage the
// cover is hit, and damage beyond its protection reaches the target; a
// Special Attack aims past the cover.
func TestV11_Cover(t *testing.T) {
	tests := []struct {
		name, line string
		band       string
		damage     int
	}{
		// 9 − 2 cover − 3 protection = 4.
		{"on the cover", "attack Grue Jack with=Blast cover=40 cover-protection=2 dice=3,40,9", vv.BandOnCover, 4},
		// 9 − 3 protection = 6.
		{"past the cover", "attack Grue Jack with=Blast cover=40 cover-protection=2 dice=3,41,9", vv.BandHit, 6},
		{"special attack", "attack Grue Jack with=Blast cover=40 cover-protection=2 special dice=3,4,9", vv.BandHit, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newFight(t, tt.line)
			if d := lastAttack(t, e); d.Band != tt.band || d.Damage != tt.damage {
				t.Errorf("band %s, damage %d", d.Band, d.Damage)
			}
			if hp := hitPoints(e, "Jack"); hp != 14-tt.damage {
				t.Errorf("Jack has %d Hit Points, want %d", hp, 14-tt.damage)
			}
		})
	}
	// 11 faces in 20 hit; 40% of them on the cover.
	o := oddsOf(t, newFight(t, ""), "attack Grue Jack with=Blast cover=40 cover-protection=2")
	if !near(o.P(vv.BandOnCover), 11.0/20*0.4) || !near(o.P(vv.BandHit), 11.0/20*0.6) {
		t.Errorf("odds %+v", o.Bands)
	}
}

// V-12: protection against the type is subtracted, protection from every
// source adds up, and a non-damage power takes hold only at 1 or more.
func TestV12_Protection(t *testing.T) {
	tests := []struct {
		name, script string
		damage, hp   int
		affects      bool
	}{
		{"energy less 3", "attack Grue Jack with=Blast dice=1,10", 7, 7, false},
		// 3 + 4 from protect: 10 − 7 = 3.
		{"sources add up", "protect Jack energy 4\nattack Grue Jack with=Blast dice=1,10", 3, 11, false},
		{"no protection", "attack Grue Jack with=Punch dice=1,6 knockback=no", 6, 8, false},
		// Hold 1 + 1 = 2 − 0: takes hold, no Hit Points lost.
		{"effect takes hold", "attack Grue Jack with=Hold effect dice=1,1,1", 2, 14, true},
		// 2 + 2 = 4 − 5 ≤ 0: no effect.
		{"effect resisted", "protect Jack entropy 5\nattack Grue Jack with=Hold effect dice=1,2,2", 0, 14, false},
		{"damage command", "damage Jack 5 type=energy", 2, 12, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newFight(t, tt.script)
			if hp := hitPoints(e, "Jack"); hp != tt.hp {
				t.Errorf("Jack has %d Hit Points, want %d", hp, tt.hp)
			}
			if !strings.HasPrefix(tt.script, "damage") {
				if d := lastAttack(t, e); d.Damage != tt.damage || d.Affects != tt.affects {
					t.Errorf("damage %d, affects %v", d.Damage, d.Affects)
				}
			}
		})
	}
}

// V-12: any protection against Gas negates it completely.
func TestV12_GasProtectionNegates(t *testing.T) {
	// Gas 9 + 3 − 2 = 10; Jack has Gas protection 1: a 6 does nothing.
	e := newFight(t, "attack Grue Jack with=Gas dice=1,6")
	if d := lastAttack(t, e); d.Damage != 0 || hitPoints(e, "Jack") != 14 {
		t.Errorf("damage %d, Jack at %d", d.Damage, hitPoints(e, "Jack"))
	}
	o := oddsOf(t, newFight(t, ""), "attack Grue Jack with=Gas")
	if len(o.Dist) != 1 || o.Dist[0].V != 0 || !near(o.Dist[0].P, 1) {
		t.Errorf("damage distribution %v", o.Dist)
	}
	// Mook has none: the full 6 (and 3 Hit Points: incapacitated).
	e = newFight(t, "attack Grue Mook with=Gas dice=1,6")
	if d := lastAttack(t, e); d.Damage != 6 || hitPoints(e, "Mook") != -3 || !d.Incapacitated {
		t.Errorf("%+v", d)
	}
	// The GM's damage command follows the same rule.
	e = newFight(t, "damage Jack 8 type=gas")
	if hitPoints(e, "Jack") != 14 {
		t.Errorf("Jack at %d", hitPoints(e, "Jack"))
	}
}

// V-13: an aware victim rolls up to a tenth of their current Power
// (rounded down) of the damage into Power; house rule: close muscle-powered
// attacks and falls only; as written, any attack they are aware of.
func TestV13_RollingWithThePunch(t *testing.T) {
	// Punch 6, Jack Power 45: at most 4 to Power, 2 to Hit Points.
	e := newFight(t, "attack Grue Jack with=Punch divert=4 knockback=no dice=1,6")
	if d := lastAttack(t, e); d.ToPower != 4 || d.ToHits != 2 || hitPoints(e, "Jack") != 12 || power(e, "Jack") != 41 {
		t.Errorf("%+v; Jack %d Hit Points, %d Power", d, hitPoints(e, "Jack"), power(e, "Jack"))
	}
	e = newFight(t, "")
	refuse(t, e, "attack Grue Jack with=Punch divert=5", "at most 4")
	refuse(t, e, "attack Grue Jack with=Blast divert=1", "Only close, muscle-powered attacks")
	refuse(t, e, "attack Grue Jack with=Punch divert=1 unaware", "not aware")
	refuse(t, newFightWith(t, "surprise Jack", ""), "attack Grue Jack with=Punch divert=1", "taken by surprise")
	run(t, e, "set rolling=raw\nattack Grue Jack with=Blast divert=1 dice=1,10")
	if d := lastAttack(t, e); d.ToPower != 1 || d.ToHits != 6 {
		t.Errorf("%+v", d)
	}
	// A fall may be rolled with under the house rule: 10 kinetic, 4 to Power.
	e = newFight(t, "damage Jack 10 type=kinetic divert=4 falling=yes")
	if hitPoints(e, "Jack") != 8 || power(e, "Jack") != 41 {
		t.Errorf("Jack %d Hit Points, %d Power", hitPoints(e, "Jack"), power(e, "Jack"))
	}
}

// V-14: 1" of knockback per Hit Point of damage, less 1" per Basic Hit;
// Power damage counts too when the blow incapacitates.
func TestV14_Knockback(t *testing.T) {
	tests := []struct {
		name, line string
		knockback  int
	}{
		// 6 − 2 Basic Hits = 4".
		{"punch", "attack Grue Jack with=Punch dice=1,6", 4},
		// Mook: 6 damage, 2 rolled with, 4 Hit Points of 3: incapacitated,
		// so 4 + 2 − 1 Basic Hit = 5".
		{"incapacitating", "attack Grue Mook with=Punch divert=2 dice=1,6", 5},
		{"energy is no impact", "attack Grue Jack with=Blast dice=1,10", 0},
		{"a light blow", "attack Grue Jack with=Punch dice=1,2", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := lastAttack(t, newFight(t, tt.line)); d.Knockback != tt.knockback {
				t.Errorf("knockback %d, want %d (%+v)", d.Knockback, tt.knockback, d)
			}
		})
	}
}

// V-15: a pulled punch is declared with the attack and subtracted from the
// damage, possibly to nothing.
func TestV15_PulledPunch(t *testing.T) {
	if d := lastAttack(t, newFight(t, "attack Grue Jack with=Punch pull=2 dice=1,6")); d.Damage != 4 || d.Knockback != 2 {
		t.Errorf("%+v", d)
	}
	if d := lastAttack(t, newFight(t, "attack Grue Jack with=Punch pull=10 dice=1,6")); d.Damage != 0 {
		t.Errorf("%+v", d)
	}
}

// V-16: a 20 always misses and goes astray; the roll says so.
func TestV16_TwentyGoesAstray(t *testing.T) {
	e := newFight(t, "attack Grue Jack with=Blast mod=+50 dice=20")
	if d := lastAttack(t, e); d.Band != vv.BandAstray {
		t.Errorf("band %s", d.Band)
	}
	ev := e.Log()[len(e.Log())-1]
	if len(ev.Rolls) != 1 || !strings.Contains(ev.Rolls[0].For, "goes astray") || ev.Odds == nil || !near(ev.Odds.P(vv.BandAstray), 1.0/20) {
		t.Errorf("event %+v", ev)
	}
}

// Every refusal of the resolution commands is a clear error and changes
// nothing.
func TestResolutionRefusals(t *testing.T) {
	e := newFight(t, "add Plain agility=5")
	for _, tt := range []struct{ line, want string }{
		{"attack Grue Jack", "with=POWER"},
		{"attack Grue Jack with=Kick", `no power named "Kick"`},
		{"attack Grue Nobody with=Blast", `no combatant named "Nobody"`},
		{"attack Grue Plain with=Blast", "Plain has no Hit Points"},
		{"attack Grue Grue with=Blast", "cannot attack themselves"},
		{"attack Jack Grue with=Punch", "It is Grue's action"},
		{"attack Grue Jack with=Blast sideways", `"sideways" is not allowed`},
		{"attack Grue Jack with=Blast range=-1", "range=-1"},
		{"attack Grue Jack with=Blast noticed=yes", "say unaware too"},
		{"attack Grue Jack with=Blast cover-protection=2", "give cover=PCT too"},
		{"attack Grue Jack with=Blast inanimate nonsentient", "not both"},
		{"attack Grue Jack with=Punch divert=1 muscle=no", "Only close"},
		{"attack Grue Jack with=Blast dice=3", "do not fit"},
		{"damage Plain 3", "Plain has no Hit Points"},
		{"damage Jack 3 type=sonic", "type=sonic is not allowed; use one of biochemical"},
		{"heal Jack 3", "already has all 14"},
		{"protect Jack sonic 2", `protect TYPE: "sonic" is not allowed; use one of biochemical`},
		{"odds next", "none to show"},
		{"add Bad attack=Zap:1d:energy:5", "not damage dice"},
		{"add Bad protection=energy", "TYPE:N"},
	} {
		refuse(t, e, tt.line, tt.want)
	}
	run(t, e, "damage Jack 5\nheal Jack 9")
	if hitPoints(e, "Jack") != 14 {
		t.Errorf("Jack at %d, want 14 − 5 + 5 (no higher than the sheet's)", hitPoints(e, "Jack"))
	}
}

// combos enumerates the faces of the damage dice of a small expression:
// "1d6" or "2d6".
func combos(expr string) [][]int {
	n, _ := strconv.Atoi(expr[:1])
	s, _ := strconv.Atoi(expr[2:])
	out := [][]int{{}}
	for range n {
		var next [][]int
		for _, c := range out {
			for f := 1; f <= s; f++ {
				next = append(next, append(append([]int{}, c...), f))
			}
		}
		out = next
	}
	return out
}

// The attack's odds agree with enumerating every face of both d20s, the
// d% and the damage dice.
func TestAttackOddsBruteForce(t *testing.T) {
	for _, a := range []vv.Attack{
		{Hit: vv.HitRoll{Chance: 11}, Dice: "1d6", Protection: 2, HitPoints: 5, Knockback: true, BasicHits: 1, Divert: 2},
		{Hit: vv.HitRoll{Chance: 7}, Special: true, Dice: "2d6", Pull: 1, Protection: 3},
		{Hit: vv.HitRoll{Chance: 14}, Cover: 35, CoverProtection: 2, Dice: "2d6", Protection: 1},
		{Hit: vv.HitRoll{Chance: -3, Defenceless: true}, Dice: "1d6", Gas: true, Protection: 1},
		{Hit: vv.HitRoll{Chance: 25}, Dice: "1d6", Gas: true, Effect: true},
	} {
		o, err := a.Odds()
		if err != nil {
			t.Fatal(err)
		}
		firsts, seconds, pcts := []int{}, []int{0}, []int{0}
		for f := 1; f <= 20; f++ {
			firsts = append(firsts, f)
		}
		if a.Special {
			seconds = firsts
		}
		if a.Cover > 0 {
			pcts = nil
			for p := 1; p <= 100; p++ {
				pcts = append(pcts, p)
			}
		}
		dmg := combos(a.Dice)
		w := 1 / float64(len(firsts)*len(seconds)*len(pcts)*len(dmg))
		bands := map[string]float64{}
		dist := map[int]float64{}
		for _, f := range firsts {
			for _, s := range seconds {
				for _, p := range pcts {
					for _, d := range dmg {
						total := 0
						for _, x := range d {
							total += x
						}
						res := a.Settle(f, s, p, total)
						band := vv.BandHit
						switch {
						case res.Band == vv.HitAstray:
							band = vv.BandAstray
						case res.Band == vv.HitMiss:
							band = vv.BandMiss
						case res.OnCover:
							band = vv.BandOnCover
						}
						bands[band] += w
						dist[res.Damage] += w
					}
				}
			}
		}
		if !near(o.Astray, bands[vv.BandAstray]) || !near(o.Miss, bands[vv.BandMiss]) || !near(o.OnCover, bands[vv.BandOnCover]) || !near(o.Hit, bands[vv.BandHit]) {
			t.Errorf("%+v: odds %+v, enumeration %v", a, o, bands)
		}
		for v, p := range o.Damage {
			if !near(p, dist[v]) {
				t.Errorf("%+v: P(damage %d) = %v, enumeration %v", a, v, p, dist[v])
			}
		}
	}
}

// seededRoller rolls with a seeded source, as the engine does.
type seededRoller struct{ r *rand.Rand }

func (s seededRoller) Roll(forWhom, expr string) (fray.Roll, error) {
	return engine.RollSeeded(forWhom, expr, s.r)
}

// The odds of attack commands agree with 100,000 seeded rolls of the same
// command, band by band and damage by damage, within 5 standard errors.
func TestAttackOddsSeeded(t *testing.T) {
	for _, line := range []string{
		"attack Grue Jack with=Blast range=12 facing=side-rear",
		"attack Grue Jack with=Punch cover=30 cover-protection=1 pull=1 divert=2",
		"attack Grue Jack with=Hold range=5 mod=-2",
		"attack Grue Jack with=Punch unaware noticed=40% divert=4 cover=20",
	} {
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			script := ""
			if strings.Contains(line, "Hold") {
				script = "prone Jack"
			}
			e := newFight(t, script)
			st := e.State()
			cmd, _ := engine.ParseCommand(line)
			sys := vv.New()
			o, err := sys.Odds(st, cmd)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for _, b := range o.Bands {
				sum += b.P
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("bands sum to %v", sum)
			}
			r := seededRoller{rand.New(rand.NewPCG(9, 9))}
			const n = 100000
			bands := map[string]int{}
			dmg := map[int]int{}
			for range n {
				evs, err := sys.Decide(st, cmd, r)
				if err != nil {
					t.Fatal(err)
				}
				var d vv.AttackData
				if err := evs[1].Decode(&d); err != nil {
					t.Fatal(err)
				}
				bands[d.Band]++
				dmg[d.Damage]++
			}
			check := func(what string, count int, p float64) {
				t.Helper()
				se := math.Sqrt(p * (1 - p) / n)
				if got := float64(count) / n; math.Abs(got-p) > 5*se+1e-9 {
					t.Errorf("%s: %v of %d seeded rolls, odds %v (5 SE = %v)", what, got, n, p, 5*se)
				}
			}
			for _, b := range o.Bands {
				check(b.Name, bands[b.Name], b.P)
				delete(bands, b.Name)
			}
			if len(bands) > 0 {
				t.Errorf("rolled bands the odds do not list: %v", bands)
			}
			for _, p := range o.Dist {
				check("damage "+strconv.Itoa(p.V), dmg[p.V], p.P)
				delete(dmg, p.V)
			}
			if len(dmg) > 0 {
				t.Errorf("rolled damage the odds do not list: %v", dmg)
			}
		})
	}
}

// odds attack … lists every modifier and changes nothing; the attack's
// event records the odds.
func TestAttackOddsCommand(t *testing.T) {
	e := newFight(t, "move 4")
	before := e.State().Clone()
	n := len(e.Log())
	o := oddsOf(t, e, "attack Grue Jack with=Blast range=10 facing=side attacker-facing=front-side mod=-1")
	// 10 skill + 3 − 2 + 2 side − 1 range 14" − 1 to the front-side − 1 GM = 10.
	want := []fray.Modifier{
		{Source: "energy skill", Value: 10}, {Source: "Grue's Level", Value: 3}, {Source: "Jack's Level", Value: -2},
		{Source: "from the side", Value: 2}, {Source: "range 14\" (10\" +4\" Grue moved)", Value: -1},
		{Source: "to Grue's front-side", Value: -1}, {Source: "the GM (mod=)", Value: -1},
	}
	if o.Target != 10 || !reflect.DeepEqual(o.Modifiers, want) {
		t.Errorf("odds %+v", o)
	}
	if len(e.Log()) != n || !reflect.DeepEqual(before, e.State()) {
		t.Error("odds changed the encounter")
	}
	run(t, e, "attack Grue Jack with=Blast range=10 facing=side attacker-facing=front-side mod=-1 dice=4,4")
	ev := e.Log()[len(e.Log())-1]
	if ev.Type != vv.EventAttacked || ev.Odds == nil || ev.Odds.Target != 10 || len(ev.Rolls) != 2 {
		t.Errorf("event %+v", ev)
	}
}

// Resolution keeps working for combatants from sheets (engine.Join): skill
// scores as skills, Move Rate as moverate, Power as a track.
func TestSheetCombatants(t *testing.T) {
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	_, err := e.Join([]fray.Combatant{
		{Name: "Blaze", Stats: map[string]int{"agility": 14, "level": 4, "moverate": 40, "basichits": 2},
			Tracks: map[string]fray.Track{"hit points": {Value: 12, Max: 12}, "power": {Value: 40, Max: 53}},
			Powers: []fray.Power{{Name: "Flame Blast", Range: "ranged", Damage: "energy", Dice: "1d10", Skill: "Energy"},
				{Name: "Energy", Kind: fray.PowerKindSkill, Rank: 9}}},
		{Name: "Jack", Side: fray.SidePC, Stats: map[string]int{"agility": 9, "level": 3, "moverate": 90, "basichits": 2},
			Tracks: map[string]fray.Track{"hit points": {Value: 14, Max: 14}, "power": {Value: 48, Max: 48}}, Protection: map[string]int{"energy": 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Blaze 10 + 14 = 24: phases 24, 9 (20" per action); Jack 1 + 9 = 10.
	run(t, e, "initiative Blaze 10\ninitiative Jack 1\nstart\nmove 20\nattack Blaze Jack with=\"Flame Blast\" dice=3,8")
	// 9 + 4 − 3 = 10, range 20" moved: −2: 8. 8 − 2 protection = 6.
	if d := lastAttack(t, e); d.Chance != 8 || d.Damage != 6 || hitPoints(e, "Jack") != 8 {
		t.Errorf("%+v", d)
	}
	run(t, e, "next\nnext\nattack Blaze Jack with=\"Flame Blast\" dice=20")
	if p := power(e, "Blaze"); p != 38 {
		t.Errorf("Blaze has %d Power, want 40 − 2 = 38", p)
	}
	// A sheet's quality makes a target nonsentient (Level 4).
	e = engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	if _, err := e.Join([]fray.Combatant{
		{Name: "Ann", Stats: map[string]int{"agility": 10, "level": 2}, Tracks: map[string]fray.Track{"hit points": {Value: 9, Max: 9}},
			Powers: []fray.Power{{Name: "Zap", Damage: "energy", Dice: "1d6", Skill: "Energy"}, {Name: "Energy", Kind: fray.PowerKindSkill, Rank: 10}}},
		{Name: "Robot", Stats: map[string]int{"agility": 1, "level": 9}, Tracks: map[string]fray.Track{"hit points": {Value: 20, Max: 20}},
			Qualities: map[string]int{"Nonsentient": 1}},
	}); err != nil {
		t.Fatal(err)
	}
	run(t, e, "initiative Ann 5\ninitiative Robot 1\nstart")
	// 10 + 2 − 4 (not the Robot's Level 9) = 8.
	if o := oddsOf(t, e, "attack Ann Robot with=Zap"); o.Target != 8 {
		t.Errorf("odds %+v", o)
	}
}

// BenchmarkAttack resolves one attack with every modifier, odds included
// (goal: under 20 µs).
func BenchmarkAttack(b *testing.B) {
	e := newFight(b, "move 4\nprotect Jack kinetic 1\ncondition Grue keen mod=1 on=attack")
	st := e.State()
	cmd, _ := engine.ParseCommand("attack Grue Jack with=Punch range=9 facing=side-rear attacker-facing=front-side mod=1 pull=1 cover=30 cover-protection=1 divert=2")
	sys := vv.New()
	r := seededRoller{rand.New(rand.NewPCG(9, 9))}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sys.Decide(st, cmd, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFight runs a 10-combatant, 10-turn fight in which everyone
// attacks on every action phase (goal: under 5 ms).
func BenchmarkFight(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
		for i := range 10 {
			n := "C" + string(rune('A'+i))
			if _, err := e.Do(fray.Command{Name: "add", Args: []string{n}, Opts: map[string]string{
				"agility": strconv.Itoa(10 + i), "move": "30", "power": "1000", "level": "2", "hits": "2", "hp": "5000",
				"attack": "Punch:1d6:kinetic:12:close", "protection": "kinetic:1"}}); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := e.Do(fray.Command{Name: "start"}); err != nil {
			b.Fatal(err)
		}
		for e.State().(*vv.State).Round <= 10 {
			cur := e.State().(*vv.State).Current()
			target := "CA"
			if cur == target {
				target = "CB"
			}
			if _, err := e.Do(fray.Command{Name: "attack", Args: []string{cur, target}, Opts: map[string]string{"with": "Punch", "range": "1"}}); err != nil {
				b.Fatal(err)
			}
			if _, err := e.Do(fray.Command{Name: "next"}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// examples/vv-resolution.fray with the sheets examples/vv-party.yaml and
// vv-foes.yaml ends with the Hit Points and Power worked out by hand, and
// refuses only its two refusals (a Flame Blast rolled with under the
// house rule, an attack to the rear).
func TestResolutionExample(t *testing.T) {
	e := engine.New(vv.New(), rand.New(rand.NewPCG(1, 2)))
	for _, f := range []struct{ file, side string }{{"vv-party.yaml", fray.SidePC}, {"vv-foes.yaml", fray.SideNPC}} {
		cs, err := sheet.Load(filepath.Join("..", "..", "examples", f.file), vv.New(), f.side)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Join(cs); err != nil {
			t.Fatal(err)
		}
	}
	refused := 0
	for _, line := range splitLines(readExample(t, "vv-resolution")) {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		switch cmd.Name {
		case "show", "history":
			continue
		}
		if _, err := e.Do(cmd); err != nil {
			refused++
			t.Logf("%s: %v", line, err)
		}
	}
	if refused != 2 {
		t.Errorf("%d refusals, want 2", refused)
	}
	for _, tt := range []struct {
		name      string
		hp, power int
	}{
		// 14 − 1 (6 from the claws, 5 rolled with) − 7 (the Flame Blast);
		// Power 12 + 14 + 19 + 13 = 58 − 5 − 2 (second action) − 2 (prone
		// off his phase).
		{"Jack B. Nimble", 6, 49},
		// 30 − 8 (10 − 2 energy protection); Power 20 + 18 + 10 + 9 = 57.
		{"Brick", 22, 57},
		// 12 − 3 past the desk; 40 − 2 (second action) − 3 spent.
		{"Doctor Blaze", 9, 35},
		// 24 − 3 − 10 + 5 healed; 18 + 15 + 12 + 8 = 53 − 2.
		{"Grue", 16, 51},
	} {
		if hp, pw := hitPoints(e, tt.name), power(e, tt.name); hp != tt.hp || pw != tt.power {
			t.Errorf("%s: %d Hit Points, %d Power; want %d, %d", tt.name, hp, pw, tt.hp, tt.power)
		}
	}
}

// Conditions (E-4) add their modifiers to the chance and are listed in
// the odds; a once-only one is used up by the attack; one anchored to the
// end of a character's turn ends when their action phase does, and
// protect's protection lasts as long as it is told.
func TestConditionsOnAttacks(t *testing.T) {
	e := newFight(t, "condition Grue keen mod=2 on=attack until=end\ncondition Jack exposed mod=3 on=attacked once=yes\nprotect Jack energy 4 until=end:Jack")
	o := oddsOf(t, e, "attack Grue Jack with=Blast")
	// 11 + 2 keen + 3 exposed = 16.
	if o.Target != 16 {
		t.Errorf("odds %+v", o)
	}
	// 10 − (3 + 4) = 3.
	run(t, e, "attack Grue Jack with=Blast dice=16,10")
	if d := lastAttack(t, e); d.Band != vv.BandHit || d.Damage != 3 {
		t.Errorf("%+v", d)
	}
	st := e.State().(*vv.State)
	if st.Find("Jack").Condition("exposed") != nil || st.Find("Grue").Condition("keen") == nil {
		t.Error("exposed is not used up, or keen ended early")
	}
	run(t, e, "next")
	st = e.State().(*vv.State)
	if st.Find("Grue").Condition("keen") != nil || st.Find("Jack").Condition("protection vs energy") == nil {
		t.Error("keen did not end with Grue's phase, or the protection ended early")
	}
	// Grue's phase 15, then Jack's 11: his protection ends with it.
	run(t, e, "next\nnext")
	if e.State().(*vv.State).Find("Jack").Condition("protection vs energy") != nil {
		t.Error("the protection did not end with Jack's phase")
	}
}

// V-12: "Protection is cumulative, so add up your total Protection vs.
// each Damage Type from each power that grants you Protection. For
// example, a character who has one power that gives him 3 Protection vs.
// Energy and another power that gives him 5 points of Protection vs.
// Energy has a total of 8 Protection vs. Energy." Jack's sheet gives 3
// against Energy; protect adds 4, then 2 more: 9, and each source is a
// condition of its own, cleared on its own.
func TestV12_ProtectionIsCumulative(t *testing.T) {
	e := newFight(t, "protect Jack energy 4\nprotect Jack energy 2 until=end")
	jack := e.State().(*vv.State).Find("Jack")
	var names []string
	for _, c := range jack.Conditions {
		names = append(names, c.Name)
	}
	if want := []string{"protection vs energy", "protection vs energy 2"}; !slices.Equal(names, want) {
		t.Errorf("conditions %q, want %q", names, want)
	}
	run(t, e, "attack Grue Jack with=Blast range=5 dice=3,10")
	// 10 − (3 + 4 + 2) = 1.
	if d := lastAttack(t, e); d.Protection != 9 || d.Damage != 1 {
		t.Errorf("protection %d, damage %d; want 9 and 1", d.Protection, d.Damage)
	}
	run(t, e, "clear Jack \"protection vs energy\"\nnext\ndamage Jack 10 type=energy")
	// The 2 lasts to the end of Jack's turn; 10 − (3 + 2) = 5.
	var d vv.DamageData
	log := e.Log()
	if err := json.Unmarshal(log[len(log)-1].Data, &d); err != nil {
		t.Fatal(err)
	}
	if d.Protection != 5 || d.Damage != 5 {
		t.Errorf("after clearing the 4: protection %d, damage %d; want 5 and 5", d.Protection, d.Damage)
	}
}
