package cinematic

import "fray"

// This file is the system's sheet schema (fray.Sheeter): what a
// character sheet holds, for package sheet.

var _ fray.Sheeter = (*System)(nil)

// Sheet returns what a cinematic character sheet holds: the six
// attributes, Life Points (worked out when left out), and skills, weapons
// and powers ranked 0 to 20, with bullet, slash, stab or bash damage and
// protection against those.
func (*System) Sheet() fray.SheetSchema {
	return fray.SheetSchema{
		Stats: []fray.SheetRange{
			{Name: "strength", Min: 1, Max: 20, Required: true},
			{Name: "dexterity", Min: 1, Max: 20, Required: true},
			{Name: "constitution", Min: 1, Max: 20, Required: true},
			{Name: "intelligence", Min: 1, Max: 20, Required: true},
			{Name: "perception", Min: 1, Max: 20, Required: true},
			{Name: "willpower", Min: 1, Max: 20, Required: true},
		},
		Health: "life points",
		Tracks: []fray.SheetRange{
			{Name: "life points", Min: -1000, Max: 1000, Required: true, Derive: func(c *fray.Combatant) (int, bool) {
				// (Strength + Constitution) × 4 + 10 (SPEC 1.2).
				return (c.Stat("strength")+c.Stat("constitution"))*4 + 10, true
			}},
		},
		Rank:   fray.SheetRange{Name: "rank", Min: 0, Max: 20},
		Kinds:  []string{fray.PowerKindSkill, fray.PowerKindWeapon, fray.PowerKindPower},
		Damage: []string{"bullet", "slash", "stab", "bash"},
	}
}
