package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlayExamplesResolution runs fray play on the example scripts of the
// queue and pp resolution rules (attacks, injuries, challenge rolls) and
// compares each transcript with testdata/play/NAME.golden (rewrite them
// with -update-play). Each golden file was checked by hand against the
// seeds: the queues against seed 004's, every damage against the weapon's
// weight and the Red and Black faces, every success count against the
// faces entered.
func TestPlayExamplesResolution(t *testing.T) {
	tests := []struct{ name, rules string }{
		{"queue-brigands", "queue"},
		{"pp-challenges", "pp"},
		{"pp-combat", "pp"},
		{"cinematic-brawl", "cinematic"},
		{"vv-brawl", "vv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"play", "--rules", tt.rules, "--seed", "1", "../../examples/" + tt.name + ".fray"}
			var stdout, stderr bytes.Buffer
			code := Main(args, strings.NewReader(""), &stdout, &stderr)
			got := fmt.Sprintf("$ fray %s\n# exit %d\n# stdout\n%s# stderr\n%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
			path := filepath.Join("testdata", "play", tt.name+".golden")
			if *updatePlay {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s:\n%s", path, got)
			}
		})
	}
}
