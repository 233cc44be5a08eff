package queue_test

import (
	"testing"

	"fray/rules/queue"
	"fray/rules/rulestest"
)

// TestTell plays examples/queue-brigands.fray and checks the log in words,
// each event told in the state before it. Checked by hand: Melvina's check is the d20's 9 + Wits 2 = 11, which reaches the 11 it needs.
func TestTell(t *testing.T) {
	rulestest.CheckTold(t, queue.New(), "../../examples/queue-brigands.fray",
		"Melvina checks against Pet Bear: 1d20 9 + 2 = 11 against 11 — success",
	)
}
