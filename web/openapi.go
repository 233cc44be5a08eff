package web

import (
	_ "embed"
	"net/http"
)

// openAPIDoc describes the API in OpenAPI 3.1; it is written by hand, and
// a test checks that it names exactly the routes the server serves.
//
//go:embed openapi.json
var openAPIDoc []byte

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(openAPIDoc)
}
