package web

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"

	"fray"
	"fray/dice"
	"fray/engine"
)

// ProbResult is the JSON form of a distribution, shared by `fray prob
// --json` and GET /api/prob. Its field names are wire strings.
type ProbResult struct {
	Expr      string       `json:"expr"`
	Mean      float64      `json:"mean"`
	SD        float64      `json:"sd"`
	Min       int          `json:"min"`
	Max       int          `json:"max"`
	Depth     int          `json:"depth"`
	Truncated float64      `json:"truncated"`
	Dist      [][2]float64 `json:"dist"`
	// With --exact: [value, "numerator/denominator"] pairs.
	Exact          [][2]any `json:"exact,omitempty"`
	TruncatedExact string   `json:"truncated_exact,omitempty"`
}

// NewProbResult returns the JSON form of e's distribution d: every value
// with a probability above zero.
func NewProbResult(e *dice.Expr, d *dice.Dist) ProbResult {
	out := ProbResult{Expr: e.String(), Mean: d.Mean(), SD: d.StdDev(), Min: d.Min, Max: d.Max(), Depth: d.Depth, Truncated: d.Truncated}
	out.Dist = make([][2]float64, 0, len(d.P))
	for i, p := range d.P {
		if p > 0 {
			out.Dist = append(out.Dist, [2]float64{float64(d.Min + i), p})
		}
	}
	return out
}

// RollSource returns the dice source of a seed, the same one `fray roll
// --seed N` uses, so that a seed rolls the same dice everywhere.
func RollSource(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

type rollRequest struct {
	Expr  string  `json:"expr"`
	Seed  *uint64 `json:"seed"`
	Count *int    `json:"count"`
}

// diceError turns a dice package error into a user's error.
func diceError(err error) error {
	var de *dice.Error
	if errors.As(err, &de) {
		code := fray.EINVALID
		if de.Limit != "" {
			code = fray.ETOOLARGE
		}
		return &fray.Error{Code: code, Message: de.Error(), Err: err}
	}
	return &fray.Error{Code: fray.EINVALID, Message: err.Error(), Err: err}
}

// requestDice refuses a request for n rolls of e with ETOOLARGE when they
// name more than limit dice in all (MaxRequestDice; off at zero or less),
// before any is rolled.
func requestDice(e *dice.Expr, n, limit int) error {
	per := exprDice(e)
	if limit <= 0 || per*n <= limit {
		return nil
	}
	if n == 1 {
		return fray.Errorf(fray.ETOOLARGE, "The expression rolls %d dice, more than %d (MaxRequestDice).", per, limit)
	}
	return fray.Errorf(fray.ETOOLARGE, "The request rolls %d dice (%d rolls of %d), more than %d (MaxRequestDice); ask for fewer rolls or fewer dice.", per*n, n, per, limit)
}

// exprDice returns how many dice one roll of e names: the sum of its
// pools' counts (NdS: N), before explosions and rerolls add any.
//
// The dice package does not give a pool's count, so it is read from
// e.Explain(), whose line for each pool begins with the pool's canonical
// notation, count first ("  4d6kh3 (column 1):"). Should that text ever
// not give a count for every pool, the answer is dice.MaxTotalDice, the
// most any expression names: a request is refused rather than let
// through.
func exprDice(e *dice.Expr) int {
	total, pools := 0, 0
	for _, line := range strings.Split(e.Explain(), "\n") {
		head, ok := strings.CutPrefix(line, "  ")
		if !ok || strings.HasPrefix(head, " ") || strings.HasPrefix(head, "grouped: ") || !strings.HasSuffix(head, "):") || !strings.Contains(head, " (column ") {
			continue
		}
		count, _, ok := strings.Cut(head, "d")
		n, err := strconv.Atoi(count)
		if !ok || err != nil || n < 0 {
			return dice.MaxTotalDice
		}
		total += n
		pools++
	}
	if pools != e.NumPools() {
		return dice.MaxTotalDice
	}
	return total
}

// roll answers POST /api/roll with what `fray roll --json` prints: one
// result, or an array of count results when count is given. The dice of
// all the rolls are bounded by MaxRequestDice: those the expression names
// times the count before any is rolled, and those rolled (with the dice
// that exploded or rerolled, every one of which the answer lists) as
// they are.
func (s *Server) roll(w http.ResponseWriter, r *http.Request) {
	if err := s.allowAddress(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	var req rollRequest
	if err := decodeBody(w, r, s.cfg.Limits.MaxBody, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Expr == "" {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The dice expression is missing: send {\"expr\":\"2d6\"}."))
		return
	}
	n := 1
	if req.Count != nil {
		n = *req.Count
		if n < 1 || n > s.cfg.Limits.MaxRolls {
			s.writeError(w, r, fray.Errorf(fray.EINVALID, "count must be from 1 to %d (MaxRolls), not %d.", s.cfg.Limits.MaxRolls, n))
			return
		}
	}
	e, err := dice.Parse(req.Expr)
	if err != nil {
		s.writeError(w, r, diceError(err))
		return
	}
	if err := requestDice(e, n, s.cfg.Limits.MaxRequestDice); err != nil {
		s.writeError(w, r, err)
		return
	}
	var seed uint64
	if req.Seed != nil {
		seed = *req.Seed
	} else {
		var b [8]byte
		if _, err := io.ReadFull(s.cfg.Random, b[:]); err != nil {
			s.writeError(w, r, fmt.Errorf("read random seed: %w", err))
			return
		}
		seed = binary.LittleEndian.Uint64(b[:])
	}
	src := RollSource(seed)
	results := make([]*dice.Result, n)
	rolled := 0
	for i := range results {
		if results[i], err = e.Roll(src); err != nil {
			s.writeError(w, r, diceError(err))
			return
		}
		// Explosions and rerolls add dice to the answer: the budget
		// bounds those too, so that no answer lists more dice than it.
		rolled += len(results[i].Dice)
		if limit := s.cfg.Limits.MaxRequestDice; limit > 0 && rolled > limit {
			s.writeError(w, r, fray.Errorf(fray.ETOOLARGE, "The rolls came to %d dice after %d of %d rolls, counting the dice that exploded or rerolled: more than %d (MaxRequestDice). Ask for fewer rolls or fewer dice.", rolled, i+1, n, limit))
			return
		}
	}
	if req.Count == nil {
		writeJSON(w, http.StatusOK, results[0])
		return
	}
	writeJSON(w, http.StatusOK, results)
}

// prob answers GET /api/prob?expr=…&depth=… with what `fray prob --json`
// prints. An expensive distribution waits for a worker (see work.go).
func (s *Server) prob(w http.ResponseWriter, r *http.Request) {
	if err := s.allowAddress(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	expr := q.Get("expr")
	if expr == "" {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The dice expression is missing: /api/prob?expr=2d6."))
		return
	}
	if int64(len(expr)) > s.cfg.Limits.MaxBody {
		s.writeError(w, r, fray.Errorf(fray.ETOOLARGE, "The expression is longer than %d bytes (MaxBody).", s.cfg.Limits.MaxBody))
		return
	}
	depth := 0
	if d := q.Get("depth"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 || n > dice.MaxExplodeDepth {
			s.writeError(w, r, fray.Errorf(fray.EINVALID, "depth must be from 1 to %d (or 0 for automatic), not %q.", dice.MaxExplodeDepth, engine.Clip(d)))
			return
		}
		depth = n
	}
	e, err := dice.Parse(expr)
	if err != nil {
		s.writeError(w, r, diceError(err))
		return
	}
	d, err := s.distribution(r, e, depth)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, NewProbResult(e, d))
}
