package web

import (
	"net/http"
	"time"

	"fray"
	"fray/engine"
)

// The JSON of the GM's list of player links. Field names are wire
// strings: never rename one.

// playerOut is one player link as the GM's list shows it: never the
// token, only its handle.
type playerOut struct {
	// Handle names the token (see handle); DELETE
	// /api/encounters/{id}/players/{handle} revokes it.
	Handle string `json:"handle"`
	// Combatant is the name of the character the token acts for, as the
	// encounter knows it now: the present name, the last name of one
	// who has left, or "" when the encounter knows no such id.
	Combatant string `json:"combatant"`
	// CombatantID is the id of that character.
	CombatantID fray.CombatantID `json:"combatant_id"`
	// Present tells whether the character is still in the encounter; a
	// link for one who has left no longer works.
	Present bool `json:"present"`
	// Created is when the link was made.
	Created time.Time `json:"created"`
}

// playersOut answers GET /api/encounters/{id}/players.
type playersOut struct {
	Players []playerOut `json:"players"`
}

// listPlayers answers the GM with the encounter's player links, oldest
// first; GM tokens are not listed.
func (s *Server) listPlayers(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.gmOnly(r, id, "list the player links"); err != nil {
		s.writeError(w, r, err)
		return
	}
	toks, err := s.store.Tokens(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	e, err := s.lockEntry(r.Context(), id, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	enc := e.eng.Encounter()
	out := playersOut{Players: []playerOut{}}
	for _, t := range toks {
		if t.Role != fray.RolePlayer {
			continue
		}
		cid := fray.CombatantID(t.Combatant)
		out.Players = append(out.Players, playerOut{
			Handle:      handle(t.Hash),
			Combatant:   enc.NameOf(cid),
			CombatantID: cid,
			Present:     enc.ByID(cid) != nil,
			Created:     t.Created,
		})
	}
	e.unlock()
	writeJSON(w, http.StatusOK, out)
}

// revokePlayer deletes the player token with the handle given, for the
// GM, and drops it from this server's cache of tokens, so that it is
// refused at once here: its next request gets 401. GM tokens cannot be
// revoked this way.
//
// Another process serving the same store believes a token it has cached
// for at most tokenTTL; an event stream the token opened here ends at
// its next change or heartbeat.
func (s *Server) revokePlayer(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.gmOnly(r, id, "revoke player links"); err != nil {
		s.writeError(w, r, err)
		return
	}
	h := r.PathValue("handle")
	if !validHandle(h) {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The handle %q is not %d lower-case hex digits.", engine.Clip(h), handleLen))
		return
	}
	toks, err := s.store.Tokens(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// A handle is 64 bits of a hash and an encounter has at most
	// fray.MaxTokens tokens: two sharing one are not worth a word.
	var hash string
	for _, t := range toks {
		if t.Role == fray.RolePlayer && handle(t.Hash) == h {
			hash = t.Hash
			break
		}
	}
	if hash == "" {
		s.writeError(w, r, fray.Errorf(fray.ENOTFOUND, "There is no player link %s in this encounter.", h))
		return
	}
	if err := s.store.DeleteToken(background(r.Context()), hash); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.mu.Lock()
	delete(s.tokens, hash)
	if len(s.revoked) >= maxRevoked {
		clear(s.revoked) // the store has them all; the cache's TTL covers the rest
	}
	s.revoked[hash] = true
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// maxRevoked bounds the set of tokens revoked in this process.
const maxRevoked = 100_000

// validHandle reports whether h has the form handle gives: handleLen
// lower-case hex digits.
func validHandle(h string) bool {
	if len(h) != handleLen {
		return false
	}
	for i := range len(h) {
		if c := h[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
