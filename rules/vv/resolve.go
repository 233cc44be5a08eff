package vv

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
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

// attackOpts are the option keys attack takes.
var attackOpts = append([]string{KeyWith, KeyRange, KeyFacing, KeyAttackerFacing, KeyMod, KeyPull, KeyCover, KeyCoverProtection,
	KeyNoticed, KeyDivert, KeyMuscle, KeyKnockback}, attackFlags...)

// Levels of participants without one (V-8).
const (
	InanimateLevel   = 0
	NonsentientLevel = 4
)

// ProneReach is the distance within which a prone target is hit with a
// normal roll (V-11).
const ProneReach = 2

// Limits on the numbers of attack.
const (
	MaxRange = 1 << 20 // the longest range, in inches
	MaxMod   = 100     // the largest GM modifier, either way
)

// attackUsage is the attack command's usage line.
const attackUsage = "attack ATTACKER TARGET with=POWER [range=INCHES] [facing=front|front-side|side|side-rear|rear|above|below] [attacker-facing=front|front-side|side] [unaware [noticed=yes|no|PCT%]] [immobile] [inanimate|nonsentient] [special] [effect] [mod=±N] [pull=N] [cover=PCT [cover-protection=N]] [divert=N] [muscle=yes] [knockback=yes|no]"

// resolutionDocs lists the resolution commands, for help screens.
func resolutionDocs() []fray.CommandDoc {
	return []fray.CommandDoc{
		{Usage: attackUsage, Summary: "The current character attacks as their action (V-8 … V-16): 1d20 at or under skill + Level − target's Level + range + facing + mod; a 1 hits, a 20 misses and goes astray; damage less protection off Hit Points. An unaware target that fails its Perception roll is hit on anything but 20: the GM says noticed=yes|no, or gives its chance, noticed=45%, and the d% is rolled first. Example: attack Grue \"Jack B. Nimble\" with=Claws range=1 facing=side-rear divert=2."},
		{Usage: "odds COMMAND …", Summary: "The exact odds of an attack or a check before rolling: astray, miss, hit the cover and hit, every modifier, and the damage after protection: odds attack Grue Brick with=Claws range=1; success and failure: odds check Brick chance=45; who acts first from the initiative roll (V-1): odds start, or odds next when it ends the turn."},
		{Usage: "damage NAME N [type=TYPE] [divert=N] [falling=yes]", Summary: "The GM deals N damage of a type (less protection; Gas negated by any), such as a fall; divert= rolls with some to Power (V-13). Example: damage Vex 7 type=kinetic falling=yes divert=2."},
		{Usage: "heal NAME N", Summary: "Restore up to N Hit Points, no higher than the sheet's. Example: heal Vex 3."},
		{Usage: "protect NAME TYPE N [until=cleared|start|end|start:NAME|end:NAME|round][@ROUND|@+N]", Summary: "Add N protection against a damage type, until cleared (clear NAME \"protection vs TYPE\") or an anchored turn edge; protection from every source adds up (V-12). Example: protect Brick energy 4 until=end."},
		spendDoc,
		checkDoc,
	}
}

// AttackData is the payload of EventAttacked.
type AttackData struct {
	// Attacker, Target, Power and Type name who attacks whom with what
	// power, of which damage type.
	Attacker string `json:"attacker" fray:"who"`
	Target   string `json:"target" fray:"who"`
	Power    string `json:"power"`
	Type     string `json:"type"`
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
}

// DamageData is the payload of EventDamaged.
type DamageData struct {
	// Name names who takes it; Amount is the damage dealt, of Type (if
	// given), less Protection: Damage.
	Name       string `json:"name" fray:"who"`
	Amount     int    `json:"amount"`
	Type       string `json:"type,omitempty"`
	Protection int    `json:"protection,omitempty"`
	Damage     int    `json:"damage"`
	// ToPower and ToHits split the damage between Power (rolled with)
	// and Hit Points.
	ToPower int `json:"to_power,omitempty"`
	ToHits  int `json:"to_hits"`
}

// HealData is the payload of EventHealed.
type HealData struct {
	Name string `json:"name" fray:"who"` // who is healed
	Hits int    `json:"hits"`            // the Hit Points restored
}

// HitPoints returns the named combatant's Hit Points now and whether they
// have any (a sheet's hit points track, or add … hp=N).
func (s *State) HitPoints(name string) (int, bool) {
	c := s.Find(name)
	if c == nil {
		return 0, false
	}
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

// decideAdd takes the resolution keys of add (hp=, attack=, protection=)
// out of the command, lets the shared add decide the rest, and puts the
// numbers in the added combatant. handled is false when add has none.
func (s *State) decideAdd(cmd fray.Command) (evs []fray.Event, handled bool, err error) {
	_, hasHP := cmd.Opts[KeyHP]
	_, hasAttack := cmd.Opts[KeyAttack]
	_, hasProt := cmd.Opts[KeyProtection]
	if !hasHP && !hasAttack && !hasProt {
		return nil, false, nil
	}
	shared := cmd
	shared.Opts = maps.Clone(cmd.Opts)
	delete(shared.Opts, KeyHP)
	delete(shared.Opts, KeyAttack)
	delete(shared.Opts, KeyProtection)
	evs, _, err = engine.DecideShared(&s.Encounter, shared, spec)
	if err != nil {
		return nil, true, err
	}
	var d fray.AddedData
	if err := evs[0].Decode(&d); err != nil {
		return nil, true, err
	}
	c := &d.Combatant
	if v, ok := cmd.Opts[KeyHP]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return nil, true, fray.Errorf(fray.EINVALID, "hp=%s: give the Hit Points as a whole number from 1 to 10000.", engine.Clip(v))
		}
		c.Tracks = map[string]fray.Track{TrackHitPoints: {Value: n, Max: n}}
	}
	if v, ok := cmd.Opts[KeyAttack]; ok {
		if c.Powers, err = parseAttacks(v); err != nil {
			return nil, true, err
		}
	}
	if v, ok := cmd.Opts[KeyProtection]; ok {
		if c.Protection, err = parseProtection(v); err != nil {
			return nil, true, err
		}
	}
	ev, err := fray.NewEvent(fray.EventAdded, d)
	if err != nil {
		return nil, true, err
	}
	return []fray.Event{ev}, true, nil
}

// MaxAttacks is the most attacks add … attack= may list.
const MaxAttacks = 10

// parseAttacks reads attack=NAME:DICE:TYPE:SCORE[:close|ranged][,…]: each
// attack power, and a skill named after its damage type with the score.
func parseAttacks(v string) ([]fray.Power, error) {
	parts := strings.Split(v, ",")
	if len(parts) > MaxAttacks {
		return nil, fray.Errorf(fray.ETOOLARGE, "attack= lists %d attacks; the limit (MaxAttacks) is %d.", len(parts), MaxAttacks)
	}
	bad := func(why string) error {
		return fray.Errorf(fray.EINVALID, "attack=%s: %s; write each attack as NAME:DICE:TYPE:SCORE[:close|ranged], such as Punch:1d4:kinetic:12:close.", engine.Clip(v), why)
	}
	var pws, skills []fray.Power
	for _, p := range parts {
		f := strings.Split(strings.TrimSpace(p), ":")
		if len(f) < 4 || len(f) > 5 || f[0] == "" || len(f[0]) > 40 {
			return nil, bad("an attack has a name of at most 40 bytes and four or five parts")
		}
		if _, err := damageDist(f[1]); err != nil {
			return nil, bad(strconv.Quote(engine.Clip(f[1])) + " is not damage dice")
		}
		typ := strings.ToLower(f[2])
		if !slices.Contains(DamageTypes(), typ) {
			return nil, bad(strconv.Quote(engine.Clip(f[2])) + " is not a damage type (" + strings.Join(DamageTypes(), ", ") + ")")
		}
		score, err := strconv.Atoi(f[3])
		if err != nil || score < -100 || score > 100 {
			return nil, bad(strconv.Quote(engine.Clip(f[3])) + " is not a skill score from -100 to 100")
		}
		pw := fray.Power{Name: f[0], Kind: fray.PowerKindPower, Damage: typ, Dice: f[1], Skill: typ}
		if len(f) == 5 {
			pw.Range = strings.ToLower(f[4])
			if pw.Range != "close" && pw.Range != "ranged" {
				return nil, bad(strconv.Quote(engine.Clip(f[4])) + " is neither close nor ranged")
			}
		}
		if slices.ContainsFunc(pws, func(x fray.Power) bool { return fray.SameName(x.Name, pw.Name) }) {
			return nil, bad("it names " + pw.Name + " twice")
		}
		if i := slices.IndexFunc(skills, func(x fray.Power) bool { return x.Name == typ }); i >= 0 {
			if skills[i].Rank != score {
				return nil, bad("two " + typ + " attacks give two skill scores; the score is per attack type")
			}
		} else {
			skills = append(skills, fray.Power{Name: typ, Kind: fray.PowerKindSkill, Rank: score})
		}
		pws = append(pws, pw)
	}
	return append(pws, skills...), nil
}

// parseProtection reads protection=TYPE:N[,…].
func parseProtection(v string) (map[string]int, error) {
	out := map[string]int{}
	for _, p := range strings.Split(v, ",") {
		typ, n, ok := strings.Cut(strings.TrimSpace(p), ":")
		typ = strings.ToLower(typ)
		k, err := strconv.Atoi(n)
		if !ok || err != nil || k < 0 || k > 1000 || !slices.Contains(DamageTypes(), typ) {
			return nil, fray.Errorf(fray.EINVALID, "protection=%s: write TYPE:N[,TYPE:N], a damage type (%s) and a whole number from 0 to 1000.", engine.Clip(v), strings.Join(DamageTypes(), ", "))
		}
		if _, dup := out[typ]; dup {
			return nil, fray.Errorf(fray.EINVALID, "protection=%s names %s twice.", engine.Clip(v), typ)
		}
		out[typ] = k
	}
	return out, nil
}

// attackPlan is an attack checked against the rules, before its rolls.
type attackPlan struct {
	a        Attack
	att, tgt *fray.Combatant
	pw       *fray.Power
	rangeIn  int
	cost     int
	mods     []fray.Modifier
	spent    []engine.ConditionRef
	// notice is the unaware target's Perception roll when the attack
	// rolls it (noticed=PCT%): a is then the attack on a target that
	// noticed, unnoticed the attack on one that did not.
	notice    *CheckRoll
	unnoticed *Attack
}

// flag reads a word of attack given bare (unaware) or as an option
// (unaware=yes).
func flag(cmd fray.Command, name string) (bool, error) {
	if v, ok := cmd.Opts[name]; ok {
		return engine.ParseYesNo(name, v)
	}
	for _, a := range cmd.Args[2:] {
		if strings.EqualFold(a, name) {
			return true, nil
		}
	}
	return false, nil
}

// intOpt reads a whole number option from lo to hi; def when absent.
func intOpt(cmd fray.Command, key string, lo, hi, def int, what string) (int, error) {
	v, ok := cmd.Opts[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
	if err != nil || n < lo || n > hi {
		return 0, fray.Errorf(fray.EINVALID, "%s=%s: give %s, a whole number from %d to %d.", key, engine.Clip(v), what, lo, hi)
	}
	return n, nil
}

// planAttack checks attack A B … against the rules and works out every
// modifier, without rolling: the acting character's action (V-1, V-3),
// the power and its skill score, Levels, range, facing, prone and cover,
// protection, rolling with the punch and knockback.
func (s *State) planAttack(cmd fray.Command) (*attackPlan, error) {
	if err := engine.CheckArgs(cmd, 2, 2+len(attackFlags), attackUsage); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd, attackOpts...); err != nil {
		return nil, err
	}
	for _, a := range cmd.Args[2:] {
		if !slices.Contains(attackFlags, strings.ToLower(a)) {
			return nil, fray.Errorf(fray.EINVALID, "attack does not know the word %q; its words are %s (usage: %s).", engine.Clip(a), strings.Join(attackFlags, ", "), attackUsage)
		}
	}
	att, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return nil, err
	}
	tgt, err := s.Lookup(cmd.Args[1])
	if err != nil {
		return nil, err
	}
	if fray.SameName(att.Name, tgt.Name) {
		return nil, fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", att)
	}
	p := &attackPlan{att: att, tgt: tgt}
	if p.cost, err = s.checkAction(att); err != nil {
		return nil, err
	}
	if hp, ok := s.HitPoints(att.Name); ok && hp <= 0 {
		return nil, fray.Errorf(fray.EINVALID, "%s is at %d Hit Points, incapacitated, and cannot attack.", att, hp)
	}
	with, ok := cmd.Opts[KeyWith]
	if !ok {
		return nil, fray.Errorf(fray.EINVALID, "Say which power %s attacks with: with=POWER (%s).", att, attackPowers(att))
	}
	if p.pw = att.Power(with); p.pw == nil || p.pw.Kind == fray.PowerKindSkill {
		return nil, fray.Errorf(fray.ENOTFOUND, "%s has no power named %q; their attacks: %s.", att, engine.Clip(with), attackPowers(att))
	}
	pw := p.pw
	typ := strings.ToLower(pw.Damage)
	if !slices.Contains(DamageTypes(), typ) {
		return nil, fray.Errorf(fray.EINVALID, "%s's %s has no damage type (damage: one of %s on the sheet) (V-12).", att, pw.Name, strings.Join(DamageTypes(), ", "))
	}
	if pw.Dice == "" {
		return nil, fray.Errorf(fray.EINVALID, "%s's %s has no damage dice (dice: such as 1d10 on the sheet) (V-12).", att, pw.Name)
	}
	if _, err := damageDist(pw.Dice); err != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s's %s has damage dice %q that cannot be rolled.", att, pw.Name, engine.Clip(pw.Dice))
	}
	hp, ok := s.HitPoints(tgt.Name)
	if !ok {
		return nil, fray.Errorf(fray.EINVALID, "%s has no Hit Points (a sheet's hit points track, or add … hp=N), so damage has nothing to take.", tgt)
	}
	var flags struct{ unaware, immobile, inanimate, nonsentient, special, effect bool }
	for _, f := range []struct {
		name string
		to   *bool
	}{{FlagUnaware, &flags.unaware}, {FlagImmobile, &flags.immobile}, {FlagInanimate, &flags.inanimate},
		{FlagNonsentient, &flags.nonsentient}, {FlagSpecial, &flags.special}, {FlagEffect, &flags.effect}} {
		if *f.to, err = flag(cmd, f.name); err != nil {
			return nil, err
		}
	}
	a := Attack{Dice: pw.Dice, HitPoints: hp, Gas: typ == DamageGas, Effect: flags.effect || pw.Special != ""}

	// Range (V-9): the distance, the inches the attacker moved this phase
	// before the attack and (house rule) the target's inches this turn.
	dist, err := intOpt(cmd, KeyRange, 0, MaxRange, 0, "the distance in inches")
	if err != nil {
		return nil, err
	}
	var rangeWords []string
	p.rangeIn = dist
	if ch := s.char(att.Name); ch != nil && ch.Act.Inches > 0 {
		p.rangeIn += ch.Act.Inches
		rangeWords = append(rangeWords, fmt.Sprintf("+%d\" %s moved", ch.Act.Inches, att.Name))
	}
	if s.Setting(SetMoving, House) == House {
		if ch := s.char(tgt.Name); ch != nil && ch.Moved > 0 {
			p.rangeIn += ch.Moved
			rangeWords = append(rangeWords, fmt.Sprintf("+%d\" %s moved this turn", ch.Moved, tgt.Name))
		}
	}
	rangeSrc := fmt.Sprintf("range %d\"", p.rangeIn)
	if len(rangeWords) > 0 {
		rangeSrc += fmt.Sprintf(" (%d\" %s)", dist, strings.Join(rangeWords, " "))
	}

	// Facing (V-10).
	facing := strings.ToLower(cmd.Opts[KeyFacing])
	if facing == "" {
		facing = FacingFront
	}
	defMod, ok := DefenderFacing(facing)
	if !ok {
		return nil, fray.Errorf(fray.EINVALID, "facing=%s is not a facing of the defender; use front, front-side, side, side-rear (3/4 behind), rear, above or below.", engine.Clip(facing))
	}
	attFacing := strings.ToLower(cmd.Opts[KeyAttackerFacing])
	if attFacing == "" {
		attFacing = FacingFront
	}
	attMod, ok := AttackerFacing(attFacing)
	if !ok {
		if attFacing == FacingRear || attFacing == FacingSideRear {
			return nil, fray.Errorf(fray.EINVALID, "%s cannot attack to their rear (V-10); turn first with facing.", att)
		}
		return nil, fray.Errorf(fray.EINVALID, "attacker-facing=%s is not a facing of the attacker; use front, front-side or side.", engine.Clip(attFacing))
	}
	gm, err := intOpt(cmd, KeyMod, -MaxMod, MaxMod, 0, "the GM's modifier")
	if err != nil {
		return nil, err
	}

	// The chance (V-8).
	unaware := flags.unaware
	noticed := false
	if v, ok := cmd.Opts[KeyNoticed]; ok {
		if !unaware {
			return nil, fray.Errorf(fray.EINVALID, "noticed= is the Perception roll of an unaware defender; say unaware too, or leave it out.")
		}
		if pct, isPct := strings.CutSuffix(v, "%"); isPct {
			n, err := strconv.Atoi(pct)
			if err != nil || n < 0 || n > 100 {
				return nil, fray.Errorf(fray.EINVALID, "noticed=%s: give the chance of %s's Perception roll in percent, a whole number from 0 to 100 with %%, such as noticed=45%%.", engine.Clip(v), tgt)
			}
			// The roll is made in the attack: the plan is the attack on
			// a target that noticed, and, below, one that did not.
			p.notice, noticed = &CheckRoll{Chance: n}, true
		} else if noticed, err = engine.ParseYesNo(KeyNoticed, v); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "noticed=%s: say yes, no, or the chance of %s's Perception roll in percent, such as noticed=45%%.", engine.Clip(v), tgt)
		}
	}
	immobile := flags.immobile || hp <= 0
	chance := 0
	add := func(src string, v int) {
		p.mods = append(p.mods, fray.Modifier{Source: src, Value: v})
		chance += v
	}
	if immobile {
		src := tgt.Name + " cannot defend"
		if hp <= 0 {
			src = tgt.Name + " is incapacitated"
		}
		add(src+" (anything but 20)", HitNever-1)
	} else {
		skill, score, err := skillScore(att, pw)
		if err != nil {
			return nil, err
		}
		add(skill+" skill", score)
		lvl, ok := att.Stats["level"]
		if !ok {
			return nil, fray.Errorf(fray.EINVALID, "%s has no Level (level on the sheet, or add … level=N) (V-8).", att)
		}
		add(att.Name+"'s Level", lvl)
		switch {
		case flags.inanimate && flags.nonsentient:
			return nil, fray.Errorf(fray.EINVALID, "A target is inanimate or nonsentient, not both.")
		case flags.inanimate || quality(tgt, FlagInanimate):
			add(tgt.Name+" inanimate (Level 0)", -InanimateLevel)
		case flags.nonsentient || quality(tgt, FlagNonsentient):
			add(tgt.Name+" nonsentient (Level 4)", -NonsentientLevel)
		default:
			lvl, ok := tgt.Stats["level"]
			if !ok {
				return nil, fray.Errorf(fray.EINVALID, "%s has no Level (level on the sheet, or add … level=N; or say inanimate or nonsentient) (V-8).", tgt)
			}
			add(tgt.Name+"'s Level", -lvl)
		}
		add("from the "+facing, defMod)
	}
	add(rangeSrc, RangeModifier(p.rangeIn))
	if attMod != 0 || attFacing != FacingFront {
		add("to "+att.Name+"'s "+attFacing, attMod)
	}
	if gm != 0 {
		add("the GM (mod=)", gm)
	}
	cmods, spent := engine.Modifiers(att, tgt, fray.AppliesAttack, s.Round)
	for _, m := range cmods {
		add(m.Source, m.Value)
	}
	p.spent = spent
	a.Hit = HitRoll{Chance: chance, Defenceless: unaware && !noticed}

	// Prone and cover (V-11).
	prone := false
	if ch := s.char(tgt.Name); ch != nil {
		prone = ch.Prone
	}
	a.Special = flags.special || (prone && dist > ProneReach && facing != FacingAbove && facing != FacingBelow)
	if a.Cover, err = intOpt(cmd, KeyCover, 0, 100, 0, "the percent of the target covered"); err != nil {
		return nil, err
	}
	if a.CoverProtection, err = intOpt(cmd, KeyCoverProtection, 0, 1000, 0, "the cover's protection"); err != nil {
		return nil, err
	}
	if _, ok := cmd.Opts[KeyCoverProtection]; ok && a.Cover == 0 {
		return nil, fray.Errorf(fray.EINVALID, "cover-protection= is the protection of cover; give cover=PCT too.")
	}

	// Damage (V-12, V-15).
	if a.Pull, err = intOpt(cmd, KeyPull, 0, 1000, 0, "the damage held back"); err != nil {
		return nil, err
	}
	a.Protection = protection(tgt, typ, s.Round)

	// Rolling with the punch (V-13).
	if _, ok := cmd.Opts[KeyDivert]; ok {
		muscle := pw.Range == "close" && typ == DamageKinetic
		if v, ok := cmd.Opts[KeyMuscle]; ok {
			if muscle, err = engine.ParseYesNo(KeyMuscle, v); err != nil {
				return nil, err
			}
		}
		what := fmt.Sprintf("an attack with %s", pw.Name)
		if a.Divert, err = s.checkDivert(cmd, tgt, unaware && !noticed || immobile, muscle, what); err != nil {
			return nil, err
		}
		if a.Effect {
			return nil, fray.Errorf(fray.EINVALID, "%s has an effect other than damage; there is no damage to roll with.", pw.Name)
		}
	} else if _, ok := cmd.Opts[KeyMuscle]; ok {
		return nil, fray.Errorf(fray.EINVALID, "muscle= says whether the target may roll with the attack; give divert=N too.")
	}

	// Knockback (V-14): impact-like attacks, kinetic unless the GM says.
	a.Knockback = typ == DamageKinetic && !a.Effect
	if v, ok := cmd.Opts[KeyKnockback]; ok {
		if a.Knockback, err = engine.ParseYesNo(KeyKnockback, v); err != nil {
			return nil, err
		}
	}
	if a.Knockback {
		if a.BasicHits, ok = basicHits(tgt); !ok {
			return nil, fray.Errorf(fray.EINVALID, "%s has no Basic Hits (basichits on the sheet, or add … hits=N), which knockback needs (V-14); or say knockback=no.", tgt)
		}
	}
	p.a = a
	if p.notice != nil {
		// Not noticed: hit on anything but 20, and no rolling with the
		// punch (V-13: the victim is not aware of the attack).
		u := a
		u.Hit.Defenceless, u.Divert = true, 0
		p.unnoticed = &u
	}
	return p, nil
}

// checkDivert checks divert=N: the victim must be aware of the attack
// (not surprised, helpless or incapacitated), the attack one that may be
// rolled with (house rule: close muscle-powered attacks and falling), and
// N at most a tenth of the victim's current Power, rounded down (V-13).
func (s *State) checkDivert(cmd fray.Command, tgt *fray.Combatant, helpless, muscle bool, what string) (int, error) {
	n, err := intOpt(cmd, KeyDivert, 0, 1000, 0, "the most damage rolled with to Power")
	if err != nil || n == 0 {
		return n, err
	}
	ch := s.char(tgt.Name)
	switch {
	case helpless:
		return 0, fray.Errorf(fray.EINVALID, "%s is not aware of %s, or cannot defend, so cannot roll with the punch (V-13).", tgt, what)
	case ch != nil && ch.Victim && s.Round == 1:
		return 0, fray.Errorf(fray.EINVALID, "%s was taken by surprise this turn, so cannot roll with the punch (V-13).", tgt)
	case !muscle && s.Setting(SetRolling, House) == House:
		return 0, fray.Errorf(fray.EINVALID, "Only close, muscle-powered attacks and falls can be rolled with (V-13, house rule; say muscle=yes for an arrow or a boomerang, or set rolling=raw); %s is not one.", what)
	case !tracksPower(tgt):
		return 0, fray.Errorf(fray.EINVALID, "%s has no Power (a power track, or add … power=N) to roll with the punch into (V-13).", tgt)
	}
	if most := max(0, s.Power(tgt.Name)) / 10; n > most {
		return 0, fray.Errorf(fray.EINVALID, "divert=%d: %s has %d Power, so can roll with at most %d (a tenth, rounded down) (V-13).", n, tgt, s.Power(tgt.Name), most)
	}
	return n, nil
}

// attackPowers lists the combatant's powers that can attack.
func attackPowers(c *fray.Combatant) string {
	var ns []string
	for _, p := range c.Powers {
		if p.Kind != fray.PowerKindSkill && p.Dice != "" {
			ns = append(ns, p.Name)
		}
	}
	if len(ns) == 0 {
		return "none (a power with damage dice on the sheet, or add … attack=NAME:DICE:TYPE:SCORE)"
	}
	return strings.Join(ns, ", ")
}

// checkAction checks that c can take an action now, as act does: c is
// acting, has not acted on this phase, and can pay its Power (V-1, V-3).
// It returns the Power the action costs.
func (s *State) checkAction(c *fray.Combatant) (int, error) {
	if !s.Started {
		return 0, fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	cur := s.Current()
	if cur == "" {
		return 0, fray.Errorf(fray.EINVALID, "Nobody is acting: turn %d's phases are over; use next to begin the next turn.", s.Round)
	}
	if !fray.SameName(cur, c.Name) {
		return 0, fray.Errorf(fray.EINVALID, "It is %s's action on phase %d, not %s's; an attack is an action (V-8).", fray.Mention(cur), s.Phase(), c)
	}
	ch := s.char(cur)
	if ch.Act.Acted || (ch.ActedPhase == s.Phase() && ch.ActedPhase != 0) {
		return 0, fray.Errorf(fray.EINVALID, "%s has already acted on phase %d; never more than one action by one character in a phase (V-3).", c, s.Phase())
	}
	cost := s.actionCost(ch)
	if cost > 0 && tracksPower(c) && s.Power(c.Name) < cost {
		return 0, fray.Errorf(fray.EINVALID, "%s has %d Power; an action after the first in a turn costs %d (V-1). Decline it with next.", c, s.Power(c.Name), cost)
	}
	return cost, nil
}

// attack decides attack A B …: the attacker's action (EventActed), then
// the to-hit roll or rolls, the cover's d% and the damage (EventAttacked),
// then the once-only conditions it used up.
func (d *decider) attack(cmd fray.Command, r fray.Roller) error {
	s := d.s
	p, err := s.planAttack(cmd)
	if err != nil {
		return err
	}
	odds, err := p.odds()
	if err != nil {
		return err
	}
	odds.Command = cmd.String()
	a, att, tgt := p.a, p.att, p.tgt
	var rolls []fray.Roll
	pr := 0
	if p.notice != nil {
		// The unaware target's Perception roll comes first (V-8).
		x, err := r.Roll(tgt.Name+" (Perception to notice "+att.Name+")", CheckDice)
		if err != nil {
			return err
		}
		if pr = x.Total; pr < 1 || pr > 100 {
			return fray.Errorf(fray.EINVALID, "A Perception roll is d%%; give a face from 1 to 100.")
		}
		if p.notice.Band(pr) == CheckSuccess {
			x.For = strings.TrimSuffix(x.For, ")") + fmt.Sprintf(": d%% %d ≤ %d%%, noticed: a normal roll to hit)", pr, p.notice.Chance)
		} else {
			a = *p.unnoticed
			x.For = strings.TrimSuffix(x.For, ")") + fmt.Sprintf(": d%% %d > %d%%, not noticed: hit on anything but 20)", pr, p.notice.Chance)
		}
		rolls = append(rolls, x)
	}
	roll := func(what, expr string) (int, error) {
		x, err := r.Roll(att.Name+" ("+what+")", expr)
		if err != nil {
			return 0, err
		}
		rolls = append(rolls, x)
		return x.Total, nil
	}
	first, err := roll("to hit "+tgt.Name, HitDice)
	if err != nil {
		return err
	}
	second, pct, rolled := 0, 0, 0
	hit := a.Hit.Band(first) == HitHit
	if hit && a.Special {
		if second, err = roll("Special Attack, second roll", HitDice); err != nil {
			return err
		}
		hit = a.Hit.Band(second) == HitHit
	}
	if hit && a.Cover > 0 && !a.Special {
		if pct, err = roll("cover d%", CoverDice); err != nil {
			return err
		}
	}
	if hit {
		if rolled, err = roll(p.pw.Name+" damage", a.Dice); err != nil {
			return err
		}
	}
	if first < 1 || first > 20 || second < 0 || second > 20 {
		return fray.Errorf(fray.EINVALID, "A to-hit roll is 1d20; give faces from 1 to 20.")
	}
	res := a.Settle(first, second, pct, rolled)
	data := AttackData{
		Attacker: att.Name, Target: tgt.Name, Power: p.pw.Name, Type: strings.ToLower(p.pw.Damage), Range: p.rangeIn,
		Chance: a.Hit.Chance, Needed: a.Hit.Needed(), Defenceless: a.Hit.Defenceless, Special: a.Special,
		PerceptionRoll: pr, Noticed: pr > 0 && !a.Hit.Defenceless,
		First: first, Second: second, Pct: pct, Band: res.band(), Cover: a.Cover, CoverProtection: a.CoverProtection,
		Rolled: res.Rolled, Pull: a.Pull, Protection: a.Protection, Damage: res.Damage, Effect: a.Effect, Affects: res.Affects,
		ToPower: res.ToPower, ToHits: res.ToHits, Incapacitated: res.Incapacitated, Knockback: res.Knockback,
	}
	if p.notice != nil {
		data.Perception = p.notice.Chance
	}
	if n := len(rolls); n > 0 {
		rolls[n-1].For = strings.TrimSuffix(rolls[n-1].For, ")") + attackWords(data)
	}
	if err := d.emit(EventActed, ActData{Name: att.Name, Phase: s.Phase(), Cost: p.cost}); err != nil {
		return err
	}
	ev, err := fray.NewEvent(EventAttacked, data, rolls...)
	if err != nil {
		return err
	}
	return d.addRolled(ev, odds, p.spent)
}

// attackWords says what an attack did, for its last roll: ": hit, 7
// damage (10 − 3 protection), 1 rolled with to Power, 6 Hit Points, 4\"
// knockback)".
func attackWords(d AttackData) string {
	switch d.Band {
	case BandAstray:
		return ": a 20, a miss that goes astray (incidental effect, V-16))"
	case BandMiss:
		return ": a miss, which may go astray at the GM's option (V-16))"
	}
	w := ": " + d.Band
	if d.Band == BandOnCover {
		w += fmt.Sprintf(" (d%% %d ≤ %d%%)", d.Pct, d.Cover)
	}
	if d.Effect {
		w += fmt.Sprintf(", %d against protection", d.Damage)
	} else {
		w += fmt.Sprintf(", %d damage", d.Damage)
	}
	var parts []string
	if d.Pull > 0 {
		parts = append(parts, fmt.Sprintf("%d pulled", d.Pull))
	}
	if d.Band == BandOnCover && d.CoverProtection > 0 {
		parts = append(parts, fmt.Sprintf("%d cover", d.CoverProtection))
	}
	if d.Protection > 0 {
		if d.Type == DamageGas {
			parts = append(parts, "Gas negated by protection")
		} else {
			parts = append(parts, fmt.Sprintf("%d protection", d.Protection))
		}
	}
	if len(parts) > 0 {
		w += fmt.Sprintf(" (%d rolled − %s)", d.Rolled, strings.Join(parts, " − "))
	}
	if d.Effect {
		if d.Affects {
			return w + ": the effect takes hold, no Hit Points lost)"
		}
		return w + ": no effect)"
	}
	if d.ToPower > 0 {
		w += fmt.Sprintf(", %d rolled with to Power", d.ToPower)
	}
	if d.Incapacitated {
		w += ", " + d.Target + " is incapacitated"
	}
	if d.Knockback > 0 {
		w += fmt.Sprintf(", knocked back %d\"", d.Knockback)
	}
	return w + ")"
}

// damage decides damage NAME N [type=TYPE] [divert=N] [falling=yes].
func (d *decider) damage(cmd fray.Command) error {
	s := d.s
	usage := "damage NAME N [type=TYPE] [divert=N] [falling=yes]"
	if err := engine.CheckArgs(cmd, 2, 2, usage); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd, KeyType, KeyDivert, KeyFalling); err != nil {
		return err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return err
	}
	n, err := engine.Amount(cmd, 1, 0, "damage")
	if err != nil {
		return err
	}
	if _, ok := s.HitPoints(c.Name); !ok {
		return fray.Errorf(fray.EINVALID, "%s has no Hit Points (a sheet's hit points track, or add … hp=N), so damage has nothing to take.", c)
	}
	data := DamageData{Name: c.Name, Amount: n, Damage: n}
	if v, ok := cmd.Opts[KeyType]; ok {
		data.Type = strings.ToLower(v)
		if !slices.Contains(DamageTypes(), data.Type) {
			return fray.Errorf(fray.EINVALID, "type=%s is not a damage type; use %s.", engine.Clip(v), strings.Join(DamageTypes(), ", "))
		}
		data.Protection = protection(c, data.Type, s.Round)
		data.Damage = Attack{Protection: data.Protection, Gas: data.Type == DamageGas}.damage(n, false)
	}
	falling := false
	if v, ok := cmd.Opts[KeyFalling]; ok {
		if falling, err = engine.ParseYesNo(KeyFalling, v); err != nil {
			return err
		}
	}
	divert, err := s.checkDivert(cmd, c, false, falling, "this damage (say falling=yes for a fall)")
	if err != nil {
		return err
	}
	data.ToPower = min(divert, data.Damage)
	data.ToHits = data.Damage - data.ToPower
	return d.emit(EventDamaged, data)
}

// heal decides heal NAME N.
func (d *decider) heal(cmd fray.Command) error {
	s := d.s
	if err := engine.CheckArgs(cmd, 2, 2, "heal NAME N"); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return err
	}
	n, err := engine.Amount(cmd, 1, 1, "Hit Points")
	if err != nil {
		return err
	}
	t, ok := c.Tracks[TrackHitPoints]
	if !ok {
		return fray.Errorf(fray.EINVALID, "%s has no Hit Points (a sheet's hit points track, or add … hp=N) to restore.", c)
	}
	if t.Value >= t.Max {
		return fray.Errorf(fray.EINVALID, "%s already has all %d Hit Points.", c, t.Max)
	}
	return d.emit(EventHealed, HealData{Name: c.Name, Hits: min(n, t.Max-t.Value)})
}

// protect decides protect NAME TYPE N: a condition adding protection
// against a damage type until cleared.
func (d *decider) protect(cmd fray.Command) error {
	s := d.s
	if err := engine.CheckArgs(cmd, 3, 3, "protect NAME TYPE N [until=…]"); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd, engine.KeyUntil); err != nil {
		return err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return err
	}
	typ := strings.ToLower(cmd.Args[1])
	if !slices.Contains(DamageTypes(), typ) {
		return fray.Errorf(fray.EINVALID, "%q is not a damage type; use %s.", engine.Clip(cmd.Args[1]), strings.Join(DamageTypes(), ", "))
	}
	n, err := strconv.Atoi(cmd.Args[2])
	if err != nil || n < 1 || n > 1000 {
		return fray.Errorf(fray.EINVALID, "protect %s %s %s: give the protection as a whole number from 1 to 1000.", c, typ, engine.Clip(cmd.Args[2]))
	}
	name := "protection vs " + typ
	if c.Condition(name) == nil && len(c.Conditions) >= engine.MaxConditions {
		return fray.Errorf(fray.ETOOLARGE, "%s already holds %d conditions, the limit (MaxConditions).", c, engine.MaxConditions)
	}
	cond := fray.Condition{Name: name, Since: s.Round, Modifiers: []fray.Modifier{{Source: name, Value: n, On: protectionOn + typ}},
		Note: fmt.Sprintf("+%d protection against %s damage (V-12)", n, typ)}
	if v, ok := cmd.Opts[engine.KeyUntil]; ok {
		if cond.Until, err = engine.ParseUntil(&s.Encounter, c.Name, v); err != nil {
			return err
		}
	}
	return d.emit(fray.EventCondition, fray.ConditionData{Name: c.Name, Condition: cond})
}

// applyResolution applies the events of this file; handled is false for
// others.
func (s *State) applyResolution(ev fray.Event) (handled bool, err error) {
	var name string
	var toHits, toPower int
	switch ev.Type {
	case EventAttacked:
		var d AttackData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.Find(d.Attacker) == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d is an attack by %q, who is not present.", ev.Seq, fray.Mention(d.Attacker))
		}
		name, toHits, toPower = d.Target, d.ToHits, d.ToPower
	case EventDamaged:
		var d DamageData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		name, toHits, toPower = d.Name, d.ToHits, d.ToPower
	case EventHealed:
		var d HealData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		name, toHits = d.Name, -d.Hits
		if d.Hits < 0 {
			return true, fray.Errorf(fray.EINVALID, "Event %d heals %q by %d.", ev.Seq, fray.Mention(d.Name), d.Hits)
		}
	default:
		return false, nil
	}
	c, ch := s.Find(name), s.char(name)
	if c == nil || ch == nil {
		return true, fray.Errorf(fray.EINVALID, "Event %d names %q, who is not present.", ev.Seq, fray.Mention(name))
	}
	if toHits < -100000 || toHits > 100000 || toPower < 0 || toPower > 100000 {
		return true, fray.Errorf(fray.EINVALID, "Event %d gives %q damage out of range.", ev.Seq, fray.Mention(name))
	}
	if toHits != 0 {
		t, ok := c.Tracks[TrackHitPoints]
		if !ok {
			return true, fray.Errorf(fray.EINVALID, "Event %d damages %q, who has no Hit Points.", ev.Seq, fray.Mention(name))
		}
		t.Value -= toHits
		// A new map, never a change in place: Decide's scratch copy of
		// the state shares the tracks with the state (scratch).
		tr := maps.Clone(c.Tracks)
		tr[TrackHitPoints] = t
		c.Tracks = tr
	}
	ch.PowerLost += toPower
	return true, nil
}
