package pp_test

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fray/engine"
	"fray/rules/pp"
)

// Issue 14, item 21. The seed: "you can just as easily apply a more
// traditional framework of rolling to determine success or failure by
// using the Traditional Results table." With results=traditional a roll's
// payload says so in Shown, which the text output's result: line shows
// instead of the narrative band (cmd/fray's outcome reads "shown" first);
// Resolve spent on the roll says it again.
func TestP3_TraditionalResultLine(t *testing.T) {
	shown := func(t *testing.T, data json.RawMessage) string {
		t.Helper()
		var d struct {
			Shown *string `json:"shown"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		if d.Shown == nil {
			return "(none)"
		}
		return *d.Shown
	}
	e := newPP(t, "set results=traditional\ncheck Whisper agility threshold=daunting dice=2,4,6,6,1")
	var d pp.CheckData
	ev := last(t, e, pp.EventChecked, &d)
	if got := shown(t, ev.Data); got != "success" || d.Band != "actor narrates" {
		t.Errorf("traditional: shown %q, band %q; want shown \"success\", band \"actor narrates\"", got, d.Band)
	}
	// 6 against Daunting (3) is 3 net; a Resolve die showing 1 changes
	// nothing, and the result is said again in the same words.
	do(t, e, "spend Whisper resolve=1 dice=1")
	var sp pp.SpentData
	ev = last(t, e, pp.EventSpent, &sp)
	if got := shown(t, ev.Data); got != "success" {
		t.Errorf("spend, traditional: shown %q, want \"success\"", got)
	}
	do(t, e, "set results=narrative\ncheck Whisper agility threshold=daunting dice=2,1,1,1,1")
	ev = last(t, e, pp.EventChecked, &d)
	if got := shown(t, ev.Data); got != "(none)" || d.Band != "opponent narrates" {
		t.Errorf("narrative: shown %q, band %q; want no shown, the band", got, d.Band)
	}
}

// Issue 14, item 22. The seed: "After you resolve your Defining Moment,
// your Health drops to O and you fall unconscious. You regain your wits at
// the end of the scene, but you suffer a -2d penalty to all challenge
// rolls for the rest of the story." Every part of the one-shot cost is
// bounded in time, so a new story ends it: no −2d, and the Health the
// moment took comes back (harm from before it stays; heal gives back the
// moment's Health first).
func TestP9_StoryEndsOneShotCost(t *testing.T) {
	// Whisper's Health is 4 (the higher of avg(3, 2) and avg(3, 4)).
	for _, tc := range []struct {
		name, between string
		// left is Whisper's Health after the story, undone before it.
		left, undone int
	}{
		{"no heal", "", 3, 0},
		{"healed 2 first", "heal Whisper 2", 3, 2},
		{"healed fully first", "heal Whisper 4", 4, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newPP(t, `set defining=oneshot
damage Whisper 1
defining Whisper
check Whisper intellect threshold=hard successes=3`)
			if st(e).HealthLeft("Whisper") != 0 {
				t.Fatalf("Health after the moment: %d, want 0", st(e).HealthLeft("Whisper"))
			}
			do(t, e, "scene")
			if tc.between != "" {
				do(t, e, tc.between)
			}
			do(t, e, "story\ncheck Whisper intellect threshold=hard successes=1")
			var d pp.CheckData
			last(t, e, pp.EventChecked, &d)
			if d.Penalty != 0 || d.Pool.Dice != 4 {
				t.Errorf("the roll after the story: penalty %d, %d dice; want no penalty, Intellect 4d", d.Penalty, d.Pool.Dice)
			}
			if got := st(e).HealthLeft("Whisper"); got != tc.left || st(e).Defeated("Whisper") {
				t.Errorf("Health after the story: %d (defeated %v), want %d", got, st(e).Defeated("Whisper"), tc.left)
			}
			// Undo takes the roll and the story back.
			do(t, e, "undo\nundo")
			if got := st(e).HealthLeft("Whisper"); got != tc.undone {
				t.Errorf("after undo: Health %d, want %d", got, tc.undone)
			}
		})
	}
}

// Issue 14, item 18. The seed: "the person helping you makes their own
// challenge roll against a Hard (2) threshold and you gain a +1d bonus to
// your challenge roll for every 2 net successes they roll". An assist
// waits for the assisted character's next challenge roll of any kind:
// resisting an opposed check or an attack, a same-goal roll, or a
// contest's exchange, not only their own check; it is then used up.
func TestP6_AssistOnAnyChallengeRoll(t *testing.T) {
	// Whisper's 4 successes against Hard (2): 2 net, +1d.
	t.Run("resisting a check", func(t *testing.T) {
		e := newPP(t, "assist Whisper for=Vile agility successes=4\ncheck Gatecrasher might vs=Vile successes=3 vs_successes=1")
		var d pp.CheckData
		last(t, e, pp.EventChecked, &d)
		if d.OppAssist != 1 || d.OppPool.Dice != 4 {
			t.Errorf("Vile resisting: assist %d, %d dice; want +1d, Might 3d + 1d", d.OppAssist, d.OppPool.Dice)
		}
		do(t, e, "check Gatecrasher might vs=Vile successes=3 vs_successes=1")
		last(t, e, pp.EventChecked, &d)
		if d.OppAssist != 0 || d.OppPool.Dice != 3 {
			t.Errorf("the assist is used up: assist %d, %d dice", d.OppAssist, d.OppPool.Dice)
		}
	})
	t.Run("a same-goal roll of three", func(t *testing.T) {
		e := newPP(t, `assist Whisper for=Vile agility successes=4
check Gatecrasher might vs="Citizen Soldier,Vile" same=yes successes=3 vs_successes=5,1`)
		var sides pp.SidesData
		last(t, e, pp.EventSides, &sides)
		if v := sides.Sides[2]; v.Assist != 1 || v.Pool.Dice != 4 {
			t.Errorf("Vile in a same-goal roll: %+v; want +1d, Might 3d + 1d", v)
		}
		do(t, e, "check Gatecrasher might vs=Vile successes=3 vs_successes=1")
		var d pp.CheckData
		last(t, e, pp.EventChecked, &d)
		if d.OppAssist != 0 || d.OppPool.Dice != 3 {
			t.Errorf("the assist is used up: assist %d, %d dice", d.OppAssist, d.OppPool.Dice)
		}
	})
	t.Run("resisting an attack", func(t *testing.T) {
		// Citizen Soldier (Edge 10) has the first turn; Vile defends with
		// Might 3d, his best.
		e := newPP(t, "assist Whisper for=Vile agility successes=4\nstart\nattack \"Citizen Soldier\" Vile with=might successes=3 vs_successes=1")
		var d pp.CheckData
		last(t, e, pp.EventChecked, &d)
		if d.OppAssist != 1 || d.OppPool.Dice != 4 {
			t.Errorf("Vile defending: assist %d, %d dice; want +1d, Might 3d + 1d", d.OppAssist, d.OppPool.Dice)
		}
		if got := st(e).HealthLeft("Vile"); got != 2 {
			t.Errorf("Vile's Health: %d, want 4 − 2", got)
		}
	})
	t.Run("an exchange", func(t *testing.T) {
		e := newPP(t, "assist Whisper for=Gatecrasher agility successes=4\nassist Gatecrasher for=Whisper might successes=6\ncontest Gatecrasher Whisper agility successes=3 vs_successes=1")
		var x pp.ExchangeData
		last(t, e, pp.EventExchanged, &x)
		// Gatecrasher Agility 4d + 1d; Whisper Agility 5d + 2d.
		if x.AssistA != 1 || x.PoolA.Dice != 5 || x.AssistB != 2 || x.PoolB.Dice != 7 {
			t.Errorf("first exchange: %+v", x)
		}
		do(t, e, "exchange successes=1 vs_successes=1")
		last(t, e, pp.EventExchanged, &x)
		// Gatecrasher won the first: +2d carry, the assist used up.
		if x.AssistA != 0 || x.PoolA.Dice != 6 || x.AssistB != 0 || x.PoolB.Dice != 5 {
			t.Errorf("second exchange: %+v", x)
		}
	})
}

// Issue 14, item 23. The seed: "If two or more characters are trying to
// accomplish the same goal, whoever rolls the most successes is the
// Actor, and whoever rolls the next most successes is the Opponent." The
// odds of a same-goal roll, shown by odds and recorded in its event, say
// whose each band is: "B is the actor: actor narrates" is the chance that
// B rolls most (a tie going to the one named first) and has that many
// more than the next, its Who B. The bands go by actor in the order
// named, the one the odds are for last; they are checked against every
// face of the dice.
func TestP3_SameGoalOddsSayWhoIsTheActor(t *testing.T) {
	// roller is one who rolls in a same-goal roll: dice still to roll,
	// with successes already counted.
	type roller struct {
		name       string
		dice, base int
	}
	for _, tc := range []struct {
		name, setup, cmd string
		rollers          []roller // in the order named
		order            []string // whose bands, in the order listed
		traditional      bool
	}{
		{"two", "add A side=pc might=2\nadd B side=pc might=2", "check A might vs=B same=yes",
			[]roller{{"A", 2, 0}, {"B", 2, 0}}, []string{"B", "A"}, false},
		{"three", "add A side=pc might=2\nadd B side=pc might=1\nadd C side=pc might=2", "check A might vs=B,C same=yes",
			[]roller{{"A", 2, 0}, {"B", 1, 0}, {"C", 2, 0}}, []string{"B", "C", "A"}, false},
		{"three, traditional", "set results=traditional\nadd A side=pc might=1\nadd B side=pc might=2\nadd C side=pc might=1", "check A might vs=B,C same=yes",
			[]roller{{"A", 1, 0}, {"B", 2, 0}, {"C", 1, 0}}, []string{"B", "C", "A"}, true},
		{"spend, two", "add A side=pc might=1 resolve=1\nadd B side=pc might=1\ncheck A might vs=B same=yes successes=0 vs_successes=1", "spend A resolve=1",
			[]roller{{"A", 1, 0}, {"B", 0, 1}}, []string{"B", "A"}, false},
		{"spend by the second, two", "add A side=pc might=1\nadd B side=pc might=1 resolve=1\ncheck A might vs=B same=yes successes=1 vs_successes=0", "spend B resolve=1",
			[]roller{{"A", 0, 1}, {"B", 1, 0}}, []string{"A", "B"}, false},
		{"spend, three", "add A side=pc might=1 resolve=1\nadd B side=pc might=1\nadd C side=pc might=1\ncheck A might vs=B,C same=yes successes=0 vs_successes=1,1", "spend A resolve=1",
			[]roller{{"A", 1, 0}, {"B", 0, 1}, {"C", 0, 1}}, []string{"B", "A"}, false},
		{"spend by the last, three", "add A side=pc might=1\nadd B side=pc might=1\nadd C side=pc might=1 resolve=1\ncheck A might vs=B,C same=yes successes=1 vs_successes=1,0", "spend C resolve=1",
			[]roller{{"A", 0, 1}, {"B", 0, 1}, {"C", 1, 0}}, []string{"A", "C"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Every face of every die still to roll: 2 and 4 are 1 success,
			// 6 two.
			want := map[string]float64{}
			n := 0
			for _, r := range tc.rollers {
				n += r.dice
			}
			faces := make([]int, n)
			var walk func(i int, p float64)
			walk = func(i int, p float64) {
				if i < n {
					for f := 1; f <= 6; f++ {
						faces[i] = f
						walk(i+1, p/6)
					}
					return
				}
				succ, k := make([]int, len(tc.rollers)), 0
				for j, r := range tc.rollers {
					succ[j] = r.base
					for range r.dice {
						succ[j] += []int{0, 1, 0, 1, 0, 2}[faces[k]-1]
						k++
					}
				}
				top := 0
				for j := range succ {
					if succ[j] > succ[top] {
						top = j
					}
				}
				next := -1
				for j := range succ {
					if j != top && (next < 0 || succ[j] > succ[next]) {
						next = j
					}
				}
				band := pp.BandOf(succ[top] - succ[next])
				words := string(band)
				if tc.traditional {
					words = band.Traditional()
				}
				want[tc.rollers[top].name+" is the actor: "+words] += p
			}
			walk(0, 1)

			e := setupCase(t, tc.setup)
			cmd, err := engine.ParseCommand(tc.cmd)
			if err != nil {
				t.Fatal(err)
			}
			o, err := e.Odds(cmd)
			if err != nil {
				t.Fatal(err)
			}
			var order []string
			sum := 0.0
			for _, b := range o.Bands {
				sum += b.P
				if len(b.Who) != 1 || !strings.HasPrefix(b.Name, b.Who[0]+" is the actor: ") {
					t.Errorf("band %q names %q", b.Name, b.Who)
					continue
				}
				if len(order) == 0 || order[len(order)-1] != b.Who[0] {
					order = append(order, b.Who[0])
				}
				if math.Abs(b.P-want[b.Name]) > 1e-12 {
					t.Errorf("%s: odds %v, every face %v", b.Name, b.P, want[b.Name])
				}
				delete(want, b.Name)
			}
			for name, p := range want {
				t.Errorf("every face finds %q (%v), which the odds do not list", name, p)
			}
			if math.Abs(sum-1) > 1e-12 || !slices.Equal(order, tc.order) {
				t.Errorf("bands sum to %v, listed by %q; want 1, by %q", sum, order, tc.order)
			}
			// The roll records the same odds.
			if cmd.Name == "check" {
				do(t, e, tc.cmd)
				var d pp.CheckData
				ev := last(t, e, pp.EventChecked, &d)
				if ev.Odds == nil || !reflect.DeepEqual(ev.Odds.Bands, o.Bands) {
					t.Errorf("the event's odds: %+v, want the bands of odds %+v", ev.Odds, o.Bands)
				}
			}
		})
	}
}
