package web

import "fray"

// Bands of a combatant's health, as players see an NPC's: never its exact
// track. They are wire strings: never rename one.
const (
	BandUnhurt     = "unhurt"
	BandHurt       = "hurt"
	BandBadlyHurt  = "badly hurt"
	BandDown       = "down"
	bandHealthless = ""
)

// healthTracks names the track that says how hurt a combatant is, in the
// order looked for: bpb's Endurance, cinematic's Life Points, vv's Hit
// Points, pp's Health and queue's hp.
var healthTracks = []string{"endurance", "life points", "hit points", "health", "hp"}

// Band returns how hurt the combatant is, in words, from its health
// track: unhurt at its maximum, down at 0 or below, hurt above half and
// badly hurt at half or below; "" when it has no health track.
func Band(c fray.Combatant) string {
	for _, name := range healthTracks {
		t, ok := c.Tracks[name]
		if !ok || t.Max <= 0 {
			continue
		}
		switch {
		case t.Value <= 0:
			return BandDown
		case t.Value >= t.Max:
			return BandUnhurt
		case 2*t.Value > t.Max:
			return BandHurt
		default:
			return BandBadlyHurt
		}
	}
	return bandHealthless
}

// View is a fray.View as the API sends it: each combatant with its band.
type View struct {
	fray.View
	// Combatants lists every combatant the caller may see, in the order
	// they were added.
	Combatants []Combatant `json:"combatants"`
}

// Combatant is a fray.Combatant as the API sends it.
type Combatant struct {
	fray.Combatant
	// Band says how hurt the combatant is (see Band); players see it
	// instead of an NPC's tracks.
	Band string `json:"band,omitempty"`
}

// withBands returns v as the API sends it; bands are worked out from
// full, the view before anything was taken out for players.
func withBands(v fray.View, full []fray.Combatant) View {
	out := View{View: v, Combatants: make([]Combatant, len(v.Combatants))}
	for i, c := range v.Combatants {
		out.Combatants[i] = Combatant{Combatant: c}
		for _, f := range full {
			if f.Name == c.Name {
				out.Combatants[i].Band = Band(f)
				break
			}
		}
	}
	out.View.Combatants = nil
	return out
}
