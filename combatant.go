package fray

import (
	"maps"
	"slices"
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

// CombatantID identifies a combatant within its encounter: short, opaque
// and stable for the combatant's whole life, whatever its name becomes. The
// engine assigns it when the combatant is added (see engine.NewCombatantID);
// everything that refers to a combatant, and everything that decides who may
// see what, goes by it. It is a wire string.
type CombatantID string

// Combatant is one participant of an encounter.
type Combatant struct {
	// ID identifies the combatant within its encounter (see CombatantID).
	ID CombatantID `json:"id,omitempty"`
	// Name is the combatant's name as the table says it. Commands name
	// combatants by it (see Encounter.Lookup); no two combatants of an
	// encounter have names that differ only in case.
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

	// The rest of a character sheet (package sheet loads them from files).

	// Tracks holds the combatant's tracks by lower-case name: Endurance,
	// Life Points, Hit Points, Power, Health, hit points, Resolve,
	// experience …
	Tracks map[string]Track `json:"tracks,omitempty"`
	// Powers lists the combatant's powers, weapons, skills and talents
	// with their ranks.
	Powers []Power `json:"powers,omitempty"`
	// Expertise lists the powers and skills the combatant has expertise
	// in, in lower case, such as "blocking" or "blast".
	Expertise []string `json:"expertise,omitempty"`
	// Protection holds protection ranks by lower-case kind, such as
	// "armour" (bpb) or "kinetic" (vv).
	Protection map[string]int `json:"protection,omitempty"`
	// Qualities holds qualities and their levels by name, such as
	// "Hard to Kill": 3.
	Qualities map[string]int `json:"qualities,omitempty"`
}

// Track is a number that goes down and up in play, such as Endurance.
type Track struct {
	// Value is the current value.
	Value int `json:"value"`
	// Max is the value when unhurt or rested.
	Max int `json:"max"`
}

// Kinds of power (Power.Kind). They are wire strings: never rename one.
const (
	PowerKindPower  = "power"  // a power, such as a Blast
	PowerKindWeapon = "weapon" // a weapon, such as a pistol
	PowerKindSkill  = "skill"  // a skill, such as Kung Fu
	PowerKindTalent = "talent" // a talent (pp)
)

// Power is one power, weapon, skill or talent on a character sheet.
type Power struct {
	// Name names it, such as "Blast"; names are compared without regard
	// to case.
	Name string `json:"name"`
	// Kind is one of the PowerKind* constants; empty means a power.
	Kind string `json:"kind,omitempty"`
	// Rank is its rank (or level, or dice).
	Rank int `json:"rank"`
	// Range is "close" or "ranged" for an attack.
	Range string `json:"range,omitempty"`
	// Damage is the kind of damage it deals, in the system's words:
	// "stunning" (bpb), "kinetic" (vv), "bullet" (cinematic) …
	Damage string `json:"damage,omitempty"`
	// Weight is "light", "medium" or "heavy" for a queue weapon.
	Weight string `json:"weight,omitempty"`
	// Special names a special effect, such as a queue weapon's.
	Special string `json:"special,omitempty"`
	// Skill names the skill an attack with it rolls, such as "Gun Fu" for
	// a cinematic pistol or "Energy" for a vv Power Blast's skill score.
	Skill string `json:"skill,omitempty"`
	// Dice is the damage it rolls in dice notation, such as "1d10" for a
	// vv Power Blast; empty when its damage is fixed.
	Dice string `json:"dice,omitempty"`
	// Clip is how many shots a full load of a firearm holds (cinematic
	// ammunition); 0 for a weapon that needs none.
	Clip int `json:"clip,omitempty"`
	// Notes is free text.
	Notes string `json:"notes,omitempty"`
}

// Power returns the combatant's power, weapon, skill or talent named
// name, or nil.
func (c *Combatant) Power(name string) *Power {
	for i := range c.Powers {
		if SameName(c.Powers[i].Name, name) {
			return &c.Powers[i]
		}
	}
	return nil
}

// HasExpertise reports whether the combatant has expertise in name.
func (c *Combatant) HasExpertise(name string) bool {
	for _, x := range c.Expertise {
		if SameName(x, name) {
			return true
		}
	}
	return false
}

// Track returns the named track and whether the combatant has it.
func (c *Combatant) Track(name string) (Track, bool) {
	t, ok := c.Tracks[strings.ToLower(name)]
	return t, ok
}

// Stat returns the named stat, or 0 when the combatant does not have it.
func (c *Combatant) Stat(name string) int { return c.Stats[strings.ToLower(name)] }

// String returns the combatant's name, so that a message may print the
// combatant itself (and Errorf declare it).
func (c *Combatant) String() string { return c.Name }

// IsPC reports whether the combatant is a player character.
func (c *Combatant) IsPC() bool { return c.Side == SidePC }

// Clone returns a deep copy of c.
func (c *Combatant) Clone() *Combatant {
	d := *c
	d.Stats = maps.Clone(c.Stats)
	d.Tracks = maps.Clone(c.Tracks)
	d.Powers = slices.Clone(c.Powers)
	d.Expertise = slices.Clone(c.Expertise)
	d.Protection = maps.Clone(c.Protection)
	d.Qualities = maps.Clone(c.Qualities)
	if c.Conditions != nil {
		d.Conditions = make([]Condition, len(c.Conditions))
		for i, x := range c.Conditions {
			d.Conditions[i] = x.Clone()
		}
	}
	return &d
}

// SameName reports whether two names are the same name without regard to
// case (Unicode simple folding, so "ſilas" and "Silas" are the same name).
func SameName(a, b string) bool { return strings.EqualFold(a, b) }

// Viewer is who asks for something of an encounter: the GM, or a player
// acting for one combatant. What a viewer may see and name follows from
// it and from the combatants' declared visibility, never from their names.
type Viewer struct {
	// Role is RoleGM or RolePlayer; the zero Viewer is the GM's.
	Role string
	// Combatant is the combatant a player acts for.
	Combatant CombatantID
}

// GM is the viewer who sees everything.
var GM = Viewer{Role: RoleGM}

// IsGM reports whether the viewer sees everything.
func (v Viewer) IsGM() bool { return v.Role == "" || v.Role == RoleGM }

// Sees reports whether the viewer may know that c exists: the GM sees
// every combatant, a player every combatant that is not hidden.
func (v Viewer) Sees(c *Combatant) bool { return v.IsGM() || !c.Hidden }
