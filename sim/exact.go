package sim

import (
	"context"
	"fmt"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"fray"
)

// Budgets of an exact solve (Exact). A fight that needs more is not
// solved exactly: ExactResult.Exact is false and Why names the limit.
const (
	// MaxExactStates is the most distinct states of a fight (its
	// combatants, tracks, order of play and what each has spent this
	// round, with who has attacked in the turn in progress) that one
	// exact solve may reach.
	MaxExactStates = 100_000
	// MaxExactBranches is the most ways the draws of one move may fall
	// (each outcome of every roll it makes, and of a random tactic's
	// choice, counted apart) in an exact solve.
	MaxExactBranches = 100_000
	// MaxExactWork is the most moves an exact solve may decide in all,
	// each way its draws fall counting once.
	MaxExactWork = 1_000_000
	// MaxExactHeld is the most states an exact solve may hold at once:
	// those found and waiting to be explored, and those the moves being
	// decided have reached so far. It bounds the solve's memory, each
	// state being a copy of the whole encounter.
	MaxExactHeld = 10_000
)

// budgets are the budgets an exact solve keeps to: the constants, lowered
// only by tests.
var budgets = struct{ states, branches, work, held int }{MaxExactStates, MaxExactBranches, MaxExactWork, MaxExactHeld}

// peakHeld, when set (by the tests), is told the most states a solve held
// at once.
var peakHeld func(int)

// ExactResult is what an exact solve found: each side's chance to win,
// computed from the exact odds of every roll rather than from fights
// played.
type ExactResult struct {
	// Exact reports whether the fight was solved within the budgets;
	// when it was not, Why says which one it met, and every chance in
	// Sides and Unfinished is 0 (nothing is claimed).
	Exact bool `json:"exact"`
	// Why is the sentence that says why the fight was not solved
	// exactly ("" when it was).
	Why string `json:"why,omitempty"`
	// Sides holds each side's exact chance to win, in the order of
	// Result.Sides.
	Sides []ExactSide `json:"sides"`
	// Unfinished is the chance that no side wins by the round cap (or
	// that every side goes down, or that nobody can act).
	Unfinished float64 `json:"unfinished"`
	// States is how many distinct states the solve reached (when a
	// budget stopped it, how many it had reached by then, which may
	// differ with the number of workers).
	States int `json:"states"`
}

// ExactSide is one side's exact chance to win.
type ExactSide struct {
	// Side is the side (fray.SidePC …).
	Side string `json:"side"`
	// Win is the side's chance to win.
	Win float64 `json:"win"`
}

// Exact computes each side's chance to win the fight Run would play from
// cfg (cfg.Fights, Seed and Progress are not used), exactly: it plays the
// same moves by the same tactics and the same rules, but where a fight
// draws a number (a die's face, a random tactic's target) it follows
// every value the draw could take, each with its chance, and it solves
// each state the fight can reach once, by dynamic programming over those
// states. A fight too big for the budgets (MaxExactStates,
// MaxExactBranches, MaxExactWork, MaxExactHeld) gives Exact false and the
// sentence that names the budget, not an error; an error is a configuration Run refuses
// too, a refusal or failure of the rules, or ctx's end.
//
// The states are found by cfg.Workers workers at once (GOMAXPROCS when
// 0), each deciding the moves of the states it takes; the chances are
// then added up in one order, the same for any number of workers, so
// that the result is too, to the last bit.
func Exact(ctx context.Context, cfg Config) (res ExactResult, err error) {
	p, _, err := newPlan(cfg)
	if err != nil {
		return ExactResult{}, err
	}
	s := &solver{plan: p, ctx: ctx, nodes: map[stateKey]*node{}, types: newKeyTypes(),
		seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, progress: cfg.ExactProgress}
	_, s.sharing = p.start.(fray.SheetSharer)
	s.wake = sync.NewCond(&s.mu)
	s.ends = make([][]float64, len(p.sides)+1)
	for i := range s.ends {
		s.ends[i] = make([]float64, len(p.sides)+1)
		s.ends[i][i] = 1
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = ExactResult{}, rulesFailed(r)
		}
	}()
	start := p.start.Clone()
	first := s.newExplorer()
	var out []float64
	if end, ok := first.ended(start, start.(fray.BaseState).Base()); ok {
		out = end
	} else {
		root := &node{}
		key := first.key(start, "")
		s.nodes[key] = root
		s.todo = append(s.todo, task{st: start, key: key, n: root})
		s.hold(1)
		var wg sync.WaitGroup
		for w := range workers {
			e := first
			if w > 0 {
				e = s.newExplorer()
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				e.explore()
			}()
		}
		wg.Wait()
		if s.err == nil {
			out, s.err = root.solve()
		}
	}
	res.States = len(s.nodes)
	if peakHeld != nil {
		peakHeld(int(s.peak.Load()))
	}
	if lim, ok := s.err.(*budgetError); ok {
		res.Why = lim.why
		for _, side := range p.sides {
			res.Sides = append(res.Sides, ExactSide{Side: side})
		}
		return res, nil
	}
	if s.err != nil {
		return ExactResult{}, s.err
	}
	res.Exact = true
	for i, side := range p.sides {
		res.Sides = append(res.Sides, ExactSide{Side: side, Win: out[i]})
	}
	res.Unfinished = out[len(p.sides)]
	return res, nil
}

// budgetError is how a solve that meets a budget stops; Exact turns it
// into a result that is not exact.
type budgetError struct{ why string }

func (e *budgetError) Error() string { return e.why }

// stateKey identifies a state of a fight, with who has attacked in the
// turn in progress: 128 bits of hash of the state as keyWriter writes
// it (what its JSON, the form in which a state is stored whole, holds),
// so that two states with the same key are the same but for a chance of
// about 2⁻¹²⁸ per pair.
type stateKey [2]uint64

// solver is one exact solve. Its workers (explorers) take the states
// still to be explored from todo, and record in nodes what the move
// made at each leads to; once every state has been explored, the root's
// node is solved.
type solver struct {
	*plan
	ctx   context.Context
	seeds [2]maphash.Seed
	types *keyTypes
	// sharing reports that the states share their combatants' sheets
	// (fray.SheetSharer), which lets the key writers remember them.
	sharing bool
	// ends holds the outcome of a fight that has ended: ends[i] is won
	// by side i, ends[len(sides)] unfinished.
	ends [][]float64
	work atomic.Int64 // moves decided, each way its draws fall counting once
	// held counts the states held (MaxExactHeld); peak is its most.
	held, peak atomic.Int64

	mu    sync.Mutex
	wake  *sync.Cond // signalled when todo grows, busy falls or err is set
	nodes map[stateKey]*node
	todo  []task
	busy  int   // explorers exploring a state
	err   error // the first error of an explorer; it stops them all
	// visits counts the states explored, progress (Config.ExactProgress)
	// is told of them.
	visits   int
	progress func(states, work int)
}

// node is a state of the fight, found once.
type node struct {
	// out is the chance of each end the state's move reaches at once
	// (by plan.sides, then unfinished); solve turns it into the
	// state's outcome.
	out []float64
	// nexts are the states the move leads to otherwise, in the order
	// its draws first reach them, each with its chance; self is the
	// chance that it leaves the fight as it was.
	nexts []edge
	self  float64
	mark  int8 // 0 unsolved, 1 being solved, 2 solved
}

type edge struct {
	to *node
	p  float64
}

// task is a state still to be explored: its node, with who has attacked
// in the turn in progress.
type task struct {
	st    fray.State
	acted fray.CombatantID
	key   stateKey
	n     *node
}

// solve returns the outcome of the fight from n: the chance that each
// side wins (by plan.sides), then the chance that none does. It adds up
// the chances of the states n leads to in their order, depth first, so
// that the sums are made in the same order however the states were
// found.
func (n *node) solve() ([]float64, error) {
	switch n.mark {
	case 1:
		return nil, &budgetError{"The fight can come back to a state it has left within a round, which the exact solver does not follow."}
	case 2:
		return n.out, nil
	}
	n.mark = 1
	out := n.out
	for _, e := range n.nexts {
		o, err := e.to.solve()
		if err != nil {
			return nil, err
		}
		for i, x := range o {
			out[i] += e.p * x
		}
	}
	if n.self > 0 {
		// A move that may leave the fight as it was: the fight stays
		// with chance self, then moves on as the other draws say.
		for i := range out {
			out[i] /= 1 - n.self
		}
	}
	n.nexts = nil
	n.mark = 2
	return out, nil
}

// explorer is one worker of a solve. A fighter, reused, chooses and
// decides the moves as Run's fights do; its roller draws from rep.
type explorer struct {
	*fighter
	s   *solver
	rep replay
	kw  *keyWriter
	buf []byte // the state written out for its key
	// spare is the copy a way of the dice led to and the solve dropped
	// (an end, a state already reached): the next way's copy is made in
	// its memory (fray.CloneForApplyInto). Most copies are dropped: of
	// the cinematic duel's 8,588 ways, 438 reach a state not seen yet.
	spare fray.State
}

func (s *solver) newExplorer() *explorer {
	e := &explorer{fighter: s.newFighter(), s: s, kw: newKeyWriter(s.types, s.sharing)}
	e.roller.src = &e.rep
	return e
}

// explore takes states from the solver's todo and explores them until
// none is left and no other explorer may add one, or one of them fails.
func (e *explorer) explore() {
	s := e.s
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for len(s.todo) == 0 && s.busy > 0 && s.err == nil {
			s.wake.Wait()
		}
		if len(s.todo) == 0 || s.err != nil {
			s.wake.Broadcast()
			return
		}
		t := s.todo[len(s.todo)-1]
		s.todo = s.todo[:len(s.todo)-1]
		s.busy++
		s.mu.Unlock()
		nexts, err := e.visit(t)
		s.mu.Lock()
		s.busy--
		s.hold(-1) // t's state, explored
		if err == nil {
			err = s.record(t.n, nexts)
		}
		if err != nil && s.err == nil {
			s.err = err
		}
		if s.visits++; s.visits%16 == 0 {
			s.report()
		}
		s.wake.Broadcast()
	}
}

// hold adds n to the states held, and returns how many are held now.
func (s *solver) hold(n int64) int64 {
	h := s.held.Add(n)
	for {
		p := s.peak.Load()
		if h <= p || s.peak.CompareAndSwap(p, h) {
			return h
		}
	}
}

func heldError() error {
	return &budgetError{fmt.Sprintf("The fight needs more than %d states held at once (MaxExactHeld), too many to solve exactly.", budgets.held)}
}

// report tells Config.ExactProgress how far the solve has come. It is
// called with s.mu held, so that one call comes at a time.
func (s *solver) report() {
	if s.progress != nil {
		s.progress(len(s.nodes), int(s.work.Load()))
	}
}

// rulesFailed is the error of a panic r in the rules during a solve: a
// server that solves must outlive a bug in one system.
func rulesFailed(r any) error {
	return fray.Errorf(fray.EINTERNAL, "The rules failed while solving the fight exactly (a bug in fray): %v", r)
}

// visit explores the state of t: it decides the move made there under
// every way its draws can fall, fills in what t's node reaches at once,
// and returns the states the move leads to. A panic in the rules, on
// the explorer's own goroutine, is its error (rulesFailed).
func (e *explorer) visit(t task) (nexts []next, err error) {
	defer func() {
		if r := recover(); r != nil {
			nexts, err = nil, rulesFailed(r)
		}
	}()
	if err := e.s.ctx.Err(); err != nil {
		return nil, err
	}
	enc := t.st.(fray.BaseState).Base()
	t.n.out = make([]float64, len(e.sides)+1)
	nexts, self, err := e.branch(t.st, enc, t.acted, t.key, t.n.out)
	t.n.self = self
	return nexts, err
}

// record links n to the states nexts, each found for the first time
// put in a node of its own and in todo. It is called with s.mu held.
func (s *solver) record(n *node, nexts []next) error {
	n.nexts = make([]edge, len(nexts))
	for i, x := range nexts {
		to, ok := s.nodes[x.key]
		if ok {
			s.hold(-1) // found before: this copy is dropped
		} else {
			if len(s.nodes) >= budgets.states {
				return &budgetError{fmt.Sprintf("The fight reaches more than %d states (MaxExactStates), too many to solve exactly.", budgets.states)}
			}
			to = &node{}
			s.nodes[x.key] = to
			s.todo = append(s.todo, task{st: x.st, acted: x.acted, key: x.key, n: to})
		}
		n.nexts[i] = edge{to: to, p: x.p}
	}
	return nil
}

// next is a state one move leads to, and its chance.
type next struct {
	st    fray.State
	acted fray.CombatantID
	key   stateKey
	p     float64
}

// ended returns the outcome of a fight that ends at st, as fighter.fight
// ends it: a side has won (or every side is down), or the round cap is
// passed.
func (s *explorer) ended(st fray.State, enc *fray.Encounter) ([]float64, bool) {
	if w := s.winner(st, enc); w != -2 {
		if w < 0 {
			return s.s.ends[len(s.sides)], true
		}
		return s.s.ends[w], true
	}
	if enc.Round > s.rounds {
		return s.s.ends[len(s.sides)], true
	}
	return nil, false
}

// branch decides the move the tactics make at st under every way its
// draws can fall, and returns the states it leads to (one each, their
// chances added up), the chance that it leaves the fight as it was
// (key), and adds to out the chance of each end it reaches at once.
func (s *explorer) branch(st fray.State, enc *fray.Encounter, acted fray.CombatantID, key stateKey, out []float64) ([]next, float64, error) {
	s.moves = s.sm.SimMoves(st, s.moves[:0])
	if len(s.moves) == 0 {
		out[len(s.sides)] = 1 // stuck: unfinished
		return nil, 0, nil
	}
	// What each combatant has left, as fighter.fight keeps it for the
	// tactics that weigh it.
	s.health = s.health[:0]
	for _, c := range enc.Combatants {
		left, _ := s.sm.SimHealth(st, c)
		s.health = append(s.health, left)
	}
	var nexts []next
	self := 0.0
	s.rep.seq = s.rep.seq[:0]
	// A choice that draws nothing is the same on every path of the
	// move's dice: once one is made, the paths after it decide that move
	// again without choosing it again (a refusal chooses afresh).
	var chosen fray.SimMove
	reuse := false
	for leaves := 1; ; leaves++ {
		if leaves > budgets.branches {
			return nil, 0, &budgetError{fmt.Sprintf("One move's dice can fall more than %d ways (MaxExactBranches), too many to solve exactly.", budgets.branches)}
		}
		if leaves%1024 == 0 {
			if err := s.s.ctx.Err(); err != nil {
				return nil, 0, err
			}
			s.s.mu.Lock()
			s.s.report()
			s.s.mu.Unlock()
		}
		if s.s.work.Add(1) > int64(budgets.work) {
			return nil, 0, &budgetError{fmt.Sprintf("The fight takes more than %d moves decided (MaxExactWork), too many to solve exactly.", budgets.work)}
		}
		s.rep.at = 0
		if !reuse {
			if leaves > 1 {
				s.moves = s.sm.SimMoves(st, s.moves[:0])
			}
			i, _ := s.choose(st, enc, acted)
			chosen, reuse = s.moves[i], s.rep.at == 0
		}
		m := chosen
		evs, err := s.roller.decide(s.sys, st, m.Cmd)
		if err != nil {
			// Refused: as fighter.decide does it, from the start of the
			// path, so that the draws are made again as they were.
			s.rep.at = 0
			s.moves = s.sm.SimMoves(st, s.moves[:0])
			if m, evs, err = s.decide(st, enc, acted); err != nil {
				return nil, 0, err
			}
		}
		if s.rep.at != len(s.rep.seq) {
			return nil, 0, fray.Errorf(fray.EINTERNAL, "%s: the move drew %d numbers where it drew %d before (a bug in fray).", m.Cmd.String(), s.rep.at, len(s.rep.seq))
		}
		p := s.rep.chance()
		// The sheets are shared: Apply never changes one in place.
		nst := fray.CloneForApplyInto(st, s.spare)
		s.spare = nil
		nenc := nst.(fray.BaseState).Base()
		for _, ev := range evs {
			if ev.Type == stepBreak {
				continue
			}
			ev.Format = fray.FormatIDs
			if err := s.sys.Apply(nst, fray.LastUse(ev)); err != nil {
				return nil, 0, fmt.Errorf("%s: apply %s: %w", m.Cmd.String(), ev.Type, err)
			}
		}
		if len(nenc.Combatants) != len(enc.Combatants) {
			return nil, 0, fmt.Errorf("%s: the combatants changed", m.Cmd.String())
		}
		nacted := acted
		switch m.Kind {
		case fray.SimAttack:
			nacted = m.Actor
		case fray.SimEnd:
			nacted = ""
		}
		if nenc.Round != enc.Round {
			nacted = ""
		}
		if end, ok := s.ended(nst, nenc); ok {
			for i, x := range end {
				out[i] += p * x
			}
			s.spare = nst
		} else if k := s.key(nst, nacted); k == key {
			self += p
			s.spare = nst
		} else if i := slices.IndexFunc(nexts, func(n next) bool { return n.key == k }); i >= 0 {
			nexts[i].p += p
			s.spare = nst
		} else {
			if s.s.hold(1) > int64(budgets.held) {
				return nil, 0, heldError()
			}
			nexts = append(nexts, next{st: nst, acted: nacted, key: k, p: p})
		}
		if !s.rep.advance() {
			break
		}
	}
	if self >= 1 {
		return nil, 0, &budgetError{"The fight can come back to a state it has left within a round, which the exact solver does not follow."}
	}
	return nexts, self, nil
}

// keyed, when set (by the tests), is given each state the solver keys,
// with who has attacked, and what it wrote for the key.
var keyed func(st fray.State, acted fray.CombatantID, written []byte)

// key returns the key of st with acted.
func (s *explorer) key(st fray.State, acted fray.CombatantID) stateKey {
	b := s.kw.write(s.buf[:0], st)
	b = append(b, acted...)
	s.buf = b
	if keyed != nil {
		s.s.mu.Lock() // one call at a time (key is never called with it held)
		keyed(st, acted, b)
		s.s.mu.Unlock()
	}
	return stateKey{maphash.Bytes(s.s.seeds[0], b), maphash.Bytes(s.s.seeds[1], b)}
}

// replay is the dice.Source of an exact solve: it plays back the draws
// of seq and, past them, draws 0 and records the draw. Each run of a
// move takes one path through its draws; advance moves seq on to the
// next path, in order, so that running the move until advance says no
// more visits every path once.
type replay struct {
	seq []draw
	at  int // draws made in this run
}

// draw is one number drawn: v of [0, n).
type draw struct{ v, n int }

// IntN returns the next draw of seq, or 0 past it.
func (r *replay) IntN(n int) int {
	if n <= 0 {
		panic("replay: IntN of a range that is empty")
	}
	if r.at < len(r.seq) {
		d := r.seq[r.at]
		r.at++
		if d.n != n {
			panic(fmt.Sprintf("replay: the draw %d is of [0, %d) where it was of [0, %d) before", r.at, n, d.n))
		}
		return d.v
	}
	r.seq = append(r.seq, draw{0, n})
	r.at++
	return 0
}

// chance returns the chance of the path of seq.
func (r *replay) chance() float64 {
	p := 1.0
	for _, d := range r.seq {
		p /= float64(d.n)
	}
	return p
}

// advance moves seq on to the next path: the last draw that can take a
// higher value takes it, and the draws after it are dropped. It returns
// false when every path has been visited.
func (r *replay) advance() bool {
	for i := len(r.seq) - 1; i >= 0; i-- {
		if r.seq[i].v+1 < r.seq[i].n {
			r.seq[i].v++
			r.seq = r.seq[:i+1]
			return true
		}
	}
	r.seq = r.seq[:0]
	return false
}
