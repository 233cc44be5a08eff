package web_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"fray/web"
)

// TestOpenAPI checks that the document names every API route the server
// serves, and no other.
func TestOpenAPI(t *testing.T) {
	e := start(t, nil)
	r := e.do(t, "GET", "/api/openapi.json", "", nil)
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	r.decode(t, &doc)
	if r.Status != http.StatusOK || doc.OpenAPI != "3.1.0" {
		t.Fatalf("got %d, openapi %q", r.Status, doc.OpenAPI)
	}
	var documented []string
	for path, ops := range doc.Paths {
		for method := range ops {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	served := web.Routes()
	slices.Sort(documented)
	slices.Sort(served)
	if !slices.Equal(documented, served) {
		t.Fatalf("documented:\n  %s\nserved:\n  %s", strings.Join(documented, "\n  "), strings.Join(served, "\n  "))
	}
}
