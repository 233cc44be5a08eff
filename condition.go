package fray

import "strconv"

// Turn edges a condition's duration is anchored to. They are wire
// strings: never rename one.
const (
	EdgeStart = "start" // the start of a turn (or of a round)
	EdgeEnd   = "end"   // the end of a turn (or of a round)
)

// Condition is a state a combatant is in (distracted, blocking, prone,
// badly injured …) with the modifiers it brings to later rolls and how
// long it lasts (SPEC E-4). Its duration is anchored to a turn, never
// counted down, so it expires correctly across delays, held actions,
// reorders, forced turns and undo: see Anchor.
//
// Its JSON field names are wire strings: never rename one.
type Condition struct {
	// Name names the condition, such as "distracted"; a combatant holds
	// at most one condition of a name (compared without regard to case).
	Name string `json:"name"`
	// By names the combatant who caused it, if any, as they were called
	// when it was set; in a state the engine keeps it up to date with
	// their name (see ByID).
	By string `json:"by,omitempty" fray:"name,id=by_id"`
	// ByID identifies the combatant who caused it. The engine fills it
	// when the condition is applied; it is who By is, whatever their name
	// becomes.
	ByID CombatantID `json:"by_id,omitempty"`
	// Since is the round in which it was set.
	Since int `json:"since"`
	// From is the first round in which its modifiers apply; 0 means at
	// once.
	From int `json:"from,omitempty"`
	// Until is when it ends; nil means when it is cleared.
	Until *Anchor `json:"until,omitempty"`
	// Once marks a condition spent by the first roll that applies one of
	// its modifiers (such as a distraction: +3 to the next attack).
	Once bool `json:"once,omitempty"`
	// Modifiers are added to the rolls they apply to (Modifier.On).
	Modifiers []Modifier `json:"modifiers,omitempty"`
	// Note is free text, such as what the condition means at the table.
	Note string `json:"note,omitempty"`
}

// Anchor is a point in the order of play: the start or the end of a
// combatant's turn in a round, or of the round itself. A condition lasts
// until the first such edge at or after the anchor's round: "until the end
// of Ganyeka's next turn" is {Round: now, Name: "Ganyeka", Edge: EdgeEnd},
// and it ends when Ganyeka's turn ends, whenever that is (a delayed turn
// ends when it is taken and ended; a forced action is a turn).
type Anchor struct {
	// Round is the earliest round whose edge ends the condition.
	Round int `json:"round"`
	// Name names the combatant whose turn it is; empty for the round
	// itself. In a state the engine keeps it up to date with their name
	// (see ID).
	Name string `json:"name,omitempty" fray:"name,id=id"`
	// ID identifies the combatant whose turn it is (empty for the round
	// itself). The engine fills it when the condition is applied, and
	// turn edges are matched by it.
	ID CombatantID `json:"id,omitempty"`
	// Edge is EdgeStart or EdgeEnd.
	Edge string `json:"edge"`
}

// String says the anchor in words: "the end of Ganyeka's turn (round 3
// or later)", "the end of round 4".
func (a Anchor) String() string {
	if a.Name == "" {
		return "the " + a.Edge + " of round " + strconv.Itoa(a.Round)
	}
	return "the " + a.Edge + " of " + a.Name + "'s turn (round " + strconv.Itoa(a.Round) + " or later)"
}

// Who returns the names of the combatants the condition declares (see
// TagWho): the one who caused it and the one whose turn ends it. It is what
// Refs finds in a Condition, without reflection.
func (c Condition) Who() []string {
	var out []string
	if c.By != "" {
		out = append(out, c.By)
	}
	if c.Until != nil && c.Until.Name != "" {
		out = append(out, c.Until.Name)
	}
	return out
}

// Clone returns a deep copy of the condition.
func (c Condition) Clone() Condition {
	if c.Until != nil {
		u := *c.Until
		c.Until = &u
	}
	if c.Modifiers != nil {
		c.Modifiers = append([]Modifier(nil), c.Modifiers...)
	}
	return c
}

// Condition returns the combatant's condition named name, or nil.
func (c *Combatant) Condition(name string) *Condition {
	for i := range c.Conditions {
		if SameName(c.Conditions[i].Name, name) {
			return &c.Conditions[i]
		}
	}
	return nil
}
