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

// HealthTrack returns the name of the track that says how hurt a
// combatant of sys is, as its sheet schema declares it
// (fray.SheetSchema.Health); "" when it declares none.
func HealthTrack(sys fray.System) string {
	if s, ok := sys.(fray.Sheeter); ok {
		return s.Sheet().Health
	}
	return ""
}

// Band returns how hurt the combatant is, in words, from its health
// track (HealthTrack): unhurt at its maximum, down at 0 or below, hurt
// above half and badly hurt at half or below; "" when it has no such
// track.
func Band(c fray.Combatant, health string) string {
	if t, ok := c.Tracks[health]; ok && t.Max > 0 {
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
// full, the view before anything was taken out for players, on the
// health track health.
func withBands(v fray.View, full []fray.Combatant, health string) View {
	out := View{View: v, Combatants: make([]Combatant, len(v.Combatants))}
	for i, c := range v.Combatants {
		out.Combatants[i] = Combatant{Combatant: c}
		for _, f := range full {
			if f.Name == c.Name {
				out.Combatants[i].Band = Band(f, health)
				break
			}
		}
	}
	out.View.Combatants = nil
	return out
}
