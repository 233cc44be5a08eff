package bpb

import (
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// Hit is an attack that has hit and waits for the defender's block, dodge
// or acceptance (B-8: a defence is chosen after the attack is known to
// hit).
type Hit struct {
	Attacker fray.CombatantID `json:"attacker"`
	Defender fray.CombatantID `json:"defender"`
	Power    string           `json:"power"`
	// Rank is the attack's rank for this hit: the power's, one more on a
	// remarkable success (see hitRank).
	Rank   int    `json:"rank"`
	Damage int    `json:"damage"`
	Option string `json:"option,omitempty"`
	// Effect marks an attack that inflicts no Endurance damage: only the
	// same power blocks or dodges it (B-8).
	Effect bool `json:"effect,omitempty"`
	// Stunning marks stunning damage, which Brawn protects against
	// rather than armour (B-10); a protector who takes the hit (B-7)
	// takes it against their own protection.
	Stunning bool `json:"stunning,omitempty"`
	// For is the one the hit was against when a protector takes it in
	// their place (see onto); empty on the hit that waits.
	For fray.CombatantID `json:"for,omitempty"`
}

// protection is what protects b against an attack: Brawn against
// stunning damage, armour otherwise (B-10).
func protection(b *fray.Combatant, stunning bool) int {
	if stunning {
		return b.Stat(StatBrawn)
	}
	return b.Protection[ProtectionArmour]
}

// onto returns the hit h as it lands on p, who takes it in the place of
// its defender (B-7: "a defensive action on someone else's behalf, such
// as diving in front of an attack"): the same attack, its rank and
// option included, against p's own protection.
func (s *State) onto(h Hit, p *fray.Combatant) Hit {
	h.For, h.Defender = h.Defender, p.ID
	if h.Effect {
		h.Damage = 0
		return h
	}
	dmg := h.Rank
	if h.Option == OptionOverwhelming {
		dmg += overwhelmingBonus(s.mode())
	}
	h.Damage = max(dmg-protection(p, h.Stunning), 0)
	return h
}

// damageFor is the damage an attack does with band b (before a block or
// dodge): rank, +1 rank on a remarkable success, + the overwhelming bonus,
// − protection, at least 0; 0 on a miss.
func (t *task) damageFor(b TaskBand) int {
	if b == TaskFailure || t.d.Effect {
		return 0
	}
	dmg := hitRank(t.d.Rank, b)
	if b == TaskExtreme && t.d.Option == OptionOverwhelming {
		dmg += overwhelmingBonus(t.d.Mode)
	}
	return max(dmg-t.protection, 0)
}

// hitRank is the rank of an attack of rank r that hit with band b: one
// more on a remarkable success, "solely for the purposes of that attack"
// (B-1): its damage, and the 8 + rank a block or dodge against it must
// reach (B-8).
func hitRank(r int, b TaskBand) int {
	if b == TaskRemarkable {
		return r + 1
	}
	return r
}

func overwhelmingBonus(m TaskMode) int {
	if m == TaskModeExpertise {
		return 3
	}
	return 1
}

// planAttack plans "attack A B with=POWER [choose=OPTION] [mod=N]
// [endurance=no]" (B-10). endurance=no marks a power that inflicts no
// Endurance damage, such as Telepathy (B-8: only the same power blocks or
// dodges it); its hit does no damage and its effect is the GM's.
func (s *State) planAttack(cmd fray.Command) (*task, error) {
	t := &task{}
	if err := s.planAttackInto(t, cmd); err != nil {
		return nil, err
	}
	return t, nil
}

// planAttackInto plans the attack as planAttack does, into t, which may
// then stay on its caller's stack (SimExpect plans every attack a
// simulated combatant weighs).
func (s *State) planAttackInto(t *task, cmd fray.Command) error {
	a, b, err := kit.LookupTwo(&s.Encounter, cmd)
	if err != nil {
		return err
	}
	if fray.SameName(a.Name, b.Name) {
		return fray.Errorf(fray.EINVALID, "%s cannot attack themself.", a)
	}
	if err := active(a, "attack"); err != nil {
		return err
	}
	with := cmd.Opts["with"]
	if with == "" {
		return fray.Errorf(fray.EINVALID, "Name the power or weapon: with=POWER (%s has %s).", a, powerList(a))
	}
	p := a.Power(with)
	pw := fray.Power{Name: with, Range: "close"}
	if p != nil {
		pw = *p
		if pw.Range == "" {
			pw.Range = "close"
		}
		if _, ok := cmd.Opts["rank"]; ok {
			return fray.Errorf(fray.EINVALID, "%s's %s has rank %d on the sheet; rank= is for a power not on it.", a, pw.Name, pw.Rank)
		}
	} else {
		rk, ok := cmd.Opts["rank"]
		if !ok {
			return fray.Errorf(fray.ENOTFOUND, "%s has no power or weapon named %q (%s has %s); give rank=N for one not on the sheet.", a, with, a, powerList(a))
		}
		n, err := strconv.Atoi(rk)
		if err != nil || n < 0 || n > 30 {
			return fray.Errorf(fray.EINVALID, "rank=%s is not a rank from 0 to 30.", rk)
		}
		pw.Rank = n
	}
	if r, ok := cmd.Opts["range"]; ok {
		if r != "close" && r != "ranged" {
			return fray.Errorf(fray.EINVALID, "range=%s: use range=close or range=ranged.", r)
		}
		pw.Range = r
	}
	stat := StatProwess
	if pw.Range == "ranged" {
		stat = StatAccuracy
	}
	v, err := sheetStat(a, stat)
	if err != nil {
		return err
	}
	*t = task{actor: a, target: b, d: taskData{Name: a.ID, Roll: RollAttack, Stat: stat, Target: b.ID, Power: pw.Name, Rank: pw.Rank, Value: v,
		Difficulty: TaskBaseDifficulty, Expertise: a.HasExpertise(pw.Name), Option: OptionOverwhelming, Stunning: pw.Damage == "stunning"}}
	t.stat = statMod(stat, v)
	if s.Setting(SettingAttackVs, "agility") == "agility" {
		ag, err := sheetStat(b, StatAgility)
		if err != nil {
			return err
		}
		t.d.Difficulty = TaskDifficulty(ag)
	}
	if o, ok := cmd.Opts["choose"]; ok {
		switch o {
		case OptionOverwhelming, OptionSmashing, OptionStaggering:
			t.d.Option = o
		default:
			return fray.Errorf(fray.EINVALID, "choose=%s is not an extreme-success option; use overwhelming, smashing or staggering.", o)
		}
	}
	if v, ok := cmd.Opts["endurance"]; ok {
		yes, _ := engine.ParseYesNo("endurance", v) // a yes or a no, as declared
		t.d.Effect = !yes
	}
	t.protection = protection(b, t.d.Stunning)
	return s.finish(t, cmd, a, b, fray.AppliesAttack)
}

func powerList(c *fray.Combatant) string {
	if len(c.Powers) == 0 {
		return "no powers or weapons on a sheet"
	}
	names := make([]string, len(c.Powers))
	for i, p := range c.Powers {
		names[i] = p.Name + " " + strconv.Itoa(p.Rank)
	}
	return strings.Join(names, ", ")
}

func (s *State) decideAttack(tx *txn, cmd fray.Command, r fray.Roller) error {
	t, err := s.plan(cmd)
	if err != nil {
		return err
	}
	if s.currentID() != t.actor.ID {
		return fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's; attacks are made on one's turn.", fray.Mention(s.currentName()), t.actor)
	}
	if b := t.target; b.Condition(CondOut) != nil {
		return fray.Errorf(fray.EINVALID, "%s is out (0 Endurance) already.", b)
	}
	if err := t.rollTask(tx, cmd, r); err != nil {
		return err
	}
	if t.d.Band != TaskFailure {
		// A defender already blocking or dodging rolls at once; otherwise
		// the hit waits for block, dodge or take (B-8).
		// An attack that inflicts no Endurance damage is met only with
		// the same power; without it the hit waits.
		b := t.target
		var with *fray.Power
		if t.d.Effect {
			with = b.Power(t.d.Power)
		}
		for _, def := range []string{CondBlocking, CondDodging} {
			if b.Condition(def) == nil || t.d.Effect && with == nil {
				continue
			}
			h := &Hit{Attacker: t.actor.ID, Defender: b.ID, Power: t.d.Power, Rank: hitRank(t.d.Rank, t.d.Band), Damage: t.d.Damage, Option: t.d.Option, Effect: t.d.Effect, Stunning: t.d.Stunning}
			if t.d.Band != TaskExtreme {
				h.Option = ""
			}
			s2 := s.CloneSharing().(*State)
			s2.Pending = h
			dc := fray.Command{Name: map[string]string{CondBlocking: RollBlock, CondDodging: RollDodge}[def], Args: []string{b.Name}}
			if with != nil {
				dc.Opts = map[string]string{"with": with.Name}
			}
			// The defence is decided on the state with the hit waiting,
			// recorded in tx after the attack.
			if err := s2.decideDefence(tx, dc, r); err != nil {
				return err
			}
			break
		}
	}
	return tx.Spend(t.spent)
}
