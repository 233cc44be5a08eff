package queue

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
)

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

// Keys of the commands of this file.
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
func (s *State) fighter(id fray.CombatantID) *Fighter {
	for _, f := range s.Fighters {
		if f.ID == id {
			return f
		}
	}
	return nil
}

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
func (s *State) weaponsOf(c *fray.Combatant) []Weapon {
	if f := s.fighter(c.ID); f != nil && len(f.Weapons) > 0 {
		return f.Weapons
	}
	var ws []Weapon
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

// freeInjuries returns the Injuries f has not taken yet, in order.
func freeInjuries(f *Fighter) []string {
	var out []string
	for _, i := range Injuries() {
		if f == nil || !slices.Contains(f.Injuries, i) {
			out = append(out, i)
		}
	}
	return out
}

// decideAdd adds a combatant with the shared add, taking weapon= out
// first; EventArmed follows EventAdded.
func (s *State) decideAdd(cmd fray.Command) ([]fray.Event, error) {
	v, ok := cmd.Opts[KeyWeapon]
	if !ok {
		return nil, nil
	}
	ws, err := ParseWeapons(v)
	if err != nil {
		return nil, err
	}
	shared := cmd
	shared.Opts = maps.Clone(cmd.Opts)
	delete(shared.Opts, KeyWeapon)
	evs, err := s.decideShared(shared)
	if err != nil {
		return nil, err
	}
	var d fray.AddedData
	if err := evs[0].Decode(&d); err != nil {
		return nil, err
	}
	ev, err := fray.NewEvent(EventArmed, armedData{Name: d.Combatant.Name, Weapons: ws})
	if err != nil {
		return nil, err
	}
	return append(evs, ev), nil
}

// AttackOf works out the Attack that cmd (attack A B [with=W] [hit=] [mod=])
// would make in s, with the weapon used, without rolling. Its HP is the
// hit points of who would suffer the damage: B, or one who reacted to A
// for B (react … for=B) to suffer it instead.
func (s *State) AttackOf(cmd fray.Command) (Attack, *fray.Combatant, *fray.Combatant, Weapon, error) {
	var a Attack
	att, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return a, nil, nil, Weapon{}, err
	}
	tgt, err := s.Lookup(cmd.Arg(1))
	if err != nil {
		return a, nil, nil, Weapon{}, err
	}
	if att.ID == tgt.ID {
		return a, nil, nil, Weapon{}, fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", att)
	}
	ws := s.weaponsOf(att)
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
func (s *State) decideAttack(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	p, err := s.checkAttack(cmd)
	if err != nil {
		return nil, err
	}
	a, att, tgt, wp, injury, hurt := p.a, p.att, p.tgt, p.wp, p.injury, p.hurt
	odds, err := attackOdds(a, att, tgt, wp, p.mods)
	if err != nil {
		return nil, err
	}
	odds.Command = cmd.String()
	// The d20 first, then Red and Black only on a hit: physical dice are
	// dice=D20 for a miss, dice=D20,RED,BLACK for a hit.
	var rolls []fray.Roll
	var faces []int
	if a.Ruling == RulingNone {
		hit, err := r.Roll(att.Name, HitDie)
		if err != nil {
			return nil, err
		}
		if hit.Source == fray.RollTotal && a.toHit().Succeeds(hit.Total) {
			return nil, fray.Errorf(fray.EINVALID, "A hit needs Red and Black too: give every face with dice=D20,RED,BLACK.")
		}
		rolls = append(rolls, hit)
		faces = append(faces, hit.Total)
	}
	if a.Ruling == RulingHit || (a.Ruling == RulingNone && a.toHit().Succeeds(faces[0])) {
		dmg, err := r.Roll(att.Name, DamageDice)
		if err != nil {
			return nil, err
		}
		if dmg.Source == fray.RollTotal {
			return nil, fray.Errorf(fray.EINVALID, "An attack needs the faces of Red and Black, not their total: dice=%s.", diceHint(a))
		}
		rolls = append(rolls, dmg)
		faces = append(faces, dmg.Dice...)
	}
	res, err := a.settleRolled(faces)
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s; give dice=%s.", strings.TrimPrefix(err.Error(), "attack: "), diceHint(a))
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
	labelAttackRolls(rolls, d, att.Name, tgt.Name, hurt.Name, freeInjuries(s.fighter(hurt.ID)), rest)
	note := "attacks " + tgt.Name + " with " + wp.Name
	actEv, err := s.actEvent(att, Major, note)
	if err != nil {
		return nil, err
	}
	ev, err := fray.NewEvent(EventAttacked, d, rolls...)
	if err != nil {
		return nil, err
	}
	ev.Odds = &odds
	spent, err := engine.SpendEvents(p.spent)
	if err != nil {
		return nil, err
	}
	evs := []fray.Event{actEv, ev}
	if evs, err = injuredEvents(evs, hurt.ID, rest); err != nil {
		return nil, err
	}
	return append(evs, spent...), nil
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

// injuryOpt reads injury=NAME of a command that deals damage (attack,
// damage) to c, with hp hit points left: an Injury they
// can still take, given only when they are Incapacitated already.
// Damage to one Incapacitated whose Injuries to choose are already as
// many as are left is refused until they are chosen: each Injury is
// taken once, so there would be none to give. (The third Injury gives
// all that are left at once, so only a log recorded before it did can
// hold so many to choose.)
func (s *State) injuryOpt(cmd fray.Command, c *fray.Combatant, hp int, what string) (string, error) {
	name := c.Name
	f := s.fighter(c.ID)
	free := freeInjuries(f)
	if hp == 0 && f != nil && f.Pending > 0 && f.Pending >= len(free) {
		return "", fray.Errorf(fray.EINVALID, "%s has %d Injuries to choose, as many as are left; choose them first: injury %s %s.", fray.Mention(name), f.Pending, quoteName(name), strings.Join(free, " "))
	}
	v, ok := cmd.Opts[KeyInjury]
	if !ok {
		return "", nil
	}
	inj := strings.ToLower(v)
	if !slices.Contains(free, inj) {
		return "", fray.Errorf(fray.EINVALID, "injury=%s: %s can still take %s.", engine.Clip(v), fray.Mention(name), strings.Join(free, ", "))
	}
	if hp > 0 {
		return "", fray.Errorf(fray.EINVALID, "%s is not Incapacitated, so this %s gives no Injury; leave injury= out.", fray.Mention(name), what)
	}
	return inj, nil
}

// injuriesFor returns the Injury damage gives c, already Incapacitated
// the one given (injury=), else "" — to
// choose, until injury NAME … chooses it. The third Injury, counting
// those still to choose, leaves no choice: each Injury is taken once, so
// three are all three. It is then the one given or else the first left,
// and rest holds the others left, given at once for those still to
// choose (injuredEvents).
func (s *State) injuriesFor(c *fray.Combatant, given string) (injury string, rest []string) {
	f := s.fighter(c.ID)
	taken := 0
	if f != nil {
		taken = len(f.Injuries) + f.Pending
	}
	if taken+1 < len(Injuries()) {
		return given, nil
	}
	for _, i := range freeInjuries(f) {
		if i != given {
			rest = append(rest, i)
		}
	}
	if given == "" {
		given, rest = rest[0], rest[1:]
	}
	return given, rest
}

// injuredEvents appends to evs the choice of each Injury of rest for the
// combatant id (injuriesFor).
func injuredEvents(evs []fray.Event, id fray.CombatantID, rest []string) ([]fray.Event, error) {
	for _, inj := range rest {
		ev, err := fray.NewEvent(EventInjured, injuryData{Name: id, Injury: inj})
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
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
		w += "; " + hurt + " takes an Injury: choose it with injury " + quoteName(hurt) + " " + strings.Join(free, "|")
	}
	return w + ")"
}

// thirdInjury lists the Injuries a third one makes: those taken before
// (all but free), then injury and rest.
func thirdInjury(free []string, injury string, rest []string) []string {
	var out []string
	for _, i := range Injuries() {
		if !slices.Contains(free, i) {
			out = append(out, i)
		}
	}
	return append(append(out, injury), rest...)
}

// decideInjury decides injury NAME scarred|maimed|dead …: the choice of
// one or more of the Injuries the combatant has taken and not chosen yet
// an event for each.
func (s *State) decideInjury(cmd fray.Command) ([]fray.Event, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return nil, err
	}
	f := s.fighter(c.ID)
	if f == nil || f.Pending == 0 {
		return nil, fray.Errorf(fray.EINVALID, "%s has no Injury to choose; an Injury comes from damage taken while Incapacitated.", c)
	}
	free := freeInjuries(f)
	chosen := cmd.Args[1:]
	if len(chosen) > f.Pending {
		return nil, fray.Errorf(fray.EINVALID, "%s has %s to choose, not %d.", c, injuriesToChoose(f.Pending), len(chosen))
	}
	var evs []fray.Event
	for i, arg := range chosen {
		inj := strings.ToLower(arg)
		switch {
		case slices.ContainsFunc(chosen[:i], func(a string) bool { return strings.EqualFold(a, inj) }):
			return nil, fray.Errorf(fray.EINVALID, "injury names %s twice; each Injury is taken once.", inj)
		case !slices.Contains(free, inj):
			return nil, fray.Errorf(fray.EINVALID, "%s is already %s; each Injury is taken once: choose %s.", c, inj, strings.Join(free, " or "))
		}
		ev, err := fray.NewEvent(EventInjured, injuryData{Name: c.ID, Injury: inj})
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// injuriesToChoose says how many Injuries are to choose: "an Injury",
// "2 Injuries".
func injuriesToChoose(n int) string {
	if n == 1 {
		return "an Injury"
	}
	return strconv.Itoa(n) + " Injuries"
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
		var d attackData
		if err := ev.Decode(&d); err != nil {
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
			parts = append(parts, "an Injury to choose: injury "+quoteName(c.Name)+" "+free)
		case f.Pending > 1:
			parts = append(parts, injuriesToChoose(f.Pending)+" to choose: injury "+quoteName(c.Name)+strings.Repeat(" INJURY", f.Pending)+", of "+free)
		}
	}
	return strings.Join(parts, ", "), numbered
}
