package bpb

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/dice"
	"fray/engine"
)

// Resolution (SPEC B-1, B-2, B-8 … B-12): task rolls, attacks with fixed
// damage, blocks and dodges that reorder play on an extreme success,
// distraction, and experience.

// Event types of resolution. They are wire strings: never rename one.
const (
	EventTask      = "bpb.task"      // a task roll: check, attack, block, dodge or distract; data: taskData, Rolls[0], Odds
	EventDamaged   = "bpb.damaged"   // Endurance lost (or healed, negative); data: damageData
	EventStaggered = "bpb.staggered" // a staggering extreme success: the target loses its next turn; data: fray.NameData
	EventAwarded   = "bpb.awarded"   // experience points awarded (B-12); data: awardData
	EventSpent     = "bpb.spent"     // experience points spent (B-12); data: spendData
)

// Settings of resolution and their values, the default first.
const (
	SettingSuccess    = "success"    // open or expertise (B-1)
	SettingSmashing   = "smashing"   // prone or back: what a smashing success does (B-2, ours)
	SettingStaggering = "staggering" // turn or dazed: what a staggering success does (B-2, ours)
	SettingAttackVs   = "attackvs"   // agility or fixed: attack difficulty 8 + defender's Agility, or 8 (B-10, ours)
)

// Kinds of task roll (taskData.Roll, fray.Odds.Roll). They are wire
// strings: never rename one.
const (
	RollCheck    = "check"
	RollAttack   = "attack"
	RollBlock    = "block"
	RollDodge    = "dodge"
	RollDistract = "distract"
)

// TargetDifficulty is what a task roll's odds aim at (fray.Odds.TargetKind).
// It is a wire string.
const TargetDifficulty = "difficulty"

// Extreme-success options in combat (B-2). They are wire strings.
const (
	OptionOverwhelming = "overwhelming" // bonus damage: +1 (open) or +3 (expertise mode)
	OptionSmashing     = "smashing"     // the target is knocked prone (or back)
	OptionStaggering   = "staggering"   // the target loses its next turn (or is dazed)
)

// Conditions resolution sets. They are wire strings.
const (
	CondBlocking   = "blocking"   // may block further attacks until the next action (B-8)
	CondDodging    = "dodging"    // may dodge further attacks until the next action (B-8)
	CondDistracted = "distracted" // +3 to the next attack against them next round (B-11)
	CondOut        = "out"        // 0 Endurance (B-10)
	CondProne      = "prone"      // knocked prone by a smashing success (B-2, ours)
	CondBack       = "knocked back"
	CondDazed      = "dazed" // −3 to every roll until the end of the next turn (B-2 staggering=dazed, ours)
)

// Stat and track names.
const (
	StatBrawn        = "brawn"
	StatAgility      = "agility"
	StatAccuracy     = "accuracy"
	StatProwess      = "prowess"
	StatWillpower    = "willpower"
	TrackEndurance   = "endurance"
	TrackExperience  = "experience"
	ProtectionArmour = "armour"
)

// Distraction and defence numbers.
const (
	// DistractBonus is added to the next attack against a distracted
	// opponent (B-11).
	DistractBonus = 3
	// DazedPenalty is the staggering=dazed penalty (ours).
	DazedPenalty = -3
)

// taskData is the payload of EventTask. It is flat, so Apply copies it.
type taskData struct {
	Name string `json:"name" fray:"who"`
	Roll string `json:"roll"`
	Stat string `json:"stat"`
	// Target is the one attacked or distracted, or the attacker a block
	// or dodge answers.
	Target     string   `json:"target,omitempty" fray:"who"`
	Power      string   `json:"power,omitempty"`
	Rank       int      `json:"rank,omitempty"`
	Value      int      `json:"value"`
	Mods       int      `json:"mods,omitempty"`
	Expertise  bool     `json:"expertise,omitempty"`
	Mode       TaskMode `json:"mode"`
	Difficulty int      `json:"difficulty"`
	Total      int      `json:"total"`
	Band       TaskBand `json:"band"`
	Option     string   `json:"option,omitempty"`
	Damage     int      `json:"damage,omitempty"`
	Stunning   bool     `json:"stunning,omitempty"`
	// Effect marks an attack that inflicts no Endurance damage (such as
	// Telepathy): only the same power blocks or dodges it (B-8).
	Effect bool `json:"effect,omitempty"`
	// With is the defender's own power a block or dodge is made with
	// (B-8: the same power as the attack's, or a similar one the GM
	// allows).
	With string `json:"with,omitempty"`
}

// damageData is the payload of EventDamaged.
type damageData struct {
	Name   string `json:"name" fray:"who"`
	Amount int    `json:"amount"`
	By     string `json:"by,omitempty" fray:"who"`
	// Settles marks the damage of the pending hit.
	Settles bool `json:"settles,omitempty"`
}

type awardData struct {
	Name   string `json:"name" fray:"who"`
	Award  string `json:"award"`
	Points int    `json:"points"`
}

type spendData struct {
	Name   string `json:"name" fray:"who"`
	Points int    `json:"points"`
	On     string `json:"on"`
}

// Hit is an attack that has hit and waits for the defender's block, dodge
// or acceptance (B-8: a defence is chosen after the attack is known to
// hit).
type Hit struct {
	Attacker string `json:"attacker" fray:"who"`
	Defender string `json:"defender" fray:"who"`
	Power    string `json:"power"`
	Rank     int    `json:"rank"`
	Damage   int    `json:"damage"`
	Option   string `json:"option,omitempty"`
	// Effect marks an attack that inflicts no Endurance damage: only the
	// same power blocks or dodges it (B-8).
	Effect bool `json:"effect,omitempty"`
}

// Awards of B-12 and their points. They are wire strings.
var awards = map[string]int{
	"showed":       0, // showed up for the game
	"enthusiastic": 1, // played the game enthusiastically
	"concluded":    1, // concluded a lengthy series of games
	"lowest":       1, // has the lowest experience in the group
	"roleplayed":   1, // role-played exceptionally: one player
	"clever":       1, // was clever and inventive: one other player
}

var awardNames = []string{"showed", "enthusiastic", "concluded", "lowest", "roleplayed", "clever"}

// task is a planned task roll: everything but the dice.
type task struct {
	d    taskData
	roll TaskRoll
	mods []fray.Modifier // every term after the dice, for the breakdown
	// spent lists the once-only conditions the roll uses up.
	spent []engine.ConditionRef
	// against is the pending hit a block or dodge is rolled against.
	against *Hit
	// protection is the defender's protection against an attack.
	protection int
}

// two6 is the distribution of 2d6, worked out once by package dice.
var two6 = func() [13]float64 {
	var p [13]float64
	e, err := dice.Parse(TaskDice)
	if err != nil {
		panic(err)
	}
	d, err := e.Dist(dice.DistOptions{})
	if err != nil {
		panic(err)
	}
	for v := 2; v <= 12; v++ {
		p[v] = d.Prob(v)
	}
	return p
}()

func (s *State) mode() TaskMode {
	m, _ := ParseTaskMode(s.Setting(SettingSuccess, string(TaskModeOpen)))
	return m
}

// odds returns the odds of the planned roll, damage distribution
// included for an attack.
func (t *task) odds(cmdText string) fray.Odds {
	r := t.roll
	o := fray.Odds{
		Command:    cmdText,
		For:        t.d.Name,
		Roll:       t.d.Roll,
		Expr:       r.Expr(),
		Target:     r.Difficulty,
		TargetKind: TargetDifficulty,
		Modifiers:  t.mods,
	}
	bands := r.Bands()
	var ps, dmgP [3]float64
	var dmgV [3]int
	mean := 0.0
	for v := 2; v <= 12; v++ {
		total := v + r.Bonus()
		i := bandIndex(r.Band(total))
		ps[i] += two6[v]
		mean += two6[v] * float64(total)
	}
	o.Bands = make([]fray.Band, len(bands))
	for i, b := range bands {
		o.Bands[i] = fray.Band{Name: bandName(t.d.Roll, b), P: ps[i]}
	}
	o.Mean = mean
	if t.d.Roll == RollAttack {
		o.DistOf, o.Mean = fray.DistDamage, 0
		for i, b := range bands {
			dmgV[i], dmgP[i] = t.damageFor(b), ps[i]
		}
		// Bands with the same damage share a point.
		for i := range bands {
			if dmgP[i] == 0 {
				continue
			}
			merged := false
			for j := range o.Dist {
				if o.Dist[j].V == dmgV[i] {
					o.Dist[j].P += dmgP[i]
					merged = true
				}
			}
			if !merged {
				o.Dist = append(o.Dist, fray.Point{V: dmgV[i], P: dmgP[i]})
			}
			o.Mean += float64(dmgV[i]) * dmgP[i]
		}
		slices.SortFunc(o.Dist, func(a, b fray.Point) int { return a.V - b.V })
	} else {
		o.Dist = make([]fray.Point, 0, 11)
		for v := 2; v <= 12; v++ {
			o.Dist = append(o.Dist, fray.Point{V: v + r.Bonus(), P: two6[v]})
		}
	}
	return o
}

// bandIndex is the place of a band among TaskRoll.Bands.
func bandIndex(b TaskBand) int {
	switch b {
	case TaskFailure:
		return 0
	case TaskSuccess:
		return 1
	}
	return 2
}

// bandName says a band of a kind of roll in its own words.
func bandName(roll string, b TaskBand) string {
	switch roll {
	case RollAttack:
		switch b {
		case TaskFailure:
			return "miss"
		case TaskSuccess:
			return "hit"
		case TaskRemarkable:
			return "remarkable hit"
		case TaskExtreme:
			return "extreme hit"
		}
	case RollBlock, RollDodge:
		switch b {
		case TaskFailure:
			return "fails"
		case TaskSuccess:
			return "negates"
		case TaskRemarkable:
			return "negates (remarkable)"
		case TaskExtreme:
			return "negates, extreme: reorders"
		}
	}
	return string(b)
}

// damageFor is the damage an attack does with band b (before a block or
// dodge): rank, +1 rank on a remarkable success, + the overwhelming bonus,
// − protection, at least 0; 0 on a miss.
func (t *task) damageFor(b TaskBand) int {
	if b == TaskFailure || t.d.Effect {
		return 0
	}
	dmg := t.d.Rank
	if b == TaskRemarkable {
		dmg++
	}
	if b == TaskExtreme && t.d.Option == OptionOverwhelming {
		dmg += overwhelmingBonus(t.d.Mode)
	}
	return max(dmg-t.protection, 0)
}

func overwhelmingBonus(m TaskMode) int {
	if m == TaskModeExpertise {
		return 3
	}
	return 1
}

// sheetStat returns a stat, refusing a combatant without it.
func sheetStat(c *fray.Combatant, stat string) (int, error) {
	v, ok := c.Stats[stat]
	if !ok {
		return 0, fray.Errorf(fray.EINVALID, "%s has no %s rank; give it with add %s %s=N or a sheet.", c, title(stat), quoteName(c.Name), stat)
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

var taskStats = []string{"brawn", StatAgility, StatAccuracy, StatProwess, StatPerception, StatWillpower, StatSuperSpeed}

// modOpt reads mod=N, the GM's modifier.
func modOpt(cmd fray.Command) (int, bool, error) {
	v, ok := cmd.Opts["mod"]
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
	if err != nil || n < -20 || n > 20 {
		return 0, false, fray.Errorf(fray.EINVALID, "mod=%s is not a whole number from -20 to +20.", v)
	}
	return n, true, nil
}

// finish adds the GM's and the conditions' modifiers to a planned task.
func (s *State) finish(t *task, cmd fray.Command, actor, target *fray.Combatant, kind string) error {
	if t.d.Expertise {
		t.mods = append(t.mods, fray.Modifier{Source: "expertise", Value: TaskExpertiseBonus})
	}
	cm, spent := engine.Modifiers(actor, target, kind, s.Round)
	t.mods = append(t.mods, cm...)
	t.spent = spent
	for _, m := range cm {
		t.d.Mods += m.Value
	}
	if n, ok, err := modOpt(cmd); err != nil {
		return err
	} else if ok {
		t.mods = append(t.mods, fray.Modifier{Source: "GM", Value: n})
		t.d.Mods += n
	}
	t.d.Mode = s.mode()
	t.roll = TaskRoll{Value: t.d.Value + t.d.Mods, Difficulty: t.d.Difficulty, Expertise: t.d.Expertise, Mode: t.d.Mode}
	return t.roll.check()
}

// planCheck plans "check NAME STAT [vs=RANK|difficulty=N|challenging]
// [expertise=yes|SKILL] [mod=N]" (B-1).
func (s *State) planCheck(cmd fray.Command) (*task, error) {
	if err := engine.CheckArgs(cmd, 2, 2, "check NAME STAT [vs=RANK|difficulty=N|difficulty=challenging] [expertise=yes|SKILL] [mod=N]"); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd, "vs", "difficulty", "expertise", "mod"); err != nil {
		return nil, err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return nil, err
	}
	stat := strings.ToLower(cmd.Args[1])
	if !slices.Contains(taskStats, stat) {
		return nil, fray.Errorf(fray.EINVALID, "%s is not a stat to roll; use one of %s.", cmd.Args[1], strings.Join(taskStats, ", "))
	}
	v, err := sheetStat(c, stat)
	if err != nil {
		return nil, err
	}
	t := &task{d: taskData{Name: c.Name, Roll: RollCheck, Stat: stat, Value: v, Difficulty: TaskChallenging}}
	t.mods = []fray.Modifier{{Source: title(stat), Value: v}}
	vs, hasVs := cmd.Opts["vs"]
	df, hasDf := cmd.Opts["difficulty"]
	switch {
	case hasVs && hasDf:
		return nil, fray.Errorf(fray.EINVALID, "Give vs= (an opposing rank) or difficulty=, not both.")
	case hasVs:
		n, err := strconv.Atoi(vs)
		if err != nil || n < 0 || n > 100 {
			return nil, fray.Errorf(fray.EINVALID, "vs=%s is not a rank from 0 to 100.", vs)
		}
		t.d.Difficulty = TaskDifficulty(n)
	case hasDf && df != "challenging":
		n, err := strconv.Atoi(df)
		if err != nil || n < 0 || n > 200 {
			return nil, fray.Errorf(fray.EINVALID, "difficulty=%s is not a number from 0 to 200 or challenging.", df)
		}
		t.d.Difficulty = n
	}
	if x, ok := cmd.Opts["expertise"]; ok {
		yes, err := engine.ParseYesNo("expertise", x)
		if err != nil {
			if !c.HasExpertise(x) {
				return nil, fray.Errorf(fray.EINVALID, "%s has no expertise in %s.", c, x)
			}
			yes = true
		}
		t.d.Expertise = yes
	}
	return t, s.finish(t, cmd, c, nil, fray.AppliesCheck)
}

// attackOpts are the keys of attack.
var attackOpts = []string{"with", "choose", "mod", "rank", "range", "endurance"}

// attackUsage is the usage of attack.
const attackUsage = "attack ATTACKER TARGET with=POWER [choose=overwhelming|smashing|staggering] [mod=N] [rank=N range=close|ranged] [endurance=no]"

// planAttack plans "attack A B with=POWER [choose=OPTION] [mod=N]
// [endurance=no]" (B-10). endurance=no marks a power that inflicts no
// Endurance damage, such as Telepathy (B-8: only the same power blocks or
// dodges it); its hit does no damage and its effect is the GM's.
func (s *State) planAttack(cmd fray.Command) (*task, error) {
	const usage = attackUsage
	if err := engine.CheckArgs(cmd, 2, 2, usage); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd, attackOpts...); err != nil {
		return nil, err
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
		return nil, fray.Errorf(fray.EINVALID, "%s cannot attack themself.", a)
	}
	with, ok := cmd.Opts["with"]
	if !ok || with == "" {
		return nil, fray.Errorf(fray.EINVALID, "Name the power or weapon: with=POWER (%s has %s).", a, powerList(a))
	}
	p := a.Power(with)
	pw := fray.Power{Name: with, Range: "close"}
	if p != nil {
		pw = *p
		if pw.Range == "" {
			pw.Range = "close"
		}
		if _, ok := cmd.Opts["rank"]; ok {
			return nil, fray.Errorf(fray.EINVALID, "%s's %s has rank %d on the sheet; rank= is for a power not on it.", a, pw.Name, pw.Rank)
		}
	} else {
		rk, ok := cmd.Opts["rank"]
		if !ok {
			return nil, fray.Errorf(fray.ENOTFOUND, "%s has no power or weapon named %q (%s has %s); give rank=N for one not on the sheet.", a, with, a, powerList(a))
		}
		n, err := strconv.Atoi(rk)
		if err != nil || n < 0 || n > 30 {
			return nil, fray.Errorf(fray.EINVALID, "rank=%s is not a rank from 0 to 30.", rk)
		}
		pw.Rank = n
	}
	if r, ok := cmd.Opts["range"]; ok {
		if r != "close" && r != "ranged" {
			return nil, fray.Errorf(fray.EINVALID, "range=%s: use range=close or range=ranged.", r)
		}
		pw.Range = r
	}
	stat := StatProwess
	if pw.Range == "ranged" {
		stat = StatAccuracy
	}
	v, err := sheetStat(a, stat)
	if err != nil {
		return nil, err
	}
	t := &task{d: taskData{Name: a.Name, Roll: RollAttack, Stat: stat, Target: b.Name, Power: pw.Name, Rank: pw.Rank, Value: v,
		Difficulty: TaskBaseDifficulty, Expertise: a.HasExpertise(pw.Name), Option: OptionOverwhelming, Stunning: pw.Damage == "stunning"}}
	t.mods = []fray.Modifier{{Source: title(stat), Value: v}}
	if s.Setting(SettingAttackVs, "agility") == "agility" {
		ag, err := sheetStat(b, StatAgility)
		if err != nil {
			return nil, err
		}
		t.d.Difficulty = TaskDifficulty(ag)
	}
	if o, ok := cmd.Opts["choose"]; ok {
		switch o {
		case OptionOverwhelming, OptionSmashing, OptionStaggering:
			t.d.Option = o
		default:
			return nil, fray.Errorf(fray.EINVALID, "choose=%s is not an extreme-success option; use overwhelming, smashing or staggering.", o)
		}
	}
	if v, ok := cmd.Opts["endurance"]; ok {
		yes, err := engine.ParseYesNo("endurance", v)
		if err != nil {
			return nil, err
		}
		t.d.Effect = !yes
	}
	// Protection: Brawn against stunning damage, armour otherwise (B-10).
	if t.d.Stunning {
		t.protection = b.Stat(StatBrawn)
	} else {
		t.protection = b.Protection[ProtectionArmour]
	}
	return t, s.finish(t, cmd, a, b, fray.AppliesAttack)
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

// defenceUsage is the usage of block and dodge.
const defenceUsage = "block NAME | dodge NAME [with=POWER [similar=yes]] [mod=N]"

// planDefence plans "block NAME" or "dodge NAME" against the pending hit
// (B-8); it returns nil when there is no hit to roll against (a defence
// declared on one's own turn).
//
// with=POWER blocks or dodges with the defender's own power: the seed
// lets a defender with the same power as the attacker's use it, even
// against an attack that inflicts no Endurance damage, which nothing else
// blocks; similar=yes is the GM's leave to use a power of like theme or
// source. The roll stays the block's Prowess or the dodge's Agility
// against 8 + the attack's rank, and costs what any block or dodge costs
// (one's turn, or a forced action); expertise in blocking or dodging, or
// in that power, adds +3 (ours: the seed names no other roll).
func (s *State) planDefence(cmd fray.Command) (*task, *fray.Combatant, error) {
	if err := engine.CheckArgs(cmd, 1, 1, defenceUsage); err != nil {
		return nil, nil, err
	}
	if err := engine.CheckOpts(cmd, "mod", "with", "similar"); err != nil {
		return nil, nil, err
	}
	c, err := s.character(cmd.Args[0], cmd.Name)
	if err != nil {
		return nil, nil, err
	}
	if err := s.needStarted(); err != nil {
		return nil, nil, err
	}
	var with *fray.Power
	similar := false
	if v, ok := cmd.Opts["similar"]; ok {
		if similar, err = engine.ParseYesNo("similar", v); err != nil {
			return nil, nil, err
		}
	}
	if w, ok := cmd.Opts["with"]; ok {
		if with = c.Power(w); with == nil {
			return nil, nil, fray.Errorf(fray.ENOTFOUND, "%s has no power named %q to %s with (%s has %s).", c, w, cmd.Name, c, powerList(c))
		}
	} else if similar {
		return nil, nil, fray.Errorf(fray.EINVALID, "similar=yes goes with with=POWER: name the power %s uses to %s.", c, cmd.Name)
	}
	h := s.Pending
	if h == nil || !fray.SameName(h.Defender, c.Name) {
		return nil, c, nil
	}
	switch {
	case with != nil && !similar && !fray.SameName(with.Name, h.Power):
		return nil, nil, fray.Errorf(fray.EINVALID, "%s's %s is not the %s %s attacked with; only the same power can %s it (similar=yes, with the GM's leave, for a power of like theme or source).", c, with.Name, h.Power, fray.Mention(h.Attacker), cmd.Name)
	case with == nil && h.Effect:
		hint := ""
		if p := c.Power(h.Power); p != nil {
			hint = ": " + cmd.Name + " " + quoteName(c.Name) + " with=" + quoteName(p.Name)
		}
		return nil, nil, fray.Errorf(fray.EINVALID, "%s's %s inflicts no Endurance damage, so only the same power can %s it%s.", fray.Mention(h.Attacker), h.Power, cmd.Name, hint)
	}
	stat, skill := StatProwess, "blocking"
	if cmd.Name == RollDodge {
		stat, skill = StatAgility, "dodging"
	}
	v, err := sheetStat(c, stat)
	if err != nil {
		return nil, nil, err
	}
	t := &task{d: taskData{Name: c.Name, Roll: cmd.Name, Stat: stat, Target: h.Attacker, Power: h.Power, Rank: h.Rank, Value: v,
		Difficulty: TaskDifficulty(h.Rank), Expertise: c.HasExpertise(skill)}, against: h}
	if with != nil {
		t.d.With = with.Name
		t.d.Expertise = t.d.Expertise || c.HasExpertise(with.Name)
	}
	t.mods = []fray.Modifier{{Source: title(stat), Value: v}}
	return t, c, s.finish(t, cmd, c, nil, fray.AppliesDefence)
}

// planDistract plans "distract A B" (B-11): Willpower against 8 + the
// opponent's Willpower.
func (s *State) planDistract(cmd fray.Command) (*task, error) {
	if err := engine.CheckArgs(cmd, 2, 2, "distract NAME OPPONENT [mod=N]"); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd, "mod"); err != nil {
		return nil, err
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
		return nil, fray.Errorf(fray.EINVALID, "%s cannot distract themself.", a)
	}
	v, err := sheetStat(a, StatWillpower)
	if err != nil {
		return nil, err
	}
	w, err := sheetStat(b, StatWillpower)
	if err != nil {
		return nil, err
	}
	t := &task{d: taskData{Name: a.Name, Roll: RollDistract, Stat: StatWillpower, Target: b.Name, Value: v, Difficulty: TaskDifficulty(w), Expertise: a.HasExpertise("distraction")}}
	t.mods = []fray.Modifier{{Source: "Willpower", Value: v}}
	return t, s.finish(t, cmd, a, nil, fray.AppliesCheck)
}

// plan plans the task roll of a command, for Decide and Odds.
func (s *State) plan(cmd fray.Command) (*task, error) {
	switch cmd.Name {
	case RollCheck:
		return s.planCheck(cmd)
	case RollAttack:
		if err := s.needStarted(); err != nil {
			return nil, err
		}
		return s.planAttack(cmd)
	case RollBlock, RollDodge:
		t, c, err := s.planDefence(cmd)
		if err == nil && t == nil {
			err = fray.Errorf(fray.EINVALID, "No attack has hit %s, so there is nothing to %s yet; %s %s on their turn declares a %s without a roll.", c, cmd.Name, cmd.Name, quoteName(c.Name), cmd.Name)
		}
		return t, err
	case RollDistract:
		return s.planDistract(cmd)
	}
	return nil, fray.Errorf(fray.EINVALID, "%s rolls no dice, so it has no odds; the rolls are check, attack, block, dodge, distract and start order=rolled.", cmd.Name)
}

// Odds returns the exact odds of the roll a command would make (E-6):
// a task roll, or the rolled order of play at the start (B-4).
func (*System) Odds(st fray.State, cmd fray.Command) (fray.Odds, error) {
	s := state(st)
	if cmd.Name == "start" {
		return s.startOdds(cmd)
	}
	t, err := s.plan(cmd)
	if err != nil {
		return fray.Odds{}, err
	}
	return t.odds(cmd.String()), nil
}

// rollTask rolls a planned task and returns its event with the odds it had.
func (t *task) rollTask(cmd fray.Command, r fray.Roller) (fray.Event, error) {
	o := t.odds(cmd.String())
	// The dice alone are rolled (so that roll=N gives their total, as at
	// the table); the bonus is added here.
	roll, err := r.Roll(t.d.Name, TaskDice)
	if err != nil {
		return fray.Event{}, err
	}
	t.d.Total = roll.Total + t.roll.Bonus()
	t.d.Band = t.roll.Band(t.d.Total)
	if t.d.Roll == RollAttack {
		t.d.Damage = t.damageFor(t.d.Band)
	}
	ev, err := fray.NewEvent(EventTask, t.d, roll)
	ev.Odds = &o
	return ev, err
}

// decideTask decides check, attack, block, dodge and distract.
func (s *State) decideTask(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	switch cmd.Name {
	case RollAttack:
		return s.decideAttack(cmd, r)
	case RollBlock, RollDodge:
		return s.decideDefence(cmd, r)
	}
	t, err := s.plan(cmd)
	if err != nil {
		return nil, err
	}
	ev, err := t.rollTask(cmd, r)
	if err != nil {
		return nil, err
	}
	evs := []fray.Event{ev}
	if t.d.Roll == RollDistract && t.d.Band != TaskFailure {
		// +3 to the next attack against the opponent in the following
		// round, then gone (B-11).
		c, err := fray.NewEvent(fray.EventCondition, fray.ConditionData{Name: t.d.Target, Condition: fray.Condition{
			Name: CondDistracted, By: t.d.Name, Since: s.Round, From: s.Round + 1,
			Until: &fray.Anchor{Round: s.Round + 1, Edge: fray.EdgeEnd}, Once: true,
			Modifiers: []fray.Modifier{{Source: CondDistracted, Value: DistractBonus, On: fray.AppliesAttacked}},
		}})
		if err != nil {
			return nil, err
		}
		evs = append(evs, c)
	}
	return s.spend(evs, t)
}

// spend appends the events that end the once-only conditions t used.
func (s *State) spend(evs []fray.Event, t *task) ([]fray.Event, error) {
	more, err := engine.SpendEvents(t.spent)
	if err != nil {
		return nil, err
	}
	return append(evs, more...), nil
}

func (s *State) decideAttack(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	t, err := s.plan(cmd)
	if err != nil {
		return nil, err
	}
	if cur := s.currentName(); !fray.SameName(cur, t.d.Name) {
		return nil, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's; attacks are made on one's turn.", fray.Mention(cur), fray.Mention(t.d.Name))
	}
	if b := s.Find(t.d.Target); b.Condition(CondOut) != nil {
		return nil, fray.Errorf(fray.EINVALID, "%s is out (0 Endurance) already.", b)
	}
	ev, err := t.rollTask(cmd, r)
	if err != nil {
		return nil, err
	}
	evs := []fray.Event{ev}
	if t.d.Band != TaskFailure {
		// A defender already blocking or dodging rolls at once; otherwise
		// the hit waits for block, dodge or take (B-8).
		// An attack that inflicts no Endurance damage is met only with
		// the same power; without it the hit waits.
		b := s.Find(t.d.Target)
		var with *fray.Power
		if t.d.Effect {
			with = b.Power(t.d.Power)
		}
		for _, def := range []string{CondBlocking, CondDodging} {
			if b.Condition(def) == nil || t.d.Effect && with == nil {
				continue
			}
			h := &Hit{Attacker: t.d.Name, Defender: b.Name, Power: t.d.Power, Rank: t.d.Rank, Damage: t.d.Damage, Option: t.d.Option, Effect: t.d.Effect}
			if t.d.Band != TaskExtreme {
				h.Option = ""
			}
			s2 := s.Clone().(*State)
			s2.Pending = h
			dc := fray.Command{Name: map[string]string{CondBlocking: RollBlock, CondDodging: RollDodge}[def], Args: []string{b.Name}}
			if with != nil {
				dc.Opts = map[string]string{"with": with.Name}
			}
			more, err := s2.decideDefence(dc, r)
			if err != nil {
				return nil, err
			}
			evs = append(evs, more...)
			break
		}
	}
	return s.spend(evs, t)
}

// decideDefence decides block and dodge: a defence declared on one's turn
// (a condition until the next action), or a roll against the pending hit,
// forcing the defender's action when it is not their turn and they are
// not already blocking or dodging (B-7, B-8), with the reorder on an
// extreme success (B-9).
func (s *State) decideDefence(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	t, c, err := s.planDefence(cmd)
	if err != nil {
		return nil, err
	}
	cond := CondBlocking
	if cmd.Name == RollDodge {
		cond = CondDodging
	}
	stance := func() (fray.Event, error) {
		return fray.NewEvent(fray.EventCondition, fray.ConditionData{Name: c.Name, Condition: fray.Condition{
			Name: cond, Since: s.Round, Until: &fray.Anchor{Round: s.Round, Name: c.Name, Edge: fray.EdgeStart},
			Note: "may " + cmd.Name + " further attacks until their next action",
		}})
	}
	own := fray.SameName(s.currentName(), c.Name)
	if t == nil {
		if !own {
			return nil, fray.Errorf(fray.EINVALID, "No attack has hit %s, so there is nothing to %s; a %s is declared on one's own turn or forced against a hit.", c, cmd.Name, cmd.Name)
		}
		ev, err := stance()
		return []fray.Event{ev}, err
	}
	var evs []fray.Event
	already := c.Condition(CondBlocking) != nil || c.Condition(CondDodging) != nil
	if !own && !already {
		// A forced action (B-7), in the seed's words.
		verb := map[string]string{RollBlock: "blocks attack by ", RollDodge: "dodges an attack by "}[cmd.Name]
		fev, err := s.force(fray.Command{Name: "force", Args: []string{c.Name}, Opts: map[string]string{"note": verb + t.against.Attacker}}, []string{t.against.Attacker})
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s cannot %s: %s", c, cmd.Name, fray.Quote(err))
		}
		evs = append(evs, fev)
	}
	ev, err := t.rollTask(cmd, r)
	if err != nil {
		return nil, err
	}
	evs = append(evs, ev)
	if !already || own {
		sev, err := stance()
		if err != nil {
			return nil, err
		}
		evs = append(evs, sev)
	}
	h := *t.against
	if t.d.Band == TaskFailure {
		more, err := s.hitEvents(h)
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	} else if t.d.Band == TaskExtreme && !fray.SameName(h.Attacker, c.Name) && engine.Index(s.Order, h.Attacker) >= 0 {
		// B-9: from the next round the attacker acts right after the
		// defender.
		rev, err := fray.NewEvent(EventReordered, placeData{Name: h.Attacker, After: c.Name})
		if err != nil {
			return nil, err
		}
		evs = append(evs, rev)
	}
	return s.spend(evs, t)
}

// hitEvents returns the events of a hit that lands: the damage, out at 0
// Endurance, and a smashing or staggering extreme success (B-2, B-10).
func (s *State) hitEvents(h Hit) ([]fray.Event, error) {
	b := s.Find(h.Defender)
	var evs []fray.Event
	ev, err := fray.NewEvent(EventDamaged, damageData{Name: b.Name, Amount: h.Damage, By: h.Attacker, Settles: true})
	if err != nil {
		return nil, err
	}
	evs = append(evs, ev)
	if end := endurance(b); h.Damage > 0 && end.Value-h.Damage <= 0 && b.Condition(CondOut) == nil {
		c, err := fray.NewEvent(fray.EventCondition, fray.ConditionData{Name: b.Name, Condition: fray.Condition{Name: CondOut, By: h.Attacker, Since: s.Round, Note: "0 Endurance"}})
		if err != nil {
			return nil, err
		}
		evs = append(evs, c)
	}
	var cond *fray.Condition
	switch h.Option {
	case OptionSmashing:
		name := CondProne
		if s.Setting(SettingSmashing, "prone") == "back" {
			name = CondBack
		}
		cond = &fray.Condition{Name: name, By: h.Attacker, Since: s.Round, Note: "smashing success"}
	case OptionStaggering:
		if s.Setting(SettingStaggering, "turn") == "dazed" {
			cond = &fray.Condition{Name: CondDazed, By: h.Attacker, Since: s.Round, Until: &fray.Anchor{Round: s.Round, Name: b.Name, Edge: fray.EdgeEnd},
				Modifiers: []fray.Modifier{{Source: CondDazed, Value: DazedPenalty, On: fray.AppliesAll}}, Note: "staggering success"}
		} else if engine.Index(s.Order, b.Name) >= 0 {
			ev, err := fray.NewEvent(EventStaggered, fray.NameData{Name: b.Name})
			if err != nil {
				return nil, err
			}
			evs = append(evs, ev)
		}
	}
	if cond != nil {
		ev, err := fray.NewEvent(fray.EventCondition, fray.ConditionData{Name: b.Name, Condition: *cond})
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// endurance returns a combatant's Endurance track: from the sheet, or the
// endurance stat of add.
func endurance(c *fray.Combatant) fray.Track {
	if t, ok := c.Tracks[TrackEndurance]; ok {
		return t
	}
	n := c.Stat(TrackEndurance)
	return fray.Track{Value: n, Max: n}
}

// decideTake decides "take NAME": the defender takes the pending hit.
func (s *State) decideTake(cmd fray.Command) ([]fray.Event, error) {
	if err := engine.CheckArgs(cmd, 0, 1, "take [NAME]"); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return nil, err
	}
	if s.Pending == nil {
		return nil, fray.Errorf(fray.EINVALID, "No attack is waiting for a block, dodge or take.")
	}
	if len(cmd.Args) == 1 {
		c, err := s.Lookup(cmd.Args[0])
		if err != nil {
			return nil, err
		}
		if !fray.SameName(c.Name, s.Pending.Defender) {
			return nil, fray.Errorf(fray.EINVALID, "The attack waiting is against %s, not %s.", fray.Mention(s.Pending.Defender), c)
		}
	}
	return s.hitEvents(*s.Pending)
}

// decideDamage decides "damage NAME N" and "heal NAME N": Endurance lost
// or regained at the GM's word.
func (s *State) decideDamage(cmd fray.Command) ([]fray.Event, error) {
	if err := engine.CheckArgs(cmd, 2, 2, cmd.Name+" NAME N"); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return nil, err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return nil, err
	}
	n, err := engine.Amount(cmd, 1, 0, "Endurance")
	if err != nil {
		return nil, err
	}
	if cmd.Name == "heal" {
		n = -n
	}
	ev, err := fray.NewEvent(EventDamaged, damageData{Name: c.Name, Amount: n})
	if err != nil {
		return nil, err
	}
	evs := []fray.Event{ev}
	end := endurance(c)
	switch {
	case n > 0 && end.Value-n <= 0 && c.Condition(CondOut) == nil:
		ev, err = fray.NewEvent(fray.EventCondition, fray.ConditionData{Name: c.Name, Condition: fray.Condition{Name: CondOut, Since: s.Round, Note: "0 Endurance"}})
		evs = append(evs, ev)
	case n < 0 && min(end.Value-n, end.Max) > 0 && c.Condition(CondOut) != nil:
		ev, err = fray.NewEvent(fray.EventCleared, fray.ClearedData{Name: c.Name, Condition: CondOut})
		evs = append(evs, ev)
	}
	return evs, err
}

// decideAward decides "award NAME AWARD" (B-12): only player characters
// get awards; "roleplayed" and "clever" go to one player each, two
// different players; "lowest" to a player with the lowest experience;
// each award once per player.
func (s *State) decideAward(cmd fray.Command) ([]fray.Event, error) {
	usage := "award NAME " + strings.Join(awardNames, "|")
	if err := engine.CheckArgs(cmd, 2, 2, usage); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd); err != nil {
		return nil, err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return nil, err
	}
	a := strings.ToLower(cmd.Args[1])
	pts, ok := awards[a]
	if !ok {
		return nil, fray.Errorf(fray.EINVALID, "%s is not an award; the awards are %s.", cmd.Args[1], strings.Join(awardNames, ", "))
	}
	if !c.IsPC() {
		return nil, fray.Errorf(fray.EINVALID, "%s is not a player character; experience goes to the players' characters.", c)
	}
	for _, x := range s.Awards {
		if fray.SameName(x.Name, c.Name) && x.Award == a {
			return nil, fray.Errorf(fray.EINVALID, "%s already has the %s award this story arc.", c, a)
		}
		if (a == "roleplayed" || a == "clever") && x.Award == a {
			return nil, fray.Errorf(fray.EINVALID, "The %s award already went to %s; only one player gets it.", a, fray.Mention(x.Name))
		}
		if (a == "roleplayed" && x.Award == "clever" || a == "clever" && x.Award == "roleplayed") && fray.SameName(x.Name, c.Name) {
			return nil, fray.Errorf(fray.EINVALID, "%s has the %s award; roleplayed and clever go to two different players.", c, x.Award)
		}
	}
	if a == "lowest" {
		mine := experience(c)
		for _, o := range s.Combatants {
			if o.IsPC() && experience(o) < mine {
				return nil, fray.Errorf(fray.EINVALID, "%s has %d experience points, more than %s's %d; the lowest award goes to the lowest.", c, mine, o, experience(o))
			}
		}
	}
	ev, err := fray.NewEvent(EventAwarded, awardData{Name: c.Name, Award: a, Points: pts})
	return []fray.Event{ev}, err
}

func experience(c *fray.Combatant) int { return c.Tracks[TrackExperience].Value }

// decideSpend decides "spend NAME N on=STAT|POWER|expertise:SKILL" (B-12):
// 1 point per rank, or 1 point for expertise.
func (s *State) decideSpend(cmd fray.Command) ([]fray.Event, error) {
	const usage = "spend NAME N on=STAT|POWER|expertise:SKILL"
	if err := engine.CheckArgs(cmd, 2, 2, usage); err != nil {
		return nil, err
	}
	if err := engine.CheckOpts(cmd, "on"); err != nil {
		return nil, err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(cmd.Args[1])
	if err != nil || n < 1 || n > 100 {
		return nil, fray.Errorf(fray.EINVALID, "%s is not a number of points from 1 to 100.", cmd.Args[1])
	}
	on, ok := cmd.Opts["on"]
	if !ok || on == "" {
		return nil, fray.Errorf(fray.EINVALID, "Usage: %s.", usage)
	}
	if have := experience(c); have < n {
		return nil, fray.Errorf(fray.EINVALID, "%s has %d unspent experience points, not %d.", c, have, n)
	}
	on = strings.ToLower(on)
	switch {
	case strings.HasPrefix(on, "expertise:"):
		skill := strings.TrimPrefix(on, "expertise:")
		if skill == "" || len(skill) > 64 {
			return nil, fray.Errorf(fray.EINVALID, "Name the skill: on=expertise:SKILL.")
		}
		if c.HasExpertise(skill) {
			return nil, fray.Errorf(fray.EINVALID, "%s already has expertise in %s.", c, skill)
		}
		if n != 1 {
			return nil, fray.Errorf(fray.EINVALID, "Expertise costs 1 point, not %d.", n)
		}
	case slices.Contains(taskStats, on):
		if _, ok := c.Stats[on]; !ok {
			return nil, fray.Errorf(fray.EINVALID, "%s has no %s rank to raise.", c, title(on))
		}
		if c.Stats[on]+n > 14 {
			return nil, fray.Errorf(fray.EINVALID, "%s's %s would be %d; ranks go up to 14.", c, title(on), c.Stats[on]+n)
		}
	default:
		p := c.Power(on)
		if p == nil {
			return nil, fray.Errorf(fray.ENOTFOUND, "%s has no stat, power or weapon named %q to raise (%s).", c, on, powerList(c))
		}
		if p.Rank+n > 14 {
			return nil, fray.Errorf(fray.EINVALID, "%s's %s would be rank %d; ranks go up to 14.", c, p.Name, p.Rank+n)
		}
		on = p.Name
	}
	ev, err := fray.NewEvent(EventSpent, spendData{Name: c.Name, Points: n, On: on})
	return []fray.Event{ev}, err
}

// applyResolution applies the events of resolution; handled is false for
// any other event.
func (s *State) applyResolution(ev fray.Event) (handled bool, err error) {
	switch ev.Type {
	case EventTask:
		var d taskData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		switch d.Roll {
		case RollAttack:
			s.Pending = nil
			if d.Band != TaskFailure {
				h := &Hit{Attacker: d.Name, Defender: d.Target, Power: d.Power, Rank: d.Rank, Damage: d.Damage, Effect: d.Effect}
				if d.Band == TaskExtreme {
					h.Option = d.Option
				}
				s.Pending = h
			}
		case RollBlock, RollDodge:
			if d.Band != TaskFailure {
				s.Pending = nil
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
		t := endurance(c)
		t.Value = min(max(t.Value-d.Amount, 0), t.Max)
		if c.Tracks == nil {
			c.Tracks = map[string]fray.Track{}
		}
		c.Tracks[TrackEndurance] = t
		if d.Settles {
			s.Pending = nil
		}
	case EventStaggered:
		var d fray.NameData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		held, idx, round := s.forceCost(d.Name)
		switch {
		case held:
			delete(s.Held, d.Name)
		case idx >= 0:
			s.Seq[idx].Mark = markLost
		default:
			s.Lost = append(s.Lost, LostTurn{Name: d.Name, Round: round})
		}
	case EventAwarded:
		var d awardData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.Find(d.Name)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d awards %q, who is not present.", ev.Seq, fray.Mention(d.Name))
		}
		s.Awards = append(s.Awards, d)
		addTrack(c, TrackExperience, d.Points)
	case EventSpent:
		var d spendData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := s.Find(d.Name)
		if c == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d spends %q's points, who is not present.", ev.Seq, fray.Mention(d.Name))
		}
		addTrack(c, TrackExperience, -d.Points)
		switch {
		case strings.HasPrefix(d.On, "expertise:"):
			c.Expertise = append(c.Expertise, strings.TrimPrefix(d.On, "expertise:"))
		case slices.Contains(taskStats, d.On):
			c.Stats[d.On] += d.Points
		default:
			if p := c.Power(d.On); p != nil {
				p.Rank += d.Points
			}
		}
	default:
		return false, nil
	}
	return true, nil
}

// addTrack adds n to a track's value and max (experience has no other
// maximum).
func addTrack(c *fray.Combatant, name string, n int) {
	if c.Tracks == nil {
		c.Tracks = map[string]fray.Track{}
	}
	t := c.Tracks[name]
	t.Value += n
	t.Max = max(t.Max, t.Value)
	c.Tracks[name] = t
}
