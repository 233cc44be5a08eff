package queue

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// This file is each combatant's fight: weapons, hit points and Injuries
// taken, with the events that change them.

// Event types of attacks and injuries. They are wire strings: never rename
// one.
const (
	EventArmed    = "queue.armed"    // a combatant's weapons; data: armedData
	EventAttacked = "queue.attacked" // an attack and its damage; data: attackData, Rolls: to-hit, damage
	EventInjured  = "queue.injured"  // an Injury chosen; data: injuryData
)

// Injuries, each taken at most once. They are wire strings: never
// rename one.
const (
	InjuryScarred = "scarred"
	InjuryMaimed  = "maimed"
	InjuryDead    = "dead"
)

// Injuries returns the three Injuries in the seed's order.
func Injuries() []string { return []string{InjuryScarred, InjuryMaimed, InjuryDead} }

// Keys of the commands that arm, attack and injure.
const (
	KeyWeapon = "weapon" // add … weapon=sword:medium:bleed[,dagger:light]
	KeyWith   = "with"   // attack … with=WEAPON
	KeyHit    = "hit"    // attack … hit=yes|no: the GM rules the hit
	KeyMod    = "mod"    // attack … mod=±N: added to the to-hit roll
	KeyInjury = "injury" // attack … injury=NAME: the Injury, if the hit gives one
)

// Settings of attacks (ours, SPEC Q-4).
const (
	SettingToHit   = "tohit"   // roll (d20 + Wits against the base + target's Wits) or gm (every attack needs hit=)
	SettingHitBase = "hitbase" // the base the target's Wits is added to; default 10
	StatHP         = "hp"      // hit points
)

// MaxWeapons is the most weapons one combatant may carry.
const MaxWeapons = 10

// Weapon is one weapon a combatant wields.
type Weapon struct {
	// Name names the weapon, such as sword.
	Name string `json:"name"`
	// Weight is light, medium or heavy.
	Weight DamageWeight `json:"weight"`
	// Special names the special effect a Black 6 triggers, such as bleed.
	Special string `json:"special,omitempty"`
}

// Fighter is the Combat Queue's record of one combatant's fight: weapons,
// damage taken and Injuries.
type Fighter struct {
	// ID identifies the combatant.
	ID fray.CombatantID `json:"id"`
	// Weapons lists the combatant's weapons.
	Weapons []Weapon `json:"weapons,omitempty"`
	// Damage is the damage taken in all, less what healing gave back
	// (healing counts from 0 hit points left, forgetting damage beyond
	// them). It is below 0 only when healing takes a sheet's hit points
	// above where the fight began.
	Damage int `json:"damage"`
	// Injuries lists the Injuries taken, in order.
	Injuries []string `json:"injuries,omitempty"`
	// Pending counts Injuries taken but not yet chosen.
	Pending int `json:"pending,omitempty"`
}

// armedData is the payload of EventArmed. Name is the name of the
// combatant armed, not their id: the event follows the EventAdded of the
// same command, and a newcomer has no id until the engine records that
// event, after Decide (so it stays a name in every format, fray.TagName).
// Apply finds them by it among those present, where they have just
// arrived.
type armedData struct {
	Name    string   `json:"name" fray:"name"`
	Weapons []Weapon `json:"weapons"`
}

type attackData struct {
	Attacker fray.CombatantID `json:"attacker"`
	Target   fray.CombatantID `json:"target"`
	Weapon   string           `json:"weapon"`
	Weight   DamageWeight     `json:"weight"`
	Special  string           `json:"special,omitempty"`
	Ruling   string           `json:"ruling,omitempty"`
	Bonus    int              `json:"bonus"`
	Need     int              `json:"need"`
	ToHit    int              `json:"to_hit,omitempty"`
	Score    int              `json:"score,omitempty"`
	Hit      bool             `json:"hit"`
	Red      int              `json:"red,omitempty"`
	Black    int              `json:"black,omitempty"`
	Damage   int              `json:"damage"`
	// Triggered reports a Black 6 on a hit: the weapon's special effect.
	Triggered bool `json:"triggered,omitempty"`
	// Incapacitates, Injures and Injury say what the damage did to the
	// one who suffered it: the target, or SufferedBy.
	Incapacitates bool   `json:"incapacitates,omitempty"`
	Injures       bool   `json:"injures,omitempty"`
	Injury        string `json:"injury,omitempty"`
	// SufferedBy is who suffered the damage of a hit instead of the
	// target: one who reacted to the attacker for the target (react …
	// for=, Q-3); empty when the target suffered it, as in every log
	// recorded before it existed.
	SufferedBy fray.CombatantID `json:"suffered_by,omitempty"`
}

type injuryData struct {
	Name   fray.CombatantID `json:"name"`
	Injury string           `json:"injury"`
}

// ParseWeapons reads weapon=: NAME:WEIGHT[:SPECIAL], several separated by
// commas.
func ParseWeapons(s string) ([]Weapon, error) {
	parts := strings.Split(s, ",")
	if len(parts) > MaxWeapons {
		return nil, fray.Errorf(fray.ETOOLARGE, "weapon= lists %d weapons; the limit (MaxWeapons) is %d.", len(parts), MaxWeapons)
	}
	var out []Weapon
	for _, p := range parts {
		f := strings.Split(strings.TrimSpace(p), ":")
		if len(f) < 2 || len(f) > 3 || f[0] == "" {
			return nil, fray.Errorf(fray.EINVALID, "weapon=%s: write each weapon as NAME:WEIGHT or NAME:WEIGHT:SPECIAL, such as sword:medium:bleed.", engine.Clip(s))
		}
		w, err := ParseDamageWeight(strings.ToLower(f[1]))
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "weapon=%s: %q is not a weight; use light, medium or heavy.", engine.Clip(s), engine.Clip(f[1]))
		}
		wp := Weapon{Name: f[0], Weight: w}
		if len(f) == 3 {
			wp.Special = f[2]
		}
		if len(wp.Name) > 40 || len(wp.Special) > 40 {
			return nil, fray.Errorf(fray.ETOOLARGE, "weapon=%s: a weapon's name and special are at most 40 bytes.", engine.Clip(s))
		}
		for _, o := range out {
			if strings.EqualFold(o.Name, wp.Name) {
				return nil, fray.Errorf(fray.EINVALID, "weapon=%s names %s twice.", engine.Clip(s), wp.Name)
			}
		}
		out = append(out, wp)
	}
	return out, nil
}

// fighter returns the record of the combatant id, or nil.
func (s *State) fighter(id fray.CombatantID) *Fighter { return kit.Find(s.Fighters, id) }

// Key returns the id of the fighter's combatant (kit.Keyed).
func (f *Fighter) Key() fray.CombatantID { return f.ID }

// ensureFighter returns the record of the combatant id, making it.
func (s *State) ensureFighter(id fray.CombatantID) *Fighter {
	if f := s.fighter(id); f != nil {
		return f
	}
	f := &Fighter{ID: id}
	s.Fighters = append(s.Fighters, f)
	return f
}

// maxHP returns a combatant's hit points unhurt and at the start of the
// fight: the hp stat (add … hp=N), or the hp track of a character sheet.
func maxHP(c *fray.Combatant) (max, start int, ok bool) {
	if hp, ok := c.Stats[StatHP]; ok {
		return hp, hp, true
	}
	if t, ok := c.Tracks[StatHP]; ok {
		return t.Max, t.Value, true
	}
	return 0, 0, false
}

// Weapons returns the named combatant's weapons: those given with add …
// weapon=, or the weapons of their character sheet.
func (s *State) Weapons(name string) []Weapon {
	c := s.Find(name)
	if c == nil {
		return nil
	}
	return s.weaponsOf(c)
}

// weaponsOf returns c's weapons (see Weapons).
func (s *State) weaponsOf(c *fray.Combatant) []Weapon { return s.appendWeapons(nil, c) }

// appendWeapons returns c's weapons as weaponsOf does: those given with
// add … weapon= as they are kept, or the sheet's appended to buf.
func (s *State) appendWeapons(buf []Weapon, c *fray.Combatant) []Weapon {
	if f := s.fighter(c.ID); f != nil && len(f.Weapons) > 0 {
		return f.Weapons
	}
	ws := buf
	for _, p := range c.Powers {
		if p.Kind != fray.PowerKindWeapon {
			continue
		}
		w, err := ParseDamageWeight(strings.ToLower(p.Weight))
		if err != nil {
			continue // a sheet's weight is checked when it is loaded
		}
		ws = append(ws, Weapon{Name: p.Name, Weight: w, Special: p.Special})
	}
	return ws
}

// HP returns the named combatant's hit points left, and whether they have
// hit points at all (add … hp=N, or a sheet's hp track).
func (s *State) HP(name string) (left int, ok bool) {
	c := s.Find(name)
	if c == nil {
		return 0, false
	}
	return s.hpOf(c)
}

// hpOf returns c's hit points left (see HP).
func (s *State) hpOf(c *fray.Combatant) (left int, ok bool) {
	_, hp, ok := maxHP(c)
	if !ok {
		return 0, false
	}
	dmg := 0
	if f := s.fighter(c.ID); f != nil {
		dmg = f.Damage
	}
	return max(0, hp-dmg), true
}

// Incapacitated reports whether the named combatant has lost all their hit
// points.
func (s *State) Incapacitated(name string) bool {
	c := s.Find(name)
	return c != nil && s.incapacitated(c)
}

// incapacitated reports whether c has lost all their hit points.
func (s *State) incapacitated(c *fray.Combatant) bool {
	left, ok := s.hpOf(c)
	return ok && left == 0
}

// Dead reports whether the named combatant has taken the dead Injury.
func (s *State) Dead(name string) bool {
	c := s.Find(name)
	return c != nil && s.dead(c)
}

// dead reports whether c has taken the dead Injury.
func (s *State) dead(c *fray.Combatant) bool {
	f := s.fighter(c.ID)
	return f != nil && slices.Contains(f.Injuries, InjuryDead)
}

// decideAdd adds a combatant with the shared add, taking weapon= out
// first; EventArmed follows EventAdded.
func (s *State) decideAdd(tx *txn, cmd fray.Command) error {
	ws, err := ParseWeapons(cmd.Opts[KeyWeapon])
	if err != nil {
		return err
	}
	shared := cmd
	shared.Opts = maps.Clone(cmd.Opts)
	delete(shared.Opts, KeyWeapon)
	n := len(tx.Events())
	if _, err := s.decideShared(tx, shared); err != nil {
		return err
	}
	var d fray.AddedData
	if err := tx.Events()[n].Decode(&d); err != nil {
		return err
	}
	return tx.Emit(EventArmed, armedData{Name: d.Combatant.Name, Weapons: ws})
}

// applyCombat applies the events of this file; handled is false for others.
func (s *State) applyCombat(ev fray.Event) (handled bool, err error) {
	switch ev.Type {
	case EventArmed:
		var d armedData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.Find(d.Name) // a name: see armedData
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d arms %q, who is not present.", ev.Seq, fray.Mention(d.Name))
		}
		s.ensureFighter(c.ID).Weapons = slices.Clone(d.Weapons)
	case EventAttacked:
		d, err := fray.Payload[attackData](ev)
		if err != nil {
			return true, err
		}
		if s.ByID(d.Target) == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d attacks %s, who is not present.", ev.Seq, d.Target)
		}
		if !d.Hit {
			return true, nil
		}
		if d.Attacker == s.current() && !slices.Contains(s.Hits, d.Target) {
			s.Hits = append(s.Hits, d.Target)
		}
		hurt := d.Target
		if d.SufferedBy != "" {
			if s.ByID(d.SufferedBy) == nil {
				return true, fray.Errorf(fray.EINVALID, "Event %d moves its damage onto %s, who is not present.", ev.Seq, d.SufferedBy)
			}
			hurt = d.SufferedBy
		}
		s.hurt(hurt, d.Damage, d.Injures, d.Injury)
	case EventInjured:
		var d injuryData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		var f *Fighter
		if s.ByID(d.Name) != nil {
			f = s.fighter(d.Name)
		}
		if f == nil || f.Pending == 0 || slices.Contains(f.Injuries, d.Injury) {
			return true, fray.Errorf(fray.EINVALID, "Event %d gives %s an Injury they cannot take.", ev.Seq, d.Name)
		}
		f.Pending--
		f.Injuries = append(f.Injuries, d.Injury)
	default:
		return false, nil
	}
	return true, nil
}

// hurt takes damage off the hit points of the combatant id: an
// attack's hit and the GM's damage command both go through it. injures
// reports damage to one already Incapacitated: an Injury, the one named,
// or one to choose (pending) when injury is "".
func (s *State) hurt(id fray.CombatantID, damage int, injures bool, injury string) {
	f := s.ensureFighter(id)
	f.Damage += damage
	switch {
	case !injures:
	case injury != "":
		f.Injuries = append(f.Injuries, injury)
	default:
		f.Pending++
	}
}

// fighterNote is what the view says of a combatant's fight: "hp 7/12",
// "Incapacitated, scarred, an Injury to choose: injury Bob maimed|dead",
// "Incapacitated, 2 Injuries to choose: injury Bob INJURY INJURY, of
// scarred|maimed|dead"; numbered reports that it shows hit points (it
// begins with them).
func (s *State) fighterNote(c *fray.Combatant) (note string, numbered bool) {
	var parts []string
	if left, ok := s.hpOf(c); ok {
		if left == 0 {
			parts = append(parts, "Incapacitated")
		} else {
			m, _, _ := maxHP(c)
			parts = append(parts, "hp "+strconv.Itoa(left)+"/"+strconv.Itoa(m))
			numbered = true
		}
	}
	if f := s.fighter(c.ID); f != nil {
		parts = append(parts, f.Injuries...)
		switch free := strings.Join(freeInjuries(f), "|"); {
		case f.Pending == 1:
			parts = append(parts, "an Injury to choose: injury "+kit.QuoteName(c.Name)+" "+free)
		case f.Pending > 1:
			parts = append(parts, injuriesToChoose(f.Pending)+" to choose: injury "+kit.QuoteName(c.Name)+strings.Repeat(" INJURY", f.Pending)+", of "+free)
		}
	}
	return strings.Join(parts, ", "), numbered
}
