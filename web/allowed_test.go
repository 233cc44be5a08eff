package web

import (
	"strings"
	"testing"

	"fray"
	"fray/engine"
	"fray/rules/bpb"
)

// TestAllowedSaysWhy checks the words of a player's refusal: each names
// what the player may not do and, where naming the character would make
// the command theirs, says so.
func TestAllowedSaysWhy(t *testing.T) {
	enc := &fray.Encounter{Combatants: []*fray.Combatant{{ID: "aaaaaaaa", Name: "Ann"}, {ID: "bbbbbbbb", Name: "Bear"}}}
	v := fray.View{Current: "Ann", Combatants: enc.CombatantList()}
	player := caller{Role: fray.RolePlayer, Combatant: "bbbbbbbb"}
	tests := []struct {
		line, want string // want "" means allowed
	}{
		{"take", "Name the character take acts for: take Bear."},
		{"take Bear", ""},
		{"take Ann", "A player acts only for Bear; take acts for someone else."},
		{"block Bear", ""},
		{"next", "A player acts only for Bear; next acts for someone else."},
		{"start", "Only the GM may use start."},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			cmd, err := engine.ParseCommand(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			err = allowed(player, engine.Decls(bpb.New()), cmd, v, NewSight(bpb.New(), enc))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if err != nil {
				if fe, ok := err.(*fray.Error); !ok || fe.Code != fray.EFORBIDDEN {
					t.Fatalf("got %#v, want an EFORBIDDEN *fray.Error", err)
				}
			}
		})
	}
}
