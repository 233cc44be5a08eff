package fray

// Sheeter is implemented by a System whose combatants may come from
// character sheets. Sheet returns what the system's sheets hold; package
// sheet reads a sheet file against it, and refuses sheets for a system
// that is not a Sheeter.
type Sheeter interface {
	Sheet() SheetSchema
}

// SheetSchema is what one rule system's character sheets hold: the stats
// and tracks a sheet may give and their bounds, the bounds of ranks, and
// the words its powers and protection may use. Field names are wire
// strings: never rename one.
type SheetSchema struct {
	// Stats lists the stats a sheet may give.
	Stats []SheetRange `json:"stats"`
	// Tracks lists the tracks a sheet may give.
	Tracks []SheetRange `json:"tracks"`
	// Health names the one of Tracks that says how hurt a combatant is
	// (what a page draws as its health, and the band players see of an
	// NPC's); "" for none.
	Health string `json:"health,omitempty"`
	// Rank bounds the rank of powers, weapons, skills and talents.
	Rank SheetRange `json:"rank"`
	// Kinds lists the kinds of power allowed (PowerKind*); the first is
	// the kind of a power listed under powers: without one. With none, a
	// sheet lists no powers.
	Kinds []string `json:"kinds"`
	// Damage lists the damage kinds a power may name; nil allows any.
	Damage []string `json:"damage"`
	// Protection lists the protection kinds a sheet may give; nil allows
	// the kinds of Damage, or any when Damage is nil too.
	Protection []string `json:"protection"`
	// Weights lists the weapon weights allowed; nil means none.
	Weights []string `json:"weights"`
}

// SheetRange is a named number on a character sheet (a stat, a track, the
// rank of powers) and the values it may take.
type SheetRange struct {
	// Name is the lower-case name.
	Name string `json:"name"`
	// Min and Max bound the value.
	Min int `json:"min"`
	Max int `json:"max"`
	// Required means a sheet must give it (unless Derive can work it out).
	Required bool `json:"required"`
	// Derive works the value out from the rest of the sheet, for a track
	// a sheet leaves out; ok is false when it cannot. Nil for a value
	// that is never worked out.
	Derive func(c *Combatant) (v int, ok bool) `json:"-"`
}

// Derives reports whether the value is worked out (by Derive) when a sheet
// leaves it out.
func (r SheetRange) Derives() bool { return r.Derive != nil }
