package pp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"fray"
	"fray/engine"
)

// Event types of challenge rolls and combat (P-1 … P-10). They are wire
// strings: never rename one.
const (
	EventChecked   = "pp.checked"   // a challenge roll, or a P-10 attack; data: CheckData
	EventSpent     = "pp.spent"     // Resolve spent after a roll; data: SpentData
	EventSides     = "pp.sides"     // every roll of a same-goal check of three or more; data: SidesData
	EventAssisted  = "pp.assisted"  // an assist roll; data: AssistData
	EventGrouped   = "pp.grouped"   // a group action; data: GroupData
	EventContest   = "pp.contest"   // a contest begins; data: ContestData
	EventExchanged = "pp.exchanged" // one exchange of a contest; data: ExchangeData
	EventDefining  = "pp.defining"  // a defining moment declared; data: DefiningData
	EventScene     = "pp.scene"     // a new scene; no data
	EventStory     = "pp.story"     // a new story; no data
)

// Kinds of roll recorded in CheckData.Kind. They are wire strings.
const (
	KindCheck  = "check"
	KindAttack = "attack"
)

// Stats beyond the traits.
const (
	StatHealth  = "health"  // Health; derived from the traits when not given
	StatResolve = "resolve" // Resolve points
	StatCount   = "count"   // how many minions a minion combatant stands for (default 1)
)

// Settings of challenge rolls.
const (
	SettingResults  = "results"  // narrative (default) or traditional (P-3)
	SettingSwing    = "swing"    // no (default) or yes: checking your swing (P-5)
	SettingDefining = "defining" // reduce (default), oneshot or either: a defining moment's cost (P-9)
)

// Options of the commands in this file.
const (
	KeyVs          = "vs"
	KeyThreshold   = "threshold"
	KeyMod         = "mod"
	KeyAuto        = "auto"
	KeyVsMod       = "vs_mod"
	KeyVsAuto      = "vs_auto"
	KeySame        = "same"
	KeySuccesses   = "successes"
	KeyVsSuccesses = "vs_successes"
	KeyFor         = "for"
	KeyWith        = "with"
	KeyDef         = "def"
	KeyResolve     = "resolve"
	KeyExchanges   = "exchanges"
	KeyReduce      = "reduce"
	KeyOneShot     = "oneshot"
)

// The six abilities, by the kind of task they serve (P-9).
var (
	physical = []string{"agility", "might", "toughness"}
	mental   = []string{"intellect", "perception", "willpower"}
)

// DefenceTraits are the traits a defender may resist an attack with
// (ours, P-10): the best of them counts unless def= names one.
var DefenceTraits = []string{"agility", "might", "toughness"}

// Numbers of challenge rolls.
const (
	// AssistThreshold is the threshold an assist is rolled against (P-6).
	AssistThreshold = 2
	// AssistNetPerDie is the net successes per bonus die of an assist,
	// rounding up.
	AssistNetPerDie = 2
	// GroupShareAbove is the net successes above which a group member
	// hands the rest to allies (P-7).
	GroupShareAbove = 3
	// ContestCarry is the bonus dice the winner of an exchange takes into
	// the next (P-8).
	ContestCarry = 2
	// DefaultExchanges is a contest's exchanges unless exchanges= says.
	DefaultExchanges = 3
	// MaxExchanges bounds a contest, a tied final exchange included.
	MaxExchanges = 20
	// OneShotPenalty is the dice off every roll for the rest of the story
	// after a one-shot defining moment (P-9).
	OneShotPenalty = 2
	// MaxGroup is the most characters in one group action.
	MaxGroup = 20
)

// Record is the P&P bookkeeping of one combatant's resolution: Health
// lost, Resolve spent, an assist waiting, defining moments.
type Record struct {
	Name string `json:"name"`
	// Wounds is the Health lost.
	Wounds int `json:"wounds,omitempty"`
	// Down counts the minions defeated, for a minion combatant.
	Down int `json:"down,omitempty"`
	// Spent is the Resolve spent.
	Spent int `json:"spent,omitempty"`
	// Assist is the bonus dice of the best assist, for the next roll.
	Assist int `json:"assist,omitempty"`
	// Defining is the cost of a defining moment declared for the next
	// roll: a trait to reduce, or "oneshot".
	Defining string `json:"defining,omitempty"`
	// Defined reports a defining moment this story.
	Defined bool `json:"defined,omitempty"`
	// OneShot reports a one-shot defining moment this story: −2d to every
	// roll until the story ends.
	OneShot bool `json:"oneshot,omitempty"`
	// Out reports the hero unconscious after a one-shot defining moment,
	// until the scene ends.
	Out bool `json:"out,omitempty"`
}

// CheckData is the payload of EventChecked: the roll of Actor against a
// static threshold or an Opponent.
type CheckData struct {
	Kind     string `json:"kind"`
	Actor    string `json:"actor" fray:"who"`
	Trait    string `json:"trait"`
	Opponent string `json:"opponent,omitempty" fray:"who"`
	OppTrait string `json:"opp_trait,omitempty"`
	// Static reports a static threshold (Threshold); otherwise the
	// opponent's successes are the threshold.
	Static    bool `json:"static"`
	Threshold int  `json:"threshold"`
	// Same reports a same-goal roll: whoever has more successes is the
	// actor (P-3); Swapped that the opponent had more.
	Same    bool `json:"same,omitempty"`
	Swapped bool `json:"swapped,omitempty"`
	// The actor's and the opponent's pools.
	Pool    Pool `json:"pool"`
	OppPool Pool `json:"opp_pool"`
	// Assist and Penalty are the bonus and penalty dice in Pool.Dice.
	Assist  int `json:"assist,omitempty"`
	Penalty int `json:"penalty,omitempty"`
	// Successes and OppSuccesses are each side's successes; Sixes and
	// OppSixes the 6s their dice showed (for exploding them later).
	Successes    int `json:"successes"`
	OppSuccesses int `json:"opp_successes"`
	Sixes        int `json:"sixes,omitempty"`
	OppSixes     int `json:"opp_sixes,omitempty"`
	// Net is the net successes of whoever is the actor; Band and Result
	// its narrative band and traditional result.
	Net    int    `json:"net"`
	Band   string `json:"band"`
	Result string `json:"result"`
	// Cost is the cost of the defining moment this roll was, if any.
	Cost string `json:"cost,omitempty"`
	// Lost is what an attack took: Health, or minions defeated.
	Lost   int  `json:"lost,omitempty"`
	Minion bool `json:"minion,omitempty"`
	// By names who called a same-goal roll of several when someone else
	// rolled most; Rivals the others beyond the actor and the opponent,
	// with their successes: "Whisper 3, Vile 1".
	By     string `json:"by,omitempty" fray:"who"`
	Rivals string `json:"rivals,omitempty"`
	// RivalNames names the rivals of Rivals, in its order, declaring
	// whom its words mention; nothing applies it.
	RivalNames []string `json:"rival_names,omitempty" fray:"who"`
}

// SideData is one character's roll in a same-goal check of three or more.
type SideData struct {
	Name      string `json:"name" fray:"who"`
	Trait     string `json:"trait"`
	Pool      Pool   `json:"pool"`
	Successes int    `json:"successes"`
	Sixes     int    `json:"sixes,omitempty"`
}

// SidesData is the payload of EventSides, which follows the EventChecked
// of a same-goal check of three or more: every roll, in the order named,
// the one who called it first with the assist and penalty dice
// (Assist, Penalty) in their pool. Resolve spent by any of them ranks
// them again.
type SidesData struct {
	Sides   []SideData `json:"sides"`
	Assist  int        `json:"assist,omitempty"`
	Penalty int        `json:"penalty,omitempty"`
}

func (d SidesData) clone() SidesData {
	d.Sides = slices.Clone(d.Sides)
	return d
}

// rank makes the most successes of sides the actor of d and the next the
// opponent (P-3), ties going to the one named first, and names the rest
// in d.Rivals.
func rank(d *CheckData, sides SidesData) {
	idx := make([]int, len(sides.Sides))
	for i := range idx {
		idx[i] = i
	}
	x := sides.Sides
	slices.SortStableFunc(idx, func(a, b int) int { return x[b].Successes - x[a].Successes })
	a, b := idx[0], idx[1]
	d.By, d.Assist, d.Penalty = "", sides.Assist, sides.Penalty
	if a != 0 {
		d.By, d.Assist, d.Penalty = x[0].Name, 0, 0
	}
	d.Actor, d.Trait, d.Pool, d.Successes, d.Sixes = x[a].Name, x[a].Trait, x[a].Pool, x[a].Successes, x[a].Sixes
	d.Opponent, d.OppTrait, d.OppPool, d.OppSuccesses, d.OppSixes = x[b].Name, x[b].Trait, x[b].Pool, x[b].Successes, x[b].Sixes
	var rivals, names []string
	for _, i := range idx[2:] {
		rivals = append(rivals, x[i].Name+" "+strconv.Itoa(x[i].Successes))
		names = append(names, x[i].Name)
	}
	d.Rivals, d.RivalNames = strings.Join(rivals, ", "), names
}

// SpentData is the payload of EventSpent.
type SpentData struct {
	Name    string `json:"name" fray:"who"`
	Resolve int    `json:"resolve"`
	// How: dice (+1d a point, 3 in a defining moment), reroll or explode.
	How string `json:"how"`
	// Of is what the roll was: LastCheck (a check or an attack, settled
	// by the fields below), LastExchange, LastAssist or LastGroup (settled
	// again in Exchange, Assist or Group).
	Of string `json:"of,omitempty"`
	// Opp reports that Name is the roll's opponent (of an exchange, B).
	Opp bool `json:"opp,omitempty"`
	// Successes is Name's side's successes after spending; Sixes its 6s.
	Successes int `json:"successes"`
	Sixes     int `json:"sixes"`
	// Net, Band and Result are the roll's after spending, and Swapped
	// who is the actor of a same-goal roll.
	Net     int    `json:"net"`
	Band    string `json:"band"`
	Result  string `json:"result"`
	Swapped bool   `json:"swapped,omitempty"`
	// Lost is an attack's Health (or minions) lost after spending.
	Lost int `json:"lost,omitempty"`
	// Check and Sides are a same-goal check of three or more, ranked
	// again with Name's new successes.
	Check *CheckData `json:"check,omitempty"`
	Sides *SidesData `json:"sides,omitempty"`
	// Exchange, Assist and Group are the exchange, assist or group action
	// Resolve was spent on, settled again with Name's new successes.
	Exchange *ExchangeData `json:"exchange,omitempty"`
	Assist   *AssistData   `json:"assist,omitempty"`
	Group    *GroupData    `json:"group,omitempty"`
}

// AssistData is the payload of EventAssisted.
type AssistData struct {
	Helper    string `json:"helper" fray:"who"`
	For       string `json:"for" fray:"who"`
	Trait     string `json:"trait"`
	Pool      Pool   `json:"pool"`
	Successes int    `json:"successes"`
	Net       int    `json:"net"`
	// Bonus is the dice this assist is worth; Kept whether it is the
	// best so far and so the one that counts.
	Bonus int  `json:"bonus"`
	Kept  bool `json:"kept"`
	// Sixes is the 6s the helper's dice showed; Before the bonus of the
	// best assist waiting before this one.
	Sixes  int `json:"sixes,omitempty"`
	Before int `json:"before,omitempty"`
}

// GroupData is the payload of EventGrouped.
type GroupData struct {
	Trait     string   `json:"trait"`
	Threshold int      `json:"threshold"`
	Names     []string `json:"names" fray:"who"`
	Successes []int    `json:"successes"`
	// Nets holds each member's net successes after sharing.
	Nets []int `json:"nets"`
	// Given lists what was handed over: "Ann to Bob: 2".
	Given []string `json:"given,omitempty"`
	// Pools and Sixes are each member's pool and the 6s it showed.
	Pools []Pool `json:"pools,omitempty"`
	Sixes []int  `json:"sixes,omitempty"`
}

func (g GroupData) clone() GroupData {
	g.Names, g.Successes, g.Nets = slices.Clone(g.Names), slices.Clone(g.Successes), slices.Clone(g.Nets)
	g.Given, g.Pools, g.Sixes = slices.Clone(g.Given), slices.Clone(g.Pools), slices.Clone(g.Sixes)
	return g
}

// ContestData is the payload of EventContest.
type ContestData struct {
	A         string `json:"a" fray:"who"`
	B         string `json:"b" fray:"who"`
	TraitA    string `json:"trait_a"`
	TraitB    string `json:"trait_b"`
	Exchanges int    `json:"exchanges"`
}

// ExchangeData is the payload of EventExchanged.
type ExchangeData struct {
	N          int    `json:"n"`
	SuccessesA int    `json:"successes_a"`
	SuccessesB int    `json:"successes_b"`
	CarryA     int    `json:"carry_a,omitempty"`
	CarryB     int    `json:"carry_b,omitempty"`
	Winner     string `json:"winner,omitempty" fray:"who"`
	// Over reports the contest's end; Outcome who won it ("" drawn).
	Over    bool   `json:"over,omitempty"`
	Outcome string `json:"outcome,omitempty" fray:"who"`
	// PoolA and PoolB are the two pools (the carry in Dice); SixesA and
	// SixesB the 6s they showed.
	PoolA  Pool `json:"pool_a"`
	PoolB  Pool `json:"pool_b"`
	SixesA int  `json:"sixes_a,omitempty"`
	SixesB int  `json:"sixes_b,omitempty"`
}

// DefiningData is the payload of EventDefining.
type DefiningData struct {
	Name string `json:"name" fray:"who"`
	Cost string `json:"cost"`
}

// Contest is a contest in progress (P-8).
type Contest struct {
	Active    bool   `json:"active"`
	A         string `json:"a"`
	B         string `json:"b"`
	TraitA    string `json:"trait_a"`
	TraitB    string `json:"trait_b"`
	Exchanges int    `json:"exchanges"`
	Done      int    `json:"done"`
	// Carry names the winner of the last exchange: +2d in the next.
	Carry string `json:"carry,omitempty"`
}

// Resolution is the part of a P&P state that challenge rolls and combat
// keep: each combatant's record, the last roll (for Resolve spent after
// it), a contest in progress and the scene's defining moment.
type Resolution struct {
	Records []*Record
	// HasLast reports a last roll, which Resolve may still be spent on;
	// LastOf says what it was: LastCheck (a challenge roll or an attack,
	// in Last), LastExchange (LastExchange, with Before the contest as it
	// stood before it), LastAssist or LastGroup.
	HasLast      bool
	LastOf       string
	Last         CheckData
	LastExchange ExchangeData
	Before       Contest
	LastAssist   AssistData
	LastGroup    GroupData
	// Sides is every roll of the last check when it was a same-goal roll
	// of three or more.
	Sides   SidesData
	Contest Contest
	// Scene names the hero who declared this scene's defining moment.
	Scene string
}

func (r Resolution) clone() Resolution {
	d := r
	d.LastGroup = r.LastGroup.clone()
	d.Sides = r.Sides.clone()
	if r.Records != nil {
		d.Records = make([]*Record, len(r.Records))
		for i, x := range r.Records {
			y := *x
			d.Records[i] = &y
		}
	}
	return d
}

func (s *State) record(name string) *Record {
	for _, r := range s.Res.Records {
		if fray.SameName(r.Name, name) {
			return r
		}
	}
	return nil
}

func (s *State) ensureRecord(name string) *Record {
	if r := s.record(name); r != nil {
		return r
	}
	r := &Record{Name: s.Find(name).Name}
	s.Res.Records = append(s.Res.Records, r)
	return r
}

func (s *State) dropRecord(name string) {
	if i := slices.IndexFunc(s.Res.Records, func(r *Record) bool { return fray.SameName(r.Name, name) }); i >= 0 {
		if s.Res.Records = slices.Delete(s.Res.Records, i, i+1); len(s.Res.Records) == 0 {
			s.Res.Records = nil
		}
	}
	if s.Res.HasLast && s.inLast(name) {
		s.forgetLast()
	}
	if s.Res.Contest.Active && (fray.SameName(s.Res.Contest.A, name) || fray.SameName(s.Res.Contest.B, name)) {
		s.Res.Contest = Contest{}
	}
	if fray.SameName(s.Res.Scene, name) {
		s.Res.Scene = ""
	}
}

// Health returns the combatant's Health: the health stat (or a sheet's
// health track), or the higher of
// avg(Toughness, Might) and avg(Toughness, Willpower), halves rounding up.
func Health(c *fray.Combatant) int {
	if h, ok := c.Stats[StatHealth]; ok {
		return h
	}
	if t, ok := c.Tracks[StatHealth]; ok {
		return t.Max
	}
	t := c.Stat("toughness")
	return max(ceilDiv(t+c.Stat("might"), 2), ceilDiv(t+c.Stat("willpower"), 2))
}

func ceilDiv(a, b int) int {
	if a <= 0 {
		return -((-a) / b)
	}
	return (a + b - 1) / b
}

// HealthLeft returns the named combatant's Health left.
func (s *State) HealthLeft(name string) int {
	c := s.Find(name)
	if c == nil {
		return 0
	}
	w := 0
	if r := s.record(name); r != nil {
		w = r.Wounds
	}
	return max(0, Health(c)-w)
}

// ResolveLeft returns the named combatant's Resolve left.
func (s *State) ResolveLeft(name string) int {
	c := s.Find(name)
	if c == nil {
		return 0
	}
	sp := 0
	if r := s.record(name); r != nil {
		sp = r.Spent
	}
	return resolveOf(c) - sp
}

// resolveOf returns a combatant's Resolve points: the resolve stat, or a
// sheet's resolve track.
func resolveOf(c *fray.Combatant) int {
	if r, ok := c.Stats[StatResolve]; ok {
		return r
	}
	return c.Tracks[StatResolve].Value
}

// Defeated reports whether the named combatant is out of the fight: at 0
// Health, or, for minions, every one of them defeated (P-10).
func (s *State) Defeated(name string) bool {
	c := s.Find(name)
	if c == nil {
		return false
	}
	r := s.record(name)
	if ch := s.char(name); ch != nil && ch.Minion {
		return r != nil && r.Down >= minionCount(c)
	}
	return Health(c) > 0 && s.HealthLeft(name) == 0
}

func minionCount(c *fray.Combatant) int {
	if n, ok := c.Stats[StatCount]; ok && n > 0 {
		return n
	}
	return 1
}

func isTrait(t string) bool { return slices.Contains(physical, t) || slices.Contains(mental, t) }

// roller options of one side of a roll.
type sideOpts struct{ mod, auto, successes string }

var (
	actorOpts = sideOpts{KeyMod, KeyAuto, KeySuccesses}
	oppOpts   = sideOpts{KeyVsMod, KeyVsAuto, KeyVsSuccesses}
)

// side is one character's roll in a command.
type side struct {
	name, trait string
	pool        Pool
	counted     int // successes counted at the table; -1 when rolled
	assist      int
	penalty     int
	// mods are the conditions' modifiers in dice (E-4), in pool.Dice
	// already; spent the once-only conditions the roll uses up.
	mods  []fray.Modifier
	spent []engine.ConditionRef
}

// spendConditions returns the events that end the once-only conditions
// the sides used up.
func spendConditions(sides []side) ([]fray.Event, error) {
	var refs []engine.ConditionRef
	for _, sd := range sides {
		refs = append(refs, sd.spent...)
	}
	return engine.SpendEvents(refs)
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
	trait = strings.ToLower(trait)
	if !isTrait(trait) {
		return side{}, fray.Errorf(fray.EINVALID, "%q is not a trait; use agility, intellect, might, perception, toughness or willpower.", engine.Clip(trait))
	}
	sd := side{name: c.Name, trait: trait, counted: -1}
	raw := c.Stat(trait)
	r := s.record(c.Name)
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
	return sd, nil
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
			rolls = append(rolls, fray.Roll{For: sd.name, Expr: res.Expr, Total: res.Successes, Source: fray.RollTotal})
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
		rolls = append(rolls, fray.Roll{For: sd.name, Expr: sd.pool.Expr(swing), Dice: faces, Total: n, Source: all.Source})
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

// settle works out the net, band and actor of a check.
func (s *State) settle(d *CheckData) {
	a, b := d.Successes, d.OppSuccesses
	if d.Static {
		b = d.Threshold
	}
	d.Swapped = d.Same && b > a
	d.Net = a - b
	if d.Swapped {
		d.Net = b - a
	}
	band := BandOf(d.Net)
	d.Band, d.Result = string(band), band.Traditional()
}

// planCheck builds a check (or attack) from cmd without rolling: the
// actor's side and the opponent's, or the static threshold.
func (s *State) planCheck(cmd fray.Command) (CheckData, []side, error) {
	if err := engine.CheckArgs(cmd, 2, 3, "check NAME TRAIT [vs=NAME [TRAIT]] [threshold=hard|N] [mod=±Nd] [auto=N|all] [vs_mod=±Nd] [vs_auto=N|all] [same=yes] [successes=N] [vs_successes=N]"); err != nil {
		return CheckData{}, nil, err
	}
	if err := engine.CheckOpts(cmd, KeyVs, KeyThreshold, KeyMod, KeyAuto, KeyVsMod, KeyVsAuto, KeySame, KeySuccesses, KeyVsSuccesses); err != nil {
		return CheckData{}, nil, err
	}
	d := CheckData{Kind: KindCheck}
	extra := 0
	if c := s.Find(cmd.Args[0]); c != nil {
		extra = s.Penalty(c.Name) / ExtraActionPenalty
	}
	act, err := s.actorSide(cmd, cmd.Args[0], cmd.Args[1], extra, fray.AppliesCheck, nil)
	if err != nil {
		return CheckData{}, nil, err
	}
	sides := []side{act}
	vs, opposed := cmd.Opts[KeyVs]
	th, static := cmd.Opts[KeyThreshold]
	switch {
	case opposed && static:
		return CheckData{}, nil, fray.Errorf(fray.EINVALID, "Give vs=NAME (an opposed roll) or threshold= (a static one), not both.")
	case opposed && s.Find(vs) == nil && strings.Contains(vs, ","):
		// Several characters with the same goal (P-3).
		rivals, err := s.rivalSides(cmd, act, strings.Split(vs, ","))
		if err != nil {
			return CheckData{}, nil, err
		}
		sides = append(sides, rivals...)
		d.Same = true
		d.Opponent, d.OppTrait, d.OppPool = rivals[0].name, rivals[0].trait, rivals[0].pool
	case opposed:
		ot := cmd.Arg(2)
		if ot == "" {
			ot = act.trait
		}
		o, err := s.Lookup(vs)
		if err != nil {
			return CheckData{}, nil, err
		}
		if fray.SameName(o.Name, act.name) {
			return CheckData{}, nil, fray.Errorf(fray.EINVALID, "%s cannot roll against themselves.", o)
		}
		opp, err := s.makeSide(cmd, o.Name, ot, oppOpts, false, 0, 0, fray.AppliesCheck, nil)
		if err != nil {
			return CheckData{}, nil, err
		}
		sides = append(sides, opp)
		d.Opponent, d.OppTrait, d.OppPool = opp.name, opp.trait, opp.pool
		if v, ok := cmd.Opts[KeySame]; ok {
			if d.Same, err = engine.ParseYesNo(KeySame, v); err != nil {
				return CheckData{}, nil, err
			}
		}
	default:
		if len(cmd.Args) == 3 {
			return CheckData{}, nil, fray.Errorf(fray.EINVALID, "A second trait is the opponent's; name the opponent with vs=NAME.")
		}
		for _, k := range []string{KeyVsMod, KeyVsAuto, KeyVsSuccesses, KeySame} {
			if _, ok := cmd.Opts[k]; ok {
				return CheckData{}, nil, fray.Errorf(fray.EINVALID, "%s= is for an opponent; name one with vs=NAME.", k)
			}
		}
		d.Static = true
		if static {
			n, err := ParseThreshold(th)
			if err != nil {
				return CheckData{}, nil, fray.Errorf(fray.EINVALID, "threshold=%s is not a threshold; give a number or easy, average, hard, daunting, brutal, inhuman, superhuman, legendary or godlike.", engine.Clip(th))
			}
			d.Threshold = n
		} else {
			return CheckData{}, nil, fray.Errorf(fray.EINVALID, "Give the threshold: threshold=hard (or a number), or an opponent: vs=NAME.")
		}
	}
	d.Actor, d.Trait, d.Pool, d.Assist, d.Penalty = act.name, act.trait, act.pool, act.assist, act.penalty
	return d, sides, nil
}

// rivalSides builds the sides of the others in a same-goal roll of
// several characters: vs=B,C same=yes, with vs_successes=N,N,… counted.
func (s *State) rivalSides(cmd fray.Command, act side, names []string) ([]side, error) {
	if v, ok := cmd.Opts[KeySame]; !ok || v != "yes" {
		return nil, fray.Errorf(fray.EINVALID, "Several opponents roll only for the same goal: add same=yes (whoever rolls most is the actor, the next the opponent).")
	}
	for _, k := range []string{KeyVsMod, KeyVsAuto} {
		if _, ok := cmd.Opts[k]; ok {
			return nil, fray.Errorf(fray.EINVALID, "%s= is for one opponent; with several, each rolls their trait as it is.", k)
		}
	}
	if len(names) > MaxGroup {
		return nil, fray.Errorf(fray.EINVALID, "At most %d characters roll for one goal.", MaxGroup)
	}
	var counted []string
	if v, ok := cmd.Opts[KeyVsSuccesses]; ok {
		counted = strings.Split(v, ",")
		if len(counted) != len(names) {
			return nil, fray.Errorf(fray.EINVALID, "vs_successes= gives %d counts for %d opponents.", len(counted), len(names))
		}
	}
	ot := cmd.Arg(2)
	if ot == "" {
		ot = act.trait
	}
	seen := []string{act.name}
	var out []side
	for i, n := range names {
		c, err := s.Lookup(strings.TrimSpace(n))
		if err != nil {
			return nil, err
		}
		if engine.Index(seen, c.Name) >= 0 {
			return nil, fray.Errorf(fray.EINVALID, "%s is named twice.", c)
		}
		seen = append(seen, c.Name)
		one := fray.Command{Name: cmd.Name}
		if counted != nil {
			one.Opts = map[string]string{KeyVsSuccesses: strings.TrimSpace(counted[i])}
		}
		sd, err := s.makeSide(one, c.Name, ot, oppOpts, false, 0, 0, fray.AppliesCheck, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, sd)
	}
	return out, nil
}

// actorSide builds the actor's side, with a defining moment when one is
// declared, refusing a defeated character.
func (s *State) actorSide(cmd fray.Command, name, trait string, extra int, kind string, target *fray.Combatant) (side, error) {
	sd, err := s.makeSide(cmd, name, trait, actorOpts, true, extra, 0, kind, target)
	if err != nil {
		return side{}, err
	}
	if err := s.canRoll(sd.name, kind == fray.AppliesAttack); err != nil {
		return side{}, err
	}
	if r := s.record(sd.name); r != nil && r.Defining != "" {
		if r.Defining != KeyOneShot && !sameKind(r.Defining, sd.trait) {
			return side{}, fray.Errorf(fray.EINVALID, "%s's defining moment costs %s, a %s ability, but %s is a %s task; declare it again with a %s ability.", sd.name, r.Defining, kindOf(r.Defining), sd.trait, kindOf(sd.trait), kindOf(sd.trait))
		}
		sd.pool.DefiningMoment = true
	}
	return sd, nil
}

// helperSide builds the side of a helper or a group member: the assist
// waiting counts, a defining moment does not.
func (s *State) helperSide(cmd fray.Command, name, trait string) (side, error) {
	sd, err := s.makeSide(cmd, name, trait, actorOpts, true, 0, 0, fray.AppliesCheck, nil)
	if err != nil {
		return side{}, err
	}
	if err := s.canRoll(sd.name, false); err != nil {
		return side{}, err
	}
	return sd, nil
}

// canRoll refuses a roll by someone who cannot make it: a defeated
// character, or a hero unconscious after a one-shot defining moment. A
// hero who has come to after one ("you regain your wits at the end of the
// scene", the seed says) is still at 0 Health, so out of the fight, but
// makes challenge rolls, at −2d for the rest of the story (P-9).
func (s *State) canRoll(name string, attack bool) error {
	r := s.record(name)
	switch {
	case r != nil && r.Out:
		return fray.Errorf(fray.EINVALID, "%s is unconscious after a one-shot defining moment until the scene ends (scene).", fray.Mention(name))
	case s.Defeated(name) && (attack || r == nil || !r.OneShot):
		return fray.Errorf(fray.EINVALID, "%s is defeated.", fray.Mention(name))
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

// decideCheck decides check NAME TRAIT … (P-1 … P-5).
func (s *State) decideCheck(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	d, sides, err := s.planCheck(cmd)
	if err != nil {
		return nil, err
	}
	odds, err := s.checkOdds(d, sides)
	if err != nil {
		return nil, err
	}
	return s.rollCheck(d, sides, r, odds, cmd)
}

// rollCheck rolls a planned check or attack and returns its event.
func (s *State) rollCheck(d CheckData, sides []side, r fray.Roller, odds fray.Odds, cmd fray.Command) ([]fray.Event, error) {
	res, rolls, err := rollSides(r, s.swing(), sides)
	if err != nil {
		return nil, err
	}
	d.Successes, d.Sixes = res[0].successes, res[0].sixes
	if len(res) > 1 {
		d.OppSuccesses, d.OppSixes = res[1].successes, res[1].sixes
	}
	var all *SidesData
	if len(sides) > 2 {
		// Several with the same goal: the most successes is the actor, the
		// next the opponent (P-3).
		all = &SidesData{Assist: d.Assist, Penalty: d.Penalty}
		for i, sd := range sides {
			all.Sides = append(all.Sides, SideData{Name: sd.name, Trait: sd.trait, Pool: sd.pool, Successes: res[i].successes, Sixes: res[i].sixes})
		}
		rank(&d, *all)
	}
	s.settle(&d)
	if rec := s.record(d.Actor); rec != nil && rec.Defining != "" {
		d.Cost = rec.Defining
	}
	if d.Kind == KindAttack {
		d.Lost = s.lostTo(d)
	}
	labelRolls(rolls, d, s, sides)
	odds.Command = cmd.String()
	ev, err := fray.NewEvent(EventChecked, d, rolls...)
	if err != nil {
		return nil, err
	}
	ev.Odds = &odds
	evs := []fray.Event{ev}
	if all != nil {
		sev, err := fray.NewEvent(EventSides, *all)
		if err != nil {
			return nil, err
		}
		evs = append(evs, sev)
	}
	spent, err := spendConditions(sides)
	if err != nil {
		return nil, err
	}
	return append(evs, spent...), nil
}

// lostTo is what an attack takes: 1 Health per net success (at most what
// is left), or one minion per net success.
func (s *State) lostTo(d CheckData) int {
	if d.Net <= 0 || d.Swapped {
		return 0
	}
	left, _ := s.standing(d.Opponent)
	return min(d.Net, left)
}

// labelRolls names each roll with what it was and the last with the
// outcome, so that a transcript reads on its own.
func labelRolls(rolls []fray.Roll, d CheckData, s *State, sides []side) {
	for i := range rolls {
		for _, sd := range sides {
			if rolls[i].For == sd.name {
				rolls[i].For = sd.name + " (" + poolWords(sd.trait, sd.pool) + ")"
				break
			}
		}
	}
	if len(rolls) > 0 {
		last := &rolls[len(rolls)-1]
		last.For = strings.TrimSuffix(last.For, ")") + "; " + outcome(d, s) + ")"
	}
}

func poolWords(trait string, p Pool) string {
	w := titleCase(trait) + " " + strconv.Itoa(p.Dice) + "d"
	if p.Modifier != 0 {
		w += " " + signed(p.Modifier) + "d"
	}
	if p.SetAside > 0 {
		w += ", " + strconv.Itoa(p.SetAside) + " set aside for " + strconv.Itoa(p.Auto())
	}
	if p.DefiningMoment {
		w += ", a defining moment"
	}
	return w
}

func signed(n int) string {
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// outcome says how a check or attack came out: "7 against 6: 1 net
// success, Gatecrasher is the actor: actor narrates, opponent embellishes".
func outcome(d CheckData, s *State) string {
	against := strconv.Itoa(d.OppSuccesses)
	if d.Static {
		against = ThresholdName(d.Threshold)
	}
	w := strconv.Itoa(d.Successes) + " against " + against + ": "
	actor := d.Actor
	if d.Swapped {
		actor = d.Opponent
	}
	w += plural(d.Net, "net success", "net successes")
	if d.Same {
		w += ", " + actor + " is the actor"
		if d.Rivals != "" {
			w += " and " + d.Opponent + " the opponent (then " + d.Rivals + ")"
		}
	}
	w += ": " + s.bandWords(Band(d.Band))
	switch {
	case d.Cost == KeyOneShot:
		w += "; the defining moment's cost: Health to 0, unconscious to the scene's end, −2d for the rest of the story"
	case d.Cost != "":
		w += "; the defining moment's cost: " + titleCase(d.Cost) + " −1d for good"
	}
	if d.Kind == KindAttack {
		switch {
		case d.Lost == 0:
			w += "; no harm"
		case d.Minion:
			w += "; " + plural(d.Lost, "minion", "minions") + " of " + d.Opponent + " defeated"
		default:
			w += "; " + d.Opponent + " loses " + strconv.Itoa(d.Lost) + " Health"
		}
	}
	return w
}

func plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}

// decideAttack decides attack A B with=TRAIT (P-10): an action of the
// character whose turn it is, at −2d for each action before it this turn,
// against the defender's best defence; 1 Health per net success, or one
// minion defeated per net success.
func (s *State) decideAttack(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	d, sides, pre, err := s.planAttack(cmd)
	if err != nil {
		return nil, err
	}
	odds, err := s.checkOdds(d, sides)
	if err != nil {
		return nil, err
	}
	evs, err := s.rollCheck(d, sides, r, odds, cmd)
	if err != nil {
		return nil, err
	}
	return append(pre, evs...), nil
}

// planAttack builds an attack from cmd without rolling; pre holds the
// action it takes.
func (s *State) planAttack(cmd fray.Command) (CheckData, []side, []fray.Event, error) {
	usage := "attack ATTACKER TARGET with=TRAIT [def=TRAIT] [mod=±Nd] [auto=N] [vs_mod=±Nd] [vs_auto=N] [successes=N] [vs_successes=N]"
	if err := engine.CheckArgs(cmd, 2, 2, usage); err != nil {
		return CheckData{}, nil, nil, err
	}
	if err := engine.CheckOpts(cmd, KeyWith, KeyDef, KeyMod, KeyAuto, KeyVsMod, KeyVsAuto, KeySuccesses, KeyVsSuccesses); err != nil {
		return CheckData{}, nil, nil, err
	}
	if !s.Started {
		return CheckData{}, nil, nil, fray.Errorf(fray.EINVALID, "Combat has not started; use start (a challenge roll outside combat is check).")
	}
	att, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return CheckData{}, nil, nil, err
	}
	tgt, err := s.Lookup(cmd.Args[1])
	if err != nil {
		return CheckData{}, nil, nil, err
	}
	cur := s.Current()
	if cur == "" || !fray.SameName(cur, att.Name) {
		if cur == "" {
			return CheckData{}, nil, nil, fray.Errorf(fray.EINVALID, "Nobody's turn is in progress; use next.")
		}
		return CheckData{}, nil, nil, fray.Errorf(fray.EINVALID, "It is %s's turn, not %s's.", fray.Mention(cur), att)
	}
	if fray.SameName(att.Name, tgt.Name) {
		return CheckData{}, nil, nil, fray.Errorf(fray.EINVALID, "%s cannot attack themselves.", att)
	}
	with, ok := cmd.Opts[KeyWith]
	if !ok {
		return CheckData{}, nil, nil, fray.Errorf(fray.EINVALID, "Say which trait %s attacks with: with=might (or agility, …).", att)
	}
	if s.Actions >= MaxActions {
		return CheckData{}, nil, nil, fray.Errorf(fray.EINVALID, "%s has taken %d actions this turn, the limit (MaxActions).", fray.Mention(cur), MaxActions)
	}
	act, err := s.actorSide(cmd, att.Name, with, s.Actions, fray.AppliesAttack, tgt)
	if err != nil {
		return CheckData{}, nil, nil, err
	}
	if err := s.harmable(tgt); err != nil {
		return CheckData{}, nil, nil, err
	}
	_, minion := s.standing(tgt.Name)
	def, ok := cmd.Opts[KeyDef]
	if ok {
		def = strings.ToLower(def)
	} else {
		def = DefenceTraits[0]
		for _, t := range DefenceTraits[1:] {
			if tgt.Stat(t) > tgt.Stat(def) {
				def = t
			}
		}
	}
	opp, err := s.makeSide(cmd, tgt.Name, def, oppOpts, false, 0, 0, fray.AppliesDefence, nil)
	if err != nil {
		return CheckData{}, nil, nil, err
	}
	d := CheckData{
		Kind: KindAttack, Actor: act.name, Trait: act.trait, Pool: act.pool, Assist: act.assist, Penalty: act.penalty,
		Opponent: opp.name, OppTrait: opp.trait, OppPool: opp.pool, Minion: minion,
	}
	ev, err := fray.NewEvent(EventActed, ActData{Name: cur, Nth: s.Actions + 1})
	if err != nil {
		return CheckData{}, nil, nil, err
	}
	return d, []side{act, opp}, []fray.Event{ev}, nil
}

// decideAssist decides assist HELPER for=NAME TRAIT (P-6).
func (s *State) decideAssist(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	sd, target, err := s.planAssist(cmd)
	if err != nil {
		return nil, err
	}
	odds, err := s.assistOdds(sd)
	if err != nil {
		return nil, err
	}
	res, rolls, err := rollSides(r, s.swing(), []side{sd})
	if err != nil {
		return nil, err
	}
	d := AssistData{Helper: sd.name, For: target, Trait: sd.trait, Pool: sd.pool, Successes: res[0].successes, Sixes: res[0].sixes}
	if rec := s.record(target); rec != nil {
		d.Before = rec.Assist
	}
	settleAssist(&d)
	for i := range rolls {
		rolls[i].For = sd.name + " (assists " + target + ": " + poolWords(sd.trait, sd.pool) + "; " + assistWords(d) + ")"
	}
	odds.Command = cmd.String()
	ev, err := fray.NewEvent(EventAssisted, d, rolls...)
	if err != nil {
		return nil, err
	}
	ev.Odds = &odds
	spent, err := spendConditions([]side{sd})
	if err != nil {
		return nil, err
	}
	return append([]fray.Event{ev}, spent...), nil
}

// settleAssist works out an assist's net successes, its bonus and
// whether it beats the best assist waiting (P-6).
func settleAssist(d *AssistData) {
	d.Net = d.Successes - AssistThreshold
	d.Bonus = AssistBonus(d.Net)
	d.Kept = d.Bonus > d.Before
}

// assistWords says how an assist came out: "9 against Hard (2): 7 net
// successes, +4d to Gatecrasher".
func assistWords(d AssistData) string {
	w := strconv.Itoa(d.Successes) + " against " + ThresholdName(AssistThreshold) + ": " + plural(d.Net, "net success", "net successes") + ", +" + strconv.Itoa(d.Bonus) + "d to " + d.For
	switch {
	case d.Bonus > 0 && !d.Kept:
		w += ", but a better helper's +" + strconv.Itoa(d.Before) + "d counts"
	case d.Bonus > 0 && d.Before > 0:
		w += ", the best helper's, replacing +" + strconv.Itoa(d.Before) + "d"
	}
	return w
}

// AssistBonus is the bonus dice of an assist with net successes: +1d per
// 2, rounding up (P-6).
func AssistBonus(net int) int {
	if net <= 0 {
		return 0
	}
	return ceilDiv(net, AssistNetPerDie)
}

func (s *State) planAssist(cmd fray.Command) (side, string, error) {
	if err := engine.CheckArgs(cmd, 2, 2, "assist HELPER for=NAME TRAIT [mod=±Nd] [auto=N] [successes=N]"); err != nil {
		return side{}, "", err
	}
	if err := engine.CheckOpts(cmd, KeyFor, KeyMod, KeyAuto, KeySuccesses); err != nil {
		return side{}, "", err
	}
	f, ok := cmd.Opts[KeyFor]
	if !ok {
		return side{}, "", fray.Errorf(fray.EINVALID, "Say whom %s helps: for=NAME.", cmd.Args[0])
	}
	t, err := s.Lookup(f)
	if err != nil {
		return side{}, "", err
	}
	sd, err := s.helperSide(cmd, cmd.Args[0], cmd.Args[1])
	if err != nil {
		return side{}, "", err
	}
	// A helper's own assist waits for their own roll, not this one.
	sd.pool.Dice -= sd.assist
	sd.assist = 0
	if err := sd.pool.Check(); err != nil {
		return side{}, "", fray.Errorf(fray.EINVALID, "%s's roll: %v.", sd.name, err)
	}
	if fray.SameName(sd.name, t.Name) {
		return side{}, "", fray.Errorf(fray.EINVALID, "%s cannot assist themselves.", t)
	}
	return sd, t.Name, nil
}

// decideGroup decides group TRAIT NAME NAME … threshold=… (P-7).
func (s *State) decideGroup(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	d, sides, err := s.planGroup(cmd)
	if err != nil {
		return nil, err
	}
	odds, err := s.groupOdds(d, sides)
	if err != nil {
		return nil, err
	}
	res, rolls, err := rollSides(r, s.swing(), sides)
	if err != nil {
		return nil, err
	}
	for i := range sides {
		d.Successes = append(d.Successes, res[i].successes)
		d.Pools = append(d.Pools, sides[i].pool)
		d.Sixes = append(d.Sixes, res[i].sixes)
	}
	settleGroup(&d)
	for i := range rolls {
		for j, n := range d.Names {
			if strings.HasPrefix(rolls[i].For, n) && rolls[i].For == n {
				rolls[i].For = n + " (" + poolWords(d.Trait, sides[j].pool) + "; " + strconv.Itoa(d.Successes[j]) + " against " + ThresholdName(d.Threshold) + ")"
			}
		}
	}
	if len(rolls) > 0 {
		last := &rolls[len(rolls)-1]
		last.For = strings.TrimSuffix(last.For, ")") + "; " + groupWords(d) + ")"
	}
	odds.Command = cmd.String()
	ev, err := fray.NewEvent(EventGrouped, d, rolls...)
	if err != nil {
		return nil, err
	}
	ev.Odds = &odds
	spent, err := spendConditions(sides)
	if err != nil {
		return nil, err
	}
	return append([]fray.Event{ev}, spent...), nil
}

// settleGroup works out each member's net successes from their
// successes, then hands the surplus above 3 to allies (P-7).
func settleGroup(d *GroupData) {
	d.Nets = make([]int, len(d.Successes))
	for i, n := range d.Successes {
		d.Nets[i] = n - d.Threshold
	}
	d.Given = shareSurplus(d.Names, d.Nets)
}

// groupWords says how a group action came out: "net after sharing: Ann
// +3, Bob +1; handed over: Ann to Bob: 2".
func groupWords(d GroupData) string {
	var parts []string
	for j, n := range d.Names {
		parts = append(parts, n+" "+signed(d.Nets[j]))
	}
	w := "net after sharing: " + strings.Join(parts, ", ")
	if len(d.Given) > 0 {
		w += "; handed over: " + strings.Join(d.Given, ", ")
	}
	return w
}

// shareSurplus hands the net successes above 3 of each member to the
// allies below 1 net success, the lowest first, one at a time (ours: the
// seed lets them distribute it; fray raises as many allies to success as
// it can). It changes nets and says what was given.
func shareSurplus(names []string, nets []int) []string {
	var given []string
	for g := range nets {
		for nets[g] > GroupShareAbove {
			low := -1
			for j := range nets {
				if j != g && nets[j] < 1 && (low < 0 || nets[j] < nets[low]) {
					low = j
				}
			}
			if low < 0 {
				break
			}
			n := min(nets[g]-GroupShareAbove, 1-nets[low])
			nets[g] -= n
			nets[low] += n
			given = append(given, names[g]+" to "+names[low]+": "+strconv.Itoa(n))
		}
	}
	return given
}

func (s *State) planGroup(cmd fray.Command) (GroupData, []side, error) {
	if len(cmd.Args) < 3 || len(cmd.Args) > MaxGroup+1 {
		return GroupData{}, nil, fray.Errorf(fray.EINVALID, "Usage: group TRAIT NAME NAME … threshold=hard|N [successes=N,N,…] (2 to %d characters).", MaxGroup)
	}
	if err := engine.CheckOpts(cmd, KeyThreshold, KeySuccesses); err != nil {
		return GroupData{}, nil, err
	}
	th, ok := cmd.Opts[KeyThreshold]
	if !ok {
		return GroupData{}, nil, fray.Errorf(fray.EINVALID, "Give the group's threshold: threshold=hard (or a number).")
	}
	n, err := ParseThreshold(th)
	if err != nil {
		return GroupData{}, nil, fray.Errorf(fray.EINVALID, "threshold=%s is not a threshold; give a number or a difficulty such as hard.", engine.Clip(th))
	}
	d := GroupData{Trait: strings.ToLower(cmd.Args[0]), Threshold: n}
	var counted []string
	if v, ok := cmd.Opts[KeySuccesses]; ok {
		counted = strings.Split(v, ",")
		if len(counted) != len(cmd.Args)-1 {
			return GroupData{}, nil, fray.Errorf(fray.EINVALID, "successes= gives %d counts for %d characters.", len(counted), len(cmd.Args)-1)
		}
	}
	var sides []side
	for i, a := range cmd.Args[1:] {
		one := fray.Command{Name: cmd.Name}
		if counted != nil {
			one.Opts = map[string]string{KeySuccesses: strings.TrimSpace(counted[i])}
		}
		sd, err := s.helperSide(one, a, d.Trait)
		if err != nil {
			return GroupData{}, nil, err
		}
		for _, o := range sides {
			if o.name == sd.name {
				return GroupData{}, nil, fray.Errorf(fray.EINVALID, "%s is named twice.", sd.name)
			}
		}
		sides = append(sides, sd)
		d.Names = append(d.Names, sd.name)
	}
	return d, sides, nil
}

// decideContest decides contest A B TRAIT [TRAIT2] [exchanges=N] (P-8): it
// begins the contest and rolls its first exchange.
func (s *State) decideContest(cmd fray.Command, r fray.Roller) ([]fray.Event, error) {
	cd, next, err := s.planContest(cmd)
	if err != nil {
		return nil, err
	}
	ev, err := fray.NewEvent(EventContest, cd)
	if err != nil {
		return nil, err
	}
	ex, err := next.decideExchange(firstExchange(cmd), r, true)
	if err != nil {
		return nil, err
	}
	return append([]fray.Event{ev}, ex...), nil
}

// firstExchange is the exchange a contest command rolls: its options.
func firstExchange(cmd fray.Command) fray.Command {
	return fray.Command{Name: "exchange", Opts: cmd.Opts}
}

// planContest checks contest A B TRAIT … and returns the contest it
// begins and a copy of s in which it has begun, to plan its first
// exchange in.
func (s *State) planContest(cmd fray.Command) (ContestData, *State, error) {
	if err := engine.CheckArgs(cmd, 3, 4, "contest A B TRAIT [TRAIT_B] [exchanges=3] [mod=±Nd] [vs_mod=±Nd] [auto=N|all] [vs_auto=N|all] [successes=N] [vs_successes=N]"); err != nil {
		return ContestData{}, nil, err
	}
	if err := engine.CheckOpts(cmd, KeyExchanges, KeySuccesses, KeyVsSuccesses, KeyMod, KeyVsMod, KeyAuto, KeyVsAuto); err != nil {
		return ContestData{}, nil, err
	}
	if s.Res.Contest.Active {
		return ContestData{}, nil, fray.Errorf(fray.EINVALID, "A contest between %s and %s is under way; roll its next exchange with exchange.", s.Res.Contest.A, s.Res.Contest.B)
	}
	a, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return ContestData{}, nil, err
	}
	b, err := s.Lookup(cmd.Args[1])
	if err != nil {
		return ContestData{}, nil, err
	}
	if fray.SameName(a.Name, b.Name) {
		return ContestData{}, nil, fray.Errorf(fray.EINVALID, "%s cannot contest against themselves.", a)
	}
	ta := strings.ToLower(cmd.Args[2])
	tb := ta
	if len(cmd.Args) == 4 {
		tb = strings.ToLower(cmd.Args[3])
	}
	n := DefaultExchanges
	if v, ok := cmd.Opts[KeyExchanges]; ok {
		if n, err = strconv.Atoi(v); err != nil || n < 1 || n > MaxExchanges {
			return ContestData{}, nil, fray.Errorf(fray.EINVALID, "exchanges=%s is not a number from 1 to %d.", engine.Clip(v), MaxExchanges)
		}
	}
	cd := ContestData{A: a.Name, B: b.Name, TraitA: ta, TraitB: tb, Exchanges: n}
	next := s.Clone().(*State)
	next.applyContest(cd)
	return cd, next, nil
}

// settleExchange works out the winner of exchange d of contest c from
// the successes, and whether it ends the contest.
func settleExchange(c Contest, d *ExchangeData) {
	d.Winner, d.Over, d.Outcome = "", false, ""
	switch {
	case d.SuccessesA > d.SuccessesB:
		d.Winner = c.A
	case d.SuccessesB > d.SuccessesA:
		d.Winner = c.B
	}
	// The winner of the last exchange decides the contest; a tied last
	// exchange is rolled again (ours), up to MaxExchanges.
	if d.N >= c.Exchanges && (d.Winner != "" || d.N >= MaxExchanges) {
		d.Over, d.Outcome = true, d.Winner
	}
}

// exchangeWords says how exchange d of contest c came out: "exchange 1
// of 3: 3 against 2, Gatecrasher wins it; +2d to Gatecrasher in the next".
func exchangeWords(c Contest, d ExchangeData) string {
	w := "exchange " + strconv.Itoa(d.N) + " of " + strconv.Itoa(c.Exchanges)
	if d.N > c.Exchanges {
		w = "exchange " + strconv.Itoa(d.N) + ", the tied last one again"
	}
	w += ": " + strconv.Itoa(d.SuccessesA) + " against " + strconv.Itoa(d.SuccessesB)
	switch {
	case d.Winner == "":
		w += ", a tie"
	default:
		w += ", " + d.Winner + " wins it"
	}
	switch {
	case d.Over && d.Outcome != "":
		w += "; " + d.Outcome + " wins the contest and describes its outcome"
	case d.Over:
		w += "; the contest is drawn"
	case d.N >= c.Exchanges:
		w += "; the last exchange is tied, so it is rolled again"
	case d.Winner != "":
		w += "; +" + strconv.Itoa(ContestCarry) + "d to " + d.Winner + " in the next"
	}
	return w
}

// applyExchange moves the contest on by exchange d: its winner carries
// +2d into the next; the contest ends when d says so.
func (s *State) applyExchange(d ExchangeData) {
	c := &s.Res.Contest
	c.Done, c.Carry = d.N, d.Winner
	if d.Over {
		*c = Contest{}
	}
}

func (s *State) applyContest(d ContestData) {
	s.Res.Contest = Contest{Active: true, A: d.A, B: d.B, TraitA: d.TraitA, TraitB: d.TraitB, Exchanges: d.Exchanges}
}

// planExchange builds the next exchange's two sides, with the +2d carry.
func (s *State) planExchange(cmd fray.Command) ([]side, error) {
	c := s.Res.Contest
	if !c.Active {
		return nil, fray.Errorf(fray.EINVALID, "No contest is under way; begin one with contest A B TRAIT.")
	}
	// The winner of the last exchange carries +2d into this one, before
	// the GM's modifier and the dice set aside.
	carryA, carryB := 0, 0
	switch {
	case fray.SameName(c.Carry, c.A):
		carryA = ContestCarry
	case fray.SameName(c.Carry, c.B):
		carryB = ContestCarry
	}
	a, err := s.makeSide(cmd, c.A, c.TraitA, actorOpts, false, 0, carryA, fray.AppliesCheck, nil)
	if err != nil {
		return nil, err
	}
	b, err := s.makeSide(cmd, c.B, c.TraitB, oppOpts, false, 0, carryB, fray.AppliesCheck, nil)
	if err != nil {
		return nil, err
	}
	for _, sd := range []side{a, b} {
		if err := s.canRoll(sd.name, false); err != nil {
			return nil, err
		}
	}
	return []side{a, b}, nil
}

// decideExchange rolls the contest's next exchange.
func (s *State) decideExchange(cmd fray.Command, r fray.Roller, first bool) ([]fray.Event, error) {
	if !first {
		if err := engine.CheckArgs(cmd, 0, 0, "exchange [mod=±Nd] [vs_mod=±Nd] [auto=N|all] [vs_auto=N|all] [successes=N] [vs_successes=N]"); err != nil {
			return nil, err
		}
		if err := engine.CheckOpts(cmd, KeySuccesses, KeyVsSuccesses, KeyMod, KeyVsMod, KeyAuto, KeyVsAuto); err != nil {
			return nil, err
		}
	}
	sides, err := s.planExchange(cmd)
	if err != nil {
		return nil, err
	}
	odds, err := s.exchangeOdds(sides)
	if err != nil {
		return nil, err
	}
	res, rolls, err := rollSides(r, s.swing(), sides)
	if err != nil {
		return nil, err
	}
	c := s.Res.Contest
	d := ExchangeData{
		N: c.Done + 1, SuccessesA: res[0].successes, SuccessesB: res[1].successes,
		PoolA: sides[0].pool, PoolB: sides[1].pool, SixesA: res[0].sixes, SixesB: res[1].sixes,
	}
	if fray.SameName(c.Carry, c.A) {
		d.CarryA = ContestCarry
	} else if fray.SameName(c.Carry, c.B) {
		d.CarryB = ContestCarry
	}
	settleExchange(c, &d)
	w := exchangeWords(c, d)
	for i := range rolls {
		rolls[i].For = sides[i].name + " (" + poolWords(sides[i].trait, sides[i].pool) + ")"
	}
	if len(rolls) > 0 {
		last := &rolls[len(rolls)-1]
		last.For = strings.TrimSuffix(last.For, ")") + "; " + w + ")"
	}
	odds.Command = cmd.String()
	ev, err := fray.NewEvent(EventExchanged, d, rolls...)
	if err != nil {
		return nil, err
	}
	ev.Odds = &odds
	spent, err := spendConditions(sides)
	if err != nil {
		return nil, err
	}
	return append([]fray.Event{ev}, spent...), nil
}

// decideDefining decides defining NAME reduce=TRAIT | oneshot (P-9). A hero
// may declare again before the roll, to change the cost.
func (s *State) decideDefining(cmd fray.Command) (fray.Event, error) {
	if err := engine.CheckArgs(cmd, 1, 2, "defining NAME reduce=TRAIT | defining NAME oneshot"); err != nil {
		return fray.Event{}, err
	}
	if err := engine.CheckOpts(cmd, KeyReduce); err != nil {
		return fray.Event{}, err
	}
	c, err := s.Lookup(cmd.Args[0])
	if err != nil {
		return fray.Event{}, err
	}
	if ch := s.char(c.Name); ch == nil || ch.Role != RoleHero {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "Only a hero declares a defining moment; %s is not one.", c)
	}
	r := s.record(c.Name)
	switch {
	case r != nil && r.Defined:
		return fray.Event{}, fray.Errorf(fray.EINVALID, "%s has had their defining moment this story; one per story (story begins a new one).", c)
	case s.Res.Scene != "" && !fray.SameName(s.Res.Scene, c.Name):
		return fray.Event{}, fray.Errorf(fray.EINVALID, "%s has had this scene's defining moment; one hero per scene (scene begins a new one).", fray.Mention(s.Res.Scene))
	}
	mode := s.Setting(SettingDefining, "reduce")
	red, hasReduce := cmd.Opts[KeyReduce]
	one := strings.EqualFold(cmd.Arg(1), KeyOneShot)
	if cmd.Arg(1) != "" && !one {
		return fray.Event{}, fray.Errorf(fray.EINVALID, "%q: say reduce=TRAIT or oneshot.", engine.Clip(cmd.Arg(1)))
	}
	var cost string
	switch {
	case one && hasReduce:
		return fray.Event{}, fray.Errorf(fray.EINVALID, "Choose one cost: reduce=TRAIT or oneshot.")
	case one && mode == "reduce":
		return fray.Event{}, fray.Errorf(fray.EINVALID, "The one-shot cost is not allowed here (set defining=either or defining=oneshot); say reduce=TRAIT.")
	case one || mode == "oneshot" && !hasReduce:
		cost = KeyOneShot
	case hasReduce && mode == "oneshot":
		return fray.Event{}, fray.Errorf(fray.EINVALID, "In a one-shot game a defining moment costs Health and −2d (defining=oneshot); leave reduce= out.")
	case !hasReduce:
		return fray.Event{}, fray.Errorf(fray.EINVALID, "Say which ability %s gives up 1d of afterwards: reduce=might (physical: agility, might, toughness; mental: intellect, perception, willpower).", c)
	default:
		cost = strings.ToLower(red)
		if !isTrait(cost) {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "reduce=%s is not an ability; use agility, might or toughness (physical) or intellect, perception or willpower (mental).", engine.Clip(red))
		}
		if c.Stat(cost) < 1 {
			return fray.Event{}, fray.Errorf(fray.EINVALID, "%s has no %s dice to give up.", c, cost)
		}
	}
	return fray.NewEvent(EventDefining, DefiningData{Name: c.Name, Cost: cost})
}

// decideResolution decides the commands of this file; handled is false
// for any other.
func (s *State) decideResolution(cmd fray.Command, r fray.Roller) (evs []fray.Event, handled bool, err error) {
	one := func(ev fray.Event, err error) ([]fray.Event, bool, error) {
		if err != nil {
			return nil, true, err
		}
		return []fray.Event{ev}, true, nil
	}
	switch cmd.Name {
	case "check":
		evs, err = s.decideCheck(cmd, r)
	case "attack":
		evs, err = s.decideAttack(cmd, r)
	case "spend":
		evs, err = s.decideSpend(cmd, r)
	case "assist":
		evs, err = s.decideAssist(cmd, r)
	case "group":
		evs, err = s.decideGroup(cmd, r)
	case "contest":
		evs, err = s.decideContest(cmd, r)
	case "exchange":
		evs, err = s.decideExchange(cmd, r, false)
	case "defining":
		return one(s.decideDefining(cmd))
	case "damage", "heal":
		return one(s.decideHarm(cmd))
	case "scene", "story":
		if err := noWords(cmd, cmd.Name); err != nil {
			return nil, true, err
		}
		typ := EventScene
		if cmd.Name == "story" {
			typ = EventStory
		}
		return one(fray.NewEvent(typ, nil))
	default:
		return nil, false, nil
	}
	return evs, true, err
}

// checkedBuf lends Apply a CheckData to decode a roll's payload into, so
// that applying a roll allocates nothing for it.
var checkedBuf = sync.Pool{New: func() any { return new(CheckData) }}

// applyResolution applies the events of this file; handled is false for
// any other.
func (s *State) applyResolution(ev fray.Event) (handled bool, err error) {
	switch ev.Type {
	case EventChecked:
		buf := checkedBuf.Get().(*CheckData)
		*buf = CheckData{}
		err := ev.Decode(buf)
		d := *buf
		checkedBuf.Put(buf)
		if err != nil {
			return true, err
		}
		if s.Find(d.Actor) == nil || (!d.Static && s.Find(d.Opponent) == nil) {
			return true, fray.Errorf(fray.EINVALID, "Event %d is a roll by someone not present.", ev.Seq)
		}
		r := s.ensureRecord(d.Actor)
		r.Assist = 0
		if d.By != "" && s.Find(d.By) != nil {
			s.ensureRecord(d.By).Assist = 0
		}
		if d.Cost != "" {
			r.Defining, r.Defined = "", true
			if d.Cost == KeyOneShot {
				r.OneShot, r.Out = true, true
				r.Wounds = max(r.Wounds, Health(s.Find(d.Actor)))
			} else if c := s.Find(d.Actor); c.Stats[d.Cost] > 0 {
				c.Stats[d.Cost]--
			}
		}
		if d.Kind == KindAttack {
			s.harm(d.Opponent, d.Minion, d.Lost)
		}
		s.Res.Last, s.Res.HasLast, s.Res.LastOf, s.Res.Sides = d, true, LastCheck, SidesData{}
	case EventSides:
		var d SidesData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if !s.Res.HasLast || s.Res.LastOf != LastCheck || !s.Res.Last.Same || len(d.Sides) < 3 || len(s.Res.Sides.Sides) > 0 {
			return true, fray.Errorf(fray.EINVALID, "Event %d lists the rolls of no same-goal check.", ev.Seq)
		}
		for _, x := range d.Sides {
			if s.Find(x.Name) == nil {
				return true, fray.Errorf(fray.EINVALID, "Event %d names %q, who is not present.", ev.Seq, fray.Mention(x.Name))
			}
		}
		s.Res.Sides = d.clone()
	case EventSpent:
		return true, s.applySpent(ev)
	case EventAssisted:
		var d AssistData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.Find(d.For) == nil || s.Find(d.Helper) == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d is an assist by or for someone not present.", ev.Seq)
		}
		r := s.ensureRecord(d.For)
		d.Before = r.Assist
		if d.Kept {
			r.Assist = d.Bonus
		}
		s.Res.HasLast, s.Res.LastOf, s.Res.LastAssist = true, LastAssist, d
	case EventGrouped:
		var d GroupData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		for _, n := range d.Names {
			if s.Find(n) == nil {
				return true, fray.Errorf(fray.EINVALID, "Event %d names %q, who is not present.", ev.Seq, n)
			}
			if r := s.record(n); r != nil {
				r.Assist = 0
			}
		}
		s.Res.HasLast, s.Res.LastOf, s.Res.LastGroup = true, LastGroup, d.clone()
	case EventContest:
		var d ContestData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.Find(d.A) == nil || s.Find(d.B) == nil || s.Res.Contest.Active {
			return true, fray.Errorf(fray.EINVALID, "Event %d begins a contest that cannot begin.", ev.Seq)
		}
		s.applyContest(d)
	case EventExchanged:
		var d ExchangeData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		c := &s.Res.Contest
		if !c.Active || d.N != c.Done+1 {
			return true, fray.Errorf(fray.EINVALID, "Event %d is an exchange of no contest.", ev.Seq)
		}
		s.Res.HasLast, s.Res.LastOf, s.Res.LastExchange, s.Res.Before = true, LastExchange, d, *c
		s.applyExchange(d)
	case EventDefining:
		var d DefiningData
		if err := ev.Decode(&d); err != nil {
			return true, err
		}
		if s.Find(d.Name) == nil {
			return true, fray.Errorf(fray.EINVALID, "Event %d names %q, who is not present.", ev.Seq, fray.Mention(d.Name))
		}
		s.ensureRecord(d.Name).Defining = d.Cost
		s.Res.Scene = s.Find(d.Name).Name
	case EventScene:
		s.Res.Scene = ""
		for _, r := range s.Res.Records {
			r.Out = false // they regain their wits
		}
	case EventStory:
		s.Res.Scene = ""
		for _, r := range s.Res.Records {
			r.Defined, r.OneShot, r.Out = false, false, false
		}
	default:
		return s.applyHarm(ev)
	}
	return true, nil
}

// resolutionWords is what the view says of a combatant's fight, part by
// part: "Health 4/6", "defeated", "Resolve 2/3", "+1d assist". track is
// the index of the first part that gives a track's numbers (Health, the
// minions standing, Resolve), or -1 when none does.
func (s *State) resolutionWords(name string) (parts []string, track int) {
	track = -1
	c := s.Find(name)
	if c == nil {
		return nil, track
	}
	numbers := func(w string) {
		if track < 0 {
			track = len(parts)
		}
		parts = append(parts, w)
	}
	r := s.record(name)
	ch := s.char(name)
	switch {
	case ch != nil && ch.Minion:
		n := minionCount(c)
		if r != nil && r.Down > 0 {
			numbers(strconv.Itoa(n-min(r.Down, n)) + " of " + strconv.Itoa(n) + " standing")
		}
	case r != nil && r.Wounds > 0:
		numbers("Health " + strconv.Itoa(s.HealthLeft(name)) + "/" + strconv.Itoa(Health(c)))
	}
	if s.Defeated(name) {
		parts = append(parts, "defeated")
	}
	if r != nil && r.Spent > 0 {
		numbers("Resolve " + strconv.Itoa(s.ResolveLeft(name)) + "/" + strconv.Itoa(resolveOf(c)))
	}
	if r != nil {
		if r.Assist > 0 {
			parts = append(parts, "+"+strconv.Itoa(r.Assist)+"d assist")
		}
		if r.Defining != "" {
			parts = append(parts, "defining moment declared")
		}
		if r.Out {
			parts = append(parts, "unconscious to the scene's end")
		}
		if r.OneShot {
			parts = append(parts, "−2d this story")
		}
	}
	return parts, track
}

// checkResolution reports a broken invariant of the resolution state.
func (s *State) checkResolution() error {
	for _, r := range s.Res.Records {
		if s.Find(r.Name) == nil {
			return fray.Errorf(fray.EINTERNAL, "P&P state: a record of %s, who is not present", r.Name)
		}
		if r.Wounds < 0 || r.Down < 0 || r.Spent < 0 || r.Assist < 0 {
			return fray.Errorf(fray.EINTERNAL, "P&P state: %s has a negative count: %+v", r.Name, *r)
		}
	}
	return nil
}
