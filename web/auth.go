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

// token returns what the store keeps about a bearer token, from a cache
// when it can (tokens never change once issued).
func (s *Server) token(ctx context.Context, tok string) (fray.Token, error) {
	hash := fray.HashToken(tok)
	s.mu.Lock()
	t, ok := s.tokens[hash]
	s.mu.Unlock()
	if ok {
		return t, nil
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
	if len(s.tokens) >= 4*s.cfg.Limits.MaxCached {
		clear(s.tokens)
	}
	s.tokens[hash] = t
	s.mu.Unlock()
	return t, nil
}

// caller is who makes a request on one encounter.
type caller struct {
	Role      string // fray.RoleGM or fray.RolePlayer
	Combatant string // the character a player acts for
	key       string // the rate limiter's key: the token's hash
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
		c := caller{Role: t.Role, Combatant: t.Combatant, key: t.Hash}
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
