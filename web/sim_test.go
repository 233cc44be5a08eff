package web_test

import (
	"bytes"
	"math"
	"net/http"
	"testing"

	"fray"
	"fray/sim"
	"fray/web"
)

// simDuel is a queue duel whose answer is known by hand (sim's
// TestSimQueueDuel): Ann hits Bo with 0.6 and Bo hits Ann with 0.5, one
// hit ends either, Ann goes first, so Ann wins 0.6 / (1 − 0.4 × 0.5) =
// 0.75 and no fight is left unfinished.
var simDuel = []string{
	"add Ann side=pc wits=2 hp=1 weapon=sword:medium",
	"add Bo side=npc wits=1 hp=1 weapon=club:medium",
	"initiative Ann 15",
	"initiative Bo 3",
	"start",
}

// simFight sets up the duel and returns the encounter and its revision.
func (e *env) simFight(t *testing.T) (created, int) {
	t.Helper()
	enc := e.create(t, "queue", "sim")
	return enc, e.play(t, enc.ID, enc.Token, 0, simDuel...).Revision
}

// TestSim checks the GM's simulation from the live state: the object
// fray sim --json prints, the sides and unfinished adding up to 1, the
// hand-worked win chance inside the interval, the same seed giving the
// same answer to the byte, and the live encounter left at its revision.
func TestSim(t *testing.T) {
	e := start(t, nil)
	enc, rev := e.simFight(t)
	path := "/api/encounters/" + enc.ID + "/sim"
	a := e.send(t, "POST", path, enc.Token, map[string]any{"fights": 2000, "seed": 7})
	if a.Status != http.StatusOK {
		t.Fatalf("sim: %d %s", a.Status, a.Body)
	}
	var res sim.Result
	a.decode(t, &res)
	if res.Fights != 2000 || res.Seed != 7 {
		t.Errorf("fights %d seed %d, want 2000 and 7", res.Fights, res.Seed)
	}
	if len(res.Sides) != 2 || res.Sides[0].Side != fray.SidePC || res.Sides[1].Side != fray.SideNPC {
		t.Fatalf("sides %+v, want pc then npc", res.Sides)
	}
	if sum := res.Sides[0].Win + res.Sides[1].Win + res.Unfinished; math.Abs(sum-1) > 1e-9 {
		t.Errorf("wins and unfinished add up to %v, want 1", sum)
	}
	if pc := res.Sides[0]; 0.75 < pc.CI95[0] || 0.75 > pc.CI95[1] {
		t.Errorf("Ann wins %v (95%%: %v), want 0.75 inside", pc.Win, pc.CI95)
	}
	if res.Unfinished != 0 || len(res.Combatants) != 2 || len(res.Rounds.Dist) == 0 {
		t.Errorf("unfinished %v, %d combatants, rounds %v; want 0, 2 and a histogram", res.Unfinished, len(res.Combatants), res.Rounds.Dist)
	}
	b := e.send(t, "POST", path, enc.Token, map[string]any{"fights": 2000, "seed": 7})
	if !bytes.Equal(a.Body, b.Body) {
		t.Errorf("the same seed gave two answers:\n%s\n%s", a.Body, b.Body)
	}
	other := e.send(t, "POST", path, enc.Token, map[string]any{"fights": 2000, "seed": 8})
	if other.Status != http.StatusOK || bytes.Equal(a.Body, other.Body) {
		t.Errorf("another seed: %d, the same answer %v; want 200 and another answer", other.Status, bytes.Equal(a.Body, other.Body))
	}
	// Without a seed the answer comes from the state: the same twice.
	c := e.send(t, "POST", path, enc.Token, map[string]any{})
	d := e.send(t, "POST", path, enc.Token, map[string]any{})
	var def sim.Result
	c.decode(t, &def)
	if c.Status != http.StatusOK || !bytes.Equal(c.Body, d.Body) || def.Fights != web.DefaultSimFights || def.Seed >= 1<<53 {
		t.Errorf("defaults: %d, fights %d, seed %d, same twice %v; want 200, %d fights, a seed below 2^53, the same twice",
			c.Status, def.Fights, def.Seed, bytes.Equal(c.Body, d.Body), web.DefaultSimFights)
	}
	if got := e.revision(t, enc.ID, enc.Token); got != rev {
		t.Errorf("the simulations moved the encounter from revision %d to %d", rev, got)
	}
	// The live encounter plays on as before.
	if r := e.command(t, enc.ID, enc.Token, "next", rev); r.Status != http.StatusOK {
		t.Errorf("a command after the simulations: %d %s", r.Status, r.Body)
	}
}

// TestSimRefusals checks who and what the simulation refuses, each with
// the status and budget it names, and that a refusal changes nothing.
func TestSimRefusals(t *testing.T) {
	e := start(t, func(c *web.Config) { c.Limits.MaxSimFights = 500 })
	enc, rev := e.simFight(t)
	player := e.invite(t, enc.ID, enc.Token, "Ann")
	lone := e.create(t, "queue", "lone")
	e.play(t, lone.ID, lone.Token, 0, "add Ann side=pc wits=2 hp=1")
	path := "/api/encounters/" + enc.ID + "/sim"
	tests := []struct {
		name         string
		path, token  string
		body         string
		status       int
		code, naming string
	}{
		{"a player", path, player, `{}`, http.StatusForbidden, fray.EFORBIDDEN, "Only the GM"},
		{"no token", path, "", `{}`, http.StatusUnauthorized, web.EUNAUTHORIZED, ""},
		{"an unknown encounter", "/api/encounters/nosuch/sim", enc.Token, `{}`, http.StatusForbidden, fray.EFORBIDDEN, "another encounter"},
		{"fights over the limit", path, enc.Token, `{"fights": 501}`, http.StatusRequestEntityTooLarge, fray.ETOOLARGE, "(MaxSimFights)"},
		{"no fights", path, enc.Token, `{"fights": 0}`, http.StatusBadRequest, fray.EINVALID, "at least 1"},
		{"rounds over the limit", path, enc.Token, `{"rounds": 10001}`, http.StatusRequestEntityTooLarge, fray.ETOOLARGE, "(MaxRounds)"},
		{"no rounds", path, enc.Token, `{"rounds": 0}`, http.StatusBadRequest, fray.EINVALID, "round cap"},
		{"an unknown tactic", path, enc.Token, `{"tactics": "pc=bold"}`, http.StatusBadRequest, fray.EINVALID, "no tactic"},
		{"an unknown side", path, enc.Token, `{"tactics": "gm=random"}`, http.StatusBadRequest, fray.EINVALID, "neither a side (pc, npc) nor a combatant"},
		{"an unknown field", path, enc.Token, `{"fight": 10}`, http.StatusBadRequest, fray.EINVALID, "fight"},
		{"one side", "/api/encounters/" + lone.ID + "/sim", lone.Token, `{}`, http.StatusBadRequest, fray.EINVALID, "two sides"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(t, "POST", tt.path, tt.token, []byte(tt.body))
			if r.Status != tt.status || r.code() != tt.code || !bytes.Contains(r.Body, []byte(tt.naming)) {
				t.Errorf("got %d %s; want %d %s naming %q", r.Status, r.Body, tt.status, tt.code, tt.naming)
			}
		})
	}
	if r := e.send(t, "POST", path, enc.Token, map[string]any{"fights": 500}); r.Status != http.StatusOK {
		t.Errorf("at the limit: %d %s, want 200", r.Status, r.Body)
	}
	if got := e.revision(t, enc.ID, enc.Token); got != rev {
		t.Errorf("the refusals moved the encounter from revision %d to %d", rev, got)
	}
	// A system without a fray.Simulator is refused with a sentence; every
	// system has one today, so that case is not played here.
}

// TestSimMidFight checks that the simulation starts from the live state:
// once Bo is out of the fight, Ann has won every fight, in the round it
// stands at.
func TestSimMidFight(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "queue", "mid")
	rev := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc wits=2 hp=3", "add Bo side=npc wits=1 hp=1", "start", "damage Bo 1").Revision
	r := e.send(t, "POST", "/api/encounters/"+enc.ID+"/sim", enc.Token, map[string]any{"fights": 50, "seed": 1})
	if r.Status != http.StatusOK {
		t.Fatalf("sim: %d %s", r.Status, r.Body)
	}
	var res sim.Result
	r.decode(t, &res)
	if len(res.Sides) != 2 || res.Sides[0].Win != 1 || res.Sides[1].Win != 0 || res.Unfinished != 0 {
		t.Errorf("sides %+v unfinished %v; want pc winning every fight", res.Sides, res.Unfinished)
	}
	if len(res.Combatants) != 2 || res.Combatants[1].Down != 1 || res.Combatants[0].Down != 0 {
		t.Errorf("combatants %+v; want Bo down in every fight and Ann in none", res.Combatants)
	}
	if got := e.revision(t, enc.ID, enc.Token); got != rev {
		t.Errorf("the simulation moved the encounter from revision %d to %d", rev, got)
	}
}

// TestSimExact checks a simulation that asks for the exact solve: the
// duel over three rounds, worked by hand as in sim's
// TestExactQueueByHand (Ann wins 0.6 × (1 + 0.2 + 0.04) = 0.744, Bo
// 0.248, 0.008 unfinished), beside the simulated result.
func TestSimExact(t *testing.T) {
	e := start(t, nil)
	enc, _ := e.simFight(t)
	a := e.send(t, "POST", "/api/encounters/"+enc.ID+"/sim", enc.Token, map[string]any{"fights": 500, "seed": 7, "rounds": 3, "exact": true})
	if a.Status != http.StatusOK {
		t.Fatalf("sim: %d %s", a.Status, a.Body)
	}
	var res sim.Report
	a.decode(t, &res)
	if !res.Exact || res.ExactUnfinished == nil || math.Abs(*res.ExactUnfinished-0.008) > 1e-9 || res.Fights != 500 {
		t.Fatalf("exact %v, exact_unfinished %v, fights %d: %s", res.Exact, res.ExactUnfinished, res.Fights, a.Body)
	}
	want := []float64{0.744, 0.248}
	for i, s := range res.Sides {
		if s.ExactWin == nil || math.Abs(*s.ExactWin-want[i]) > 1e-9 {
			t.Errorf("%s: exact_win %v, want %v", s.Side.Side, s.ExactWin, want[i])
		}
	}
	b := e.send(t, "POST", "/api/encounters/"+enc.ID+"/sim", enc.Token, map[string]any{"fights": 500, "seed": 7})
	if bytes.Contains(b.Body, []byte("exact")) {
		t.Errorf("a simulation that asks for no exact solve answers %s", b.Body)
	}
}
