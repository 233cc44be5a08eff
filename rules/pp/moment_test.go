package pp_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/engine"
	"fray/rules/pp"
	"fray/rules/rulestest"
)

// sheets is a cast with powers and talents on their sheets. Edge: Whisper
// 10, Gate 9, Vile 8, so Whisper's turn comes first.
func sheets(t *testing.T) *engine.Engine {
	t.Helper()
	e := engine.New(pp.New(), rand.New(rand.NewPCG(3, 4)))
	_, err := e.Join([]fray.Combatant{
		{Name: "Gate", Side: fray.SidePC,
			Stats: map[string]int{"might": 12, "toughness": 8, "agility": 4, "perception": 5, "intellect": 2, "willpower": 5, "resolve": 3},
			Powers: []fray.Power{
				{Name: "Super Strength", Kind: fray.PowerKindPower, Rank: 15},
				{Name: "Leap", Rank: 6}, // the kind left out is a power
				{Name: "Hammer", Kind: fray.PowerKindWeapon, Rank: 3},
				{Name: "Might", Kind: fray.PowerKindPower, Rank: 20},
			}},
		{Name: "Whisper", Side: fray.SidePC,
			Stats: map[string]int{"agility": 5, "intellect": 4, "perception": 5, "might": 2, "toughness": 3, "willpower": 4, "resolve": 1},
			Powers: []fray.Power{
				{Name: "Stealth", Kind: fray.PowerKindTalent, Rank: 7},
				{Name: "Shadow Step", Kind: fray.PowerKindPower, Rank: 9},
				{Name: "Lore", Kind: fray.PowerKindSkill, Rank: 4},
			}},
		{Name: "Vile", Side: fray.SideNPC,
			Stats:  map[string]int{"perception": 3, "agility": 2, "intellect": 5, "might": 3, "toughness": 3, "willpower": 6, "health": 4},
			Powers: []fray.Power{{Name: "Force Field", Kind: fray.PowerKindPower, Rank: 8}, {Name: "Leap", Rank: 4}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// rolledTraits returns the traits and the dice of every pool of the last
// roll in e's log, in the order of its sides.
func rolledTraits(t *testing.T, e *engine.Engine) (traits []string, dice []int) {
	t.Helper()
	log := e.Log()
	ev := log[len(log)-1]
	switch ev.Type {
	case pp.EventChecked:
		var d pp.CheckData
		last(t, e, ev.Type, &d)
		if d.Static {
			return []string{d.Trait}, []int{d.Pool.Dice}
		}
		return []string{d.Trait, d.OppTrait}, []int{d.Pool.Dice, d.OppPool.Dice}
	case pp.EventAssisted:
		var d pp.AssistData
		last(t, e, ev.Type, &d)
		return []string{d.Trait}, []int{d.Pool.Dice}
	case pp.EventGrouped:
		var d pp.GroupData
		last(t, e, ev.Type, &d)
		for _, p := range d.Pools {
			traits, dice = append(traits, d.Trait), append(dice, p.Dice)
		}
		return traits, dice
	case pp.EventExchanged:
		var d pp.ExchangeData
		last(t, e, ev.Type, &d)
		c := st(e).Res.Contest
		return []string{c.TraitA, c.TraitB}, []int{d.PoolA.Dice, d.PoolB.Dice}
	}
	t.Fatalf("the last event is a %s, not a roll", ev.Type)
	return nil, nil
}

// Issue 14, item 16. The seed: "Roll a number of 6-sided dice equal to
// the Trait that applies to the action attempted"; SPEC 1.4: the traits
// are the six abilities and "powers and talents with ranks". A power or
// talent on the sheet is a trait wherever one is rolled, with its rank in
// dice; an ability's name wins over a power of the same name; weapons and
// skills are not traits.
func TestP1_PowersAndTalentsAreTraits(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		traits       []string
		dice         []int
	}{
		{"a power, static", `check Gate "Super Strength" threshold=hard successes=3`, []string{"Super Strength"}, []int{15}},
		{"a talent", "check Whisper stealth threshold=hard successes=3", []string{"Stealth"}, []int{7}},
		{"a power of no kind", "check Gate leap threshold=easy successes=1", []string{"Leap"}, []int{6}},
		{"an ability wins over a power of its name", "check Gate might threshold=hard successes=2", []string{"might"}, []int{12}},
		{"the opponent's power", `check Gate might vs=Vile "force field" successes=2 vs_successes=1`, []string{"might", "Force Field"}, []int{12, 8}},
		{"attack with= and def=", "start\nattack Whisper Vile with=\"Shadow Step\" def=\"Force Field\" successes=3 vs_successes=1", []string{"Shadow Step", "Force Field"}, []int{9, 8}},
		{"the defence stays the best ability", "start\nattack Whisper Vile with=\"Shadow Step\" successes=3 vs_successes=1", []string{"Shadow Step", "might"}, []int{9, 3}},
		{"an assist", "assist Whisper stealth for=Gate successes=4", []string{"Stealth"}, []int{7}},
		{"a group action", "group leap Gate Vile threshold=hard successes=3,1", []string{"Leap", "Leap"}, []int{6, 4}},
		{"a contest", "contest Gate Whisper leap stealth successes=2 vs_successes=1", []string{"leap", "stealth"}, []int{6, 7}},
		{"a contest's next exchange", "contest Gate Whisper leap stealth successes=2 vs_successes=1\nexchange successes=1 vs_successes=1", []string{"leap", "stealth"}, []int{8, 7}},
		{"a defining moment on a power", "defining Gate reduce=might\ncheck Gate \"super strength\" threshold=brutal successes=5", []string{"Super Strength"}, []int{15}},
		{"a power takes the kind the moment says", "defining Whisper reduce=intellect\ncheck Whisper stealth threshold=brutal successes=5", []string{"Stealth"}, []int{7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := sheets(t)
			do(t, e, tc.script)
			traits, dice := rolledTraits(t, e)
			if diff := cmp.Diff(tc.traits, traits); diff != "" {
				t.Errorf("traits (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.dice, dice); diff != "" {
				t.Errorf("dice (-want +got):\n%s", diff)
			}
		})
	}
	for _, tc := range []struct{ name, line, want string }{
		{"a weapon", "check Gate hammer threshold=hard", "Hammer is a weapon, not a trait"},
		{"a skill", "check Whisper lore threshold=hard", "Lore is a skill, not a trait"},
		{"not on the sheet", "check Whisper flight threshold=hard", `"flight" is not a trait of Whisper`},
		{"the opponent's sheet", "check Whisper stealth vs=Vile", `"Stealth" is not a trait of Vile`},
		{"a group member without it", "group stealth Whisper Gate threshold=hard", `"stealth" is not a trait of Gate`},
	} {
		t.Run(tc.name, func(t *testing.T) { refuse(t, sheets(t), tc.line, tc.want) })
	}
}

// momentIn reports whether the last roll in e's log was a defining moment
// for who, and the cost it paid.
func momentIn(t *testing.T, e *engine.Engine, who string) (bool, string) {
	t.Helper()
	id := idOf(e, who)
	log := e.Log()
	switch ev := log[len(log)-1]; ev.Type {
	case pp.EventChecked:
		var d pp.CheckData
		last(t, e, ev.Type, &d)
		switch id {
		case d.Actor:
			return d.Pool.DefiningMoment, d.Cost
		case d.Opponent:
			return d.OppPool.DefiningMoment, d.OppCost
		}
	case pp.EventSides:
		var d pp.SidesData
		last(t, e, ev.Type, &d)
		for _, x := range d.Sides {
			if x.Who == id {
				return x.Pool.DefiningMoment, x.Cost
			}
		}
	case pp.EventAssisted:
		var d pp.AssistData
		last(t, e, ev.Type, &d)
		if d.Helper == id {
			return d.Pool.DefiningMoment, d.Cost
		}
	case pp.EventGrouped:
		var d pp.GroupData
		last(t, e, ev.Type, &d)
		for i, m := range d.Who {
			if m == id && i < len(d.Costs) {
				return d.Pools[i].DefiningMoment, d.Costs[i]
			}
			if m == id {
				return d.Pools[i].DefiningMoment, ""
			}
		}
	case pp.EventExchanged:
		var d pp.ExchangeData
		last(t, e, ev.Type, &d)
		c := st(e).Res.Contest
		if c.A == "" {
			c = st(e).Res.Before
		}
		switch id {
		case c.A:
			return d.PoolA.DefiningMoment, d.CostA
		case c.B:
			return d.PoolB.DefiningMoment, d.CostB
		}
	default:
		t.Fatalf("the last event is a %s, not a roll", ev.Type)
	}
	t.Fatalf("%s did not roll in the last roll", who)
	return false, ""
}

// Issue 14, item 17. The seed: a declared defining moment's 6s explode and
// "every point of Resolve you spend on that challenge roll" buys 3 dice;
// a helper "makes their own challenge roll", a group's members each "make
// their own challenge roll", an opponent makes "a challenge roll to resist
// your efforts", and each exchange "requires its own challenge roll". So
// the moment is the hero's very next challenge roll of whatever kind: it
// lands there, is paid there, and the roll after it is an ordinary one.
func TestP9_DefiningMomentCoversAnyChallengeRoll(t *testing.T) {
	// Whisper: agility 5, intellect 4, might 2, Health 4. Vile's turn
	// is the third (Citizen Soldier and Whisper at Edge 10, Vile 8).
	for _, tc := range []struct {
		name, script string
		trait        string // the ability the moment costs; "" one-shot
		left         int    // that ability afterwards, or Health left
	}{
		{"resisting a check", "defining Whisper reduce=agility\ncheck Vile agility vs=Whisper successes=1 vs_successes=2", "agility", 4},
		{"resisting an attack", "start\nnext\nnext\ndefining Whisper reduce=agility\nattack Vile Whisper with=intellect successes=1 vs_successes=2", "agility", 4},
		{"an assist", "defining Whisper reduce=intellect\nassist Whisper intellect for=Gatecrasher successes=4", "intellect", 3},
		{"a group action", "defining Whisper reduce=agility\ngroup agility Gatecrasher Whisper threshold=hard successes=2,3", "agility", 4},
		{"a contest's exchange", "defining Whisper reduce=agility\ncontest Gatecrasher Whisper agility successes=2 vs_successes=3", "agility", 4},
		{"a later exchange", "contest Gatecrasher Whisper agility successes=2 vs_successes=3\ndefining Whisper reduce=agility\nexchange successes=2 vs_successes=3", "agility", 4},
		{"third in a same-goal roll", `defining Whisper reduce=might
check Gatecrasher might vs="Whisper,Citizen Soldier" same=yes successes=5 vs_successes=0,4`, "might", 1},
		{"the opponent in a same-goal roll of three", `defining Whisper reduce=might
check Gatecrasher might vs="Whisper,Citizen Soldier" same=yes successes=5 vs_successes=4,0`, "might", 1},
		{"the caller beaten in a same-goal roll", `defining Whisper reduce=might
check Whisper might vs="Gatecrasher,Citizen Soldier" same=yes successes=0 vs_successes=5,4`, "might", 1},
		{"one-shot, resisting", "set defining=either\ndefining Whisper oneshot\ncheck Vile perception vs=Whisper successes=1 vs_successes=2", "", 0},
		{"one-shot, helping", "set defining=oneshot\ndefining Whisper\nassist Whisper agility for=Gatecrasher successes=3", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newPP(t, tc.script)
			on, cost := momentIn(t, e, "Whisper")
			want := tc.trait
			if want == "" {
				want = pp.KeyOneShot
			}
			if !on || cost != want {
				t.Errorf("Whisper's roll: defining moment %v, cost %q; want true, %q", on, cost, want)
			}
			got := st(e).HealthLeft("Whisper")
			if tc.trait != "" {
				got = st(e).Find("Whisper").Stat(tc.trait)
			}
			if got != tc.left {
				t.Errorf("after the moment: %d, want %d", got, tc.left)
			}
			if st(e).Res.Contest.Active {
				do(t, e, "exchange successes=1 vs_successes=0")
			} else {
				do(t, e, "scene\ncheck Whisper agility threshold=easy successes=1")
			}
			if on, cost := momentIn(t, e, "Whisper"); on || cost != "" {
				t.Errorf("the roll after: defining moment %v, cost %q; want an ordinary roll", on, cost)
			}
			refuse(t, e, "defining Whisper reduce=agility", "one per story")
			if err := rulestest.CheckReplay(e); err != nil {
				t.Error(err)
			}
		})
	}
	// Resolve spent on an exchange that is a defining moment buys 3
	// dice: the three faces fit the roll exactly.
	e := newPP(t, "defining Whisper reduce=agility\ncontest Gatecrasher Whisper agility successes=2 vs_successes=1\nspend Whisper resolve=1 dice=1,1,1")
	var sp pp.SpentData
	if ev := last(t, e, pp.EventSpent, &sp); len(ev.Rolls) != 1 || len(ev.Rolls[0].Dice) != 3 {
		t.Errorf("Resolve on the moment's exchange: %+v", ev.Rolls)
	}
	// A one-shot moment resisting an attack that hits: the moment
	// resolved, Health drops to 0, and the harm is not counted twice (a
	// heal of 4 gives Whisper's 4 Health back).
	e = newPP(t, "set defining=either\nstart\nnext\nnext\ndefining Whisper oneshot\nattack Vile Whisper with=intellect successes=3 vs_successes=1")
	if got := st(e).HealthLeft("Whisper"); got != 0 {
		t.Errorf("Health after a one-shot moment resisting a hit: %d, want 0", got)
	}
	if do(t, e, "heal Whisper 4"); st(e).HealthLeft("Whisper") != 4 {
		t.Errorf("Health after heal 4: %d, want 4", st(e).HealthLeft("Whisper"))
	}
	// A moment whose ability does not fit the resisting roll refuses it,
	// as it refuses a roll made.
	e = newPP(t, "defining Whisper reduce=intellect")
	refuse(t, e, "check Vile agility vs=Whisper", "declare it again with a physical ability")
	refuse(t, e, "group agility Gatecrasher Whisper threshold=hard", "declare it again with a physical ability")
}

// The rolls of every kind, each a defining moment, keep the conformance
// suite's promises: replay is the state, undo is exact.
func TestP9_DefiningMomentConformance(t *testing.T) {
	rulestest.RunScript(t, func() fray.System { return pp.New() }, rulestest.Script{Name: "defining moments of every kind", Text: heroes + `defining Whisper reduce=agility
check Vile agility vs=Whisper successes=1 vs_successes=2
scene
defining Gatecrasher reduce=might
assist Gatecrasher might for=Whisper successes=4
scene
defining "Citizen Soldier" reduce=might
check Gatecrasher might vs="Whisper,Citizen Soldier" same=yes successes=5 vs_successes=0,4
spend "Citizen Soldier" resolve=1 successes=3
story
defining Whisper reduce=agility
contest Gatecrasher Whisper agility successes=2 vs_successes=3
exchange successes=2 vs_successes=1
scene
defining Gatecrasher reduce=might
group might Gatecrasher Whisper threshold=hard successes=4,1
undo
redo`})
}
