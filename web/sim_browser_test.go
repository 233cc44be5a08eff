package web_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserSim sets up a queue duel on the GM screen by its command
// line, clicks Simulate in the "Simulate from here" panel, and checks
// what the panel shows: the fights asked for, two sides whose chances are
// percentages adding up with the unfinished share to about 100%, a bar
// for each, and the rounds histogram; and that the encounter's revision
// did not move; and that opening another encounter clears the panel.
func TestBrowserSim(t *testing.T) {
	base := startRealServer(t)
	b := newChrome(t)
	p := b.tab(t, "sim", true)
	p.do(chromedp.EmulateViewport(1440, 900))
	p.do(chromedp.Navigate(base + "/"))
	p.waitFor("the create form, the systems loaded", setupReady)
	p.do(chromedp.SetValue(chromedp.CSS("#create-rules"), "queue"),
		chromedp.SetValue(chromedp.CSS("#create-name"), "Odds"),
		chromedp.Click(chromedp.CSS(`[data-testid="create"]`)),
		chromedp.WaitVisible(chromedp.CSS("#encounter")))
	p.waitFor("revision 0", `document.body.dataset.revision === "0"`)
	for _, line := range simDuel {
		rev := p.revision()
		p.clear("#cmdline")
		p.do(chromedp.SendKeys(chromedp.CSS("#cmdline"), line), chromedp.Click(chromedp.CSS(`[data-testid="command-run"]`), chromedp.NodeVisible))
		p.waitFor(line, "Number(document.body.dataset.revision) > "+strconv.Itoa(rev))
	}
	rev := p.revision()
	p.clear(`[data-testid="sim-fights"]`)
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="sim-fights"]`), "400"),
		chromedp.Click(chromedp.CSS(`[data-testid="sim-run"]`), chromedp.NodeVisible))
	p.waitFor("the simulation's answer", `(() => { const o = document.querySelector('[data-testid="sim-out"]'); return o.dataset.state === "done" || o.dataset.state === "failed"; })()`)
	if e := p.eval(`(document.querySelector('[data-testid="sim-error"]') || {}).textContent || ""`); e != "" {
		t.Fatalf("the panel says: %s", e)
	}
	if got := p.eval(`document.querySelector('[data-testid="sim-out"] p').textContent`); !strings.HasPrefix(got, "400 fights") {
		t.Errorf("the panel says %q, want it to start with 400 fights", got)
	}
	// Each side's chance as the page shows it, in percent.
	shown := strings.Fields(p.eval(`[...document.querySelectorAll('[data-testid="sim-side"] .sim-win'), document.querySelector('[data-testid="sim-unfinished"]')].map(e => e.textContent.replace("Unfinished: ", "")).join(" ")`))
	if len(shown) != 3 {
		t.Fatalf("the panel shows %q; want two sides and the unfinished share", shown)
	}
	sum := 0.0
	for _, s := range shown {
		v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || !strings.HasSuffix(s, "%") || v < 0 || v > 100 {
			t.Fatalf("the panel shows %q, not a percentage", s)
		}
		sum += v
	}
	if math.Abs(sum-100) > 0.15 { // each rounded to 0.1%
		t.Errorf("the sides and unfinished show %v, adding up to %v%%, want about 100%%", shown, sum)
	}
	if sides := p.eval(`[...document.querySelectorAll('[data-testid="sim-side"]')].map(e => e.dataset.side + ":" + e.querySelectorAll(".sim-bar").length).join(" ")`); sides != "pc:1 npc:1" {
		t.Errorf("the sides shown are %q, want pc and npc with a bar each", sides)
	}
	if cols := p.eval(`String(document.querySelectorAll('[data-testid="sim-hist"] .sim-col').length)`); cols == "0" {
		t.Errorf("the rounds histogram has no bars")
	}
	if got := p.revision(); got != rev {
		t.Errorf("the simulation moved the encounter from revision %d to %d", rev, got)
	}
	if n := p.eval(`String(document.querySelectorAll('[data-testid="sim-exact-win"]').length)`); n != "0" {
		t.Errorf("without Solve exactly, the panel shows %s exact chances", n)
	}

	// Solved exactly too, within 3 rounds: Ann hits on 9+ (12 faces in
	// 20) and goes first, Bo on 11+ (10 in 20), one hit takes either out,
	// and a round that leaves both standing has chance 0.4 × 0.5 = 0.2;
	// so Ann wins 0.6 × (1 + 0.2 + 0.04) = 0.744, Bo 0.4 × 0.5 × 1.24 =
	// 0.248, and 0.2³ = 0.008 is unfinished (sim's TestExactQueueByHand).
	p.clear(`[data-testid="sim-rounds"]`)
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid="sim-rounds"]`), "3"),
		chromedp.Click(chromedp.CSS(`[data-testid="sim-exact"]`), chromedp.NodeVisible),
		chromedp.Click(chromedp.CSS(`[data-testid="sim-run"]`), chromedp.NodeVisible))
	p.waitFor("the exact answer", `(() => { const o = document.querySelector('[data-testid="sim-out"]'); return (o.dataset.state === "done" && o.querySelector('[data-testid="sim-exact-win"]')) || o.dataset.state === "failed"; })()`)
	if e := p.eval(`(document.querySelector('[data-testid="sim-error"]') || document.querySelector('[data-testid="sim-exact-why"]') || {}).textContent || ""`); e != "" {
		t.Fatalf("the panel says: %s", e)
	}
	exact := strings.Fields(p.eval(`[...document.querySelectorAll('[data-testid="sim-exact-win"]')].map(e => (e.closest("li").dataset.side || "") + "=" + e.dataset.p + "=" + e.textContent.replaceAll(" ", "_")).join(" ")`))
	want := []struct {
		side string
		p    float64
		text string
	}{{"pc", 0.744, "exactly_74.400%"}, {"npc", 0.248, "exactly_24.800%"}, {"", 0.008, "exactly_0.800%"}}
	if len(exact) != len(want) {
		t.Fatalf("the exact chances shown are %q; want each side's and the unfinished share's", exact)
	}
	if got := p.eval(`document.querySelector('[data-testid="sim-out"] p').textContent`); !strings.Contains(got, "3 rounds at most") {
		t.Errorf("the panel says %q, want it to name the 3 rounds asked for", got)
	}
	for i, w := range want {
		f := strings.Split(exact[i], "=")
		v, err := strconv.ParseFloat(f[1], 64)
		if len(f) != 3 || f[0] != w.side || err != nil || math.Abs(v-w.p) > 1e-12 || f[2] != w.text {
			t.Errorf("exact chance %d is %q, want side %q, %v, %q", i, exact[i], w.side, w.p, w.text)
		}
	}

	// Another encounter opened in the same page (no reload) shows no
	// simulation of the first; back on the first, none either until
	// Simulate is clicked again.
	first := p.eval(`new URLSearchParams(location.hash.slice(1)).get("e")`)
	p.eval(`(location.hash = "", "")`)
	p.do(chromedp.WaitVisible(chromedp.CSS("#create-form")))
	p.do(chromedp.SetValue(chromedp.CSS("#create-rules"), "queue"),
		chromedp.SetValue(chromedp.CSS("#create-name"), "Another"),
		chromedp.Click(chromedp.CSS(`[data-testid="create"]`)),
		chromedp.WaitVisible(chromedp.CSS("#encounter")))
	p.waitFor("the second encounter", `document.body.dataset.revision === "0" && new URLSearchParams(location.hash.slice(1)).get("e") !== `+jsString(first))
	simShown := `document.querySelector('[data-testid="sim-out"]').textContent`
	if got := p.eval(simShown); got != "" {
		t.Errorf("on another encounter, the panel shows %q, want nothing", got)
	}
	p.eval(`(location.hash = "e=" + ` + jsString(first) + `, "")`)
	p.waitFor("the first encounter again", `document.body.dataset.revision === "`+strconv.Itoa(rev)+`"`)
	if got := p.eval(simShown); got != "" {
		t.Errorf("back on the first encounter, the panel shows %q, want nothing until Simulate is clicked", got)
	}
	p.checkConsole()
}
