package web

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
)

// static holds the web page: the GM screen (index.html), the player page
// (play.html) and what they load from /static/.
//
//go:embed static
var static embed.FS

// The Content-Security-Policy of the pages, and of every other answer
// (JSON, scripts, styles), which a browser should never run or frame.
const (
	pageCSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
	dataCSP = "default-src 'none'; frame-ancestors 'none'"
)

// routePages adds the page's routes: GET / (the GM screen), GET
// /play/{id} (the player page) and GET /static/… (scripts and styles).
// Every page refuses to be framed (frame-ancestors, and X-Frame-Options
// from ServeHTTP); a file that is not there is a JSON 404.
func (s *Server) routePages() error {
	files, err := fs.Sub(static, "static")
	if err != nil {
		return fmt.Errorf("embedded page: %w", err)
	}
	page := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-cache")
			w.Header().Set("Content-Security-Policy", pageCSP)
			http.ServeFileFS(w, r, files, name)
		}
	}
	s.mux.HandleFunc("GET /{$}", page("index.html"))
	s.mux.HandleFunc("GET /play/{id}", page("play.html"))
	fileServer := http.StripPrefix("/static/", http.FileServerFS(files))
	s.mux.Handle("GET /static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		fileServer.ServeHTTP(&routerError{ResponseWriter: w, s: s, r: r}, r)
	}))
	return nil
}
