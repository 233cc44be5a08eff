package cinematic

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// unarmed are the attacks every character has without a sheet's weapon:
// a punch or a kick, Dexterity + Kung Fu, damage Strength, bash (ours:
// the seed names punches and kicks but gives no numbers).
var unarmed = []string{"punch", "kick"}

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

// planAttack plans "attack ATTACKER TARGET with=WEAPON [defence=…]
// [shots=N] [unaware=yes] [mod=N] [dmod=N]" (C-4, C-5, C-6, C-7, C-8).
func (s *State) planAttack(cmd fray.Command) (*planned, error) {
	p := &planned{}
	if err := s.planAttackInto(p, cmd); err != nil {
		return nil, err
	}
	return p, nil
}

// planAttackInto plans the attack as planAttack does, into p, which may
// then stay on its caller's stack (SimExpect plans every attack a
// simulated combatant weighs).
func (s *State) planAttackInto(p *planned, cmd fray.Command) error {
	if len(cmd.Args) != 2 {
		return fray.Errorf(fray.EINVALID, "An attack with with= names the attacker and the target: attack ATTACKER TARGET with=WEAPON (quote names with spaces).")
	}
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; use start.")
	}
	a, b, err := kit.LookupTwo(&s.Encounter, cmd)
	if err != nil {
		return err
	}
	if a.ID == b.ID {
		return fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", a)
	}
	if cur := s.Current(); cur != a.ID {
		if cur == "" {
			return fray.Errorf(fray.EINVALID, "Nobody's turn is in progress; use next to begin round %d.", s.Round+1)
		}
		return fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's; attacks are made on one's own turn.", fray.Mention(s.NameOf(cur)), a)
	}
	if err := out(a, "attack"); err != nil {
		return err
	}
	if b.Condition(CondDead) != nil {
		return fray.Errorf(fray.EINVALID, "%s is dead already.", b)
	}
	w, err := weapon(a, cmd.Opts[OptWith])
	if err != nil {
		return err
	}
	if _, err := needLife(b); err != nil {
		return err
	}
	dex, err := stat(a, "dexterity")
	if err != nil {
		return err
	}
	*p = planned{weapon: w, mult: 1}
	if p.att, err = s.attackAction(a, b.ID); err != nil {
		return err
	}
	p.d = rollData{Who: a.ID, Roll: RollAttack, Target: b.ID, Weapon: w.Name}
	p.name, p.target = a.Name, b.Name
	sk, skName, has := skill(a, w.Skill)
	if !has {
		skName += " (untrained)"
	}
	p.mods = []fray.Modifier{{Source: "Dexterity", Value: dex}, {Source: skName, Value: sk}}
	if p.att.Kind == ActionExtra {
		p.mods = append(p.mods, fray.Modifier{Source: "extra action", Value: s.budget(a).Next})
	}
	if s.char(a.ID).Stance == StanceOffence {
		p.mods = append(p.mods, fray.Modifier{Source: "Full Offence", Value: FullOffenceBonus})
	}
	// Outnumbered (C-6): +2 per person attacking the target this round:
	// those who have attacked, those the GM has declared engaging, and
	// this attacker, once two or more; a sixth attacker is refused.
	p.foes = s.countAttackers(b.ID, a.ID)
	if p.foes > MaxAttackers {
		was := engine.NamesOf(&s.Encounter, s.attackers(b.ID, ""))
		return fray.Errorf(fray.EINVALID, "%s is attacked by %d others this round (%s, who have attacked or are declared engaging); no more than %d may attack one target in a round (C-6).", b, len(was), strings.Join(was, ", "), MaxAttackers).Naming(was...)
	}
	cm, spent := engine.Modifiers(a, b, fray.AppliesAttack, s.Round)
	cm = slices.DeleteFunc(cm, func(m fray.Modifier) bool { return isOutnumbered(m, b.Name) })
	p.mods, p.spent = append(p.mods, cm...), spent
	if p.foes >= 2 {
		p.mods = append(p.mods, fray.Modifier{Source: b.Name + " outnumbered (" + strconv.Itoa(p.foes) + " attackers)", Who: []string{b.Name}, Value: OutnumberedBonus * p.foes})
	}
	if a.Condition(CondBound) != nil && strings.EqualFold(w.Name, "punch") {
		p.mods = append(p.mods, fray.Modifier{Source: CondBound + " (a punch)", Value: BoundPunchPenalty})
	}
	// Firearms (C-8): an aimed shot is one shot; a barrage of shots=N is
	// one roll at −N.
	n, barrage := intOpt(cmd, OptShots)
	p.ammo = w.Clip > 0
	if barrage {
		if w.Damage != "bullet" && w.Clip == 0 {
			return fray.Errorf(fray.EINVALID, "shots= is a barrage from a firearm (C-8); %s is not one.", w.Name)
		}
		// "empty up to a small clip in the 5 second span of a round (6
		// shots)": the cap is the round's, over every barrage in it.
		if fired := s.char(a.ID).Fired; fired+n > MaxShots {
			more := "no more barrage this round"
			if fired < MaxShots {
				more = "so shots=" + strconv.Itoa(MaxShots-fired) + " at most"
			}
			return fray.Errorf(fray.EINVALID, "%s has fired %d shots in barrages this round; barrages empty at most a small clip, %d shots, in a round (C-8): %s.", a, fired, MaxShots, more)
		}
		p.barage, p.d.Shots = true, n
		p.mods = append(p.mods, fray.Modifier{Source: "barrage of " + strconv.Itoa(n), Value: -n})
	}
	if p.ammo {
		need := max(p.d.Shots, 1)
		if left := ammo(a, w); left < need {
			return fray.Errorf(fray.EINVALID, "%s's %s has %d shots left in the clip, not %d; reload %s %s first (C-8).", a, w.Name, left, need, kit.QuoteName(a.Name), kit.QuoteName(w.Name))
		}
	}
	p.mods = gm(cmd, OptMod, p.mods)
	// Blind (C-6): a Perception + Notice check before the attack, unless
	// Echolocation. Ours: the check is how the blind find their foe, so
	// the −5 of Blind is not added to it (it is to the attack).
	if a.Condition(CondBlind) != nil && quality(a, QualityEcholocation) == 0 {
		per, err := stat(a, "perception")
		if err != nil {
			return err
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
		return err
	}
	return checkRoll(p.roll)
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

// decideStrike decides an attack with a weapon: the actions it spends,
// the roll against the defence, ammunition, damage and what damage brings
// (C-4 … C-8).
func (s *State) decideStrike(cmd fray.Command, r fray.Roller, tx *kit.Txn[*State]) error {
	p, ev, err := s.rolled(cmd, r)
	if err != nil {
		return err
	}
	if err := tx.Emit(EventAttack, p.att); err != nil {
		return err
	}
	if p.def != nil && p.d.Noticed == (p.notice != nil) {
		if err := tx.Emit(EventDefence, *p.def); err != nil {
			return err
		}
	}
	if p.foes >= 2 {
		if err := setCondition(tx, p.d.Target, s.outnumbered(p.foes)); err != nil {
			return err
		}
	}
	if err := tx.Add(ev); err != nil {
		return err
	}
	if p.ammo && p.d.Noticed == (p.notice != nil) {
		if err := tx.Emit(EventShot, ammoData{Who: p.d.Who, Weapon: p.weapon.Name, Shots: max(p.d.Shots, 1)}); err != nil {
			return err
		}
	}
	return s.settle(p, tx)
}

// settle ends a planned attack once its rolls are emitted: the
// conditions it used up are spent, and a hit deals its damage.
func (s *State) settle(p *planned, tx *kit.Txn[*State]) error {
	if err := spend(s, p.spent, tx); err != nil {
		return err
	}
	if p.d.Success {
		return s.hurt(tx, p.d.Target, p.d.Dealt, p.d.Who)
	}
	return nil
}

// attackers lists, each once, who attacks the target this round (C-6):
// those who have attacked them, those the GM has declared engaging them,
// then attacker, if not empty.
func (s *State) attackers(target, attacker fray.CombatantID) []fray.CombatantID {
	ch := s.char(target)
	if ch == nil {
		return nil
	}
	ids := slices.Clone(ch.Foes)
	for _, id := range ch.Engaged {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if attacker != "" && !slices.Contains(ids, attacker) {
		ids = append(ids, attacker)
	}
	return ids
}

// countAttackers is len(s.attackers(target, attacker)), counted without
// making the list: an attack planned counts them, and a simulated
// combatant plans every attack it weighs.
func (s *State) countAttackers(target, attacker fray.CombatantID) int {
	ch := s.char(target)
	if ch == nil {
		return 0
	}
	n := len(ch.Foes)
	for i, id := range ch.Engaged {
		if id != "" && !slices.Contains(ch.Foes, id) && !slices.Contains(ch.Engaged[:i], id) {
			n++
		}
	}
	if attacker != "" && !slices.Contains(ch.Foes, attacker) && !slices.Contains(ch.Engaged, attacker) {
		n++
	}
	return n
}

// isOutnumbered reports whether m is the modifier of the condition
// Outnumbered on the target called name ("NAME Outnumbered").
func isOutnumbered(m fray.Modifier, name string) bool {
	const suffix = " " + CondOutnumbered
	return len(m.Source) == len(name)+len(suffix) && strings.HasPrefix(m.Source, name) && strings.HasSuffix(m.Source, suffix)
}

// outnumbered is the condition Outnumbered of a target with n attackers
// this round (C-6): +2 per attacker, up to MaxAttackers.
func (s *State) outnumbered(n int) fray.Condition {
	return fray.Condition{Name: CondOutnumbered, Since: s.Round, Until: &fray.Anchor{Round: s.Round, Edge: fray.EdgeEnd},
		Modifiers: []fray.Modifier{{Source: CondOutnumbered, Value: OutnumberedBonus * min(n, MaxAttackers), On: fray.AppliesAttacked}},
		Note:      strconv.Itoa(n) + " attackers this round"}
}

// decideEngage decides "engage TARGET NAME…": the GM declares who is
// attacking TARGET this round, so that Outnumbered counts them from the
// first attack (C-6). The list replaces the one declared before; those
// who have attacked already stay counted.
func (s *State) decideEngage(cmd fray.Command, tx *kit.Txn[*State]) error {
	if !s.Started {
		return fray.Errorf(fray.EINVALID, "The encounter has not started; declare who engages whom once a round is under way.")
	}
	b, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	names, err := engine.Names(&s.Encounter, cmd.Args[1:])
	if err != nil {
		return err
	}
	ids := engine.IDs(&s.Encounter, names)
	if slices.Contains(ids, b.ID) {
		return fray.Errorf(fray.EINVALID, "%s cannot engage themselves.", b)
	}
	foes := s.char(b.ID).Foes
	n := len(foes)
	for _, id := range ids {
		if !slices.Contains(foes, id) {
			n++
		}
	}
	if n > MaxAttackers {
		return fray.Errorf(fray.EINVALID, "That makes %d attacking %s this round (counting those who have attacked); no more than %d may attack one target in a round (C-6).", n, b, MaxAttackers)
	}
	if err := tx.Emit(EventEngaged, engagedData{Who: b.ID, Engaging: ids}); err != nil {
		return err
	}
	if n >= 2 {
		return setCondition(tx, b.ID, s.outnumbered(n))
	}
	if b.Condition(CondOutnumbered) != nil {
		return tx.Emit(fray.EventCleared, fray.ClearedData{Who: b.ID, Condition: CondOutnumbered})
	}
	return nil
}

// applyEngaged applies EventEngaged.
func (s *State) applyEngaged(ev fray.Event) error {
	// engagedData is not flat, so the list is this call's to keep.
	var d engagedData
	if err := ev.Decode(&d); err != nil {
		return err
	}
	c, ch := s.who(d.Who)
	if ch == nil {
		return fray.Errorf(fray.EINVALID, "Event %d declares who engages %s, who is not present.", ev.Seq, d.Who)
	}
	for _, id := range d.Engaging {
		if id == ch.ID || s.ByID(id) == nil {
			return fray.Errorf(fray.EINVALID, "Event %d declares %s engaging %q.", ev.Seq, id, c)
		}
	}
	if len(d.Engaging) == 0 {
		d.Engaging = nil
	}
	ch.Engaged = d.Engaging
	return nil
}
