package vv

import (
	"maps"
	"strings"

	"fray"
)

// Event types of resolution. They are wire strings: never rename one.
const (
	EventAttacked = "vv.attacked" // an attack and its damage; data: AttackData; Rolls: d20 (two in a Special Attack), d% for cover, damage
	EventDamaged  = "vv.damaged"  // damage the GM deals; data: DamageData
	EventHealed   = "vv.healed"   // Hit Points restored; data: HealData
)

// Settings of resolution, each switching a "-B." house rule (the default)
// to the rules as written.
const (
	SetMoving  = "moving"  // V-9: house (the target's inches moved this turn add to the range) or raw (only the attacker's)
	SetRolling = "rolling" // V-13: house (only close muscle-powered attacks and falling) or raw (any attack the victim is aware of)
)

// Tracks of a V&V sheet, by lower-case name.
const (
	TrackHitPoints = "hit points"
	TrackPower     = "power"
)

// Keys of add for resolution, beside the stats: the numbers a sheet
// would give.
const (
	KeyHP         = "hp"         // add … hp=N: Hit Points
	KeyAttack     = "attack"     // add … attack=NAME:DICE:TYPE:SCORE[:close|ranged][,…]
	KeyProtection = "protection" // add … protection=TYPE:N[,…]
)

// Keys of attack, damage and protect.
const (
	KeyWith            = "with"             // the power attacked with
	KeyRange           = "range"            // the distance in inches
	KeyFacing          = "facing"           // the defender's facing the attack comes from
	KeyAttackerFacing  = "attacker-facing"  // the attacker's facing the target is in
	KeyMod             = "mod"              // the GM's modifier to the chance
	KeyPull            = "pull"             // damage held back (V-15)
	KeyCover           = "cover"            // percent of the target covered (V-11)
	KeyCoverProtection = "cover-protection" // the cover's protection
	KeyNoticed         = "noticed"          // the unaware defender's Perception roll: yes, no, or its chance N% to roll it
	KeyDivert          = "divert"           // damage rolled with, to Power (V-13)
	KeyMuscle          = "muscle"           // yes: a muscle-powered attack may be rolled with (house rule)
	KeyKnockback       = "knockback"        // yes or no: an impact-like attack (default: kinetic)
	KeyType            = "type"             // the damage type of damage
	KeyFalling         = "falling"          // yes: falling damage, which may be rolled with
)

// Words (or word=yes options) of attack.
const (
	FlagUnaware     = "unaware"     // the defender is unaware of the attacker
	FlagImmobile    = "immobile"    // the defender cannot defend itself
	FlagInanimate   = "inanimate"   // the defender counts as Level 0
	FlagNonsentient = "nonsentient" // the defender counts as Level 4
	FlagSpecial     = "special"     // a Special Attack at an exposed part, past the cover
	FlagEffect      = "effect"      // a power with an effect other than damage
)

var attackFlags = []string{FlagUnaware, FlagImmobile, FlagInanimate, FlagNonsentient, FlagSpecial, FlagEffect}

// Levels of participants without one (V-8).
const (
	InanimateLevel   = 0
	NonsentientLevel = 4
)

// ProneReach is the distance within which a prone target is hit with a
// normal roll (V-11).
const ProneReach = 2

// MaxRange is the longest range of attack, in inches. (Its mod= is
// bounded by engine.MaxMod, as every system's.)
const MaxRange = 1 << 20

// AttackData is the payload of EventAttacked.
type AttackData struct {
	// Attacker attacks Target; Power and Type name with what power, of
	// which damage type.
	Attacker fray.CombatantID `json:"attacker"`
	Target   fray.CombatantID `json:"target"`
	Power    string           `json:"power"`
	Type     string           `json:"type"`
	// Range is the effective range in inches (V-9).
	Range int `json:"range"`
	// Chance and Needed: the chance to hit and the highest face that hits.
	Chance int `json:"chance"`
	Needed int `json:"needed"`
	// Defenceless marks an unaware target that did not notice (hit on
	// anything but 20); Special a Special Attack (two to-hit rolls).
	Defenceless bool `json:"defenceless,omitempty"`
	// Perception is the chance in percent of an unaware target's
	// Perception roll made in the attack (noticed=PCT%), PerceptionRoll
	// its d% (0 when none was rolled) and Noticed whether it noticed.
	Perception     int  `json:"perception,omitempty"`
	PerceptionRoll int  `json:"perception_roll,omitempty"`
	Noticed        bool `json:"noticed,omitempty"`
	Special        bool `json:"special,omitempty"`
	// Faces of the to-hit rolls and of the cover roll (0 if not rolled).
	First  int `json:"first"`
	Second int `json:"second,omitempty"`
	Pct    int `json:"pct,omitempty"`
	// Band is astray, miss, hit the cover or hit.
	Band string `json:"band"`
	// Cover and CoverProtection: the percent covered and the cover's
	// protection.
	Cover           int `json:"cover,omitempty"`
	CoverProtection int `json:"cover_protection,omitempty"`
	// Rolled is the damage dice's total, Pull the damage held back and
	// Protection the target's against the type; Damage what is left.
	Rolled     int `json:"rolled,omitempty"`
	Pull       int `json:"pull,omitempty"`
	Protection int `json:"protection,omitempty"`
	Damage     int `json:"damage"`
	// Effect marks a non-damage power, Affects that it took hold.
	Effect  bool `json:"effect,omitempty"`
	Affects bool `json:"affects,omitempty"`
	// ToPower and ToHits split the damage between Power (rolled with)
	// and Hit Points.
	ToPower int `json:"to_power,omitempty"`
	ToHits  int `json:"to_hits,omitempty"`
	// Incapacitated reports a blow that took the target to 0 Hit Points
	// or below; Knockback the inches the target is thrown.
	Incapacitated bool `json:"incapacitated,omitempty"`
	Knockback     int  `json:"knockback,omitempty"`
	// Simultaneous reports an attack made by a character acting
	// simultaneously with others on the phase (V-2, ties=house): its
	// damage is held and lands with theirs when the last of them is done.
	// Incapacitated then counts the blows held before it.
	Simultaneous bool `json:"simultaneous,omitempty"`
}

// DamageData is the payload of EventDamaged.
type DamageData struct {
	// Who takes it; Amount is the damage dealt, of Type (if given), less
	// Protection: Damage.
	Who        fray.CombatantID `json:"name"`
	Amount     int              `json:"amount"`
	Type       string           `json:"type,omitempty"`
	Protection int              `json:"protection,omitempty"`
	Damage     int              `json:"damage"`
	// ToPower and ToHits split the damage between Power (rolled with)
	// and Hit Points.
	ToPower int `json:"to_power,omitempty"`
	ToHits  int `json:"to_hits"`
}

// HealData is the payload of EventHealed.
type HealData struct {
	Who  fray.CombatantID `json:"name"` // who is healed
	Hits int              `json:"hits"` // the Hit Points restored
}

// HitPoints returns the named combatant's Hit Points now and whether they
// have any (a sheet's hit points track, or add … hp=N).
func (s *State) HitPoints(name string) (int, bool) {
	c := s.Find(name)
	if c == nil {
		return 0, false
	}
	return hitPoints(c)
}

// hitPoints returns the combatant's Hit Points now and whether they have
// any (see HitPoints).
func hitPoints(c *fray.Combatant) (int, bool) {
	t, ok := c.Tracks[TrackHitPoints]
	return t.Value, ok
}

// basicHits returns the combatant's Basic Hits: the hits stat of add, or a
// sheet's basichits.
func basicHits(c *fray.Combatant) (int, bool) {
	if v, ok := c.Stats["hits"]; ok {
		return v, true
	}
	v, ok := c.Stats["basichits"]
	return v, ok
}

// quality reports whether the combatant has the named quality on its
// sheet, such as nonsentient.
func quality(c *fray.Combatant, name string) bool {
	for k := range c.Qualities {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// skillScore returns the combatant's skill score for a power (V-8): the
// rank of its skill (a power of kind skill) named by the power's Skill,
// or, when the power names none, by its damage type.
func skillScore(c *fray.Combatant, pw *fray.Power) (string, int, error) {
	name := pw.Skill
	if name == "" {
		name = pw.Damage
	}
	for _, p := range c.Powers {
		if p.Kind == fray.PowerKindSkill && fray.SameName(p.Name, name) {
			return p.Name, p.Rank, nil
		}
	}
	if name == "" {
		return "", 0, fray.Errorf(fray.EINVALID, "%s's %s names no skill and no damage type, so it has no skill score (V-8).", c, pw.Name)
	}
	return "", 0, fray.Errorf(fray.EINVALID, "%s has no skill score for %s (a skill named %s on the sheet, or add … attack=NAME:DICE:TYPE:SCORE), which %s rolls (V-8).", c, name, name, pw.Name)
}

// intOpt reads a whole number option, 0 when absent.
func intOpt(cmd fray.Command, key string) int { return number(cmd.Opts[key]) }

// applyResolution applies the events of this file; handled is false for
// others.
func (s *State) applyResolution(ev fray.Event) (handled bool, err error) {
	var who, by fray.CombatantID
	var toHits, toPower int
	held := false
	switch ev.Type {
	case EventAttacked:
		var d AttackData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.ByID(d.Attacker) == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d is an attack by %s, who is not present.", ev.Seq, d.Attacker)
		}
		who, by, toHits, toPower, held = d.Target, d.Attacker, d.ToHits, d.ToPower, d.Simultaneous
	case EventDamaged:
		var d DamageData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		who, toHits, toPower = d.Who, d.ToHits, d.ToPower
	case EventHealed:
		var d HealData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		who, toHits = d.Who, -d.Hits
		if d.Hits < 0 {
			return true, fray.Errorf(fray.EINVALID, "Event %d heals %s by %d.", ev.Seq, d.Who, d.Hits)
		}
	default:
		return false, nil
	}
	c, ch := s.combatant(who)
	if c == nil {
		return true, fray.Errorf(fray.EINVALID, "Event %d names %s, who is not present.", ev.Seq, who)
	}
	if toHits < -100000 || toHits > 100000 || toPower < 0 || toPower > 100000 {
		return true, fray.Errorf(fray.EINVALID, "Event %d gives %s damage out of range.", ev.Seq, who)
	}
	if _, ok := c.Tracks[TrackHitPoints]; toHits != 0 && !ok {
		return true, fray.Errorf(fray.EINVALID, "Event %d damages %s, who has no Hit Points.", ev.Seq, who)
	}
	if held {
		// Struck simultaneously with others: it lands
		// when the group is done (V-2, land).
		g := s.groupNow()
		if g == 0 {
			return true, fray.Errorf(fray.EINVALID, "Event %d holds an attack's damage for characters acting simultaneously, but none are acting.", ev.Seq)
		}
		if len(s.Pending) > 0 && s.Pending[0].Group != g {
			return true, fray.Errorf(fray.EINVALID, "Event %d holds an attack's damage while another group's is pending.", ev.Seq)
		}
		s.Pending = append(s.Pending, Blow{Who: who, By: by, Phase: s.Phase(), Group: g, ToHits: toHits, ToPower: toPower})
		return true, nil
	}
	s.hurt(c, ch, toHits, toPower)
	return true, nil
}

// hurt takes damage off the combatant c (with bookkeeping ch): toHits off
// Hit Points (restored when negative), toPower off Power (V-13).
func (s *State) hurt(c *fray.Combatant, ch *Char, toHits, toPower int) {
	if t, ok := c.Tracks[TrackHitPoints]; ok && toHits != 0 {
		t.Value -= toHits
		// A new map, never a change in place: Decide's scratch copy of
		// the state shares the tracks with the state (kit.Scratch).
		tr := maps.Clone(c.Tracks)
		tr[TrackHitPoints] = t
		c.Tracks = tr
	}
	ch.PowerLost += toPower
}
