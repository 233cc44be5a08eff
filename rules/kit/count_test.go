package kit_test

import (
	"testing"

	"fray/rules/kit"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, "1 point"}, {0, "0 points"}, {2, "2 points"}, {-1, "-1 points"}, {11, "11 points"}} {
		if got := kit.Count(c.n, "point", "points"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
