package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"fray/dice"
	"fray/rules/kit"
	"fray/web"
)

const probHelp = `fray prob EXPR [--depth N] [--json] [--all]
fray prob --rules ID key=value… [--json]

Prints the exact probability of every total an expression can roll: a table
of P(=), P(≥) and P(≤) for each value, the mean and standard deviation, and
a bar chart. Opposed rolls are a subtraction: the chance that A beats B is
P(≥ 1) of "A - B".

Examples:
  fray prob 2d6                                   the bell curve of 2d6
  fray prob 4d6kh3                                ability scores
  fray prob '12d{0,1,0,1,0,2} - 10d{0,1,0,1,0,2}' net successes, 12 dice against 10
  fray prob '10d{0,1,0,1,0,2}!' --depth 3         exploding 6s, at most 3 extra rolls a die

Explosions and rerolls: by default fray goes deep enough that the mass cut
off by the depth limit is under 1e-12 (or as deep as the work limit allows),
and always prints that mass. --depth N fixes at most N extra rolls per die,
the same rule as "fray roll --depth N".
`

func cmdProb(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("prob", stderr, probHelp)
	asJSON := fs.Bool("json", false, "print one JSON object: expr, mean, sd, dist as [value, probability] pairs, truncated")
	depth := fs.Int("depth", 0, "the most times one die may explode or reroll (default: automatic)")
	exact := fs.Bool("exact", false, "also give each probability as an exact fraction (small and medium expressions)")
	all := fs.Bool("all", false, "show every value, even those with P(=) below 0.0001% at the tails")
	rules := fs.String("rules", "", "odds of a system's named roll: "+rulesIDs()+" (see below)")
	pos, code := parseArgs(fs, args)
	if code >= 0 {
		if code == 0 {
			fmt.Fprint(stderr, "\n"+rulesHelp())
		}
		return code
	}
	if *rules != "" {
		return runRulesProb(*rules, pos, *asJSON, stdout, stderr)
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "fray prob: expected one dice expression, got %d (quote it if it has spaces or shell symbols)\n", len(pos))
		return 2
	}
	if *depth < 0 || *depth > dice.MaxExplodeDepth {
		fmt.Fprintf(stderr, "fray prob: --depth must be from 1 to %d (or 0 for automatic), not %d\n", dice.MaxExplodeDepth, *depth)
		return 2
	}
	e, err := dice.Parse(pos[0])
	if err != nil {
		return exprError(stderr, "prob", err)
	}
	d, err := e.Dist(dice.DistOptions{Depth: *depth})
	if err != nil {
		return exprError(stderr, "prob", err)
	}
	var x *dice.Exact
	if *exact {
		if x, err = e.ExactDist(d.Depth); err != nil {
			return exprError(stderr, "prob", err)
		}
	}
	if *asJSON {
		out := web.NewProbResult(e, d)
		if x != nil {
			for i, p := range x.P {
				if p.Sign() > 0 {
					out.Exact = append(out.Exact, [2]any{x.Min + i, p.RatString()})
				}
			}
			out.TruncatedExact = x.Truncated.RatString()
		}
		return writeJSON(stdout, stderr, out)
	}
	fmt.Fprint(stdout, formatDist(e, d, x, *all))
	return 0
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	if err := json.NewEncoder(stdout).Encode(v); err != nil {
		fmt.Fprintf(stderr, "fray: write output: %v\n", err)
		return 1
	}
	return 0
}

// tailCut is the P(=) below which values at either end of a distribution
// are left out of the text table unless --all is given.
const tailCut = kit.TailCut

// formatDist writes a distribution for people: a summary, then a row per
// value with its probabilities and a bar.
func formatDist(e *dice.Expr, d *dice.Dist, x *dice.Exact, all bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", e.String())
	fmt.Fprintf(&b, "mean %.4f   sd %.4f   values %d to %d\n", noNegZero(d.Mean()), d.StdDev(), d.Min, d.Max())
	if d.Depth > 0 {
		fmt.Fprintf(&b, "depth %d: at most %d extra rolls a die; probability cut off by that limit %.3g\n", d.Depth, d.Depth, d.Truncated)
	}
	lo, hi := 0, len(d.P)-1
	if !all {
		for lo < hi && d.P[lo] < tailCut {
			lo++
		}
		for hi > lo && d.P[hi] < tailCut {
			hi--
		}
	}
	peak := 0.0
	for _, p := range d.P[lo : hi+1] {
		peak = max(peak, p)
	}
	w := max(len(fmt.Sprint(d.Min)), len(fmt.Sprint(d.Max())), len("value"))
	fmt.Fprintf(&b, "\n%*s  %9s  %9s  %9s", w, "value", "P(=)", "P(≥)", "P(≤)")
	if x != nil {
		b.WriteString("  exact P(=)")
	}
	b.WriteString("\n")
	below := 0.0
	for i := range lo {
		below += d.P[i]
	}
	for i := lo; i <= hi; i++ {
		p := d.P[i]
		above := 1 - below
		below += p
		fmt.Fprintf(&b, "%*d  %9s  %9s  %9s  ", w, d.Min+i, kit.Pct(p), kit.Pct(max(above, 0)), kit.Pct(min(below, 1)))
		if x != nil {
			fmt.Fprintf(&b, "%-*s  ", exactWidth(x), exactAt(x, d.Min+i))
		}
		fmt.Fprintf(&b, "%s\n", kit.Bar(p, peak, 40))
	}
	if n := len(d.P) - (hi - lo + 1); n > 0 {
		fmt.Fprintf(&b, "(%d values at the tails with P(=) under %s are not shown; --all shows them)\n", n, kit.Pct(tailCut))
	}
	return b.String()
}

// noNegZero turns a rounding error's -0.0000 into 0.
func noNegZero(x float64) float64 {
	if math.Abs(x) < 5e-13 {
		return 0
	}
	return x
}

// exactAt returns the exact probability of v as a fraction.
func exactAt(x *dice.Exact, v int) string {
	if i := v - x.Min; i >= 0 && i < len(x.P) {
		return x.P[i].RatString()
	}
	return "0"
}

// exactWidth is the width of the widest fraction, for lining up the bars.
func exactWidth(x *dice.Exact) int {
	w := len("exact P(=)")
	for _, p := range x.P {
		w = max(w, len(p.RatString()))
	}
	return w
}
