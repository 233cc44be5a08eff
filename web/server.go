package web

import (
	"net/http"
	"net/url"
	"strings"

	"fray"
)

// GET /api/server tells the page how players reach this server: the
// public address the operator gave (fray serve --public-url), from which
// the GM screen builds player links and the GM link. Without one the
// page uses its own address.

// serverOut answers GET /api/server. Field names are wire strings: never
// rename one.
type serverOut struct {
	// PublicURL is the address players reach the server at, such as
	// "https://fray.example.org/"; empty when none was given.
	PublicURL string `json:"public_url"`
}

// serverInfo answers GET /api/server. It needs no token: the address is
// the one every link the GM hands out already shows.
func (s *Server) serverInfo(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, serverOut{PublicURL: s.cfg.PublicURL})
}

// maxPublicURL is the longest public address CheckPublicURL takes.
const maxPublicURL = 256

// CheckPublicURL checks an address players reach the server at, as
// Config.PublicURL wants it: http or https, a host, and no path beyond
// "/", no query, fragment or user. It returns the address as links are
// built from it ("https://fray.example.org/", the scheme and host in
// lower case, ending in "/"), or an EINVALID *fray.Error saying what is
// wrong.
func CheckPublicURL(raw string) (string, error) {
	const want = "an address such as https://fray.example.org/ or http://192.168.1.20:8080/"
	if len(raw) > maxPublicURL {
		return "", fray.Errorf(fray.EINVALID, "The public URL is longer than %d bytes (maxPublicURL); give %s.", maxPublicURL, want)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fray.Errorf(fray.EINVALID, "The public URL %q does not read as a URL; give %s.", raw, want)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fray.Errorf(fray.EINVALID, "The public URL %q must start with http:// or https://; give %s.", raw, want)
	case u.Host == "" || u.Hostname() == "":
		return "", fray.Errorf(fray.EINVALID, "The public URL %q names no host; give %s.", raw, want)
	case u.User != nil:
		return "", fray.Errorf(fray.EINVALID, "The public URL %q must not hold a user or password.", raw)
	case u.Path != "" && u.Path != "/", u.RawPath != "":
		return "", fray.Errorf(fray.EINVALID, "The public URL %q has a path; fray serves at the root, so give only the scheme, host and port, such as https://fray.example.org/.", raw)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#"):
		return "", fray.Errorf(fray.EINVALID, "The public URL %q must have no query or fragment; give %s.", raw, want)
	}
	if p := u.Port(); p != "" && strings.Trim(p, "0123456789") != "" {
		return "", fray.Errorf(fray.EINVALID, "The public URL %q has a port that is not a number.", raw)
	}
	return u.Scheme + "://" + strings.ToLower(u.Host) + "/", nil
}
