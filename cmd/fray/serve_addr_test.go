package main

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray/web"
)

// TestPlayerURLs: the addresses fray serve prints for players are every
// interface address but loopback and IPv6 link-local ones, IPv4 first and
// IPv6 in brackets, for a server on every interface; its own address for
// one on a single address; and only --public-url when it is given.
func TestPlayerURLs(t *testing.T) {
	ipnet := func(s string) net.Addr {
		ip, n, err := net.ParseCIDR(s)
		if err != nil {
			t.Fatal(err)
		}
		return &net.IPNet{IP: ip, Mask: n.Mask}
	}
	tcp := func(s string) net.Addr {
		a, err := net.ResolveTCPAddr("tcp", s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	ifaces := []net.Addr{
		ipnet("127.0.0.1/8"), ipnet("::1/128"), ipnet("fd00::2/64"), ipnet("192.168.1.20/24"),
		ipnet("fe80::fc:ff:fe00:1/64"), ipnet("10.0.0.7/8"), &net.IPAddr{IP: net.ParseIP("2001:db8::5")},
		ipnet("192.168.1.20/24"), // a second interface with the same address
	}
	for _, tc := range []struct {
		name   string
		listen net.Addr
		public string
		ifaces []net.Addr
		want   []string
	}{
		{"every interface", tcp("[::]:8080"), "", ifaces, []string{
			"http://192.168.1.20:8080/", "http://10.0.0.7:8080/", "http://[fd00::2]:8080/", "http://[2001:db8::5]:8080/",
		}},
		{"0.0.0.0", tcp("0.0.0.0:9000"), "", ifaces[:4], []string{"http://192.168.1.20:9000/", "http://[fd00::2]:9000/"}},
		{"loopback only", tcp("[::]:8080"), "", ifaces[:2], nil},
		{"no interfaces", tcp("[::]:8080"), "", nil, nil},
		{"one address", tcp("192.168.1.20:8080"), "", ifaces, []string{"http://192.168.1.20:8080/"}},
		{"one IPv6 address", tcp("[fd00::2]:8080"), "", ifaces, []string{"http://[fd00::2]:8080/"}},
		{"localhost", tcp("127.0.0.1:8080"), "", ifaces, nil},
		{"public", tcp("[::]:8080"), "https://fray.example.org/", ifaces, []string{"https://fray.example.org/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, playerURLs(tc.listen, tc.public, tc.ifaces)); diff != "" {
				t.Errorf("playerURLs(%v, %q) (-want +got):\n%s", tc.listen, tc.public, diff)
			}
		})
	}
}

// TestCheckPublicURL: --public-url takes http and https addresses with a
// host and no path beyond "/", and gives them back as links are built
// from them.
func TestCheckPublicURL(t *testing.T) {
	good := []struct{ in, want string }{
		{"https://fray.example.org", "https://fray.example.org/"},
		{"https://fray.example.org/", "https://fray.example.org/"},
		{"http://192.168.1.20:8080/", "http://192.168.1.20:8080/"},
		{"http://[fd00::2]:8080", "http://[fd00::2]:8080/"},
		{"HTTPS://Fray.Example.ORG:8443/", "https://fray.example.org:8443/"},
	}
	for _, tc := range good {
		got, err := web.CheckPublicURL(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("CheckPublicURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	bad := []struct{ in, says string }{
		{"fray.example.org", "http:// or https://"},
		{"ftp://fray.example.org/", "http:// or https://"},
		{"https://", "no host"},
		{"https://:8080/", "no host"},
		{"https://fray.example.org/game", "has a path"},
		{"https://fray.example.org//", "has a path"},
		{"https://fray.example.org/?x=1", "no query"},
		{"https://fray.example.org/#gm", "no query or fragment"},
		{"https://ann:secret@fray.example.org/", "user or password"},
		{"https://fray.example.org:http/", "does not read"},
		{"https://" + strings.Repeat("a", 300) + ".org/", "maxPublicURL"},
	}
	for _, tc := range bad {
		if got, err := web.CheckPublicURL(tc.in); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("CheckPublicURL(%q) = %q, %v; want an error saying %q", tc.in, got, err, tc.says)
		}
	}
}

// TestServePublicURL: fray serve prints the URL to open here and, with
// --public-url, only that address for players; a --public-url that is not
// one is a usage error (exit 2) naming what is wrong, and nothing is
// served.
func TestServePublicURL(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a server that starts stops at once
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		db := filepath.Join(t.TempDir(), "fray.db")
		code := MainContext(ctx, append([]string{"serve", "--db", db}, args...), strings.NewReader(""), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	code, out, errOut := run("--addr", "127.0.0.1:0", "--public-url", "https://Fray.Example.org")
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "fray serve: open http://127.0.0.1:") ||
		lines[1] != "fray serve: players reach it at https://fray.example.org/ (--public-url); player links use it" {
		t.Errorf("output:\n%s\nwant the open line, then the public URL alone for players", out)
	}

	code, out, errOut = run("--addr", "127.0.0.1:0")
	if code != 0 || !strings.Contains(out, "only this machine can reach it") {
		t.Errorf("on 127.0.0.1: exit %d, want 0 and a line saying only this machine reaches it:\n%s%s", code, out, errOut)
	}

	code, out, errOut = run("--addr", "127.0.0.1:0", "--public-url", "https://fray.example.org/game")
	if code != 2 || !strings.Contains(errOut, "has a path") || strings.Contains(out, "open http") {
		t.Errorf("a public URL with a path: exit %d, want 2 and a message saying it has a path:\n%s%s", code, out, errOut)
	}
}
