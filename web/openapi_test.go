package web_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"fray/sim"
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

// TestOpenAPISim checks that the simulation's schema describes every
// field a real answer carries, at every depth, and that the request's
// tactics name every tactic fray sim knows.
func TestOpenAPISim(t *testing.T) {
	e := start(t, nil)
	r := e.do(t, "GET", "/api/openapi.json", "", nil)
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct{ Schema schema } `json:"content"`
			} `json:"requestBody"`
			Responses map[string]struct {
				Content map[string]struct{ Schema schema } `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	r.decode(t, &doc)
	op, ok := doc.Paths["/api/encounters/{id}/sim"]["post"]
	if !ok {
		t.Fatal("the document has no POST /api/encounters/{id}/sim")
	}
	tactics := op.RequestBody.Content["application/json"].Schema.Properties["tactics"].Description
	for _, tac := range sim.Tactics {
		if !strings.Contains(tactics, string(tac)) {
			t.Errorf("the request's tactics do not name %s: %q", tac, tactics)
		}
	}

	if _, ok := op.RequestBody.Content["application/json"].Schema.Properties["exact"]; !ok {
		t.Error("the request does not describe exact")
	}

	// A duel solved exactly, as the server answers it.
	enc, _ := e.simFight(t)
	a := e.send(t, "POST", "/api/encounters/"+enc.ID+"/sim", enc.Token,
		map[string]any{"fights": 50, "seed": 1, "tactics": "pc=cautious", "rounds": 5, "exact": true})
	if a.Status != http.StatusOK {
		t.Fatalf("sim: %d %s", a.Status, a.Body)
	}
	var answer map[string]any
	a.decode(t, &answer)
	if answer["exact"] != true {
		t.Fatalf("the duel was not solved exactly: %s", a.Body)
	}
	ok200 := op.Responses["200"].Content["application/json"].Schema
	for _, missing := range ok200.undocumented("", answer) {
		t.Errorf("the answer carries %s, which the schema does not describe", missing)
	}
	// The answer for a fight too big to solve exactly, built as the
	// server builds it (a real one takes seconds to reach its limit).
	var res sim.Result
	a.decode(t, &res)
	b, err := json.Marshal(sim.WithExact(res, sim.ExactResult{Why: "One move's dice can fall more than 100000 ways (MaxExactBranches), too many to solve exactly."}))
	if err != nil {
		t.Fatal(err)
	}
	var tooBig any
	if err := json.Unmarshal(b, &tooBig); err != nil {
		t.Fatal(err)
	}
	for _, missing := range ok200.undocumented("", tooBig) {
		t.Errorf("a fight too big carries %s, which the schema does not describe", missing)
	}
}

// schema is as much of a JSON Schema as TestOpenAPISim walks.
type schema struct {
	Description          string            `json:"description"`
	Properties           map[string]schema `json:"properties"`
	Items                *schema           `json:"items"`
	AdditionalProperties json.RawMessage   `json:"additionalProperties"`
}

// undocumented returns the paths in v (a decoded JSON value at path) that
// s does not describe: an object's keys missing from its properties
// (unless additionalProperties allows any), an array's items walked by
// s.Items.
func (s schema) undocumented(path string, v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		if len(s.Properties) == 0 && len(s.AdditionalProperties) > 0 && string(s.AdditionalProperties) != "false" {
			return nil // a map of any keys, such as tracks
		}
		for k, x := range v {
			p, ok := s.Properties[k]
			if !ok {
				out = append(out, path+"."+k)
				continue
			}
			out = append(out, p.undocumented(path+"."+k, x)...)
		}
	case []any:
		if s.Items == nil {
			return nil
		}
		for _, x := range v {
			out = append(out, s.Items.undocumented(path+"[]", x)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
