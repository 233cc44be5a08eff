package web

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
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

// newID returns a fresh encounter id: 10 random bytes in hex.
func (s *Server) newID() (string, error) {
	var b [10]byte
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

// allowAddress applies the rate limit to a request made without a token,
// by client address.
func (s *Server) allowAddress(r *http.Request) error {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return s.rate.allow("addr:" + host)
}

// limiter is a token bucket per key: rate requests a second on average,
// burst at once. It keeps at most maxBuckets keys; full buckets are
// forgotten first.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	now     func() time.Time
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

const maxBuckets = 100_000

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(max(burst, 1)), now: now, buckets: map[string]*bucket{}}
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
		return &fray.Error{Code: ERATELIMITED, Message: fmt.Sprintf("Too many requests: at most %g a second (Rate). Try again in %s.", l.rate, wait.Round(time.Millisecond)), Err: &retryError{wait}}
	}
	b.tokens--
	return nil
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
