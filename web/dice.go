package web

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"fray"
	"fray/dice"
	"fray/engine"
	"fray/rules/kit"
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
	// Rules and Args ask for a system's named roll instead of expr: its
	// id and its key=value words, as `fray roll --rules ID` takes them.
	Rules string   `json:"rules"`
	Args  []string `json:"args"`
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
// they are. With rules it makes a system's named roll instead
// (rollNamed).
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
	if req.Rules != "" || req.Args != nil {
		s.rollNamed(w, r, req)
		return
	}
	if req.Expr == "" {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The dice expression is missing: send {\"expr\":\"2d6\"}."))
		return
	}
	n, err := s.rollCount(req.Count)
	if err != nil {
		s.writeError(w, r, err)
		return
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
	src, err := s.rollSource(req.Seed)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
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

// rollCount returns the number of rolls a request asks for: 1 without a
// count, else the count, from 1 to MaxRolls.
func (s *Server) rollCount(count *int) (int, error) {
	if count == nil {
		return 1, nil
	}
	if n := *count; n < 1 || n > s.cfg.Limits.MaxRolls {
		return 0, fray.Errorf(fray.EINVALID, "count must be from 1 to %d (MaxRolls), not %d.", s.cfg.Limits.MaxRolls, n)
	}
	return *count, nil
}

// rollSource returns the dice source of a request: RollSource of its
// seed, or of a random seed when it gives none.
func (s *Server) rollSource(seed *uint64) (*rand.Rand, error) {
	if seed != nil {
		return RollSource(*seed), nil
	}
	var b [8]byte
	if _, err := io.ReadFull(s.cfg.Random, b[:]); err != nil {
		return nil, fmt.Errorf("read random seed: %w", err)
	}
	return RollSource(binary.LittleEndian.Uint64(b[:])), nil
}

// prob answers GET /api/prob?expr=…&depth=… with what `fray prob --json`
// prints, and GET /api/prob?rules=ID&arg=KEY=VALUE… with the odds of a
// system's named roll (probNamed). An expensive distribution waits for a
// worker (see work.go).
func (s *Server) prob(w http.ResponseWriter, r *http.Request) {
	if err := s.allowAddress(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	if q.Has("rules") || q.Has("arg") {
		s.probNamed(w, r, q)
		return
	}
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

// A system's named roll (kit.NamedRoll) is asked for with its id and its
// key=value words, as `fray roll --rules ID` and `fray prob --rules ID`
// take them: {"rules":"bpb","args":["value=5","difficulty=12"]} to POST
// /api/roll, ?rules=bpb&arg=value=5&arg=difficulty=12 to GET /api/prob.
// The answers are what `--json` prints: each roll, or each line of odds,
// a JSON object with "rules" first (kit.TaggedJSON).

// namedRoll returns the named roll of the system id, refusing an id the
// server does not run or whose system offers none.
func (s *Server) namedRoll(id string) (kit.NamedRoll, error) {
	if newSys, ok := s.cfg.Systems[id]; ok {
		if nr, ok := newSys().(kit.NamedRoller); ok {
			return nr.NamedRoll(), nil
		}
	}
	var ids []string
	for id, newSys := range s.cfg.Systems {
		if _, ok := newSys().(kit.NamedRoller); ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	if id == "" {
		return kit.NamedRoll{}, fray.Errorf(fray.EINVALID, "The rules are missing: name the system whose roll to make, %s.", kit.Or(ids))
	}
	return kit.NamedRoll{}, fray.Errorf(fray.EINVALID, "unknown rules %q: want %s", engine.Clip(id), kit.Or(ids))
}

// rollNamed answers POST /api/roll with rules: one roll of the system's
// named roll, or an array of count rolls when count is given, each as
// `fray roll --json --rules ID` prints it. The dice the answer lists are
// bounded by MaxRequestDice, counted as they are rolled.
func (s *Server) rollNamed(w http.ResponseWriter, r *http.Request, req rollRequest) {
	if req.Expr != "" {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The request names both a dice expression and rules: send expr, or rules with args."))
		return
	}
	nr, err := s.namedRoll(req.Rules)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	n, err := s.rollCount(req.Count)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	maker, err := nr.MakeRoll(req.Rules, req.Args)
	if err != nil {
		s.writeError(w, r, diceError(err))
		return
	}
	if maker.Physical && n > 1 {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "count %d: dice rolled at the table make one roll; leave out count.", n))
		return
	}
	src, err := s.rollSource(req.Seed)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	results := make([]json.RawMessage, n)
	listed := 0
	for i := range results {
		obj, _, err := maker.Make(src)
		if err != nil {
			s.writeError(w, r, diceError(err))
			return
		}
		listed += countDice(reflect.ValueOf(obj))
		if limit := s.cfg.Limits.MaxRequestDice; limit > 0 && listed > limit {
			s.writeError(w, r, fray.Errorf(fray.ETOOLARGE, "The rolls came to %d dice after %d of %d rolls, counting every die the answer lists: more than %d (MaxRequestDice). Ask for fewer rolls or fewer dice.", listed, i+1, n, limit))
			return
		}
		if results[i], err = kit.TaggedJSON(req.Rules, obj); err != nil {
			s.writeError(w, r, fmt.Errorf("encode %s roll: %w", req.Rules, err))
			return
		}
	}
	if req.Count == nil {
		writeJSON(w, http.StatusOK, results[0])
		return
	}
	writeJSON(w, http.StatusOK, results)
}

// probNamed answers GET /api/prob?rules=ID&arg=KEY=VALUE…: the odds of a
// system's named roll, an array of what `fray prob --json --rules ID`
// prints, one object a line (queue without a weapon has three). Odds the
// roll declares costly are worked out by a worker (see work.go).
func (s *Server) probNamed(w http.ResponseWriter, r *http.Request, q url.Values) {
	if q.Has("expr") || q.Has("depth") {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The request names both a dice expression and rules: ask for expr (with depth), or rules with arg."))
		return
	}
	id, args := q.Get("rules"), q["arg"]
	size := 0
	for _, a := range args {
		size += len(a)
	}
	if int64(size) > s.cfg.Limits.MaxBody {
		s.writeError(w, r, fray.Errorf(fray.ETOOLARGE, "The arguments are longer than %d bytes (MaxBody).", s.cfg.Limits.MaxBody))
		return
	}
	nr, err := s.namedRoll(id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var objs []any
	var oddsErr error
	odds := func() { objs, _, oddsErr = nr.Odds(id, args) }
	if nr.CostlyOdds {
		if err := s.work().do(r.Context(), s.clientAddr(r), odds); err != nil {
			s.writeError(w, r, err)
			return
		}
	} else {
		odds()
	}
	if oddsErr != nil {
		s.writeError(w, r, diceError(oddsErr))
		return
	}
	out := make([]json.RawMessage, len(objs))
	for i, o := range objs {
		if out[i], err = kit.TaggedJSON(id, o); err != nil {
			s.writeError(w, r, fmt.Errorf("encode %s odds: %w", id, err))
			return
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// dieType is the type of one die as rolled.
var dieType = reflect.TypeFor[dice.Die]()

// countDice returns how many dice (dice.Die values) v holds, through
// pointers, interfaces, structs, slices, arrays and maps: the dice a
// named roll's answer lists, whatever the system's result type.
func countDice(v reflect.Value) int {
	n := 0
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			n = countDice(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == dieType {
			return 1
		}
		for i := range v.NumField() {
			n += countDice(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem() == dieType {
			return v.Len()
		}
		for i := range v.Len() {
			n += countDice(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			n += countDice(it.Value())
		}
	}
	return n
}
