package queue_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

func hpOf(e *engine.Engine, name string) int {
	left, _ := e.State().(*queue.State).HP(name)
	return left
}

// Q-5 through the GM's damage: Bob has 6 hit points. 4 leave 2; 5 more
// leave 0 (not −3): Incapacitated. 1 more is an Injury to choose; 2 more
// with injury=maimed is maimed; once scarred is chosen, the next is the
// last one left: dead. A dead Bob takes no more damage.
func TestQ5_DamageIncapacitatesThenInjures(t *testing.T) {
	e := newFight(t, "damage Bob 4")
	if got := hpOf(e, "Bob"); got != 2 { // 6 − 4
		t.Fatalf("Bob after 4 damage: %d hit points, want 2", got)
	}
	if ev := lastEvent(t, e, queue.EventDamaged); strings.Contains(string(ev.Data), "incapacitates") {
		t.Errorf("4 of 6 Incapacitates: %s", ev.Data)
	}
	run(t, e, "damage Bob 5")
	st := e.State().(*queue.State)
	if !st.Incapacitated("Bob") || hpOf(e, "Bob") != 0 {
		t.Fatalf("Bob after 9 damage of 6: %d left, Incapacitated %v", hpOf(e, "Bob"), st.Incapacitated("Bob"))
	}
	if ev := lastEvent(t, e, queue.EventDamaged); !strings.Contains(string(ev.Data), `"incapacitates":true`) || strings.Contains(string(ev.Data), "injures") {
		t.Errorf("the damage that takes the last hit points: %s", ev.Data)
	}
	if o := e.View().Order[1]; !strings.Contains(o.Note, "Incapacitated") {
		t.Errorf("view of Bob: %+v", o)
	}
	run(t, e, "damage Bob 1")
	if f := fighterOf(e, "Bob"); f.Pending != 1 || len(f.Injuries) != 0 {
		t.Fatalf("Bob after damage while Incapacitated: %+v, want one Injury to choose", f)
	}
	run(t, e, "damage Bob 2 injury=maimed")
	run(t, e, "injury Bob scarred")
	run(t, e, "damage Bob 1")
	f := fighterOf(e, "Bob")
	if !reflect.DeepEqual(f.Injuries, []string{queue.InjuryMaimed, queue.InjuryScarred, queue.InjuryDead}) || f.Pending != 0 {
		t.Errorf("Bob: %+v, want maimed, scarred, dead", f)
	}
	refuse(t, e, "damage Bob 1", "already dead")
	refuse(t, e, "heal Bob 1", "dead")
}

// The GM's damage goes the attack's way: an attack that hits for N and
// damage N leave the same record, Injuries included, in every case of
// Q-5 (hurt, Incapacitated, an Injury named, one to choose).
func TestQ5_DamageSameAsAttackHit(t *testing.T) {
	for _, tt := range []struct {
		before string
		n      int // the sword (medium) deals Red: dice=N,1
		opts   string
	}{
		{"", 3, ""},
		{"", 6, ""},
		{"damage Bob 6", 2, ""},
		{"damage Bob 6", 2, " injury=maimed"},
		{"damage Bob 6\ndamage Bob 1 injury=scarred\ndamage Bob 1 injury=maimed", 1, ""},
	} {
		name := tt.before + "|" + strconv.Itoa(tt.n) + tt.opts
		t.Run(name, func(t *testing.T) {
			a := newFight(t, tt.before+"\nattack Ann Bob with=sword hit=yes dice="+strconv.Itoa(tt.n)+",1"+tt.opts)
			d := newFight(t, tt.before+"\ndamage Bob "+strconv.Itoa(tt.n)+tt.opts)
			fa, fd := fighterOf(a, "Bob"), fighterOf(d, "Bob")
			fa.Weapons, fd.Weapons = nil, nil
			if !reflect.DeepEqual(fa, fd) {
				t.Errorf("attack: %+v; damage: %+v", fa, fd)
			}
			if va, vd := a.View().Order[1], d.View().Order[1]; va.Name != "Bob" || va.Note != vd.Note {
				t.Errorf("the view of Bob: after the attack %+v, after damage %+v", va, vd)
			}
		})
	}
}

// heal (ours where the seed is silent): never above the hit points;
// counted from 0 left however deep the damage went; it lifts
// Incapacitation (having no hit points left), and Injuries and those to
// choose stay.
func TestQ5_HealLiftsIncapacitationInjuriesStay(t *testing.T) {
	e := newFight(t, "damage Bob 2\nheal Bob 5")
	if got := hpOf(e, "Bob"); got != 6 { // 6 − 2 = 4, + 5 capped at 6
		t.Errorf("heal above the hit points: %d, want 6", got)
	}
	if ev := lastEvent(t, e, queue.EventHealed); !strings.Contains(string(ev.Data), `"healed":2`) {
		t.Errorf("the event records what was healed: %s", ev.Data)
	}
	refuse(t, e, "heal Bob 1", "nothing to heal")
	// 9 damage of 6, then an Injury: Incapacitated and scarred.
	run(t, e, "damage Bob 9\ndamage Bob 1 injury=scarred\ndamage Bob 1")
	run(t, e, "heal Bob 3")
	st := e.State().(*queue.State)
	if got := hpOf(e, "Bob"); got != 3 || st.Incapacitated("Bob") { // 0 + 3
		t.Errorf("healed 3 from 0: %d left, Incapacitated %v; want 3, no", got, st.Incapacitated("Bob"))
	}
	if f := fighterOf(e, "Bob"); !reflect.DeepEqual(f.Injuries, []string{queue.InjuryScarred}) || f.Pending != 1 {
		t.Errorf("Injuries after healing: %+v, want scarred and one to choose", f)
	}
	// Hurt again to 0 and beyond, Bob takes the Injuries left: with one
	// pending, the next damage is his third Injury, which gives maimed
	// and dead, all that is left, at once.
	run(t, e, "damage Bob 3\ndamage Bob 1")
	if f := fighterOf(e, "Bob"); !reflect.DeepEqual(f.Injuries, []string{queue.InjuryScarred, queue.InjuryMaimed, queue.InjuryDead}) || f.Pending != 0 {
		t.Errorf("Injuries after the third: %+v, want scarred, maimed, dead and none to choose", f)
	}
	if !e.State().(*queue.State).Dead("Bob") {
		t.Error("Bob is not dead")
	}
	refuse(t, e, "damage Bob 1", "already dead")
}

// Every refusal of damage and heal is a *fray.Error that changes nothing.
func TestQ5_DamageHealRefusals(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"damage Zed 1", `no combatant named "Zed"`},
		{"heal Zed 1", `no combatant named "Zed"`},
		{"damage Bob 0", "from 1 to 1000"},
		{"damage Bob -2", "from 1 to 1000"},
		{"damage Bob 1001", "from 1 to 1000"},
		{"damage Bob 99999999999999999999", "from 1 to 1000"},
		{"damage Bob x", "from 1 to 1000"},
		{"heal Bob 0", "from 1 to 1000"},
		{"heal Bob 1001", "from 1 to 1000"},
		{"damage Bob", "Usage"},
		{"heal Bob", "Usage"},
		{"damage Bob 1 2", "Usage"},
		{"heal Bob 1", "nothing to heal"},
		{"damage Bob 1 injury=dead", "not Incapacitated"},
		{"damage Bob 1 speed=2", "does not know the key speed="},
		{"heal Bob 1 injury=scarred", "takes no key=value options"},
		{"damage Bob 1 dice=3", "rolls no dice"},
		{"damage Cid 1", "no hit points to lose"},
		{"heal Cid 1", "no hit points to regain"},
	} {
		t.Run(tt.line, func(t *testing.T) {
			e := newFight(t, "add Cid")
			refuse(t, e, tt.line, tt.want)
		})
	}
	e := newFight(t, "damage Bob 6")
	refuse(t, e, "damage Bob 1 injury=lost", "injury=lost is not allowed; use one of scarred, maimed, dead")
}

// Neither damage nor heal is an action, and either may be said in anyone's
// turn or before the start.
func TestQ5_DamageIsNoAction(t *testing.T) {
	e := newFight(t, "damage Ann 1\ndamage Bob 1\nheal Ann 1")
	st := e.State().(*queue.State)
	if len(st.Actions) != 0 || st.NameOf(st.Queue[0]) != "Ann" {
		t.Errorf("actions %v, queue %v", st.Actions, st.Queue)
	}
	e = engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e, "add Ann hp=5\ndamage Ann 2")
	if hpOf(e, "Ann") != 3 {
		t.Errorf("damage before the start: %d left, want 3", hpOf(e, "Ann"))
	}
}

// A check is the to-hit rule's roll (Q-4, ours): Ann (Wits 3) against 10
// + Bob's Wits 1 = 11 succeeds on 8 (8 + 3 = 11, a tie succeeds) and
// fails on 7; against difficulty 15, 12 succeeds and 11 fails; mod=-2
// makes 8 fail (8 + 1 = 9 … 10 against 11) and 10 succeed (10 + 1 = 11).
// roll= enters the d20's total, as dice= its face.
func TestQ4_CheckD20PlusWits(t *testing.T) {
	for _, tt := range []struct {
		line string
		ok   bool
	}{
		{"check Ann vs=Bob dice=8", true},
		{"check Ann vs=Bob dice=7", false},
		{"check Ann difficulty=15 dice=12", true},
		{"check Ann difficulty=15 dice=11", false},
		{"check Ann vs=Bob mod=-2 dice=9", false},
		{"check Ann vs=Bob mod=-2 dice=10", true},
		{"check Ann vs=Bob mod=+2 roll=6", true},
		{"check Bob vs=Ann dice=12", true}, // 12 + 1 against 10 + 3
		{"check Bob vs=Ann dice=11", false},
	} {
		e := newFight(t, tt.line)
		ev := lastEvent(t, e, queue.EventChecked)
		var d struct {
			Success bool `json:"success"`
		}
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if d.Success != tt.ok {
			t.Errorf("%s: success %v, want %v (%s)", tt.line, d.Success, tt.ok, ev.Data)
		}
		if len(ev.Rolls) != 1 || ev.Rolls[0].Expr != "1d20" || ev.Odds == nil || ev.Odds.Roll != "check" {
			t.Errorf("%s: rolls %+v, odds %+v", tt.line, ev.Rolls, ev.Odds)
		}
	}
	// The base is the to-hit rule's: set hitbase= moves it.
	e := newFight(t, "set hitbase=15\ncheck Ann vs=Bob dice=12")
	if ev := lastEvent(t, e, queue.EventChecked); !strings.Contains(string(ev.Data), `"need":16`) || strings.Contains(string(ev.Data), `"success":true`) {
		t.Errorf("hitbase=15: %s, want need 16 and a failure", ev.Data)
	}
}

// A check takes no action of its own (the GM says so with act), may be
// made out of turn and before the start, and changes nothing but the
// once-only conditions it uses up.
func TestQ4_CheckIsNoAction(t *testing.T) {
	e := newFight(t, "check Bob vs=Ann dice=3\ncheck Ann difficulty=5")
	st := e.State().(*queue.State)
	if len(st.Actions) != 0 || st.NameOf(st.Queue[0]) != "Ann" {
		t.Errorf("actions %v, queue %v", st.Actions, st.Queue)
	}
	run(t, e, "act Ann minor note=\"searches the room\"")
	e = engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e, "add Ann wits=2\ncheck Ann difficulty=12 dice=10")
	if ev := lastEvent(t, e, queue.EventChecked); !strings.Contains(string(ev.Data), `"success":true`) {
		t.Errorf("10 + 2 against 12 before the start: %s", ev.Data)
	}
}

// Conditions (E-4) on checks or on all rolls add to a check, and a
// once-only one is used up; one on attacks does not.
func TestQ4_CheckConditionModifiers(t *testing.T) {
	e := newFight(t, "condition Ann keen mod=2 on=check once=yes\ncondition Ann dazzled mod=-1 on=attack")
	cmd, _ := engine.ParseCommand("odds check Ann vs=Bob")
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	// Ann +3 Wits +2 keen: needs 11 − 5 = 6+: 15 in 20.
	if math.Abs(o.P(queue.BandSuccess)-15.0/20) > 1e-12 || len(o.Modifiers) != 2 || o.Expr != "1d20+5" {
		t.Errorf("odds %+v", o)
	}
	run(t, e, "check Ann vs=Bob dice=6")
	if ev := lastEvent(t, e, queue.EventChecked); !strings.Contains(string(ev.Data), `"success":true`) {
		t.Errorf("6 + 5 against 11: %s", ev.Data)
	}
	st := e.State().(*queue.State)
	if st.Find("Ann").Condition("keen") != nil || st.Find("Ann").Condition("dazzled") == nil {
		t.Error("keen is not used up, or dazzled is")
	}
}

// The check's odds by hand and by enumerating the d20's 20 faces: the
// chance of success is the faces f with f + Bonus ≥ Need, out of 20, and
// the score's distribution (from package dice) is 1/20 on each of
// 1 + Bonus … 20 + Bonus.
func TestQ4_CheckOddsBruteForce(t *testing.T) {
	sys := queue.New()
	for _, tt := range []struct {
		line string
		p    float64 // by hand
	}{
		{"check Ann vs=Bob", 13.0 / 20},               // 3 against 11: 8 … 20
		{"check Bob vs=Ann", 9.0 / 20},                // 1 against 13: 12 … 20
		{"check Ann difficulty=24", 0},                // 20 + 3 < 24
		{"check Ann difficulty=23", 1.0 / 20},         // only 20
		{"check Ann difficulty=4", 1},                 // 1 + 3 ≥ 4
		{"check Ann difficulty=5 mod=-1", 18.0 / 20},  // 2 against 5: 3 … 20
		{"check Ann vs=Bob mod=+100", 1},              // always
		{"check Ann difficulty=100 mod=-100", 0},      // never
		{"check Bob difficulty=10 mod=+4", 16.0 / 20}, // 5 against 10: 5 … 20
	} {
		e := newFight(t, "")
		st := e.State().(*queue.State)
		cmd, _ := engine.ParseCommand(tt.line)
		o, err := sys.Odds(st, cmd)
		if err != nil {
			t.Fatal(err)
		}
		th, _, _, _, err := st.CheckOf(cmd)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		sum := 0.0
		for f := 1; f <= 20; f++ {
			if f+th.Bonus >= th.Need {
				n++
			}
		}
		for _, pt := range o.Dist {
			if pt.V < 1+th.Bonus || pt.V > 20+th.Bonus || math.Abs(pt.P-1.0/20) > 1e-12 {
				t.Errorf("%s: score %d with odds %v", tt.line, pt.V, pt.P)
			}
			if pt.V >= th.Need {
				sum += pt.P
			}
		}
		near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
		if p := o.P(queue.BandSuccess); !near(p, tt.p) || !near(p, float64(n)/20) || !near(p, sum) || !near(o.P(queue.BandFailure), 1-tt.p) || len(o.Dist) != 20 {
			t.Errorf("%s: success %v, by hand %v, enumeration %v, from the distribution %v", tt.line, p, tt.p, float64(n)/20, sum)
		}
	}
}

// odds check … agrees with 100,000 seeded rolls of the same command
// within 5 standard errors, for success and for each score.
func TestQ4_CheckOddsSeeded(t *testing.T) {
	sys := queue.New()
	for _, line := range []string{"check Ann vs=Bob mod=-2", "check Bob difficulty=14"} {
		t.Run(line, func(t *testing.T) {
			e := newFight(t, "")
			st := e.State().(*queue.State)
			cmd, _ := engine.ParseCommand(line)
			o, err := sys.Odds(st, cmd)
			if err != nil {
				t.Fatal(err)
			}
			r := seededRoller{rand.New(rand.NewPCG(3, 4))}
			const n = 100000
			wins := 0
			scores := map[int]int{}
			for range n {
				evs, err := sys.Decide(st, cmd, r)
				if err != nil {
					t.Fatal(err)
				}
				var d struct {
					Score   int  `json:"score"`
					Success bool `json:"success"`
				}
				if err := evs[0].Decode(&d); err != nil {
					t.Fatal(err)
				}
				scores[d.Score]++
				if d.Success {
					wins++
				}
			}
			check := func(what string, got int, p float64) {
				se := math.Sqrt(p * (1 - p) / n)
				if g := float64(got) / n; math.Abs(g-p) > 5*se+1e-12 {
					t.Errorf("%s: %v of %d seeded rolls, odds %v (5 SE = %v)", what, g, n, p, 5*se)
				}
			}
			check("success", wins, o.P(queue.BandSuccess))
			for _, pt := range o.Dist {
				check("score "+strconv.Itoa(pt.V), scores[pt.V], pt.P)
			}
		})
	}
}

// Every refusal of check is a *fray.Error that changes nothing.
func TestQ4_CheckRefusals(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"check Ann", "vs=NAME (10 + their Wits) or difficulty=N"},
		{"check Zed difficulty=5", `no combatant named "Zed"`},
		{"check Ann vs=Zed", `no combatant named "Zed"`},
		{"check Ann vs=Ann", "cannot check against themselves"},
		{"check Ann vs=Bob difficulty=5", "not both"},
		{"check Ann difficulty=0", "from 1 to 100"},
		{"check Ann difficulty=101", "from 1 to 100"},
		{"check Ann difficulty=x", "from 1 to 100"},
		{"check Ann vs=Bob mod=101", "from -100 to 100"},
		{"check Ann vs=Bob mod=x", "from -100 to 100"},
		{"check Ann vs=Bob dice=21", "do not fit"},
		{"check Ann vs=Bob dice=3,4", "more dice"},
		{"check Ann vs=Bob roll=21", "21"},
		{"check Ann vs=Bob with=sword", "does not know the key with="},
		{"check", "Usage"},
		{"check Ann Bob", "Usage"},
	} {
		t.Run(tt.line, func(t *testing.T) {
			refuse(t, newFight(t, ""), tt.line, tt.want)
		})
	}
	e := newFight(t, "damage Bob 6")
	refuse(t, e, "check Bob vs=Ann", "Incapacitated")
	cmd, _ := engine.ParseCommand("check Bob vs=Ann")
	if _, err := e.Odds(cmd); err == nil {
		t.Error("odds of an Incapacitated combatant's check")
	}
	var fe *fray.Error
	if _, err := e.Odds(fray.Command{Name: "check", Args: []string{"Zed"}, Opts: map[string]string{"difficulty": "3"}}); !asFrayError(err, &fe) || fe.Code != fray.ENOTFOUND {
		t.Errorf("odds check Zed: %v", err)
	}
}

// A sheet may begin the fight hurt (its hp track 5 of 12): heal gives back
// up to the sheet's 12, not just to the 5 it began with, and the state's
// invariants hold (System.Check).
func TestQ5_HealSheetAboveStart(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	if _, err := e.Join([]fray.Combatant{
		{Name: "Johann", Side: fray.SidePC, Stats: map[string]int{"wits": 3}, Tracks: map[string]fray.Track{"hp": {Value: 5, Max: 12}}},
	}); err != nil {
		t.Fatal(err)
	}
	run(t, e, "heal Johann 4")
	if got := hpOf(e, "Johann"); got != 9 { // 5 + 4
		t.Errorf("healed 4 from 5: %d", got)
	}
	run(t, e, "heal Johann 10")
	if got := hpOf(e, "Johann"); got != 12 { // 9 + 10, capped at 12
		t.Errorf("healed 10 from 9: %d, want 12", got)
	}
	if err := queue.New().Check(e.State()); err != nil {
		t.Error(err)
	}
	if tr := e.View().Combatants[0].Tracks["hp"]; tr.Value != 12 || tr.Max != 12 {
		t.Errorf("the hp track %+v", tr)
	}
	refuse(t, e, "heal Johann 1", "nothing to heal")
	run(t, e, "damage Johann 12")
	if !e.State().(*queue.State).Incapacitated("Johann") {
		t.Error("12 damage of 12 does not Incapacitate")
	}
}

// BenchmarkCheck resolves one check, odds included (the score's
// distribution from package dice).
func BenchmarkCheck(b *testing.B) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	for _, line := range strings.Split(fight+"\ncondition Ann keen mod=2 on=check", "\n") {
		cmd, _ := engine.ParseCommand(line)
		if _, err := e.Do(cmd); err != nil {
			b.Fatal(err)
		}
	}
	st := e.State()
	cmd, _ := engine.ParseCommand("check Ann vs=Bob mod=-2")
	sys := queue.New()
	r := seededRoller{rand.New(rand.NewPCG(9, 9))}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sys.Decide(st, cmd, r); err != nil {
			b.Fatal(err)
		}
	}
}
