package vv_test

import (
	"fmt"
	"math/big"
	"strconv"
	"testing"

	"fray/rules/vv"
)

// hitCount counts, over every face of the d20 (of both d20s when twice:
// a Special Attack, whose second die is rolled on a hit and must hit
// too), the outcomes of a roll to hit at chance: a 20 goes astray, a 1
// or a face at or under the chance hits, as does anything but a 20
// against a defenceless target (V-8, V-11, V-16). It reads the rules
// afresh, not vv's Band or Needed.
func hitCount(chance int, defenceless, twice bool) (hit, miss, astray, all int64) {
	one := func(face int) string {
		switch {
		case face == 20:
			return "astray"
		case face == 1 || face <= chance || defenceless:
			return "hit"
		}
		return "miss"
	}
	seconds := 1
	if twice {
		seconds = 20
	}
	for f := 1; f <= 20; f++ {
		for s := 1; s <= seconds; s++ {
			b := one(f)
			if b == "hit" && twice {
				b = one(s)
			}
			switch b {
			case "hit":
				hit++
			case "miss":
				miss++
			default:
				astray++
			}
			all++
		}
	}
	return hit, miss, astray, all
}

// exact is the float64 nearest n/all.
func exact(n, all int64) float64 {
	f, _ := new(big.Rat).SetFrac64(n, all).Float64()
	return f
}

// TestHitOddsOracle checks the one odds path of a roll to hit (the
// named roll's HitRoll.Odds and an attack's Attack.Odds, alone and as a
// Special Attack) against counting the faces: each band is the nearest
// float64 to its exact fraction, for every chance a 1 and a 20 leave
// apart and past them on either side.
func TestHitOddsOracle(t *testing.T) {
	for chance := -3; chance <= 25; chance++ {
		for _, defenceless := range []bool{false, true} {
			h := vv.HitRoll{Chance: chance, Defenceless: defenceless}
			for _, twice := range []bool{false, true} {
				hit, miss, astray, all := hitCount(chance, defenceless, twice)
				want := [3]float64{exact(hit, all), exact(miss, all), exact(astray, all)}
				a, err := vv.Attack{Hit: h, Special: twice, Dice: "1d6"}.Odds()
				if err != nil {
					t.Fatal(err)
				}
				if got := [3]float64{a.Hit, a.Miss, a.Astray}; got != want {
					t.Errorf("%+v special %v: attack hit, miss, astray %v, want %v (of %d: %d, %d, %d)", h, twice, got, want, all, hit, miss, astray)
				}
				if twice {
					continue
				}
				o := h.Odds()
				if got := [3]float64{o.P(vv.HitHit), o.P(vv.HitMiss), o.P(vv.HitAstray)}; got != want || len(o.Bands) != 3 {
					t.Errorf("%+v: to-hit bands %+v, want hit, miss, astray %v", h, o.Bands, want)
				}
			}
		}
	}
}

// TestAttackOddsOnePath checks that an attack's odds are the same
// numbers to the last bit wherever they are asked for: what odds attack
// shows, what the attack's event records, and the named roll at the same
// chance, for every chance from below 1 to above 20, against an aware
// and an unaware target.
func TestAttackOddsOnePath(t *testing.T) {
	named := vv.New().NamedRoll()
	for mod := -24; mod <= 12; mod++ {
		for _, flag := range []string{"", " unaware"} {
			// Blast 10 + Grue's Level 3 − Jack's 2 = 11, and the GM's mod=.
			line := fmt.Sprintf("attack Grue Jack with=Blast mod=%d%s", mod, flag)
			e := newFight(t, "")
			o := oddsOf(t, e, line)
			words := []string{"chance=" + strconv.Itoa(11+mod)}
			if flag != "" {
				words = append(words, "defenceless=yes")
			}
			objs, _, err := named.Odds("vv", words)
			if err != nil {
				t.Fatalf("%v: %v", words, err)
			}
			n := objs[0].(*vv.HitOdds)
			want := map[string]float64{vv.BandHit: n.P(vv.HitHit), vv.BandMiss: n.P(vv.HitMiss), vv.BandAstray: n.P(vv.HitAstray)}
			if o.Target != 11+mod || len(o.Bands) != 3 {
				t.Errorf("%s: chance %d, bands %+v", line, o.Target, o.Bands)
				continue
			}
			for _, b := range o.Bands {
				if b.P != want[b.Name] {
					t.Errorf("%s: P(%s) %v, the named roll's %v", line, b.Name, b.P, want[b.Name])
				}
			}
			run(t, e, line+" dice=20")
			ev := e.Log()[len(e.Log())-1]
			if ev.Type != vv.EventAttacked || ev.Odds == nil {
				t.Fatalf("%s: event %+v", line, ev)
			}
			for i, b := range ev.Odds.Bands {
				if b.Name != o.Bands[i].Name || b.P != o.Bands[i].P {
					t.Errorf("%s: the event records %+v, odds attack shows %+v", line, b, o.Bands[i])
				}
			}
			if ev.Odds.Mean != o.Mean || len(ev.Odds.Dist) != len(o.Dist) {
				t.Errorf("%s: the event records mean %v over %d values, odds attack %v over %d", line, ev.Odds.Mean, len(ev.Odds.Dist), o.Mean, len(o.Dist))
			}
		}
	}
}
