package bpb_test

import (
	"testing"
)

// Issue 14, item 5 (B-12). The seed: "one experience point can improve an
// attribute or power by one rank … The GM should keep a close eye on any
// new powers the character gains"; "it may be easier to just give each
// player two experience points at the end of each story arc and be done
// with it"; and the two-player rule for roleplayed and clever is only
// "We suggest", so the GM may override it.
func TestB12_FlatAwardsOverrideAndNewPowers(t *testing.T) {
	e := seeded(t)
	for _, line := range []string{
		"award Blueshift flat",                   // 2, the seed's number
		"award Monolith flat points=5",           // the GM determines how many
		"award Blueshift roleplayed",             // +1
		"award Blueshift clever override=yes",    // +1, the same player, at the GM's word
		"award Monolith roleplayed override=yes", // +1, a second player
	} {
		doLine(t, e, line)
	}
	if b, m := combatant(e, "Blueshift").Tracks["experience"].Value, combatant(e, "Monolith").Tracks["experience"].Value; b != 4 || m != 6 {
		t.Errorf("experience: Blueshift %d, Monolith %d; want 4 (2+1+1) and 6 (5+1)", b, m)
	}
	for _, r := range []struct{ line, want string }{
		{"award Blueshift flat", "already has the flat award"},
		{"award Blueshift enthusiastic points=3", "points= goes with the flat award"},
		{"award Ganyeka flat", "not a player character"},
		{"award Blueshift roleplayed override=yes", "already has the roleplayed award"},
		{"spend Monolith 1 on=superspeed", "new=yes buys it at rank 1"},
		{"spend Monolith 1 on=flight", "new=yes buys a new power"},
		{"spend Monolith 1 on=punch new=yes", "already has Punch 10"},
		{"spend Monolith 1 on=prowess new=yes", "already has Prowess 8"},
		{"spend Monolith 1 on=prowess range=ranged", "range= goes with new=yes"},
		{"spend Monolith 1 on=superspeed new=yes range=ranged", "range= and damage= are a power's"},
		{"spend Monolith 1 on=endurance new=yes", "is a stat, not a power"},
		{"spend Monolith 1 on=expertise:flying new=yes", "Expertise is bought without new=yes"},
		{"spend Monolith 7 on=flight new=yes", "6 unspent experience points, not 7"},
	} {
		refused(t, e, r.line, r.want)
	}
	doLine(t, e, "spend Monolith 2 on=superspeed new=yes")
	doLine(t, e, `spend Monolith 3 on="Force Blast" new=yes range=ranged`)
	doLine(t, e, "spend Blueshift 4 on=Flight new=yes damage=stunning")
	m, b := combatant(e, "Monolith"), combatant(e, "Blueshift")
	if m.Stat("superspeed") != 2 || m.Tracks["experience"].Value != 1 {
		t.Errorf("Monolith: superspeed %d, experience %d; want 2 and 1", m.Stat("superspeed"), m.Tracks["experience"].Value)
	}
	if p := m.Power("force blast"); p == nil || p.Name != "Force Blast" || p.Rank != 3 || p.Range != "ranged" || p.Damage != "lethal" {
		t.Errorf("Monolith's new power: %+v, want Force Blast 3, ranged, lethal", p)
	}
	if p := b.Power("flight"); p == nil || p.Rank != 4 || p.Range != "close" || p.Damage != "stunning" || b.Tracks["experience"].Value != 0 {
		t.Errorf("Blueshift's new power: %+v (experience %d), want Flight 4, close, stunning, and 0 left", p, b.Tracks["experience"].Value)
	}
	// A new power is the sheet's like any: it attacks, and is raised
	// without new=yes.
	doLine(t, e, "award Monolith enthusiastic")
	doLine(t, e, `spend Monolith 1 on="force blast"`)
	m = combatant(e, "Monolith")
	if p := m.Power("force blast"); p == nil || p.Rank != 4 {
		t.Errorf("Force Blast raised: %+v, want rank 4", p)
	}
}
