package sim

// Report is a run's result with an exact solve's beside it: what fray sim
// --exact --json prints, and what the server answers a simulation that
// asks for the exact solve. Its JSON names are wire strings: never
// rename one.
type Report struct {
	Result
	// Sides shadows Result.Sides: each side as there, with its exact
	// chance to win.
	Sides []ReportSide `json:"sides"`
	// Exact reports whether the fight was solved exactly.
	Exact bool `json:"exact"`
	// ExactUnfinished is the exact chance that no side wins, when the
	// fight was solved exactly.
	ExactUnfinished *float64 `json:"exact_unfinished,omitempty"`
	// ExactWhy is the sentence that says why the fight was not solved
	// exactly.
	ExactWhy string `json:"exact_why,omitempty"`
}

// ReportSide is one side of a Report: as Side, with its exact chance to
// win when the fight was solved exactly (0 included).
type ReportSide struct {
	Side
	ExactWin *float64 `json:"exact_win,omitempty"`
}

// WithExact puts the exact solve ex beside the run's result r.
func WithExact(r Result, ex ExactResult) Report {
	out := Report{Result: r, Exact: ex.Exact, ExactWhy: ex.Why}
	for i, s := range r.Sides {
		side := ReportSide{Side: s}
		if ex.Exact && i < len(ex.Sides) && ex.Sides[i].Side == s.Side {
			w := ex.Sides[i].Win
			side.ExactWin = &w
		}
		out.Sides = append(out.Sides, side)
	}
	if ex.Exact {
		u := ex.Unfinished
		out.ExactUnfinished = &u
	}
	return out
}
