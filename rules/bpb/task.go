package bpb

import (
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// task is a planned task roll: everything but the dice.
type task struct {
	d    taskData
	roll TaskRoll
	// stat is the first term after the dice, the stat's rank, and extra
	// those after it: the breakdown (modifiers) is both, made only for
	// the odds a recorded roll keeps.
	stat  fray.Modifier
	extra []fray.Modifier
	// actor is who rolls, and target whom an attack or a distraction is
	// against (nil for any other roll), as the command names them.
	actor, target *fray.Combatant
	// spent lists the once-only conditions the roll uses up.
	spent []engine.ConditionRef
	// against is the pending hit a block or dodge is rolled against.
	against *Hit
	// protection is the defender's protection against an attack.
	protection int
}

func (s *State) mode() TaskMode {
	m, _ := ParseTaskMode(s.Setting(SettingSuccess, string(TaskModeOpen)))
	return m
}

// sheetStat returns a stat, refusing a combatant without it.
func sheetStat(c *fray.Combatant, stat string) (int, error) { return kit.Stat(c, stat, " rank") }

var taskStats = []string{"brawn", StatAgility, StatAccuracy, StatProwess, StatPerception, StatWillpower, StatSuperSpeed}

// statTitles holds the word of each stat a task rolls, as its modifier
// names it (kit.Title), made once.
var statTitles = func() map[string]string {
	m := make(map[string]string, len(taskStats))
	for _, st := range taskStats {
		m[st] = kit.Title(st)
	}
	return m
}()

// statMod returns the first modifier of a task roll, the stat's rank v.
func statMod(stat string, v int) fray.Modifier {
	title, ok := statTitles[stat]
	if !ok {
		title = kit.Title(stat)
	}
	return fray.Modifier{Source: title, Value: v}
}

// modifiers returns every term of t after the dice, for the breakdown.
func (t *task) modifiers() []fray.Modifier {
	return append([]fray.Modifier{t.stat}, t.extra...)
}

// finish adds the GM's and the conditions' modifiers to a planned task.
func (s *State) finish(t *task, cmd fray.Command, actor, target *fray.Combatant, kind string) error {
	if t.d.Expertise {
		t.extra = append(t.extra, fray.Modifier{Source: "expertise", Value: TaskExpertiseBonus})
	}
	cm, spent := engine.Modifiers(actor, target, kind, s.Round)
	t.extra = append(t.extra, cm...)
	t.spent = spent
	for _, m := range cm {
		t.d.Mods += m.Value
	}
	if v, ok := cmd.Opts["mod"]; ok {
		// A whole number from -20 to 20, as optMod declares.
		n, _ := strconv.Atoi(strings.TrimPrefix(v, "+"))
		t.extra = append(t.extra, fray.Modifier{Source: "GM", Value: n})
		t.d.Mods += n
	}
	t.d.Mode = s.mode()
	t.roll = TaskRoll{Value: t.d.Value + t.d.Mods, Difficulty: t.d.Difficulty, Expertise: t.d.Expertise, Mode: t.d.Mode}
	return t.roll.check()
}

// planCheck plans "check NAME STAT [vs=RANK|difficulty=N|challenging]
// [expertise=yes|SKILL] [mod=N]" (B-1).
func (s *State) planCheck(cmd fray.Command) (*task, error) {
	c, err := s.Lookup(cmd.Arg(0))
	if err != nil {
		return nil, err
	}
	stat := strings.ToLower(cmd.Arg(1))
	if !slices.Contains(taskStats, stat) {
		return nil, fray.Errorf(fray.EINVALID, "%s is not a stat to roll; use one of %s.", cmd.Arg(1), strings.Join(taskStats, ", "))
	}
	v, err := sheetStat(c, stat)
	if err != nil {
		return nil, err
	}
	t := &task{actor: c, d: taskData{Name: c.ID, Roll: RollCheck, Stat: stat, Value: v, Difficulty: TaskChallenging}}
	t.stat = statMod(stat, v)
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

// planDistract plans "distract A B" (B-11): Willpower against 8 + the
// opponent's Willpower.
func (s *State) planDistract(cmd fray.Command) (*task, error) {
	a, b, err := kit.LookupTwo(&s.Encounter, cmd)
	if err != nil {
		return nil, err
	}
	if fray.SameName(a.Name, b.Name) {
		return nil, fray.Errorf(fray.EINVALID, "%s cannot distract themself.", a)
	}
	if err := active(a, "distract"); err != nil {
		return nil, err
	}
	v, err := sheetStat(a, StatWillpower)
	if err != nil {
		return nil, err
	}
	w, err := sheetStat(b, StatWillpower)
	if err != nil {
		return nil, err
	}
	t := &task{actor: a, target: b, d: taskData{Name: a.ID, Roll: RollDistract, Stat: StatWillpower, Target: b.ID, Value: v, Difficulty: TaskDifficulty(w), Expertise: a.HasExpertise("distraction")}}
	t.stat = fray.Modifier{Source: "Willpower", Value: v}
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
			err = fray.Errorf(fray.EINVALID, "No attack has hit %s, so there is nothing to %s yet; %s %s on their turn declares a %s without a roll.", c, cmd.Name, cmd.Name, kit.QuoteName(c.Name), cmd.Name)
		}
		return t, err
	case RollDistract:
		return s.planDistract(cmd)
	}
	return nil, fray.Errorf(fray.EINVALID, "%s rolls no dice, so it has no odds; the rolls are check, attack, block, dodge, distract and start order=rolled.", cmd.Name)
}

// rollTask rolls a planned task and records its event in tx, with the
// odds it had.
func (t *task) rollTask(tx *txn, cmd fray.Command, r fray.Roller) error {
	// The odds are worked out before the dice are rolled, for an event
	// that is recorded.
	var o fray.Odds
	if !tx.Unrecorded {
		o = t.odds(cmd.String())
	}
	// The dice alone are rolled (so that roll=N gives their total, as at
	// the table); the bonus is added here.
	roll, err := r.Roll(t.actor.Name, TaskDice)
	if err != nil {
		return err
	}
	t.d.Total = roll.Total + t.roll.Bonus()
	t.d.Band = t.roll.Band(t.d.Total)
	if t.d.Roll == RollAttack {
		t.d.Damage = t.damageFor(t.d.Band)
	}
	// The conditions the roll spends are spent once the events that
	// follow from it are recorded.
	return tx.EmitOdds(EventTask, t.d, o, roll)
}

// decideTask decides check and distract.
func (s *State) decideTask(tx *txn, cmd fray.Command, r fray.Roller) error {
	t, err := s.plan(cmd)
	if err != nil {
		return err
	}
	if err := t.rollTask(tx, cmd, r); err != nil {
		return err
	}
	if t.d.Roll == RollDistract && t.d.Band != TaskFailure {
		// +3 to the next attack against the opponent in the following
		// round, then gone (B-11).
		if err := tx.Emit(fray.EventCondition, fray.ConditionData{Who: t.target.ID, Condition: fray.Condition{
			Name: CondDistracted, By: t.actor.Name, ByID: t.actor.ID, Since: s.Round, From: s.Round + 1,
			Until: &fray.Anchor{Round: s.Round + 1, Edge: fray.EdgeEnd}, Once: true,
			Modifiers: []fray.Modifier{{Source: CondDistracted, Value: DistractBonus, On: fray.AppliesAttacked}},
		}}); err != nil {
			return err
		}
	}
	return tx.Spend(t.spent)
}
