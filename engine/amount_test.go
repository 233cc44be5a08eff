package engine_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"fray"
	"fray/engine"
)

func TestAmount(t *testing.T) {
	tests := []struct {
		line string
		lo   int
		want int
		err  string // a part of the refusal, "" when accepted
	}{
		{"damage Ann 7", 1, 7, ""},
		{"damage Ann 0", 0, 0, ""},
		{"damage Ann 1000", 1, 1000, ""},
		{"damage Ann 0", 1, 0, `damage Ann: "0" is not a whole number of hit points from 1 to 1000.`},
		{"heal Ann 1001", 1, 0, `heal Ann: "1001" is not a whole number of hit points from 1 to 1000.`},
		{"damage Ann -3", 0, 0, `"-3" is not a whole number`},
		{"damage Ann 2.5", 1, 0, `"2.5" is not a whole number`},
		{"damage Ann 99999999999999999999999", 1, 0, "from 1 to 1000"},
		{"damage Ann x", 1, 0, `"x" is not`},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			cmd, err := engine.ParseCommand(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			n, err := engine.Amount(cmd, 1, tc.lo, "hit points")
			switch {
			case tc.err == "" && (err != nil || n != tc.want):
				t.Fatalf("got %d, %v; want %d", n, err, tc.want)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("got %d, %v; want a refusal with %q", n, err, tc.err)
			case tc.err != "":
				if fe, ok := err.(*fray.Error); !ok || fe.Code != fray.EINVALID {
					t.Fatalf("got %#v, want an EINVALID *fray.Error", err)
				}
			}
		})
	}
}

// Clip never cuts a character in two: the 40th byte of these strings
// falls inside a two- or three-byte character.
func TestClip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("a", 40), strings.Repeat("a", 40)},
		{strings.Repeat("a", 41), strings.Repeat("a", 40) + "…"},
		{strings.Repeat("a", 39) + "é" + "b", strings.Repeat("a", 39) + "…"},
		{strings.Repeat("a", 38) + "−−", strings.Repeat("a", 38) + "…"},
		{strings.Repeat("é", 30), strings.Repeat("é", 20) + "…"},
	}
	for _, tc := range tests {
		got := engine.Clip(tc.in)
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("Clip(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
