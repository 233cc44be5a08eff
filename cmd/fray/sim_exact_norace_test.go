//go:build !race

package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestSimExactTooBig checks --exact on a fight too big to solve exactly
// (pp's example, whose attacks roll pools of a dozen dice and more): it
// says why, claims no exact chance and still gives the simulated
// results. It decides a hundred thousand moves before it gives up: too
// slow under the race detector.
func TestSimExactTooBig(t *testing.T) {
	pp := []string{"--rules", "pp", "--party", "../../examples/pp-party.yaml", "--foes", "../../examples/pp-foes.yaml", "-n", "200", "--exact"}
	code, out, errOut := runSim(t, append(pp, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var big map[string]any
	if err := json.Unmarshal([]byte(out), &big); err != nil {
		t.Fatal(err)
	}
	if big["exact"] != false || !strings.Contains(fmt.Sprint(big["exact_why"]), "MaxExact") || big["fights"] != 200.0 {
		t.Errorf("a fight too big: exact %v, exact_why %v, fights %v", big["exact"], big["exact_why"], big["fights"])
	}
	if _, ok := big["exact_unfinished"]; ok || strings.Contains(out, "exact_win") {
		t.Errorf("a fight not solved claims exact chances: %s", out)
	}
	if !strings.Contains(fmt.Sprint(big["exact_why"]), "(MaxExactBranches)") {
		t.Errorf("exact_why %q, want the budget that twelve dice and more meet", big["exact_why"])
	}
}
