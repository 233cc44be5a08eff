package kit_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"fray/dice"
	"fray/rules/kit"
)

func TestProb(t *testing.T) {
	read := func(a *kit.RollArgs) (int, error) { return a.Required("n", -kit.Range, kit.Range) }
	odds := func(n int) (map[int]float64, error) {
		if n > 100 {
			return nil, errors.New("too big a bonus")
		}
		o := map[int]float64{}
		for face := 1; face <= 6; face++ {
			o[face+n] = 1.0 / 6
		}
		return o, nil
	}
	write := func(b *strings.Builder, n int, o map[int]float64) {
		fmt.Fprintf(b, "d6 + %d: %d totals", n, len(o))
	}
	roll := kit.NamedRoll{
		Title: "d6 + n",
		Keys:  []kit.RollKey{{Name: "n", Value: "N", Help: "the bonus"}},
		Prob:  kit.Prob(read, odds, write),
	}
	objs, text, err := roll.Odds("toy", []string{"n=2"})
	if err != nil {
		t.Fatal(err)
	}
	// d6 + 2: totals 3 to 8, each 1 in 6.
	want := []any{map[int]float64{3: 1.0 / 6, 4: 1.0 / 6, 5: 1.0 / 6, 6: 1.0 / 6, 7: 1.0 / 6, 8: 1.0 / 6}}
	if d := cmp.Diff(want, objs); d != "" || text != "d6 + 2: 6 totals" {
		t.Errorf("odds %q (-want +got):\n%s", text, d)
	}
	for _, c := range []struct{ arg, want string }{{"n=x", "n=x: want a whole number"}, {"n=101", "too big a bonus"}} {
		if objs, text, err := roll.Odds("toy", []string{c.arg}); err == nil || !strings.Contains(err.Error(), c.want) || objs != nil || text != "" {
			t.Errorf("%s: %v, %q, %v; want no odds and an error with %q", c.arg, objs, text, err, c.want)
		}
	}
}

func TestFixed(t *testing.T) {
	// two d6 thrown one after the other
	two := func(src dice.Source) (any, string, error) {
		return []int{src.IntN(6) + 1, src.IntN(6) + 1}, "", nil
	}
	cases := []struct {
		name     string
		fixed    []int
		src      dice.Source
		physical bool
		want     []int
	}{
		{"none given", []int{0, 0}, dice.Faces(4, 2), false, []int{4, 2}},
		{"the second given", []int{0, 5}, dice.Faces(3), true, []int{3, 5}},
		{"both given", []int{6, 1}, dice.Faces(), true, []int{6, 1}},
	}
	for _, c := range cases {
		m := kit.Fixed(c.fixed, two)
		if m.Physical != c.physical {
			t.Errorf("%s: Physical %v, want %v", c.name, m.Physical, c.physical)
		}
		got, _, err := m.Make(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s: faces (-want +got):\n%s", c.name, d)
		}
	}
}
