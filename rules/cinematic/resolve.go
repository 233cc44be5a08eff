package cinematic

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/dice"
	"fray/engine"
)

// Resolution (SPEC C-3 … C-8): checks, attacks answered by a dodge or a
// parry, damage off Life Points, complications as conditions, the
// Consciousness and Survival tests, and firearms with ammunition.

// Event types of resolution. They are wire strings: never rename one.
const (
	EventRolled   = "cinematic.rolled"   // a roll: check, attack, test, free or kipup; data: rollData, Rolls, Odds
	EventDamaged  = "cinematic.damaged"  // Life Points lost (or healed, negative); data: damageData
	EventShot     = "cinematic.shot"     // shots fired or spent from a weapon's clip; data: ammoData
	EventReloaded = "cinematic.reloaded" // a weapon reloaded, an action (C-8); data: reloadData
	EventStood    = "cinematic.stood"    // up from Knocked Down the slow way: the round is spent (C-6); data: fray.NameData
)

// Kinds of roll (rollData.Roll, fray.Odds.Roll). They are wire strings.
const (
	RollCheck  = "check"  // a task: STAT[+SKILL] (C-3)
	RollAttack = "attack" // an attack, answered by a dodge or a parry (C-4)
	RollTest   = "test"   // a Consciousness or Survival test (C-6)
	RollFree   = "free"   // freeing oneself when tied up (C-6)
	RollKipUp  = "kipup"  // a kip-up from Knocked Down (C-6)
	// The answers to an attack that waits (C-4): the target dodges or
	// parries, rolling against the attack's total, or takes it (a hit
	// on 9+).
	RollDodge = "dodge"
	RollParry = "parry"
	RollTake  = "take"
)

// Defences an attack may meet (C-4). They are wire strings.
const (
	DefenceDodge = "dodge"
	DefenceParry = "parry"
	DefenceNone  = "none" // no defence roll: the attack hits on 9+
	// DefenceWait rolls the attack alone; it waits for the target's
	// answer, dodge NAME, parry NAME or take NAME (see Waiting).
	DefenceWait = "wait"
)

// Conditions resolution sets (C-6). They are wire strings.
const (
	CondBadlyInjured = "badly injured" // 10 or fewer Life Points: −2 (5 or fewer: −4) to attack and defence
	CondBlind        = "blind"         // −5 to everything; a Perception + Notice check before each attack
	CondBound        = "bound"         // arms bound in front: −2 to punches
	CondTied         = "tied"          // tied up: no attack or defence until freed
	CondDown         = "knocked down"  // −4 to attack and defence until up
	CondOutnumbered  = "outnumbered"   // +2 per attacker this round to attacks on them, up to +10
	CondLarge        = "large"         // Size: larger than normal, a penalty to dodge (default −2, ours)
	CondConscious    = "consciousness test"
	CondSurvival     = "survival test"
	CondUnconscious  = "unconscious"
	CondDead         = "dead"
	CondStabilised   = "stabilised"
)

// Qualities resolution reads from a sheet (fray.Combatant.Qualities).
const (
	QualityHardToKill   = "Hard to Kill"          // adds its level to Survival tests
	QualityPain         = "Resistance (Pain)"     // cancels 1 of the Consciousness penalty per level
	QualityAwareness    = "Situational Awareness" // defends even when caught unaware
	QualityEcholocation = "Echolocation"          // unaffected by Blind
	QualityNotHuman     = "Not Human"             // bullets, slashes and stabs are not doubled (C-5)
)

// Numbers of resolution (C-5, C-6, C-8).
const (
	BadlyInjured      = 10 // Life Points at or below which Badly Injured is −2
	VeryBadlyInjured  = 5  // Life Points at or below which it is −4
	BlindPenalty      = -5
	BoundPunchPenalty = -2
	DownPenalty       = -4
	OutnumberedBonus  = 2  // per attacker, up to MaxAttackers
	MaxAttackers      = 5  // the most who may attack one target in a round
	MaxShots          = 6  // the most shots of a barrage: a small clip
	KipUpLevels       = 2  // success levels a kip-up needs
	LargePenalty      = -2 // Size's penalty to dodge when the GM gives none (ours)
	SurvivalBelow     = -10
	TrackLife         = "life points"
	ProtectionArmour  = "armour"
)

// AppliesDodge is what a condition's modifier on dodges alone applies to
// (fray.Modifier.On), such as Size's. It is a wire string.
const AppliesDodge = "dodge"

// Option keys of the resolution commands.
const (
	OptWith    = "with"    // the weapon (attack) or skill (free)
	OptDefence = "defence" // dodge, parry or none (attack)
	OptShots   = "shots"   // a barrage of N shots (attack, C-8)
	OptMod     = "mod"     // the GM's modifier to the roll
	OptDMod    = "dmod"    // the GM's modifier to the defence
	OptVs      = "vs"      // an opposing value (check)
	OptUnaware = "unaware" // yes: the target does not know the attacker is there
	OptMinutes = "minutes" // minutes since the wound (survival test)
	OptAmmo    = "ammo"    // shots spent without a roll (spend)
)

// rollData is the payload of EventRolled. It is flat, so Apply copies it.
type rollData struct {
	Name       string `json:"name" fray:"who"`
	Roll       string `json:"roll"`
	What       string `json:"what,omitempty"`
	Target     string `json:"target,omitempty" fray:"who"`
	Weapon     string `json:"weapon,omitempty"`
	Shots      int    `json:"shots,omitempty"`
	Defence    string `json:"defence,omitempty"`
	Value      int    `json:"value"`
	DefValue   int    `json:"def_value,omitempty"`
	Noticed    bool   `json:"noticed,omitempty"`
	Total      int    `json:"total"`
	Difficulty int    `json:"difficulty"`
	Success    bool   `json:"success"`
	Levels     int    `json:"levels"`
	Band       string `json:"band"`
	Dealt      int    `json:"dealt,omitempty"`
	// Note says why an attack made with defence=wait did not wait: the
	// target could not defend.
	Note string `json:"note,omitempty"`
}

// damageData is the payload of EventDamaged.
type damageData struct {
	Name   string `json:"name" fray:"who"`
	Amount int    `json:"amount"`
	By     string `json:"by,omitempty" fray:"who"`
}

// ammoData is the payload of EventShot.
type ammoData struct {
	Name   string `json:"name" fray:"who"`
	Weapon string `json:"weapon"`
	Shots  int    `json:"shots"`
}

// reloadData is the payload of EventReloaded.
type reloadData struct {
	Name     string `json:"name" fray:"who"`
	Weapon   string `json:"weapon"`
	Kind     string `json:"kind"`
	Modifier int    `json:"modifier,omitempty"`
}

// unarmed are the attacks every character has without a sheet's weapon:
// a punch or a kick, Dexterity + Kung Fu, damage Strength, bash (ours:
// the seed names punches and kicks but gives no numbers).
var unarmed = []string{"punch", "kick"}

// planned is a roll planned from a command: everything but the dice.
type planned struct {
	d    rollData
	roll TestRoll
	mods []fray.Modifier // the roller's terms after the dice
	dmod []fray.Modifier // the defender's terms, when a defence is rolled
	// notice is a blind attacker's Perception + Notice check, rolled
	// before the attack.
	notice *TestRoll
	nmods  []fray.Modifier
	spent  []engine.ConditionRef
	// The actions an attack spends.
	att    ActionData
	def    *ActionData
	weapon fray.Power
	armour int
	mult   int
	barage bool
	foes   int // attackers on the target this round, this one counted
	ammo   bool
	// waits is an attack made with defence=wait that the target can
	// answer: only the attack is rolled (the odds are those of the
	// default defence).
	waits bool
	// known is the attack an answer settles: its total is rolled already.
	known *Waiting
}

// life returns a combatant's Life Points: the sheet's track, or
// (Strength + Constitution) × 4 + 10 from the stats of add.
func life(c *fray.Combatant) (fray.Track, bool) {
	if t, ok := c.Tracks[TrackLife]; ok {
		return t, true
	}
	st, ok1 := c.Stats["strength"]
	co, ok2 := c.Stats["constitution"]
	if !ok1 || !ok2 {
		return fray.Track{}, false
	}
	n := (st+co)*4 + 10
	return fray.Track{Value: n, Max: n}, true
}

func needLife(c *fray.Combatant) (fray.Track, error) {
	t, ok := life(c)
	if !ok {
		return t, fray.Errorf(fray.EINVALID, "%s has no Life Points; load a sheet, or give strength= and constitution= with add ((Strength + Constitution) × 4 + 10).", c)
	}
	return t, nil
}

// stat returns a stat, refusing a combatant without it.
func stat(c *fray.Combatant, name string) (int, error) {
	v, ok := c.Stats[name]
	if !ok {
		return 0, fray.Errorf(fray.EINVALID, "%s has no %s; give it with add %s %s=N or a sheet.", c, title(name), quoteName(c.Name), name)
	}
	return v, nil
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func quoteName(n string) string { return fray.Command{Name: "x", Args: []string{n}}.String()[2:] }

// squash lowers a name and drops its blanks: "Kung Fu" and "kungfu" match.
func squash(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "")) }

// skill returns the rank of the combatant's skill named name, 0 when they
// do not have it, and its name as the sheet spells it.
func skill(c *fray.Combatant, name string) (int, string, bool) {
	for _, p := range c.Powers {
		if p.Kind != fray.PowerKindWeapon && strings.EqualFold(p.Name, name) {
			return p.Rank, p.Name, true
		}
	}
	if !strings.Contains(name, " ") {
		// "kungfu" for "Kung Fu": compare without blanks.
		for _, p := range c.Powers {
			if p.Kind != fray.PowerKindWeapon && squash(p.Name) == squash(name) {
				return p.Rank, p.Name, true
			}
		}
	}
	return 0, name, false
}

var stats = []string{"strength", "dexterity", "constitution", "intelligence", "perception", "willpower"}

func quality(c *fray.Combatant, name string) int {
	for k, v := range c.Qualities {
		if fray.SameName(k, name) {
			return max(v, 1)
		}
	}
	return 0
}

// intOpt reads KEY=N within lo..hi.
func intOpt(cmd fray.Command, key string, lo, hi int) (int, bool, error) {
	v, ok := cmd.Opts[key]
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
	if err != nil || n < lo || n > hi {
		return 0, false, fray.Errorf(fray.EINVALID, "%s=%s is not a whole number from %d to %+d.", key, engine.Clip(v), lo, hi)
	}
	return n, true, nil
}

// gm adds the GM's mod= to a roll's terms.
func gm(cmd fray.Command, key string, mods []fray.Modifier) ([]fray.Modifier, error) {
	n, ok, err := intOpt(cmd, key, -20, 20)
	if err != nil || !ok {
		return mods, err
	}
	return append(mods, fray.Modifier{Source: "GM", Value: n}), nil
}

func sum(mods []fray.Modifier) int {
	n := 0
	for _, m := range mods {
		n += m.Value
	}
	return n
}

// out reports why a combatant cannot act: dead, unconscious or tied up.
func out(c *fray.Combatant, what string) error {
	for _, x := range []string{CondDead, CondUnconscious, CondTied} {
		if c.Condition(x) != nil {
			return fray.Errorf(fray.EINVALID, "%s is %s and cannot %s (C-6).", c, x, what)
		}
	}
	return nil
}

// planCheck plans "check NAME STAT[+SKILL|+STAT] [mod=N] [vs=N]" (C-3).
func (s *State) planCheck(cmd fray.Command) (*planned, error) {
	const usage = "check NAME STAT[+SKILL] [mod=±N] [vs=N]"
	if err := engine.CheckArgs(cmd, 2, 2, usage); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd, OptMod, OptVs); err != nil {
		return nil, err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return nil, err
	}
	what := cmd.Args[1]
	a, b, plus := strings.Cut(what, "+")
	a = strings.ToLower(strings.TrimSpace(a))
	if !slices.Contains(stats, a) {
		return nil, fray.Errorf(fray.EINVALID, "%s is not an attribute; roll one of %s, with +SKILL if one applies.", engine.Clip(a), strings.Join(stats, ", "))
	}
	v, err := stat(c, a)
	if err != nil {
		return nil, err
	}
	p := &planned{d: rollData{Name: c.Name, Roll: RollCheck}}
	switch b = strings.TrimSpace(b); {
	case !plus:
		// Without a skill, the attribute counts twice (C-3).
		p.mods = []fray.Modifier{{Source: title(a) + " × 2", Value: 2 * v}}
		p.d.What = a
	case slices.Contains(stats, strings.ToLower(b)):
		w, err := stat(c, strings.ToLower(b))
		if err != nil {
			return nil, err
		}
		p.mods = []fray.Modifier{{Source: title(a), Value: v}, {Source: title(strings.ToLower(b)), Value: w}}
		p.d.What = a + "+" + strings.ToLower(b)
	default:
		// A skill not on the sheet is rank 0, as in an attack; the
		// breakdown says so.
		if b == "" || len(b) > 64 {
			return nil, fray.Errorf(fray.EINVALID, "%s: name the skill after +, up to 64 bytes (%s).", engine.Clip(what), skillList(c))
		}
		r, name, ok := skill(c, b)
		if !ok {
			name += " (untrained)"
		}
		p.mods = []fray.Modifier{{Source: title(a), Value: v}, {Source: name, Value: r}}
		p.d.What = a + "+" + name
	}
	cm, spent := engine.Modifiers(c, nil, fray.AppliesCheck, s.Round)
	p.mods, p.spent = append(p.mods, cm...), spent
	if p.mods, err = gm(cmd, OptMod, p.mods); err != nil {
		return nil, err
	}
	p.roll = TestRoll{Value: sum(p.mods)}
	if n, ok, err := intOpt(cmd, OptVs, -100, 100); err != nil {
		return nil, err
	} else if ok {
		p.roll.Opposed, p.roll.Defence = true, n
	}
	return p, checkRoll(p.roll)
}

func skillList(c *fray.Combatant) string {
	var names []string
	for _, p := range c.Powers {
		if p.Kind == fray.PowerKindSkill {
			names = append(names, p.Name+" "+strconv.Itoa(p.Rank))
		}
	}
	if len(names) == 0 {
		return "no skills on a sheet"
	}
	return "skills: " + strings.Join(names, ", ")
}

func weaponList(c *fray.Combatant) string {
	names := []string{}
	for _, p := range c.Powers {
		if p.Kind == fray.PowerKindWeapon {
			names = append(names, p.Name)
		}
	}
	return strings.Join(append(names, unarmed...), ", ")
}

// weapon returns the weapon an attack names: one on the sheet, or a punch
// or kick (damage Strength, bash).
func weapon(c *fray.Combatant, name string) (fray.Power, error) {
	for _, p := range c.Powers {
		if p.Kind == fray.PowerKindWeapon && fray.SameName(p.Name, name) {
			if p.Skill == "" {
				p.Skill = "Getting Medieval"
				if p.Damage == "bullet" {
					p.Skill = "Gun Fu"
				}
			}
			if p.Damage == "" {
				p.Damage = "bash"
			}
			return p, nil
		}
	}
	if slices.Contains(unarmed, strings.ToLower(name)) {
		st, err := stat(c, "strength")
		if err != nil {
			return fray.Power{}, err
		}
		return fray.Power{Name: strings.ToLower(name), Kind: fray.PowerKindWeapon, Rank: st, Damage: "bash", Skill: "Kung Fu"}, nil
	}
	return fray.Power{}, fray.Errorf(fray.ENOTFOUND, "%s has no weapon %q (%s).", c, engine.Clip(name), weaponList(c))
}

// startTracks gives a combatant who joins the tracks resolution counts
// down: Life Points worked out from the stats of add, and a full clip for
// each firearm.
func startTracks(c *fray.Combatant) {
	set := func(k string, t fray.Track) {
		if c.Tracks == nil {
			c.Tracks = map[string]fray.Track{}
		}
		if _, ok := c.Tracks[k]; !ok {
			c.Tracks[k] = t
		}
	}
	if t, ok := life(c); ok {
		set(TrackLife, t)
	}
	for _, p := range c.Powers {
		if p.Kind == fray.PowerKindWeapon && p.Clip > 0 {
			set(ammoKey(p.Name), fray.Track{Value: p.Clip, Max: p.Clip})
		}
	}
}

// ammoKey is the track that counts a firearm's shots left.
func ammoKey(weapon string) string { return "ammo " + strings.ToLower(weapon) }

// ammo returns the shots left in a weapon's clip (full until first fired).
func ammo(c *fray.Combatant, w fray.Power) int {
	if t, ok := c.Tracks[ammoKey(w.Name)]; ok {
		return t.Value
	}
	return w.Clip
}

// defenceValue plans a dodge (Dexterity + Kung Fu) or a parry (Dexterity
// + the better of Kung Fu and Getting Medieval); ours, after the
// published game: the seed says only "a similar roll".
func defenceValue(c *fray.Combatant, kind string) (fray.Modifier, bool) {
	kf, kfName, _ := skill(c, "Kung Fu")
	if kind == DefenceDodge {
		return fray.Modifier{Source: kfName + " (dodge)", Value: kf}, true
	}
	gmv, gmName, _ := skill(c, "Getting Medieval")
	if gmv > kf {
		return fray.Modifier{Source: gmName + " (parry)", Value: gmv}, true
	}
	return fray.Modifier{Source: kfName + " (parry)", Value: kf}, true
}

// planAttack plans "attack ATTACKER TARGET with=WEAPON [defence=…]
// [shots=N] [unaware=yes] [mod=N] [dmod=N]" (C-4, C-5, C-6, C-7, C-8).
func (s *State) planAttack(cmd fray.Command) (*planned, error) {
	const usage = "attack ATTACKER TARGET with=WEAPON [defence=dodge|parry|none] [shots=1-6] [unaware=yes] [mod=±N] [dmod=±N]"
	if err := engine.CheckArgs(cmd, 2, 2, usage); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd, OptWith, OptDefence, OptShots, OptUnaware, OptMod, OptDMod); err != nil {
		return nil, err
	}
	if !s.Started {
		return nil, fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	a, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return nil, err
	}
	b, err := s.Lookup(cmd.Args[1])
	if err != nil {
		return nil, err
	}
	if fray.SameName(a.Name, b.Name) {
		return nil, fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", a)
	}
	if cur := s.Current(); !fray.SameName(cur, a.Name) {
		if cur == "" {
			return nil, fray.Errorf(fray.EINVALID, "Nobody's turn is in progress; use next to begin round %d.", s.Round+1)
		}
		return nil, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's; attacks are made on one's own turn.", fray.Mention(cur), a)
	}
	if err := out(a, "attack"); err != nil {
		return nil, err
	}
	if b.Condition(CondDead) != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s is dead already.", b)
	}
	w, err := weapon(a, cmd.Opts[OptWith])
	if err != nil {
		return nil, err
	}
	if _, err := needLife(b); err != nil {
		return nil, err
	}
	dex, err := stat(a, "dexterity")
	if err != nil {
		return nil, err
	}
	p := &planned{weapon: w, mult: 1}
	if p.att, err = s.attackAction(a.Name, b.Name); err != nil {
		return nil, err
	}
	p.d = rollData{Name: a.Name, Roll: RollAttack, Target: b.Name, Weapon: w.Name}
	sk, skName, has := skill(a, w.Skill)
	if !has {
		skName += " (untrained)"
	}
	p.mods = []fray.Modifier{{Source: "Dexterity", Value: dex}, {Source: skName, Value: sk}}
	if p.att.Kind == ActionExtra {
		p.mods = append(p.mods, fray.Modifier{Source: "extra action", Value: s.Budget(a.Name).Next})
	}
	if s.char(a.Name).Stance == StanceOffence {
		p.mods = append(p.mods, fray.Modifier{Source: "Full Offence", Value: FullOffenceBonus})
	}
	// Outnumbered (C-6): +2 per attacker this round, this one counted,
	// once two or more attack the target; a sixth attacker is refused.
	foes := s.char(b.Name).Foes
	p.foes = len(foes)
	if engine.Index(foes, a.Name) < 0 {
		p.foes++
	}
	if p.foes > MaxAttackers {
		return nil, fray.Errorf(fray.EINVALID, "%s has been attacked by %d others this round (%s); no more than %d may attack one target in a round (C-6).", b, len(foes), strings.Join(foes, ", "), MaxAttackers)
	}
	cm, spent := engine.Modifiers(a, b, fray.AppliesAttack, s.Round)
	cm = slices.DeleteFunc(cm, func(m fray.Modifier) bool { return m.Source == b.Name+" "+CondOutnumbered })
	p.mods, p.spent = append(p.mods, cm...), spent
	if p.foes >= 2 {
		p.mods = append(p.mods, fray.Modifier{Source: b.Name + " outnumbered (" + strconv.Itoa(p.foes) + " attackers)", Who: []string{b.Name}, Value: OutnumberedBonus * p.foes})
	}
	if a.Condition(CondBound) != nil && strings.EqualFold(w.Name, "punch") {
		p.mods = append(p.mods, fray.Modifier{Source: CondBound + " (a punch)", Value: BoundPunchPenalty})
	}
	// Firearms (C-8): an aimed shot is one shot; a barrage of shots=N is
	// one roll at −N.
	n, barrage, err := intOpt(cmd, OptShots, 1, MaxShots)
	if err != nil {
		return nil, err
	}
	p.ammo = w.Clip > 0
	if barrage {
		if w.Damage != "bullet" && w.Clip == 0 {
			return nil, fray.Errorf(fray.EINVALID, "shots= is a barrage from a firearm (C-8); %s is not one.", w.Name)
		}
		p.barage, p.d.Shots = true, n
		p.mods = append(p.mods, fray.Modifier{Source: "barrage of " + strconv.Itoa(n), Value: -n})
	}
	if p.ammo {
		need := max(p.d.Shots, 1)
		if left := ammo(a, w); left < need {
			return nil, fray.Errorf(fray.EINVALID, "%s's %s has %d shots left in the clip, not %d; reload %s %s first (C-8).", a, w.Name, left, need, quoteName(a.Name), quoteName(w.Name))
		}
	}
	if p.mods, err = gm(cmd, OptMod, p.mods); err != nil {
		return nil, err
	}
	// Blind (C-6): a Perception + Notice check before the attack, unless
	// Echolocation. Ours: the check is how the blind find their foe, so
	// the −5 of Blind is not added to it (it is to the attack).
	if a.Condition(CondBlind) != nil && quality(a, QualityEcholocation) == 0 {
		per, err := stat(a, "perception")
		if err != nil {
			return nil, err
		}
		nv, nName, _ := skill(a, "Notice")
		p.nmods = []fray.Modifier{{Source: "Perception", Value: per}, {Source: nName, Value: nv}}
		p.notice = &TestRoll{Value: per + nv}
	}
	// Damage (C-5).
	p.armour = b.Protection[ProtectionArmour] + b.Protection[w.Damage]
	if quality(b, QualityNotHuman) == 0 && w.Damage != "bash" {
		p.mult = 2
	}
	p.d.Value = sum(p.mods)
	p.roll = TestRoll{Value: p.d.Value}
	if err := s.planDefence(cmd, p, a, b); err != nil {
		return nil, err
	}
	return p, checkRoll(p.roll)
}

// planDefence decides how the target answers (C-4): the defence= named,
// or the better of dodge and parry; no roll when the target has no
// defence left, is on Full Offence, cannot act, or is attacked unaware
// without Situational Awareness (the attack then hits on 9+). With
// defence=wait the attack waits for the target's own answer when they
// can give one (the odds take the better defence), and is settled at
// once, as with none, when they cannot.
func (s *State) planDefence(cmd fray.Command, p *planned, a, b *fray.Combatant) error {
	want := strings.ToLower(cmd.Opts[OptDefence])
	switch want {
	case "", DefenceDodge, DefenceParry, DefenceNone, DefenceWait:
	default:
		return fray.Errorf(fray.EINVALID, "defence=%s: say dodge, parry, none or wait.", engine.Clip(want))
	}
	unaware := b.Unaware
	if v, ok := cmd.Opts[OptUnaware]; ok {
		var err error
		if unaware, err = engine.ParseYesNo(OptUnaware, v); err != nil {
			return err
		}
	}
	if _, ok := cmd.Opts[OptDMod]; ok && want == DefenceNone {
		return fray.Errorf(fray.EINVALID, "dmod= changes the defence roll; with defence=none there is none.")
	}
	if _, ok := cmd.Opts[OptDMod]; ok && want == DefenceWait {
		return fray.Errorf(fray.EINVALID, "With defence=wait the defence's modifier comes with the answer: dodge %s dmod=N or parry %s dmod=N.", quoteName(b.Name), quoteName(b.Name))
	}
	if want == DefenceParry && p.weapon.Damage == "bullet" {
		return fray.Errorf(fray.EINVALID, "%s cannot parry a bullet; say defence=dodge or none.", b)
	}
	act, why := s.canDefend(a, b, unaware)
	if want == DefenceNone {
		why = "takes it"
	}
	if why != "" {
		if want != "" && want != DefenceNone && want != DefenceWait {
			return fray.Errorf(fray.EINVALID, "%s cannot %s: %s", b, want, why).Naming(a.Name)
		}
		p.d.Defence = DefenceNone
		if want == DefenceWait {
			p.d.Note = "nothing waits: " + strings.TrimSuffix(why, ".")
		}
		return nil
	}
	kind := want
	if kind == "" || kind == DefenceWait {
		dg, _ := defenceValue(b, DefenceDodge)
		pa, _ := defenceValue(b, DefenceParry)
		for _, x := range b.Conditions {
			for _, m := range x.Modifiers {
				if m.On == AppliesDodge && x.From <= s.Round {
					dg.Value += m.Value
				}
			}
		}
		kind = DefenceDodge
		if pa.Value > dg.Value && p.weapon.Damage != "bullet" {
			kind = DefenceParry
		}
	}
	n := len(p.spent)
	if err := s.defenceTerms(cmd, p, b, kind, act); err != nil {
		return err
	}
	if want == DefenceWait {
		// Only the attack is rolled now; the answer spends the defence
		// and what the defence's modifiers use up.
		p.waits, p.def, p.spent = true, nil, p.spent[:n]
	}
	return nil
}

// canDefend returns the action b's defence against a would spend, or why
// b cannot defend: unable to act, unaware (without Situational Awareness)
// or with no defence left this round (C-2, C-4, C-6, C-7).
func (s *State) canDefend(a, b *fray.Combatant, unaware bool) (ActionData, string) {
	act, err := s.defenceAction(b.Name, a.Name)
	switch {
	case out(b, "defend") != nil:
		return act, fray.ErrorMessage(out(b, "defend"))
	case unaware && quality(b, QualityAwareness) == 0:
		return act, b.Name + " is unaware of " + a.Name + " and cannot defend"
	case err != nil:
		return act, fray.ErrorMessage(err)
	}
	return act, ""
}

// defenceTerms plans b's defence of the kind given, spending act: D10 +
// Dexterity + the defence's skill, the extra action's penalty, Full
// Defence, conditions, Size against a dodge, and the GM's dmod=.
func (s *State) defenceTerms(cmd fray.Command, p *planned, b *fray.Combatant, kind string, act ActionData) error {
	dex, err := stat(b, "dexterity")
	if err != nil {
		return err
	}
	sk, _ := defenceValue(b, kind)
	p.dmod = []fray.Modifier{{Source: "Dexterity", Value: dex}, sk}
	if act.Kind == ActionExtra {
		p.dmod = append(p.dmod, fray.Modifier{Source: "extra action", Value: s.Budget(b.Name).Next})
	}
	if s.char(b.Name).Stance == StanceDefence {
		p.dmod = append(p.dmod, fray.Modifier{Source: "Full Defence", Value: FullDefenceBonus})
	}
	cm, spent := engine.Modifiers(b, nil, fray.AppliesDefence, s.Round)
	p.dmod, p.spent = append(p.dmod, cm...), append(p.spent, spent...)
	if kind == DefenceDodge {
		for _, x := range b.Conditions {
			for _, m := range x.Modifiers {
				if m.On == AppliesDodge && x.From <= s.Round {
					p.dmod = append(p.dmod, fray.Modifier{Source: x.Name, Value: m.Value})
				}
			}
		}
	}
	if p.dmod, err = gm(cmd, OptDMod, p.dmod); err != nil {
		return err
	}
	p.def = &act
	p.d.Defence, p.d.DefValue = kind, sum(p.dmod)
	p.roll.Opposed, p.roll.Defence = true, p.d.DefValue
	return nil
}

// damageFor is the damage of a hit with the given success levels (C-5):
// (base + levels − armour) × the type multiplier, at least 0. A barrage
// that hits lands one bullet per success level, at least one and at most
// the shots fired, each (base − armour) × the multiplier (ours: the seed
// gives the barrage's roll but not how many of its bullets land).
func (p *planned) damageFor(levels int) int {
	base := p.weapon.Rank
	if p.barage {
		n := min(p.d.Shots, max(1, levels))
		return n * max(0, base-p.armour) * p.mult
	}
	return max(0, base+levels-p.armour) * p.mult
}

// TargetDifficulty is what a roll alone aims at (fray.Odds.TargetKind):
// 9, the total that succeeds. It is a wire string.
const TargetDifficulty = "difficulty"

// Band names.
const (
	BandLost = "no attack (Notice failed)"
	BandMiss = "miss"
)

// band names an outcome as the odds and the event say it: an attack is
// a miss (no defence roll) or defended, else a hit with its success
// levels; any other roll a failure or its success levels.
func (p *planned) band(success bool, levels int) string {
	switch {
	case !p.attacks() && !success:
		return "failure"
	case !p.attacks():
		return levelWords(levels)
	case !success && p.roll.Opposed:
		return "defended"
	case !success:
		return BandMiss
	}
	return "hit, " + levelWords(levels)
}

// attacks reports whether the planned roll settles an attack: the attack
// itself or an answer to one that waits.
func (p *planned) attacks() bool { return p.d.Roll == RollAttack || isAnswer(p.d.Roll) }

// odds returns the exact odds of the planned roll, from the distribution
// of the D10 package dice gives (d10): each attack total's chance times
// the chance the defence total stays below it.
func (p *planned) odds(cmdText string) (fray.Odds, error) {
	o := fray.Odds{Command: cmdText, For: p.d.Name, Roll: p.d.Roll, Expr: testExpr(p.roll.Value), Target: TestSuccess, TargetKind: TargetDifficulty}
	mods := make([]fray.Modifier, 0, len(p.mods)+len(p.dmod)+len(p.nmods))
	mods = append(mods, p.mods...)
	att := d10Plus(p.roll.Value)
	if w := p.known; w != nil {
		// An answer: the attack's total is known.
		att, o.For = knownDist(w.Total), p.d.Target
		o.Expr = p.d.Name + "'s attack total " + strconv.Itoa(w.Total) + " (" + testExpr(w.Value) + " rolled " + strconv.Itoa(w.Face) + ")"
		if p.roll.Opposed {
			o.Expr = testExpr(p.roll.Defence) + " (" + p.d.Defence + ") against " + o.Expr
		} else {
			// Taken: nobody rolls; the attack's total meets 9.
			o.For = p.d.Name
			o.Expr = strconv.Itoa(w.Total) + " (" + testExpr(w.Value) + " rolled " + strconv.Itoa(w.Face) + "; " + p.d.Target + " takes it)"
		}
	}
	var def *dice.Dist
	if p.roll.Opposed {
		def = d10Plus(p.roll.Defence)
		switch {
		case p.known != nil:
		case p.attacks():
			o.Expr += " against " + p.d.Target + "'s " + p.d.Defence + " " + testExpr(p.roll.Defence)
			if p.waits {
				o.Expr += " (the better defence: " + p.d.Target + " answers with dodge, parry or take)"
			}
		default:
			o.Expr += " against the opponent's " + testExpr(p.roll.Defence)
		}
		o.TargetKind, o.Target = "", 0
		for _, m := range p.dmod {
			mods = append(mods, fray.Modifier{Source: "defence: " + m.Source, Who: m.Who, Value: m.Value})
		}
	}
	q := 1.0 // the chance the attack is made (a blind attacker's Notice check)
	if p.notice != nil {
		q = d10Plus(p.notice.Value).AtLeast(TestSuccess)
		o.Bands = append(o.Bands, fray.Band{Name: BandLost, P: 1 - q})
		for _, m := range p.nmods {
			mods = append(mods, fray.Modifier{Source: "Notice check: " + m.Source, Who: m.Who, Value: m.Value})
		}
	}
	if p.d.Note != "" {
		o.Expr = p.d.Note + " — " + o.Expr
	}
	o.Modifiers = mods
	lo, hi := att.Min, att.Max()
	minL := SuccessLevels(lo)
	ps := make([]float64, SuccessLevels(hi)-minL+1)
	fail := 0.0
	for a := lo; a <= hi; a++ {
		w := 0.0 // the chance a total of a wins
		switch {
		case def != nil:
			w = def.AtMost(a - 1)
		case a >= TestSuccess:
			w = 1
		}
		pa := att.Prob(a)
		ps[SuccessLevels(a)-minL] += pa * w
		fail += pa * (1 - w)
	}
	o.Bands = slices.Grow(o.Bands, 1+len(ps))
	o.Bands = append(o.Bands, fray.Band{Name: p.band(false, 0), P: fail * q})
	for i, pr := range ps {
		if pr > 0 { // levels the roll cannot win with are left out
			o.Bands = append(o.Bands, fray.Band{Name: p.band(true, minL+i), P: pr * q})
		}
	}
	if !p.attacks() {
		o.Mean = att.Mean()
		o.Dist = make([]fray.Point, 0, len(att.P))
		for i, pr := range att.P {
			o.Dist = append(o.Dist, fray.Point{V: att.Min + i, P: pr})
		}
		return o, nil
	}
	// The damage each band deals; bands with the same damage share a point.
	o.DistOf = fray.DistDamage
	add := func(v int, pr float64) {
		if pr == 0 {
			return
		}
		o.Mean += float64(v) * pr
		for i := range o.Dist {
			if o.Dist[i].V == v {
				o.Dist[i].P += pr
				return
			}
		}
		o.Dist = append(o.Dist, fray.Point{V: v, P: pr})
	}
	add(0, 1-q+fail*q)
	for i, pr := range ps {
		add(p.damageFor(minL+i), pr*q)
	}
	slices.SortFunc(o.Dist, func(a, b fray.Point) int { return a.V - b.V })
	return o, nil
}

// planTest plans "test NAME consciousness|survival [minutes=N] [mod=N]"
// (C-6).
func (s *State) planTest(cmd fray.Command) (*planned, error) {
	const usage = "test NAME consciousness|survival [minutes=N] [mod=±N]"
	if err := engine.CheckArgs(cmd, 2, 2, usage); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd, OptMod, OptMinutes); err != nil {
		return nil, err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return nil, err
	}
	kind := strings.ToLower(cmd.Args[1])
	if kind != "consciousness" && kind != "survival" {
		return nil, fray.Errorf(fray.EINVALID, "test %s %s: say consciousness or survival.", quoteName(c.Name), engine.Clip(cmd.Args[1]))
	}
	if c.Condition(CondDead) != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s is dead.", c)
	}
	lp, err := needLife(c)
	if err != nil {
		return nil, err
	}
	con, err := stat(c, "constitution")
	if err != nil {
		return nil, err
	}
	wil, err := stat(c, "willpower")
	if err != nil {
		return nil, err
	}
	p := &planned{d: rollData{Name: c.Name, Roll: RollTest, What: kind}}
	p.mods = []fray.Modifier{{Source: "Constitution", Value: con}, {Source: "Willpower", Value: wil}}
	if kind == "consciousness" {
		if lp.Value > 0 {
			return nil, fray.Errorf(fray.EINVALID, "%s has %d Life Points; the Consciousness test is at 0 or fewer (C-6).", c, lp.Value)
		}
		if c.Condition(CondUnconscious) != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s is unconscious already.", c)
		}
		if _, ok := cmd.Opts[OptMinutes]; ok {
			return nil, fray.Errorf(fray.EINVALID, "minutes= is for the Survival test.")
		}
		// −1 per point below zero; Resistance (Pain) cancels 1 per level
		// (never turning the penalty into a bonus).
		if lp.Value < 0 {
			p.mods = append(p.mods, fray.Modifier{Source: "below zero (" + strconv.Itoa(lp.Value) + " LP)", Value: lp.Value})
			if r := min(quality(c, QualityPain), -lp.Value); r > 0 {
				p.mods = append(p.mods, fray.Modifier{Source: QualityPain, Value: r})
			}
		}
	} else {
		if lp.Value > SurvivalBelow {
			return nil, fray.Errorf(fray.EINVALID, "%s has %d Life Points; the Survival test is at %d or fewer (C-6).", c, lp.Value, SurvivalBelow)
		}
		if c.Condition(CondStabilised) != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s has been stabilised; no Survival test until hurt again.", c)
		}
		// −1 per full 10 below zero: −56 is −5.
		p.mods = append(p.mods, fray.Modifier{Source: "per 10 below zero (" + strconv.Itoa(lp.Value) + " LP)", Value: -(-lp.Value / 10)})
		if h := quality(c, QualityHardToKill); h > 0 {
			p.mods = append(p.mods, fray.Modifier{Source: QualityHardToKill, Value: h})
		}
		if n, ok, err := intOpt(cmd, OptMinutes, 0, 1000); err != nil {
			return nil, err
		} else if ok && n > 0 {
			p.mods = append(p.mods, fray.Modifier{Source: "minutes since the wound", Value: -n})
		}
	}
	if p.mods, err = gm(cmd, OptMod, p.mods); err != nil {
		return nil, err
	}
	p.roll = TestRoll{Value: sum(p.mods)}
	return p, checkRoll(p.roll)
}

// planFree plans "free NAME [with=acrobatics|crime]" and "kipup NAME":
// Dexterity + Acrobatics (or Crime) to get out of being tied up, and
// Dexterity + Acrobatics with 2 success levels to kip up (C-6).
func (s *State) planFree(cmd fray.Command) (*planned, error) {
	usage := "kipup NAME [mod=±N]"
	opts := []string{OptMod}
	if cmd.Name == RollFree {
		usage, opts = "free NAME [with=Acrobatics|Crime] [mod=±N]", append(opts, OptWith)
	}
	if err := engine.CheckArgs(cmd, 1, 1, usage); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd, opts...); err != nil {
		return nil, err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return nil, err
	}
	need := CondTied
	if cmd.Name == RollKipUp {
		need = CondDown
	}
	if c.Condition(need) == nil {
		return nil, fray.Errorf(fray.EINVALID, "%s is not %s.", c, need)
	}
	for _, x := range []string{CondDead, CondUnconscious} {
		if c.Condition(x) != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s is %s.", c, x)
		}
	}
	if cmd.Name == RollKipUp && c.Condition(CondTied) != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s is tied up; get free first.", c)
	}
	dex, err := stat(c, "dexterity")
	if err != nil {
		return nil, err
	}
	sk := "Acrobatics"
	if w, ok := cmd.Opts[OptWith]; ok {
		switch squash(w) {
		case "acrobatics":
		case "crime":
			sk = "Crime"
		default:
			return nil, fray.Errorf(fray.EINVALID, "with=%s: one gets free with Acrobatics or Crime.", engine.Clip(w))
		}
	}
	v, name, _ := skill(c, sk)
	p := &planned{d: rollData{Name: c.Name, Roll: cmd.Name, What: "dexterity+" + name}}
	p.mods = []fray.Modifier{{Source: "Dexterity", Value: dex}, {Source: name, Value: v}}
	cm, spent := engine.Modifiers(c, nil, fray.AppliesCheck, s.Round)
	p.mods, p.spent = append(p.mods, cm...), spent
	if p.mods, err = gm(cmd, OptMod, p.mods); err != nil {
		return nil, err
	}
	p.roll = TestRoll{Value: sum(p.mods)}
	return p, checkRoll(p.roll)
}

// checkRoll refuses a roll whose values the dice cannot take.
func checkRoll(t TestRoll) error {
	if err := t.check(); err != nil {
		return &fray.Error{Code: fray.EINVALID, Message: "The roll's value " + strconv.Itoa(t.Value) + " (or its defence's) is out of bounds.", Err: err}
	}
	return nil
}

// plan plans the roll of a command, for Decide and Odds.
func (s *State) plan(cmd fray.Command) (*planned, error) {
	switch cmd.Name {
	case RollCheck:
		return s.planCheck(cmd)
	case RollAttack:
		if _, ok := cmd.Opts[OptWith]; !ok {
			return nil, fray.Errorf(fray.EINVALID, "attack without with= spends the action only and rolls nothing; name the weapon: attack ATTACKER TARGET with=WEAPON.")
		}
		return s.planAttack(cmd)
	case RollTest:
		return s.planTest(cmd)
	case RollFree, RollKipUp:
		return s.planFree(cmd)
	case RollDodge, RollParry, RollTake:
		return s.planAnswer(cmd)
	}
	return nil, fray.Errorf(fray.EINVALID, "%s rolls no dice, so it has no odds; the rolls are check, attack (with=), dodge, parry, take, test, free and kipup.", cmd.Name)
}

// Odds returns the exact odds of the roll a command would make (E-6).
func (*System) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	s, err := get(st)
	if err != nil {
		return fray.Odds{}, err
	}
	if err := s.awaiting(cmd); err != nil {
		return fray.Odds{}, err
	}
	p, err := s.plan(cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	return p.odds(cmd.String())
}

// rollD10 rolls one D10 through the Roller and adds value.
func rollD10(r fray.Roller, who string, value int) (fray.Roll, *TestSide, error) {
	roll, err := r.Roll(who, TestDice)
	if err != nil {
		return roll, nil, err
	}
	t := roll.Total + value
	return roll, &TestSide{Expr: testExpr(value), Roll: roll.Total, Total: t, Levels: SuccessLevels(t)}, nil
}

// rollPlanned rolls a planned roll and returns its event, with every die
// and the odds it had: the blind attacker's Notice check first, then the
// roll, then the defence.
func (p *planned) rollPlanned(cmd fray.Command, r fray.Roller) (fray.Event, error) {
	o, err := p.odds(cmd.String())
	if err != nil {
		return fray.Event{}, err
	}
	var rolls []fray.Roll
	p.d.Value, p.d.Difficulty = p.roll.Value, TestSuccess
	if p.notice != nil {
		roll, side, err := rollD10(r, p.d.Name+" (Notice check)", p.notice.Value)
		if err != nil {
			return fray.Event{}, err
		}
		rolls = append(rolls, roll)
		if side.Total < TestSuccess {
			p.d.Total, p.d.Band = side.Total, BandLost
			ev, err := fray.NewEvent(EventRolled, p.d, rolls...)
			ev.Odds = &o
			return ev, err
		}
		p.d.Noticed = true
	}
	var att *TestSide
	if w := p.known; w != nil {
		att = &TestSide{Expr: testExpr(w.Value), Roll: w.Face, Total: w.Total, Levels: SuccessLevels(w.Total)}
	} else {
		who := p.d.Name
		if p.d.Roll == RollAttack {
			who += " (attack with " + p.d.Weapon + ")"
		}
		roll, side, err := rollD10(r, who, p.roll.Value)
		if err != nil {
			return fray.Event{}, err
		}
		rolls, att = append(rolls, roll), side
		if p.waits {
			w := p.waiting(roll.Total, side.Total)
			ev, err := fray.NewEvent(EventWaits, waitData{Waiting: w, Band: waitBand(w)}, rolls...)
			ev.Odds = &o
			return ev, err
		}
	}
	var def *TestSide
	if p.roll.Opposed {
		dwho := "opposed"
		if p.attacks() {
			dwho = p.d.Target + " (" + p.d.Defence + ")"
		}
		droll, side, err := rollD10(r, dwho, p.roll.Defence)
		if err != nil {
			return fray.Event{}, err
		}
		rolls, def = append(rolls, droll), side
		p.d.Difficulty = side.Total
	}
	res := p.roll.settle(att, def)
	p.d.Total, p.d.Success, p.d.Levels = res.Total, res.Success, res.Levels
	p.d.Band = p.band(res.Success, res.Levels)
	if p.attacks() && res.Success {
		p.d.Dealt = p.damageFor(res.Levels)
	}
	ev, err := fray.NewEvent(EventRolled, p.d, rolls...)
	ev.Odds = &o
	return ev, err
}

// decideResolution decides the commands of resolution; handled is false
// for any other command. Their events follow from the state before the
// command alone, so they are made without a working copy of the state
// (the engine applies them in order).
func (s *State) decideResolution(cmd fray.Command, r fray.Roller) (evs []fray.Event, handled bool, err error) {
	emit := func(typ string, data any) error {
		ev, ok := data.(fray.Event)
		if !ok {
			var err error
			if ev, err = fray.NewEvent(typ, data); err != nil {
				return err
			}
		}
		if evs == nil {
			evs = make([]fray.Event, 0, 4) // room for a roll and what follows from it
		}
		evs = append(evs, ev)
		return nil
	}
	switch cmd.Name {
	case RollAttack:
		if _, ok := cmd.Opts[OptWith]; !ok {
			return nil, false, nil
		}
		err = s.decideStrike(cmd, r, emit)
	case RollDodge, RollParry, RollTake:
		err = s.decideAnswer(cmd, r, emit)
	case RollCheck, RollTest, RollFree, RollKipUp:
		err = s.decideRoll(cmd, r, emit)
	case "damage", "heal":
		err = s.decideDamage(cmd, emit)
	case "complication":
		err = s.decideComplication(cmd, emit)
	case "stand":
		err = s.decideStand(cmd, emit)
	case "stabilise", "stabilize":
		err = s.decideStabilise(cmd, emit)
	case "reload":
		err = s.decideReload(cmd, emit)
	case "spend":
		err = s.decideSpend(cmd, emit)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return evs, true, nil
}

// decideRoll decides check, test, free and kipup.
func (s *State) decideRoll(cmd fray.Command, r fray.Roller, emit emitFunc) error {
	p, err := s.plan(cmd)
	if err != nil {
		return err
	}
	ev, err := p.rollPlanned(cmd, r)
	if err != nil {
		return err
	}
	if err := emit("", ev); err != nil {
		return err
	}
	c := s.Find(p.d.Name)
	switch p.d.Roll {
	case RollTest:
		due, fail := CondConscious, CondUnconscious
		if p.d.What == "survival" {
			due, fail = CondSurvival, CondDead
		}
		if c.Condition(due) != nil {
			if err := emit(fray.EventCleared, fray.ClearedData{Name: c.Name, Condition: due}); err != nil {
				return err
			}
		}
		if !p.d.Success {
			if err := setCondition(s, emit, c.Name, fray.Condition{Name: fail, Since: s.Round, Note: "failed the " + p.d.What + " test"}); err != nil {
				return err
			}
		}
	case RollFree:
		if p.d.Success {
			err = emit(fray.EventCleared, fray.ClearedData{Name: c.Name, Condition: CondTied})
		}
	case RollKipUp:
		if p.d.Levels >= KipUpLevels {
			err = emit(fray.EventCleared, fray.ClearedData{Name: c.Name, Condition: CondDown})
		}
	}
	if err != nil {
		return err
	}
	return spend(s, p.spent, emit)
}

func spend(s *State, spent []engine.ConditionRef, emit emitFunc) error {
	for _, r := range spent {
		if c := s.Find(r.Name); c == nil || c.Condition(r.Condition) == nil {
			continue
		}
		if err := emit(fray.EventCleared, fray.ClearedData{Name: r.Name, Condition: r.Condition}); err != nil {
			return err
		}
	}
	return nil
}

func setCondition(s *State, emit emitFunc, name string, x fray.Condition) error {
	return emit(fray.EventCondition, fray.ConditionData{Name: name, Condition: x})
}

// decideStrike decides an attack with a weapon: the actions it spends,
// the roll against the defence, ammunition, damage and what damage brings
// (C-4 … C-8).
func (s *State) decideStrike(cmd fray.Command, r fray.Roller, emit emitFunc) error {
	p, err := s.plan(cmd)
	if err != nil {
		return err
	}
	ev, err := p.rollPlanned(cmd, r)
	if err != nil {
		return err
	}
	if err := emit(EventAttack, p.att); err != nil {
		return err
	}
	if p.def != nil && p.d.Noticed == (p.notice != nil) {
		if err := emit(EventDefence, *p.def); err != nil {
			return err
		}
	}
	if p.foes >= 2 {
		x := fray.Condition{Name: CondOutnumbered, Since: s.Round, Until: &fray.Anchor{Round: s.Round, Edge: fray.EdgeEnd},
			Modifiers: []fray.Modifier{{Source: CondOutnumbered, Value: OutnumberedBonus * min(p.foes, MaxAttackers), On: fray.AppliesAttacked}},
			Note:      strconv.Itoa(p.foes) + " attackers this round"}
		if err := setCondition(s, emit, p.d.Target, x); err != nil {
			return err
		}
	}
	if err := emit("", ev); err != nil {
		return err
	}
	if p.ammo && p.d.Noticed == (p.notice != nil) {
		if err := emit(EventShot, ammoData{Name: p.d.Name, Weapon: p.weapon.Name, Shots: max(p.d.Shots, 1)}); err != nil {
			return err
		}
	}
	return s.settle(p, emit)
}

// settle ends a planned attack once its rolls are emitted: the
// conditions it used up are spent, and a hit deals its damage.
func (s *State) settle(p *planned, emit emitFunc) error {
	if err := spend(s, p.spent, emit); err != nil {
		return err
	}
	if p.d.Success {
		return s.hurt(emit, p.d.Target, p.d.Dealt, p.d.Name)
	}
	return nil
}

// hurt emits damage (negative: healing) and what it brings (C-6): Badly
// Injured from Life Points, and a Consciousness or Survival test due.
func (s *State) hurt(emit emitFunc, name string, n int, by string) error {
	c := s.Find(name)
	lp, err := needLife(c)
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if err := emit(EventDamaged, damageData{Name: c.Name, Amount: n, By: by}); err != nil {
		return err
	}
	now := min(lp.Value-n, lp.Max)
	if n < 0 {
		now = min(lp.Value-n, max(lp.Max, lp.Value))
	}
	// Badly Injured follows Life Points.
	pen := 0
	switch {
	case now <= VeryBadlyInjured:
		pen = -4
	case now <= BadlyInjured:
		pen = -2
	}
	old := 0
	if x := c.Condition(CondBadlyInjured); x != nil && len(x.Modifiers) > 0 {
		old = x.Modifiers[0].Value
	}
	switch {
	case pen != 0 && pen != old:
		note := "10 or fewer Life Points"
		if pen == -4 {
			note = "5 or fewer Life Points"
		}
		err = setCondition(s, emit, c.Name, fray.Condition{Name: CondBadlyInjured, Since: s.Round, Note: note,
			Modifiers: []fray.Modifier{{Source: CondBadlyInjured, Value: pen, On: fray.AppliesAttack}, {Source: CondBadlyInjured, Value: pen, On: fray.AppliesDefence}}})
	case pen == 0 && c.Condition(CondBadlyInjured) != nil:
		err = emit(fray.EventCleared, fray.ClearedData{Name: c.Name, Condition: CondBadlyInjured})
	}
	if err != nil {
		return err
	}
	if c.Condition(CondDead) != nil {
		return nil
	}
	if n > 0 {
		if now <= 0 && c.Condition(CondUnconscious) == nil {
			pen := now + min(quality(c, QualityPain), -now)
			err = setCondition(s, emit, c.Name, fray.Condition{Name: CondConscious, Since: s.Round,
				Note: "due: Constitution + Willpower " + signed(pen) + "; test " + quoteName(c.Name) + " consciousness"})
		}
		if err == nil && now <= SurvivalBelow {
			if c.Condition(CondStabilised) != nil {
				if err = emit(fray.EventCleared, fray.ClearedData{Name: c.Name, Condition: CondStabilised}); err != nil {
					return err
				}
			}
			err = setCondition(s, emit, c.Name, fray.Condition{Name: CondSurvival, Since: s.Round,
				Note: "due: Constitution + Willpower " + signed(-(-now/10)+quality(c, QualityHardToKill)) + ", then each minute at a further −1 until stabilised; test " + quoteName(c.Name) + " survival"})
		}
		return err
	}
	for _, x := range []struct {
		cond string
		ok   bool
	}{{CondConscious, now > 0}, {CondSurvival, now > SurvivalBelow}, {CondStabilised, now > SurvivalBelow}} {
		if x.ok && c.Condition(x.cond) != nil {
			if err := emit(fray.EventCleared, fray.ClearedData{Name: c.Name, Condition: x.cond}); err != nil {
				return err
			}
		}
	}
	return nil
}

// decideDamage decides "damage NAME N" and "heal NAME N": Life Points
// lost or regained at the GM's word, with what they bring (C-5, C-6).
func (s *State) decideDamage(cmd fray.Command, emit emitFunc) error {
	if err := engine.CheckArgs(cmd, 2, 2, cmd.Name+" NAME N"); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd, "by"); err != nil {
		return err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return err
	}
	n, err := engine.Amount(cmd, 1, 1, "Life Points")
	if err != nil {
		return err
	}
	if _, err := needLife(c); err != nil {
		return err
	}
	by := ""
	if v, ok := cmd.Opts["by"]; ok {
		b, err := s.Lookup(v)
		if err != nil {
			return err
		}
		by = b.Name
	}
	if cmd.Name == "heal" {
		if c.Condition(CondDead) != nil {
			return fray.Errorf(fray.EINVALID, "%s is dead.", c)
		}
		n = -n
	}
	return s.hurt(emit, c.Name, n, by)
}

// Complications the complication command sets (C-6).
var complications = map[string]func(c *fray.Combatant) fray.Condition{
	"blind": func(c *fray.Combatant) fray.Condition {
		if quality(c, QualityEcholocation) > 0 {
			return fray.Condition{Name: CondBlind, Note: "Echolocation: unaffected"}
		}
		return fray.Condition{Name: CondBlind, Note: "a Perception + Notice check before each attack",
			Modifiers: []fray.Modifier{{Source: CondBlind, Value: BlindPenalty, On: fray.AppliesAll}}}
	},
	"bound": func(*fray.Combatant) fray.Condition {
		return fray.Condition{Name: CondBound, Note: "arms bound in front: −2 to punches, kicks as usual"}
	},
	"tied": func(*fray.Combatant) fray.Condition {
		return fray.Condition{Name: CondTied, Note: "no attack or defence until free (free NAME with=Acrobatics|Crime)"}
	},
	"large": func(*fray.Combatant) fray.Condition {
		return fray.Condition{Name: CondLarge, Note: "larger than normal size: a penalty to dodge (and to stealth, at the GM's word)",
			Modifiers: []fray.Modifier{{Source: CondLarge, Value: LargePenalty, On: AppliesDodge}}}
	},
	"down": func(*fray.Combatant) fray.Condition {
		return fray.Condition{Name: CondDown, Note: "until up: stand NAME (the round) or kipup NAME (2 success levels)",
			Modifiers: []fray.Modifier{{Source: CondDown, Value: DownPenalty, On: fray.AppliesAttack}, {Source: CondDown, Value: DownPenalty, On: fray.AppliesDefence}}}
	},
}

// decideComplication decides "complication NAME blind|bound|tied|down|large
// [mod=-N] [until=…] [by=NAME]".
func (s *State) decideComplication(cmd fray.Command, emit emitFunc) error {
	const usage = "complication NAME blind|bound|tied|down|large [mod=-N] [until=…] [by=NAME]"
	if err := engine.CheckArgs(cmd, 2, 2, usage); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd, engine.KeyUntil, engine.KeyBy, OptMod); err != nil {
		return err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return err
	}
	kind := strings.ToLower(cmd.Args[1])
	mk, ok := complications[kind]
	if !ok {
		return fray.Errorf(fray.EINVALID, "%s is not a complication this command sets; say blind, bound, tied, down or large (Badly Injured, Outnumbered and the tests come by themselves).", engine.Clip(cmd.Args[1]))
	}
	x := mk(c)
	if n, ok, err := intOpt(cmd, OptMod, -20, -1); err != nil {
		return err
	} else if ok && kind != "large" {
		return fray.Errorf(fray.EINVALID, "mod= gives Size's penalty to dodge (complication NAME large mod=-N); %s has its own.", x.Name)
	} else if ok {
		x.Modifiers[0].Value = n
	}
	x.Since = s.Round
	if v, ok := cmd.Opts[engine.KeyUntil]; ok {
		if x.Until, err = engine.ParseUntil(&s.Encounter, c.Name, v); err != nil {
			return err
		}
	}
	if v, ok := cmd.Opts[engine.KeyBy]; ok {
		b, err := s.Lookup(v)
		if err != nil {
			return err
		}
		x.By = b.Name
	}
	if c.Condition(x.Name) != nil {
		return fray.Errorf(fray.EINVALID, "%s is %s already.", c, x.Name)
	}
	return setCondition(s, emit, c.Name, x)
}

// decideStand decides "stand NAME": up from Knocked Down the slow way,
// which takes the round: no action is left (C-6).
func (s *State) decideStand(cmd fray.Command, emit emitFunc) error {
	c, err := engine.OneName(&s.Encounter, cmd, "stand NAME")
	if err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return err
	}
	if c.Condition(CondDown) == nil {
		return fray.Errorf(fray.EINVALID, "%s is not knocked down.", c)
	}
	if err := out(c, "stand"); err != nil {
		return err
	}
	if !s.Started || !fray.SameName(s.Current(), c.Name) {
		return fray.Errorf(fray.EINVALID, "Standing takes %s's round: do it on their turn (or kipup %s at any time).", c, quoteName(c.Name))
	}
	if err := emit(EventStood, fray.NameData{Name: c.Name}); err != nil {
		return err
	}
	return emit(fray.EventCleared, fray.ClearedData{Name: c.Name, Condition: CondDown})
}

// decideStabilise decides "stabilise NAME": a medic attends the dying;
// no more Survival tests until hurt again (C-6).
func (s *State) decideStabilise(cmd fray.Command, emit emitFunc) error {
	c, err := engine.OneName(&s.Encounter, cmd, "stabilise NAME")
	if err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return err
	}
	lp, err := needLife(c)
	if err != nil {
		return err
	}
	switch {
	case c.Condition(CondDead) != nil:
		return fray.Errorf(fray.EINVALID, "%s is dead.", c)
	case lp.Value > SurvivalBelow:
		return fray.Errorf(fray.EINVALID, "%s has %d Life Points and is not dying (%d or fewer).", c, lp.Value, SurvivalBelow)
	case c.Condition(CondStabilised) != nil:
		return fray.Errorf(fray.EINVALID, "%s is stabilised already.", c)
	}
	if c.Condition(CondSurvival) != nil {
		if err := emit(fray.EventCleared, fray.ClearedData{Name: c.Name, Condition: CondSurvival}); err != nil {
			return err
		}
	}
	return setCondition(s, emit, c.Name, fray.Condition{Name: CondStabilised, Since: s.Round, Note: "no Survival tests until hurt again"})
}

// firearm returns the combatant's weapon with a clip named name, or their
// only one when name is empty.
func firearm(c *fray.Combatant, name string) (fray.Power, error) {
	var guns []fray.Power
	for _, p := range c.Powers {
		if p.Kind == fray.PowerKindWeapon && p.Clip > 0 {
			if name != "" && fray.SameName(p.Name, name) {
				return p, nil
			}
			guns = append(guns, p)
		}
	}
	switch {
	case len(guns) == 0:
		return fray.Power{}, fray.Errorf(fray.EINVALID, "%s has no weapon with a clip on their sheet.", c)
	case name != "":
		return fray.Power{}, fray.Errorf(fray.ENOTFOUND, "%s has no weapon with a clip named %q (%s).", c, engine.Clip(name), gunList(guns))
	case len(guns) > 1:
		return fray.Power{}, fray.Errorf(fray.EINVALID, "%s has several firearms (%s); name one.", c, gunList(guns))
	}
	return guns[0], nil
}

func gunList(guns []fray.Power) string {
	names := make([]string, len(guns))
	for i, g := range guns {
		names[i] = g.Name
	}
	return strings.Join(names, ", ")
}

// decideReload decides "reload NAME [WEAPON]": an action on one's turn,
// spending the free attack or an extra action (C-8).
func (s *State) decideReload(cmd fray.Command, emit emitFunc) error {
	if err := engine.CheckArgs(cmd, 1, 2, "reload NAME [WEAPON]"); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return err
	}
	w, err := firearm(c, cmd.Arg(1))
	if err != nil {
		return err
	}
	if !s.Started || !fray.SameName(s.Current(), c.Name) {
		return fray.Errorf(fray.EINVALID, "Reloading is an action on %s's own turn (C-8).", c)
	}
	if err := out(c, "reload"); err != nil {
		return err
	}
	if ammo(c, w) == w.Clip {
		return fray.Errorf(fray.EINVALID, "%s's %s is fully loaded (%d shots).", c, w.Name, w.Clip)
	}
	ch, b := s.char(c.Name), s.Budget(c.Name)
	d := reloadData{Name: c.Name, Weapon: w.Name}
	switch {
	case ch.Stood:
		return fray.Errorf(fray.EINVALID, "%s spent this round standing up and has no action left.", c)
	case b.Attack:
		d.Kind = ActionFree
	case b.Extras > 0:
		d.Kind, d.Modifier = ActionExtra, b.Next
	default:
		return fray.Errorf(fray.EINVALID, "%s has no action left this round to reload with (C-2).", c)
	}
	return emit(EventReloaded, d)
}

// decideSpend decides "spend NAME ammo=N [with=WEAPON]": shots fired
// without a roll.
func (s *State) decideSpend(cmd fray.Command, emit emitFunc) error {
	if err := engine.CheckArgs(cmd, 1, 1, "spend NAME ammo=N [with=WEAPON]"); err != nil {
		return err
	}
	if err := engine.CheckOpts(cmd, OptAmmo, OptWith); err != nil {
		return err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return err
	}
	w, err := firearm(c, cmd.Opts[OptWith])
	if err != nil {
		return err
	}
	n, ok, err := intOpt(cmd, OptAmmo, 1, 1000)
	if err != nil {
		return err
	}
	if !ok {
		return fray.Errorf(fray.EINVALID, "Say how many shots: spend %s ammo=N.", quoteName(c.Name))
	}
	if left := ammo(c, w); left < n {
		return fray.Errorf(fray.EINVALID, "%s's %s has %d shots left, not %d.", c, w.Name, left, n)
	}
	return emit(EventShot, ammoData{Name: c.Name, Weapon: w.Name, Shots: n})
}

// applyResolution applies the events of resolution; handled is false for
// any other event.
func (s *State) applyResolution(ev fray.Event) (handled bool, err error) {
	switch ev.Type {
	case EventRolled:
		var d rollData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if isAnswer(d.Roll) {
			return true, s.applyAnswer(ev, d)
		}
		if d.Roll == RollAttack && d.Target != "" {
			ch := s.char(d.Target)
			if ch == nil || s.Find(d.Name) == nil {
				return true, fray.Errorf(fray.EINVALID, "Event %d is an attack between %q and %q, who are not both present.", ev.Seq, fray.Mention(d.Name), fray.Mention(d.Target))
			}
			if engine.Index(ch.Foes, d.Name) < 0 {
				ch.Foes = append(ch.Foes, s.Find(d.Name).Name)
			}
		}
	case EventDamaged:
		var d damageData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.Find(d.Name)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d damages %q, who is not present.", ev.Seq, fray.Mention(d.Name))
		}
		t, ok := life(c)
		if !ok {
			return true, fray.Errorf(fray.EINVALID, "Event %d damages %q, who has no Life Points.", ev.Seq, fray.Mention(d.Name))
		}
		if d.Amount < 0 {
			t.Value = min(t.Value-d.Amount, max(t.Max, t.Value))
		} else {
			t.Value = max(t.Value-d.Amount, -100000)
		}
		if c.Tracks == nil {
			c.Tracks = map[string]fray.Track{}
		}
		c.Tracks[TrackLife] = t
	case EventWaits:
		return true, s.applyWaits(ev)
	case EventShot:
		var d ammoData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.Find(d.Name)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d fires %q's weapon, who is not present.", ev.Seq, fray.Mention(d.Name))
		}
		w := c.Power(d.Weapon)
		if w == nil || w.Clip == 0 || d.Shots < 1 {
			return true, fray.Errorf(fray.EINVALID, "Event %d fires %q's %q, which has no clip.", ev.Seq, fray.Mention(d.Name), d.Weapon)
		}
		if c.Tracks == nil {
			c.Tracks = map[string]fray.Track{}
		}
		c.Tracks[ammoKey(w.Name)] = fray.Track{Value: max(ammo(c, *w)-d.Shots, 0), Max: w.Clip}
	case EventReloaded:
		var d reloadData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c, ch := s.Find(d.Name), s.char(d.Name)
		if c == nil || ch == nil || !fray.SameName(d.Name, s.Current()) {
			return true, fray.Errorf(fray.EINVALID, "Event %d reloads for %q out of turn.", ev.Seq, fray.Mention(d.Name))
		}
		w := c.Power(d.Weapon)
		if w == nil || w.Clip == 0 {
			return true, fray.Errorf(fray.EINVALID, "Event %d reloads %q's %q, which has no clip.", ev.Seq, fray.Mention(d.Name), d.Weapon)
		}
		if d.Kind == ActionExtra {
			ch.Extras++
		} else {
			ch.Attacked = true
		}
		if c.Tracks == nil {
			c.Tracks = map[string]fray.Track{}
		}
		c.Tracks[ammoKey(w.Name)] = fray.Track{Value: w.Clip, Max: w.Clip}
		s.Begun = true
		s.say("reloads " + w.Name)
	case EventStood:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		ch := s.char(d.Name)
		if ch == nil || !fray.SameName(d.Name, s.Current()) {
			return true, fray.Errorf(fray.EINVALID, "Event %d stands %q up out of turn.", ev.Seq, fray.Mention(d.Name))
		}
		ch.Stood, s.Begun = true, true
		s.say("stands up")
	default:
		return false, nil
	}
	return true, nil
}
