package vv

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

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

// planAttack checks attack A B … against the rules and works out every
// modifier, without rolling: the acting character's action (V-1, V-3),
// the power and its skill score, Levels, range, facing, prone and cover,
// protection, rolling with the punch and knockback. Only with breakdown
// does it list the modifiers (attackPlan.mods), which only odds shows.
func (s *State) planAttack(cmd fray.Command, breakdown bool) (*attackPlan, error) {
	att, tgt, err := kit.LookupTwo(&s.Encounter, cmd)
	if err != nil {
		return nil, err
	}
	if att.ID == tgt.ID {
		return nil, fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", att)
	}
	p := &attackPlan{att: att, tgt: tgt}
	if p.cost, err = s.checkAction(att); err != nil {
		return nil, err
	}
	if hp, ok := hitPoints(att); ok && hp <= 0 {
		return nil, fray.Errorf(fray.EINVALID, "%s is at %d Hit Points, incapacitated, and cannot attack.", att, hp)
	}
	with := cmd.Opts[KeyWith]
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
	hp, ok := hitPoints(tgt)
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
	// The blows of a simultaneous group held for the target count
	// towards whether this one incapacitates it (V-2); until they land
	// it stands, and is no helpless target.
	a := Attack{Dice: pw.Dice, HitPoints: hp - s.pendingHits(tgt.ID), Gas: typ == DamageGas, Effect: flags.effect || pw.Special != ""}

	// Range (V-9): the distance, the inches the attacker moved this phase
	// before the attack and (house rule) the target's inches this turn.
	dist := intOpt(cmd, KeyRange)
	var rangeWords []string
	p.rangeIn = dist
	if ch := s.char(att.ID); ch != nil && ch.Act.Inches > 0 {
		p.rangeIn += ch.Act.Inches
		if breakdown {
			rangeWords = append(rangeWords, fmt.Sprintf("+%d\" %s moved", ch.Act.Inches, att.Name))
		}
	}
	if s.Setting(SetMoving, House) == House {
		if ch := s.char(tgt.ID); ch != nil && ch.Moved > 0 {
			p.rangeIn += ch.Moved
			if breakdown {
				rangeWords = append(rangeWords, fmt.Sprintf("+%d\" %s moved this turn", ch.Moved, tgt.Name))
			}
		}
	}
	rangeSrc := ""
	if breakdown {
		rangeSrc = fmt.Sprintf("range %d\"", p.rangeIn)
		if len(rangeWords) > 0 {
			rangeSrc += fmt.Sprintf(" (%d\" %s)", dist, strings.Join(rangeWords, " "))
		}
	}

	// Facing (V-10).
	facing := strings.ToLower(cmd.Opts[KeyFacing])
	if facing == "" {
		facing = FacingFront
	}
	defMod, _ := DefenderFacing(facing) // the declaration takes no other word
	attFacing := strings.ToLower(cmd.Opts[KeyAttackerFacing])
	if attFacing == "" {
		attFacing = FacingFront
	}
	attMod, ok := AttackerFacing(attFacing)
	if !ok { // rear or side-rear, the declaration's other words
		return nil, fray.Errorf(fray.EINVALID, "%s cannot attack to their rear (V-10); turn first with facing.", att)
	}
	gm := intOpt(cmd, KeyMod)

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
	// add adds v to the chance, and with breakdown the modifier to the
	// plan's list, its source the words of src put together (only then).
	add := func(v int, src ...string) {
		if breakdown {
			p.mods = append(p.mods, fray.Modifier{Source: strings.Join(src, ""), Value: v})
		}
		chance += v
	}
	if immobile {
		why := " cannot defend"
		if hp <= 0 {
			why = " is incapacitated"
		}
		add(HitNever-1, tgt.Name, why, " (anything but 20)")
	} else {
		skill, score, err := skillScore(att, pw)
		if err != nil {
			return nil, err
		}
		add(score, skill, " skill")
		lvl, ok := att.Stats["level"]
		if !ok {
			return nil, fray.Errorf(fray.EINVALID, "%s has no Level (level on the sheet, or add … level=N) (V-8).", att)
		}
		add(lvl, att.Name, "'s Level")
		switch {
		case flags.inanimate && flags.nonsentient:
			return nil, fray.Errorf(fray.EINVALID, "A target is inanimate or nonsentient, not both.")
		case flags.inanimate || quality(tgt, FlagInanimate):
			add(-InanimateLevel, tgt.Name, " inanimate (Level 0)")
		case flags.nonsentient || quality(tgt, FlagNonsentient):
			add(-NonsentientLevel, tgt.Name, " nonsentient (Level 4)")
		default:
			lvl, ok := tgt.Stats["level"]
			if !ok {
				return nil, fray.Errorf(fray.EINVALID, "%s has no Level (level on the sheet, or add … level=N; or say inanimate or nonsentient) (V-8).", tgt)
			}
			add(-lvl, tgt.Name, "'s Level")
		}
		add(defMod, "from the ", facing)
	}
	add(RangeModifier(p.rangeIn), rangeSrc)
	if attMod != 0 || attFacing != FacingFront {
		add(attMod, "to ", att.Name, "'s ", attFacing)
	}
	if gm != 0 {
		add(gm, "the GM (mod=)")
	}
	cmods, spent := engine.Modifiers(att, tgt, fray.AppliesAttack, s.Round)
	for _, m := range cmods {
		add(m.Value, m.Source)
	}
	p.spent = spent
	a.Hit = HitRoll{Chance: chance, Defenceless: unaware && !noticed}

	// Prone and cover (V-11).
	prone := false
	if ch := s.char(tgt.ID); ch != nil {
		prone = ch.Prone
	}
	a.Special = flags.special || (prone && dist > ProneReach && facing != FacingAbove && facing != FacingBelow)
	a.Cover, a.CoverProtection = intOpt(cmd, KeyCover), intOpt(cmd, KeyCoverProtection)
	if _, ok := cmd.Opts[KeyCoverProtection]; ok && a.Cover == 0 {
		return nil, fray.Errorf(fray.EINVALID, "cover-protection= is the protection of cover; give cover=PCT too.")
	}

	// Damage (V-12, V-15).
	a.Pull = intOpt(cmd, KeyPull)
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
		if a.Divert, err = s.checkDivert(cmd, tgt, unaware && !noticed || immobile, muscle, false, what); err != nil {
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
// A fall is no attack: a victim of surprise may roll with it.
func (s *State) checkDivert(cmd fray.Command, tgt *fray.Combatant, helpless, muscle, fall bool, what string) (int, error) {
	n := intOpt(cmd, KeyDivert)
	if n == 0 {
		return 0, nil
	}
	surprised, first := s.surprised(tgt.ID)
	switch {
	case helpless:
		return 0, fray.Errorf(fray.EINVALID, "%s is not aware of %s, or cannot defend, so cannot roll with the punch (V-13).", tgt, what)
	case surprised && !fall && first == 0:
		return 0, fray.Errorf(fray.EINVALID, "%s was taken by surprise (V-4) and has no action phases in the first turn, so is not aware of %s and cannot roll with the punch (V-13).", tgt, what)
	case surprised && !fall:
		return 0, fray.Errorf(fray.EINVALID, "%s was taken by surprise (V-4): until their first action phase (%d) comes, they are not aware of %s and cannot roll with the punch (V-13).", tgt, first, what)
	case !muscle && s.Setting(SetRolling, House) == House:
		return 0, fray.Errorf(fray.EINVALID, "Only close, muscle-powered attacks and falls can be rolled with (V-13, house rule; say muscle=yes for an arrow or a boomerang, or set rolling=raw); %s is not one.", what)
	case !tracksPower(tgt):
		return 0, fray.Errorf(fray.EINVALID, "%s has no Power (a power track, or add … power=N) to roll with the punch into (V-13).", tgt)
	}
	if most := max(0, s.power(tgt)) / 10; n > most {
		return 0, fray.Errorf(fray.EINVALID, "divert=%d: %s has %d Power, so can roll with at most %d (a tenth, rounded down) (V-13).", n, tgt, s.power(tgt), most)
	}
	return n, nil
}

// surprised reports whether the combatant id is still taken by surprise
// (V-4, V-13): an ambush victim in the first turn whose first action
// phase of it has not yet come (they are aware once it comes, whether they
// then act, hold or decline). first is that phase, or 0 when they have
// none in the turn (as written, or every phase lost).
func (s *State) surprised(id fray.CombatantID) (surprised bool, first int) {
	ch := s.char(id)
	if ch == nil || !ch.Victim || s.Round != 1 {
		return false, 0
	}
	for _, sl := range s.Sched {
		if sl.ID != id || sl.Status == slotLost {
			continue
		}
		if sl.Status != slotPending {
			return false, 0 // reached
		}
		return true, sl.Phase
	}
	return true, 0
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
	cur := s.ByID(s.current())
	if cur == nil {
		return 0, fray.Errorf(fray.EINVALID, "Nobody is acting: turn %d's phases are over; use next to begin the next turn.", s.Round)
	}
	if cur.ID != c.ID {
		return 0, fray.Errorf(fray.EINVALID, "It is %s's action on phase %d, not %s's; an attack is an action (V-8).", fray.Mention(cur.Name), s.Phase(), c)
	}
	ch := s.char(cur.ID)
	if ch.Act.Acted || (ch.ActedPhase == s.Phase() && ch.ActedPhase != 0) {
		return 0, fray.Errorf(fray.EINVALID, "%s has already acted on phase %d; never more than one action by one character in a phase (V-3).", c, s.Phase())
	}
	cost := s.actionCost(ch)
	if cost > 0 && tracksPower(c) && s.power(c) < cost {
		return 0, fray.Errorf(fray.EINVALID, "%s has %d Power; an action after the first in a turn costs %d (V-1). Decline it with next.", c, s.power(c), cost)
	}
	return cost, nil
}

// attack decides attack A B …: the attacker's action (EventActed), then
// the to-hit roll or rolls, the cover's d% and the damage (EventAttacked),
// then the once-only conditions it used up.
func (d *decider) attack(cmd fray.Command, r fray.Roller) error {
	s := d.State
	p, err := s.planAttack(cmd, !d.Unrecorded)
	if err != nil {
		return err
	}
	var odds fray.Odds
	if d.Unrecorded {
		// EmitRolled keeps no odds: only what odds would refuse counts.
		_, err = p.meanDamage()
	} else {
		odds, err = p.odds()
		odds.Command = cmd.String()
	}
	if err != nil {
		return err
	}
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
		Attacker: att.ID, Target: tgt.ID, Power: p.pw.Name, Type: strings.ToLower(p.pw.Damage), Range: p.rangeIn,
		Chance: a.Hit.Chance, Needed: a.Hit.Needed(), Defenceless: a.Hit.Defenceless, Special: a.Special,
		PerceptionRoll: pr, Noticed: pr > 0 && !a.Hit.Defenceless,
		First: first, Second: second, Pct: pct, Band: res.band(), Cover: a.Cover, CoverProtection: a.CoverProtection,
		Rolled: res.Rolled, Pull: a.Pull, Protection: a.Protection, Damage: res.Damage, Effect: a.Effect, Affects: res.Affects,
		ToPower: res.ToPower, ToHits: res.ToHits, Incapacitated: res.Incapacitated, Knockback: res.Knockback,
	}
	if p.notice != nil {
		data.Perception = p.notice.Chance
	}
	data.Simultaneous = (data.ToHits != 0 || data.ToPower != 0) && s.simultaneous()
	if n := len(rolls); n > 0 {
		rolls[n-1].For = strings.TrimSuffix(rolls[n-1].For, ")") + attackWords(data, tgt.Name)
	}
	if err := d.Emit(EventActed, ActData{Who: att.ID, Phase: s.Phase(), Cost: p.cost}); err != nil {
		return err
	}
	return d.EmitRolled(EventAttacked, data, odds, p.spent, rolls...)
}

// attackWords says what an attack did, for its last roll: ": hit, 7
// damage (10 − 3 protection), 1 rolled with to Power, 6 Hit Points, 4\"
// knockback)". target is what the target is called.
func attackWords(d AttackData, target string) string {
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
		w += ", " + target + " is incapacitated"
	}
	if d.Knockback > 0 {
		w += fmt.Sprintf(", knocked back %d\"", d.Knockback)
	}
	if d.Simultaneous {
		w += "; it lands when the characters acting simultaneously are done (V-2)"
	}
	return w + ")"
}
