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
	Systems []struct {
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
		Dice fray.CommandDoc `json:"dice"`
	} `json:"systems"`
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
	for _, field := range []string{`"send":"named"`, `"kind":"power"`, `"required":true`, `"actor":true`, `"rolls":true`, `"min":-10`} {
		if !strings.Contains(string(raw.Body), field) {
			t.Errorf("the answer lacks %s", field)
		}
	}
}
