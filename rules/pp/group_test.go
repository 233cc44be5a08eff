package pp_test

import (
	"reflect"
	"testing"

	"fray/rules/pp"
)

// Issue 14, item 19 (P-7). The seed: "everyone makes their own challenge
// roll", so a group action takes the GM's modifier and dice set aside as
// any roll does, one value for everyone or one a member, and each member
// may roll their own trait; and "characters who earn more than 3 net
// successes can distribute these extra net successes among their
// allies": give= is the earners' choice, and only it is handed over.
func TestP7_GroupModAutoTraitsAndChosenSharing(t *testing.T) {
	cases := []struct {
		name, script    string
		successes, nets []int
		traits          []string
		given           []string
	}{
		// Gatecrasher and the Soldier have 12d Might: −1d leaves 11, set
		// aside for 6 successes each (rounding up); 4 net each, nobody
		// below 1, nothing handed over.
		{"one mod and auto for all", `group might Gatecrasher "Citizen Soldier" threshold=2 mod=-1d auto=all`,
			[]int{6, 6}, []int{4, 4}, nil, nil},
		// 13 dice aside are 7; 10 are 5.
		{"one a member", `group might Gatecrasher "Citizen Soldier" threshold=2 mod=+1d,-2d auto=all,all`,
			[]int{7, 5}, []int{5, 3}, nil, nil},
		// Whisper rolls Agility 5 (3 aside), Gatecrasher Might 12 (6).
		{"own traits", `group agility Whisper Gatecrasher traits=agility,might threshold=2 auto=all`,
			[]int{3, 6}, []int{1, 4}, []string{"agility", "might"}, nil},
		// 9 − 2 = 7 net, 4 above 3. fray alone raises Whisper (−2) by 3
		// and the Soldier (0) by 1; Gatecrasher chooses otherwise.
		{"fray shares", `group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=9,2,0`,
			[]int{9, 2, 0}, []int{3, 1, 1}, nil, []string{"Gatecrasher to Whisper: 3", "Gatecrasher to Citizen Soldier: 1"}},
		{"the earner chooses", `group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=9,2,0 give="Gatecrasher>Citizen Soldier:4"`,
			[]int{9, 2, 0}, []int{3, 4, -2}, nil, []string{"Gatecrasher to Citizen Soldier: 4"}},
		{"two gifts", `group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=9,2,0 give=Gatecrasher>Whisper:2,Gatecrasher>Whisper:1`,
			[]int{9, 2, 0}, []int{4, 0, 1}, nil, []string{"Gatecrasher to Whisper: 2", "Gatecrasher to Whisper: 1"}},
		{"the earner keeps them", `group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=9,2,0 give=none`,
			[]int{9, 2, 0}, []int{7, 0, -2}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newPP(t, c.script)
			var g pp.GroupData
			last(t, e, pp.EventGrouped, &g)
			if !reflect.DeepEqual(g.Successes, c.successes) || !reflect.DeepEqual(g.Nets, c.nets) ||
				!reflect.DeepEqual(g.Traits, c.traits) || !reflect.DeepEqual(g.Given, c.given) {
				t.Errorf("successes %v nets %v traits %v given %q; want %v %v %v %q",
					g.Successes, g.Nets, g.Traits, g.Given, c.successes, c.nets, c.traits, c.given)
			}
		})
	}
	e := newPP(t, "")
	for _, r := range []struct{ line, want string }{
		{`group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=9,2,0 give=Gatecrasher>Whisper:5`, "has 4 net successes above 3 to hand over, not 5"},
		{`group might Gatecrasher Whisper threshold=2 successes=9,0 give=Gatecrasher>Vile:1`, "Vile is not in the group action"},
		{`group might Gatecrasher Whisper threshold=2 successes=9,0 give=Gatecrasher>Gatecrasher:1`, "cannot give successes to themselves"},
		{`group might Gatecrasher Whisper threshold=2 successes=9,0 give=Gatecrasher`, "say who gives how many to whom"},
		{`group might Gatecrasher Whisper threshold=2 mod=+1d,+1d,+1d`, "mod= gives 3 counts for 2"},
		{`group might Gatecrasher Whisper threshold=2 mod=+9d`, "not a modifier from -4d to +4d"},
		{`group might Gatecrasher Whisper threshold=2 traits=might,sword`, "sword"},
	} {
		refuse(t, e, r.line, r.want)
	}
	// Resolve spent afterwards settles the roll again by the same choice:
	// the Soldier's die showing 2 makes 3 successes, 1 net; Gatecrasher
	// still gives Whisper 1 and keeps the rest (fray's own sharing would
	// raise Whisper to 1).
	do(t, e, `group might Gatecrasher "Citizen Soldier" Whisper threshold=2 successes=9,2,0 give=Gatecrasher>Whisper:1`)
	do(t, e, `spend "Citizen Soldier" resolve=1 dice=2`)
	var sp pp.SpentData
	last(t, e, pp.EventSpent, &sp)
	if sp.Group == nil || !reflect.DeepEqual(sp.Group.Nets, []int{6, 1, -1}) {
		t.Errorf("after spend: %+v, want nets [6 1 -1]", sp.Group)
	}
}
