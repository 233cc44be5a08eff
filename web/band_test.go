package web_test

import (
	"testing"

	"fray"
	"fray/web"
)

func TestBand(t *testing.T) {
	tests := []struct {
		tracks map[string]fray.Track
		want   string
	}{
		{nil, ""},
		{map[string]fray.Track{"power": {Value: 1, Max: 30}}, ""},
		{map[string]fray.Track{"endurance": {Value: 30, Max: 30}}, web.BandUnhurt},
		{map[string]fray.Track{"endurance": {Value: 16, Max: 30}}, web.BandHurt},
		{map[string]fray.Track{"endurance": {Value: 15, Max: 30}}, web.BandBadlyHurt},
		{map[string]fray.Track{"endurance": {Value: 1, Max: 30}}, web.BandBadlyHurt},
		{map[string]fray.Track{"endurance": {Value: 0, Max: 30}}, web.BandDown},
		{map[string]fray.Track{"life points": {Value: -5, Max: 26}}, web.BandDown},
		{map[string]fray.Track{"hit points": {Value: 12, Max: 10}, "power": {Value: 0, Max: 40}}, web.BandUnhurt},
		{map[string]fray.Track{"health": {Value: 3, Max: 4}}, web.BandHurt},
		{map[string]fray.Track{"hp": {Value: 2, Max: 0}}, ""},
	}
	for _, tc := range tests {
		if got := web.Band(fray.Combatant{Tracks: tc.tracks}); got != tc.want {
			t.Errorf("Band(%v) = %q, want %q", tc.tracks, got, tc.want)
		}
	}
}
