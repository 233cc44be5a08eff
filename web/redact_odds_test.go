package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/web"
)

// TestRedactOddsForPlayers checks that players get a roll's result but not
// the odds it had, which against an NPC would give away its stats.
func TestRedactOddsForPlayers(t *testing.T) {
	ev := fray.Event{Seq: 1, Type: "queue.attacked", Data: []byte(`{"attacker":"Ann","target":"Bear"}`),
		Odds: &fray.Odds{Command: "attack Ann Bear with=sword", Target: 11}}
	_, gm := web.Redact(fray.RoleGM, web.NewSight(systems["queue"](), nil), fray.View{}, []fray.Event{ev})
	if len(gm) != 1 || gm[0].Odds == nil {
		t.Errorf("the GM lost the odds: %+v", gm)
	}
	_, pl := web.Redact(fray.RolePlayer, web.NewSight(systems["queue"](), nil), fray.View{}, []fray.Event{ev})
	if len(pl) != 1 || pl[0].Odds != nil {
		t.Errorf("a player got the odds: %+v", pl)
	}
}

// TestRedactOdds checks the rule for the answer to "odds COMMAND …": the GM
// always gets it; a player only when every combatant the roll involves is
// a visible PC, and a defence only when it names the PC it answers.
func TestRedactOdds(t *testing.T) {
	enc := &fray.Encounter{Combatants: []*fray.Combatant{
		{ID: "annannan", Name: "Ann", Side: fray.SidePC},
		{ID: "cleocleo", Name: "Cleo", Side: fray.SidePC},
		{ID: "bearbear", Name: "Bear", Side: fray.SideNPC},
		{ID: "stormsto", Name: "Storm", Side: fray.SideNPC, Kind: fray.KindEnvironment},
		{ID: "halhalha", Name: "Hal", Side: fray.SidePC, Hidden: true},
		{ID: "zedzedze", Name: "Zed", Side: fray.SideNPC, Hidden: true},
	}, Gone: []fray.Departed{{ID: "gonegone", Name: "Gone", Side: fray.SideNPC, Hidden: true}}}
	sight := web.NewSight(systems["queue"](), enc)
	// The commands of the lines below, as a system would declare them:
	// what matters here is which answer a waiting roll.
	var ds []fray.CommandDecl
	for _, w := range []string{"check", "attack", "block", "dodge", "parry", "defend", "spend", "assist", "contest", "group", "exchange", "distract", "test", "free", "kipup", "start", "initiative"} {
		answers := w == "block" || w == "dodge" || w == "parry" || w == "defend" || w == "spend"
		ds = append(ds, fray.CommandDecl{Name: w, Send: fray.SendNamed, Rolls: true, Answers: answers})
	}
	odds := func(cmd string, mods ...string) fray.Odds {
		o := fray.Odds{Command: cmd, For: "Ann", Roll: "attack", Expr: "2d6+7", Target: 14, Bands: []fray.Band{{Name: "miss", P: 0.5}, {Name: "hit", P: 0.5}}}
		for _, m := range mods {
			// The source's words and, declared, whom they name.
			_, by, _ := strings.Cut(strings.TrimSuffix(m, ")"), "(by ")
			o.Modifiers = append(o.Modifiers, fray.Modifier{Source: m, Who: []string{by}, Value: 3})
		}
		return o
	}
	tests := []struct {
		name string
		line string
		mods []string
		ok   bool
	}{
		{"a check of one's own", "odds check Ann agility difficulty=12", nil, true},
		{"an attack on a PC", "odds attack Ann Cleo with=claw", nil, true},
		{"a PC named in any case", "odds attack ann CLEO with=claw", nil, true},
		{"an attack on an NPC", "odds attack Ann Bear with=claw", nil, false},
		{"an NPC in any case", "odds attack Ann bEAR with=claw", nil, false},
		{"an NPC by a case-fold variant", "odds attack Ann ſtorm with=claw", nil, false},
		{"a PC by a case-fold variant", "odds attack Ann cleo with=claw", nil, true},
		{"an NPC as an option", "odds check Ann might vs=Bear", nil, false},
		{"an NPC in a list", "odds check Ann might vs=Cleo,Bear", nil, false},
		{"an environment", "odds check Ann agility vs=Storm", nil, false},
		{"a modifier an NPC gives", "odds check Ann agility difficulty=12", []string{"distracted (by Bear)"}, false},
		{"a modifier a PC gives", "odds check Ann agility difficulty=12", []string{"inspired (by Cleo)"}, true},
		{"a modifier a secret gives", "odds check Ann agility difficulty=12", []string{"marked (by Zed)"}, false},
		{"a block of an unnamed attack", "odds block Ann", nil, false},
		{"a dodge of an unnamed attack", "odds dodge Ann mod=2", nil, false},
		{"a defence against an NPC", "odds defend Ann against=Bear", nil, false},
		{"a defence against a PC", "odds defend Ann against=Cleo", nil, true},
		{"a spend on a roll made", "odds spend Ann reroll", nil, false},
		{"no command", "odds", nil, false},
		// A player cannot name a hidden combatant at all: the rules
		// refuse the command before any odds (see TestLeakCaseFold), so
		// here such a word is no name, as a word nobody has is none.
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd, err := engine.ParseCommand(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			inner := strings.TrimPrefix(tc.line, "odds ")
			o := odds(inner, tc.mods...)
			if err := web.RedactOdds(fray.RoleGM, sight, ds, cmd, o); err != nil {
				t.Errorf("the GM was refused: %v", err)
			}
			err = web.RedactOdds(fray.RolePlayer, sight, ds, cmd, o)
			switch {
			case tc.ok && err != nil:
				t.Errorf("a player was refused: %v", err)
			case !tc.ok && fray.ErrorCode(err) != fray.EFORBIDDEN:
				t.Errorf("a player got the odds (error %v)", err)
			case !tc.ok && holdsAny(fray.ErrorMessage(err), "Bear", "Zed", "Hal", "Gone", "Storm"):
				t.Errorf("the refusal names someone: %q", fray.ErrorMessage(err))
			}
		})
	}
}

func holdsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(strings.ToLower(s), strings.ToLower(sub)) {
			return true
		}
	}
	return false
}

// TestE6_PlayersGetOddsAmongPCsAlone plays a bpb fight through the API: the
// player of Ann asks the odds of her rolls. Those among PCs alone come
// back whole; those against the NPC Bear, and her block of his attack,
// are refused with 403, while the GM gets every one. No byte a player
// receives (the answers, the view, the event stream from the start) holds
// a target number or a band's chance that only the GM's odds against Bear
// hold, nor Bear's stats, his power's rank or his dice.
func TestE6_PlayersGetOddsAmongPCsAlone(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "Odds")
	// Bear's Agility 9 makes Ann's attack a roll against 8 + 9 = 17, his
	// Willpower 7 her distraction one against 8 + 7 = 15, and his rank 11
	// maul her block one against 8 + 11 = 19 (B-8, B-10, B-11).
	d := e.play(t, enc.ID, enc.Token, 0,
		"add Ann side=pc prowess=7 agility=5 willpower=4 endurance=20",
		"add Cleo side=pc prowess=2 agility=6 willpower=3 endurance=20",
		"add Bear prowess=8 agility=9 willpower=7 endurance=37",
		"add Zed hidden=yes agility=2",
		"order Ann Bear Cleo",
		"start",
	)
	var p struct{ Token string }
	e.send(t, "POST", "/api/encounters/"+enc.ID+"/players", enc.Token, map[string]string{"combatant": "Ann"}).decode(t, &p)

	type answer struct {
		Odds *fray.Odds `json:"odds"`
	}
	var player [][]byte // every byte the player got
	var shown []fray.Odds
	ask := func(line string, want int) {
		t.Helper()
		r := e.command(t, enc.ID, p.Token, line, d.Revision)
		player = append(player, r.Body)
		if r.Status != want {
			t.Fatalf("player %s: %d %s, want %d", line, r.Status, r.Body, want)
		}
		if want == http.StatusOK {
			var a answer
			r.decode(t, &a)
			if a.Odds == nil {
				t.Fatalf("player %s: no odds in %s", line, r.Body)
			}
			shown = append(shown, *a.Odds)
		} else if want == http.StatusForbidden && !strings.Contains(string(r.Body), "The GM keeps the odds") {
			t.Errorf("player %s: %s, want a refusal saying the GM keeps the odds", line, r.Body)
		}
	}
	var kept []fray.Odds // the GM's odds of the rolls refused to the player
	gm := func(line string) fray.Odds {
		t.Helper()
		r := e.command(t, enc.ID, enc.Token, line, d.Revision)
		var a answer
		r.decode(t, &a)
		if r.Status != http.StatusOK || a.Odds == nil {
			t.Fatalf("GM %s: %d %s", line, r.Status, r.Body)
		}
		return *a.Odds
	}

	// Among PCs alone: 2d6 + 5 against 12 fails on 2–6, 15 of 36; 2d6 + 7
	// against 8 + Cleo's Agility 6 = 14 misses on 2–6 too; Willpower 4
	// against 8 + Cleo's 3 = 11 fails on 2–6.
	for _, l := range []string{"odds check Ann agility difficulty=12", "odds attack Ann Cleo with=claw rank=5 range=close", "odds distract Ann Cleo"} {
		ask(l, http.StatusOK)
		if got := shown[len(shown)-1]; got.Bands[0].P != 15.0/36 || got.Target == 0 {
			t.Errorf("%s: %+v, want the first band 15/36 and a target", l, got)
		}
	}
	for _, l := range []string{"odds attack Ann Bear with=claw rank=5 range=close", "odds distract Ann Bear"} {
		ask(l, http.StatusForbidden)
		kept = append(kept, gm(l))
	}
	ask("odds attack Ann Zed with=claw rank=5 range=close", http.StatusNotFound)

	// Bear hits Ann with his maul (6 and 6): her block answers it.
	d = e.play(t, enc.ID, enc.Token, d.Revision, "next Ann", "attack Bear Ann with=maul rank=11 range=close dice=6,6")
	for _, l := range []string{"odds block Ann", "odds dodge Ann"} {
		ask(l, http.StatusForbidden)
		kept = append(kept, gm(l))
	}
	r := e.do(t, "GET", "/api/encounters/"+enc.ID, p.Token, nil)
	player = append(player, r.Body)
	// The player's stream from the start: Bear's attack is there, with
	// its band but not his Prowess 8 nor his dice.
	from0 := e.open(t, enc.ID, p.Token, "0")
	for {
		if _, c := from0.next(t); c.Revision == d.Revision {
			break
		}
	}
	from0.close()
	stream := from0.Raw.String()
	player = append(player, []byte(stream))
	if !strings.Contains(stream, `"type":"bpb.task"`) || !strings.Contains(stream, `"band":"extreme"`) {
		t.Errorf("the player's stream lacks Bear's attack and its band:\n%s", stream)
	}

	// The GM's targets, worked out above.
	for i, want := range []int{17, 15, 19, 19} {
		if kept[i].Target != want {
			t.Errorf("the GM's %s: target %d, want %d", kept[i].Command, kept[i].Target, want)
		}
	}
	// What only the GM's odds hold: their targets and every chance (other
	// than 0 and 1) that no odds the player got hold too.
	allowed := map[string]bool{"0": true, "1": true}
	for _, o := range shown {
		allowed[strconv.Itoa(o.Target)] = true
		for _, b := range o.Bands {
			allowed[ftoa(b.P)] = true
		}
		for _, pt := range o.Dist {
			allowed[ftoa(pt.P)] = true
		}
	}
	needles := []string{`"prowess":8`, `"agility":9`, `"willpower":7`, `"endurance":37`, `"rank":11`, `"value":8`, `"for":"Bear"`, `"zed"`}
	for _, o := range kept {
		if allowed[strconv.Itoa(o.Target)] {
			t.Fatalf("the GM's %s has the target %d of a roll the player may see", o.Command, o.Target)
		}
		needles = append(needles, `"target":`+strconv.Itoa(o.Target), "against "+strconv.Itoa(o.Target))
		for _, b := range o.Bands {
			if s := ftoa(b.P); !allowed[s] {
				needles = append(needles, s)
			}
		}
	}
	if len(needles) < 12 {
		t.Fatalf("too few numbers to look for: %q", needles)
	}
	for i, b := range player {
		low := bytes.ToLower(b)
		for _, n := range needles {
			if bytes.Contains(low, []byte(strings.ToLower(n))) {
				t.Errorf("answer %d holds %s: %s", i, n, b)
			}
		}
	}
}

// ftoa formats a probability as JSON does.
func ftoa(p float64) string {
	b, _ := json.Marshal(p)
	return string(b)
}

// BenchmarkRedactPlayer redacts one change of ten events, half of them
// rolls against NPCs, for a player of an encounter of ten combatants
// (one hidden): the work each player's stream does per change.
func BenchmarkRedactPlayer(b *testing.B) {
	enc := &fray.Encounter{}
	for i := range 10 {
		side := fray.SidePC
		if i%2 == 1 {
			side = fray.SideNPC
		}
		enc.Combatants = append(enc.Combatants, &fray.Combatant{ID: engine.NewCombatantID(0, i, 0), Name: "Fighter " + strconv.Itoa(i), Side: side, Hidden: i == 9, Stats: map[string]int{"agility": i}})
	}
	v := fray.View{Combatants: enc.CombatantList()}
	secret := web.NewSight(systems["bpb"](), enc)
	var evs []fray.Event
	for i := range 10 {
		d := map[string]any{"name": "Fighter " + strconv.Itoa(i%9), "target": "Fighter " + strconv.Itoa((i+1)%9), "roll": "attack", "value": 7, "difficulty": 15, "total": 16, "band": "hit"}
		ev, err := fray.NewEvent("bpb.task", d, fray.Roll{For: "Fighter " + strconv.Itoa(i%9), Expr: "2d6", Dice: []int{4, 5}, Total: 9})
		if err != nil {
			b.Fatal(err)
		}
		ev.Seq, ev.Odds = i+1, &fray.Odds{Target: 15}
		ev.About = []fray.CombatantID{enc.Combatants[i%9].ID, enc.Combatants[(i+1)%9].ID}
		evs = append(evs, ev)
	}
	for b.Loop() {
		web.Redact(fray.RolePlayer, secret, v, evs)
	}
}
