package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"fray/dice"
	"fray/web"
)

const rollHelp = `fray roll EXPR [--seed N] [--json] [-n COUNT] [--explain]
fray roll --rules ID key=value… [--seed N] [--json] [-n COUNT]

Rolls dice and shows every die: which were kept, dropped, rerolled or
exploded, each pool's subtotal and the total.

Examples:
  fray roll 4d6kh3              four d6, keep the highest three
  fray roll '2d20kl1+5'         disadvantage: the lower of two d20, plus 5
  fray roll '10d10>=8f1'        count 8+ as successes, 1s as failures
  fray roll '12d{0,1,0,1,0,2}'  a Prowlers & Paragons pool: 2s, 4s = 1, 6s = 2
  fray roll 3d6! --seed 7 -n 3  exploding d6s, three rolls, reproducible
  fray roll --explain '4d6r1kh3'  how fray reads an expression
  fray roll 4d6kh3 --dice 6,5,3,1  the dice rolled at the table

In the dice shown:
  5      a die that counts        (1)   dropped by keep/drop
  ~1~    rerolled, set aside      6!    exploded: the next die came from it
  6→2    face 6 of a custom die, worth 2
  9✓ 1✗  a success / a failure    6^    stopped by the explosion depth
  6+6+2  the rolls of one compounded (!!) die

Notation (see "fray roll --explain EXPR" for any expression):
  NdS d% dF d{a,b,…}   dice; N defaults to 1
  + - * / ( )          arithmetic; / rounds down
  r ro                 reroll (again and again / once): r1, r<=2
  ! !!                 explode (new die / compounded): !, !>=5, !@6
  min max              clamp each value: min2, max5
  kh kl dh dl k        keep or drop: kh3, dl1 (k = kh)
  >=N >N <=N <N =N     count successes; then fN for failures: >=8f1
  @                    compare the physical face, not its value: !@6
`

func cmdRoll(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("roll", stderr, rollHelp)
	seed := fs.Uint64("seed", 0, "seed for the dice, to reproduce a roll (default: from the clock)")
	asJSON := fs.Bool("json", false, "print one JSON object per roll")
	count := fs.Int("n", 1, "how many times to roll")
	explain := fs.Bool("explain", false, "show how the expression is read and in which order its modifiers apply")
	depth := fs.Int("depth", dice.MaxExplodeDepth, "the most times one die may explode or reroll")
	rules := fs.String("rules", "", "roll a system's named roll: "+rulesIDs()+" (see below)")
	physical := fs.String("dice", "", "the faces rolled at the table, in order (\"6,5,3,1\"), instead of random dice")
	pos, code := parseArgs(fs, args)
	if code >= 0 {
		if code == 0 {
			fmt.Fprint(stderr, "\n"+rulesHelp())
		}
		return code
	}
	if *count < 1 || *count > 100_000 {
		fmt.Fprintf(stderr, "fray roll: -n must be from 1 to 100000, not %d\n", *count)
		return 2
	}
	if *depth < 0 || *depth > dice.MaxExplodeDepth {
		fmt.Fprintf(stderr, "fray roll: --depth must be from 0 to %d, not %d\n", dice.MaxExplodeDepth, *depth)
		return 2
	}
	var src dice.Source = newSource(fs, *seed)
	if *physical != "" {
		faces, err := parseFaces(*physical)
		if err != nil {
			fmt.Fprintf(stderr, "fray roll: --dice: %v\n", err)
			return 2
		}
		src = dice.Faces(faces...)
	}
	if *rules != "" {
		return runRulesRoll(*rules, pos, src, *count, *asJSON, stdout, stderr)
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "fray roll: expected one dice expression, got %d (quote it if it has spaces or shell symbols)\n", len(pos))
		return 2
	}
	e, err := dice.Parse(pos[0])
	if err != nil {
		return exprError(stderr, "roll", err)
	}
	if *explain {
		fmt.Fprint(stdout, e.Explain())
		return 0
	}
	// Random rolls are written as they are made, so that many big rolls
	// never sit in memory. The physical dice's rolls are held until every
	// roll is done, so that a mistake in them prints nothing but the
	// error; they are few (at most dice.MaxTotalDice faces in all).
	out := bufio.NewWriterSize(stdout, 64<<10)
	var held bytes.Buffer
	w := io.Writer(out)
	if *physical != "" {
		w = &held
	}
	if err := rollEach(w, e, src, *count, *depth, *asJSON); err != nil {
		var oe *outputError
		if errors.As(err, &oe) {
			fmt.Fprintf(stderr, "fray roll: %v\n", err)
			return 1
		}
		out.Flush()
		fmt.Fprintf(stderr, "fray roll: %v\n", err)
		return 2
	}
	if fs, ok := src.(*dice.FaceSource); ok && fs.Unused() > 0 {
		fmt.Fprintf(stderr, "fray roll: --dice: %s given but not needed; the roll needs %d\n", plural(fs.Unused(), "face was", "faces were"), len(strings.Split(*physical, ","))-fs.Unused())
		return 2
	}
	_, err = held.WriteTo(out)
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "fray roll: write output: %v\n", err)
		return 1
	}
	return 0
}

// rollEach rolls e count times from src, each die at most depth extra
// times, and writes each roll to w as soon as it is made: for people, or
// with asJSON one JSON object a line. A failure to write is an
// *outputError; any other error is the roll's.
func rollEach(w io.Writer, e *dice.Expr, src dice.Source, count, depth int, asJSON bool) error {
	enc := json.NewEncoder(w)
	for range count {
		res, err := e.RollDepth(src, depth)
		if err != nil {
			return err
		}
		if asJSON {
			err = enc.Encode(res)
		} else {
			_, err = io.WriteString(w, formatResult(e, res))
		}
		if err != nil {
			return &outputError{err}
		}
	}
	return nil
}

// outputError is a failure to write the output, as opposed to a roll's.
type outputError struct{ err error }

func (e *outputError) Error() string { return "write output: " + e.err.Error() }
func (e *outputError) Unwrap() error { return e.err }

// plural returns "1 one" or "N many".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// parseFaces reads a comma-separated list of faces such as "6,5,3,1".
func parseFaces(s string) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) > dice.MaxTotalDice {
		return nil, fmt.Errorf("more than %d faces", dice.MaxTotalDice)
	}
	faces := make([]int, len(parts))
	for i, p := range parts {
		f, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || f < 1 {
			return nil, fmt.Errorf("face %d is %q; faces are whole numbers from 1", i+1, strings.TrimSpace(p))
		}
		faces[i] = f
	}
	return faces, nil
}

// newSource returns the dice source: a PCG generator seeded with --seed
// when it was given, else from the clock.
func newSource(fs *flag.FlagSet, seed uint64) *rand.Rand {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "seed" })
	if !set {
		seed = uint64(time.Now().UnixNano())
	}
	return web.RollSource(seed)
}

// exprError prints a dice expression error with a caret under the problem.
func exprError(stderr io.Writer, cmd string, err error) int {
	var de *dice.Error
	if errors.As(err, &de) {
		fmt.Fprintf(stderr, "fray %s: %v\n  %s\n", cmd, err, strings.ReplaceAll(de.Caret(), "\n", "\n  "))
		if de.Limit != "" {
			fmt.Fprintf(stderr, "(limit %s)\n", de.Limit)
		}
		return 2
	}
	fmt.Fprintf(stderr, "fray %s: %v\n", cmd, err)
	return 2
}

// formatResult writes a roll for people: the total, then each pool's
// dice, then, when the expression is more than one pool, its work with
// each pool's subtotal in place ("9+3 = 12").
func formatResult(e *dice.Expr, res *dice.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s = %d\n", res.Expr, res.Total)
	for i, p := range res.Pools {
		fmt.Fprintf(&b, "  %s:", p.Expr)
		for _, d := range res.Dice {
			if d.Pool == i {
				b.WriteByte(' ')
				b.WriteString(formatDie(e, i, d))
			}
		}
		unit := ""
		if e.CountsSuccesses(i) {
			unit = " successes"
			if p.Total == 1 || p.Total == -1 {
				unit = " success"
			}
		}
		fmt.Fprintf(&b, " = %d%s\n", p.Total, unit)
	}
	if w := workLine(res); w != "" {
		fmt.Fprintf(&b, "  %s\n", w)
	}
	return b.String()
}

// workLine writes the whole expression with each pool replaced by its
// subtotal, and the total: "9+3 = 12" for 2d6+3. It is "" when that says
// nothing the lines before do not (a lone pool, or no dice).
func workLine(res *dice.Result) string {
	if len(res.Pools) == 0 {
		return ""
	}
	var b strings.Builder
	rest := res.Expr
	for _, p := range res.Pools {
		// The pools are in source order, which is the canonical text's.
		i := strings.Index(rest, p.Expr)
		if i < 0 {
			return ""
		}
		b.WriteString(rest[:i])
		if p.Total < 0 {
			fmt.Fprintf(&b, "(%d)", p.Total)
		} else {
			b.WriteString(strconv.Itoa(p.Total))
		}
		rest = rest[i+len(p.Expr):]
	}
	b.WriteString(rest)
	if w := b.String(); w != strconv.Itoa(res.Total) {
		return w + " = " + strconv.Itoa(res.Total)
	}
	return ""
}

// formatDie writes one die in the notation described in rollHelp.
func formatDie(e *dice.Expr, pool int, d dice.Die) string {
	var s string
	switch {
	case len(d.Rolls) > 1:
		parts := make([]string, len(d.Rolls))
		for i, f := range d.Rolls {
			parts[i] = faceText(e, pool, f)
		}
		s = strings.Join(parts, "+") + "=" + strconv.Itoa(d.Value)
	default:
		s = faceText(e, pool, d.Face)
		if v := e.FaceValue(pool, d.Face); v != d.Value {
			s += "→" + strconv.Itoa(d.Value) // clamped
		}
	}
	switch {
	case d.Rerolled:
		return "~" + s + "~"
	case d.Dropped:
		return "(" + s + ")"
	}
	if d.Exploded && len(d.Rolls) <= 1 {
		s += "!"
	}
	if d.Capped {
		s += "^"
	}
	if d.Success {
		s += "✓"
	}
	if d.Failure {
		s += "✗"
	}
	return s
}

// faceText shows a face, with its value when the die is custom or Fudge.
func faceText(e *dice.Expr, pool, f int) string {
	v := e.FaceValue(pool, f)
	switch e.DieKind(pool) {
	case dice.Custom:
		return strconv.Itoa(f) + "→" + strconv.Itoa(v)
	case dice.Fudge:
		return [...]string{"-", "0", "+"}[f-1]
	}
	return strconv.Itoa(f)
}
