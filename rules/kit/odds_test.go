package kit_test

import (
	"testing"

	"fray/rules/kit"
)

func TestBandP(t *testing.T) {
	type band struct {
		name string
		p    float64
	}
	bands := []band{{"failure", 0.5}, {"success", 0.25}, {"extreme", 0.25}, {"success", 0.75}}
	of := func(x band) (string, float64) { return x.name, x.p }
	tests := []struct {
		band string
		want float64
	}{
		{"failure", 0.5},
		{"extreme", 0.25},
		{"success", 0.25}, // the first band of that name
		{"remarkable", 0}, // not a band of this roll
	}
	for _, tt := range tests {
		if got := kit.BandP(bands, tt.band, of); got != tt.want {
			t.Errorf("BandP(%q) = %v, want %v", tt.band, got, tt.want)
		}
	}
	if got := kit.BandP(nil, "failure", of); got != 0 {
		t.Errorf("BandP of no bands = %v, want 0", got)
	}
}
