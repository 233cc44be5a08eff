package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// These tests add the duel of toysys_test.go to the list of systems
// (systemList) and nothing else, then play it, roll its named roll and
// serve it: a sixth system needs its own package and one line in that
// list.

// withToy adds the duel to systemList for the length of the test, as a
// line in the list would. What cmd/fray works out from the list when it
// starts (systems, rulesSpecs, rulesExamples) is worked out again, as it
// would be at the start.
func withToy(t *testing.T) {
	list, byID, specs, examples := systemList, systems, rulesSpecs, rulesExamples
	t.Cleanup(func() { systemList, systems, rulesSpecs, rulesExamples = list, byID, specs, examples })
	systemList = append(slices.Clone(list), newToy)
	systems = maps.Clone(byID)
	systems[toyID] = newToy
	rulesSpecs = newRulesSpecs(systemList)
	rulesExamples = newRulesExamples(rulesSpecs)
}

// toyRunFray runs the command line and returns its exit code and what it
// printed on each stream.
func toyRunFray(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// toyWriteFile writes text to name in a new temporary directory and returns
// its path.
func toyWriteFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// toyDuel is a duel played with the table's dice, so that every line of
// it is the same on every run.
const toyDuel = `add Ann side=pc vigor=5
add Bob
help attack
start
odds attack Bob
attack Bob dice=4
next
attack Ann roll=2
next
show
`

// Every help that lists the systems lists the one added to systemList.
func TestToyHelpNamesIt(t *testing.T) {
	withToy(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help"}, "run an encounter by the rules of bpb, cinematic, pp, queue, toy or vv"},
		{[]string{"play", "--help"}, "Systems: bpb, cinematic, pp, queue, toy, vv."},
		{[]string{"roll", "--help"}, "toy — Toy Duel damage: the die of an attack, 1d6 or 1d8"},
		{[]string{"prob", "--help"}, "fray roll --rules toy die=d8"},
	} {
		_, out, errOut := toyRunFray(tc.args...)
		if !strings.Contains(out+errOut, tc.want) {
			t.Errorf("fray %s lacks %q:\n%s%s", strings.Join(tc.args, " "), tc.want, out, errOut)
		}
	}
}

// fray play runs the duel: help from its declarations, its odds, its
// events and its view; the log it writes resumes by the rules its header
// names.
func TestToyPlay(t *testing.T) {
	withToy(t)
	log := filepath.Join(t.TempDir(), "duel.jsonl")
	code, out, errOut := toyRunFray("play", "--rules", "toy", "--seed", "1", "--log", log, toyWriteFile(t, "duel.fray", toyDuel))
	if code != 0 {
		t.Fatalf("fray play: exit %d:\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"> help attack\n  attack TARGET\n",
		"It rolls: dice= or roll= give the table's dice, and odds attack … shows the odds first.",
		"odds: hurt 83.3%, down 16.7% (1d6)",
		// A system that tells nothing itself: its type, whom it
		// concerns, the roll and the odds (1 of 6 downs Bob).
		"Ann rolls 1d6 4 (faces entered) (odds: hurt 83% · down 17%)",
		"Bob: vigor 6 → 2 (of 6)",
		"Ann: vigor 5 → 3 (of 5)",
		"Round 1: Ann (hits Bob for 4), Bob (hits Ann for 2)",
		"Toy Duel — Round 2: Ann's turn.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("fray play lacks %q:\n%s", want, out)
		}
	}
	more := toyWriteFile(t, "more.fray", "attack Bob dice=2\nattack Ann\n")
	code, out, errOut = toyRunFray("play", "--resume", log, more)
	if code != 1 {
		t.Errorf("fray play --resume: exit %d, want 1 (the second attack is refused):\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"Bob: vigor 2 → 0 (of 6)", "Ann has already attacked this turn; use next."} {
		if !strings.Contains(out, want) {
			t.Errorf("fray play --resume lacks %q:\n%s%s", want, out, errOut)
		}
	}
}

// fray play loads the duel's character sheets against its schema.
func TestToySheets(t *testing.T) {
	withToy(t)
	party := toyWriteFile(t, "party.yaml", "rules: toy\ncharacters:\n  - name: Ann\n    tracks: {vigor: 4}\n")
	foes := toyWriteFile(t, "foes.yaml", "rules: toy\ncharacters:\n  - name: Bob\n    tracks: {vigor: 101}\n")
	code, out, errOut := toyRunFray("play", "--rules", "toy", "--party", party, toyWriteFile(t, "show.fray", "add Bob\nstart\nshow\n"))
	if code != 0 || !strings.Contains(out, "Ann (current, vigor 4/4)") {
		t.Errorf("fray play --party: exit %d, want 0 and Ann's vigor 4/4:\n%s%s", code, out, errOut)
	}
	code, out, errOut = toyRunFray("play", "--rules", "toy", "--foes", foes, toyWriteFile(t, "show.fray", "show\n"))
	if code != 2 || !strings.Contains(errOut, "Bob.tracks.vigor") {
		t.Errorf("fray play --foes with vigor 101: exit %d, want 2 and an error naming the field:\n%s%s", code, out, errOut)
	}
}

// fray roll and fray prob --rules toy make the duel's named roll.
func TestToyNamedRoll(t *testing.T) {
	withToy(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"roll", "--rules", "toy", "roll=5"}, "toy damage: 1d6: 5\n"},
		{[]string{"roll", "--rules", "toy", "die=d8", "roll=8", "--json"}, `{"rules":"toy","expr":"1d8","damage":8}` + "\n"},
		{[]string{"prob", "--rules", "toy", "die=d8", "--json"}, `{"rules":"toy","expr":"1d8","dist":[{"v":1,"p":0.125},{"v":2,"p":0.125},{"v":3,"p":0.125},{"v":4,"p":0.125},{"v":5,"p":0.125},{"v":6,"p":0.125},{"v":7,"p":0.125},{"v":8,"p":0.125}]}` + "\n"},
	} {
		code, out, errOut := toyRunFray(tc.args...)
		if code != 0 || out != tc.want {
			t.Errorf("fray %s: exit %d\n%s%s\nwant exit 0 and\n%s", strings.Join(tc.args, " "), code, out, errOut, tc.want)
		}
	}
	code, out, _ := toyRunFray("prob", "--rules", "toy")
	if code != 0 || strings.Count(out, "16.667%") != 6 {
		t.Errorf("fray prob --rules toy: exit %d, want six faces at 16.667%%:\n%s", code, out)
	}
	code, _, errOut := toyRunFray("roll", "--rules", "toy", "die=d12")
	if code != 2 || !strings.Contains(errOut, "die=d12: want d6 or d8") {
		t.Errorf("fray roll --rules toy die=d12: exit %d, want 2 and the key's error:\n%s", code, errOut)
	}
}

// toyServer runs fray serve on a new database until the test ends and
// returns its address.
func toyServer(t *testing.T) string {
	t.Helper()
	base, _ := startServe(t, "--db", filepath.Join(t.TempDir(), "fray.db"))
	return base
}

// toyDecode decodes b into v.
func toyDecode(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}

// toySystemGot is what a test reads of a system in GET /api/systems.
type toySystemGot struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Commands []struct {
		fray.CommandDecl
		Usage string `json:"usage"`
	} `json:"commands"`
	Settings []toySettingGot `json:"settings"`
	Roll     *struct {
		Title string `json:"title"`
	} `json:"roll"`
	Hints fray.Hints        `json:"hints"`
	Stats []string          `json:"stats"`
	Sheet *fray.SheetSchema `json:"sheet"`
}

// toySettingGot is one setting of a system in GET /api/systems.
type toySettingGot struct {
	Key     string   `json:"key"`
	Values  []string `json:"values"`
	Default string   `json:"default"`
}

// fray serve serves the duel: GET /api/systems lists every declaration
// of it, an encounter runs by its rules for the GM and a player, and
// its named roll answers as fray roll --json and fray prob --json print.
func TestToyServe(t *testing.T) {
	withToy(t)
	base := toyServer(t)
	sys := newToy()

	status, body := httpCall(t, "GET", base+"api/systems", "", nil)
	var systemsGot struct {
		Systems []toySystemGot `json:"systems"`
	}
	toyDecode(t, body, &systemsGot)
	i := slices.IndexFunc(systemsGot.Systems, func(s toySystemGot) bool { return s.ID == toyID })
	if status != http.StatusOK || i < 0 {
		t.Fatalf("GET /api/systems: %d, no %s in\n%s", status, toyID, body)
	}
	got := systemsGot.Systems[i]
	var decls []fray.CommandDecl
	for _, c := range got.Commands {
		decls = append(decls, c.CommandDecl)
		if d, _ := fray.FindDecl(engine.Decls(sys), c.Name); c.Usage != d.Usage() {
			t.Errorf("GET /api/systems: %s's usage is %q, want %q", c.Name, c.Usage, d.Usage())
		}
	}
	if diff := cmp.Diff(engine.Decls(sys), decls, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("GET /api/systems: the duel's commands differ from its declarations (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(sys.(fray.Hinter).Hints(), got.Hints, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("GET /api/systems: the duel's hints differ (-want +got):\n%s", diff)
	}
	wantSheet := sys.(fray.Sheeter).Sheet()
	if diff := cmp.Diff(&wantSheet, got.Sheet, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("GET /api/systems: the duel's sheet differs (-want +got):\n%s", diff)
	}
	if got.Name != sys.Name() || got.Roll == nil || got.Roll.Title != sys.(kit.NamedRoller).NamedRoll().Title || !slices.Equal(got.Stats, []string{toyTrack}) {
		t.Errorf("GET /api/systems: name %q, roll %+v, stats %v", got.Name, got.Roll, got.Stats)
	}
	if j := slices.IndexFunc(got.Settings, func(s toySettingGot) bool { return s.Key == toySetDie }); j < 0 || got.Settings[j].Default != "d6" || !slices.Equal(got.Settings[j].Values, []string{"d6", "d8"}) {
		t.Errorf("GET /api/systems: the duel's settings %+v lack die=d6|d8", got.Settings)
	}

	// An encounter by the duel's rules, for the GM and for Ann's player.
	status, body = httpCall(t, "POST", base+"api/encounters", "", map[string]string{"rules": toyID, "name": "Duel"})
	if status != http.StatusCreated {
		t.Fatalf("create: %d %s", status, body)
	}
	var enc struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	toyDecode(t, body, &enc)
	revision := 0
	send := func(token, line string) (int, []byte) {
		t.Helper()
		status, body := httpCall(t, "POST", base+"api/encounters/"+enc.ID+"/commands", token, map[string]any{"command": line, "revision": revision})
		if status == http.StatusOK {
			var done struct {
				Revision int `json:"revision"`
			}
			toyDecode(t, body, &done)
			revision = done.Revision
		}
		return status, body
	}
	for _, line := range []string{"add Ann side=pc vigor=5", "add Bob", "set player_dice=yes", "start"} {
		if status, body := send(enc.Token, line); status != http.StatusOK {
			t.Fatalf("%s: %d %s", line, status, body)
		}
	}
	status, body = httpCall(t, "POST", base+"api/encounters/"+enc.ID+"/players", enc.Token, map[string]string{"combatant": "Ann"})
	if status != http.StatusCreated {
		t.Fatalf("a player's link for Ann: %d %s", status, body)
	}
	var player struct {
		Token string `json:"token"`
	}
	toyDecode(t, body, &player)
	status, body = send(player.Token, "attack Bob dice=4")
	var done struct {
		Events []fray.Event `json:"events"`
		View   struct {
			Current    string `json:"current"`
			Combatants []struct {
				Name   string                `json:"name"`
				Tracks map[string]fray.Track `json:"tracks"`
			} `json:"combatants"`
		} `json:"view"`
	}
	toyDecode(t, body, &done)
	if status != http.StatusOK || len(done.Events) != 1 || done.Events[0].Type != toyEventAttacked {
		t.Fatalf("Ann's player: attack Bob dice=4: %d %s", status, body)
	}
	if status, body := send(enc.Token, "next"); status != http.StatusOK {
		t.Fatalf("next: %d %s", status, body)
	}
	// On Bob's turn, Ann's player may not send Bob's commands: the rule
	// of who may send what is read from the declarations.
	if status, body := send(player.Token, "next"); status != http.StatusForbidden {
		t.Errorf("Ann's player: next on Bob's turn: %d %s, want %d", status, body, http.StatusForbidden)
	}
	status, body = send(enc.Token, "attack Ann roll=2")
	toyDecode(t, body, &done)
	var ann fray.Track
	for _, c := range done.View.Combatants {
		if c.Name == "Ann" {
			ann = c.Tracks[toyTrack]
		}
	}
	if status != http.StatusOK || done.View.Current != "Bob" || ann != (fray.Track{Value: 3, Max: 5}) || len(done.Events) != 1 || done.Events[0].Odds == nil {
		t.Errorf("attack Ann roll=2: %d, current %q, Ann's vigor %+v, want Bob current, vigor 3/5 and the attack's odds:\n%s", status, done.View.Current, ann, body)
	}

	// The named roll: POST /api/roll answers the object fray roll --json
	// prints, GET /api/prob the list of those fray prob --json prints, one
	// a line.
	for _, tc := range []struct {
		cli  []string
		list bool
		call func() (int, []byte)
	}{
		{[]string{"roll", "--rules", "toy", "die=d8", "roll=3", "--json"}, false, func() (int, []byte) {
			return httpCall(t, "POST", base+"api/roll", "", map[string]any{"rules": toyID, "args": []string{"die=d8", "roll=3"}})
		}},
		{[]string{"prob", "--rules", "toy", "die=d8", "--json"}, true, func() (int, []byte) {
			return httpCall(t, "GET", base+"api/prob?rules=toy&arg="+url.QueryEscape("die=d8"), "", nil)
		}},
	} {
		code, out, errOut := toyRunFray(tc.cli...)
		if code != 0 {
			t.Fatalf("fray %s: exit %d: %s", strings.Join(tc.cli, " "), code, errOut)
		}
		want := strings.TrimSpace(out)
		if tc.list {
			want = "[" + strings.ReplaceAll(want, "\n", ",") + "]"
		}
		status, body := tc.call()
		if status != http.StatusOK || strings.TrimSpace(string(body)) != want {
			t.Errorf("fray %s printed\n%s\nthe API answered %d\n%s", strings.Join(tc.cli, " "), out, status, body)
		}
	}
}
