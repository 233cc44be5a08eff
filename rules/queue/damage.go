package queue

import (
	"strconv"
	"strings"

	"fray"
	"fray/dice"
	"fray/engine"
)

// Event types of the GM's damage and healing and of checks. They are wire
// strings: never rename one.
const (
	EventDamaged = "queue.damaged" // hit points lost at the GM's word; data: damagedData
	EventHealed  = "queue.healed"  // hit points regained at the GM's word; data: healedData
	EventChecked = "queue.checked" // a check: d20 + Wits against a score; data: checkData, Rolls[0]
)

// Keys of check.
const (
	KeyVs         = "vs"         // check … vs=NAME: against 10 + their Wits
	KeyDifficulty = "difficulty" // check … difficulty=N: against N
)

// Bands of a check's odds, worst first.
const (
	BandFailure = "failure"
	BandSuccess = "success"
)

// Limits of the GM's numbers.
const (
	// MaxDifficulty is the highest difficulty= of a check (and MaxMod
	// the largest mod=, either way).
	MaxDifficulty = 100
	MaxMod        = 100
)

type damagedData struct {
	Name fray.CombatantID `json:"name"`
	// Damage is the damage dealt; HP the hit points left before it.
	Damage int `json:"damage"`
	HP     int `json:"hp"`
	// Incapacitates, Injures and Injury are as an attack's.
	Incapacitates bool   `json:"incapacitates,omitempty"`
	Injures       bool   `json:"injures,omitempty"`
	Injury        string `json:"injury,omitempty"`
}

type healedData struct {
	Name fray.CombatantID `json:"name"`
	// Healed is the hit points regained: what was asked, no more than
	// the combatant's hit points allow.
	Healed int `json:"healed"`
}

type checkData struct {
	Name fray.CombatantID `json:"name"`
	// Vs is the opponent; without one, Difficulty is the GM's.
	Vs         fray.CombatantID `json:"vs,omitempty"`
	Difficulty int              `json:"difficulty,omitempty"`
	Bonus      int              `json:"bonus"`
	Need       int              `json:"need"`
	Face       int              `json:"face"`
	Score      int              `json:"score"`
	Success    bool             `json:"success"`
}

// decideDamage decides damage NAME N [injury=…]: hit points lost at the
// GM's word (a trap, a fall), Incapacitating and Injuring exactly as an
// attack's hit does. It is no action: the GM's word.
func (s *State) decideDamage(tx *txn, cmd fray.Command) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n, err := engine.Amount(cmd, 1, 1, "hit points")
	if err != nil {
		return err
	}
	hp, ok := s.hpOf(c)
	switch {
	case !ok:
		return fray.Errorf(fray.EINVALID, "%s has no hit points to lose; add them with hp=N.", c)
	case s.dead(c):
		return fray.Errorf(fray.EINVALID, "%s is already dead.", c)
	}
	injury, err := s.injuryOpt(cmd, c, hp, "damage")
	if err != nil {
		return err
	}
	d := damagedData{Name: c.ID, Damage: n, HP: hp}
	d.Incapacitates, d.Injures = Hurt(hp, n)
	var rest []string
	if d.Injures {
		d.Injury, rest = s.injuriesFor(c, injury)
	}
	tx.Room = 1 + len(rest)
	if err := tx.Emit(EventDamaged, d); err != nil {
		return err
	}
	return injured(tx, c.ID, rest)
}

// decideHeal decides heal NAME N: hit points regained at the GM's word (a
// potion, a rest), never above the combatant's hit points. Regaining any
// ends Incapacitation, which is having none left; Injuries stay, and
// the dead stay dead.
func (s *State) decideHeal(tx *txn, cmd fray.Command) error {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return err
	}
	n, err := engine.Amount(cmd, 1, 1, "hit points")
	if err != nil {
		return err
	}
	left, ok := s.hpOf(c)
	m, _, _ := maxHP(c)
	switch {
	case !ok:
		return fray.Errorf(fray.EINVALID, "%s has no hit points to regain; add them with hp=N.", c)
	case s.dead(c):
		return fray.Errorf(fray.EINVALID, "%s is dead; healing does not bring them back.", c)
	case left >= m:
		return fray.Errorf(fray.EINVALID, "%s has all their hit points (%d); there is nothing to heal.", c, m)
	}
	return tx.Emit(EventHealed, healedData{Name: c.ID, Healed: min(n, m-left)})
}

// heal gives c back n hit points, no more than their hit points unhurt.
func (s *State) heal(c *fray.Combatant, n int) {
	m, start, _ := maxHP(c)
	left, _ := s.hpOf(c)
	// Damage beyond the last hit point is forgotten: healing counts from
	// 0 left.
	s.ensureFighter(c.ID).Damage = start - min(m, left+n)
}

// CheckOf works out the roll that cmd (check NAME vs=NAME|difficulty=N
// [mod=±N]) would make in s, without rolling: d20 + Wits (+ mod= and the
// conditions' modifiers to checks) against the hit base (10) + the
// opponent's Wits, or against the GM's difficulty — the house to-hit
// rule's roll (Q-4, ours).
func (s *State) CheckOf(cmd fray.Command) (ToHit, checkData, []fray.Modifier, []engine.ConditionRef, error) {
	var t ToHit
	var d checkData
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return t, d, nil, nil, err
	}
	switch {
	case s.dead(c):
		return t, d, nil, nil, fray.Errorf(fray.EINVALID, "%s is dead.", c)
	case s.incapacitated(c):
		return t, d, nil, nil, fray.Errorf(fray.EINVALID, "%s is Incapacitated and cannot act.", c)
	}
	vs, hasVs := cmd.Opts[KeyVs]
	diff, hasDiff := cmd.Opts[KeyDifficulty]
	d.Name = c.ID
	switch {
	case hasVs && hasDiff:
		return t, d, nil, nil, fray.Errorf(fray.EINVALID, "Give vs=NAME or difficulty=N, not both.")
	case hasVs:
		o, err := s.Lookup(vs)
		if err != nil {
			return t, d, nil, nil, err
		}
		if o.ID == c.ID {
			return t, d, nil, nil, fray.Errorf(fray.EINVALID, "%s cannot check against themselves; give difficulty=N.", c)
		}
		base, _ := strconv.Atoi(s.Setting(SettingHitBase, strconv.Itoa(DefaultHitBase)))
		d.Vs, t.Need = o.ID, base+o.Stat(StatWits)
	case hasDiff:
		n, err := strconv.Atoi(diff)
		if err != nil || n < 1 || n > MaxDifficulty {
			return t, d, nil, nil, fray.Errorf(fray.EINVALID, "difficulty=%s is not a whole number from 1 to %d (MaxDifficulty).", engine.Clip(diff), MaxDifficulty)
		}
		d.Difficulty, t.Need = n, n
	default:
		return t, d, nil, nil, fray.Errorf(fray.EINVALID, "Say what %s checks against: vs=NAME (10 + their Wits) or difficulty=N.", c)
	}
	mod, err := parseMod(cmd)
	if err != nil {
		return t, d, nil, nil, err
	}
	mods, spent := engine.Modifiers(c, nil, fray.AppliesCheck, s.Round)
	t.Bonus = c.Stat(StatWits) + mod
	for _, m := range mods {
		t.Bonus += m.Value
	}
	d.Bonus, d.Need = t.Bonus, t.Need
	return t, d, mods, spent, nil
}

// parseMod reads mod=±N of attack and check.
func parseMod(cmd fray.Command) (int, error) {
	v, ok := cmd.Opts[KeyMod]
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
	if err != nil || n < -MaxMod || n > MaxMod {
		return 0, fray.Errorf(fray.EINVALID, "mod=%s is not a whole number from -%d to %d.", engine.Clip(v), MaxMod, MaxMod)
	}
	return n, nil
}

// decideCheck decides check NAME vs=NAME|difficulty=N [mod=±N]: d20 +
// Wits against a score, with its exact odds. It takes no action of its
// own: the GM says with act whether it costs one.
func (s *State) decideCheck(tx *txn, cmd fray.Command, r fray.Roller) error {
	t, d, mods, spent, err := s.CheckOf(cmd)
	if err != nil {
		return err
	}
	odds, err := s.checkOdds(t, d, mods)
	if err != nil {
		return err
	}
	odds.Command = cmd.String()
	name := s.NameOf(d.Name)
	roll, err := r.Roll(name, HitDie)
	if err != nil {
		return err
	}
	if roll.Total < 1 || roll.Total > 20 {
		return fray.Errorf(fray.EINVALID, "The d20 shows faces 1 to 20, not %d.", roll.Total)
	}
	d.Face, d.Score, d.Success = roll.Total, roll.Total+t.Bonus, t.Succeeds(roll.Total)
	out := "a failure"
	if d.Success {
		out = "a success"
	}
	roll.For = name + " (check: d20 " + signed(d.Bonus) + " against " + checkTarget(s, d) + " " + strconv.Itoa(d.Need) + ", scores " + strconv.Itoa(d.Score) + ": " + out + ")"
	if err := tx.EmitOdds(EventChecked, d, odds, roll); err != nil {
		return err
	}
	return tx.Spend(spent)
}

// checkTarget says what a check is against, for its odds' target:
// "10 + Bob's Wits =", "difficulty".
func checkTarget(s *State, d checkData) string {
	if d.Vs == "" {
		return "difficulty"
	}
	o := s.ByID(d.Vs)
	return strconv.Itoa(d.Need-o.Stat(StatWits)) + " + " + o.Name + "'s Wits ="
}

// checkOdds gives a check's exact odds: the chance of success is the
// to-hit roll's (ToHit.P), and the distribution of the score, d20 +
// Bonus, comes from package dice.
func (s *State) checkOdds(t ToHit, d checkData, mods []fray.Modifier) (fray.Odds, error) {
	expr := HitDie + signed(t.Bonus)
	x, err := dice.Parse(expr)
	if err != nil {
		return fray.Odds{}, fray.Errorf(fray.EINTERNAL, "The check's dice %s: %v.", expr, err)
	}
	dist, err := x.Dist(dice.DistOptions{})
	if err != nil {
		return fray.Odds{}, fray.Errorf(fray.EINTERNAL, "The check's odds: %v.", err)
	}
	p := t.P()
	c := s.ByID(d.Name)
	o := fray.Odds{
		For: c.Name, Roll: "check", Expr: expr, Target: t.Need, TargetKind: checkTarget(s, d),
		Bands: []fray.Band{{Name: BandFailure, P: 1 - p}, {Name: BandSuccess, P: p}},
		Mean:  dist.Mean(),
	}
	o.Modifiers = append(o.Modifiers, fray.Modifier{Source: c.Name + "'s Wits", Who: []string{c.Name}, Value: c.Stat(StatWits)})
	cond := 0
	for _, m := range mods {
		cond += m.Value
	}
	if m := t.Bonus - c.Stat(StatWits) - cond; m != 0 {
		o.Modifiers = append(o.Modifiers, fray.Modifier{Source: "the GM (mod=)", Value: m})
	}
	o.Modifiers = append(o.Modifiers, mods...)
	for i, q := range dist.P {
		if q > 0 {
			o.Dist = append(o.Dist, fray.Point{V: dist.Min + i, P: q})
		}
	}
	return o, nil
}

// applyDamage applies the events of this file; handled is false for
// others.
func (s *State) applyDamage(ev fray.Event) (handled bool, err error) {
	switch ev.Type {
	case EventDamaged:
		var d damagedData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.ByID(d.Name)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d damages %s, who is not present.", ev.Seq, d.Name)
		}
		if _, ok := s.hpOf(c); !ok || d.Damage < 1 {
			return true, fray.Errorf(fray.EINVALID, "Event %d damages %s, who has no hit points.", ev.Seq, d.Name)
		}
		s.hurt(c.ID, d.Damage, d.Injures, d.Injury)
	case EventHealed:
		var d healedData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.ByID(d.Name)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d heals %s, who is not present.", ev.Seq, d.Name)
		}
		if _, ok := s.hpOf(c); !ok || d.Healed < 1 {
			return true, fray.Errorf(fray.EINVALID, "Event %d heals %s, who has no hit points.", ev.Seq, d.Name)
		}
		s.heal(c, d.Healed)
	case EventChecked:
		var d checkData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.ByID(d.Name) == nil || (d.Vs != "" && s.ByID(d.Vs) == nil) {
			return true, fray.Errorf(fray.EINVALID, "Event %d is a check by or against someone not present.", ev.Seq)
		}
	default:
		return false, nil
	}
	return true, nil
}
