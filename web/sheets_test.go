package web_test

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"fray"
	"fray/engine"
	"fray/sheet"
	"fray/web"
)

// sheetsAnswer is the answer to POST /api/encounters/{id}/sheets.
type sheetsAnswer struct {
	Preview  bool   `json:"preview"`
	Revision int    `json:"revision"`
	Command  string `json:"command"`
	Joining  []struct {
		ID   fray.CombatantID `json:"id"`
		Name string           `json:"name"`
		Side string           `json:"side"`
		Kind string           `json:"kind"`
	} `json:"joining"`
	Events []fray.Event `json:"events"`
	View   fray.View    `json:"view"`
}

// sheetProblem is one problem of a refused sheet file.
type sheetProblem struct {
	File    string `json:"file"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// sheetRefusal is the error envelope of a refused sheet request.
type sheetRefusal struct {
	Error struct {
		Code     string         `json:"code"`
		Message  string         `json:"message"`
		Problems []sheetProblem `json:"problems"`
	} `json:"error"`
	Revision *int `json:"revision"`
}

// postSheet sends a sheet file with the query (such as "?preview=1") and
// the Content-Type contentType ("" for none).
func (e *env) postSheet(t testing.TB, id, token, query, contentType string, body []byte) reply {
	t.Helper()
	r, err := e.trySheet(id, token, query, contentType, body)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// trySheet is postSheet for a goroutine other than the test's: it
// reports a failure to send instead of failing the test.
func (e *env) trySheet(id, token, query, contentType string, body []byte) (reply, error) {
	req, err := http.NewRequest("POST", e.url+"/api/encounters/"+id+"/sheets"+query, bytes.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := e.client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer res.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(res.Body); err != nil {
		return reply{}, err
	}
	return reply{Status: res.StatusCode, Body: b.Bytes(), Header: res.Header}, nil
}

// encounterNow returns the encounter's revision and the names of its
// combatants, as the GM reads them.
func (e *env) encounterNow(t testing.TB, id, token string) (int, []string) {
	t.Helper()
	r := e.do(t, "GET", "/api/encounters/"+id, token, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("get encounter: %d %s", r.Status, r.Body)
	}
	var out struct {
		Revision int       `json:"revision"`
		View     fray.View `json:"view"`
	}
	r.decode(t, &out)
	names := []string{}
	for _, c := range out.View.Combatants {
		names = append(names, c.Name)
	}
	return out.Revision, names
}

func readExample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sheetCharacter is what a test compares of a character: what the file
// says of it.
type sheetCharacter struct {
	Name, Side, Kind string
	Stats            map[string]int
	Tracks           map[string]fray.Track
	Powers           []fray.Power
	Expertise        []string
}

func sheetCharacters(cs []fray.Combatant) []sheetCharacter {
	out := make([]sheetCharacter, len(cs))
	for i, c := range cs {
		out[i] = sheetCharacter{c.Name, c.Side, c.Kind, c.Stats, c.Tracks, c.Powers, c.Expertise}
	}
	return out
}

// TestSheetsPreviewThenAdd brings the party and the foes of each
// system's examples into an encounter: the preview lists who would join
// and changes nothing; the add joins them in one step, as `fray play
// --party --foes` reads them, and one undo takes the step back.
func TestSheetsPreviewThenAdd(t *testing.T) {
	cases := []struct {
		rules, party, foes string
	}{
		{"bpb", "bpb-party.yaml", "bpb-foes.yaml"},
		{"queue", "queue-party.yaml", "queue-foes.yaml"},
		{"vv", "vv-party.yaml", "vv-foes.yaml"},
		{"cinematic", "cinematic-party.yaml", "cinematic-foes.yaml"},
		{"pp", "pp-party.yaml", "pp-foes.yaml"},
	}
	e := start(t, nil)
	for _, tc := range cases {
		t.Run(tc.rules, func(t *testing.T) {
			enc := e.create(t, tc.rules, "sheets")
			var want []fray.Combatant
			rev, last := 0, 0
			for _, f := range []struct{ file, side string }{{tc.party, fray.SidePC}, {tc.foes, fray.SideNPC}} {
				// What the command line reads from the file.
				cs, err := sheet.Load("../examples/"+f.file, systems[tc.rules](), f.side)
				if err != nil {
					t.Fatal(err)
				}
				var names, sides []string
				for _, c := range cs {
					names, sides = append(names, c.Name), append(sides, c.Side)
				}
				body := readExample(t, f.file)
				q := "?side=" + f.side + "&name=" + f.file

				r := e.postSheet(t, enc.ID, enc.Token, q+"&preview=1", "application/yaml", body)
				if r.Status != http.StatusOK {
					t.Fatalf("preview %s: %d %s", f.file, r.Status, r.Body)
				}
				var pre sheetsAnswer
				r.decode(t, &pre)
				var gotNames, gotSides []string
				for _, j := range pre.Joining {
					gotNames, gotSides = append(gotNames, j.Name), append(gotSides, j.Side)
				}
				if !pre.Preview || pre.Revision != rev || !cmp.Equal(gotNames, names) || !cmp.Equal(gotSides, sides) {
					t.Fatalf("preview %s: preview %v revision %d, joining %v %v; want revision %d, %v %v", f.file, pre.Preview, pre.Revision, gotNames, gotSides, rev, names, sides)
				}
				if !strings.HasPrefix(pre.Command, "join ") || len(pre.Events) != len(cs) {
					t.Fatalf("preview %s: command %q, %d events; want join, %d", f.file, pre.Command, len(pre.Events), len(cs))
				}
				nowRev, nowNames := e.encounterNow(t, enc.ID, enc.Token)
				if nowRev != rev || len(nowNames) != len(want) {
					t.Fatalf("after preview %s: revision %d, combatants %v; want revision %d and %d combatants", f.file, nowRev, nowNames, rev, len(want))
				}

				r = e.postSheet(t, enc.ID, enc.Token, q, "application/yaml", body)
				if r.Status != http.StatusOK {
					t.Fatalf("add %s: %d %s", f.file, r.Status, r.Body)
				}
				var add sheetsAnswer
				r.decode(t, &add)
				rev += len(cs)
				if add.Preview || add.Revision != rev || add.Command != pre.Command {
					t.Fatalf("add %s: preview %v revision %d command %q; want revision %d command %q", f.file, add.Preview, add.Revision, add.Command, rev, pre.Command)
				}
				if diff := cmp.Diff(pre.Joining, add.Joining); diff != "" {
					t.Errorf("add %s joined other than the preview said (-preview +add):\n%s", f.file, diff)
				}
				want, last = append(want, cs...), len(cs)
			}
			// The view after holds the characters as `fray play --party
			// --foes` has them: joined by the engine from the same sheets.
			cli := engine.New(systems[tc.rules](), rand.New(rand.NewPCG(1, 1)))
			if _, err := cli.Join(want); err != nil {
				t.Fatal(err)
			}
			var got []fray.Combatant
			r := e.do(t, "GET", "/api/encounters/"+enc.ID, enc.Token, nil)
			var out struct {
				View fray.View `json:"view"`
			}
			r.decode(t, &out)
			got = out.View.Combatants
			if diff := cmp.Diff(sheetCharacters(cli.View().Combatants), sheetCharacters(got), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("combatants (-command line +server):\n%s", diff)
			}
			// One undo takes back the last file's step whole.
			d := e.play(t, enc.ID, enc.Token, rev, "undo")
			if len(d.View.Combatants) != len(want)-last {
				t.Errorf("after undo: %d combatants, want the party's %d", len(d.View.Combatants), len(want)-last)
			}
		})
	}
}

// TestSheetsJSON reads a JSON sheet file as the command line reads a
// .json one, by its Content-Type or by a sniff of the body.
func TestSheetsJSON(t *testing.T) {
	const file = `{"rules": "queue", "characters": [
  {"name": "Ann", "side": "pc", "stats": {"wits": 2}, "tracks": {"hp": 8},
   "weapons": [{"name": "Sword", "rank": 1, "weight": "medium"}]}
]}`
	e := start(t, nil)
	for _, ct := range []string{"application/json", "text/plain", ""} {
		t.Run("content-type "+ct, func(t *testing.T) {
			enc := e.create(t, "queue", "json")
			r := e.postSheet(t, enc.ID, enc.Token, "", ct, []byte(file))
			if r.Status != http.StatusOK {
				t.Fatalf("add: %d %s", r.Status, r.Body)
			}
			var add sheetsAnswer
			r.decode(t, &add)
			if len(add.Joining) != 1 || add.Joining[0].Name != "Ann" || add.Joining[0].Side != fray.SidePC || add.Revision != 1 {
				t.Fatalf("add: %s", r.Body)
			}
		})
	}
}

// TestSheetsMalformed refuses files that do not read, each with the
// sheet package's message and its problem listed with the field and the
// line, and changes nothing.
func TestSheetsMalformed(t *testing.T) {
	party := string(readExample(t, "bpb-party.yaml"))
	lineOf := func(s, sub string) int {
		i := strings.Index(s, sub)
		if i < 0 {
			t.Fatalf("%q is not in the file", sub)
		}
		return 1 + strings.Count(s[:i], "\n")
	}
	bad := []struct {
		name, contentType, query, body string
		want                           sheetProblem
	}{
		{
			name: "stat out of range", body: strings.Replace(party, "brawn: 12", "brawn: 99", 1),
			want: sheetProblem{File: "sheet.yaml", Path: "Monolith.stats.brawn", Line: lineOf(party, "brawn: 12"), Message: "must be from 1 to 14"},
		},
		{
			name: "unknown field", query: "?name=party.yaml", body: strings.Replace(party, "    expertise: [blocking]", "    expertize: [blocking]", 1),
			want: sheetProblem{File: "party.yaml", Path: "Monolith.expertize", Line: lineOf(party, "    expertise: [blocking]"), Message: "unknown field; the fields are " + strings.Join([]string{"name", "side", "kind", "group", "hidden", "aware", "notes", "stats", "tracks", "powers", "weapons", "skills", "talents", "expertise", "protection", "qualities", "tactic"}, ", ")},
		},
		{
			name: "another system's file", body: strings.Replace(party, "rules: bpb", "rules: queue", 1),
			want: sheetProblem{File: "sheet.yaml", Path: "rules", Line: lineOf(party, "rules: bpb"), Message: `the file is for the rules "queue", not "bpb"`},
		},
		{
			name: "tab indent", contentType: "application/yaml", body: "characters:\n  - name: Ann\n\tstats: {brawn: 3}\n",
			want: sheetProblem{File: "sheet.yaml", Line: 3, Message: "a tab indents the line; indent with spaces"},
		},
		{
			name: "JSON syntax", contentType: "application/json", body: "{\"characters\": [\n  {\"name\": \"Ann\",}\n]}",
			want: sheetProblem{File: "sheet.json", Line: 2, Message: "invalid character '}' looking for beginning of object key string"},
		},
		{
			name: "JSON field", contentType: "application/json", body: `{"characters": [{"name": "Ann", "stats": {"brawn": 99}}]}`,
			want: sheetProblem{File: "sheet.json", Path: "Ann.stats.brawn", Message: "must be from 1 to 14"},
		},
		{
			name: "not a list", contentType: "application/yaml", body: "# a note\nrules: bpb\ncharacters: Ann\n",
			want: sheetProblem{File: "sheet.yaml", Line: 3, Message: "a sheet file is a list of characters (- name: …) or a mapping with characters:"},
		},
	}
	e := start(t, nil)
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			enc := e.create(t, "bpb", "bad")
			for _, preview := range []string{"preview=1", "preview=0"} {
				q := tc.query
				if q == "" {
					q = "?" + preview
				} else {
					q += "&" + preview
				}
				r := e.postSheet(t, enc.ID, enc.Token, q, tc.contentType, []byte(tc.body))
				var got sheetRefusal
				r.decode(t, &got)
				if r.Status != http.StatusBadRequest || got.Error.Code != fray.EINVALID {
					t.Fatalf("%s: %d %s, want 400 invalid", preview, r.Status, r.Body)
				}
				if diff := cmp.Diff([]sheetProblem{tc.want}, got.Error.Problems); diff != "" {
					t.Errorf("%s: problems (-want +got):\n%s", preview, diff)
				}
				if !strings.HasPrefix(got.Error.Message, tc.want.File+": ") {
					t.Errorf("%s: message %q does not name the file %s", preview, got.Error.Message, tc.want.File)
				}
				if rev, names := e.encounterNow(t, enc.ID, enc.Token); rev != 0 || len(names) != 0 {
					t.Errorf("%s: after the refusal, revision %d and %v; want 0 and none", preview, rev, names)
				}
			}
		})
	}
}

// TestSheetsRefusals refuses the requests the endpoint does not take
// and, whatever the refusal, leaves the encounter at its revision.
func TestSheetsRefusals(t *testing.T) {
	party := readExample(t, "bpb-party.yaml")
	foes := readExample(t, "bpb-foes.yaml")
	e := start(t, func(c *web.Config) {
		c.Limits.MaxBody = int64(len(party) + 10)
		c.Limits.MaxCombatants = 3
	})
	enc := e.create(t, "bpb", "refusals")
	if r := e.postSheet(t, enc.ID, enc.Token, "?side=pc", "application/yaml", party); r.Status != http.StatusOK {
		t.Fatalf("add the party: %d %s", r.Status, r.Body)
	}
	rev0, names0 := e.encounterNow(t, enc.ID, enc.Token)
	player := e.link(t, enc.ID, enc.Token, "Monolith")
	other := e.create(t, "bpb", "another")

	cases := []struct {
		name, token, query string
		body               []byte
		status             int
		code               string
		says               string // a part of the message
	}{
		{"player token", player.Token, "?preview=1", foes, http.StatusForbidden, fray.EFORBIDDEN, "Only the GM"},
		{"player token, add", player.Token, "", foes, http.StatusForbidden, fray.EFORBIDDEN, "Only the GM"},
		{"no token", "", "", foes, http.StatusUnauthorized, web.EUNAUTHORIZED, "token"},
		{"another encounter's token", other.Token, "", foes, http.StatusForbidden, fray.EFORBIDDEN, "another encounter"},
		{"oversized", enc.Token, "?preview=1", append(bytes.Repeat([]byte("# padding\n"), 200), foes...), http.StatusRequestEntityTooLarge, fray.ETOOLARGE, "(MaxBody)"},
		{"oversized add", enc.Token, "", append(bytes.Repeat([]byte("# padding\n"), 200), foes...), http.StatusRequestEntityTooLarge, fray.ETOOLARGE, "(MaxBody)"},
		{"too many combatants", enc.Token, "", foes, http.StatusRequestEntityTooLarge, fray.ETOOLARGE, "(MaxCombatants)"},
		{"mistyped preview", enc.Token, "?previw=1", foes, http.StatusBadRequest, fray.EINVALID, `"previw" is not one`},
		{"preview not a yes or no", enc.Token, "?preview=maybe", foes, http.StatusBadRequest, fray.EINVALID, "preview is 1 or 0"},
		{"no such side", enc.Token, "?side=ally", foes, http.StatusBadRequest, fray.EINVALID, "side is pc or npc"},
		{"empty body", enc.Token, "", []byte("\n"), http.StatusBadRequest, fray.EINVALID, "empty"},
		{"stale revision", enc.Token, "?revision=0", foes, http.StatusConflict, fray.ECONFLICT, "revision"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.postSheet(t, enc.ID, tc.token, tc.query, "application/yaml", tc.body)
			var got sheetRefusal
			r.decode(t, &got)
			if r.Status != tc.status || got.Error.Code != tc.code || !strings.Contains(got.Error.Message, tc.says) {
				t.Fatalf("got %d %s; want %d %s saying %q", r.Status, r.Body, tc.status, tc.code, tc.says)
			}
			if rev, names := e.encounterNow(t, enc.ID, enc.Token); rev != rev0 || !cmp.Equal(names, names0) {
				t.Errorf("after the refusal, revision %d and %v; want %d and %v", rev, names, rev0, names0)
			}
		})
	}
	// A stale revision's refusal gives the current one.
	r := e.postSheet(t, enc.ID, enc.Token, "?revision=0", "application/yaml", foes)
	var got sheetRefusal
	r.decode(t, &got)
	if got.Revision == nil || *got.Revision != rev0 {
		t.Errorf("stale revision: %s, want revision %d in the envelope", r.Body, rev0)
	}
}

// TestSheetsNamesTaken refuses, whole, a file naming combatants the
// encounter has, listing every such name with its line, and adds none of
// the file's other characters.
func TestSheetsNamesTaken(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "taken")
	e.play(t, enc.ID, enc.Token, 0, "add Monolith side=pc brawn=3 agility=3 accuracy=3 prowess=3 perception=3 willpower=3 endurance=10")
	file := "characters:\n" +
		"  - name: Blueshift\n    stats: {brawn: 4, agility: 9, accuracy: 6, prowess: 7, perception: 6, willpower: 5}\n    tracks: {endurance: 20}\n" +
		"  - name: monolith\n    stats: {brawn: 12, agility: 3, accuracy: 4, prowess: 8, perception: 4, willpower: 6}\n    tracks: {endurance: 30}\n"
	for _, q := range []string{"?preview=1", ""} {
		r := e.postSheet(t, enc.ID, enc.Token, q, "application/yaml", []byte(file))
		var got sheetRefusal
		r.decode(t, &got)
		want := []sheetProblem{{File: "sheet.yaml", Path: "monolith", Line: 5, Message: `there is already a combatant named "monolith" in the encounter`}}
		if r.Status != http.StatusConflict || got.Error.Code != fray.ECONFLICT || got.Revision != nil {
			t.Fatalf("%q: %d %s; want 409 conflict without a revision", q, r.Status, r.Body)
		}
		if diff := cmp.Diff(want, got.Error.Problems); diff != "" {
			t.Errorf("%q: problems (-want +got):\n%s", q, diff)
		}
		if rev, names := e.encounterNow(t, enc.ID, enc.Token); rev != 1 || !cmp.Equal(names, []string{"Monolith"}) {
			t.Errorf("%q: after the refusal, revision %d and %v; want 1 and [Monolith]", q, rev, names)
		}
	}
}

// TestSheetsPreviewWhilePlaying previews a file again and again while
// the GM adds combatants: the previews see the encounter as it stands
// and leave it alone, and the log stays numbered without a gap.
func TestSheetsPreviewWhilePlaying(t *testing.T) {
	foes := readExample(t, "queue-foes.yaml")
	e := start(t, nil)
	enc := e.create(t, "queue", "busy")
	const adds, previews = 8, 8
	errs := make(chan string, previews)
	go func() {
		for range previews {
			r, err := e.trySheet(enc.ID, enc.Token, "?preview=1", "application/yaml", foes)
			switch {
			case err != nil:
				errs <- err.Error()
			case r.Status != http.StatusOK:
				errs <- string(r.Body)
			default:
				errs <- ""
			}
		}
	}()
	rev := 0
	for i := range adds {
		rev = e.play(t, enc.ID, enc.Token, rev, "add Ann"+itoa(i)+" side=pc wits=2").Revision
	}
	for range previews {
		if msg := <-errs; msg != "" {
			t.Errorf("preview: %s", msg)
		}
	}
	if n := checkLog(t, e.log(t, enc.ID, enc.Token)); n != adds {
		t.Errorf("the log holds %d events, want the %d adds", n, adds)
	}
	r := e.postSheet(t, enc.ID, enc.Token, "", "application/yaml", foes)
	var add sheetsAnswer
	r.decode(t, &add)
	if r.Status != http.StatusOK || add.Revision != adds+len(add.Joining) || len(add.View.Combatants) != adds+len(add.Joining) {
		t.Fatalf("add after the previews: %d %s", r.Status, r.Body)
	}
}
