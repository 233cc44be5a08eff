package vv

import "fray"

// This file is the system's sheet schema (fray.Sheeter): what a
// character sheet holds, for package sheet.

var _ fray.Sheeter = (*System)(nil)

// Sheet returns what a vv character sheet holds: the five basic
// characteristics, level, movement rate and basic hits, Hit Points and
// Power (worked out when left out), and powers, weapons and skills, with
// the six kinds of damage and protection against those.
func (*System) Sheet() fray.SheetSchema {
	return fray.SheetSchema{
		Stats: []fray.SheetRange{
			{Name: "strength", Min: 1, Max: 100, Required: true},
			{Name: "endurance", Min: 1, Max: 100, Required: true},
			{Name: "agility", Min: 1, Max: 100, Required: true},
			{Name: "intelligence", Min: 1, Max: 100, Required: true},
			{Name: "charisma", Min: 1, Max: 100, Required: true},
			{Name: "level", Min: 1, Max: 100, Required: true},
			{Name: "moverate", Min: 0, Max: 100000},
			{Name: "basichits", Min: 1, Max: 100},
		},
		Health: "hit points",
		Tracks: []fray.SheetRange{
			{Name: "hit points", Min: -1000, Max: 10000, Required: true},
			{Name: "power", Min: -1000, Max: 10000, Required: true, Derive: func(c *fray.Combatant) (int, bool) {
				// Power = Strength + Endurance + Agility + Intelligence (V&V 2e).
				return c.Stat("strength") + c.Stat("endurance") + c.Stat("agility") + c.Stat("intelligence"), true
			}},
		},
		Rank:   fray.SheetRange{Name: "rank", Min: 0, Max: 1000},
		Kinds:  []string{fray.PowerKindPower, fray.PowerKindWeapon, fray.PowerKindSkill},
		Damage: []string{"biochemical", "energy", "psychic", "kinetic", "entropy", "gas"},
	}
}
