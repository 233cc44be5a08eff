package pp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/engine"
	"fray/rules/kit"
)

// The six abilities, by the kind of task they serve (P-9).
var (
	physical = []string{"agility", "might", "toughness"}
	mental   = []string{"intellect", "perception", "willpower"}
)

func isTrait(t string) bool { return slices.Contains(physical, t) || slices.Contains(mental, t) }

// traitDice returns the dice c rolls for trait and the trait's name as the
// payloads keep it: one of the six abilities, in lower case, or else a
// power or talent on c's sheet, as the sheet spells it, which rolls its
// rank in dice ("Roll a
// number of 6-sided dice equal to the Trait that applies", P-1; SPEC 1.4:
// the traits are the abilities, powers and talents with ranks). An
// ability's name wins over a power of the same name.
func traitDice(c *fray.Combatant, trait string) (string, int, error) {
	t := strings.ToLower(strings.TrimSpace(trait))
	if isTrait(t) {
		return t, c.Stat(t), nil
	}
	if p := c.Power(t); p != nil {
		if isRolledKind(p.Kind) {
			return p.Name, p.Rank, nil
		}
		return "", 0, fray.Errorf(fray.EINVALID, "%s's %s is a %s, not a trait; roll the ability, power or talent that uses it.", c, engine.Clip(p.Name), p.Kind)
	}
	return "", 0, fray.Errorf(fray.EINVALID, "%q is not a trait of %s; use agility, intellect, might, perception, toughness or willpower, or a power or talent on their sheet.", engine.Clip(trait), c)
}

// isRolledKind reports whether a sheet's entry of the kind is a trait:
// a power (the kind left out is one) or a talent, not a weapon or skill.
func isRolledKind(kind string) bool {
	return kind == "" || kind == fray.PowerKindPower || kind == fray.PowerKindTalent
}

// roller options of one side of a roll.
type sideOpts struct{ mod, auto, successes string }

var (
	actorOpts = sideOpts{KeyMod, KeyAuto, KeySuccesses}
	oppOpts   = sideOpts{KeyVsMod, KeyVsAuto, KeyVsSuccesses}
)

// side is one character's roll in a command: id is who rolls it (for the
// payload), name what they are called (for the words: the rolls' labels,
// the odds, a same-goal roll's rivals).
type side struct {
	id          fray.CombatantID
	name, trait string
	pool        Pool
	counted     int // successes counted at the table; -1 when rolled
	assist      int
	penalty     int
	// mods are the conditions' modifiers in dice (E-4), in pool.Dice
	// already; spent the once-only conditions the roll uses up.
	mods  []fray.Modifier
	spent []engine.ConditionRef
	// cost is the cost of the defining moment the roll is, if any.
	cost string
}

// addRoll records in tx the roll cmd made: its event, of the type typ
// with the payload d and the dice rolls, and the odds it had, then the
// events that use up the conditions spent.
func addRoll(tx *kit.Txn[*State], cmd fray.Command, typ string, d any, rolls []fray.Roll, odds fray.Odds, spent []engine.ConditionRef) error {
	if !tx.Unrecorded {
		odds.Command = cmd.String()
	}
	return tx.EmitRolled(typ, d, odds, spent, rolls...)
}

// spendConditions returns the events that end the once-only conditions
// the sides used up.
func spendConditions(sides []side) []engine.ConditionRef {
	var refs []engine.ConditionRef
	for _, sd := range sides {
		refs = append(refs, sd.spent...)
	}
	return refs
}

// makeSide builds name's pool for trait from the command's options o:
// the trait's dice, the best assist waiting and a contest's carry, minus
// the extra-action and one-shot penalties; the GM's modifier and the dice
// set aside.
func (s *State) makeSide(cmd fray.Command, name, trait string, o sideOpts, useAssist bool, extraActions, carry int, kind string, target *fray.Combatant) (side, error) {
	c, err := s.Lookup(name)
	if err != nil {
		return side{}, err
	}
	return s.sideOf(cmd, c, trait, o, useAssist, extraActions, carry, kind, target)
}

// sideOf is makeSide for the combatant c, looked up already.
func (s *State) sideOf(cmd fray.Command, c *fray.Combatant, trait string, o sideOpts, useAssist bool, extraActions, carry int, kind string, target *fray.Combatant) (side, error) {
	trait, raw, err := traitDice(c, trait)
	if err != nil {
		return side{}, err
	}
	sd := side{id: c.ID, name: c.Name, trait: trait, counted: -1}
	r := s.record(c.ID)
	if useAssist && r != nil {
		sd.assist = r.Assist
	}
	sd.penalty = extraActions * ExtraActionPenalty
	if r != nil && r.OneShot {
		sd.penalty += OneShotPenalty
	}
	raw += sd.assist - sd.penalty + carry
	sd.mods, sd.spent = engine.Modifiers(c, target, kind, s.Round)
	for _, m := range sd.mods {
		raw += m.Value
	}
	if v, ok := cmd.Opts[o.mod]; ok {
		m, err := parseDice(v)
		if err != nil || m < -MaxModifier || m > MaxModifier {
			return side{}, fray.Errorf(fray.EINVALID, "%s=%s is not a modifier from -4d to +4d.", o.mod, engine.Clip(v))
		}
		sd.pool.Modifier = m
	}
	if raw < 0 {
		if t := raw + sd.pool.Modifier; t >= 1 {
			raw, sd.pool.Modifier = t, 0
		} else {
			raw, sd.pool.Modifier = 0, max(t, -MaxModifier)
		}
	}
	sd.pool.Dice = raw
	if v, ok := cmd.Opts[o.auto]; ok {
		n := sd.pool.Count()
		if v != "all" {
			if n, err = strconv.Atoi(v); err != nil || n < 0 {
				return side{}, fray.Errorf(fray.EINVALID, "%s=%s: give the dice not rolled, such as %s=12, or %s=all.", o.auto, engine.Clip(v), o.auto, o.auto)
			}
		}
		if n > sd.pool.Count() {
			return side{}, fray.Errorf(fray.EINVALID, "%s=%d: %s has only %d dice to set aside.", o.auto, n, c, max(sd.pool.Count(), 0))
		}
		sd.pool.SetAside = max(n, 0)
	}
	if v, ok := cmd.Opts[o.successes]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return side{}, fray.Errorf(fray.EINVALID, "%s=%s is not a count of successes.", o.successes, engine.Clip(v))
		}
		sd.counted = n
	}
	if err := sd.pool.Check(); err != nil {
		return side{}, fray.Errorf(fray.EINVALID, "%s's roll: %v.", c, err)
	}
	if err := s.moment(&sd); err != nil {
		return side{}, err
	}
	return sd, nil
}

// moment makes sd's roll the defining moment its hero declared, if one
// is waiting: the seed's "that challenge roll" is the hero's very next of
// any kind (P-9), made or resisted, an assist, a group action's or a
// contest's exchange. A moment whose ability does not fit the task
// refuses the roll.
func (s *State) moment(sd *side) error {
	r := s.record(sd.id)
	if r == nil || r.Defining == "" {
		return nil
	}
	if !fits(r.Defining, sd.trait) {
		return fray.Errorf(fray.EINVALID, "%s's defining moment costs %s, a %s ability, but %s is a %s task; declare it again with a %s ability.", fray.Mention(sd.name), r.Defining, kindOf(r.Defining), sd.trait, kindOf(sd.trait), kindOf(sd.trait))
	}
	sd.pool.DefiningMoment, sd.cost = true, r.Defining
	return nil
}

// fits reports whether a defining moment costing cost fits a roll of
// trait: the one-shot cost fits any; an ability must be of the task's
// kind, physical or mental. A power or talent has no kind of its own: the
// task is of the kind the hero's declared ability says (the GM judges).
func fits(cost, trait string) bool {
	return cost == KeyOneShot || !isTrait(trait) || sameKind(cost, trait)
}

// parseDice reads a number of dice: "+2d", "-1", "2".
func parseDice(v string) (int, error) {
	return strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(v, "+"), "d"))
}

// rolled is one side's roll: its successes and its 6s.
type rolled struct{ successes, sixes int }

// rollSides rolls every side that is not counted with a single roll of r
// (so that dice= gives all the faces at once, in the order of the sides)
// and returns each side's result and the rolls to record, one a side.
func rollSides(r fray.Roller, swing bool, sides []side) ([]rolled, []fray.Roll, error) {
	var exprs []string
	for _, sd := range sides {
		if sd.counted < 0 && hasDice(sd.pool) {
			exprs = append(exprs, diceOnly(sd.pool.Expr(swing)))
		}
	}
	var all fray.Roll
	if len(exprs) > 0 {
		var err error
		if all, err = r.Roll(sides[0].name, strings.Join(exprs, "+")); err != nil {
			return nil, nil, err
		}
		if all.Source == fray.RollTotal {
			return nil, nil, fray.Errorf(fray.EINVALID, "A challenge roll counts successes, not a total: give the faces with dice=, or the successes with successes=.")
		}
	}
	out := make([]rolled, len(sides))
	rolls := make([]fray.Roll, 0, len(sides))
	pos := 0
	for i, sd := range sides {
		if sd.counted >= 0 {
			res, err := sd.pool.FromSuccesses(sd.counted-sd.pool.Auto(), swing)
			if sd.counted < sd.pool.Auto() {
				err = fmt.Errorf("%d successes: %s has %d automatic successes already", sd.counted, sd.name, sd.pool.Auto())
			}
			if err != nil {
				return nil, nil, fray.Errorf(fray.EINVALID, "%v.", err)
			}
			out[i] = rolled{successes: res.Successes}
			rolls = append(rolls, fray.Roll{For: sd.name, Who: sd.id, Expr: res.Expr, Total: res.Successes, Source: fray.RollTotal})
			continue
		}
		if !hasDice(sd.pool) {
			out[i] = rolled{successes: sd.pool.Auto()}
			continue
		}
		n, used, err := sd.pool.playback(all.Dice[pos:], swing)
		if err != nil {
			return nil, nil, fray.Errorf(fray.EINVALID, "The dice %s do not fit the roll: %v.", joinInts(all.Dice), err)
		}
		faces := all.Dice[pos : pos+used : pos+used]
		pos += used
		out[i] = rolled{successes: n, sixes: countSixes(faces)}
		rolls = append(rolls, fray.Roll{For: sd.name, Who: sd.id, Expr: sd.pool.Expr(swing), Dice: faces, Total: n, Source: all.Source})
	}
	if pos < len(all.Dice) {
		return nil, nil, fray.Errorf(fray.EINVALID, "The dice %s are %d more than the roll needs.", joinInts(all.Dice), len(all.Dice)-pos)
	}
	return out, rolls, nil
}

func hasDice(p Pool) bool { return p.Desperate() || p.Rolled() > 0 || p.ExtraDice() > 0 }

// diceOnly drops the automatic successes from a pool's notation.
func diceOnly(expr string) string {
	parts := strings.Split(expr, "+")
	var out []string
	for _, p := range parts {
		if strings.Contains(p, "d") {
			out = append(out, p)
		}
	}
	return strings.Join(out, "+")
}

func countSixes(fs []int) int {
	n := 0
	for _, f := range fs {
		if f == 6 {
			n++
		}
	}
	return n
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func (s *State) swing() bool { return s.Setting(SettingSwing, "no") == "yes" }

// bandWords names a band in the encounter's results setting (P-3).
func (s *State) bandWords(b Band) string {
	if s.Setting(SettingResults, "narrative") == "traditional" {
		return b.Traditional()
	}
	return string(b)
}

// actorSide builds the actor's side (with a defining moment when one is
// declared, as every side has), refusing a defeated character.
func (s *State) actorSide(cmd fray.Command, name, trait string, extra int, kind string, target *fray.Combatant) (side, error) {
	c, err := s.Lookup(name)
	if err != nil {
		return side{}, err
	}
	return s.actorSideOf(cmd, c, trait, extra, kind, target)
}

// actorSideOf is actorSide for the combatant c, looked up already.
func (s *State) actorSideOf(cmd fray.Command, c *fray.Combatant, trait string, extra int, kind string, target *fray.Combatant) (side, error) {
	sd, err := s.sideOf(cmd, c, trait, actorOpts, true, extra, 0, kind, target)
	if err != nil {
		return side{}, err
	}
	if err := s.canRoll(sd.id, kind == fray.AppliesAttack); err != nil {
		return side{}, err
	}
	return sd, nil
}

// helperSide builds the side of a helper or a group member: the assist
// waiting counts, and so does a defining moment declared (P-9: an assist
// and a group member's roll are challenge rolls too).
func (s *State) helperSide(cmd fray.Command, name, trait string) (side, error) {
	sd, err := s.makeSide(cmd, name, trait, actorOpts, true, 0, 0, fray.AppliesCheck, nil)
	if err != nil {
		return side{}, err
	}
	if err := s.canRoll(sd.id, false); err != nil {
		return side{}, err
	}
	return sd, nil
}

// canRoll refuses a roll by someone who cannot make it: a defeated
// character, or a hero unconscious after a one-shot defining moment. A
// hero who has come to after one ("you regain your wits at the end of the
// scene", the seed says) is still at 0 Health, so out of the fight, but
// makes challenge rolls, at −2d for the rest of the story (P-9).
func (s *State) canRoll(id fray.CombatantID, attack bool) error {
	r := s.record(id)
	switch {
	case r != nil && r.Out:
		return fray.Errorf(fray.EINVALID, "%s is unconscious after a one-shot defining moment until the scene ends (scene).", fray.Mention(s.NameOf(id)))
	case s.defeated(id) && (attack || r == nil || !r.OneShot):
		return fray.Errorf(fray.EINVALID, "%s is defeated.", fray.Mention(s.NameOf(id)))
	}
	return nil
}

func kindOf(t string) string {
	if slices.Contains(physical, t) {
		return "physical"
	}
	return "mental"
}

func sameKind(a, b string) bool { return kindOf(a) == kindOf(b) }
