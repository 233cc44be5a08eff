package dice

// ExactDistWork is ExactDist with a chosen work limit, for tests.
func ExactDistWork(e *Expr, depth int, work float64) (*Exact, error) {
	return e.exactDist(depth, work)
}
