package bpb

import "fray"

// This file is the system's sheet schema (fray.Sheeter): what a
// character sheet holds, for package sheet.

var _ fray.Sheeter = (*System)(nil)

// Sheet returns what a bpb character sheet holds: the six attributes and
// Super-speed, Endurance and experience, and powers, weapons and skills
// ranked 1 to 14, with stunning or lethal damage and armour.
func (*System) Sheet() fray.SheetSchema {
	return fray.SheetSchema{
		Stats: []fray.SheetRange{
			{Name: "brawn", Min: 1, Max: 14, Required: true},
			{Name: "agility", Min: 1, Max: 14, Required: true},
			{Name: "accuracy", Min: 1, Max: 14, Required: true},
			{Name: "prowess", Min: 1, Max: 14, Required: true},
			{Name: "perception", Min: 1, Max: 14, Required: true},
			{Name: "willpower", Min: 1, Max: 14, Required: true},
			{Name: "superspeed", Min: 0, Max: 14},
		},
		Health: "endurance",
		Tracks: []fray.SheetRange{
			{Name: "endurance", Min: 0, Max: 1000, Required: true},
			{Name: "experience", Min: 0, Max: 1000},
		},
		Rank:       fray.SheetRange{Name: "rank", Min: 1, Max: 14},
		Kinds:      []string{fray.PowerKindPower, fray.PowerKindWeapon, fray.PowerKindSkill},
		Damage:     []string{"stunning", "lethal"},
		Protection: []string{"armour"},
	}
}
