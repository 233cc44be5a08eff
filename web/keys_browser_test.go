package web_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserKeysThemeDrag checks the GM screen's `?` overlay of keys
// (opened by the key, closed by Escape, the focus back where it was), the
// light/dark toggle over the system's preference (kept across a reload),
// and reordering by drag and by keyboard before the start in bpb, whose
// order is declared, and by keyboard once started (its reorder, from the
// next round); and that in queue, whose order is rolled, the slots do not move.
func TestBrowserKeysThemeDrag(t *testing.T) {
	base := startRealServer(t)
	b := newChrome(t)
	gm := b.tab(t, "gm", true)
	gm.do(chromedp.EmulateViewport(1440, 900))
	if _, err := chromedp.Call(gm.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	}); err != nil {
		t.Fatal(err)
	}
	gm.create(base, "bpb", "Keys")
	for _, n := range []string{"Ann", "Bob", "Cat"} {
		gm.add(newCombatant{name: n, side: "pc"})
	}

	// The overlay of keys.
	gm.eval(`(document.getElementById("undo").focus(), "")`)
	gm.do(chromedp.KeyEvent("?"))
	gm.waitFor("the keys overlay", `!document.getElementById("keys").hidden`)
	keys := gm.eval(`[...document.querySelectorAll("#keys [data-key]")].map(e => e.dataset.key).join(" | ")`)
	for _, k := range []string{"n", "u Ctrl+Z", "/", "?", "Alt+↑ Alt+↓"} {
		if !slices.Contains(strings.Split(keys, " | "), k) {
			t.Errorf("the keys overlay lists %q, not %q", keys, k)
		}
	}
	gm.do(chromedp.KeyEvent(kb.Escape))
	gm.waitFor("the overlay closed", `document.getElementById("keys").hidden`)
	if got := gm.eval(`document.activeElement.id`); got != "undo" {
		t.Errorf("after the overlay closed the focus is on %q, want back on undo", got)
	}

	// The theme: the system's (dark here), then light, then dark, kept
	// across a reload, then the system's again.
	bg := func() string { return gm.eval(`getComputedStyle(document.body).backgroundColor`) }
	const light, dark = "rgb(244, 243, 239)", "rgb(21, 23, 26)"
	if got := bg(); got != dark {
		t.Fatalf("with the system dark, the page's background is %s, want %s", got, dark)
	}
	for _, want := range []struct{ theme, bg string }{{"light", light}, {"dark", dark}} {
		gm.do(chromedp.Click(chromedp.CSS(`[data-testid="theme"]`), chromedp.NodeVisible))
		gm.waitFor("theme "+want.theme, `document.documentElement.dataset.theme === `+jsString(want.theme))
		if got := bg(); got != want.bg {
			t.Errorf("theme %s: the background is %s, want %s", want.theme, got, want.bg)
		}
	}
	gm.do(chromedp.Click(chromedp.CSS(`[data-testid="theme"]`), chromedp.NodeVisible))
	gm.waitFor("theme system", `!document.documentElement.dataset.theme`)
	gm.do(chromedp.Click(chromedp.CSS(`[data-testid="theme"]`), chromedp.NodeVisible))
	gm.waitFor("theme light", `document.documentElement.dataset.theme === "light"`)
	gm.do(chromedp.Reload())
	gm.waitFor("the screen after a reload", `document.querySelectorAll("#order > li.slot").length === 3`)
	if got, th := bg(), gm.eval(`document.documentElement.dataset.theme || ""`); got != light || th != "light" {
		t.Errorf("after a reload the theme is %q and the background %s, want light, %s", th, got, light)
	}

	// Drag: Cat onto Ann puts Cat first.
	gm.do(chromedp.DragAndDrop(chromedp.CSS(`#order li.slot[data-name="Cat"]`), chromedp.CSS(`#order li.slot[data-name="Ann"]`)))
	gm.waitFor("Cat first", `[...document.querySelectorAll("#order > li.slot")].map(e => e.dataset.name).join(",") === "Cat,Ann,Bob"`)
	gm.keyOnSlot("Ann", kb.ArrowDown)
	if got := gm.shown().Order; !slices.Equal(got, []string{"Cat", "Bob", "Ann"}) {
		t.Errorf("after Alt+↓ on Ann the order is %v, want Cat, Bob, Ann", got)
	}
	// Once started, a move is bpb's reorder: from the next round on.
	gm.click(`[data-testid="declare-order"]`)
	gm.click(`[data-testid="start"]`)
	gm.keyOnSlot("Cat", kb.ArrowDown)
	if got := gm.shown().Next; !slices.Equal(got, []string{"Bob", "Cat", "Ann"}) {
		t.Errorf("after Alt+↓ on Cat in round 1 the next round is %v, want Bob, Cat, Ann", got)
	}
	if got := gm.shown().Order; len(got) != 3 || !strings.HasPrefix(got[0], "Cat") || !strings.HasPrefix(got[1], "Bob") {
		t.Errorf("after Alt+↓ on Cat in round 1 this round's order is %v, want it as it was: Cat, Bob, Ann", got)
	}
	gm.checkConsole()

	// queue rolls its order: its slots are not movable.
	q := b.tab(t, "queue", true)
	q.create(base, "queue", "No moving")
	q.add(newCombatant{name: "Ann", side: "pc"})
	q.add(newCombatant{name: "Bob", side: "npc"})
	if got := q.eval(`String(document.querySelectorAll('#order li.slot[draggable="true"]').length)`); got != "0" {
		t.Errorf("queue's order has %s movable slots, want none", got)
	}
	q.checkConsole()
}
