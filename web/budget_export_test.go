package web

import "net/http"

// ClientAddr returns the client a request counts against (clientAddr).
func ClientAddr(s *Server, r *http.Request) string { return s.clientAddr(r) }

// Cached returns the ids of the encounters the cache holds, most
// recently used first, and the events they hold between them.
func Cached(s *Server) (ids []string, events int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for el := s.budget.lru.Front(); el != nil; el = el.Next() {
		ids = append(ids, el.Value.(*entry).id)
	}
	return ids, s.budget.cachedEvents
}
