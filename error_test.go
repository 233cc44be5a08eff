package fray_test

import (
	"slices"
	"testing"

	"fray"
)

// TestErrorfDeclares checks that Errorf prints a combatant, a Mention and
// a quoted refusal as words, declares whom they name, and leaves the
// caller's arguments as they were.
func TestErrorfDeclares(t *testing.T) {
	ann := &fray.Combatant{ID: "aaaaaaaa", Name: "Ann"}
	inner := fray.Errorf(fray.EINVALID, "%s holds the floor", fray.Mention("Zed"))
	args := []any{ann, fray.Mention("Bob"), fray.Quote(inner), 3}
	e := fray.Errorf(fray.EINVALID, "%s and %s: %s (%d).", args...)
	if want := "Ann and Bob: Zed holds the floor (3)."; e.Message != want {
		t.Errorf("message %q, want %q", e.Message, want)
	}
	if !slices.Equal(e.About, []fray.CombatantID{"aaaaaaaa"}) || !slices.Equal(e.Names, []string{"Bob", "Zed"}) {
		t.Errorf("declares %v and %q, want [aaaaaaaa] and [Bob Zed]", e.About, e.Names)
	}
	if args[0] != any(ann) || args[1] != any(fray.Mention("Bob")) {
		t.Errorf("Errorf changed the caller's arguments: %v", args)
	}
	if e := fray.Errorf(fray.EINVALID, "plain %d", 1); e.Message != "plain 1" || e.About != nil || e.Names != nil {
		t.Errorf("a plain refusal: %+v", e)
	}
}
