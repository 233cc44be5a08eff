package web

// These tests are inside the package, as work_test.go's are: the pool's
// trace shows that a costly named roll's odds go to a worker while cheap
// ones are answered at once.

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"fray"
	"fray/inmem"
	"fray/rules/bpb"
	"fray/rules/cinematic"
	"fray/rules/kit"
	"fray/rules/pp"
	"fray/rules/queue"
	"fray/rules/vv"
)

// namedSystems are the systems cmd/fray serves.
var namedSystems = map[string]func() fray.System{
	bpb.ID:       func() fray.System { return bpb.New() },
	queue.ID:     func() fray.System { return queue.New() },
	vv.ID:        func() fray.System { return vv.New() },
	cinematic.ID: func() fray.System { return cinematic.New() },
	pp.ID:        func() fray.System { return pp.New() },
}

// namedServer starts a real server running namedSystems, with the default
// limits but no rate limit, changed by change.
func namedServer(t *testing.T, change func(*Limits)) (*Server, string) {
	t.Helper()
	lim := DefaultLimits()
	lim.Rate = 0
	if change != nil {
		change(&lim)
	}
	srv, err := New(Config{Store: inmem.New(), Systems: namedSystems, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		srv.Close()
	})
	return srv, hs.URL
}

// declared returns the named roll of the system id.
func declared(t *testing.T, id string) kit.NamedRoll {
	t.Helper()
	nr, ok := namedSystems[id]().(kit.NamedRoller)
	if !ok {
		t.Fatalf("%s offers no named roll", id)
	}
	return nr.NamedRoll()
}

// rollNamedBody is the body of POST /api/roll for a named roll; count 0
// for none.
func rollNamedBody(t *testing.T, id string, args []string, seed uint64, count int) []byte {
	t.Helper()
	req := map[string]any{"rules": id, "args": args, "seed": seed}
	if count > 0 {
		req["count"] = count
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// probNamedURL is the URL of GET /api/prob for a named roll.
func probNamedURL(base, id string, args []string) string {
	q := url.Values{"rules": {id}, "arg": args}
	return base + "/api/prob?" + q.Encode()
}

// tagged returns what `fray roll --json --rules id` (or prob) prints for
// objs, as the server answers it: one object, or an array of them.
func tagged(t *testing.T, id string, objs []any, array bool) string {
	t.Helper()
	lines := make([]json.RawMessage, len(objs))
	for i, o := range objs {
		b, err := kit.TaggedJSON(id, o)
		if err != nil {
			t.Fatal(err)
		}
		lines[i] = b
	}
	if !array {
		return string(lines[0])
	}
	b, err := json.Marshal(lines)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNamedRollOverHTTP checks POST /api/roll with rules against the
// system's NamedRoll called directly with the same seeded source (the
// source `fray roll --seed N` uses), one roll and three, and one roll of
// each system with dice given at the table against what the rules make of
// them, worked out by hand.
func TestNamedRollOverHTTP(t *testing.T) {
	_, base := namedServer(t, nil)
	ctx := t.Context()
	tests := []struct {
		id     string
		seeded []string // arguments of a seeded roll
		// A roll with the dice given, and what it must come to.
		physical []string
		key      string // "total" or "successes"
		value    float64
		band     string
		dice     int
	}{
		// 6 + 5 + 4 = 15, three over 12: extreme in mode open.
		{"bpb", []string{"value=5", "difficulty=12"}, []string{"value=4", "difficulty=12", "faces=6,5"}, "total", 15, "extreme", 2},
		// 6 + 7 = 13 against 3 + 5 = 8: a hit, levels at 9, 11 and 13.
		{"cinematic", []string{"value=7", "vs=5"}, []string{"value=7", "vs=5", "roll=6", "vs-roll=3"}, "total", 13, "hit, 3 success levels", 2},
		// A 20 always misses, and goes astray.
		{"vv", []string{"chance=12"}, []string{"chance=12", "roll=20"}, "total", 20, "astray", 1},
		// 2s, 4s 1 and 6s 2: 3 + 0 + 4 = 7 against 6 set aside for 6, net +1.
		{"pp", []string{"dice=8", "vs=6", "vs-explode=yes"}, []string{"dice=12", "faces=1,2,2,2,3,3,3,5,5,5,6,6", "vs=12", "vs-auto=all"}, "successes", 7, "actor narrates, opponent embellishes", 12},
		// Heavy: the higher of Red 2 and Black 6; Black 6 is special.
		{"queue", []string{"weapon=medium"}, []string{"weapon=heavy", "red=2", "black=6"}, "total", 6, "6 damage + special", 2},
	}
	for _, tt := range tests {
		nr := declared(t, tt.id)
		maker, err := nr.MakeRoll(tt.id, tt.seeded)
		if err != nil {
			t.Fatalf("%s: %v", tt.id, err)
		}
		src := RollSource(7)
		var objs []any
		for range 4 {
			obj, _, err := maker.Make(src)
			if err != nil {
				t.Fatalf("%s: %v", tt.id, err)
			}
			objs = append(objs, obj)
		}
		a := call(ctx, "POST", base+"/api/roll", rollNamedBody(t, tt.id, tt.seeded, 7, 0))
		if want := tagged(t, tt.id, objs[:1], false); a.status != http.StatusOK || strings.TrimSpace(string(a.body)) != want {
			t.Errorf("%s seeded: %v\nwant %s", tt.id, a, want)
		}
		a = call(ctx, "POST", base+"/api/roll", rollNamedBody(t, tt.id, tt.seeded, 7, 3))
		if want := tagged(t, tt.id, objs[:3], true); a.status != http.StatusOK || strings.TrimSpace(string(a.body)) != want {
			t.Errorf("%s seeded, count 3: %v\nwant %s", tt.id, a, want)
		}

		a = call(ctx, "POST", base+"/api/roll", rollNamedBody(t, tt.id, tt.physical, 1, 0))
		var got map[string]any
		if err := json.Unmarshal(a.body, &got); a.status != http.StatusOK || err != nil {
			t.Errorf("%s with dice: %v", tt.id, a)
			continue
		}
		dice, _ := got["dice"].([]any)
		if got["rules"] != tt.id || got[tt.key] != tt.value || got["band"] != tt.band || len(dice) != tt.dice {
			t.Errorf("%s with dice: %s; want rules %q, %s %v, band %q, %d dice", tt.id, a.body, tt.id, tt.key, tt.value, tt.band, tt.dice)
		}
		maker, err = nr.MakeRoll(tt.id, tt.physical)
		if err != nil {
			t.Fatalf("%s: %v", tt.id, err)
		}
		obj, _, err := maker.Make(RollSource(1))
		if err != nil {
			t.Fatalf("%s: %v", tt.id, err)
		}
		if want := tagged(t, tt.id, []any{obj}, false); strings.TrimSpace(string(a.body)) != want {
			t.Errorf("%s with dice: %s\nwant %s", tt.id, a.body, want)
		}
	}
}

// TestNamedProbOverHTTP checks GET /api/prob with rules against the
// system's NamedRoll called directly, and the odds of one band of each
// against the rules, worked out by hand.
func TestNamedProbOverHTTP(t *testing.T) {
	_, base := namedServer(t, nil)
	ctx := t.Context()
	tests := []struct {
		id    string
		args  []string
		lines int
		band  string
		p     float64 // of band, in the first object
	}{
		// 2d6 + 4 fails under 12 on 2 to 7: 21 of 36.
		{"bpb", []string{"value=4", "difficulty=12"}, 1, "failure", 21.0 / 36},
		// D10 + 7 fails only on a 1.
		{"cinematic", []string{"value=7"}, 1, "failure", 0.1},
		// 1 to 12 of 20 hit.
		{"vv", []string{"chance=12"}, 1, "hit", 0.6},
		// Two dice against 1 net +3 on two 6s only.
		{"pp", []string{"dice=2", "threshold=1"}, 1, "actor narrates", 1.0 / 36},
		// Without a weapon, the three weights; light deals 1 unless both dice are 2 or more.
		{"queue", nil, 3, "1 damage", 11.0 / 36},
	}
	for _, tt := range tests {
		objs, _, err := declared(t, tt.id).Odds(tt.id, tt.args)
		if err != nil {
			t.Fatalf("%s: %v", tt.id, err)
		}
		a := call(ctx, "GET", probNamedURL(base, tt.id, tt.args), nil)
		if want := tagged(t, tt.id, objs, true); a.status != http.StatusOK || strings.TrimSpace(string(a.body)) != want {
			t.Errorf("%s: %v\nwant %s", tt.id, a, want)
			continue
		}
		var got []struct {
			Rules string `json:"rules"`
			Bands []struct {
				Band string  `json:"band"`
				P    float64 `json:"p"`
			} `json:"bands"`
		}
		if err := json.Unmarshal(a.body, &got); err != nil || len(got) != tt.lines {
			t.Errorf("%s: %d objects (%v), want %d", tt.id, len(got), err, tt.lines)
			continue
		}
		i := slices.IndexFunc(got[0].Bands, func(b struct {
			Band string  `json:"band"`
			P    float64 `json:"p"`
		}) bool {
			return b.Band == tt.band
		})
		if got[0].Rules != tt.id || i < 0 || math.Abs(got[0].Bands[i].P-tt.p) > 1e-12 {
			t.Errorf("%s: %s; want rules %q and P(%s) = %v", tt.id, a.body, tt.id, tt.band, tt.p)
		}
	}
}

// TestNamedRollRefused checks the requests for a named roll that are
// refused, each with its status, code and a message naming what is
// wrong: the words of `fray roll --rules` where it has them.
func TestNamedRollRefused(t *testing.T) {
	_, base := namedServer(t, func(l *Limits) { l.MaxRequestDice = 50 })
	ctx := t.Context()
	roll := func(body string) func() answer {
		return func() answer { return call(ctx, "POST", base+"/api/roll", []byte(body)) }
	}
	prob := func(query string) func() answer {
		return func() answer { return call(ctx, "GET", base+"/api/prob?"+query, nil) }
	}
	tests := []struct {
		name   string
		send   func() answer
		status int
		code   string
		want   string
	}{
		{"unknown key", roll(`{"rules":"bpb","args":["value=3","diff=12"]}`), 400, fray.EINVALID, `unknown key "diff": bpb takes value, difficulty, vs, expertise, mode, faces or roll`},
		{"unknown key, odds", prob("rules=bpb&arg=value=3&arg=diff=12"), 400, fray.EINVALID, `unknown key "diff": bpb takes value, difficulty, vs, expertise or mode`},
		{"dice in the odds", prob("rules=bpb&arg=value=3&arg=difficulty=12&arg=faces=1,2"), 400, fray.EINVALID, `key "faces" gives dice rolled at the table`},
		{"key twice", roll(`{"rules":"vv","args":["chance=3","chance=4"]}`), 400, fray.EINVALID, "chance= is given twice"},
		{"not key=value", roll(`{"rules":"vv","args":["12"]}`), 400, fray.EINVALID, `argument "12": want key=value`},
		{"bad value", roll(`{"rules":"bpb","args":["value=high","difficulty=12"]}`), 400, fray.EINVALID, "value=high: want a whole number from -1000 to 1000"},
		{"key without its own", prob("rules=pp&arg=dice=4&arg=vs-auto=all"), 400, fray.EINVALID, "vs-auto= is for the opponent: it needs vs="},
		{"unknown rules", roll(`{"rules":"dnd"}`), 400, fray.EINVALID, `unknown rules "dnd": want bpb, cinematic, pp, queue or vv`},
		{"unknown rules, odds", prob("rules=dnd&arg=value=3"), 400, fray.EINVALID, `unknown rules "dnd"`},
		{"args without rules", roll(`{"args":["value=3"]}`), 400, fray.EINVALID, "The rules are missing"},
		{"arg without rules", prob("arg=value=3"), 400, fray.EINVALID, "The rules are missing"},
		{"expr and rules", roll(`{"expr":"2d6","rules":"bpb","args":["value=3"]}`), 400, fray.EINVALID, "both a dice expression and rules"},
		{"expr and rules, odds", prob("expr=2d6&rules=bpb"), 400, fray.EINVALID, "both a dice expression and rules"},
		{"count with dice given", roll(`{"rules":"vv","args":["chance=3","roll=5"],"count":2}`), 400, fray.EINVALID, "count 2: dice rolled at the table make one roll"},
		{"count past MaxRolls", roll(`{"rules":"vv","args":["chance=3"],"count":101}`), 400, fray.EINVALID, "count must be from 1 to 100 (MaxRolls), not 101."},
		// Each roll lists the 20 dice twice (the actor's, and the roll's).
		{"MaxRequestDice", roll(`{"rules":"pp","args":["dice=20"],"count":2}`), 413, fray.ETOOLARGE, "The rolls came to 80 dice after 2 of 2 rolls"},
		{"pool past dice.MaxDice", prob("rules=pp&arg=dice=1001"), 400, fray.EINVALID, "dice=1001: want a whole number from 0 to 1000"},
	}
	for _, tt := range tests {
		a := tt.send()
		var e errorBody
		json.Unmarshal(a.body, &e)
		if a.status != tt.status || e.Error.Code != tt.code || !strings.Contains(e.Error.Message, tt.want) {
			t.Errorf("%s: %v; want %d %s with %q", tt.name, a, tt.status, tt.code, tt.want)
		}
	}
	// Within the budget: one roll of 20 dice lists 40.
	if a := roll(`{"rules":"pp","args":["dice=20"],"count":1}`)(); a.status != http.StatusOK {
		t.Errorf("one roll of 20 dice: %v", a)
	}
}

// TestNamedProbCostlyInThePool checks that a named roll whose odds are
// costly (pp's) is worked out by a worker, refused 503 when the pool is
// full, while a cheap one (bpb's) is answered at once.
func TestNamedProbCostlyInThePool(t *testing.T) {
	srv, base := namedServer(t, func(l *Limits) { l.Workers, l.WorkQueue, l.MaxClientWork = 1, 0, 0 })
	h := holdPool(t, srv)
	ctx := t.Context()
	get := func(id string, args ...string) answer { return call(ctx, "GET", probNamedURL(base, id, args), nil) }
	first := async(func() answer { return get("pp", "dice=30", "explode=yes", "vs=20") })
	h.next(t, "start")
	if a := get("pp", "dice=3"); a.status != http.StatusServiceUnavailable || a.code() != EBUSY {
		t.Errorf("pp odds with the pool full: %v; want 503 busy", a)
	}
	if a := get("bpb", "value=4", "difficulty=12"); a.status != http.StatusOK {
		t.Errorf("bpb odds with the pool full: %v", a)
	}
	h.release()
	if a := <-first; a.status != http.StatusOK || !strings.HasPrefix(string(a.body), `[{"rules":"pp",`) {
		t.Fatalf("the held odds: %v", a)
	}
}

// TestSystemsListNamedRolls checks that GET /api/systems gives each
// system's named roll as it declares it.
func TestSystemsListNamedRolls(t *testing.T) {
	_, base := namedServer(t, nil)
	a := call(context.Background(), "GET", base+"/api/systems", nil)
	var got systemsOut
	if err := json.Unmarshal(a.body, &got); a.status != http.StatusOK || err != nil {
		t.Fatalf("%v: %v", a, err)
	}
	if len(got.Systems) != len(namedSystems) {
		t.Fatalf("%d systems, want %d", len(got.Systems), len(namedSystems))
	}
	for _, s := range got.Systems {
		nr := declared(t, s.ID)
		if s.Roll == nil || s.Roll.Title != nr.Title || !slices.Equal(s.Roll.Examples, nr.Examples) || len(s.Roll.Keys) != len(nr.Keys) {
			t.Errorf("%s: roll %+v, want %q with %d keys", s.ID, s.Roll, nr.Title, len(nr.Keys))
			continue
		}
		for i, k := range nr.Keys {
			want := rollKeyOut{Name: k.Name, Value: k.Value, Help: k.Help, Along: k.Along, RollOnly: k.RollOnly}
			if s.Roll.Keys[i] != want || want.Help == "" {
				t.Errorf("%s: key %d is %+v, want %+v", s.ID, i, s.Roll.Keys[i], want)
			}
		}
	}
}
