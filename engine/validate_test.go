package engine_test

import (
	"strings"
	"testing"

	"fray"
	"fray/engine"
)

// TestCheckCombatant is the one validator's table: what add, sheets and
// logs alike may not bring in, and what they may.
func TestCheckCombatant(t *testing.T) {
	ok := func() fray.Combatant { return fray.Combatant{Name: "Ann", Kind: fray.KindCharacter, Side: fray.SidePC} }
	good := map[string]func(*fray.Combatant){
		"plain":       func(*fray.Combatant) {},
		"an id":       func(c *fray.Combatant) { c.ID = engine.NewCombatantID(7, 3, 0) },
		"NFC accents": func(c *fray.Combatant) { c.Name = "José" },
		"big hp":      func(c *fray.Combatant) { c.Tracks = map[string]fray.Track{"hp": {Value: 5000, Max: 5000}} },
		"a group":     func(c *fray.Combatant) { c.Kind, c.Group = fray.KindGroup, "Brigands" },
	}
	bad := map[string]func(*fray.Combatant){
		"NUL":           func(c *fray.Combatant) { c.Name = "A\x00B" },
		"U+202E":        func(c *fray.Combatant) { c.Name = "A\u202eB" },
		"U+200B":        func(c *fray.Combatant) { c.Name = "A\u200bB" },
		"spaces only":   func(c *fray.Combatant) { c.Name = "   " },
		"150 bytes":     func(c *fray.Combatant) { c.Name = strings.Repeat("x", 150) },
		"not NFC":       func(c *fray.Combatant) { c.Name = "Jose\u0301" },
		"side gm":       func(c *fray.Combatant) { c.Side = "gm" },
		"kind wizard":   func(c *fray.Combatant) { c.Kind = "wizard" },
		"a name as id":  func(c *fray.Combatant) { c.ID = "Silas" },
		"huge stat":     func(c *fray.Combatant) { c.Stats = map[string]int{"brawn": 1001} },
		"huge track":    func(c *fray.Combatant) { c.Tracks = map[string]fray.Track{"hp": {Value: 1, Max: 100_001}} },
		"upper stat":    func(c *fray.Combatant) { c.Stats = map[string]int{"Brawn": 3} },
		"a bad group":   func(c *fray.Combatant) { c.Group = " Brigands" },
		"a bad power":   func(c *fray.Combatant) { c.Powers = []fray.Power{{Name: "\u202eBlast", Rank: 3}} },
		"long notes":    func(c *fray.Combatant) { c.Notes = strings.Repeat("n", engine.MaxNotesLen+1) },
		"too many pows": func(c *fray.Combatant) { c.Powers = make([]fray.Power, engine.MaxSheetItems+1) },
	}
	for name, f := range good {
		c := ok()
		f(&c)
		if err := engine.CheckCombatant(&c); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
	for name, f := range bad {
		c := ok()
		f(&c)
		if err := engine.CheckCombatant(&c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
