package fray

import (
	"maps"
	"strings"
)

// Kinds of combatant. They are wire strings: never rename one.
const (
	KindCharacter   = "character"   // one person: a PC or an NPC
	KindGroup       = "group"       // several NPCs that act as one, such as "Ganyeka's henchmen"
	KindEnvironment = "environment" // falling objects and free-rolling vehicles; acts last (B-5)
)

// Sides of combatant. They are wire strings: never rename one.
const (
	SidePC  = "pc"  // a player character
	SideNPC = "npc" // a character the GM plays
)

// Combatant is one participant of an encounter.
type Combatant struct {
	// Name identifies the combatant within its encounter. Names are
	// compared without regard to case.
	Name string `json:"name"`
	// Kind is KindCharacter, KindGroup or KindEnvironment.
	Kind string `json:"kind"`
	// Side is SidePC or SideNPC.
	Side string `json:"side"`
	// Group names the group the combatant belongs to, if any; members of a
	// group may share one initiative roll and stand together in the order.
	Group string `json:"group,omitempty"`
	// Hidden combatants are known to the GM only; player views omit them.
	Hidden bool `json:"hidden,omitempty"`
	// Unaware combatants are present but have no turn until they become
	// aware (B-3).
	Unaware bool `json:"unaware,omitempty"`
	// Notes is free text for the GM.
	Notes string `json:"notes,omitempty"`
	// Stats holds the combatant's numbers by lower-case stat name, such as
	// "agility" or "wits".
	Stats map[string]int `json:"stats,omitempty"`
	// Conditions lists the conditions the combatant is in, in the order
	// they were set (SPEC E-4).
	Conditions []Condition `json:"conditions,omitempty"`
}

// Stat returns the named stat, or 0 when the combatant does not have it.
func (c *Combatant) Stat(name string) int { return c.Stats[strings.ToLower(name)] }

// IsPC reports whether the combatant is a player character.
func (c *Combatant) IsPC() bool { return c.Side == SidePC }

// Clone returns a deep copy of c.
func (c *Combatant) Clone() *Combatant {
	d := *c
	d.Stats = maps.Clone(c.Stats)
	if c.Conditions != nil {
		d.Conditions = make([]Condition, len(c.Conditions))
		for i, x := range c.Conditions {
			d.Conditions[i] = x.Clone()
		}
	}
	return &d
}

// SameName reports whether two combatant names are the same name.
func SameName(a, b string) bool { return strings.EqualFold(a, b) }
