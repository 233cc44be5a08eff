package dice_test

import (
	"errors"
	"strings"
	"testing"

	"fray/dice"
)

func TestParseGood(t *testing.T) {
	tests := []struct {
		in, canon string
	}{
		{"3d6+4", "3d6+4"},
		{"d20", "1d20"},
		{" 2 d 6 ", "2d6"},
		{"d%", "1d%"},
		{"4dF", "4dF"},
		{"4df", "4dF"},
		{"12d{0,1,0,1,0,2}", "12d{0,1,0,1,0,2}"},
		{"d{-1, 0 ,1}", "1d{-1,0,1}"},
		{"4d6k3", "4d6kh3"},
		{"2d20k", "2d20kh1"},
		{"2d20kl1", "2d20kl1"},
		{"4d6dl1", "4d6dl1"},
		{"4d6dh1", "4d6dh1"},
		{"3d6!", "3d6!"},
		{"3d6!6", "3d6!6"},
		{"3d6!>=5", "3d6!>=5"},
		{"3d6!!", "3d6!!"},
		{"3d6!!>5", "3d6!!>5"},
		{"12d{0,1,0,1,0,1}!@6", "12d{0,1,0,1,0,1}!@6"},
		{"12d{0,1,0,1,0,1}!@>=6", "12d{0,1,0,1,0,1}!@>=6"},
		{"3d6r", "3d6r1"},
		{"dFr", "1dFr=-1"},
		{"3d6r1r2", "3d6r1r2"},
		{"3d6ro<3", "3d6ro<3"},
		{"10d10>=8", "10d10>=8"},
		{"10d10>=8f1", "10d10>=8f1"},
		{"10d10>=8f<=2", "10d10>=8f<=2"},
		{"4dF>=0f=-1", "4dF>=0f=-1"},
		{"6d6=6", "6d6=6"},
		{"3d6!>=5>=4", "3d6!>=5>=4"},
		{"3d6!=6>=4", "3d6!6>=4"}, // the explosion point is written so the count is not read as it
		{"4d6min2max5", "4d6min2max5"},
		{"4d6max5min2", "4d6min2max5"}, // modifiers print in the order they apply
		{"4d6kh3r1", "4d6r1kh3"},
		{"4d6min-1", "4d6min-1"},
		{"4d6!!kh3", "4d6!!kh3"},
		{"1d6!-1", "1d6!-1"}, // a bare point is unsigned: this is minus one
		{"1d6r-1", "1d6r1-1"},
		{"(1+2)*3", "(1+2)*3"},
		{"1+2*3", "1+2*3"},
		{"1-(2-3)", "1-(2-3)"},
		{"(1-2)-3", "1-2-3"},
		{"8/(4/2)", "8/(4/2)"},
		{"-3", "-3"},
		{"--3", "-(-3)"},
		{"-(2d6)", "-2d6"},
		{"2*-1d6", "2*-1d6"},
		{"-(1+2)", "-(1+2)"},
		{"12d{0,1,0,1,0,2}-10d{0,1,0,1,0,2}", "12d{0,1,0,1,0,2}-10d{0,1,0,1,0,2}"},
		{"0d6", "0d6"},
		{"1d1", "1d1"},
		{"1d100000", "1d100000"},
		{"10000d6", "10000d6"},
		{"1000000000", "1000000000"},
	}
	for _, tt := range tests {
		e, err := dice.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := e.String(); got != tt.canon {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got, tt.canon)
		}
		again, err := dice.Parse(e.String())
		if err != nil || again.String() != e.String() {
			t.Errorf("canonical form %q does not round-trip: %v, %v", e.String(), again, err)
		}
	}
}

func TestParseBad(t *testing.T) {
	tests := []struct {
		in    string
		pos   int    // byte offset of the caret
		msg   string // part of the message
		limit string
	}{
		{"", 0, "empty", ""},
		{"   ", 0, "empty", ""},
		{"3d6+", 4, "expected a number, dice or an opening parenthesis, found the end", ""},
		{"3d6++1", 4, "found \"+\"", ""},
		{"(1", 2, "closing parenthesis for the one at column 1", ""},
		{"1)", 1, "no opening one", ""},
		{"2d6x", 3, "unknown word \"x\"", ""},
		{"2d6 $", 4, "unexpected character \"$\"", ""},
		{"2d6é", 3, "unexpected character \"é\"", ""},
		{"d", 1, "number of sides", ""},
		{"d0", 1, "at least one side", ""},
		{"d{}", 2, "expected a number", ""},
		{"d{1,2", 5, "comma or a closing brace", ""},
		{"1d1!", 3, "explodes on every face", ""},
		{"1d6!>=1", 3, "explodes on every face", ""},
		{"1d6!7", 3, "matches no face", ""},
		{"3d6r<=6", 3, "rerolls every face", ""},
		{"3d6r1r<=6", 5, "rerolls every face", ""},
		{"3d6r7", 3, "matches no face", ""},
		{"3d6r1ro2", 5, "cannot be mixed", ""},
		{"3d6!!!", 5, "already has a explode", ""},
		{"3d6kh1kl1", 6, "keep or drop", ""},
		{"3d6f1", 3, "need a success count", ""},
		{"3d6>=5>=4", 6, "success count", ""},
		{"3d6>=5f1f2", 8, "failure count", ""},
		{"3d6min5max2", 7, "above", ""},
		{"4d6!kh3", 0, "use !!", ""},
		{"3d6@6", 3, "found \"@\"", ""},
		{"3d6!@", 5, "after @", ""},
		{"3d6>=5f@1", 6, "drop the @", ""},
		{"1d6/(1d3-2)", 3, "divisor can be zero", ""},
		{"1d6/0", 3, "divisor can be zero", ""},
		{"1000000000d6", 0, "more than the limit of 10000", dice.LimitDice},
		{"10001d6", 0, "limit", dice.LimitDice},
		{strings.Repeat("10000d6+", 11) + "1", 80, "more than 100000 dice", dice.LimitTotalDice},
		{"1d100001", 2, "sides", dice.LimitSides},
		{"1d99999999999999999999", 2, "sides", dice.LimitSides},
		{"99999999999", 0, "larger than", dice.LimitNumber},
		{"1000000001", 0, "larger than", dice.LimitNumber},
		{strings.Repeat("(", 70) + "1" + strings.Repeat(")", 70), 64, "nests deeper", dice.LimitNesting},
		{strings.Repeat("-", 70) + "1", 64, "nests deeper", dice.LimitNesting},
		{strings.Repeat("1", 1025), 1024, "bytes long", dice.LimitSource},
		{"1000000000*1000000000", 10, "product", dice.LimitMagnitude},
		{"10000d{1000000000}*1000", 18, "product", dice.LimitMagnitude},
	}
	for _, tt := range tests {
		_, err := dice.Parse(tt.in)
		var de *dice.Error
		if !errors.As(err, &de) {
			t.Errorf("Parse(%.40q) = %v, want a *dice.Error", tt.in, err)
			continue
		}
		if de.Pos != tt.pos || !strings.Contains(de.Msg, tt.msg) || de.Limit != tt.limit {
			t.Errorf("Parse(%.40q) error at %d %q (limit %q); want at %d containing %q (limit %q)", tt.in, de.Pos, de.Msg, de.Limit, tt.pos, tt.msg, tt.limit)
		}
	}
}

func TestErrorCaret(t *testing.T) {
	_, err := dice.Parse("3d6+")
	var de *dice.Error
	if !errors.As(err, &de) {
		t.Fatalf("Parse(3d6+) = %v", err)
	}
	if got, want := de.Caret(), "3d6+\n    ^"; got != want {
		t.Errorf("Caret() = %q, want %q", got, want)
	}
	if got, want := de.Error(), "column 5: expected a number, dice or an opening parenthesis, found the end of the expression"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	// The caret counts characters, not bytes.
	_, err = dice.Parse("é+")
	errors.As(err, &de)
	if got, want := de.Caret(), "é+\n^"; got != want {
		t.Errorf("Caret() = %q, want %q", got, want)
	}
}

// FuzzParse checks that no input panics, and that the canonical form of
// anything accepted parses back to itself.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"3d6+4", "4d6kh3", "12d{0,1,0,1,0,2}!@6", "10d10>=8f1", "d%-dF*2", "3d6!!>5min2max5", "(1-2)/-(3)", "2d20kl1r1", "1d6!-1", "4dF>=0f=-1", "3d6ro<=2!>=5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := dice.Parse(s)
		if err != nil {
			var de *dice.Error
			if !errors.As(err, &de) {
				t.Fatalf("Parse(%q) error %T is not a *dice.Error", s, err)
			}
			if de.Pos < 0 || de.Pos > len(s) {
				t.Fatalf("Parse(%q) error position %d outside the input", s, de.Pos)
			}
			return
		}
		c := e.String()
		again, err := dice.Parse(c)
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", c, s, err)
		}
		if again.String() != c {
			t.Fatalf("canonical form %q of %q prints back as %q", c, s, again.String())
		}
	})
}

// BenchmarkParse includes a long chain of reroll points on a large die,
// which must stay cheap to check.
func BenchmarkParse(b *testing.B) {
	var long strings.Builder
	long.WriteString("1d99999")
	for i := 1; long.Len() < 1000; i++ {
		long.WriteString("r" + itoa(7*i))
	}
	for _, s := range []string{"3d6+4", "4d6kh3+2*(1d8!>=7-1)", long.String()} {
		b.Run(s[:min(len(s), 20)], func(b *testing.B) {
			for b.Loop() {
				if _, err := dice.Parse(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
