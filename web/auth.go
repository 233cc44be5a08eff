package web

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"fray"
)

// maxTokenLen is the longest bearer token read; fray's are 43 bytes.
const maxTokenLen = 128

// newToken returns a fresh bearer token: 32 random bytes, base64url.
func (s *Server) newToken() (string, error) {
	var b [32]byte
	if _, err := io.ReadFull(s.cfg.Random, b[:]); err != nil {
		return "", fmt.Errorf("read random token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// newIDLen is the length of the ids newID makes.
const newIDLen = 20

// newID returns a fresh encounter id: 10 random bytes in hex.
func (s *Server) newID() (string, error) {
	var b [newIDLen / 2]byte
	if _, err := io.ReadFull(s.cfg.Random, b[:]); err != nil {
		return "", fmt.Errorf("read random id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// bearerTokens returns the tokens of the Authorization header ("Bearer A"
// or "Bearer A, B"), and of the token query parameter when query is set.
func bearerTokens(r *http.Request, query bool, limit int) ([]string, error) {
	var out []string
	for _, h := range r.Header.Values("Authorization") {
		scheme, rest, ok := strings.Cut(strings.TrimSpace(h), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return nil, fray.Errorf(EUNAUTHORIZED, "The Authorization header must be \"Bearer TOKEN\".")
		}
		for _, t := range strings.Split(rest, ",") {
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
	}
	if query {
		if t := r.URL.Query().Get("token"); t != "" {
			out = append(out, t)
		}
	}
	if len(out) > limit {
		return nil, fray.Errorf(fray.ETOOLARGE, "The request holds %d tokens, more than %d (MaxTokensListed).", len(out), limit)
	}
	for _, t := range out {
		if len(t) > maxTokenLen {
			return nil, fray.Errorf(EUNAUTHORIZED, "A token is longer than %d bytes; it is not one of fray's.", maxTokenLen)
		}
	}
	return out, nil
}

// tokenTTL is how long a token read from the store is believed without
// reading it again: a player link the GM revokes in another process stops
// working here within that time (in this process, at once).
const tokenTTL = time.Minute

// cachedToken is a token as the cache holds it, with when it was read.
type cachedToken struct {
	fray.Token
	read time.Time
}

// token returns what the store keeps about a bearer token, from a cache
// when it read it less than tokenTTL ago.
func (s *Server) token(ctx context.Context, tok string) (fray.Token, error) {
	hash := fray.HashToken(tok)
	now := s.now()
	s.mu.Lock()
	ct, ok := s.tokens[hash]
	revoked := s.revoked[hash]
	s.mu.Unlock()
	if revoked {
		return fray.Token{}, fray.Errorf(EUNAUTHORIZED, "The token is not known here; ask the GM for a new link.")
	}
	if ok && now.Sub(ct.read) < tokenTTL {
		return ct.Token, nil
	}
	t, err := s.store.Token(ctx, hash)
	switch code := fray.ErrorCode(err); code {
	case "":
	case fray.ENOTFOUND, fray.EINVALID:
		return fray.Token{}, fray.Errorf(EUNAUTHORIZED, "The token is not known here; ask the GM for a new link.")
	default:
		return fray.Token{}, fmt.Errorf("look up token: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.revoked[hash] {
		// Revoked while the store was being read.
		return fray.Token{}, fray.Errorf(EUNAUTHORIZED, "The token is not known here; ask the GM for a new link.")
	}
	if len(s.tokens) >= 4*s.cfg.Limits.MaxCached {
		clear(s.tokens)
	}
	s.tokens[hash] = cachedToken{t, now}
	return t, nil
}

// caller is who makes a request on one encounter.
type caller struct {
	Role      string           // fray.RoleGM or fray.RolePlayer
	Combatant fray.CombatantID // the character a player acts for
	key       string           // the rate limiter's key: the token's hash
}

// viewer returns the caller as the engine knows who asks.
func (c caller) viewer() fray.Viewer {
	return fray.Viewer{Role: c.Role, Combatant: c.Combatant}
}

// bound checks that a player's character is still in the encounter e:
// a player token lives as long as the combatant it was made for, and a
// later combatant of the same name is someone else.
func (c caller) bound(e *entry) error {
	if c.Role == fray.RoleGM {
		return nil
	}
	if e.eng.Encounter().ByID(c.Combatant) == nil {
		return fray.Errorf(EUNAUTHORIZED, "The character this link was made for has left the encounter; ask the GM for a new link.")
	}
	return nil
}

// lockFor locks the encounter id for the caller c (see lockEntry for
// fresh) and checks that c is still bound to it, unlocking it again when
// not: the opening of every handler that reads an encounter for a caller.
func (s *Server) lockFor(ctx context.Context, c caller, id string, fresh bool) (*entry, error) {
	e, err := s.lockEntry(ctx, id, fresh)
	if err != nil {
		return nil, err
	}
	if err := c.bound(e); err != nil {
		e.unlock()
		return nil, err
	}
	return e, nil
}

// authorize returns the caller of a request on the encounter id: one
// bearer token (header, or the token query parameter when query is set)
// for that encounter, within its rate.
func (s *Server) authorize(r *http.Request, id string, query bool) (caller, error) {
	toks, err := bearerTokens(r, query, s.cfg.Limits.MaxTokensListed)
	if err != nil {
		return caller{}, err
	}
	if len(toks) == 0 {
		return caller{}, fray.Errorf(EUNAUTHORIZED, "This needs a token: send \"Authorization: Bearer TOKEN\".")
	}
	// With several tokens, the first one for this encounter counts.
	var last error
	for _, tok := range toks {
		t, err := s.token(r.Context(), tok)
		if err != nil {
			last = err
			continue
		}
		if t.Encounter != id {
			last = fray.Errorf(fray.EFORBIDDEN, "The token is for another encounter.")
			continue
		}
		c := caller{Role: t.Role, Combatant: fray.CombatantID(t.Combatant), key: t.Hash}
		// A request counts against its client's address as well as its
		// token, so that minting player tokens does not multiply the
		// rate; the token's own bucket still bounds a link shared far
		// and wide.
		if err := s.allowAddress(r); err != nil {
			return caller{}, err
		}
		if err := s.rate.allow(c.key); err != nil {
			return caller{}, err
		}
		return c, nil
	}
	// Unknown tokens cost the client's address, so that guessing is
	// rate-limited too.
	if err := s.allowAddress(r); err != nil {
		return caller{}, err
	}
	return caller{}, last
}

// allowAddress applies the rate limit to a request by its client's
// address (clientAddr): every request counts, with a token or without.
func (s *Server) allowAddress(r *http.Request) error {
	return s.rate.allow("addr:" + s.clientAddr(r))
}

// clientAddr returns the client of a request as every per-client budget
// counts it (Rate by address, MaxClientStreams, CreateRate): the address
// the connection comes from, unless that is a proxy of
// Config.TrustProxy; then the right-most address of X-Forwarded-For that
// is not itself a trusted proxy. Proxies append the address they see, so
// what a client writes into the header itself is on the left and never
// read. An IPv6 client counts as its /64, which one host usually holds
// whole.
func (s *Server) clientAddr(r *http.Request) string {
	a, ok := parseAddr(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr // not IP (a test's, or a Unix socket's): as it is
	}
	if s.trusted(a) {
		a = s.forwardedFor(r, a)
	} else if (a.IsLoopback() || a.IsPrivate()) && r.Header.Get("X-Forwarded-For") != "" {
		s.budget.proxyHint.Do(func() {
			s.log.Warn("requests come through a proxy that is not trusted: every client behind it shares its budgets; pass --trust-proxy with its address",
				"proxy", a.String())
		})
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// forwardedFor returns the client X-Forwarded-For names for a request
// from the trusted proxy at a: the right-most entry that is not a trusted
// proxy, else the left-most entry, or the last trusted hop when an entry
// cannot be read.
func (s *Server) forwardedFor(r *http.Request, a netip.Addr) netip.Addr {
	hs := r.Header.Values("X-Forwarded-For")
	for i := len(hs) - 1; i >= 0; i-- {
		list := hs[i]
		for list != "" {
			var f string
			if j := strings.LastIndexByte(list, ','); j >= 0 {
				list, f = list[:j], list[j+1:]
			} else {
				list, f = "", list
			}
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			next, ok := parseAddr(f)
			if !ok {
				return a
			}
			a = next
			if !s.trusted(a) {
				return a
			}
		}
	}
	return a
}

// trusted reports whether a is one of the proxies of Config.TrustProxy.
func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustProxy {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseAddr reads an IP address with or without a port ("192.0.2.1",
// "192.0.2.1:80", "2001:db8::1", "[2001:db8::1]:80"), as RemoteAddr and
// X-Forwarded-For give it, without a zone and with an IPv4-mapped IPv6
// address as IPv4.
func parseAddr(s string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		ap, err := netip.ParseAddrPort(s)
		if err != nil {
			a, err = netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
			if err != nil {
				return netip.Addr{}, false
			}
		} else {
			a = ap.Addr()
		}
	}
	return a.WithZone("").Unmap(), true
}

// limiter is a token bucket per key: rate a second on average, burst at
// once. It keeps at most maxBuckets keys; full buckets are forgotten
// first. Its refusal names the budget (name) and says what it counts
// (what), at most per per unit ("Too many requests: at most 50 a second
// (Rate)").
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	now     func() time.Time
	buckets map[string]*bucket

	name, what, unit string
	per              float64
}

type bucket struct {
	tokens float64
	last   time.Time
}

const maxBuckets = 100_000

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(max(burst, 1)), now: now, buckets: map[string]*bucket{},
		name: "Rate", what: "requests", unit: "a second", per: rate}
}

// allow takes one request from key's bucket, or reports an ERATELIMITED
// error saying when to try again.
func (l *limiter) allow(key string) error {
	if l.rate <= 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			l.forget(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(l.burst, b.tokens+dt*l.rate)
	}
	b.last = now
	if b.tokens < 1 {
		wait := time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
		return &fray.Error{Code: ERATELIMITED, Message: fmt.Sprintf("Too many %s: at most %g %s (%s). Try again in %s.", l.what, l.per, l.unit, l.name, wait.Round(time.Millisecond)), Err: &retryError{wait}}
	}
	b.tokens--
	return nil
}

// give puts back into key's bucket one request it took for something
// that was not done after all.
func (l *limiter) give(key string) {
	if l.rate <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if b, ok := l.buckets[key]; ok {
		b.tokens = min(l.burst, b.tokens+1)
	}
}

// forget drops the buckets that have filled up again, and every bucket
// when that is not enough.
func (l *limiter) forget(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= maxBuckets {
		clear(l.buckets)
	}
}

// gmOnly authorizes a request on the encounter id that only the GM may
// make, to do what (such as "invite players"): a player's token is
// refused with EFORBIDDEN saying so.
func (s *Server) gmOnly(r *http.Request, id, what string) error {
	c, err := s.authorize(r, id, false)
	if err != nil {
		return err
	}
	if c.Role != fray.RoleGM {
		return fray.Errorf(fray.EFORBIDDEN, "Only the GM may %s.", what)
	}
	return nil
}

// isRevoked reports whether the token with the given hash was revoked in
// this process.
func (s *Server) isRevoked(hash string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.revoked[hash]
}

// handleLen is the length of a token's handle.
const handleLen = 16

// handle returns the name under which the GM's list of player links
// shows a token: the start of its hash, which names it without giving it
// away.
func handle(hash string) string { return hash[:min(len(hash), handleLen)] }
