package rulestest

import (
	"math"
	"testing"

	"fray"
)

// An event decided now matches an old log's though its odds differ in
// the last place, but not when they differ by more, nor in a word.
func TestSameEventOdds(t *testing.T) {
	odds := func(miss float64, name string) *fray.Odds {
		return &fray.Odds{Roll: "attack", Bands: []fray.Band{{Name: "astray", P: 0.05}, {Name: name, P: miss}, {Name: "hit", P: 0.95 - miss}}, Mean: 2.66}
	}
	ev := func(o *fray.Odds) fray.Event { return fray.Event{Type: "x.rolled", Odds: o} }
	tests := []struct {
		a, b *fray.Odds
		same bool
	}{
		{odds(0.45, "miss"), odds(0.45, "miss"), true},
		{odds(0, "miss"), odds(4.163336342344337e-17, "miss"), true},
		{odds(0.45, "miss"), odds(math.Nextafter(0.45, 1), "miss"), true},
		{odds(0.45, "miss"), odds(0.45+1e-9, "miss"), false},
		{odds(0.45, "miss"), odds(0.45, "missed"), false},
		{odds(0.45, "miss"), nil, false},
	}
	for _, tt := range tests {
		if err := sameEvent(ev(tt.a), ev(tt.b)); (err == nil) != tt.same {
			t.Errorf("%+v against %+v: %v, want same %v", tt.a, tt.b, err, tt.same)
		}
	}
}
