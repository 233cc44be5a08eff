package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"fray"
	"fray/rules/bpb"
	"fray/sqlite"
	"fray/web"
)

// TestBrowserSheets brings Blueshift's party and foes into a bpb
// encounter from the GM screen, in real headless Chromium: a party file
// pasted into the line box is read whole as a sheet file, previewed (who
// joins, and nothing changes) and added in one step; the foes file is
// uploaded; one undo takes the foes back whole. A file naming combatants
// the encounter has, a file with a wrong stat, and an Add refused after
// its preview list every problem with its line, and add nobody. The
// server has a public address: player links and the GM link are built
// from it, and the GM link opens the GM screen in a browser context of
// its own, which keeps the key and takes it out of the address.
func TestBrowserSheets(t *testing.T) {
	base, public := startPublicServer(t)
	b := newChrome(t)
	gm := b.tab(t, "gm", false)

	gm.do(chromedp.Navigate(base + "/"))
	gm.do(chromedp.WaitVisible(chromedp.CSS("#create-form")))
	gm.waitFor("the create form, the systems loaded", setupReady)
	gm.do(chromedp.SetValue(chromedp.CSS("#create-rules"), "bpb"),
		chromedp.SetValue(chromedp.CSS("#create-name"), "Blueshift's corner"),
		chromedp.Click(chromedp.CSS(`[data-testid="create"]`)),
		chromedp.WaitVisible(chromedp.CSS("#encounter")))
	gm.waitFor("revision 0", `document.body.dataset.revision === "0"`)
	id := gm.eval(`new URLSearchParams(location.hash.slice(1)).get("e")`)

	party := string(readExample(t, "bpb-party.yaml"))
	foes, err := filepath.Abs(filepath.Join("..", "examples", "bpb-foes.yaml"))
	if err != nil {
		t.Fatal(err)
	}

	// The party, pasted where a list of combatants goes: the page sees a
	// sheet file and previews it whole (no combatant named "characters:").
	gm.do(chromedp.Click(chromedp.CSS("details.paste summary"), chromedp.NodeVisible))
	gm.setText("#paste", party)
	gm.do(chromedp.Click(chromedp.CSS(`[data-testid="paste-add"]`), chromedp.NodeVisible))
	gm.waitFor("the party's preview", `document.querySelectorAll('[data-testid="sheets-joining"] li').length === 2`)
	gm.expectJoining("the party, on the side its sheets name", []string{"Blueshift: PC, character", "Monolith: PC, character"})
	if got := gm.eval(`document.getElementById("paste").value`); got != "" {
		t.Errorf("the line box still holds %q after its sheet file went to the sheets control", got)
	}
	if rev, cards := gm.revision(), gm.cards(); rev != 0 || len(cards) != 0 {
		t.Fatalf("after a preview: revision %d, cards %v; want nothing changed", rev, cards)
	}
	gm.clickSheets("add")
	gm.waitFor("the party's cards", `document.querySelectorAll("#combatants .card").length === 2 && document.body.dataset.revision !== "0"`)
	// The live stream may show the cards before the answer to the add
	// says who joined.
	gm.waitFor("the party's joined list", `(document.querySelector('[data-testid="sheets-head"]') || {}).textContent === "2 joined:"`)
	gm.expectJoining("the party, joined", []string{"Blueshift: PC, character", "Monolith: PC, character"})
	if diff := cmp.Diff([]string{"Blueshift", "Monolith"}, gm.cards()); diff != "" {
		t.Errorf("cards after the party joined (-want +got):\n%s", diff)
	}
	// The sheet came whole: stats and tracks from the file.
	for _, c := range []struct{ name, track, max, stat, value string }{
		{"Blueshift", "endurance", "20", "agility", "9"},
		{"Monolith", "endurance", "30", "brawn", "12"},
	} {
		card := `document.querySelector('.card[data-name="` + c.name + `"]')`
		if got := gm.eval(card + `.querySelector('[data-track="` + c.track + `"]')?.dataset.max ?? ""`); got != c.max {
			t.Errorf("%s's %s track: max %q, want %q", c.name, c.track, got, c.max)
		}
		if got := gm.eval(`[...` + card + `.querySelectorAll("dl.stats div")].find(d => d.querySelector("dt").textContent === "` + c.stat + `")?.querySelector("dd").textContent ?? ""`); got != c.value {
			t.Errorf("%s's %s: %q, want %q", c.name, c.stat, got, c.value)
		}
	}

	// The foes, uploaded; the henchmen's sheet names no side: the side
	// chosen.
	gm.setSide("npc")
	gm.do(chromedp.SetUploadFiles(chromedp.CSS("#sheets-file"), []string{foes}))
	gm.waitFor("the foes file read", `document.getElementById("sheets-text").value.includes("Ganyeka")`)
	gm.clickSheets("preview")
	gm.waitFor("the foes' preview", `document.querySelectorAll('[data-testid="sheets-joining"] li').length === 2`)
	gm.expectJoining("the foes", []string{"Ganyeka: NPC, character", "Ganyeka's henchmen: NPC, group"})
	rev := gm.revision()
	gm.clickSheets("add")
	gm.waitFor("the foes' cards", `document.querySelectorAll("#combatants .card").length === 4 && Number(document.body.dataset.revision) > `+strconv.Itoa(rev))
	want := []string{"Blueshift", "Monolith", "Ganyeka", "Ganyeka's henchmen"}
	if diff := cmp.Diff(want, gm.cards()); diff != "" {
		t.Errorf("cards after the foes joined (-want +got):\n%s", diff)
	}

	// One undo takes the whole file back; redo brings it again.
	gm.click(`[data-testid="undo"]`)
	gm.waitFor("the foes undone", `document.querySelectorAll("#combatants .card").length === 2`)
	gm.click(`[data-testid="redo"]`)
	gm.waitFor("the foes redone", `document.querySelectorAll("#combatants .card").length === 4`)
	rev = gm.revision()

	// Refusals: every problem with its line, and nobody added.
	bad := strings.Replace(party, "brawn: 12", "brawn: 99", 1)
	for _, tc := range []struct {
		name, text string
		want       []string // the problems listed
		lines      []string // their data-line
		status     string   // the refusal, as the browser logs it
	}{
		{"names taken", party, []string{
			`line 5: Blueshift: there is already a combatant named "Blueshift" in the encounter`,
			`line 16: Monolith: there is already a combatant named "Monolith" in the encounter`,
		}, []string{"5", "16"}, "409 (Conflict)"},
		{"a wrong stat", bad, []string{"line 19: Monolith.stats.brawn: must be from 1 to 14"}, []string{"19"}, "400 (Bad Request)"},
	} {
		gm.setText("#sheets-text", tc.text)
		gm.clickSheets("preview")
		gm.waitFor(tc.name+": the problems", `document.querySelector('[data-testid="sheets-problems"]')`)
		gm.refusalLogged(tc.status)
		gm.expectProblems(tc.name, tc.want, tc.lines)
		if gm.eval(`String(document.querySelector('[data-testid="sheets-add"]').disabled)`) != "true" {
			t.Errorf("%s: Add is enabled after a refused preview", tc.name)
		}
		if r, cards := gm.revision(), gm.cards(); r != rev || !cmp.Equal(cards, want) {
			t.Errorf("%s: revision %d, cards %v; want %d, %v: nothing added", tc.name, r, cards, rev, want)
		}
	}

	// An Add refused after its preview: Zed is added by hand between the
	// two. Only the hand-made Zed is there after.
	const stats = "    stats: {brawn: 4, agility: 4, accuracy: 4, prowess: 4, perception: 3, willpower: 3}\n    tracks: {endurance: 12}\n"
	gm.setText("#sheets-text", "characters:\n  - name: Zed\n"+stats+"  - name: Yve\n"+stats)
	gm.clickSheets("preview")
	gm.waitFor("Zed's preview", `document.querySelectorAll('[data-testid="sheets-joining"] li').length === 2`)
	gm.add(newCombatant{name: "Zed", side: "npc"})
	rev = gm.revision()
	gm.clickSheets("add")
	gm.waitFor("the refused add", `document.querySelector('[data-testid="sheets-problems"]')`)
	gm.refusalLogged("409 (Conflict)")
	gm.expectProblems("an add after its preview", []string{`line 2: Zed: there is already a combatant named "Zed" in the encounter`}, []string{"2"})
	if msg := gm.eval(`document.querySelector('[data-testid="sheets-error"]').textContent`); !strings.HasSuffix(msg, "Nothing was added.") {
		t.Errorf("the refused add says %q, want it to end in %q", msg, "Nothing was added.")
	}
	want = append(want, "Zed")
	if r, cards := gm.revision(), gm.cards(); r != rev || !cmp.Equal(cards, want) {
		t.Errorf("after the refused add: revision %d, cards %v; want %d, %v", r, cards, rev, want)
	}

	// The server's public address, which links are built from.
	res, err := http.Get(base + "/api/server")
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		PublicURL string `json:"public_url"`
	}
	err = json.NewDecoder(res.Body).Decode(&info)
	res.Body.Close()
	if err != nil || info.PublicURL != public {
		t.Errorf("GET /api/server: public_url %q (%v), want %q", info.PublicURL, err, public)
	}
	gm.do(chromedp.Click(chromedp.CSS(`.card[data-name="Blueshift"] button[data-action="link"]`), chromedp.NodeVisible))
	gm.waitFor("Blueshift's player link", `document.querySelector('input[data-testid="player-link"][data-name="Blueshift"]')`)
	if link := gm.eval(`document.querySelector('input[data-testid="player-link"][data-name="Blueshift"]').value`); !strings.HasPrefix(link, public+"play/"+id+"#token=") {
		t.Errorf("player link = %q, want %splay/%s#token=…", link, public, id)
	}
	if gm.eval(`String(document.getElementById("links-local").hidden)`) != "true" {
		t.Errorf("the page warns that its links open only here, though the server has a public address")
	}

	// The GM link: the key in the fragment, never in the query.
	gm.do(chromedp.Click(chromedp.CSS(`[data-testid="gm-link-show"]`), chromedp.NodeVisible))
	gm.waitFor("the GM link", `document.getElementById("gm-link").value !== ""`)
	gmLink := gm.eval(`document.getElementById("gm-link").value`)
	token := gm.eval(`JSON.parse(localStorage.getItem("fray.gm"))[` + jsString(id) + `].token`)
	if wantLink := public + "#e=" + id + "&gm=" + token; gmLink != wantLink || strings.Contains(gmLink, "?") {
		t.Fatalf("GM link = %q, want %q", gmLink, wantLink)
	}

	other := b.tab(t, "other device", true)
	other.do(chromedp.Navigate(gmLink))
	other.waitFor("the GM screen on another device", `!document.getElementById("encounter").hidden && document.body.dataset.revision === "`+strconv.Itoa(rev)+`"`)
	if diff := cmp.Diff(want, other.cards()); diff != "" {
		t.Errorf("the other device's cards (-want +got):\n%s", diff)
	}
	if got := other.eval(`location.hash`); got != "#e="+id {
		t.Errorf("the other device's address ends in %q, want %q: the key taken out", got, "#e="+id)
	}
	if got := other.eval(`JSON.parse(localStorage.getItem("fray.gm") || "{}")[` + jsString(id) + `]?.token ?? ""`); got != token {
		t.Errorf("the other device keeps the key %q, want the GM's", got)
	}
	if got := other.eval(`document.getElementById("enc-title").textContent`); !strings.HasPrefix(got, "Blueshift's corner · ") {
		t.Errorf("the other device's title = %q, want the encounter's name", got)
	}
	// It runs the encounter: a click there shows on the first screen.
	other.click(`[data-testid="declare-order"]`)
	other.click(`[data-testid="start"]`)
	other.sync(gm)
	// A refresh there loses nothing.
	other.do(chromedp.Reload())
	other.waitFor("the other device after a refresh", `!document.getElementById("encounter").hidden && document.body.dataset.revision === "`+strconv.Itoa(gm.revision())+`"`)
	for _, p := range []*tab{gm, other} {
		p.checkConsole()
	}
}

// startPublicServer starts the real server on 127.0.0.1:0 with a SQLite
// file, telling it that players reach it at localhost on the same port
// (another address of the same server): it returns the address the test
// opens and that public one.
func startPublicServer(t *testing.T) (base, public string) {
	t.Helper()
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "fray.db"))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	public, err = web.CheckPublicURL(fmt.Sprintf("http://localhost:%d", ln.Addr().(*net.TCPAddr).Port))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(web.Config{
		Store:     store,
		Systems:   map[string]func() fray.System{bpb.ID: func() fray.System { return bpb.New() }},
		PublicURL: public,
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	t.Cleanup(func() {
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		store.Close()
	})
	return "http://" + ln.Addr().String(), public
}

// setText puts text into a text field as a paste does, with its input
// event.
func (p *tab) setText(css, text string) {
	p.t.Helper()
	p.eval(`(() => { const e = document.querySelector(` + jsString(css) + `); e.value = ` + jsString(text) + `; e.dispatchEvent(new Event("input", {bubbles: true})); return ""; })()`)
}

// setSide chooses the side of the characters whose sheet names none.
func (p *tab) setSide(side string) {
	p.t.Helper()
	p.eval(`(() => { const e = document.getElementById("sheets-side"); e.value = ` + jsString(side) + `; e.dispatchEvent(new Event("change", {bubbles: true})); return ""; })()`)
}

// clickSheets clicks the sheets control's Preview or Add button.
func (p *tab) clickSheets(button string) {
	p.t.Helper()
	css := `[data-testid="sheets-` + button + `"]`
	p.waitFor(button+" enabled", `!document.querySelector(`+jsString(css)+`).disabled`)
	p.do(chromedp.Click(chromedp.CSS(css), chromedp.NodeVisible))
}

// refusalLogged waits for the browser's console line about a refused
// request (status as it says it: "409 (Conflict)") and forgives it: the
// page expects the refusal and shows it.
func (p *tab) refusalLogged(status string) {
	p.t.Helper()
	deadline := time.Now().Add(waitWithin)
	for {
		p.mu.Lock()
		n := len(p.errs)
		p.errs = slices.DeleteFunc(p.errs, func(e string) bool { return strings.Contains(e, status) })
		found := len(p.errs) < n
		p.mu.Unlock()
		if found {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: the browser never logged the refused request (%s)", p.name, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cards returns the names on the combatants' cards, in order.
func (p *tab) cards() []string {
	p.t.Helper()
	var out []string
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify([...document.querySelectorAll("#combatants .card")].map(e => e.dataset.name))`)), &out); err != nil {
		p.t.Fatal(err)
	}
	return out
}

// expectJoining checks the list of who joins (or would).
func (p *tab) expectJoining(what string, want []string) {
	p.t.Helper()
	var got []string
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify([...document.querySelectorAll('[data-testid="sheets-joining"] li')].map(e => e.textContent))`)), &got); err != nil {
		p.t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		p.t.Errorf("%s: who joins (-want +got):\n%s", what, diff)
	}
}

// expectProblems checks the listed problems of a refused file and their
// lines.
func (p *tab) expectProblems(what string, want, lines []string) {
	p.t.Helper()
	var got struct{ Text, Lines []string }
	if err := json.Unmarshal([]byte(p.eval(`JSON.stringify({
		Text: [...document.querySelectorAll('[data-testid="sheets-problems"] li')].map(e => e.textContent),
		Lines: [...document.querySelectorAll('[data-testid="sheets-problems"] li')].map(e => e.dataset.line || ""),
	})`)), &got); err != nil {
		p.t.Fatal(err)
	}
	if diff := cmp.Diff(want, got.Text); diff != "" {
		p.t.Errorf("%s: problems (-want +got):\n%s", what, diff)
	}
	if diff := cmp.Diff(lines, got.Lines); diff != "" {
		p.t.Errorf("%s: problems' lines (-want +got):\n%s", what, diff)
	}
}
