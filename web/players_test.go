package web_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"fray"
	"fray/web"
)

// link is the answer to POST /api/encounters/{id}/players.
type link struct {
	Token       string           `json:"token"`
	Combatant   string           `json:"combatant"`
	CombatantID fray.CombatantID `json:"combatant_id"`
	Handle      string           `json:"handle"`
	Link        string           `json:"link"`
}

// listedPlayer is one entry of GET /api/encounters/{id}/players.
type listedPlayer struct {
	Handle      string           `json:"handle"`
	Combatant   string           `json:"combatant"`
	CombatantID fray.CombatantID `json:"combatant_id"`
	Present     bool             `json:"present"`
	Created     time.Time        `json:"created"`
}

// link makes a player link for the named combatant and checks that its
// handle names its token.
func (e *env) link(t *testing.T, id, gm, name string) link {
	t.Helper()
	r := e.send(t, "POST", "/api/encounters/"+id+"/players", gm, map[string]string{"combatant": name})
	if r.Status != http.StatusCreated {
		t.Fatalf("link for %s: %d %s", name, r.Status, r.Body)
	}
	var l link
	r.decode(t, &l)
	if want := fray.HashToken(l.Token)[:16]; l.Handle != want {
		t.Fatalf("link for %s: handle %q, want %q (the start of the token's hash)", name, l.Handle, want)
	}
	return l
}

// players lists the encounter's player links as the GM.
func (e *env) players(t *testing.T, id, gm string) []listedPlayer {
	t.Helper()
	r := e.do(t, "GET", "/api/encounters/"+id+"/players", gm, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("list players: %d %s", r.Status, r.Body)
	}
	var out struct {
		Players []listedPlayer `json:"players"`
	}
	r.decode(t, &out)
	if out.Players == nil {
		t.Fatalf("list players: %s has no players list", r.Body)
	}
	return out.Players
}

// revoke asks to revoke the player link with the handle.
func (e *env) revoke(t *testing.T, id, token, handle string) reply {
	t.Helper()
	return e.do(t, "DELETE", "/api/encounters/"+id+"/players/"+handle, token, nil)
}

// TestPlayersList: the GM lists the player links, oldest first, by
// handle and never by token; one for a removed combatant is listed with
// its name and present false; the GM's own token is not listed.
func TestPlayersList(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "links")
	d := e.play(t, enc.ID, enc.Token, 0, "add Blueshift side=pc", "add Monolith side=pc")
	if got := e.players(t, enc.ID, enc.Token); len(got) != 0 {
		t.Errorf("before any link: %+v, want none", got)
	}
	blue := e.link(t, enc.ID, enc.Token, "Blueshift")
	mono := e.link(t, enc.ID, enc.Token, "Monolith")
	e.play(t, enc.ID, enc.Token, d.Revision, "remove Monolith")

	r := e.do(t, "GET", "/api/encounters/"+enc.ID+"/players", enc.Token, nil)
	for _, tok := range []string{enc.Token, blue.Token, mono.Token, fray.HashToken(blue.Token)} {
		if bytes.Contains(r.Body, []byte(tok)) {
			t.Errorf("the list holds a token or a whole hash: %s", r.Body)
		}
	}
	got := e.players(t, enc.ID, enc.Token)
	want := []listedPlayer{
		{Handle: blue.Handle, Combatant: "Blueshift", CombatantID: blue.CombatantID, Present: true},
		{Handle: mono.Handle, Combatant: "Monolith", CombatantID: mono.CombatantID, Present: false},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(listedPlayer{}, "Created")); diff != "" {
		t.Errorf("players (-want +got):\n%s", diff)
	}
	for _, p := range got {
		if p.Created.IsZero() || time.Since(p.Created) > time.Minute || time.Until(p.Created) > time.Minute {
			t.Errorf("%s's link was made at %v, not now", p.Combatant, p.Created)
		}
	}
	if len(got) == 2 && got[1].Created.Before(got[0].Created) {
		t.Errorf("the list is not oldest first: %+v", got)
	}
	if blue.CombatantID == "" || blue.CombatantID == mono.CombatantID {
		t.Errorf("combatant ids %q and %q", blue.CombatantID, mono.CombatantID)
	}
}

// TestPlayersForbidden: a player may neither list nor revoke links, not
// even their own; a GM of another encounter may do neither here.
func TestPlayersForbidden(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "links")
	e.play(t, enc.ID, enc.Token, 0, "add Blueshift side=pc", "add Monolith side=pc")
	blue := e.link(t, enc.ID, enc.Token, "Blueshift")
	mono := e.link(t, enc.ID, enc.Token, "Monolith")
	other := e.create(t, "bpb", "elsewhere")

	tests := []struct {
		name   string
		method string
		path   string
		token  string
		code   string
	}{
		{"player lists", "GET", "/players", blue.Token, fray.EFORBIDDEN},
		{"player revokes another", "DELETE", "/players/" + mono.Handle, blue.Token, fray.EFORBIDDEN},
		{"player revokes their own", "DELETE", "/players/" + blue.Handle, blue.Token, fray.EFORBIDDEN},
		{"player revokes with a bad handle", "DELETE", "/players/nope", blue.Token, fray.EFORBIDDEN},
		{"another GM lists", "GET", "/players", other.Token, fray.EFORBIDDEN},
		{"another GM revokes", "DELETE", "/players/" + blue.Handle, other.Token, fray.EFORBIDDEN},
		{"no token lists", "GET", "/players", "", web.EUNAUTHORIZED},
		{"no token revokes", "DELETE", "/players/" + blue.Handle, "", web.EUNAUTHORIZED},
	}
	for _, tt := range tests {
		r := e.do(t, tt.method, "/api/encounters/"+enc.ID+tt.path, tt.token, nil)
		if r.code() != tt.code {
			t.Errorf("%s: %d %s, want %s", tt.name, r.Status, r.Body, tt.code)
		}
	}
	// The GM of the other encounter, in their own encounter, does not
	// find this one's links.
	if r := e.revoke(t, other.ID, other.Token, blue.Handle); r.code() != fray.ENOTFOUND {
		t.Errorf("revoke another encounter's link: %d %s, want %s", r.Status, r.Body, fray.ENOTFOUND)
	}
	for _, l := range []link{blue, mono} {
		if r := e.do(t, "GET", "/api/encounters/"+enc.ID, l.Token, nil); r.Status != http.StatusOK {
			t.Errorf("%s's link after refused revocations: %d %s", l.Combatant, r.Status, r.Body)
		}
	}
	if got := e.players(t, enc.ID, enc.Token); len(got) != 2 {
		t.Errorf("players after refused revocations: %+v, want both", got)
	}
}

// TestPlayersRevoke: a revoked link answers 401 at once, though this
// server had it cached, while the other link still works; revoking twice,
// an unknown handle and the GM's own handle are ENOTFOUND; a handle that
// is not 16 lower-case hex digits is EINVALID.
func TestPlayersRevoke(t *testing.T) {
	e := start(t, nil)
	enc := e.create(t, "bpb", "links")
	e.play(t, enc.ID, enc.Token, 0, "add Blueshift side=pc", "add Monolith side=pc")
	blue := e.link(t, enc.ID, enc.Token, "Blueshift")
	mono := e.link(t, enc.ID, enc.Token, "Monolith")
	get := func(token string) reply {
		return e.do(t, "GET", "/api/encounters/"+enc.ID, token, nil)
	}
	for _, l := range []link{blue, mono} {
		if r := get(l.Token); r.Status != http.StatusOK { // and so cached
			t.Fatalf("%s's link: %d %s", l.Combatant, r.Status, r.Body)
		}
	}

	r := e.revoke(t, enc.ID, enc.Token, blue.Handle)
	if r.Status != http.StatusNoContent || len(r.Body) != 0 {
		t.Fatalf("revoke: %d %s, want 204 and no body", r.Status, r.Body)
	}
	if r := get(blue.Token); r.Status != http.StatusUnauthorized || r.code() != web.EUNAUTHORIZED {
		t.Errorf("the revoked link: %d %s, want 401", r.Status, r.Body)
	}
	if r := e.command(t, enc.ID, blue.Token, "start", 0); r.Status != http.StatusUnauthorized {
		t.Errorf("a command with the revoked link: %d %s, want 401", r.Status, r.Body)
	}
	if r := get(mono.Token); r.Status != http.StatusOK {
		t.Errorf("the other link after a revocation: %d %s", r.Status, r.Body)
	}
	if r := get(enc.Token); r.Status != http.StatusOK {
		t.Errorf("the GM after a revocation: %d %s", r.Status, r.Body)
	}
	want := []listedPlayer{{Handle: mono.Handle, Combatant: "Monolith", CombatantID: mono.CombatantID, Present: true}}
	if diff := cmp.Diff(want, e.players(t, enc.ID, enc.Token), cmpopts.IgnoreFields(listedPlayer{}, "Created")); diff != "" {
		t.Errorf("players after a revocation (-want +got):\n%s", diff)
	}

	notFound := []struct{ name, handle string }{
		{"twice", blue.Handle},
		{"unknown", strings.Repeat("0", 16)},
		{"the GM's own token", fray.HashToken(enc.Token)[:16]},
	}
	for _, tt := range notFound {
		if r := e.revoke(t, enc.ID, enc.Token, tt.handle); r.Status != http.StatusNotFound || r.code() != fray.ENOTFOUND {
			t.Errorf("revoke %s: %d %s, want 404 %s", tt.name, r.Status, r.Body, fray.ENOTFOUND)
		}
	}
	bad := []struct{ name, handle string }{
		{"upper case", strings.ToUpper(mono.Handle)},
		{"short", mono.Handle[:15]},
		{"long", mono.Handle + "0"},
		{"the whole hash", fray.HashToken(mono.Token)},
		{"not hex", "g" + mono.Handle[1:]},
		{"a space", "%20" + mono.Handle[1:]},
		{"the token", mono.Token},
	}
	for _, tt := range bad {
		if r := e.revoke(t, enc.ID, enc.Token, tt.handle); r.Status != http.StatusBadRequest || r.code() != fray.EINVALID {
			t.Errorf("revoke with a bad handle (%s): %d %s, want 400 %s", tt.name, r.Status, r.Body, fray.EINVALID)
		}
	}
	if r := get(mono.Token); r.Status != http.StatusOK {
		t.Errorf("the other link after refused revocations: %d %s", r.Status, r.Body)
	}
	if r := get(enc.Token); r.Status != http.StatusOK {
		t.Errorf("the GM after revoking their own handle was refused: %d %s", r.Status, r.Body)
	}
	if r := e.revoke(t, "nobody", enc.Token, mono.Handle); r.Status != http.StatusForbidden {
		t.Errorf("revoke in an unknown encounter: %d %s, want 403", r.Status, r.Body)
	}
}

// TestBrowserPlayerLinks: the GM screen lists the player links made, a
// removed character's as gone, and its Revoke button revokes one: the
// list and the combatant's card drop it, and its token answers 401.
func TestBrowserPlayerLinks(t *testing.T) {
	base := startRealServer(t)
	b := newChrome(t)
	gm := b.tab(t, "gm", false)
	gm.do(chromedp.Navigate(base + "/"))
	gm.do(chromedp.WaitVisible(chromedp.CSS("#create-form")))
	gm.waitFor("the create form, the systems loaded", setupReady)
	gm.do(chromedp.SetValue(chromedp.CSS("#create-rules"), "bpb"),
		chromedp.SetValue(chromedp.CSS("#create-name"), "Links"),
		chromedp.Click(chromedp.CSS(`[data-testid="create"]`)),
		chromedp.WaitVisible(chromedp.CSS("#encounter")))
	gm.waitFor("revision 0", `document.body.dataset.revision === "0"`)
	id := gm.eval(`new URLSearchParams(location.hash.slice(1)).get("e")`)
	list := `document.querySelector('[data-testid="player-links"]')`
	gm.waitFor("the empty list", list+`.textContent.includes("None yet")`)

	gm.add(newCombatant{name: "Blueshift", side: "pc"})
	gm.add(newCombatant{name: "Monolith", side: "pc"})
	for _, name := range []string{"Blueshift", "Monolith"} {
		gm.do(chromedp.Click(chromedp.CSS(`.card[data-name="`+name+`"] button[data-action="link"]`), chromedp.NodeVisible))
		gm.waitFor(name+"'s link", `document.querySelector('input[data-testid="player-link"][data-name="`+name+`"]')`)
	}
	who := `[...document.querySelectorAll('[data-testid="player-link-item"]')].map(e => e.querySelector('[data-testid="player-link-who"]').textContent).join("|")`
	gm.waitFor("both links listed", who+` === "Blueshift|Monolith"`)
	if made := gm.eval(list + `.querySelector("time").getAttribute("datetime")`); made == "" {
		t.Error("the list does not say when the link was made")
	}

	// Monolith leaves: the list says so.
	gm.eval(`(window.confirm = () => true, "")`)
	gm.click(`.card[data-name="Monolith"] button[data-action="remove"]`)
	gm.waitFor("Monolith listed as gone", who+` === "Blueshift|Monolith (gone)"`)

	// Revoke Blueshift's link.
	href := gm.eval(`document.querySelector('input[data-testid="player-link"][data-name="Blueshift"]').value`)
	_, token, ok := strings.Cut(href, "#token=")
	if !ok {
		t.Fatalf("player link %q holds no token", href)
	}
	status := func() int {
		req, err := http.NewRequest("GET", base+"/api/encounters/"+id, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := status(); got != http.StatusOK {
		t.Fatalf("Blueshift's link before the revocation: %d", got)
	}
	handle := fray.HashToken(token)[:16]
	gm.do(chromedp.Click(chromedp.CSS(`[data-testid="player-link-item"][data-handle="`+handle+`"] button[data-action="revoke"]`), chromedp.NodeVisible))
	gm.waitFor("Blueshift's link gone from the list", who+` === "Monolith (gone)"`)
	gm.waitFor("Blueshift's link gone from the card", `!document.querySelector('input[data-testid="player-link"][data-name="Blueshift"]')`)
	if got := status(); got != http.StatusUnauthorized {
		t.Errorf("Blueshift's link after the revocation: %d, want 401", got)
	}
	gm.shot(screenshotDir(t), "gm-player-links.png")
	gm.checkConsole()
}
