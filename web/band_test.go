package web_test

import (
	"testing"

	"fray"
	"fray/web"
)

func TestBand(t *testing.T) {
	tests := []struct {
		tracks map[string]fray.Track
		health string
		want   string
	}{
		{nil, "endurance", ""},
		{map[string]fray.Track{"power": {Value: 1, Max: 30}}, "endurance", ""},
		{map[string]fray.Track{"endurance": {Value: 30, Max: 30}}, "endurance", web.BandUnhurt},
		{map[string]fray.Track{"endurance": {Value: 16, Max: 30}}, "endurance", web.BandHurt},
		{map[string]fray.Track{"endurance": {Value: 15, Max: 30}}, "endurance", web.BandBadlyHurt},
		{map[string]fray.Track{"endurance": {Value: 1, Max: 30}}, "endurance", web.BandBadlyHurt},
		{map[string]fray.Track{"endurance": {Value: 0, Max: 30}}, "endurance", web.BandDown},
		{map[string]fray.Track{"endurance": {Value: 0, Max: 30}}, "", ""},
		{map[string]fray.Track{"life points": {Value: -5, Max: 26}}, "life points", web.BandDown},
		{map[string]fray.Track{"hit points": {Value: 12, Max: 10}, "power": {Value: 0, Max: 40}}, "hit points", web.BandUnhurt},
		{map[string]fray.Track{"hit points": {Value: 12, Max: 10}, "power": {Value: 0, Max: 40}}, "stun", ""},
		{map[string]fray.Track{"hit points": {Value: 12, Max: 10}, "power": {Value: 0, Max: 40}}, "power", web.BandDown},
		{map[string]fray.Track{"health": {Value: 3, Max: 4}}, "health", web.BandHurt},
		{map[string]fray.Track{"hp": {Value: 2, Max: 0}}, "hp", ""},
	}
	for _, tc := range tests {
		if got := web.Band(fray.Combatant{Tracks: tc.tracks}, tc.health); got != tc.want {
			t.Errorf("Band(%v, %q) = %q, want %q", tc.tracks, tc.health, got, tc.want)
		}
	}
}

// Each system declares the track its seed measures harm on.
func TestHealthTrack(t *testing.T) {
	want := map[string]string{"bpb": "endurance", "cinematic": "life points", "vv": "hit points", "pp": "health", "queue": "hp"}
	for id, newSys := range systems {
		if got := web.HealthTrack(newSys()); got != want[id] {
			t.Errorf("HealthTrack(%s) = %q, want %q", id, got, want[id])
		}
	}
	if got := web.HealthTrack(nil); got != "" {
		t.Errorf("HealthTrack(nil) = %q", got)
	}
}
