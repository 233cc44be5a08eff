package main

import (
	"fmt"
	"io"

	"fray/dice"
)

// runRulesRoll rolls a named per-system roll; it is replaced by the
// per-system helpers.
func runRulesRoll(id string, args []string, src dice.Source, n int, jsonOut bool, stdout, stderr io.Writer) int {
	fmt.Fprintf(stderr, "fray roll: --rules %s is not available yet\n", id)
	return 2
}

// runRulesProb prints the odds of a named per-system roll.
func runRulesProb(id string, args []string, jsonOut bool, stdout, stderr io.Writer) int {
	fmt.Fprintf(stderr, "fray prob: --rules %s is not available yet\n", id)
	return 2
}

// rulesHelp describes the keys of each system's named roll.
func rulesHelp() string { return "" }
