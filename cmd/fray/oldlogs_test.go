package main

import (
	"path/filepath"
	"testing"

	"fray/rules/rulestest"
)

// TestOldExampleLogs imports the logs the examples gave before payloads
// held ids (format version 2, written once under testdata/v2/RULES and
// never rewritten): each ends in the view it ended in then, and its
// events are rewritten into format 3.
func TestOldExampleLogs(t *testing.T) {
	for _, f := range systemList {
		id := f().ID()
		t.Run(id, func(t *testing.T) {
			if err := rulestest.CheckOldLogs(f, filepath.Join("testdata", "v2", id)); err != nil {
				t.Fatal(err)
			}
		})
	}
}
