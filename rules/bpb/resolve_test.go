package bpb_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
	"fray/sheet"
)

// seeded loads the example party and foes (Blueshift, Monolith, Ganyeka
// with his rank 9 Blast, his henchmen) and starts in the seed's order.
func seeded(t testing.TB, settings ...string) *engine.Engine {
	t.Helper()
	e := newEngine()
	for _, f := range []struct{ path, side string }{{"../../examples/bpb-party.yaml", fray.SidePC}, {"../../examples/bpb-foes.yaml", fray.SideNPC}} {
		cs, err := sheet.Load(f.path, bpb.New(), f.side)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Join(cs); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range settings {
		doLine(t, e, "set "+s)
	}
	doLine(t, e, `order Blueshift Ganyeka Monolith "Ganyeka's henchmen"`)
	doLine(t, e, "start")
	return e
}

func doLine(t testing.TB, e *engine.Engine, line string) []fray.Event {
	t.Helper()
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	evs, err := e.Do(cmd)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return evs
}

// refused checks that line is refused with a message holding want and
// changes nothing.
func refused(t *testing.T, e *engine.Engine, line, want string) {
	t.Helper()
	cmd, err := engine.ParseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	before, n := e.State().Clone(), len(e.Log())
	_, err = e.Do(cmd)
	if err == nil || !strings.Contains(fray.ErrorMessage(err), want) {
		t.Errorf("%s: error %v, want one containing %q", line, err, want)
	}
	if len(e.Log()) != n || !reflect.DeepEqual(before, e.State()) {
		t.Errorf("%s: the refusal changed the encounter", line)
	}
}

func task(t *testing.T, evs []fray.Event, roll string) map[string]any {
	t.Helper()
	for _, ev := range evs {
		if ev.Type != bpb.EventTask {
			continue
		}
		var d map[string]any
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if d["roll"] == roll {
			if ev.Odds == nil {
				t.Errorf("the %s event records no odds", roll)
			}
			return d
		}
	}
	t.Fatalf("no %s roll among %d events", roll, len(evs))
	return nil
}

func condition(e *engine.Engine, name, cond string) *fray.Condition {
	c := combatant(e, name)
	return c.Condition(cond)
}

func combatant(e *engine.Engine, name string) fray.Combatant {
	for _, c := range e.View().Combatants {
		if fray.SameName(c.Name, name) {
			return c
		}
	}
	return fray.Combatant{}
}

func enduranceOf(e *engine.Engine, name string) int {
	return combatant(e, name).Tracks["endurance"].Value
}

func TestB1_TaskRollModes(t *testing.T) {
	e := seeded(t)
	// Monolith's Prowess 8 against a challenging 12: 3 + 4 + 8 = 15, three
	// over: extreme in mode open.
	d := task(t, doLine(t, e, "check Monolith prowess dice=3,4"), bpb.RollCheck)
	if d["total"] != 15.0 || d["band"] != "extreme" || d["difficulty"] != 12.0 {
		t.Errorf("open mode: %v", d)
	}
	d = task(t, doLine(t, e, "check Monolith prowess vs=5 expertise=yes dice=1,1"), bpb.RollCheck)
	if d["total"] != 13.0 || d["band"] != "success" || d["difficulty"] != 13.0 {
		t.Errorf("vs=5 with expertise: %v", d)
	}
	e = seeded(t, "success=expertise")
	d = task(t, doLine(t, e, "check Monolith prowess dice=3,4"), bpb.RollCheck)
	if d["band"] != "remarkable" {
		t.Errorf("expertise mode without expertise: %v", d)
	}
	d = task(t, doLine(t, e, "check Monolith prowess difficulty=15 expertise=blocking dice=3,4"), bpb.RollCheck)
	if d["band"] != "extreme" || d["total"] != 18.0 {
		t.Errorf("expertise mode with expertise: %v", d)
	}
	// roll= gives the dice's total alone, as at the table.
	d = task(t, doLine(t, e, "check Monolith prowess vs=2 roll=4"), bpb.RollCheck)
	if d["total"] != 12.0 || d["band"] != "success" || d["difficulty"] != 10.0 {
		t.Errorf("roll=4: %v", d)
	}
	refused(t, e, "check Monolith prowess expertise=flying", "no expertise in flying")
	refused(t, e, "check Monolith luck", "not a stat to roll")
	refused(t, e, "check Monolith prowess vs=3 difficulty=9", "not both")
}

func TestB2_ExtremeOptions(t *testing.T) {
	// Ganyeka's Blast (rank 9, Accuracy 7) against Monolith (Agility 3:
	// difficulty 11, armour 6): 6 + 6 + 7 = 19, an extreme hit.
	tests := []struct {
		settings []string
		choose   string
		damage   int
		cond     string
	}{
		{nil, "overwhelming", 9 + 1 - 6, ""},
		{[]string{"success=expertise"}, "overwhelming", 9 - 6, ""}, // remarkable, not extreme, without expertise: +1 rank
		{nil, "smashing", 9 - 6, "prone"},
		{[]string{"smashing=back"}, "smashing", 9 - 6, "knocked back"},
		{[]string{"staggering=dazed"}, "staggering", 9 - 6, "dazed"},
	}
	for _, tt := range tests {
		e := seeded(t, tt.settings...)
		doLine(t, e, "next Blueshift")
		doLine(t, e, "attack Ganyeka Monolith with=blast choose="+tt.choose+" dice=6,6")
		doLine(t, e, "take Monolith")
		want := tt.damage
		if len(tt.settings) > 0 && tt.settings[0] == "success=expertise" {
			want = 9 + 1 - 6
		}
		if got := 30 - enduranceOf(e, "Monolith"); got != want {
			t.Errorf("%v %s: damage %d, want %d", tt.settings, tt.choose, got, want)
		}
		if m := combatant(e, "Monolith"); tt.cond != "" && m.Condition(tt.cond) == nil {
			t.Errorf("%v %s: Monolith is not %s", tt.settings, tt.choose, tt.cond)
		}
	}
	// Expertise mode, with expertise: overwhelming is +3. Blueshift's
	// Sweep (rank 6, stunning; expertise: Prowess 7 + 3) against 8 +
	// Ganyeka's Agility 7 = 15: 4 + 4 + 10 = 18, three over: extreme.
	// Damage 6 + 3 − Brawn 6 = 3. In open mode the same roll does
	// 6 + 1 − 6 = 1.
	for _, tt := range []struct {
		mode   string
		damage int
	}{{"success=expertise", 3}, {"success=open", 1}} {
		e := seeded(t, tt.mode)
		d := task(t, doLine(t, e, "attack Blueshift Ganyeka with=sweep choose=overwhelming dice=4,4"), bpb.RollAttack)
		doLine(t, e, "take")
		if d["band"] != "extreme" || d["total"] != 18.0 || 24-enduranceOf(e, "Ganyeka") != tt.damage {
			t.Errorf("%s: %v, Ganyeka took %d, want %d", tt.mode, d, 24-enduranceOf(e, "Ganyeka"), tt.damage)
		}
	}
	// Staggering (default): the target loses its next turn, here this
	// round's.
	e := seeded(t)
	doLine(t, e, "next Blueshift")
	doLine(t, e, "attack Ganyeka Monolith with=blast choose=staggering dice=6,6")
	doLine(t, e, "next Ganyeka")
	if got := e.View().Current; got != "Ganyeka's henchmen" {
		t.Errorf("after a staggering hit on Monolith, %s acts, want the henchmen", got)
	}
	refused(t, e, "attack \"Ganyeka's henchmen\" Monolith with=club choose=tickling", "choose=tickling is not")
}

// B-8: block difficulty is 8 + the attack's rank (the seed: 17 against a
// rank 9 Blast); success negates the hit, failure lets it land; the block
// lasts until the defender's next action, so a second attack is blocked
// without forcing again.
func TestB8_BlockDodge(t *testing.T) {
	e := seeded(t)
	doLine(t, e, "next Blueshift")
	doLine(t, e, "attack Ganyeka Monolith with=blast dice=2,2") // 11: a hit
	o, err := e.Odds(fray.Command{Name: "odds", Args: []string{"block", "Monolith"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Target != 17 || o.Expr != "2d6+11" {
		t.Errorf("block odds: %+v, want 2d6+11 against 17", o)
	}
	evs := doLine(t, e, "block Monolith dice=3,4") // 18: negates
	if d := task(t, evs, bpb.RollBlock); d["difficulty"] != 17.0 || d["band"] != "success" {
		t.Errorf("block: %v", d)
	}
	if evs[0].Type != bpb.EventForced || enduranceOf(e, "Monolith") != 30 || condition(e, "Monolith", "blocking") == nil {
		t.Errorf("after the block: events %v, Endurance %d", evs[0].Type, enduranceOf(e, "Monolith"))
	}
	// Still Ganyeka's turn; the henchmen will shoot next. The block holds.
	doLine(t, e, "next Ganyeka")
	evs = doLine(t, e, `attack "Ganyeka's henchmen" Monolith with=pistol dice=6,5,1,1`)
	d := task(t, evs, bpb.RollBlock)
	if d["difficulty"] != 13.0 || d["band"] != "success" || enduranceOf(e, "Monolith") != 30 {
		t.Errorf("a second block against a rank 5 pistol: %v", d)
	}
	for _, ev := range evs {
		if ev.Type == bpb.EventForced {
			t.Errorf("the second block forced an action again")
		}
	}
	// Round 2: Monolith's turn starts: the block ends.
	doLine(t, e, `next "Ganyeka's henchmen"`)
	doLine(t, e, "next Blueshift")
	if condition(e, "Monolith", "blocking") == nil {
		t.Errorf("Monolith's block ended before his next turn")
	}
	doLine(t, e, "next Ganyeka")
	if condition(e, "Monolith", "blocking") != nil {
		t.Errorf("Monolith still blocks in his next turn")
	}
	// A failed dodge lets the hit land: Blueshift (Agility 9, dodging
	// expertise: 2d6+12) against Ganyeka's Blast, difficulty 17.
	e = seeded(t)
	doLine(t, e, "next Blueshift")
	doLine(t, e, "attack Ganyeka Blueshift with=blast dice=5,5") // 17 against 17
	doLine(t, e, "dodge Blueshift dice=1,2")
	if got := enduranceOf(e, "Blueshift"); got != 20-(9-2) {
		t.Errorf("Blueshift's Endurance %d after a failed dodge", got)
	}
	refused(t, e, "dodge Blueshift", "No attack has hit Blueshift")
	refused(t, e, "block Monolith dice=6,6", "No attack has hit Monolith")
}

// B-9, the seed's two examples from the dice: Monolith's extreme block of
// Ganyeka's rank 9 Blast (difficulty 17) and Ganyeka's extreme dodge of
// Blueshift's attack revise the order of play.
func TestB9_ExtremeBlockReorders(t *testing.T) {
	e := seeded(t)
	doLine(t, e, "next Blueshift")
	doLine(t, e, "attack Ganyeka Monolith with=blast dice=3,2")
	d := task(t, doLine(t, e, "block Monolith dice=6,4"), bpb.RollBlock)
	if d["difficulty"] != 17.0 || d["band"] != "extreme" {
		t.Errorf("the block: %v", d)
	}
	run(t, e, `next Ganyeka
next "Ganyeka's henchmen"
next Blueshift
next Monolith
next Ganyeka
next "Ganyeka's henchmen"
attack Blueshift Ganyeka with=sweep dice=4,4
dodge Ganyeka dice=5,3
next Blueshift
next Monolith
next "Ganyeka's henchmen"
next Monolith
next Ganyeka
next Blueshift
next "Ganyeka's henchmen"`)
	want := []string{
		"Round 1: Blueshift, Ganyeka, Monolith (blocks attack by Ganyeka), Ganyeka's henchmen",
		"Round 2: Blueshift, Monolith, Ganyeka, Ganyeka's henchmen",
		"Round 3: Blueshift, Monolith, Ganyeka (dodges an attack by Blueshift), Ganyeka's henchmen",
		"Round 4: Monolith, Ganyeka, Blueshift, Ganyeka's henchmen",
		"Round 5: Monolith",
	}
	if got := history(e.View()); !reflect.DeepEqual(got, want) {
		t.Errorf("history:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	// A block that only succeeds changes nothing in the order.
	e = seeded(t)
	doLine(t, e, "next Blueshift")
	doLine(t, e, "attack Ganyeka Monolith with=blast dice=3,2")
	doLine(t, e, "block Monolith dice=3,3")
	if n := names(e.View().Next); n != "Blueshift, Ganyeka, Monolith, Ganyeka's henchmen" {
		t.Errorf("next round after a plain block: %s", n)
	}
}

// B-10: Prowess (close) or Accuracy (ranged) against 8 + the target's
// Agility; damage = rank − protection (armour, or Brawn against stunning
// damage), at least 0, off Endurance; 0 Endurance is out.
func TestB10_AttackDamage(t *testing.T) {
	e := seeded(t)
	evs := doLine(t, e, "attack Blueshift Ganyeka with=punch dice=1,1")
	d := task(t, evs, bpb.RollAttack)
	if d["stat"] != "prowess" || d["difficulty"] != 15.0 || d["band"] != "failure" {
		t.Errorf("a miss: %v", d)
	}
	// Stunning Punch rank 5 against Ganyeka's Brawn 6: no damage.
	doLine(t, e, "next Blueshift")
	doLine(t, e, "attack Ganyeka Blueshift with=blast dice=2,2") // Accuracy 7 + 4 = 11 against 8 + 9: a miss
	if e.State().(*bpb.State).Pending != nil {
		t.Errorf("a miss left a hit pending")
	}
	doLine(t, e, "attack Ganyeka Monolith with=blast dice=2,3") // 12 against 11: a hit, 9 − armour 6 = 3
	doLine(t, e, "next Ganyeka")                                // the hit lands when play moves on
	if got := enduranceOf(e, "Monolith"); got != 27 {
		t.Errorf("Monolith's Endurance %d, want 27", got)
	}
	e = seeded(t)
	doLine(t, e, "attack Blueshift Ganyeka with=punch dice=6,5") // 18 against 15
	doLine(t, e, "take")
	if got := enduranceOf(e, "Ganyeka"); got != 24 {
		t.Errorf("a rank 5 stunning punch against Brawn 6 did %d damage", 24-got)
	}
	doLine(t, e, "damage Ganyeka 30")
	if enduranceOf(e, "Ganyeka") != 0 || condition(e, "Ganyeka", "out") == nil {
		t.Errorf("Ganyeka at %d Endurance is not out", enduranceOf(e, "Ganyeka"))
	}
	refused(t, e, "attack Blueshift Ganyeka with=punch", "out (0 Endurance) already")
	doLine(t, e, "heal Ganyeka 5")
	if enduranceOf(e, "Ganyeka") != 5 || condition(e, "Ganyeka", "out") != nil {
		t.Errorf("healed Ganyeka: %d, still out", enduranceOf(e, "Ganyeka"))
	}
	refused(t, e, "attack Blueshift Ganyeka with=laser", `Blueshift has no power or weapon named "laser"`)
	refused(t, e, "attack Ganyeka Blueshift with=blast", "It is Blueshift's turn, not Ganyeka's")
	refused(t, e, "attack Blueshift Blueshift with=punch", "cannot attack themself")
	refused(t, e, "attack Blueshift Ganyeka", "attack needs with=POWER")
	refused(t, e, `attack Blueshift Ganyeka with=""`, "Name the power or weapon")
	refused(t, e, "attack Blueshift Ganyeka with=punch rank=9", "rank= is for a power not on it")
	doLine(t, e, "attack Blueshift Ganyeka with=kick rank=4 dice=6,6")
}

// B-11: a distraction gives +3 to the next attack against the opponent in
// the following round, then it is gone.
func TestB11_Distraction(t *testing.T) {
	e := seeded(t)
	// Blueshift's Willpower 5 against 8 + Ganyeka's 8: 16 or more.
	d := task(t, doLine(t, e, "distract Blueshift Ganyeka dice=6,5"), bpb.RollDistract)
	if d["difficulty"] != 16.0 || d["band"] != "success" || condition(e, "Ganyeka", "distracted") == nil {
		t.Errorf("distract: %v", d)
	}
	// Not this round.
	if o, _ := e.Odds(fray.Command{Name: "attack", Args: []string{"Blueshift", "Ganyeka"}, Opts: map[string]string{"with": "punch"}}); len(o.Modifiers) != 1 {
		t.Errorf("this round's attack has modifiers %v", o.Modifiers)
	}
	run(t, e, "next\nnext\nnext\nnext")
	o, err := e.Odds(fray.Command{Name: "attack", Args: []string{"Blueshift", "Ganyeka"}, Opts: map[string]string{"with": "punch"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (fray.Modifier{Source: "Ganyeka distracted (by Blueshift)", Who: []string{"Blueshift", "Ganyeka"}, Value: 3}); !reflect.DeepEqual(o.Modifiers[len(o.Modifiers)-1], want) || o.Expr != "2d6+10" {
		t.Errorf("next round's attack: %s %v", o.Expr, o.Modifiers)
	}
	doLine(t, e, "attack Blueshift Ganyeka with=punch dice=1,1")
	if condition(e, "Ganyeka", "distracted") != nil {
		t.Errorf("the distraction outlived the attack")
	}
	// Unused, it ends with the following round.
	e = seeded(t)
	doLine(t, e, "distract Blueshift Ganyeka dice=6,5")
	run(t, e, "next\nnext\nnext\nnext\nnext\nnext\nnext")
	if condition(e, "Ganyeka", "distracted") == nil {
		t.Errorf("gone before the end of the following round")
	}
	doLine(t, e, "next")
	if condition(e, "Ganyeka", "distracted") != nil {
		t.Errorf("still there after the following round")
	}
}

// B-12: awards to players only; roleplayed and clever to one player each,
// two different players; lowest to the lowest; spent 1 point per rank.
func TestB12_Experience(t *testing.T) {
	e := seeded(t)
	doLine(t, e, "award Blueshift roleplayed")
	refused(t, e, "award Monolith roleplayed", "already went to Blueshift")
	refused(t, e, "award Blueshift clever", "two different players")
	refused(t, e, "award Ganyeka enthusiastic", "not a player character")
	refused(t, e, "award Blueshift roleplayed", "already has the roleplayed award")
	refused(t, e, "award Blueshift lowest", "more than Monolith's 0")
	refused(t, e, "award Blueshift bravest", `"bravest" is not allowed`)
	doLine(t, e, "award Monolith clever")
	doLine(t, e, "award Monolith showed")
	doLine(t, e, "award Blueshift enthusiastic")
	if x := combatant(e, "Blueshift").Tracks["experience"].Value; x != 2 {
		t.Errorf("Blueshift has %d points, want 2", x)
	}
	refused(t, e, "spend Monolith 2 on=prowess", "1 unspent experience points, not 2")
	refused(t, e, "spend Monolith 1 on=flight", `no stat, power or weapon named "flight"`)
	doLine(t, e, "spend Monolith 1 on=prowess")
	doLine(t, e, "spend Blueshift 1 on=sweep")
	doLine(t, e, "spend Blueshift 1 on=expertise:blocking")
	b, m := combatant(e, "Blueshift"), combatant(e, "Monolith")
	if m.Stat("prowess") != 9 || b.Power("sweep").Rank != 7 || !b.HasExpertise("blocking") || b.Tracks["experience"].Value != 0 {
		t.Errorf("after spending: Monolith %v, Blueshift %v", m.Stats, b)
	}
	refused(t, e, "spend Blueshift 1 on=agility", "0 unspent experience points")
}

// twoDice is a fray.Roller that plays back fixed faces.
type twoDice struct{ a, b int }

func (d twoDice) Roll(who, expr string) (fray.Roll, error) {
	return engine.RollFaces(who, expr, []int{d.a, d.b})
}

// seededRoller rolls with a seeded source.
type seededRoller struct{ r *rand.Rand }

func (s seededRoller) Roll(who, expr string) (fray.Roll, error) {
	return engine.RollSeeded(who, expr, s.r)
}

// rolls lists every command that rolls, in states where it can.
var rolls = []struct{ setup, cmd string }{
	{"", "check Monolith prowess vs=6"},
	{"", "check Blueshift perception difficulty=challenging expertise=yes"},
	{"", "attack Blueshift Ganyeka with=sweep"},
	{"next Blueshift\nattack Ganyeka Monolith with=blast choose=overwhelming dice=3,2", "block Monolith"},
	{"next Blueshift\nattack Ganyeka Blueshift with=blast dice=6,6", "dodge Blueshift"},
	{"attack Blueshift Monolith with=punch dice=6,6", "block Monolith with=punch"},
	{"", "attack Blueshift Monolith with=punch endurance=no"},
	{"", "distract Blueshift Ganyeka"},
	{"distract Blueshift Ganyeka dice=6,6\nnext\nnext\nnext\nnext", "attack Blueshift Ganyeka with=punch mod=-2"},
}

// bandOf maps an odds band to the task band in the event.
func bandOf(o fray.Odds, i int) string {
	return []string{"failure", "success", "extreme"}[i]
}

// The odds of every command that rolls agree with a brute-force
// enumeration of the 36 rolls of 2d6 (exactly) and with 100,000 seeded
// rolls (within 4 standard errors).
func TestOddsAgreeWithRolls(t *testing.T) {
	sys := bpb.New()
	for _, tt := range rolls {
		e := seeded(t)
		if tt.setup != "" {
			run(t, e, tt.setup)
		}
		cmd, err := engine.ParseCommand(tt.cmd)
		if err != nil {
			t.Fatal(err)
		}
		o, err := e.Odds(cmd)
		if err != nil {
			t.Fatalf("%s: %v", tt.cmd, err)
		}
		sum := 0.0
		for _, b := range o.Bands {
			sum += b.P
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: bands sum to %v", tt.cmd, sum)
		}
		count := func(r fray.Roller) map[string]int {
			evs, err := sys.Decide(e.State(), cmd, r)
			if err != nil {
				t.Fatalf("%s: %v", tt.cmd, err)
			}
			d := task(t, evs, cmd.Name)
			return map[string]int{d["band"].(string): 1}
		}
		brute := map[string]int{}
		for a := 1; a <= 6; a++ {
			for b := 1; b <= 6; b++ {
				for k, v := range count(twoDice{a, b}) {
					brute[k] += v
				}
			}
		}
		n := 100000
		if testing.Short() {
			n = 10000
		}
		freq := map[string]int{}
		r := seededRoller{rand.New(rand.NewPCG(42, uint64(len(tt.cmd))))}
		for range n {
			for k, v := range count(r) {
				freq[k] += v
			}
		}
		for i, b := range o.Bands {
			band := bandOf(o, i)
			if strings.Contains(b.Name, "remarkable") {
				band = "remarkable"
			}
			if got := float64(brute[band]) / 36; math.Abs(got-b.P) > 1e-12 {
				t.Errorf("%s: %s: odds %v, enumeration %v", tt.cmd, b.Name, b.P, got)
			}
			se := math.Sqrt(b.P * (1 - b.P) / float64(n))
			if got := float64(freq[band]) / float64(n); math.Abs(got-b.P) > 4*se+1e-9 {
				t.Errorf("%s: %s: odds %v, %d seeded rolls %v (4 SE = %v)", tt.cmd, b.Name, b.P, n, got, 4*se)
			}
		}
	}
}

// The odds of an attack include the damage distribution.
func TestAttackOddsDamage(t *testing.T) {
	e := seeded(t)
	run(t, e, "next Blueshift")
	o, err := e.Odds(fray.Command{Name: "attack", Args: []string{"Ganyeka", "Monolith"}, Opts: map[string]string{"with": "blast"}})
	if err != nil {
		t.Fatal(err)
	}
	// 2d6+7 against 11: a miss on 2 or 3 (3/36), a hit (3 damage) on 4-6
	// (12/36), an extreme overwhelming hit (4 damage) on 7+ (21/36).
	want := []fray.Point{{V: 0, P: 3.0 / 36}, {V: 3, P: 12.0 / 36}, {V: 4, P: 21.0 / 36}}
	if o.DistOf != fray.DistDamage || len(o.Dist) != 3 {
		t.Fatalf("damage distribution %v", o.Dist)
	}
	for i, p := range want {
		if o.Dist[i].V != p.V || math.Abs(o.Dist[i].P-p.P) > 1e-12 {
			t.Errorf("damage %v, want %v", o.Dist, want)
		}
	}
	if _, err := e.Odds(fray.Command{Name: "next"}); err == nil || !strings.Contains(err.Error(), "rolls no dice") {
		t.Errorf("odds next: %v", err)
	}
}

// Resolving an attack with its modifiers and odds (goal: under 20 µs).
func BenchmarkAttack(b *testing.B) {
	e := seeded(b)
	run2(b, e, "distract Blueshift Ganyeka dice=6,6\nnext\nnext\nnext\nnext\ncondition Blueshift inspired mod=1 on=attack")
	cmd, _ := engine.ParseCommand("attack Blueshift Ganyeka with=punch mod=-1")
	sys := bpb.New()
	r := seededRoller{rand.New(rand.NewPCG(1, 1))}
	st := e.State()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sys.Decide(st, cmd, r); err != nil {
			b.Fatal(err)
		}
	}
}

func run2(t testing.TB, e *engine.Engine, script string) {
	for _, l := range strings.Split(script, "\n") {
		doLine(t, e, l)
	}
}

// A 10-combatant, 10-round scripted fight: every turn an attack (with its
// odds, its roll and, on a hit, the damage) then next (goal: under 5 ms).
func BenchmarkFight(b *testing.B) {
	var setup []string
	names := make([]string, 10)
	for i := range names {
		names[i] = "C" + string(rune('A'+i))
		setup = append(setup, "add "+names[i]+" brawn=3 agility=4 accuracy=6 prowess=6 perception=4 willpower=4 endurance=1000")
	}
	setup = append(setup, "start")
	var round []fray.Command
	for i, n := range names {
		for _, l := range []string{"attack " + n + " " + names[(i+1)%10] + " with=blast rank=7 range=ranged", "next"} {
			cmd, err := engine.ParseCommand(l)
			if err != nil {
				b.Fatal(err)
			}
			round = append(round, cmd)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		e := engine.New(bpb.New(), rand.New(rand.NewPCG(1, 2)))
		for _, l := range setup {
			cmd, _ := engine.ParseCommand(l)
			if _, err := e.Do(cmd); err != nil {
				b.Fatal(err)
			}
		}
		for range 10 {
			for _, cmd := range round {
				if _, err := e.Do(cmd); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
