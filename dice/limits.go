package dice

// Named limits on untrusted input. Each is checked when an expression is
// parsed, rolled or turned into a distribution, and an input past one is
// refused with an *Error whose Limit field names it.
const (
	// MaxSource is the longest expression text accepted, in bytes.
	MaxSource = 1024
	// MaxDice is the most dice one pool may roll before explosions (NdS: N).
	MaxDice = 10_000
	// MaxTotalDice is the most dice a whole expression may name.
	MaxTotalDice = 100_000
	// MaxSides is the most faces a die may have (dS: S, or a custom die's list).
	MaxSides = 100_000
	// MaxNesting is the deepest nesting of parentheses and operators.
	MaxNesting = 64
	// MaxExplodeDepth is the most extra rolls one die may make by exploding
	// or rerolling; it is also the default for rolls.
	MaxExplodeDepth = 100
	// MaxNumber is the largest absolute value of a literal number.
	MaxNumber = 1_000_000_000
	// MaxMagnitude bounds the absolute value any part of an expression can
	// reach, so that no arithmetic overflows.
	MaxMagnitude = 1 << 52
	// MaxDistSize is the most distinct values a distribution may hold.
	MaxDistSize = 1 << 20
	// MaxDistWork bounds the arithmetic (multiply-adds) spent on one exact
	// distribution, about a second of work.
	MaxDistWork = 1 << 31
)

// Limit names, as they appear in Error.Limit.
const (
	LimitSource       = "MaxSource"
	LimitDice         = "MaxDice"
	LimitTotalDice    = "MaxTotalDice"
	LimitSides        = "MaxSides"
	LimitNesting      = "MaxNesting"
	LimitExplodeDepth = "MaxExplodeDepth"
	LimitNumber       = "MaxNumber"
	LimitMagnitude    = "MaxMagnitude"
	LimitDistSize     = "MaxDistSize"
	LimitDistWork     = "MaxDistWork"
)
