package pp

import "fray"

// This file is the system's sheet schema (fray.Sheeter): what a
// character sheet holds, for package sheet.

var _ fray.Sheeter = (*System)(nil)

// Sheet returns what a pp character sheet holds: the six traits, Health
// (worked out when left out) and Resolve, and powers, talents and weapons
// ranked 0 to 30.
func (*System) Sheet() fray.SheetSchema {
	return fray.SheetSchema{
		Stats: []fray.SheetRange{
			{Name: "agility", Min: 0, Max: 30, Required: true},
			{Name: "intellect", Min: 0, Max: 30, Required: true},
			{Name: "might", Min: 0, Max: 30, Required: true},
			{Name: "perception", Min: 0, Max: 30, Required: true},
			{Name: "toughness", Min: 0, Max: 30, Required: true},
			{Name: "willpower", Min: 0, Max: 30, Required: true},
		},
		Health: "health",
		Tracks: []fray.SheetRange{
			// Health left out is the rules' own (P-10, SPEC 1.4).
			{Name: "health", Min: 0, Max: 100, Required: true, Derive: func(c *fray.Combatant) (int, bool) { return Health(c), true }},
			{Name: "resolve", Min: 0, Max: 100},
		},
		Rank:  fray.SheetRange{Name: "rank", Min: 0, Max: 30},
		Kinds: []string{fray.PowerKindPower, fray.PowerKindTalent, fray.PowerKindWeapon},
	}
}
