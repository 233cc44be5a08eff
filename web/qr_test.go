package web_test

import (
	"strings"
	"testing"

	"fray"
	"fray/qr"
)

func TestQRCode(t *testing.T) {
	e := start(t, nil)
	link := "http://192.168.1.20:8080/play.html#e=38872dcd85a5e2bd27b8&t=p88-pA2CVS8G4zDC93HNJWDIZZKYdZRHkmqP0epFMe4"
	r := e.send(t, "POST", "/api/qr", "", map[string]string{"text": link, "title": "Player link for <Ann>"})
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("status %d, type %q: %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	// A 103-byte link is a version 6 symbol (level M holds 84 to 106 bytes
	// there): 41 modules and the quiet zone of 4 on each side.
	body := string(r.Body)
	for _, want := range []string{`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 49 49"`, "<title>Player link for &lt;Ann&gt;</title>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the image lacks %s: %.200s", want, body)
		}
	}
	if strings.Contains(body, "p88-pA2") || r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("the answer shows the token in clear, or may be cached (Cache-Control %q)", r.Header.Get("Cache-Control"))
	}
	for _, tc := range []struct {
		name   string
		body   map[string]string
		status int
		code   string
		says   string
	}{
		{"no text", map[string]string{}, 400, fray.EINVALID, "text is missing"},
		{"too long", map[string]string{"text": strings.Repeat("x", qr.MaxText+1)}, 413, fray.ETOOLARGE, "qr.MaxText"},
	} {
		r := e.send(t, "POST", "/api/qr", "", tc.body)
		if r.Status != tc.status || r.code() != tc.code || !strings.Contains(string(r.Body), tc.says) {
			t.Errorf("%s: %d %s", tc.name, r.Status, r.Body)
		}
	}
}
