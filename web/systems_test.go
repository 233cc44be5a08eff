package web_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/web"
)

// systemsAnswer is the answer to GET /api/systems.
type systemsAnswer struct {
	Systems []struct {
		ID       string   `json:"id"`
		Name     string   `json:"name"`
		Words    []string `json:"words"`
		Commands []struct {
			Usage   string   `json:"usage"`
			Summary string   `json:"summary"`
			Words   []string `json:"words"`
			Options []string `json:"options"`
		} `json:"commands"`
	} `json:"systems"`
}

// TestE7_SystemsListTheirCommands checks GET /api/systems against the
// systems cmd/fray serves: every system by id with its name and, in
// order, every command its Commands lists, then the engine's own; and
// that it answers a second time with 304 when the page has it already.
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
	for i, s := range got.Systems {
		sys := systems[ids[i]]()
		if s.ID != ids[i] || s.Name != sys.Name() {
			t.Errorf("system %d is %q %q, want %q %q", i, s.ID, s.Name, ids[i], sys.Name())
		}
		docs := sys.Commands()
		if len(s.Commands) < len(docs) {
			t.Fatalf("%s: %d commands, want at least %d", s.ID, len(s.Commands), len(docs))
		}
		for j, d := range docs {
			if c := s.Commands[j]; c.Usage != d.Usage || c.Summary != d.Summary {
				t.Errorf("%s: command %d is %q, want %q", s.ID, j, c.Usage, d.Usage)
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

// usages is a system whose help is the usage lines of a test.
type usages struct {
	fray.System
	docs []fray.CommandDoc
}

func (u usages) ID() string                  { return "usages" }
func (u usages) Name() string                { return "Usages" }
func (u usages) Commands() []fray.CommandDoc { return u.docs }

// TestE7_SystemsReadUsages checks what GET /api/systems reads from a usage
// line for completion: the command words, and the words and options that
// may follow them, worked out by hand from each line.
func TestE7_SystemsReadUsages(t *testing.T) {
	tests := []struct {
		usage, summary string
		words, options []string
	}{
		{"next [NAME] [note=TEXT]", "", []string{"next"}, []string{"note="}},
		{"act [NAME] major|minor [note=TEXT]", "", []string{"act"}, []string{"major", "minor", "note="}},
		{"block NAME | dodge NAME [mod=N]", "", []string{"block", "dodge"}, []string{"mod="}},
		{"scene / story", "", []string{"scene", "story"}, []string{}},
		{"spend NAME resolve=N | spend NAME reroll", "", []string{"spend"}, []string{"resolve=", "reroll"}},
		{"aware NAME [before=NAME|after=NAME]", "", []string{"aware"}, []string{"before=", "after="}},
		{"attack A B with=POWER [choose=overwhelming|smashing] [mod=±N]", "", []string{"attack"}, []string{"with=", "choose=overwhelming", "choose=smashing", "mod="}},
		{"check A T [threshold=hard|N] [auto=N|all]", "", []string{"check"}, []string{"threshold=hard", "threshold=", "auto=", "auto=all"}},
		{"condition A C [until=cleared|end:NAME|round][@ROUND|@+N]", "", []string{"condition"}, []string{"until=cleared", "until=round"}},
		{"add NAME [weapon=NAME:light|medium|heavy[:SPECIAL],…]", "", []string{"add"}, []string{"weapon="}},
		{"set KEY=VALUE", "Change a setting: held=house|raw, order=declared.", []string{"set"}, []string{"held=house", "held=raw", "order=declared"}},
		{"… dice=6,3 | roll=9", "", []string{}, []string{"dice=", "roll="}},
		{"odds COMMAND …", "", []string{"odds"}, []string{}},
	}
	var docs []fray.CommandDoc
	for _, tc := range tests {
		docs = append(docs, fray.CommandDoc{Usage: tc.usage, Summary: tc.summary})
	}
	e := start(t, func(c *web.Config) {
		c.Systems = map[string]func() fray.System{"usages": func() fray.System { return usages{docs: docs} }}
	})
	var got systemsAnswer
	e.do(t, "GET", "/api/systems", "", nil).decode(t, &got)
	if len(got.Systems) != 1 {
		t.Fatalf("got %d systems", len(got.Systems))
	}
	cmds := got.Systems[0].Commands
	for i, tc := range tests {
		if diff := cmp.Diff(tc.words, cmds[i].Words); diff != "" {
			t.Errorf("%q: words (-want +got):\n%s", tc.usage, diff)
		}
		if diff := cmp.Diff(tc.options, cmds[i].Options); diff != "" {
			t.Errorf("%q: options (-want +got):\n%s", tc.usage, diff)
		}
	}
	// odds is documented: the engine adds only its own commands.
	var usagesGot []string
	for _, c := range cmds[len(tests):] {
		usagesGot = append(usagesGot, c.Usage)
	}
	if want := []string{"undo", "redo", "show", "history", "log", "help [COMMAND …]", "… dice=6,3 | roll=9"}; !slices.Equal(usagesGot, want) {
		t.Errorf("the engine's commands: %q, want %q", usagesGot, want)
	}
	want := []string{"act", "add", "attack", "aware", "block", "check", "condition", "dodge", "help", "history", "log", "next", "odds", "redo", "scene", "set", "show", "spend", "story", "undo"}
	if !slices.Equal(got.Systems[0].Words, want) {
		t.Errorf("words %q, want %q", got.Systems[0].Words, want)
	}
}
