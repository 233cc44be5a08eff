// Package sim plays an encounter to its end many times by the real rules,
// to say how a fight is likely to go before it is fought: each side's
// chance to win, how many rounds it takes, and how each combatant fares.
//
// Every simulated fight starts from a copy of a prepared state and runs
// the system's own Decide and Apply on moves the system declares through
// fray.Simulator, chosen by a tactic per side; it keeps no log, no undo
// and no views, and its Roller says that nothing is recorded
// (fray.UnrecordedRoller), so that the rules work out no odds or words
// for the log and leave the payloads of the events unencoded. Fights run
// in parallel, fight i rolling its dice from a stream seeded by (seed,
// i), so that a seed gives the same result for any number of workers.
//
// Exact works out the chance of each side to win a small fight exactly
// instead: the same moves by the same tactics, every way each draw can
// fall followed with its odds, over every state the fight can reach.
package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"fray"
	"fray/dice"
	"fray/engine"
)

// Budgets of one run.
const (
	// MaxFights is the most fights one run may play.
	MaxFights = 10_000_000
	// MaxRounds is the highest round cap a run may set.
	MaxRounds = 10_000
	// DefaultRounds is the round cap when Config.Rounds is 0: a fight
	// still going after it counts as unfinished.
	DefaultRounds = 100
	// MaxWorkers is the most workers one run or exact solve may have
	// (Config.Workers), each with its own copy of what a fight needs.
	MaxWorkers = 256
	// MaxMovesPerRound is the most moves one round of a fight may take;
	// a fight that takes more is stuck, and the run fails.
	MaxMovesPerRound = 10_000
)

// Config is what Run plays.
type Config struct {
	// System is the rule system; it must implement fray.Simulator.
	System fray.System
	// State is the prepared encounter (combatants added, perhaps
	// started and partly fought). Run and Exact never change it, but
	// their fights share its combatants' sheets (fray.CloneForApply)
	// while they run: nothing else may change it meanwhile (the server
	// passes a copy of an encounter's state).
	State fray.State
	// Fights is how many fights to play, from 1 to MaxFights.
	Fights int
	// Seed seeds the dice.
	Seed uint64
	// Rounds caps each fight's rounds (DefaultRounds when 0).
	Rounds int
	// Tactics holds the tactic of each side, by side (fray.SidePC …),
	// and of any combatant that follows its own, by name (any case); a
	// combatant left out takes its side's, a side left out
	// FocusWeakest. A key that is neither is refused.
	Tactics map[string]Tactic
	// Workers is how many fights run at once, and how many workers
	// find the states of an exact solve (GOMAXPROCS when 0).
	Workers int
	// Progress, when set, is called now and then with the number of
	// fights done, from any worker (it must be safe for that).
	Progress func(done int)
	// ExactProgress, when set, is called now and then during an exact
	// solve with the states it has found and the moves it has decided so
	// far, which it gives up past (MaxExactStates, MaxExactWork); one
	// call at a time, each with numbers no lower than the last.
	ExactProgress func(states, work int)
}

// Result is what a run found. Shares are of all the fights.
type Result struct {
	// Fights is how many fights were played.
	Fights int `json:"fights"`
	// Seed seeded the dice.
	Seed uint64 `json:"seed"`
	// Sides holds each side's chance to win, in the order the sides
	// first appear among the combatants.
	Sides []Side `json:"sides"`
	// Unfinished is the share of fights that no side won by the round
	// cap (or in which every side went down).
	Unfinished float64 `json:"unfinished"`
	// Rounds is how many rounds the fights lasted.
	Rounds Rounds `json:"rounds"`
	// Combatants holds how each combatant fared, in the encounter's order.
	Combatants []Combatant `json:"combatants"`
}

// Side is one side's chance to win.
type Side struct {
	// Side is the side (fray.SidePC …).
	Side string `json:"side"`
	// Tactic is the side's tactic.
	Tactic Tactic `json:"tactic"`
	// Win is the share of fights the side won.
	Win float64 `json:"win"`
	// CI95 is the 95% Wilson interval around Win.
	CI95 [2]float64 `json:"ci95"`
}

// Rounds is the distribution of the rounds fights lasted.
type Rounds struct {
	// Mean and Median are of the rounds every fight lasted.
	Mean   float64 `json:"mean"`
	Median int     `json:"median"`
	// Dist holds [rounds, share] pairs, rounds increasing.
	Dist [][2]float64 `json:"dist"`
}

// Combatant is how one combatant fared.
type Combatant struct {
	// Name and Side are the combatant's.
	Name string `json:"name"`
	Side string `json:"side"`
	// Down is the share of fights it ended down.
	Down float64 `json:"down"`
	// Tactic is the tactic it followed: its own, else its side's (none
	// for environment).
	Tactic Tactic `json:"tactic,omitempty"`
	// Track names the track that measures harm (fray.SheetSchema.Health).
	Track string `json:"track,omitempty"`
	// Left is the mean of that track left at the end; Most its most.
	Left float64 `json:"left"`
	Most int     `json:"most"`
	// Dealt and Taken are the means of the harm it did to foes' tracks
	// and suffered on its own.
	Dealt float64 `json:"dealt"`
	Taken float64 `json:"taken"`
	// Tracks holds the mean left at the end of every track it has, the
	// one that measures harm included, by the name the system's sheet
	// schema declares (fray.SheetSchema.Tracks).
	Tracks map[string]float64 `json:"tracks,omitempty"`
}

// z95 is the normal quantile of a 95% interval.
const z95 = 1.959963984540054

// Wilson returns the 95% Wilson score interval of k successes in n trials.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	p, nf := float64(k)/float64(n), float64(n)
	z2 := z95 * z95
	d := 1 + z2/nf
	c := (p + z2/(2*nf)) / d
	h := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / d
	return math.Max(0, c-h), math.Min(1, c+h)
}

// tally is what one worker, or the whole run, counts; sums of whole
// numbers only, so that adding tallies in any order gives the same.
type tally struct {
	wins   []int       // by side
	rounds map[int]int // fights by rounds lasted
	down   []int       // by combatant
	left   []int64     // by combatant
	dealt  []int64     // by combatant
	taken  []int64     // by combatant
	tracks [][]int64   // by combatant, by plan.tracks
	fights int
}

func (p *plan) newTally() *tally {
	sides, cs := len(p.sides), len(p.tracks)
	t := &tally{wins: make([]int, sides), rounds: map[int]int{}, down: make([]int, cs),
		left: make([]int64, cs), dealt: make([]int64, cs), taken: make([]int64, cs), tracks: make([][]int64, cs)}
	for i, names := range p.tracks {
		t.tracks[i] = make([]int64, len(names))
	}
	return t
}

func (t *tally) add(u *tally) {
	t.fights += u.fights
	for i := range t.wins {
		t.wins[i] += u.wins[i]
	}
	for r, n := range u.rounds {
		t.rounds[r] += n
	}
	for i := range t.down {
		t.down[i] += u.down[i]
		t.left[i] += u.left[i]
		t.dealt[i] += u.dealt[i]
		t.taken[i] += u.taken[i]
		for k := range t.tracks[i] {
			t.tracks[i][k] += u.tracks[i][k]
		}
	}
}

// newPlan checks cfg, all but its number of fights, and returns the plan
// its fights share and the encounter they start from.
func newPlan(cfg Config) (*plan, *fray.Encounter, error) {
	sm, ok := cfg.System.(fray.Simulator)
	if !ok {
		return nil, nil, fray.Errorf(fray.EINVALID, "The %s rules cannot be simulated yet.", cfg.System.ID())
	}
	switch {
	case cfg.Rounds < 0:
		return nil, nil, fray.Errorf(fray.EINVALID, "The round cap is %d; give at least 1.", cfg.Rounds)
	case cfg.Rounds > MaxRounds:
		return nil, nil, fray.Errorf(fray.ETOOLARGE, "The round cap is %d; the limit (MaxRounds) is %d.", cfg.Rounds, MaxRounds)
	case cfg.Workers > MaxWorkers:
		return nil, nil, fray.Errorf(fray.ETOOLARGE, "The number of workers is %d; the limit (MaxWorkers) is %d.", cfg.Workers, MaxWorkers)
	}
	if cfg.Rounds == 0 {
		cfg.Rounds = DefaultRounds
	}
	b, ok := cfg.State.(fray.BaseState)
	if !ok {
		return nil, nil, fray.Errorf(fray.EINVALID, "The %s rules keep no combatants the simulator can read.", cfg.System.ID())
	}
	enc := b.Base()
	p := &plan{sys: cfg.System, sm: sm, start: cfg.State, rounds: cfg.Rounds}
	for _, c := range enc.Combatants {
		if c.Kind == fray.KindEnvironment {
			continue
		}
		if !slices.Contains(p.sides, c.Side) {
			p.sides = append(p.sides, c.Side)
		}
	}
	if len(p.sides) < 2 {
		return nil, nil, fray.Errorf(fray.EINVALID, "A fight needs two sides, and the encounter has %d; add the foes (--foes) or the party (--party).", len(p.sides))
	}
	for key, t := range cfg.Tactics {
		if slices.Contains(p.sides, key) {
			continue
		}
		c := enc.Find(key)
		if c == nil || c.Kind == fray.KindEnvironment {
			return nil, nil, fray.Errorf(fray.EINVALID, "The tactics name %q, which is neither a side (%s) nor a combatant of the fight.", key, strings.Join(p.sides, ", "))
		}
		if p.own == nil {
			p.own = map[fray.CombatantID]Tactic{}
		}
		p.own[c.ID] = t
	}
	p.tactics = make([]Tactic, len(p.sides))
	for i, side := range p.sides {
		p.tactics[i] = FocusWeakest
		if t, ok := cfg.Tactics[side]; ok {
			p.tactics[i] = t
		}
	}
	p.guard, _ = sm.(fray.SimGuarder)
	for _, c := range enc.Combatants {
		if c.Kind != fray.KindEnvironment && p.tacticOf(c) == Cautious && p.guard != nil {
			if p.cautious == nil {
				p.cautious = map[fray.CombatantID]bool{}
			}
			p.cautious[c.ID] = true
		}
	}
	p.trackNames(cfg.System, enc)
	return p, enc, nil
}

// Run plays cfg.Fights fights from cfg.State and returns what they show.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if _, ok := cfg.System.(fray.Simulator); ok {
		switch {
		case cfg.Fights < 1:
			return Result{}, fray.Errorf(fray.EINVALID, "The number of fights is %d; give at least 1.", cfg.Fights)
		case cfg.Fights > MaxFights:
			return Result{}, fray.Errorf(fray.ETOOLARGE, "The number of fights is %d; the limit (MaxFights) is %d.", cfg.Fights, MaxFights)
		}
	}
	p, enc, err := newPlan(cfg)
	if err != nil {
		return Result{}, err
	}
	cfg.Rounds = p.rounds
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Fights)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next, done atomic.Int64
		mu         sync.Mutex
		firstErr   error
		wg         sync.WaitGroup
	)
	total := p.newTally()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := p.newTally()
			f := p.newFighter()
			var err error
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if i >= int64(cfg.Fights) {
					break
				}
				if err = f.safeFight(cfg.Seed, uint64(i), t); err != nil {
					err = fmt.Errorf("fight %d: %w", i, err)
					break
				}
				if n := done.Add(1); cfg.Progress != nil && n%256 == 0 {
					cfg.Progress(int(n))
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
				cancel()
			}
			total.add(t)
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return Result{}, firstErr
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if cfg.Progress != nil {
		cfg.Progress(cfg.Fights)
	}
	return p.result(cfg, enc, total), nil
}

// safeFight plays fight i as fight does, and reports a panic in the rules
// as an internal error instead of ending the process: a server that
// simulates must outlive a bug in one system.
func (f *fighter) safeFight(seed, i uint64, t *tally) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fray.Errorf(fray.EINTERNAL, "The rules failed while simulating (a bug in fray): %v", r)
		}
	}()
	return f.fight(seed, i, t)
}

// result turns the run's tally into a Result.
func (p *plan) result(cfg Config, enc *fray.Encounter, t *tally) Result {
	n := float64(t.fights)
	r := Result{Fights: t.fights, Seed: cfg.Seed}
	won := 0
	for i, side := range p.sides {
		lo, hi := Wilson(t.wins[i], t.fights)
		r.Sides = append(r.Sides, Side{Side: side, Tactic: p.tactics[i], Win: float64(t.wins[i]) / n, CI95: [2]float64{lo, hi}})
		won += t.wins[i]
	}
	r.Unfinished = float64(t.fights-won) / n
	keys := make([]int, 0, len(t.rounds))
	sum := 0
	for k, c := range t.rounds {
		keys = append(keys, k)
		sum += k * c
	}
	sort.Ints(keys)
	r.Rounds.Mean = float64(sum) / n
	r.Rounds.Dist = [][2]float64{}
	seen := 0
	for _, k := range keys {
		if seen < (t.fights+1)/2 && seen+t.rounds[k] >= (t.fights+1)/2 {
			r.Rounds.Median = k
		}
		seen += t.rounds[k]
		r.Rounds.Dist = append(r.Rounds.Dist, [2]float64{float64(k), float64(t.rounds[k]) / n})
	}
	track := ""
	if sh, ok := cfg.System.(fray.Sheeter); ok {
		track = sh.Sheet().Health
	}
	for i, c := range enc.Combatants {
		_, most := p.sm.SimHealth(cfg.State, c)
		rc := Combatant{Name: c.Name, Side: c.Side, Down: float64(t.down[i]) / n,
			Track: track, Left: float64(t.left[i]) / n, Most: most,
			Dealt: float64(t.dealt[i]) / n, Taken: float64(t.taken[i]) / n}
		if c.Kind != fray.KindEnvironment {
			rc.Tactic = p.tacticOf(c)
		}
		if len(p.tracks[i]) > 0 {
			rc.Tracks = make(map[string]float64, len(p.tracks[i]))
			for k, name := range p.tracks[i] {
				rc.Tracks[name] = float64(t.tracks[i][k]) / n
			}
		}
		r.Combatants = append(r.Combatants, rc)
	}
	return r
}

// trackNames lists, for each combatant, the tracks it has, in the order
// the system's sheet schema declares them: the one that measures harm,
// and every other one the combatant has in Combatant.Tracks or, for a
// fray.SimTracker, wherever the rules keep it.
func (p *plan) trackNames(sys fray.System, enc *fray.Encounter) {
	p.tracks = make([][]string, len(enc.Combatants))
	sh, ok := sys.(fray.Sheeter)
	if !ok {
		return
	}
	sc := sh.Sheet()
	p.health = sc.Health
	p.tracker, _ = p.sm.(fray.SimTracker)
	for i, c := range enc.Combatants {
		for _, r := range sc.Tracks {
			if _, ok := p.trackLeft(p.start, c, r.Name, 0); ok {
				p.tracks[i] = append(p.tracks[i], r.Name)
			}
		}
	}
}

// trackLeft returns how much c has left of the track name in st, or false
// when it has none; health is what it has left of the track that
// measures harm (SimHealth).
func (p *plan) trackLeft(st fray.State, c *fray.Combatant, name string, health int) (int, bool) {
	if name == p.health {
		return health, c.Kind != fray.KindEnvironment
	}
	if p.tracker != nil {
		left, _, ok := p.tracker.SimTrack(st, c, name)
		return left, ok
	}
	t, ok := c.Tracks[name]
	return t.Value, ok
}

// plan is what every fight of a run shares; it is never changed once
// the workers start.
type plan struct {
	sys     fray.System
	sm      fray.Simulator
	start   fray.State
	rounds  int
	sides   []string
	tactics []Tactic                    // by side
	own     map[fray.CombatantID]Tactic // the combatants that follow their own
	// guard is the system's defences, when it offers any; cautious holds
	// the combatants that take them (none without guard).
	guard    fray.SimGuarder
	cautious map[fray.CombatantID]bool
	// tracks holds the names of each combatant's tracks; health names
	// the one that measures harm; tracker reads them where the rules
	// keep them.
	tracks  [][]string
	health  string
	tracker fray.SimTracker
}

// fighter plays fights one after another, reusing its buffers.
type fighter struct {
	*plan
	moves  []fray.SimMove
	health []int
	down   []bool // by combatant, as SimDown reports after the last move
	hit    []int  // the harm each combatant took from the last attack
	pick   []int
	roller roller
}

func (p *plan) newFighter() *fighter { return &fighter{plan: p} }

// roller is the fray.Roller of a simulated fight: every roll from the
// fight's own stream, or from src when it is set (as Exact sets it, to
// enumerate every draw).
type roller struct {
	rng *rand.Rand
	src dice.Source
	// room is where the events of the command being decided are
	// recorded (fray.EventLender); lent says it is taken.
	room []fray.Event
	lent bool
}

// roomEvents is how many events the room a roller lends holds before the
// rules grow it: nearly every move's.
const roomEvents = 16

// decide decides cmd in st with r, lending the rules r's room for its
// events anew: the events of the command decided with r before are used
// up by then.
func (r *roller) decide(sys fray.System, st fray.State, cmd fray.Command) ([]fray.Event, error) {
	r.lent = false
	return sys.Decide(st, cmd, r)
}

// LendEvents lends the room for the events of the command being decided,
// once (fray.EventLender).
func (r *roller) LendEvents() []fray.Event {
	if r.lent {
		return nil
	}
	if r.room == nil {
		r.room = make([]fray.Event, 0, roomEvents)
	}
	r.lent = true
	return r.room[:0]
}

func (r *roller) Roll(forWhom, expr string) (fray.Roll, error) {
	if r.src != nil {
		return engine.RollSeeded(forWhom, expr, r.src)
	}
	return engine.RollSeeded(forWhom, expr, r.rng)
}

// Unrecorded reports that a simulated fight records none of its events
// (fray.UnrecordedRoller): the rules need not work out their odds.
func (*roller) Unrecorded() bool { return true }

// intN draws a number in [0, n) as Roll draws its dice: a tactic's
// random choice.
func (r *roller) intN(n int) int {
	if r.src != nil {
		return r.src.IntN(n)
	}
	return r.rng.IntN(n)
}

// stepBreak is the type of engine.StepBreak's mark, which splits a
// command's events in two steps and is never applied.
var stepBreak = engine.StepBreak("").Type

// fight plays fight i from a copy of the prepared state and counts it
// in t. The copy shares the combatants' sheets with the prepared state
// (fray.CloneForApply): Apply never changes one in place.
func (f *fighter) fight(seed, i uint64, t *tally) error {
	st := fray.CloneForApply(f.start)
	enc := st.(fray.BaseState).Base()
	f.roller.rng = rand.New(rand.NewPCG(seed, i))
	f.health, f.down, f.hit = f.health[:0], f.down[:0], f.hit[:0]
	for _, c := range enc.Combatants {
		left, _ := f.sm.SimHealth(st, c)
		f.health, f.down, f.hit = append(f.health, left), append(f.down, f.sm.SimDown(st, c)), append(f.hit, 0)
	}
	start := len(enc.Combatants)
	var acted fray.CombatantID // who attacked in the turn in progress
	var striker = -1           // the index of who made the last attack
	round, moves := enc.Round, 0
	winner := -1
	for {
		if winner = f.standing(enc, f.down); winner != -2 {
			break
		}
		if enc.Round > f.rounds {
			break
		}
		if enc.Round != round {
			round, moves, acted = enc.Round, 0, ""
		}
		if moves++; moves > MaxMovesPerRound {
			return fmt.Errorf("round %d takes more than %d moves (MaxMovesPerRound)", round, MaxMovesPerRound)
		}
		f.moves = f.sm.SimMoves(st, f.moves[:0])
		if len(f.moves) == 0 {
			break // stuck: unfinished
		}
		m, evs, err := f.decide(st, enc, acted)
		if err != nil {
			return err
		}
		switch m.Kind {
		case fray.SimAttack:
			acted = m.Actor
			striker = slices.IndexFunc(enc.Combatants, func(c *fray.Combatant) bool { return c.ID == m.Actor })
			clear(f.hit)
		case fray.SimEnd:
			acted = ""
		}
		for _, ev := range evs {
			if ev.Type == stepBreak {
				continue
			}
			ev.Format = fray.FormatIDs
			if err := f.sys.Apply(st, fray.LastUse(ev)); err != nil {
				return fmt.Errorf("%s: apply %s: %w", m.Cmd.String(), ev.Type, err)
			}
		}
		if len(enc.Combatants) != start {
			return fmt.Errorf("%s: the combatants changed", m.Cmd.String())
		}
		for j, c := range enc.Combatants {
			left, _ := f.sm.SimHealth(st, c)
			d := f.health[j] - left
			switch {
			case d > 0:
				t.taken[j] += int64(d)
				f.hit[j] += d
				if striker >= 0 && enc.Combatants[striker].Side != c.Side {
					t.dealt[striker] += int64(d)
				}
			case d < 0 && m.Kind == fray.SimDefend && f.hit[j] > 0:
				// A defence that undid the last attack's harm (Resolve
				// spent on its roll): that harm was never dealt.
				back := min(-d, f.hit[j])
				f.hit[j] -= back
				t.taken[j] -= int64(back)
				if striker >= 0 && enc.Combatants[striker].Side != c.Side {
					t.dealt[striker] -= int64(back)
				}
			}
			f.health[j] = left
			f.down[j] = f.sm.SimDown(st, c)
		}
	}
	t.fights++
	if winner >= 0 {
		t.wins[winner]++
	}
	r := min(enc.Round, f.rounds)
	t.rounds[r]++
	for j, c := range enc.Combatants {
		if f.down[j] {
			t.down[j]++
		}
		t.left[j] += int64(f.health[j])
		for k, name := range f.tracks[j] {
			left, _ := f.trackLeft(st, c, name, f.health[j])
			t.tracks[j][k] += int64(left)
		}
	}
	return nil
}

// winner returns the index of the one side with anyone standing in st,
// -1 when no side has, or -2 while two or more have.
func (f *fighter) winner(st fray.State, enc *fray.Encounter) int {
	f.down = f.down[:0]
	for _, c := range enc.Combatants {
		f.down = append(f.down, f.sm.SimDown(st, c))
	}
	return f.standing(enc, f.down)
}

// standing is winner with whether each combatant is down already known.
func (f *fighter) standing(enc *fray.Encounter, down []bool) int {
	standing := -1
	for j, c := range enc.Combatants {
		if c.Kind == fray.KindEnvironment || down[j] {
			continue
		}
		s := slices.Index(f.sides, c.Side)
		if standing >= 0 && s != standing {
			return -2
		}
		standing = s
	}
	return standing
}

// decide picks one of f.moves (see choose) and decides it. An attack or
// a defence that costs something the rules refuse is set aside and
// another move picked: listing the moves does not check them.
func (f *fighter) decide(st fray.State, enc *fray.Encounter, acted fray.CombatantID) (fray.SimMove, []fray.Event, error) {
	for {
		i, costly := f.choose(st, enc, acted)
		m := f.moves[i]
		evs, err := f.roller.decide(f.sys, st, m.Cmd)
		if err == nil {
			return m, evs, nil
		}
		if (m.Kind != fray.SimAttack && !costly) || fray.ErrorCode(err) == fray.EINTERNAL {
			return m, nil, fmt.Errorf("%s: %w", m.Cmd.String(), err)
		}
		f.moves = slices.Delete(f.moves, i, i+1)
	}
}
