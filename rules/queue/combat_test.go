package queue_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/queue"
)

// fight is two fighters, Ann (Wits 3) first in the queue, Bob (Wits 1,
// 6 hit points) second.
const fight = `add Ann side=pc wits=3 hp=10 weapon=sword:medium:bleed,dagger:light,maul:heavy:crush
add Bob wits=1 hp=6 weapon=club:medium:stun
initiative Ann 20
initiative Bob 1
start`

func newFight(t *testing.T, script string) *engine.Engine {
	t.Helper()
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e, fight)
	run(t, e, script)
	return e
}

func lastEvent(t *testing.T, e *engine.Engine, typ string) fray.Event {
	t.Helper()
	log := e.Log()
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Type == typ {
			return log[i]
		}
	}
	t.Fatalf("no %s event", typ)
	return fray.Event{}
}

func fighterOf(e *engine.Engine, name string) queue.Fighter {
	st := e.State().(*queue.State)
	for _, f := range st.Fighters {
		if st.NameOf(f.ID) == name {
			return *f
		}
	}
	return queue.Fighter{}
}

// refuse runs cmd, expects a *fray.Error containing want, and checks that
// nothing changed.
func refuse(t *testing.T, e *engine.Engine, line, want string) {
	t.Helper()
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	before := e.State().Clone()
	n := len(e.Log())
	_, err = e.Do(cmd)
	var fe *fray.Error
	if err == nil || !asFrayError(err, &fe) || !strings.Contains(fe.Message, want) {
		t.Fatalf("%s: error %v, want a *fray.Error containing %q", line, err, want)
	}
	if len(e.Log()) != n || !reflect.DeepEqual(before, e.State()) {
		t.Errorf("%s: the refusal changed the encounter", line)
	}
}

func asFrayError(err error, fe **fray.Error) bool {
	e, ok := err.(*fray.Error)
	*fe = e
	return ok
}

// d20 + Wits against 10 + the target's Wits: Ann (+3) against Bob
// (need 11) hits on 8 and misses on 7.
func TestQ4_ToHitD20PlusWitsAgainstTenPlusWits(t *testing.T) {
	for _, tt := range []struct {
		d20 int
		hit bool
	}{{8, true}, {7, false}, {20, true}, {1, false}} {
		dice := itoa(tt.d20)
		if tt.hit {
			dice += ",3,2"
		}
		e := newFight(t, "attack Ann Bob with=sword dice="+dice)
		f := fighterOf(e, "Bob")
		if got := f.Damage > 0; got != tt.hit {
			t.Errorf("d20 %d: hit %v, want %v", tt.d20, got, tt.hit)
		}
	}
	// The base is a setting.
	e := newFight(t, "set hitbase=15\nattack Ann Bob with=sword dice=12")
	if fighterOf(e, "Bob").Damage != 0 {
		t.Errorf("hitbase=15: 12 + 3 against 16 hit")
	}
	// A GM ruling replaces the roll; tohit=gm requires one.
	e = newFight(t, "attack Ann Bob with=sword hit=yes dice=2,5")
	if fighterOf(e, "Bob").Damage != 2 {
		t.Errorf("hit=yes: damage %d, want Red 2", fighterOf(e, "Bob").Damage)
	}
	e = newFight(t, "set tohit=gm")
	refuse(t, e, "attack Ann Bob with=sword", "hit=yes or hit=no")
}

// light deals the lower die, medium Red, heavy the higher.
func TestQ4_DamageByWeaponWeight(t *testing.T) {
	for _, tt := range []struct {
		weapon, dice string
		want         int
	}{
		// Red 5, Black 2: light the lower (2), medium Red (5), heavy the
		// higher (5).
		{"dagger", "5,2", 2}, {"sword", "5,2", 5}, {"maul", "5,2", 5}, {"DAGGER", "5,2", 2},
		// Red 2, Black 5: light 2, medium Red (2), heavy 5.
		{"dagger", "2,5", 2}, {"sword", "2,5", 2}, {"maul", "2,5", 5},
		// Doubles: 4 whatever the weight.
		{"dagger", "4,4", 4}, {"sword", "4,4", 4}, {"maul", "4,4", 4},
	} {
		e := newFight(t, "attack Ann Bob with="+tt.weapon+" hit=yes dice="+tt.dice)
		if got := fighterOf(e, "Bob").Damage; got != tt.want {
			t.Errorf("%s on Red, Black %s: %d damage, want %d", tt.weapon, tt.dice, got, tt.want)
		}
	}
}

// a Black 6 triggers the weapon's special, named in the event.
func TestQ4_BlackSixTriggersSpecial(t *testing.T) {
	e := newFight(t, "attack Ann Bob with=sword hit=yes dice=1,6")
	ev := lastEvent(t, e, queue.EventAttacked)
	if !strings.Contains(string(ev.Data), `"special":"bleed"`) || !strings.Contains(string(ev.Data), `"triggered":true`) {
		t.Errorf("event %s: want bleed triggered", ev.Data)
	}
	if len(ev.Rolls) != 1 || !reflect.DeepEqual(ev.Rolls[0].Dice, []int{1, 6}) || !strings.Contains(ev.Rolls[0].For, "Black 6: bleed") {
		t.Errorf("rolls %+v", ev.Rolls)
	}
	e = newFight(t, "attack Ann Bob with=sword hit=yes dice=6,1")
	if ev := lastEvent(t, e, queue.EventAttacked); strings.Contains(string(ev.Data), "triggered") {
		t.Errorf("Red 6 triggered the special: %s", ev.Data)
	}
	// A rolled attack records the d20 and Red and Black apart.
	e = newFight(t, "attack Ann Bob with=sword dice=15,4,6")
	ev = lastEvent(t, e, queue.EventAttacked)
	if len(ev.Rolls) != 2 || ev.Rolls[0].Expr != "1d20" || ev.Rolls[0].Total != 15 || !reflect.DeepEqual(ev.Rolls[1].Dice, []int{4, 6}) || ev.Rolls[1].Source != fray.RollFaces {
		t.Errorf("rolls %+v", ev.Rolls)
	}
}

// an attack is a Major action; a second Major in a turn is refused.
func TestQ4_AttackIsMajorAction(t *testing.T) {
	e := newFight(t, "attack Ann Bob hit=no with=sword")
	if a := e.State().(*queue.State).Actions; !reflect.DeepEqual(a, []string{queue.Major}) {
		t.Errorf("actions %v, want [major]", a)
	}
	refuse(t, e, "attack Ann Bob with=sword", "already taken a Major")
	refuse(t, e, "act Ann major", "already taken a Major")
	run(t, e, "act Ann minor")
	refuse(t, e, "attack Ann Bob with=sword", "two actions")
	// Out of turn.
	e = newFight(t, "")
	refuse(t, e, "attack Bob Ann", "It is Ann's turn")
}

// Every refusal of attack and injury is a *fray.Error that changes nothing.
func TestQ4_Refusals(t *testing.T) {
	tests := []struct{ line, want string }{
		{"attack Ann Bob with=axe", `no weapon named "axe"`},
		{"attack Ann Bob", "say which with with=sword|dagger|maul"},
		{"attack Ann Ann with=sword", "cannot attack themselves"},
		{"attack Ann Zed with=sword", `no combatant named "Zed"`},
		{"attack Ann Bob with=sword hit=maybe", "hit=maybe is not allowed; use one of yes, no"},
		{"attack Ann Bob with=sword mod=x", "not a whole number"},
		{"attack Ann Bob with=sword dice=15", "do not fit"},
		{"attack Ann Bob with=sword dice=3,1,1", "more dice"},
		{"attack Ann Bob with=sword roll=15", "Red and Black too"},
		{"attack Ann Bob with=sword dice=21,3,3", "faces 1 to 20"},
		{"attack Ann Bob with=sword hit=yes dice=7,1", "do not fit"},
		{"attack Ann Bob with=sword hit=yes roll=7", "faces of Red and Black"},
		{"attack Ann Bob with=sword hit=no dice=1,2", "rolls no dice"},
		{"attack Ann Bob with=sword injury=dead", "not Incapacitated"},
		{"attack Ann Bob with=sword speed=3", "does not know the key speed="},
		{"injury Bob scarred", "no Injury to choose"},
		{"injury Bob", "Usage"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			refuse(t, newFight(t, ""), tt.line, tt.want)
		})
	}
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	run(t, e, "add Ann wits=1 hp=3\nadd Bob")
	refuse(t, e, "add Cid weapon=sword", "NAME:WEIGHT")
	refuse(t, e, "add Cid weapon=sword:huge", "not a weight")
	refuse(t, e, "add Cid weapon=a:light,A:heavy", "names A twice")
	run(t, e, "start")
	refuse(t, e, "attack Ann Bob", "Ann has no weapon")
}

// at 0 hit points a character is Incapacitated; further damage gives
// an Injury, chosen with injury.
func TestQ5_IncapacitatedAtZero(t *testing.T) {
	e := newFight(t, "attack Ann Bob with=maul hit=yes dice=6,1")
	st := e.State().(*queue.State)
	if !st.Incapacitated("Bob") || fighterOf(e, "Bob").Pending != 0 {
		t.Fatalf("Bob after 6 damage of 6: incapacitated %v, %+v", st.Incapacitated("Bob"), fighterOf(e, "Bob"))
	}
	if o := e.View().Order[1]; !strings.Contains(o.Note, "Incapacitated") {
		t.Errorf("view: %v", o)
	}
	// Bob cannot attack; his turn comes and goes.
	run(t, e, "next")
	refuse(t, e, "attack Bob Ann", "Incapacitated")
}

// each Injury is taken at most once, so the third is dead.
func TestQ5_ThirdInjuryIsDeath(t *testing.T) {
	e := newFight(t, `attack Ann Bob with=maul hit=yes dice=6,6
next
next
attack Ann Bob with=dagger hit=yes dice=1,1`)
	if f := fighterOf(e, "Bob"); f.Pending != 1 {
		t.Fatalf("Bob: %+v, want one Injury to choose", f)
	}
	refuse(t, e, "injury Bob lost", `"lost" is not allowed; use one of scarred, maimed, dead`)
	run(t, e, "injury Bob maimed")
	refuse(t, e, "injury Bob maimed", "no Injury to choose")
	run(t, e, "next\nnext\nattack Ann Bob with=dagger hit=yes dice=1,1 injury=scarred")
	refuse(t, e, "injury Bob dead", "no Injury to choose")
	run(t, e, "next\nnext")
	refuse(t, e, "attack Ann Bob with=dagger hit=yes dice=1,1 injury=maimed", "can still take dead")
	run(t, e, "attack Ann Bob with=dagger hit=yes dice=1,1")
	f := fighterOf(e, "Bob")
	if !reflect.DeepEqual(f.Injuries, []string{"maimed", "scarred", "dead"}) || f.Pending != 0 {
		t.Errorf("Bob: %+v, want maimed, scarred, then dead", f)
	}
	if !e.State().(*queue.State).Dead("Bob") {
		t.Error("Bob is not dead")
	}
	run(t, e, "next\nnext")
	refuse(t, e, "attack Ann Bob with=dagger hit=yes", "already dead")
}

// The attack's odds agree with enumerating every face of the d20 and of
// Red and Black.
func TestQ4_AttackOddsBruteForce(t *testing.T) {
	for _, a := range []queue.Attack{
		{Weight: queue.DamageLight, Bonus: 3, Need: 11, HP: 4},
		{Weight: queue.DamageMedium, Bonus: 0, Need: 25, HP: 1},
		{Weight: queue.DamageHeavy, Bonus: -2, Need: 5, HP: 0},
		{Weight: queue.DamageHeavy, Ruling: queue.RulingHit, HP: 6},
		{Weight: queue.DamageMedium, Ruling: queue.RulingMiss, HP: 6},
	} {
		o, err := a.Odds()
		if err != nil {
			t.Fatal(err)
		}
		var hit, special, incap, injure, mean float64
		dmg := make([]float64, 7)
		var outcomes [][]int
		switch a.Ruling {
		case queue.RulingMiss:
			outcomes = [][]int{nil}
		case queue.RulingHit:
			for r := 1; r <= 6; r++ {
				for b := 1; b <= 6; b++ {
					outcomes = append(outcomes, []int{r, b})
				}
			}
		default:
			for d := 1; d <= 20; d++ {
				for r := 1; r <= 6; r++ {
					for b := 1; b <= 6; b++ {
						outcomes = append(outcomes, []int{d, r, b})
					}
				}
			}
		}
		w := 1 / float64(len(outcomes))
		for _, f := range outcomes {
			res, err := a.Settle(f)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Hit {
				continue
			}
			hit += w
			dmg[res.Damage.Damage] += w
			mean += w * float64(res.Damage.Damage)
			if res.Damage.Special {
				special += w
			}
			if res.Incapacitates {
				incap += w
			}
			if res.Injures {
				injure += w
			}
		}
		near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
		if !near(o.Hit, hit) || !near(o.Special, special) || !near(o.Incapacitates, incap) || !near(o.Injures, injure) || !near(o.MeanDamage, mean) {
			t.Errorf("%+v: odds %v, enumeration hit %v special %v incapacitates %v injures %v mean %v", a, o, hit, special, incap, injure, mean)
		}
		for _, v := range o.Damage {
			if !near(v.P, dmg[v.Damage]) {
				t.Errorf("%+v: P(damage %d) = %v, enumeration %v", a, v.Damage, v.P, dmg[v.Damage])
			}
		}
	}
}

// seededRoller rolls with a seeded source, as the engine does.
type seededRoller struct{ r *rand.Rand }

func (s seededRoller) Roll(forWhom, expr string) (fray.Roll, error) {
	return engine.RollSeeded(forWhom, expr, s.r)
}

// The attack command's odds (odds attack …) agree with 100,000 seeded
// rolls of the same command, band by band and damage by damage, within 4
// standard errors.
func TestQ4_AttackOddsSeeded(t *testing.T) {
	for _, line := range []string{"attack Ann Bob with=maul mod=-2", "attack Ann Bob with=sword", "attack Ann Bob with=dagger hit=yes"} {
		t.Run(line, func(t *testing.T) {
			e := newFight(t, "")
			st := e.State().(*queue.State)
			cmd, _ := engine.ParseCommand(line)
			sys := queue.New()
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
				var d struct {
					Hit           bool   `json:"hit"`
					Damage        int    `json:"damage"`
					Triggered     bool   `json:"triggered"`
					Incapacitates bool   `json:"incapacitates"`
					Special       string `json:"special"`
				}
				if err := evs[1].Decode(&d); err != nil {
					t.Fatal(err)
				}
				band := queue.BandMiss
				if d.Hit {
					band = queue.BandHit
					if d.Incapacitates {
						band = queue.BandIncapacitates
					}
					if d.Triggered && d.Special != "" {
						band += ", special (" + d.Special + ")"
					} else if d.Triggered {
						band += ", special"
					}
				}
				bands[band]++
				dmg[d.Damage]++
			}
			check := func(what string, count int, p float64) {
				t.Helper()
				se := math.Sqrt(p * (1 - p) / n)
				if got := float64(count) / n; math.Abs(got-p) > 4*se+1e-9 {
					t.Errorf("%s: %v of %d seeded rolls, odds %v (4 SE = %v)", what, got, n, p, 4*se)
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
				check("damage "+itoa(p.V), dmg[p.V], p.P)
			}
		})
	}
}

// odds attack … shows the odds without rolling, and refuses what attack
// would refuse in the same words; a real attack records its odds.
func TestQ4_OddsCommand(t *testing.T) {
	e := newFight(t, "")
	before := e.State().Clone()
	cmd, _ := engine.ParseCommand("odds attack Ann Bob with=sword")
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	// Ann needs 8+ on the d20 (13 of 20); the sword deals Red: 6 damage
	// (Bob's hit points) on a Red 6 (1 in 6), bleed on a Black 6.
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
	if !near(o.P("miss"), 7.0/20) || !near(o.P("hit, special (bleed)"), 13.0/20*5/36) || !near(o.P("hit, Incapacitated, special (bleed)"), 13.0/20/36) || o.Target != 11 {
		t.Errorf("odds %+v", o)
	}
	if _, err := e.Do(cmd); err != nil || len(e.Log()) != 7 || !reflect.DeepEqual(before, e.State()) {
		t.Errorf("odds changed the encounter: %v", err)
	}
	refuse(t, e, "odds attack Bob Ann with=club", "It is Ann's turn")
	refuse(t, e, "odds attack Ann Bob with=axe", `no weapon named "axe"`)
	refuse(t, e, "odds next", "no odds")
	run(t, e, "attack Ann Bob with=sword dice=9,1,1")
	if ev := lastEvent(t, e, queue.EventAttacked); ev.Odds == nil || !near(ev.Odds.P("miss"), 7.0/20) {
		t.Errorf("the attack's event records odds %+v", ev.Odds)
	}
}

// The seed's queue comes out the same when the actions are attacks
// (examples/queue-brigands.fray).
func TestSeedJohannWithAttacks(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(4, 4)))
	want := map[string]string{
		"start":                      "Johann, Brigand #1, Brigand #2, Melvina, Pet Bear",
		`next "Brigand #1"`:          "Brigand #2, Melvina, Pet Bear, Johann, Brigand #1",
		`next "Brigand #2"`:          "Melvina, Pet Bear, Brigand #1, Brigand #2, Johann",
		`attack Johann "Brigand #1"`: "",
	}
	seen := 0
	for _, line := range strings.Split(mustRead("../../examples/queue-brigands.fray"), "\n") {
		cmd, err := engine.ParseCommand(line)
		if err != nil || cmd.Name == "" {
			continue
		}
		_, _ = e.Do(cmd) // the script shows some refusals on purpose
		if q, ok := want[line]; ok && q != "" && seen < 3 {
			if got := queueOf(e.View()); got != q {
				t.Errorf("after %s: queue %s, want %s", line, got, q)
			}
			seen++
		}
	}
	if seen != 3 {
		t.Fatalf("checked %d queues, want 3", seen)
	}
	if got := fighterOf(e, "Brigand #1").Injuries; !reflect.DeepEqual(got, []string{"scarred", "maimed", "dead"}) {
		t.Errorf("Brigand #1's Injuries: %v", got)
	}
	st := e.State().(*queue.State)
	if left, _ := st.HP("Johann"); left != 10 {
		t.Errorf("Johann has %d hit points, want 12 − 5 + 3 healed = 10", left)
	}
	if left, _ := st.HP("Melvina"); left != 2 {
		t.Errorf("Melvina has %d hit points, want 6 − 4 = 2", left)
	}
	if ev := e.Log()[len(e.Log())-1]; ev.Type != queue.EventChecked || !strings.Contains(string(ev.Data), `"success":true`) {
		t.Errorf("the last event: %s %s, want Melvina's check, a success (9 + 2 against 11)", ev.Type, ev.Data)
	}
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// BenchmarkAttack resolves one attack, odds included (issue 4: under 20 µs).
func BenchmarkAttack(b *testing.B) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	for _, line := range strings.Split(fight, "\n") {
		cmd, _ := engine.ParseCommand(line)
		if _, err := e.Do(cmd); err != nil {
			b.Fatal(err)
		}
	}
	st := e.State()
	cmd, _ := engine.ParseCommand("attack Ann Bob with=maul mod=-2")
	sys := queue.New()
	r := seededRoller{rand.New(rand.NewPCG(9, 9))}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sys.Decide(st, cmd, r); err != nil {
			b.Fatal(err)
		}
	}
}

// Weapons and hit points come from character sheets too (engine.Join).
func TestQ4_WeaponsFromSheet(t *testing.T) {
	e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
	_, err := e.Join([]fray.Combatant{
		{Name: "Johann", Side: fray.SidePC, Stats: map[string]int{"wits": 3}, Tracks: map[string]fray.Track{"hp": {Value: 12, Max: 12}},
			Powers: []fray.Power{{Name: "Sword", Kind: fray.PowerKindWeapon, Weight: "medium", Special: "bleed"}}},
		{Name: "Bear", Stats: map[string]int{"wits": 1}, Tracks: map[string]fray.Track{"hp": {Value: 15, Max: 15}},
			Powers: []fray.Power{{Name: "Claws", Kind: fray.PowerKindWeapon, Weight: "heavy", Special: "maul"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	run(t, e, "initiative Johann 20\ninitiative Bear 1\nstart\nattack Johann Bear with=sword hit=yes dice=4,6")
	if left, _ := e.State().(*queue.State).HP("Bear"); left != 11 {
		t.Errorf("Bear has %d hit points, want 15 − 4 = 11", left)
	}
	ev := lastEvent(t, e, queue.EventAttacked)
	if !strings.Contains(string(ev.Data), `"special":"bleed"`) {
		t.Errorf("event %s", ev.Data)
	}
	if tr := e.View().Combatants[1].Tracks["hp"]; tr.Value != 11 || tr.Max != 15 {
		t.Errorf("Bear's hp track %+v", tr)
	}
	refuse(t, e, "attack Johann Bear with=axe", "their weapons: Sword")
}

// Conditions (E-4) add their modifiers to the to-hit roll, listed in the
// odds; a once-only one is used up; one anchored to the end of a turn ends
// there.
func TestQ4_ConditionModifiers(t *testing.T) {
	e := newFight(t, "condition Bob exposed mod=3 on=attacked once=yes\ncondition Ann dazzled mod=-1 on=attack until=end:Ann")
	cmd, _ := engine.ParseCommand("odds attack Ann Bob with=sword")
	o, err := e.Odds(cmd)
	if err != nil {
		t.Fatal(err)
	}
	// Ann +3 Wits −1 dazzled +3 Bob exposed: needs 11 − 5 = 6+: 15 in 20.
	if math.Abs(o.P("miss")-5.0/20) > 1e-12 || len(o.Modifiers) != 3 {
		t.Errorf("odds %+v", o)
	}
	run(t, e, "attack Ann Bob with=sword dice=6,1,1")
	if fighterOf(e, "Bob").Damage != 1 {
		t.Errorf("6 + 5 against 11 should hit")
	}
	st := e.State().(*queue.State)
	if st.Find("Bob").Condition("exposed") != nil {
		t.Error("the once-only condition is not used up")
	}
	run(t, e, "next")
	if e.State().(*queue.State).Find("Ann").Condition("dazzled") != nil {
		t.Error("dazzled did not end with Ann's turn")
	}
}

// BenchmarkFight runs a 10-combatant, 10-round fight of attacks (issue 4:
// under 5 ms).
func BenchmarkFight(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		e := engine.New(queue.New(), rand.New(rand.NewPCG(1, 2)))
		for i := range 10 {
			n := "C" + string(rune('A'+i))
			if _, err := e.Do(fray.Command{Name: "add", Args: []string{n}, Opts: map[string]string{"wits": "2", "hp": "1000", "weapon": "axe:heavy:cleave"}}); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := e.Do(fray.Command{Name: "start"}); err != nil {
			b.Fatal(err)
		}
		for range 10 * 10 {
			st := e.State().(*queue.State)
			cur := st.NameOf(st.Queue[0])
			target := "CA"
			if cur == target {
				target = "CB"
			}
			if _, err := e.Do(fray.Command{Name: "attack", Args: []string{cur, target}}); err != nil {
				b.Fatal(err)
			}
			if _, err := e.Do(fray.Command{Name: "next"}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
