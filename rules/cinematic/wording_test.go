package cinematic_test

import (
	"strings"
	"testing"
)

// Issue 14, "Help and wording seen wrong" (C-4): faces for a defence roll
// that is not made are refused with the reason, not only as one die too
// many.
func TestC4_NoDefenceDieSaysWhy(t *testing.T) {
	e := gunslinger(t)
	do(t, e, "defend Target") // the Target's one defence of the round
	for _, c := range []struct{ line, want string }{
		{"attack Gunslinger Target with=Uzi dice=8,9", "The dice give a face for Target's defence, but Target rolls none: "},
		{"attack Gunslinger Target with=Uzi defence=none dice=8,9", "Target rolls none: the attack says defence=none; the attack hits on 9+. Give the attack's die alone."},
	} {
		if got := refusal(t, e, c.line); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want it to contain %q", c.line, got, c.want)
		}
	}
	got := refusal(t, e, "attack Gunslinger Target with=Uzi dice=8,9")
	if !strings.Contains(got, "no defence left") || strings.Contains(got, "more dice than") {
		t.Errorf("the reason: %q", got)
	}
	do(t, e, "attack Gunslinger Target with=Uzi dice=8")
}
