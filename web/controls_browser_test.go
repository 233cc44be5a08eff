package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserControls runs a fight from the GM screen's controls alone,
// in real headless Chromium, for two systems: combatants added with the
// add form, the start, an attack built in its command form (whose odds
// show before the click, as a sensible percentage), damage and heal from
// a card, a condition set in its form and cleared by a click on its chip,
// and undo by a click, each checked against what the page then shows. No
// command is typed. It also checks the two mistakes the page used to
// make (a duplicate name read as a stale revision; the Kind select
// keeping "group"), that the order of play comes before the forms, and
// saves screenshots at 1440×900 and 390×844 (see screenshotDir).
func TestBrowserControls(t *testing.T) {
	base := startRealServer(t)
	b := newChrome(t)
	dir := screenshotDir(t)
	cases := []struct {
		rules      string
		people     []person
		attack     map[string]string // the attack form's fields to fill in: data-param → value
		wantAttack string            // the command the attack form builds
		track      string            // the track damage and heal change
		group      bool              // add a group too (unaware: it takes no turn)
	}{
		{
			rules: "bpb",
			people: []person{
				{name: "Ann", side: "pc", stats: map[string]string{"agility": "5", "prowess": "5", "endurance": "20"}},
				{name: "Bob", side: "npc", stats: map[string]string{"agility": "3", "endurance": "20"}},
			},
			attack:     map[string]string{"with": "blast", "rank": "6"},
			wantAttack: "attack Ann Bob with=blast rank=6",
			track:      "endurance",
			group:      true,
		},
		{
			rules: "queue",
			people: []person{
				{name: "Johann", side: "pc", stats: map[string]string{"wits": "3", "hp": "20"}, opts: map[string]string{"weapon": "sword:medium"}},
				{name: "Melvina", side: "npc", stats: map[string]string{"wits": "2", "hp": "20"}, opts: map[string]string{"weapon": "axe:heavy"}},
			},
			attack: map[string]string{"mod": "2"},
			track:  "hp",
		},
	}
	for _, tc := range cases {
		t.Run(tc.rules, func(t *testing.T) {
			p := b.tab(t, tc.rules, true)
			p.do(chromedp.EmulateViewport(1440, 900))
			p.do(chromedp.Navigate(base + "/"))
			p.waitFor("the create form, the systems loaded", setupReady)
			p.do(chromedp.SetValue(chromedp.CSS("#create-rules"), tc.rules),
				chromedp.SetValue(chromedp.CSS("#create-name"), "Controls of "+tc.rules),
				chromedp.Click(chromedp.CSS(`[data-testid="create"]`)),
				chromedp.WaitVisible(chromedp.CSS("#encounter")))
			p.waitFor("revision 0", `document.body.dataset.revision === "0"`)

			for _, c := range tc.people {
				p.addPerson(c)
			}
			// A group, after which the Kind select is back at its default.
			if tc.group {
				p.addPerson(person{name: "Mooks", side: "npc", kind: "group", unaware: true})
				if got := p.eval(`document.querySelector('#add-form select[name="kind"]').value`); got != "character" {
					t.Errorf("after adding a group the Kind select says %q, want character", got)
				}
			}
			// A duplicate name: the server's words, not a stale revision's.
			p.do(chromedp.SendKeys(chromedp.CSS("#add-name"), tc.people[0].name),
				chromedp.Click(chromedp.CSS(`[data-testid="add"]`), chromedp.NodeVisible))
			p.waitFor("the refusal of a duplicate name", `document.getElementById("notice").textContent.includes("already a combatant named")`)
			// The browser logs the refused request.
			p.mu.Lock()
			p.errs = slices.DeleteFunc(p.errs, func(e string) bool { return strings.Contains(e, "409 (Conflict)") })
			p.mu.Unlock()
			if n := p.notice(); strings.Contains(n, "Someone changed") {
				t.Errorf("a duplicate name shows %q, a stale revision's message", n)
			}
			p.clear("#add-name")
			p.eval(`(document.getElementById("notice").hidden = true, "")`)

			if p.eval(`String(!!document.querySelector('[data-testid="declare-order"]'))`) == "true" {
				p.click(`[data-testid="declare-order"]`)
			}
			p.click(`[data-testid="start"]`)
			if st := p.shown().Status; !strings.HasPrefix(st, "Round 1 · ") {
				t.Fatalf("status after the start = %q, want round 1", st)
			}
			attacker := p.current()
			target := tc.people[0].name
			if target == attacker {
				target = tc.people[1].name
			}
			want := tc.wantAttack
			if want == "" {
				want = "attack " + attacker + " " + target
				for k, v := range tc.attack {
					want += " " + k + "=" + v
				}
			}

			// The attack, from its form: the odds show before the roll.
			p.do(chromedp.Click(chromedp.CSS(`#controls button.chip[data-command="attack"]`), chromedp.NodeVisible))
			form := `#controls form[data-command="attack"]`
			p.waitFor("the attack form", `!!document.querySelector(`+jsString(form)+`)`)
			for k, v := range tc.attack {
				field := form + ` [data-param="` + k + `"]`
				if p.eval(`String(!!document.querySelector(`+jsString(field)+`).closest("details:not([open])"))`) == "true" {
					p.do(chromedp.Click(chromedp.CSS(form+" details.more > summary"), chromedp.NodeVisible))
				}
				p.do(chromedp.SendKeys(chromedp.CSS(field), v, chromedp.NodeVisible))
			}
			p.waitFor("the attack as built", `document.querySelector(`+jsString(form)+`).dataset.text === `+jsString(want))
			if got := p.eval(`document.getElementById("cmdline").value`); got != want {
				t.Errorf("the command line shows %q while the form builds %q", got, want)
			}
			odds := form + ` [data-testid="odds"]`
			p.waitFor("the attack's odds", `(() => { const o = document.querySelector(`+jsString(odds)+`); return o.dataset.state === "ready" && o.dataset.for === `+jsString(want)+`; })()`)
			line := p.eval(`document.querySelector(` + jsString(odds) + `).textContent`)
			checkOddsLine(t, line)
			t.Logf("%s: odds before the roll: %s", tc.rules, line)
			p.shot1(dir, "controls-"+tc.rules+"-1440.png")
			p.click(form + ` button[data-action="send"]`)
			// The log holds the command as the server writes it, its
			// options in order.
			if got := p.eval(`[...document.querySelectorAll("#log li")].find(li => li.querySelector(".log-type")).querySelector(".log-cmd").textContent`); !sameWords(got, want) {
				t.Errorf("the log's last command is %q, want the attack %q", got, want)
			}
			if got := p.eval(`document.getElementById("cmdline").value`); got != want {
				t.Errorf("after the click the command line shows %q, want %q", got, want)
			}

			// Damage and heal from the attacker's card (the target's may
			// still wait for a defence).
			card := `.card[data-name="` + attacker + `"]`
			value := func() int {
				t.Helper()
				s := p.eval(`document.querySelector(` + jsString(card+` li.track[data-track="`+tc.track+`"]`) + `)?.dataset.value || ""`)
				n, err := strconv.Atoi(s)
				if err != nil {
					t.Fatalf("%s's %s track shows %q", attacker, tc.track, s)
				}
				return n
			}
			before := value()
			p.do(chromedp.SetValue(chromedp.CSS(card+` [data-testid="track-amount"]`), "3"))
			p.click(card + ` button[data-action="damage"]`)
			if got := value(); got != before-3 {
				t.Errorf("after damage 3, %s's %s is %d, want %d", attacker, tc.track, got, before-3)
			}
			p.do(chromedp.SetValue(chromedp.CSS(card+` [data-testid="track-amount"]`), "2"))
			p.click(card + ` button[data-action="heal"]`)
			if got := value(); got != before-1 {
				t.Errorf("after heal 2, %s's %s is %d, want %d", attacker, tc.track, got, before-1)
			}

			// A condition from its form, ended by a click on its chip; undo
			// brings it back.
			p.do(chromedp.Click(chromedp.CSS(`#controls button.chip[data-command="condition"]`), chromedp.NodeVisible))
			cf := `#controls form[data-command="condition"]`
			p.waitFor("the condition form", `!!document.querySelector(`+jsString(cf)+`)`)
			p.do(chromedp.SetValue(chromedp.CSS(cf+` select[data-param="NAME"]`), target),
				chromedp.SendKeys(chromedp.CSS(cf+` [data-param="CONDITION"]`), "dazed"))
			p.do(chromedp.Click(chromedp.CSS(cf+" details.more > summary"), chromedp.NodeVisible),
				chromedp.SendKeys(chromedp.CSS(cf+` [data-param="until"]`), "end", chromedp.NodeVisible))
			p.waitFor("the condition as built", `document.querySelector(`+jsString(cf)+`).dataset.text === `+jsString("condition "+target+" dazed until=end"))
			p.click(cf + ` button[data-action="send"]`)
			chip := `.card[data-name="` + target + `"] .chip[data-condition="dazed"]`
			p.waitFor("the condition's chip", `!!document.querySelector(`+jsString(chip)+`)`)
			if got, w := p.eval(`document.querySelector(`+jsString(chip)+`).textContent`), "dazed, until the end of "+target+"'s turn"; !strings.HasPrefix(got, w) {
				t.Errorf("the chip says %q, want it to start with %q", got, w)
			}
			p.click(chip)
			p.waitFor("the chip gone", `!document.querySelector(`+jsString(chip)+`)`)
			p.click(`[data-testid="undo"]`)
			p.waitFor("the chip back after undo", `!!document.querySelector(`+jsString(chip)+`)`)

			// The order of play comes first, on a wide screen and on a phone.
			p.checkFirst("1440×900")
			p.shot1(dir, "controls-"+tc.rules+"-after-1440.png")
			p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
			p.checkFirst("390×844")
			p.shot1(dir, "controls-"+tc.rules+"-390.png")
			p.screen(dir, "controls-"+tc.rules+"-390-first-screen.png")
			p.checkConsole()
		})
	}
}

// TestBrowserEveryCommand opens the form of every command the controls
// offer, in each of the five systems, before the start and after: each
// builds its own command, which the command line shows, and none throws.
func TestBrowserEveryCommand(t *testing.T) {
	base := startRealServer(t)
	b := newChrome(t)
	for _, rules := range []string{"bpb", "cinematic", "pp", "queue", "vv"} {
		t.Run(rules, func(t *testing.T) {
			p := b.tab(t, rules, true)
			p.do(chromedp.Navigate(base + "/"))
			p.waitFor("the create form, the systems loaded", setupReady)
			p.do(chromedp.SetValue(chromedp.CSS("#create-rules"), rules),
				chromedp.Click(chromedp.CSS(`[data-testid="create"]`)),
				chromedp.WaitVisible(chromedp.CSS("#encounter")))
			p.waitFor("revision 0", `document.body.dataset.revision === "0"`)
			p.addPerson(person{name: "Ann", side: "pc"})
			p.addPerson(person{name: "Bob", side: "npc"})
			// Odds asked of a command the moment does not allow are
			// refused, and the browser logs each refusal: clicks here
			// leave the console to the end of each round of them.
			click := func(css string) {
				t.Helper()
				if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(css), chromedp.NodeVisible)); err != nil {
					t.Fatalf("click %s: %v", css, err)
				}
			}
			openAll := func(when string) {
				t.Helper()
				chips := p.eval(`[...document.querySelectorAll("#controls button.chip")].map(b => b.dataset.command).join(" ")`)
				if chips == "" {
					t.Fatalf("%s: no command controls", when)
				}
				for _, c := range strings.Fields(chips) {
					chip := `#controls button.chip[data-command="` + c + `"]`
					click(chip)
					form := `#controls form[data-command="` + c + `"]`
					p.waitFor(c+"'s form", `(document.querySelector(`+jsString(form)+`)?.dataset.text || "").split(" ")[0] === `+jsString(c))
					if got, want := p.eval(`document.getElementById("cmdline").value`), p.eval(`document.querySelector(`+jsString(form)+`).dataset.text`); got != want {
						t.Errorf("%s: the command line shows %q while %s's form builds %q", when, got, c, want)
					}
					click(chip)
					p.waitFor(c+"'s form closed", `!document.querySelector(`+jsString(form)+`)`)
				}
				p.mu.Lock()
				p.errs = slices.DeleteFunc(p.errs, func(e string) bool { return strings.Contains(e, "(Bad Request)") || strings.Contains(e, "(Not Found)") })
				p.mu.Unlock()
				p.checkConsole()
			}
			openAll("before the start")
			p.click(`[data-testid="start"]`)
			openAll("after the start")
		})
	}
}

// person is a combatant the add form adds, with its stats.
type person struct {
	name, side, kind string
	unaware          bool
	stats            map[string]string // the add form's stats
	opts             map[string]string // its other fields, from add's declaration
}

// addPerson fills in and sends the add form, stats and all.
func (p *tab) addPerson(c person) {
	p.t.Helper()
	kind := c.kind
	if kind == "" {
		kind = "character"
	}
	p.clear("#add-name")
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.SendKeys(chromedp.CSS("#add-name"), c.name),
		chromedp.SetValue(chromedp.CSS(`#add-form select[name="side"]`), c.side),
		chromedp.SetValue(chromedp.CSS(`#add-form select[name="kind"]`), kind),
	}
	for k, v := range c.stats {
		steps = append(steps, chromedp.SetValue(chromedp.CSS(`#add-stats input[data-stat="`+k+`"]`), v))
	}
	for k, v := range c.opts {
		steps = append(steps, chromedp.SendKeys(chromedp.CSS(`#add-more [data-opt="`+k+`"]`), v, chromedp.NodeVisible))
	}
	p.do(steps...)
	p.setChecked(`#add-form input[name="aware"]`, !c.unaware)
	p.click(`[data-testid="add"]`)
	p.waitFor(c.name+"'s card", `[...document.querySelectorAll("#combatants .card")].some(e => e.dataset.name === `+jsString(c.name)+`)`)
}

// sameWords reports whether two command lines hold the same words, in
// any order.
func sameWords(a, b string) bool {
	x, y := strings.Fields(a), strings.Fields(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// percent finds the percentages of a line of odds.
var percent = regexp.MustCompile(`(<|>)?(\d+)%`)

// checkOddsLine checks that a line of odds names at least one outcome
// with a percentage from 0 to 100, and that they add up to no more than
// 100 (give or take the rounding).
func checkOddsLine(t *testing.T, line string) {
	t.Helper()
	ms := percent.FindAllStringSubmatch(line, -1)
	if len(ms) == 0 {
		t.Fatalf("the odds line %q holds no percentage", line)
	}
	sum := 0
	for _, m := range ms {
		n, _ := strconv.Atoi(m[2])
		if n < 0 || n > 100 {
			t.Errorf("the odds line %q has %s, not a percentage", line, m[0])
		}
		sum += n
	}
	if sum > 100+len(ms) {
		t.Errorf("the odds line %q adds up to %d%%", line, sum)
	}
}

// checkFirst checks that the turn and the order of play come before the
// command forms (above them, or in a column to their left), and that the
// order of play starts on the first screen.
func (p *tab) checkFirst(size string) {
	p.t.Helper()
	out := p.eval(`JSON.stringify([document.getElementById("turn-controls"), document.getElementById("order"), document.getElementById("controls")]
		.flatMap(e => { const r = e.getBoundingClientRect(); return [Math.round(r.top + scrollY), Math.round(r.left), Math.round(r.right)]; }).concat([innerHeight]))`)
	var turn, order, forms [3]int
	var height int
	if _, err := fmt.Sscanf(strings.Trim(out, "[]"), "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d", &turn[0], &turn[1], &turn[2],
		&order[0], &order[1], &order[2], &forms[0], &forms[1], &forms[2], &height); err != nil {
		p.t.Fatalf("%s: the layout: %q: %v", size, out, err)
	}
	first := func(e [3]int) bool { return e[0] <= forms[0] || e[2] <= forms[1] }
	if !first(turn) || !first(order) {
		p.t.Errorf("%s: the turn (top, left, right: %v) and the order of play (%v) come after the forms (%v)", size, turn, order, forms)
	}
	if order[0] > height {
		p.t.Errorf("%s: the order of play starts at %dpx, below the first screen (%dpx)", size, order[0], height)
	}
}

// screen saves a screenshot of what the first screen shows.
func (p *tab) screen(dir, name string) {
	p.t.Helper()
	p.eval(`(scrollTo(0, 0), "")`)
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("%s: screenshot: %v", p.name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// shot1 saves a full-page screenshot once the page has drawn its last
// change (two animation frames after it is asked).
func (p *tab) shot1(dir, name string) {
	p.t.Helper()
	p.eval(`(window.drawn = false, requestAnimationFrame(() => requestAnimationFrame(() => { window.drawn = true; })), "")`)
	p.waitFor("the page drawn", `window.drawn === true`)
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("%s: screenshot: %v", p.name, err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
}
