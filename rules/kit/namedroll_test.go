package kit_test

import (
	"strings"
	"testing"

	"fray/dice"
	"fray/rules/kit"
)

// toy is a well-formed named roll: d6 + n.
func toy() kit.NamedRoll {
	return kit.NamedRoll{
		Title: "d6 + n",
		Keys: []kit.RollKey{
			{Name: "n", Value: "N", Help: "the bonus (required)"},
			{Name: "vs-n", Value: "N", Help: "the opponent's n=", Along: "n"},
			{Name: "face", Value: "1-6", Help: "the d6 rolled at the table", RollOnly: true},
		},
		Examples: []string{"roll n=2", "prob n=2"},
		Roll: func(a *kit.RollArgs) (kit.RollMaker, error) {
			n, err := a.Required("n", -kit.Range, kit.Range)
			if err != nil {
				return kit.RollMaker{}, err
			}
			return kit.RollMaker{Make: func(src dice.Source) (any, string, error) {
				total := src.IntN(6) + 1 + n
				return map[string]int{"total": total}, "", nil
			}}, nil
		},
		Prob: func(a *kit.RollArgs) ([]any, string, error) {
			_, err := a.Required("n", -kit.Range, kit.Range)
			return []any{map[string]float64{"p": 1}}, "", err
		},
	}
}

func TestCheck(t *testing.T) {
	if err := toy().Check("toy"); err != nil {
		t.Fatalf("a well-formed roll: %v", err)
	}
	tests := []struct {
		name   string
		change func(*kit.NamedRoll)
		want   string
	}{
		{"no title", func(n *kit.NamedRoll) { n.Title = "" }, "Title"},
		{"no keys", func(n *kit.NamedRoll) { n.Keys = nil }, "no keys"},
		{"key twice", func(n *kit.NamedRoll) { n.Keys = append(n.Keys, n.Keys[0]) }, `"n" is declared twice`},
		{"upper case", func(n *kit.NamedRoll) { n.Keys[0].Name = "N" }, `named "N"`},
		{"no help", func(n *kit.NamedRoll) { n.Keys[2].Help = "" }, `"face" needs a Value and Help`},
		{"along nothing", func(n *kit.NamedRoll) { n.Keys[1].Along = "m" }, `along with "m"`},
		{"example fails", func(n *kit.NamedRoll) { n.Examples = []string{"roll m=2"} }, `unknown key "m"`},
		{"example prob with dice", func(n *kit.NamedRoll) { n.Examples = []string{"prob n=2 face=3"} }, `key "face" gives dice rolled at the table`},
		{"example word", func(n *kit.NamedRoll) { n.Examples = []string{"odds n=2"} }, "want roll or prob"},
	}
	for _, tt := range tests {
		n := toy()
		tt.change(&n)
		err := n.Check("toy")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}

func TestRollArgsRefuseUnused(t *testing.T) {
	// vs-n= is never read by the toy roll: it is refused, naming vs=.
	_, err := toy().MakeRoll("toy", []string{"n=1", "vs-n=2"})
	if err == nil || err.Error() != "vs-n= is for the opponent: it needs vs=" {
		t.Errorf("got %v", err)
	}
}

func TestTaggedJSON(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{map[string]int{"total": 3}, `{"rules":"toy","total":3}`},
		{struct{}{}, `{"rules":"toy"}`},
	} {
		got, err := kit.TaggedJSON("toy", tt.v)
		if err != nil || string(got) != tt.want {
			t.Errorf("TaggedJSON(%v) = %s, %v; want %s", tt.v, got, err, tt.want)
		}
	}
	if _, err := kit.TaggedJSON("toy", []int{1}); err == nil {
		t.Error("an array was tagged")
	}
}
