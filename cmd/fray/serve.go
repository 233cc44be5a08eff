package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"fray"
	"fray/postgres"
	"fray/sqlite"
	"fray/web"
)

const serveHelp = `fray serve [--addr :8080] [--db fray.db] [--public-url URL]

Serves encounters over HTTP: the GM screen at /, a page for each player
at /play/ID, and the JSON API under /api/ (described at /api/openapi.json).
Encounters are kept in one SQLite file, created on first run, or in a
PostgreSQL database when --db is a postgres:// URL (its tables are
created on first run); every command the server acknowledges is on disk.
Stop it with Ctrl-C: it finishes the requests under way, then exits.

It prints the address to open on this machine, then those players can
reach from other devices: each address of this machine's network
interfaces (but loopback and IPv6 link-local ones), or only --public-url
when given, for a server behind a reverse proxy or known by a name. The
GM screen builds player links and its GM link (which opens the screen on
another device) from the public address, else from its own.

Examples:
  fray serve                          serve on port 8080, keep fray.db here
  fray serve --addr 127.0.0.1:9000    only this machine, port 9000
  fray serve --db ~/games/fray.db     keep the encounters elsewhere
  fray serve --public-url https://fray.example.org/
                                      players reach it through that name
  fray serve --db 'postgres://fray:secret@db.example.org/fray?sslmode=verify-full'
                                      keep them in PostgreSQL

Then open a printed address players reach, create an encounter, add
combatants (or bring in a party or foes file) and give each player the
link the GM screen shows for their character. From a script:
  curl -s localhost:8080/api/encounters -d '{"rules":"bpb","name":"Docks"}'
  curl -s localhost:8080/api/encounters/ID/commands -H 'Authorization: Bearer TOKEN' \
       -d '{"command":"add Ann side=pc","revision":0}'
`

// cmdServe runs the HTTP server until ctx is done (main cancels it on
// SIGINT or SIGTERM), then shuts down gracefully.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", stderr, serveHelp)
	addr := fs.String("addr", ":8080", "the `address` to listen on: host:port, or :port for every interface")
	dbPath := fs.String("db", "fray.db", "the SQLite `file` that keeps the encounters (created if missing), or a postgres:// URL of a PostgreSQL database")
	limits := web.DefaultLimits()
	limits.Flags(fs)
	var proxies []netip.Prefix
	fs.Func("trust-proxy", "a reverse proxy's `CIDR` whose X-Forwarded-For names the client (repeat for more)", func(v string) error {
		for _, f := range strings.Split(v, ",") {
			p, err := parsePrefix(strings.TrimSpace(f))
			if err != nil {
				return err
			}
			proxies = append(proxies, p)
		}
		return nil
	})
	publicURL := ""
	fs.Func("public-url", "the `URL` players reach the server at (http or https, no path), printed and used for player links instead of this machine's addresses", func(v string) error {
		u, err := web.CheckPublicURL(v)
		if err != nil {
			return errors.New(fray.ErrorMessage(err))
		}
		publicURL = u
		return nil
	})
	pos, code := parseArgs(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "fray serve: unexpected argument %q; see fray serve --help\n", pos[0])
		return 2
	}
	store, where, code := openStore(ctx, *dbPath, stderr)
	if code != 0 {
		return code
	}
	defer store.Close()
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	srv, err := web.New(web.Config{Store: store, Systems: systems, Logger: logger, Limits: limits, TrustProxy: proxies, PublicURL: publicURL})
	if err != nil {
		fmt.Fprintf(stderr, "fray serve: %v\n", fray.ErrorMessage(err))
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "fray serve: %v\n", err)
		return 1
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	hs.RegisterOnShutdown(srv.Close) // end the event streams
	fmt.Fprintf(stdout, "fray serve: open %s (encounters in %s; Ctrl-C stops)\n", serveURL(ln.Addr()), where)
	var ifaces []net.Addr
	if publicURL == "" && listensEverywhere(ln.Addr()) {
		if ifaces, err = net.InterfaceAddrs(); err != nil {
			fmt.Fprintf(stderr, "fray serve: list this machine's addresses: %v\n", err)
		}
	}
	printPlayerURLs(stdout, ln.Addr(), publicURL, ifaces)

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "fray serve: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	fmt.Fprintln(stdout, "fray serve: stopping")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		fmt.Fprintf(stderr, "fray serve: shut down: %v\n", err)
		return 1
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "fray serve: %v\n", err)
		return 1
	}
	return 0
}

// dbOpenTimeout bounds connecting to a PostgreSQL database and bringing
// its schema up to date when the server starts.
const dbOpenTimeout = 30 * time.Second

// openStore opens the store --db names for fray serve (see openStoreFor).
func openStore(ctx context.Context, db string, stderr io.Writer) (fray.Store, string, int) {
	return openStoreFor(ctx, "fray serve", "--db", db, stderr)
}

// openStoreFor opens the store db names: a PostgreSQL database for a
// postgres:// or postgresql:// URL, else an SQLite file. It returns the
// store, where it keeps the encounters (without a password) and 0, or
// the exit code after telling stderr, as the command prog, why it could
// not (flag is the option that named db).
func openStoreFor(ctx context.Context, prog, flag, db string, stderr io.Writer) (fray.Store, string, int) {
	if postgres.IsURL(db) {
		octx, cancel := context.WithTimeout(ctx, dbOpenTimeout)
		defer cancel()
		store, err := postgres.Open(octx, db)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", prog, err)
			if errors.Is(err, context.DeadlineExceeded) {
				fmt.Fprintf(stderr, "%s: cannot start: the database %s did not answer within %v (dbOpenTimeout).\n", prog, postgres.Redacted(db), dbOpenTimeout)
			}
			return nil, "", 1
		}
		return store, store.URL(), 0
	}
	// Open proves the file can be written: a server that cannot keep what
	// it acknowledges must not start.
	store, err := sqlite.Open(db)
	if errors.Is(err, sqlite.ErrNotWritable) {
		fmt.Fprintf(stderr, "%[1]s: %[2]v\n"+
			"%[1]s: cannot start: the database %[3]s must be writable. Let this user write the file and its folder "+
			"(SQLite keeps its -wal and -shm files beside it), or choose another file with %[4]s.\n", prog, err, db, flag)
		return nil, "", 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return nil, "", 1
	}
	return store, db, 0
}

// serveURL returns the URL to open for a listener's address: localhost
// when it listens on every interface.
func serveURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return "http://" + host + ":" + port + "/"
}

// listensEverywhere reports whether a listener's address is every
// interface's (":8080", "0.0.0.0:8080", "[::]:8080").
func listensEverywhere(a net.Addr) bool {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// playerURLs returns the addresses players on other devices may open for
// a listener's address a: only public when it is given (--public-url);
// else, for a listener on every interface, one for each address in ifaces
// (this machine's interface addresses) that is not a loopback one, IPv4
// first, IPv6 in brackets; else a's own, unless it is a loopback one.
// IPv6 link-local addresses are left out: a browser cannot open one
// without naming the interface.
func playerURLs(a net.Addr, public string, ifaces []net.Addr) []string {
	if public != "" {
		return []string{public}
	}
	_, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return nil
	}
	var ips []netip.Addr
	if listensEverywhere(a) {
		for _, ia := range ifaces {
			var ip net.IP
			switch v := ia.(type) {
			case *net.IPNet:
				ip = v.IP
			case *net.IPAddr:
				ip = v.IP
			}
			if addr, ok := netip.AddrFromSlice(ip); ok {
				ips = append(ips, addr.Unmap())
			}
		}
	} else if ap, err := netip.ParseAddrPort(a.String()); err == nil {
		ips = append(ips, ap.Addr().Unmap())
	}
	var v4, v6 []string
	seen := map[netip.Addr]bool{}
	for _, ip := range ips {
		ip = ip.WithZone("")
		if seen[ip] || !ip.IsValid() || ip.IsLoopback() || ip.IsUnspecified() || ip.IsMulticast() || (ip.Is6() && ip.IsLinkLocalUnicast()) {
			continue
		}
		seen[ip] = true
		u := "http://" + net.JoinHostPort(ip.String(), port) + "/"
		if ip.Is4() {
			v4 = append(v4, u)
		} else {
			v6 = append(v6, u)
		}
	}
	return append(v4, v6...)
}

// printPlayerURLs tells the GM where players reach the server (see
// playerURLs), or that only this machine does.
func printPlayerURLs(w io.Writer, a net.Addr, public string, ifaces []net.Addr) {
	urls := playerURLs(a, public, ifaces)
	switch {
	case public != "":
		fmt.Fprintf(w, "fray serve: players reach it at %s (--public-url); player links use it\n", public)
	case len(urls) == 0 && listensEverywhere(a):
		fmt.Fprintf(w, "fray serve: this machine has no network address but loopback ones, so players on other devices cannot reach it yet; connect it to their network, or give --public-url\n")
	case len(urls) == 0:
		fmt.Fprintf(w, "fray serve: only this machine can reach it; for players on other devices, listen on every interface (--addr :8080) or give --public-url\n")
	default:
		fmt.Fprintf(w, "fray serve: players on other devices reach it at:\n")
		for _, u := range urls {
			fmt.Fprintf(w, "  %s\n", u)
		}
	}
}

// parsePrefix reads a CIDR such as 10.0.0.0/8, or one address as a prefix
// of its full length.
func parsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("%q is not a CIDR such as 10.0.0.0/8", s)
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is not an address or a CIDR such as 10.0.0.0/8", s)
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}
