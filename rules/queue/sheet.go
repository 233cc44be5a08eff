package queue

import "fray"

// This file is the system's sheet schema (fray.Sheeter): what a
// character sheet holds, for package sheet.

var _ fray.Sheeter = (*System)(nil)

// Sheet returns what a queue character sheet holds: Wits, hit points, and
// weapons, each light, medium or heavy.
func (*System) Sheet() fray.SheetSchema {
	return fray.SheetSchema{
		Stats:   []fray.SheetRange{{Name: "wits", Min: -10, Max: 20, Required: true}},
		Health:  "hp",
		Tracks:  []fray.SheetRange{{Name: "hp", Min: 0, Max: 1000, Required: true}},
		Rank:    fray.SheetRange{Name: "rank", Min: 0, Max: 100},
		Kinds:   []string{fray.PowerKindWeapon},
		Weights: []string{"light", "medium", "heavy"},
	}
}
