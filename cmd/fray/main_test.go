package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fray/rules/rulestest"
)

// update is the -update flag, which rulestest (imported for the old logs'
// test) defines for every test binary that imports it.
var update = rulestest.Updating

// TestGolden runs the command line and compares what it prints, and its
// exit code, with testdata/NAME.golden. Every golden file was checked by
// hand against the rules in the dice package doc: the dice given with
// --dice make each total follow from the faces shown.
func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"roll-keep", []string{"roll", "4d6kh3", "--dice", "6,5,3,1"}},
		{"roll-arith", []string{"roll", "3d6+4-1d4", "--dice", "2,5,6,3"}},
		{"roll-explode", []string{"roll", "2d6!", "--dice", "6,6,3,5"}},
		{"roll-compound", []string{"roll", "2d6!!", "--dice", "6,2,4"}},
		{"roll-reroll", []string{"roll", "3d6r1", "--dice", "1,4,2,6"}},
		{"roll-success", []string{"roll", "5d10>=8f1", "--dice", "8,1,10,7,1"}},
		{"roll-pp", []string{"roll", "12d{0,1,0,1,0,2}", "--dice", "1,2,2,2,3,3,3,5,5,5,6,6"}},
		{"roll-swing", []string{"roll", "2d{0,1,0,1,0,1}!@6", "--dice", "6,6,2,3"}},
		{"roll-fudge", []string{"roll", "4dF", "--dice", "1,2,3,3"}},
		{"roll-json", []string{"roll", "--json", "2d6!", "--dice", "6,2,3"}},
		{"roll-depth", []string{"roll", "1d6!", "--depth", "1", "--dice", "6,6"}},
		{"roll-explain", []string{"roll", "--explain", "4d6r1kh3+2*(1d8!>=7-1)"}},
		{"roll-explain-swing", []string{"roll", "--explain", "12d{0,1,0,1,0,1}!@6"}},
		{"roll-error-end", []string{"roll", "3d6+"}},
		{"roll-error-limit", []string{"roll", "1000000000d6"}},
		{"roll-error-forever", []string{"roll", "1d1!"}},
		{"roll-error-faces", []string{"roll", "2d6", "--dice", "3"}},
		{"roll-error-extra-faces", []string{"roll", "2d6", "--dice", "3,4,5"}},
		{"roll-error-args", []string{"roll"}},
		{"roll-error-n", []string{"roll", "1d6", "-n", "0"}},
		{"prob-2d6", []string{"prob", "2d6"}},
		{"prob-json", []string{"prob", "--json", "1d4"}},
		{"prob-exact", []string{"prob", "--exact", "3d6kh2"}},
		{"prob-exact-json", []string{"prob", "--exact", "--json", "1d6!", "--depth", "2"}},
		{"prob-opposed", []string{"prob", "1d{0,1,0,1,0,2}-1d{0,1,0,1,0,2}"}},
		{"prob-keep-default", []string{"prob", "2d6kh"}},
		{"prob-error", []string{"prob", "2d6kh+"}},
		{"prob-error-depth", []string{"prob", "1d6!", "--depth", "-1"}},
		{"unknown", []string{"frobnicate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(tt.args, strings.NewReader(""), &stdout, &stderr)
			got := fmt.Sprintf("$ fray %s\n# exit %d\n# stdout\n%s# stderr\n%s", strings.Join(tt.args, " "), code, stdout.String(), stderr.String())
			path := filepath.Join("testdata", tt.name+".golden")
			if update() {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update and check the new file by hand)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
			}
		})
	}
}

func TestSeedReproduces(t *testing.T) {
	run := func() string {
		var out bytes.Buffer
		if code := Main([]string{"roll", "10d6!+2d20kh1", "--seed", "42", "-n", "5"}, nil, &out, &out); code != 0 {
			t.Fatalf("exit %d: %s", code, out.String())
		}
		return out.String()
	}
	if a, b := run(), run(); a != b {
		t.Errorf("the same --seed rolled differently:\n%s\n%s", a, b)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"roll", "--help"}, {"prob", "-h"}, {"version", "--help"}, {"help", "roll"}, {"help"}} {
		var stdout, stderr bytes.Buffer
		if code := Main(args, nil, &stdout, &stderr); code != 0 {
			t.Errorf("fray %v: exit %d", args, code)
		}
		if out := stdout.String() + stderr.String(); !strings.Contains(out, "fray") || !strings.Contains(out, "xample") && args[0] != "version" && len(args) > 1 {
			t.Errorf("fray %v: help has no examples:\n%s", args, out)
		}
	}
}

func TestVersion(t *testing.T) {
	var stdout bytes.Buffer
	if code := Main([]string{"version"}, nil, &stdout, &stdout); code != 0 || !strings.HasPrefix(stdout.String(), "fray ") {
		t.Errorf("fray version: exit %d, %q", code, stdout.String())
	}
}
