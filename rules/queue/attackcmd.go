package queue

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// This file decides attack A B: the attack worked out from the
// state, its checks, and the words its rolls are labelled with.

// AttackOf works out the Attack that cmd (attack A B [with=W] [hit=] [mod=])
// would make in s, with the weapon used, without rolling. Its HP is the
// hit points of who would suffer the damage: B, or one who reacted to A
// for B (react … for=B) to suffer it instead.
func (s *State) AttackOf(cmd fray.Command) (Attack, *fray.Combatant, *fray.Combatant, Weapon, error) {
	var a Attack
	att, tgt, err := kit.LookupTwo(&s.Encounter, cmd)
	if err != nil {
		return a, nil, nil, Weapon{}, err
	}
	if att.ID == tgt.ID {
		return a, nil, nil, Weapon{}, fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", att)
	}
	var buf [4]Weapon
	ws := s.appendWeapons(buf[:0], att)
	var wp Weapon
	with, given := cmd.Opts[KeyWith]
	switch {
	case len(ws) == 0:
		return a, nil, nil, Weapon{}, fray.Errorf(fray.EINVALID, "%s has no weapon; give them one with add … weapon=NAME:WEIGHT[:SPECIAL].", att)
	case !given && len(ws) > 1:
		return a, nil, nil, Weapon{}, fray.Errorf(fray.EINVALID, "%s has %d weapons; say which with with=%s.", att, len(ws), weaponNames(ws, "|"))
	case !given:
		wp = ws[0]
	default:
		i := slices.IndexFunc(ws, func(w Weapon) bool { return strings.EqualFold(w.Name, with) })
		if i < 0 {
			return a, nil, nil, Weapon{}, fray.Errorf(fray.ENOTFOUND, "%s has no weapon named %q; their weapons: %s.", att, engine.Clip(with), weaponNames(ws, ", "))
		}
		wp = ws[i]
	}
	// The damage falls on one who reacted for the target, if any:
	// their hit points are what it takes.
	hurt := s.sufferer(att, tgt)
	hp, ok := s.hpOf(hurt)
	if !ok {
		return a, nil, nil, Weapon{}, fray.Errorf(fray.EINVALID, "%s has no hit points to lose; add them with hp=N.", hurt)
	}
	a = Attack{Weight: wp.Weight, HP: hp}
	if v, ok := cmd.Opts[KeyHit]; ok {
		b, err := engine.ParseYesNo(KeyHit, v)
		if err != nil {
			return a, nil, nil, Weapon{}, err
		}
		a.Ruling = RulingMiss
		if b {
			a.Ruling = RulingHit
		}
	} else if s.Setting(SettingToHit, "roll") == "gm" {
		return a, nil, nil, Weapon{}, fray.Errorf(fray.EINVALID, "The GM rules every hit here (tohit=gm); say hit=yes or hit=no.")
	}
	mod, err := parseMod(cmd)
	if err != nil {
		return a, nil, nil, Weapon{}, err
	}
	base, _ := strconv.Atoi(s.Setting(SettingHitBase, strconv.Itoa(DefaultHitBase)))
	a.Bonus = att.Stat(StatWits) + mod
	a.Need = base + tgt.Stat(StatWits)
	return a, att, tgt, wp, nil
}

func weaponNames(ws []Weapon, sep string) string {
	var n []string
	for _, w := range ws {
		n = append(n, w.Name)
	}
	return strings.Join(n, sep)
}

// sufferer returns who suffers the damage of att's hit on tgt: one who
// reacted to att for tgt (coverer, Q-3), else tgt.
func (s *State) sufferer(att, tgt *fray.Combatant) *fray.Combatant {
	if c := s.coverer(att.ID, tgt.ID); c != nil {
		return c
	}
	return tgt
}

// decideAttack decides attack A B: a Major action of the current actor
// its to-hit roll and its Red/Black damage, incapacitation and
// Injuries, on the target or on one who reacted to suffer the damage
// instead.
func (s *State) decideAttack(tx *txn, cmd fray.Command, r fray.Roller) error {
	p, err := s.checkAttack(cmd)
	if err != nil {
		return err
	}
	a, att, tgt, wp, injury, hurt := p.a, p.att, p.tgt, p.wp, p.injury, p.hurt
	// The odds are for an event that is recorded; an attack they refuse
	// (Attack.Check) is refused all the same.
	var odds fray.Odds
	if !tx.Unrecorded {
		if odds, err = attackOdds(a, att, tgt, wp, p.mods); err != nil {
			return err
		}
		odds.Command = cmd.String()
	} else if err := a.Check(); err != nil {
		return fray.Errorf(fray.EINVALID, "%s", err)
	}
	// The d20 first, then Red and Black only on a hit: physical dice are
	// dice=D20 for a miss, dice=D20,RED,BLACK for a hit.
	rolls := make([]fray.Roll, 0, 2) // the d20, and Red and Black on a hit
	var faces []int
	if a.Ruling == RulingNone {
		hit, err := r.Roll(att.Name, HitDie)
		if err != nil {
			return err
		}
		if hit.Source == fray.RollTotal && a.toHit().Succeeds(hit.Total) {
			return fray.Errorf(fray.EINVALID, "A hit needs Red and Black too: give every face with dice=D20,RED,BLACK.")
		}
		rolls = append(rolls, hit)
		faces = append(faces, hit.Total)
	}
	if a.Ruling == RulingHit || (a.Ruling == RulingNone && a.toHit().Succeeds(faces[0])) {
		dmg, err := r.Roll(att.Name, DamageDice)
		if err != nil {
			return err
		}
		if dmg.Source == fray.RollTotal {
			return fray.Errorf(fray.EINVALID, "An attack needs the faces of Red and Black, not their total: dice=%s.", diceHint(a))
		}
		rolls = append(rolls, dmg)
		faces = append(faces, dmg.Dice...)
	}
	res, err := a.settleRolled(faces)
	if err != nil {
		return fray.Errorf(fray.EINVALID, "%s; give dice=%s.", strings.TrimPrefix(err.Error(), "attack: "), diceHint(a))
	}
	d := attackData{
		Attacker: att.ID, Target: tgt.ID, Weapon: wp.Name, Weight: wp.Weight, Special: wp.Special,
		Ruling: a.Ruling, Bonus: a.Bonus, Need: a.Need, ToHit: res.ToHit, Score: res.Score, Hit: res.Hit,
		Incapacitates: res.Incapacitates, Injures: res.Injures,
	}
	if hurt.ID != tgt.ID {
		d.SufferedBy = hurt.ID
	}
	if res.Damage != nil {
		d.Red, d.Black, d.Damage, d.Triggered = res.Damage.Red, res.Damage.Black, res.Damage.Damage, res.Damage.Special
	}
	var rest []string
	if res.Injures {
		d.Injury, rest = s.injuriesFor(hurt, injury)
	}
	if !tx.Unrecorded {
		// The words are the log's; Apply reads none of them.
		labelAttackRolls(rolls, d, att.Name, tgt.Name, hurt.Name, freeInjuries(s.fighter(hurt.ID)), rest)
	}
	note := "attacks " + tgt.Name + " with " + wp.Name
	tx.Room = 2 + len(rest) + len(p.spent)
	if err := s.act(tx, att, Major, note); err != nil {
		return err
	}
	if err := tx.EmitOdds(EventAttacked, d, odds, rolls...); err != nil {
		return err
	}
	if err := injured(tx, hurt.ID, rest); err != nil {
		return err
	}
	return tx.Spend(p.spent)
}

// attackPlan is an attack checked against the rules, before its roll.
type attackPlan struct {
	a        Attack
	att, tgt *fray.Combatant
	wp       Weapon
	injury   string
	// hurt is who suffers the damage of a hit: tgt, or one who reacted
	// for tgt (sufferer).
	hurt *fray.Combatant
	// mods are the conditions' modifiers to the to-hit roll (E-4), in
	// a.Bonus already; spent the once-only conditions they use up.
	mods  []fray.Modifier
	spent []engine.ConditionRef
}

// checkAttack checks attack A B … against the rules: whose turn it is,
// the Major action budget, the weapon, who can still fight.
func (s *State) checkAttack(cmd fray.Command) (attackPlan, error) {
	a, att, tgt, wp, err := s.AttackOf(cmd)
	if err != nil {
		return attackPlan{}, err
	}
	if _, err := s.checkTurn(att.Name); err != nil {
		return attackPlan{}, err
	}
	switch {
	case s.dead(att):
		return attackPlan{}, fray.Errorf(fray.EINVALID, "%s is dead.", att)
	case s.incapacitated(att):
		return attackPlan{}, fray.Errorf(fray.EINVALID, "%s is Incapacitated and cannot attack.", att)
	}
	if _, _, _, err := s.checkAct(fray.Command{Name: "act", Args: []string{att.Name, Major}}); err != nil {
		return attackPlan{}, err
	}
	switch {
	case s.dead(tgt):
		return attackPlan{}, fray.Errorf(fray.EINVALID, "%s is already dead.", tgt)
	}
	p := attackPlan{a: a, att: att, tgt: tgt, wp: wp, hurt: s.sufferer(att, tgt)}
	if a.Ruling == RulingNone {
		p.mods, p.spent = engine.Modifiers(att, tgt, fray.AppliesAttack, s.Round)
		for _, m := range p.mods {
			p.a.Bonus += m.Value
		}
	}
	if p.injury, err = s.injuryOpt(cmd, p.hurt, a.HP, "attack"); err != nil {
		return attackPlan{}, err
	}
	return p, nil
}

// diceHint says what dice= an attack takes.
func diceHint(a Attack) string {
	if a.Ruling == RulingHit {
		return "RED,BLACK"
	}
	return "D20 (a miss) or D20,RED,BLACK (a hit)"
}

// labelAttackRolls names the to-hit roll and the damage roll with what
// each did, saying the attacker, the target and who suffers the damage
// (hurt: the target, or one who reacted for them) by their names.
// free holds the Injuries the one hurt could still take before the
// attack, rest those given at once with a third Injury (injuriesFor).
func labelAttackRolls(rolls []fray.Roll, d attackData, attacker, target, hurt string, free, rest []string) {
	for i := range rolls {
		if rolls[i].Expr == HitDie {
			out := "a miss"
			if d.Hit {
				out = "a hit"
			}
			rolls[i].For = fmt.Sprintf("%s (to hit %s: d20 %+d against %d = %d, %s)", attacker, target, d.Bonus, d.Need, d.Score, out)
			continue
		}
		rolls[i].For = damageWords(d, attacker, target, hurt, free, rest)
	}
}

// damageWords says what Red and Black did: "Johann (sword on Brigand #1;
// medium deals Red: 4 damage; Black 6: bleed)", and who suffers the damage
// when it is not the target (hurt): "Brigand #2 (club on Melvina; medium
// deals Red: 5 damage, which Johann suffers instead; Johann is
// Incapacitated)".
func damageWords(d attackData, attacker, target, hurt string, free, rest []string) string {
	pick := map[DamageWeight]string{DamageLight: "the lower die", DamageMedium: "Red", DamageHeavy: "the higher die"}[d.Weight]
	w := fmt.Sprintf("%s (%s on %s", attacker, d.Weapon, target)
	if !d.Hit {
		return w + ": a miss, no damage)"
	}
	if d.Ruling == RulingHit {
		w += ", a hit by the GM's ruling"
	}
	w += "; " + string(d.Weight) + " deals " + pick + ": " + strconv.Itoa(d.Damage) + " damage"
	if hurt != target {
		w += ", which " + hurt + " suffers instead"
	}
	if d.Triggered {
		sp := d.Special
		if sp == "" {
			sp = "the weapon's special effect"
		}
		w += "; Black 6: " + sp
	}
	switch {
	case d.Incapacitates:
		w += "; " + hurt + " is Incapacitated"
	case d.Injures && len(rest) > 0:
		w += "; " + hurt + " takes a third Injury, so all three: " + strings.Join(thirdInjury(free, d.Injury, rest), ", ")
	case d.Injures && d.Injury != "":
		w += "; " + hurt + " takes an Injury: " + d.Injury
	case d.Injures:
		w += "; " + hurt + " takes an Injury: choose it with injury " + kit.QuoteName(hurt) + " " + strings.Join(free, "|")
	}
	return w + ")"
}
