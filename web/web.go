// Package web is fray's HTTP interface: a JSON API for encounters kept in a
// fray.Store, live changes as Server-Sent Events, bearer tokens with the
// roles of a GM and of players, and the embedded web page (web/static).
//
// Every command goes through the same words as `fray play` (engine's
// parser and the rule systems the caller injects). Commands on one
// encounter are serialised in this process by a lock per encounter, and
// the store's optimistic append is the final arbiter between processes:
// of two writers racing at one revision one wins and the other gets 409.
//
// What a caller sees is decided in one place, redact.go (Redact, and
// RedactOdds for the answer to "odds COMMAND …"): a GM sees everything; a
// player never receives a hidden combatant, a GM's note or an NPC's exact
// numbers, in any answer, stream or log.
package web

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"fray"
)

// Config is what a Server needs. Store and Systems are required; the
// other fields have defaults.
type Config struct {
	// Store keeps the encounters, their logs and token hashes.
	Store fray.Store
	// Systems makes a rule system by id (cmd/fray's list of five).
	Systems map[string]func() fray.System
	// Now tells the time; time.Now by default.
	Now func() time.Time
	// Random is the source of encounter ids, tokens and seeds;
	// crypto/rand by default.
	Random io.Reader
	// Logger receives operators' messages: the wrapped causes of
	// internal errors. slog.Default() by default.
	Logger *slog.Logger
	// Limits bounds callers; DefaultLimits() when zero.
	Limits Limits
	// Heartbeat is how often an idle event stream gets a comment line;
	// 15 s by default.
	Heartbeat time.Duration
	// Broker fans changes out to event streams; an in-process NewBroker
	// by default. When Store is also a fray.Notifier (PostgreSQL, shared
	// by several servers), the server follows its notices: a command
	// another server accepted reaches the streams here too.
	Broker Broker
	// TrustProxy lists the reverse proxies whose X-Forwarded-For header
	// names the client: a request from one of them is counted against
	// the address the header gives, any other against its own. Empty
	// trusts no proxy.
	TrustProxy []netip.Prefix
	// PublicURL is the address players reach the server at
	// ("https://fray.example.org/"), as CheckPublicURL returns it: the
	// page builds player links and the GM link from it (GET /api/server).
	// Empty, the page uses its own address.
	PublicURL string
}

// Server serves the API and the page. Make one with New; it is an
// http.Handler.
type Server struct {
	cfg    Config
	store  fray.Store
	mux    *http.ServeMux
	broker Broker
	rate   *limiter
	pool   *workPool // the workers for distributions (Workers, WorkQueue)
	log    *slog.Logger
	// systems is the answer to GET /api/systems.
	systems systemsBody
	// followed follows the store's appends when it announces them
	// (fray.Notifier, broker.go); nil when it does not.
	followed *follower

	mu      sync.Mutex
	cache   map[string]*entry // encounters replayed in memory, by id
	tokens  map[string]cachedToken
	revoked map[string]bool // hashes of the tokens revoked here
	streams int
	budget  budgets // the budgets of Limits beyond Rate (budget.go)
	closed  bool
	done    chan struct{} // closed by Close: event streams end
}

// New returns a server for cfg. It reports an EINVALID *fray.Error when a
// required field is missing.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, fray.Errorf(fray.EINVALID, "The server needs a store.")
	}
	if len(cfg.Systems) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "The server needs at least one rule system.")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits()
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 15 * time.Second
	}
	if cfg.Broker == nil {
		cfg.Broker = NewBroker()
	}
	s := &Server{
		cfg:    cfg,
		store:  cfg.Store,
		broker: cfg.Broker,
		rate:   newLimiter(cfg.Limits.Rate, cfg.Limits.Burst, cfg.Now),
		pool:   newWorkPool(cfg.Limits),
		log:    cfg.Logger,
		cache:  map[string]*entry{},
		tokens: map[string]cachedToken{}, revoked: map[string]bool{},
		done: make(chan struct{}),
	}
	s.initBudgets()
	var err error
	if s.systems, err = newSystemsBody(cfg.Systems); err != nil {
		return nil, fmt.Errorf("describe the systems: %w", err)
	}
	s.mux = http.NewServeMux()
	for _, r := range s.routes() {
		s.mux.HandleFunc(r.pattern, r.handler)
	}
	if err := s.routePages(); err != nil {
		return nil, err
	}
	if n, ok := cfg.Store.(fray.Notifier); ok {
		if err := s.follow(n); err != nil {
			return nil, fmt.Errorf("follow the store's appends: %w", err)
		}
	}
	return s, nil
}

// ServeHTTP serves one request. Every answer may not be framed and sends
// no Referer on; a request no route matches (an unknown path, a wrong
// method) is answered in the JSON error envelope like any refusal.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", dataCSP) // the pages set their own
	if _, pattern := s.mux.Handler(r); pattern == "" {
		// The mux's own answer: 404, 405, or a redirect to the cleaned
		// path.
		s.mux.ServeHTTP(&routerError{ResponseWriter: w, s: s, r: r}, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Close ends every event stream so that an http.Server can shut down;
// the server answers other requests as before. It does not close the
// store.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.done)
	}
}

// route is one API endpoint.
type route struct {
	pattern string // a net/http pattern: "METHOD /path"
	handler http.HandlerFunc
}

// routes lists the API; the OpenAPI document describes exactly these
// (a test checks it).
func (s *Server) routes() []route {
	return []route{
		{"POST /api/encounters", s.createEncounter},
		{"GET /api/encounters", s.listEncounters},
		{"POST /api/encounters/import", s.importLog},
		{"GET /api/encounters/{id}", s.getEncounter},
		{"POST /api/encounters/{id}/players", s.createPlayer},
		{"GET /api/encounters/{id}/players", s.listPlayers},
		{"DELETE /api/encounters/{id}/players/{handle}", s.revokePlayer},
		{"POST /api/encounters/{id}/commands", s.postCommand},
		{"POST /api/encounters/{id}/sheets", s.postSheets},
		{"GET /api/encounters/{id}/events", s.streamEvents},
		{"GET /api/encounters/{id}/log", s.exportLog},
		{"GET /api/encounters/{id}/told", s.getTold},
		{"POST /api/encounters/{id}/sim", s.simulate},
		{"POST /api/roll", s.roll},
		{"GET /api/prob", s.prob},
		{"GET /api/systems", s.listSystems},
		{"GET /api/server", s.serverInfo},
		{"POST /api/qr", s.qrCode},
		{"GET /api/openapi.json", s.openAPI},
	}
}

// now returns the time, as a store keeps it.
func (s *Server) now() time.Time { return fray.TruncateTime(s.cfg.Now()) }

// background returns a context for work that must finish even when the
// caller goes away (an append once decided).
func background(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// Routes returns the patterns of the API's routes ("POST
// /api/encounters", …), as the OpenAPI document names them.
func Routes() []string {
	var out []string
	for _, r := range (&Server{}).routes() {
		out = append(out, r.pattern)
	}
	return out
}
