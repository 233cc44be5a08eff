package web

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"

	"fray"
	"fray/sim"
)

// POST /api/encounters/{id}/sim plays the encounter from its live state
// to the end many times, as `fray sim` does, and answers what `fray sim
// --json` prints (sim.Result). Only the GM may ask: the simulator reads
// every combatant, hidden or not.
//
// The live encounter is never changed: its state is cloned under the
// encounter's lock and the lock given back before any fight is played.
// The fights are expensive work: they run on one of the pool's workers
// (Workers, WorkQueue, WorkWait, MaxClientWork, as a costly distribution
// does), at most MaxSimFights of them, within MaxSimTime. A request with
// "exact": true has the fight solved exactly as well, as fray sim --exact
// does, in the same time, and is answered a sim.Report: each side's
// "exact_win" and "exact_unfinished", or "exact_why" when the fight is
// too big (or the solve too long) to be exact.

// DefaultSimFights is how many fights a simulation plays when the
// request names none (or MaxSimFights when that is lower).
const DefaultSimFights = 1000

// simSeedBits is how many bits a seed the server chooses has: few
// enough that a page's JavaScript numbers hold it exactly.
const simSeedBits = 53

// simRequest is the body of POST /api/encounters/{id}/sim; every field
// may be left out. Field names are wire strings: never rename one.
type simRequest struct {
	// Fights is how many fights to play (DefaultSimFights when absent).
	Fights *int `json:"fights"`
	// Seed seeds the dice; when absent it comes from the encounter and
	// its revision, so the same state gives the same answer.
	Seed *uint64 `json:"seed"`
	// Tactics is each side's tactic, as fray sim --tactics takes it:
	// "pc=focus-weakest,npc=random".
	Tactics string `json:"tactics"`
	// Rounds caps each fight's rounds (sim.DefaultRounds when absent).
	Rounds *int `json:"rounds"`
	// Exact asks as well for each side's exact chance to win (sim.Exact),
	// within the same MaxSimTime; the answer is then a sim.Report.
	Exact bool `json:"exact"`
}

// simulate answers POST /api/encounters/{id}/sim.
func (s *Server) simulate(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.gmOnly(r, id, "simulate the fight"); err != nil {
		s.writeError(w, r, err)
		return
	}
	var req simRequest
	if err := decodeBody(w, r, s.cfg.Limits.MaxBody, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	cfg, err := s.simConfig(req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, ex, err := s.runSim(r, id, req, cfg)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if ex != nil {
		writeJSON(w, http.StatusOK, sim.WithExact(res, *ex))
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// simConfig checks a request against the server's budgets and returns
// the run it asks for, without the encounter.
func (s *Server) simConfig(req simRequest) (sim.Config, error) {
	l := s.cfg.Limits
	cfg := sim.Config{Fights: DefaultSimFights, Workers: 1}
	if l.MaxSimFights > 0 {
		cfg.Fights = min(cfg.Fights, l.MaxSimFights)
	}
	if req.Fights != nil {
		cfg.Fights = *req.Fights
	}
	if l.MaxSimFights > 0 && cfg.Fights > l.MaxSimFights {
		return sim.Config{}, fray.Errorf(fray.ETOOLARGE, "The simulation asks for %d fights; one request may play at most %d here (MaxSimFights).", cfg.Fights, l.MaxSimFights)
	}
	if req.Rounds != nil {
		if *req.Rounds < 1 {
			return sim.Config{}, fray.Errorf(fray.EINVALID, "The round cap is %d; give at least 1, or leave rounds out for %d.", *req.Rounds, sim.DefaultRounds)
		}
		cfg.Rounds = *req.Rounds
	}
	tac, err := sim.ParseTactics(req.Tactics)
	if err != nil {
		return sim.Config{}, err
	}
	cfg.Tactics = tac
	return cfg, nil
}

// runSim clones the encounter's live state and plays cfg from it on one
// of the pool's workers, and solves it exactly as well when the request
// asks (a solve cut short by MaxSimTime is not exact, and says so).
func (s *Server) runSim(r *http.Request, id string, req simRequest, cfg sim.Config) (sim.Result, *sim.ExactResult, error) {
	e, err := s.lockEntry(r.Context(), id, true)
	if err != nil {
		return sim.Result{}, nil, err
	}
	cfg.System, cfg.State = e.eng.System(), e.eng.State().Clone()
	seed, rev := e.rec.Seed, e.rev
	e.unlock()
	cfg.Seed = simSeed(seed, rev)
	if req.Seed != nil {
		cfg.Seed = *req.Seed
	}
	var (
		res  sim.Result
		ex   *sim.ExactResult
		serr error
	)
	if err := s.work().do(r.Context(), s.clientAddr(r), func() {
		ctx := r.Context()
		if d := s.cfg.Limits.MaxSimTime; d > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		res, serr = sim.Run(ctx, cfg)
		if serr != nil || !req.Exact {
			return
		}
		x, err := sim.Exact(ctx, cfg)
		if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
			x, err = sim.ExactResult{Why: fmt.Sprintf("Solving the fight exactly took longer than %s, the most one simulation may take here (MaxSimTime).", s.cfg.Limits.MaxSimTime)}, nil
		}
		ex, serr = &x, err
	}); err != nil {
		return sim.Result{}, nil, err
	}
	switch {
	case errors.Is(serr, context.DeadlineExceeded):
		return sim.Result{}, nil, fray.Errorf(fray.ETOOLARGE, "%d fights took longer than %s, the most one simulation may take here (MaxSimTime); ask for fewer fights or rounds.", cfg.Fights, s.cfg.Limits.MaxSimTime)
	case errors.Is(serr, context.Canceled):
		return sim.Result{}, nil, &fray.Error{Code: EBUSY, Message: "The request ended before the simulation finished.", Err: serr}
	}
	if serr != nil {
		return sim.Result{}, nil, serr
	}
	return res, ex, nil
}

// simSeed is the seed of a simulation that names none: a hash of the
// encounter's seed and revision, which gives away neither, cut to
// simSeedBits.
func simSeed(seed uint64, rev int) uint64 {
	var b [len("sim") + 16]byte
	copy(b[:], "sim")
	binary.LittleEndian.PutUint64(b[3:], seed)
	binary.LittleEndian.PutUint64(b[11:], uint64(rev))
	h := sha256.Sum256(b[:])
	return binary.LittleEndian.Uint64(h[:8]) & (1<<simSeedBits - 1)
}
