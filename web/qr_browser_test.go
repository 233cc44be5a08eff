package web_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserQR makes a player link and shows the GM link on the GM
// screen, opens each one's QR code by a click, and has an independent
// reader (zbarimg, Debian's zbar-tools) read the code off a screenshot of
// the page: it must give the link the page shows, whole.
func TestBrowserQR(t *testing.T) {
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("zbarimg is missing (CI=true: ./scripts/test installs Debian's zbar-tools)")
		}
		t.Skip("zbarimg is missing: apt-get install zbar-tools (./scripts/test installs it)")
	}
	base := startRealServer(t)
	b := newChrome(t)
	p := b.tab(t, "qr", true)
	p.do(chromedp.EmulateViewport(1440, 900))
	p.do(chromedp.Navigate(base + "/"))
	p.waitFor("the create form, the systems loaded", setupReady)
	p.do(chromedp.SetValue(chromedp.CSS("#create-rules"), "bpb"),
		chromedp.SetValue(chromedp.CSS("#create-name"), "Codes"),
		chromedp.Click(chromedp.CSS(`[data-testid="create"]`)),
		chromedp.WaitVisible(chromedp.CSS("#encounter")))
	p.waitFor("revision 0", `document.body.dataset.revision === "0"`)
	p.addPerson(person{name: "Ann", side: "pc"})
	press := func(css string) { // a click that sends no command
		t.Helper()
		p.do(chromedp.Click(chromedp.CSS(css), chromedp.NodeVisible))
	}
	press(`[data-action="link"][data-name="Ann"]`)
	p.waitFor("Ann's player link", `!!document.querySelector('[data-testid="player-link"][data-name="Ann"]')`)
	link := p.eval(`document.querySelector('[data-testid="player-link"][data-name="Ann"]').value`)
	press(`[aria-label="Show the QR code of the player link for Ann"]`)
	read := func(what, img string) string {
		t.Helper()
		p.waitFor(what+"'s code drawn", `(() => { const i = document.querySelector(`+jsString(img)+`); return !!i && i.complete && i.naturalWidth > 0; })()`)
		p.do(chromedp.ScrollIntoView(chromedp.CSS(img)))
		png, err := chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSS(img)))
		if err != nil {
			t.Fatalf("%s: screenshot: %v", what, err)
		}
		file := filepath.Join(t.TempDir(), "code.png")
		if err := os.WriteFile(file, png, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(zbar, "--raw", "-q", "-Sbinary", file).Output()
		if err != nil {
			t.Fatalf("%s: zbarimg read no code off the page: %v", what, err)
		}
		return strings.TrimSuffix(string(out), "\n")
	}
	if got := read("the player link", `.qrbox img[data-testid="qr"]`); got != link || !strings.Contains(link, "/play/") {
		t.Errorf("the player link's code reads %q, the page shows %q", got, link)
	}
	press(`[data-testid="gm-link-show"]`)
	p.waitFor("the GM link", `document.querySelector('[data-testid="gm-link"]').value !== ""`)
	gm := p.eval(`document.querySelector('[data-testid="gm-link"]').value`)
	press(`[aria-label="Show the QR code of the GM link"]`)
	if got := read("the GM link", `#gm-link-qr img[data-testid="qr"]`); got != gm || !strings.Contains(gm, "gm=") {
		t.Errorf("the GM link's code reads %q, the page shows %q", got, gm)
	}
	p.checkConsole()
}
