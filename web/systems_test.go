package web_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"fray"
	"fray/engine"
	"fray/web"
)

// systemsAnswer is the answer to GET /api/systems.
type systemsAnswer struct {
	Systems []systemAnswer `json:"systems"`
}

// systemAnswer is one system of GET /api/systems.
type systemAnswer struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Words    []string `json:"words"`
	Commands []struct {
		fray.CommandDecl
		Usage   string   `json:"usage"`
		Words   []string `json:"words"`
		Options []string `json:"options"`
	} `json:"commands"`
	Settings []struct {
		Key     string   `json:"key"`
		Values  []string `json:"values"`
		Default string   `json:"default"`
	} `json:"settings"`
	Dice  fray.CommandDoc   `json:"dice"`
	Hints fray.Hints        `json:"hints"`
	Sheet *fray.SheetSchema `json:"sheet"`
	Stats []string          `json:"stats"`
	Place bool              `json:"place"`
}

// TestE7_SystemsListTheirCommands checks GET /api/systems against the
// systems cmd/fray serves: every system by id with its name and, in
// order, the declaration of every command it accepts (engine.Decls) with
// its usage line and completions, its settings and the line on the
// table's dice; and that it answers a second time with 304 when the page
// has it already.
func TestE7_SystemsListTheirCommands(t *testing.T) {
	e := start(t, nil)
	r := e.do(t, "GET", "/api/systems", "", nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/json" || r.Header.Get("ETag") == "" {
		t.Fatalf("got %d %v", r.Status, r.Header)
	}
	var got systemsAnswer
	r.decode(t, &got)
	var ids []string
	for id := range systems {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if len(got.Systems) != len(ids) {
		t.Fatalf("got %d systems, want %d", len(got.Systems), len(ids))
	}
	empty := cmpopts.EquateEmpty()
	for i, s := range got.Systems {
		sys := systems[ids[i]]()
		if s.ID != ids[i] || s.Name != sys.Name() {
			t.Errorf("system %d is %q %q, want %q %q", i, s.ID, s.Name, ids[i], sys.Name())
		}
		ds := engine.Decls(sys)
		if len(s.Commands) != len(ds) {
			t.Fatalf("%s: %d commands, want %d", s.ID, len(s.Commands), len(ds))
		}
		for j, d := range ds {
			c := s.Commands[j]
			if diff := cmp.Diff(d, c.CommandDecl, empty); diff != "" {
				t.Errorf("%s: command %s (-declared +served):\n%s", s.ID, d.Name, diff)
			}
			if c.Usage != d.Usage() || !slices.Equal(c.Words, []string{d.Name}) || !cmp.Equal(c.Options, d.Completions(), empty) {
				t.Errorf("%s: command %s is %q %v %v", s.ID, d.Name, c.Usage, c.Words, c.Options)
			}
			if c.Args == nil || c.Opts == nil {
				t.Errorf("%s: command %s: args or opts is null, not a list", s.ID, d.Name)
			}
		}
		for _, w := range []string{"add", "undo", "redo", "show", "history", "log", "help", "odds"} {
			if !slices.Contains(s.Words, w) {
				t.Errorf("%s: the words %v lack %s", s.ID, s.Words, w)
			}
		}
		if !slices.IsSorted(s.Words) {
			t.Errorf("%s: the words are not sorted: %v", s.ID, s.Words)
		}
		if sh, ok := sys.(fray.Sheeter); !ok || s.Sheet == nil || !cmp.Equal(*s.Sheet, sh.Sheet(), cmpopts.IgnoreFields(fray.SheetRange{}, "Derive")) {
			t.Errorf("%s: the sheet served is %+v", s.ID, s.Sheet)
		}
		if len(s.Settings) == 0 || s.Dice != engine.DiceHelp {
			t.Errorf("%s: settings %v, dice %v", s.ID, s.Settings, s.Dice)
		}
		for _, st := range s.Settings {
			if len(st.Values) == 0 || st.Values[0] != st.Default {
				t.Errorf("%s: setting %s: %v, default %q", s.ID, st.Key, st.Values, st.Default)
			}
		}
	}

	req, _ := http.NewRequest("GET", e.url+"/api/systems", nil)
	req.Header.Set("If-None-Match", r.Header.Get("ETag"))
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotModified {
		t.Errorf("the same ETag again: %d, want 304", res.StatusCode)
	}
}

// declared is a system whose commands are a test's declarations.
type declared struct {
	fray.System
	ds []fray.CommandDecl
}

func (u declared) ID() string                   { return "declared" }
func (u declared) Name() string                 { return "Declared" }
func (u declared) Commands() []fray.CommandDecl { return u.ds }

// TestE7_SystemsServeDeclarations checks, for declarations written here,
// the JSON a front end builds its forms from: each command's kinds,
// choices, bounds and who may send it as declared, its usage and
// completions worked out by hand, and the settings read from set's.
func TestE7_SystemsServeDeclarations(t *testing.T) {
	act := fray.CommandDecl{Name: "act", Send: fray.SendCurrent, Summary: "Act.",
		Args: []fray.Param{{Name: "NAME", Kind: fray.KindCombatant, Optional: true, Actor: true},
			{Name: "ACTION", Kind: fray.KindChoice, Choices: []string{"major", "minor"}}},
		Opts: []fray.Param{{Name: "note", Kind: fray.KindText}}}
	attack := fray.CommandDecl{Name: "attack", Send: fray.SendNamed, Rolls: true, Summary: "Attack.", Examples: []string{"attack A B with=blast"},
		Args: []fray.Param{{Name: "A", Kind: fray.KindCombatant, Actor: true}, {Name: "B", Kind: fray.KindCombatant}},
		Opts: []fray.Param{{Name: "with", Kind: fray.KindPower, Required: true},
			{Name: "choose", Kind: fray.KindChoice, Choices: []string{"overwhelming", "smashing"}},
			{Name: "mod", Kind: fray.KindNumber, Min: -10, Max: 10, Hint: "±N"},
			{Name: "threshold", Kind: fray.KindNumber, Choices: []string{"hard"}}}}
	ds := append(engine.SharedDecls(engine.Spec{Settings: map[string][]string{"held": {"house", "raw"}}}), act, attack)
	e := start(t, func(c *web.Config) {
		c.Systems = map[string]func() fray.System{"declared": func() fray.System { return declared{ds: ds} }}
	})
	raw := e.do(t, "GET", "/api/systems", "", nil)
	var got systemsAnswer
	raw.decode(t, &got)
	if len(got.Systems) != 1 {
		t.Fatalf("got %d systems", len(got.Systems))
	}
	s := got.Systems[0]
	byName := map[string]int{}
	for i, c := range s.Commands {
		byName[c.Name] = i
	}
	tests := []struct {
		decl    fray.CommandDecl
		usage   string
		options []string
	}{
		{act, "act [NAME] major|minor [note=TEXT]", []string{"major", "minor", "note="}},
		{attack, "attack A B with=POWER [choose=overwhelming|smashing] [mod=±N] [threshold=hard|N]",
			[]string{"with=", "choose=overwhelming", "choose=smashing", "mod=", "threshold=hard", "threshold="}},
	}
	for _, tc := range tests {
		i, ok := byName[tc.decl.Name]
		if !ok {
			t.Fatalf("%s is not served", tc.decl.Name)
		}
		c := s.Commands[i]
		if diff := cmp.Diff(tc.decl, c.CommandDecl, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s (-declared +served):\n%s", tc.decl.Name, diff)
		}
		if c.Usage != tc.usage || !slices.Equal(c.Options, tc.options) {
			t.Errorf("%s: usage %q options %q; want %q %q", tc.decl.Name, c.Usage, c.Options, tc.usage, tc.options)
		}
	}
	var settings []string
	for _, st := range s.Settings {
		settings = append(settings, st.Key+"="+strings.Join(st.Values, "|")+" default "+st.Default)
	}
	if want := []string{"held=house|raw default house", "player_dice=no|yes default no"}; !slices.Equal(settings, want) {
		t.Errorf("settings %q, want %q", settings, want)
	}
	// The engine adds odds, undo, redo and the queries; nobody else's words.
	want := []string{"act", "add", "attack", "clear", "condition", "help", "history", "log", "note", "odds", "redo", "remove", "rename", "reveal", "set", "show", "undo"}
	if !slices.Equal(s.Words, want) {
		t.Errorf("words %q, want %q", s.Words, want)
	}
	// A system that is no fray.Hinter gets no buttons and no forms; its
	// add takes no stats and no place.
	if len(s.Hints.Buttons) != 0 || len(s.Hints.Forms) != 0 || s.Hints.Declare || len(s.Stats) != 0 || s.Place {
		t.Errorf("hints %+v, stats %q, place %v; want none", s.Hints, s.Stats, s.Place)
	}
	for _, field := range []string{`"send":"named"`, `"kind":"power"`, `"required":true`, `"actor":true`, `"rolls":true`, `"min":-10`,
		`"hints":{"buttons":[],"forms":[],"declare":false}`, `"stats":[]`, `"place":false`} {
		if !strings.Contains(string(raw.Body), field) {
			t.Errorf("the answer lacks %s", field)
		}
	}
}

// TestE7_SystemsServeHints checks, for every system cmd/fray serves, what
// GET /api/systems tells the page beyond the commands: the system's hints
// as it declares them (fray.Hinter); the add form's stats, every option
// add takes as a whole number and no other; whether add takes a place;
// and that every button fits: it goes on the turn, a slot or a card; a
// player's (on the turn or a slot) is one a player may send, one to an
// action; {current} is filled only where someone's turn it is; and, once
// its templates are filled with names that need quoting and names that
// do not, its command is one the system declares, whose words fit the
// declaration and carry the names as given.
func TestE7_SystemsServeHints(t *testing.T) {
	e := start(t, nil)
	raw := e.do(t, "GET", "/api/systems", "", nil)
	var got systemsAnswer
	raw.decode(t, &got)
	if len(got.Systems) != len(systems) {
		t.Fatalf("got %d systems, want %d", len(got.Systems), len(systems))
	}
	names := [][2]string{{"Blueshift", "Ganyeka"}, {"Grey Ghost", `Dr. "Q" \ a=b`}, {"#2", "Ganyeka's henchmen"}}
	for _, s := range got.Systems {
		sys := systems[s.ID]()
		h, ok := sys.(fray.Hinter)
		if !ok {
			t.Errorf("%s is no fray.Hinter: its page has no buttons", s.ID)
			continue
		}
		if diff := cmp.Diff(h.Hints(), s.Hints, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: hints (-declared +served):\n%s", s.ID, diff)
		}
		ds := engine.Decls(sys)
		add, _ := fray.FindDecl(ds, engine.CmdAdd)
		var stats []string
		for _, p := range add.Opts {
			if p.Kind == fray.KindNumber {
				stats = append(stats, p.Name)
			}
		}
		if !slices.Equal(s.Stats, stats) || len(stats) == 0 {
			t.Errorf("%s: stats %q, want add's whole numbers %q", s.ID, s.Stats, stats)
		}
		for _, st := range s.Stats {
			if err := add.Check(fray.Command{Name: "add", Args: []string{"X"}, Opts: map[string]string{st: "3"}}); err != nil {
				t.Errorf("%s: the add form's %s=3: %v", s.ID, st, err)
			}
		}
		placed := add.Check(fray.Command{Name: "add", Args: []string{"X"}, Opts: map[string]string{engine.KeyBefore: "Y"}}) == nil &&
			add.Check(fray.Command{Name: "add", Args: []string{"X"}, Opts: map[string]string{engine.KeyAfter: "Y"}}) == nil
		if s.Place != placed {
			t.Errorf("%s: place %v, but add takes before= and after=: %v", s.ID, s.Place, placed)
		}
		for _, f := range s.Hints.Forms {
			if !slices.Contains([]string{fray.FormReorder, fray.FormMove, fray.FormAttack, fray.FormFull}, f) {
				t.Errorf("%s: a form the page does not know: %q", s.ID, f)
			}
		}
		actions := map[string]bool{}
		for _, b := range s.Hints.Buttons {
			what := s.ID + ": " + b.On + " button " + b.Action
			if b.Action == "" || b.Label == "" || b.Aria == "" || b.Command == "" {
				t.Errorf("%s: %+v lacks words", what, b)
			}
			switch b.On {
			case fray.OnTurn:
				if len(b.When)+len(b.Unless) > 0 || b.Others || b.NotActor {
					t.Errorf("%s: a turn button takes no conditions: %+v", what, b)
				}
			case fray.OnSlot, fray.OnCard:
				if strings.Contains(b.Command+b.Aria, fray.TemplateCurrent) && !b.Others {
					t.Errorf("%s: names {current}, but shows while nobody's turn it is", what)
				}
			default:
				t.Errorf("%s: on %q, not turn, slot or card", what, b.On)
			}
			tmpl, err := engine.ParseCommand(b.Command)
			if err != nil {
				t.Errorf("%s: %q: %v", what, b.Command, err)
				continue
			}
			d, ok := fray.FindDecl(ds, tmpl.Name)
			if !ok {
				t.Errorf("%s: %q is no command %s declares", what, b.Command, s.ID)
				continue
			}
			if b.On != fray.OnCard {
				if d.Send == fray.SendGM {
					t.Errorf("%s: %s is the GM's alone, but a player sees the button", what, d.Name)
				}
				if actions[b.Action] {
					t.Errorf("%s: two buttons a player sees do %s", what, b.Action)
				}
				actions[b.Action] = true
			}
			for _, n := range names {
				line, aria := b.Fill(n[0], n[1])
				cmd, err := engine.ParseCommand(line)
				if err != nil {
					t.Errorf("%s: %q: %v", what, line, err)
					continue
				}
				if err := d.Check(cmd); err != nil {
					t.Errorf("%s: %q does not fit %q: %v", what, line, d.Usage(), err)
				}
				// The names come back as the words the template puts them.
				r := strings.NewReplacer(fray.TemplateCurrent, n[0], fray.TemplateName, n[1])
				want := fray.Command{Name: tmpl.Name, Opts: map[string]string{}}
				for _, a := range tmpl.Args {
					want.Args = append(want.Args, r.Replace(a))
				}
				for k, v := range tmpl.Opts {
					want.Opts[k] = r.Replace(v)
				}
				if diff := cmp.Diff(want, cmd, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s: %q (-want +got):\n%s", what, line, diff)
				}
				if wantAria := r.Replace(b.Aria); aria != wantAria {
					t.Errorf("%s: aria %q, want %q", what, aria, wantAria)
				}
			}
		}
	}
	for _, field := range []string{`"hints":{"buttons":[{"action":"next","label":"Next","aria":"Next: end {current}'s turn","command":"next {current}","on":"turn"}`,
		`"when":["delayed"]`, `"unless":["lost","forced","environment","unaware"]`, `"not_actor":true`, `"others":true`, `"on":"slot"`, `"on":"card"`,
		`"forms":["reorder"],"declare":true}`, `"stats":["wits","bonus","hp","zone"]`, `"place":true`} {
		if !strings.Contains(string(raw.Body), field) {
			t.Errorf("the answer lacks %s", field)
		}
	}
}
