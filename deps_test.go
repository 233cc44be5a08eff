package fray_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// stdlibOnly lists the packages that may import nothing but the standard
// library and each other (STYLE.md: the shape of the house).
var stdlibOnly = []string{"fray", "fray/dice", "fray/engine", "fray/sheet", "fray/qr"}

// beyondStdlib lists the packages outside the standard library that those
// may import all the same, each for a reason the standard library cannot
// serve: names are compared in Unicode normal form C, whose tables only
// golang.org/x/text (kept by the Go team) carries.
var beyondStdlib = []string{"golang.org/x/text/unicode/norm", "golang.org/x/text/transform"}

// onlyFor lists packages outside the standard library that one of those
// may import and the others may not: sheet reads YAML with the parser the
// YAML community keeps (go.yaml.in/yaml/v3), which fray, dice and engine
// have no business with.
var onlyFor = map[string]string{"go.yaml.in/yaml/v3": "fray/sheet"}

// TestStdlibOnly fails when fray, dice, engine, sheet or qr import, directly or not,
// a package outside the standard library, those four and beyondStdlib.
func TestStdlibOnly(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("the go command is not on PATH, and CI must run this check")
		}
		t.Skip("the go command is not on PATH (it comes with Go, see README)")
	}
	cmd := exec.Command("go", append([]string{"list", "-deps", "-json=ImportPath,Standard,Deps"}, stdlibOnly...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	allowed := map[string]bool{}
	for _, p := range append(slices.Clone(stdlibOnly), beyondStdlib...) {
		allowed[p] = true
	}
	for p := range onlyFor {
		allowed[p] = true
	}
	type pkg struct {
		ImportPath string
		Standard   bool
		Deps       []string
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < len(stdlibOnly) {
		t.Fatalf("go list reported %d packages, fewer than the %d checked", len(pkgs), len(stdlibOnly))
	}
	for _, p := range pkgs {
		if p.Standard || allowed[p.ImportPath] {
			continue
		}
		var by []string
		for _, q := range pkgs {
			if allowed[q.ImportPath] && slices.Contains(q.Deps, p.ImportPath) {
				by = append(by, q.ImportPath)
			}
		}
		t.Errorf("%s imports %s, which is outside the standard library", strings.Join(by, " and "), p.ImportPath)
	}
	for dep, owner := range onlyFor {
		for _, q := range pkgs {
			if q.ImportPath != owner && slices.Contains(stdlibOnly, q.ImportPath) && slices.Contains(q.Deps, dep) {
				t.Errorf("%s imports %s, which only %s may", q.ImportPath, dep, owner)
			}
		}
	}
}
