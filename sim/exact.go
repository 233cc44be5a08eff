package sim

import (
	"context"
	"fmt"
	"hash/maphash"
	"slices"

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
)

// budgets are the budgets an exact solve keeps to: the constants, lowered
// only by tests.
var budgets = struct{ states, branches, work int }{MaxExactStates, MaxExactBranches, MaxExactWork}

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
	// States is how many distinct states the solve reached.
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
// cfg (cfg.Fights, Seed, Workers and Progress are not used), exactly: it
// plays the same moves by the same tactics and the same rules, but where
// a fight draws a number (a die's face, a random tactic's target) it
// follows every value the draw could take, each with its chance, and it
// solves each state the fight can reach once, by dynamic programming
// over those states. A fight too big for the budgets (MaxExactStates,
// MaxExactBranches, MaxExactWork) gives Exact false and the sentence
// that names the budget, not an error; an error is a configuration Run
// refuses too, a refusal or failure of the rules, or ctx's end.
func Exact(ctx context.Context, cfg Config) (res ExactResult, err error) {
	p, _, err := newPlan(cfg)
	if err != nil {
		return ExactResult{}, err
	}
	s := &solver{fighter: p.newFighter(), ctx: ctx, memo: map[stateKey][]float64{},
		seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, kw: newKeyWriter()}
	s.roller.src = &s.rep
	s.ends = make([][]float64, len(p.sides)+1)
	for i := range s.ends {
		s.ends[i] = make([]float64, len(p.sides)+1)
		s.ends[i][i] = 1
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = ExactResult{}, fray.Errorf(fray.EINTERNAL, "The rules failed while solving the fight exactly (a bug in fray): %v", r)
		}
	}()
	start := p.start.Clone()
	out, err := s.solve(start, "", s.key(start, ""))
	res.States = len(s.memo)
	if lim, ok := err.(*budgetError); ok {
		res.Why = lim.why
		for _, side := range p.sides {
			res.Sides = append(res.Sides, ExactSide{Side: side})
		}
		return res, nil
	}
	if err != nil {
		return ExactResult{}, err
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

// solver is one exact solve. A fighter, reused, chooses and decides the
// moves as Run's fights do; its roller draws from rep.
type solver struct {
	*fighter
	ctx   context.Context
	rep   replay
	memo  map[stateKey][]float64 // nil while the state is being solved
	seeds [2]maphash.Seed
	kw    *keyWriter
	buf   []byte // the state written out for its key
	// ends holds the outcome of a fight that has ended: ends[i] is won
	// by side i, ends[len(sides)] unfinished.
	ends [][]float64
	work int
}

// next is a state one move leads to, and its chance.
type next struct {
	st    fray.State
	acted fray.CombatantID
	key   stateKey
	p     float64
}

// solve returns the outcome of the fight from st, with acted as the one
// who has attacked in the turn in progress: the chance that each side
// wins (by plan.sides), then the chance that none does. key is the key
// of st with acted, as the caller has it already. It follows the loop of
// fighter.fight move for move.
func (s *solver) solve(st fray.State, acted fray.CombatantID, key stateKey) ([]float64, error) {
	enc := st.(fray.BaseState).Base()
	if end, ok := s.ended(st, enc); ok {
		return end, nil
	}
	if out, ok := s.memo[key]; ok {
		if out == nil {
			return nil, &budgetError{"The fight can come back to a state it has left within a round, which the exact solver does not follow."}
		}
		return out, nil
	}
	if len(s.memo) >= budgets.states {
		return nil, &budgetError{fmt.Sprintf("The fight reaches more than %d states (MaxExactStates), too many to solve exactly.", budgets.states)}
	}
	if len(s.memo)%256 == 0 {
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
	}
	s.memo[key] = nil
	out := make([]float64, len(s.sides)+1)
	nexts, self, err := s.branch(st, enc, acted, key, out)
	if err != nil {
		return nil, err
	}
	for _, n := range nexts {
		o, err := s.solve(n.st, n.acted, n.key)
		if err != nil {
			return nil, err
		}
		for i, x := range o {
			out[i] += n.p * x
		}
	}
	if self > 0 {
		// A move that may leave the fight as it was: the fight stays
		// with chance self, then moves on as the other draws say.
		for i := range out {
			out[i] /= 1 - self
		}
	}
	s.memo[key] = out
	return out, nil
}

// ended returns the outcome of a fight that ends at st, as fighter.fight
// ends it: a side has won (or every side is down), or the round cap is
// passed.
func (s *solver) ended(st fray.State, enc *fray.Encounter) ([]float64, bool) {
	if w := s.winner(st, enc); w != -2 {
		if w < 0 {
			return s.ends[len(s.sides)], true
		}
		return s.ends[w], true
	}
	if enc.Round > s.rounds {
		return s.ends[len(s.sides)], true
	}
	return nil, false
}

// branch decides the move the tactics make at st under every way its
// draws can fall, and returns the states it leads to (one each, their
// chances added up), the chance that it leaves the fight as it was
// (key), and adds to out the chance of each end it reaches at once.
func (s *solver) branch(st fray.State, enc *fray.Encounter, acted fray.CombatantID, key stateKey, out []float64) ([]next, float64, error) {
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
		if s.work++; s.work > budgets.work {
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
		evs, err := s.sys.Decide(st, m.Cmd, &s.roller)
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
		nst := st.Clone()
		nenc := nst.(fray.BaseState).Base()
		for _, ev := range evs {
			if ev.Type == stepBreak {
				continue
			}
			ev.Format = fray.FormatIDs
			if err := s.sys.Apply(nst, ev); err != nil {
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
		} else if k := s.key(nst, nacted); k == key {
			self += p
		} else if i := slices.IndexFunc(nexts, func(n next) bool { return n.key == k }); i >= 0 {
			nexts[i].p += p
		} else {
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
func (s *solver) key(st fray.State, acted fray.CombatantID) stateKey {
	b := s.kw.write(s.buf[:0], st)
	b = append(b, acted...)
	s.buf = b
	if keyed != nil {
		keyed(st, acted, b)
	}
	return stateKey{maphash.Bytes(s.seeds[0], b), maphash.Bytes(s.seeds[1], b)}
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
