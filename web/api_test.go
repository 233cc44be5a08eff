package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"fray"
	"fray/web"
)

func TestCreateAddStartNext(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "Docks")
	if enc.Revision != 0 || enc.Rules != "bpb" || enc.Name != "Docks" || enc.Token == "" || enc.ID == "" {
		t.Fatalf("created %+v", enc)
	}
	d := e.play(t, enc.ID, enc.Token, 0,
		"add Blueshift side=pc agility=3",
		`add "Brigand #2" side=npc`,
	)
	// The object form, with options.
	r := e.send(t, "POST", "/api/encounters/"+enc.ID+"/commands", enc.Token, map[string]any{
		"name": "add", "args": []string{"Monolith"}, "options": map[string]string{"side": "pc"}, "revision": d.Revision,
	})
	if r.Status != http.StatusOK {
		t.Fatalf("object form: %d %s", r.Status, r.Body)
	}
	d = done{}
	r.decode(t, &d)
	d = e.play(t, enc.ID, enc.Token, d.Revision, "order Blueshift Monolith \"Brigand #2\"", "start")
	if !d.View.Started || d.View.Current != "Blueshift" {
		t.Fatalf("after start: %+v", d.View)
	}
	d = e.play(t, enc.ID, enc.Token, d.Revision, "next")
	if d.View.Current != "Monolith" || len(d.Events) == 0 || d.Revision != 7 && d.Revision < 6 {
		t.Fatalf("after next: revision %d, events %d, current %q", d.Revision, len(d.Events), d.View.Current)
	}

	// GET gives the same view and revision, with the caller's role.
	var got struct {
		ID       string    `json:"id"`
		Revision int       `json:"revision"`
		Role     string    `json:"role"`
		View     fray.View `json:"view"`
	}
	e.do(t, "GET", "/api/encounters/"+enc.ID, enc.Token, nil).decode(t, &got)
	if got.Revision != d.Revision || got.Role != fray.RoleGM || got.View.Current != "Monolith" {
		t.Fatalf("get: %+v", got)
	}
	// The list holds it for its GM token, and skips an unknown one.
	var list struct {
		Encounters []struct {
			ID       string `json:"id"`
			Revision int    `json:"revision"`
		} `json:"encounters"`
	}
	e.do(t, "GET", "/api/encounters", "nonsense, "+enc.Token, nil).decode(t, &list)
	if len(list.Encounters) != 1 || list.Encounters[0].ID != enc.ID || list.Encounters[0].Revision != d.Revision {
		t.Fatalf("list: %+v", list)
	}
	if n := checkLog(t, e.log(t, enc.ID, enc.Token)); n != d.Revision {
		t.Fatalf("log holds %d events, revision %d", n, d.Revision)
	}

	// A player acts for their own character only.
	var p struct {
		Token, Combatant, Link string
	}
	pr := e.send(t, "POST", "/api/encounters/"+enc.ID+"/players", enc.Token, map[string]string{"combatant": "monolith"})
	if pr.Status != http.StatusCreated {
		t.Fatalf("players: %d %s", pr.Status, pr.Body)
	}
	pr.decode(t, &p)
	if p.Combatant != "Monolith" || p.Link != "/play/"+enc.ID+"#token="+p.Token {
		t.Fatalf("player: %+v", p)
	}
	if r := e.command(t, enc.ID, p.Token, "next", d.Revision); r.Status != http.StatusOK {
		t.Fatalf("player next: %d %s", r.Status, r.Body)
	}
}

// TestImportExport takes a log back as a new encounter with the same state.
func TestImportExport(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "queue", "")
	d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc wits=2", "add Bear wits=1", "start", "next", "undo")
	log := e.log(t, enc.ID, enc.Token)
	r := e.do(t, "POST", "/api/encounters/import?name=Again", "", []byte(log))
	if r.Status != http.StatusCreated {
		t.Fatalf("import: %d %s", r.Status, r.Body)
	}
	var c created
	r.decode(t, &c)
	if c.Revision != d.Revision || c.Name != "Again" || c.Rules != "queue" {
		t.Fatalf("imported %+v, want revision %d", c, d.Revision)
	}
	again := e.log(t, c.ID, c.Token)
	if again != log {
		t.Fatalf("the imported log differs:\n%s\nwant\n%s", again, log)
	}
	var got struct {
		View fray.View `json:"view"`
	}
	e.do(t, "GET", "/api/encounters/"+c.ID, c.Token, nil).decode(t, &got)
	a, _ := json.Marshal(got.View)
	b, _ := json.Marshal(d.View)
	if !bytes.Equal(a, b) {
		t.Fatalf("imported view %s, want %s", a, b)
	}
}

// TestRace: two writers at one revision; one wins, the other gets 409
// with the current revision, and the log has no gap or duplicate.
func TestRace(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "queue", "")
	d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc wits=2", "add Bear wits=1")
	for round := range 20 {
		var wg sync.WaitGroup
		replies := make([]reply, 2)
		for i := range replies {
			wg.Go(func() {
				replies[i] = e.command(t, enc.ID, enc.Token, "add W"+string(rune('a'+i))+strings.Repeat("x", round), d.Revision)
			})
		}
		wg.Wait()
		ok, conflict := 0, 0
		for _, r := range replies {
			switch r.Status {
			case http.StatusOK:
				ok++
				d = done{}
				r.decode(t, &d)
			case http.StatusConflict:
				conflict++
				var body struct {
					Revision int `json:"revision"`
				}
				r.decode(t, &body)
				if r.code() != fray.ECONFLICT || body.Revision < d.Revision {
					t.Fatalf("409 body %s", r.Body)
				}
			default:
				t.Fatalf("status %d: %s", r.Status, r.Body)
			}
		}
		if ok != 1 || conflict != 1 {
			t.Fatalf("round %d: %d won, %d conflicts", round, ok, conflict)
		}
	}
	if n := checkLog(t, e.log(t, enc.ID, enc.Token)); n != d.Revision || n != 22 {
		t.Fatalf("log holds %d events, revision %d, want 22", n, d.Revision)
	}
}

// TestBadRequests: each refusal has the right status and changes nothing.
func TestBadRequests(t *testing.T) {
	e := start(t, func(c *web.Config) { c.Limits.MaxCombatants = 3 })
	enc := e.create(t, "bpb", "")
	other := e.create(t, "bpb", "")
	d := e.play(t, enc.ID, enc.Token, 0, "add Ann side=pc", "add Bear", "add Cat side=pc")
	pr := e.send(t, "POST", "/api/encounters/"+enc.ID+"/players", enc.Token, map[string]string{"combatant": "Ann"})
	var p struct{ Token string }
	pr.decode(t, &p)
	cmds := "/api/encounters/" + enc.ID + "/commands"
	line := func(l string, rev int) []byte {
		b, _ := json.Marshal(map[string]any{"command": l, "revision": rev})
		return b
	}
	rev := d.Revision
	tests := []struct {
		name         string
		method, path string
		token        string
		body         []byte
		status       int
		code         string
	}{
		{"malformed JSON", "POST", cmds, enc.Token, []byte(`{"command":"next",`), 400, fray.EINVALID},
		{"not an object", "POST", cmds, enc.Token, []byte(`[1,2]`), 400, fray.EINVALID},
		{"unknown field", "POST", cmds, enc.Token, []byte(`{"command":"next","revision":3,"x":1}`), 400, fray.EINVALID},
		{"two values", "POST", cmds, enc.Token, []byte(`{"command":"start","revision":3}{}`), 400, fray.EINVALID},
		{"no revision", "POST", cmds, enc.Token, []byte(`{"command":"start"}`), 400, fray.EINVALID},
		{"empty body", "POST", cmds, enc.Token, []byte(``), 400, fray.EINVALID},
		{"both forms", "POST", cmds, enc.Token, []byte(`{"command":"start","name":"start","revision":3}`), 400, fray.EINVALID},
		{"unknown command", "POST", cmds, enc.Token, line("frobnicate Ann", rev), 400, fray.EINVALID},
		{"bad quoting", "POST", cmds, enc.Token, line(`add "Ann`, rev), 400, fray.EINVALID},
		{"two lines", "POST", cmds, enc.Token, line("start\nnext", rev), 400, fray.EINVALID},
		{"huge body", "POST", cmds, enc.Token, line("add "+strings.Repeat("A", 70<<10), rev), 413, fray.ETOOLARGE},
		{"long line", "POST", cmds, enc.Token, line("add "+strings.Repeat("A", 5000), rev), 413, fray.ETOOLARGE},
		{"too many combatants", "POST", cmds, enc.Token, line("add Dog", rev), 413, fray.ETOOLARGE},
		{"stale revision", "POST", cmds, enc.Token, line("start", rev-1), 409, fray.ECONFLICT},
		{"future revision", "POST", cmds, enc.Token, line("start", rev+1), 409, fray.ECONFLICT},
		{"unknown encounter", "POST", "/api/encounters/nope/commands", enc.Token, line("start", rev), 403, fray.EFORBIDDEN},
		{"bad encounter id", "GET", "/api/encounters/a.b", enc.Token, nil, 403, fray.EFORBIDDEN},
		{"no token", "POST", cmds, "", line("start", rev), 401, web.EUNAUTHORIZED},
		{"wrong token", "POST", cmds, "not-a-token", line("start", rev), 401, web.EUNAUTHORIZED},
		{"other encounter's token", "POST", cmds, other.Token, line("start", rev), 403, fray.EFORBIDDEN},
		{"player: GM command", "POST", cmds, p.Token, line("start", rev), 403, fray.EFORBIDDEN},
		{"player: undo", "POST", cmds, p.Token, line("undo", rev), 403, fray.EFORBIDDEN},
		{"player: add", "POST", cmds, p.Token, line("add Eve", rev), 403, fray.EFORBIDDEN},
		{"player: for another", "POST", cmds, p.Token, line("initiative Cat 6,3", rev), 403, fray.EFORBIDDEN},
		{"player: take without a name", "POST", cmds, p.Token, line("take", rev), 403, fray.EFORBIDDEN},
		{"player: invite", "POST", "/api/encounters/" + enc.ID + "/players", p.Token, []byte(`{"combatant":"Ann"}`), 403, fray.EFORBIDDEN},
		{"player: odds of a GM command", "POST", cmds, p.Token, line("odds add Eve", rev), 403, fray.EFORBIDDEN},
		{"odds of no roll", "POST", cmds, enc.Token, line("odds next", rev), 400, fray.EINVALID},
		{"player: log", "GET", "/api/encounters/" + enc.ID + "/log", p.Token, nil, 403, fray.EFORBIDDEN},
		{"invite nobody", "POST", "/api/encounters/" + enc.ID + "/players", enc.Token, []byte(`{"combatant":"Zed"}`), 404, fray.ENOTFOUND},
		{"unknown rules", "POST", "/api/encounters", "", []byte(`{"rules":"dnd"}`), 400, fray.EINVALID},
		{"long name", "POST", "/api/encounters", "", []byte(`{"rules":"bpb","name":"` + strings.Repeat("n", 300) + `"}`), 413, fray.ETOOLARGE},
		{"import: not a log", "POST", "/api/encounters/import", "", []byte("hello\n"), 400, fray.EINVALID},
		{"roll: bad dice", "POST", "/api/roll", "", []byte(`{"expr":"2d"}`), 400, fray.EINVALID},
		{"roll: too many dice", "POST", "/api/roll", "", []byte(`{"expr":"100000000d6"}`), 413, fray.ETOOLARGE},
		{"prob: no expr", "GET", "/api/prob", "", nil, 400, fray.EINVALID},
	}
	before := e.log(t, enc.ID, enc.Token)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(t, tc.method, tc.path, tc.token, tc.body)
			if r.Status != tc.status || r.code() != tc.code {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Body, tc.status, tc.code)
			}
			if after := e.log(t, enc.ID, enc.Token); after != before {
				t.Fatalf("the log changed:\n%s", after)
			}
		})
	}
	// The player may enter their own initiative once the GM lets players
	// enter their dice, as faces (dice=).
	d = e.play(t, enc.ID, enc.Token, rev, "set player_dice=yes")
	if r := e.command(t, enc.ID, p.Token, "initiative Ann dice=6,3", d.Revision); r.Status != http.StatusOK {
		t.Fatalf("player for themselves: %d %s", r.Status, r.Body)
	}
}

// TestUnknownEncounter: a GM token of a deleted or foreign encounter
// cannot reach an encounter that does not exist.
func TestUnknownEncounter(t *testing.T) {
	e := start(t, nil)
	r := e.do(t, "GET", "/api/encounters/nope", "", nil)
	if r.Status != http.StatusUnauthorized {
		t.Fatalf("got %d %s", r.Status, r.Body)
	}
}

func TestRateLimit(t *testing.T) {
	e := start(t, func(c *web.Config) { c.Limits.Rate = 1; c.Limits.Burst = 3 })
	enc := e.create(t, "bpb", "")
	var last reply
	for range 5 {
		last = e.do(t, "GET", "/api/encounters/"+enc.ID, enc.Token, nil)
	}
	if last.Status != http.StatusTooManyRequests || last.code() != web.ERATELIMITED || last.Header.Get("Retry-After") == "" {
		t.Fatalf("got %d %s (Retry-After %q)", last.Status, last.Body, last.Header.Get("Retry-After"))
	}
}

func TestStatus(t *testing.T) {
	for code, want := range map[string]int{
		fray.EINVALID: 400, web.EUNAUTHORIZED: 401, fray.EFORBIDDEN: 403, fray.ENOTFOUND: 404,
		fray.ECONFLICT: 409, fray.ETOOLARGE: 413, web.ERATELIMITED: 429, fray.EINTERNAL: 500, "other": 500,
	} {
		if got := web.Status(code); got != want {
			t.Errorf("Status(%q) = %d, want %d", code, got, want)
		}
	}
}

func TestRollAndProb(t *testing.T) {
	e := start(t, nil)
	r := e.send(t, "POST", "/api/roll", "", map[string]any{"expr": "4d6kh3", "seed": 7})
	var one struct {
		Expr  string `json:"expr"`
		Total int    `json:"total"`
	}
	r.decode(t, &one)
	if r.Status != 200 || one.Expr != "4d6kh3" || one.Total < 3 || one.Total > 18 {
		t.Fatalf("roll: %d %s", r.Status, r.Body)
	}
	again := e.send(t, "POST", "/api/roll", "", map[string]any{"expr": "4d6kh3", "seed": 7})
	if !bytes.Equal(again.Body, r.Body) {
		t.Fatalf("a seed rolled differently: %s, then %s", r.Body, again.Body)
	}
	var many []json.RawMessage
	e.send(t, "POST", "/api/roll", "", map[string]any{"expr": "d6", "count": 3}).decode(t, &many)
	if len(many) != 3 {
		t.Fatalf("count 3 gave %d", len(many))
	}
	var p web.ProbResult
	e.do(t, "GET", "/api/prob?expr=2d6", "", nil).decode(t, &p)
	if p.Expr != "2d6" || p.Min != 2 || p.Max != 12 || len(p.Dist) != 11 || p.Dist[5][0] != 7 {
		t.Fatalf("prob: %+v", p)
	}
}
