// Package dice parses dice notation, rolls it showing every die, and computes
// exact probability distributions of what it can roll.
//
// An expression is parsed once and then rolled or analysed as often as
// needed:
//
//	e, err := dice.Parse("4d6kh3")
//	res, err := e.Roll(rand.New(rand.NewPCG(seed, 0)))   // every die, kept or dropped
//	n := e.Total(src)                                      // the value alone, no allocation
//	d, err := e.Dist(dice.DistOptions{})                   // exact odds of each total
//
// # Notation
//
// Integers and dice combine with + - * / and parentheses. Division rounds
// down (towards negative infinity); a divisor that could be zero is refused
// when the expression is parsed. * and / bind tighter than + and -; all four
// are left associative; unary minus binds tightest.
//
//	input    = expr
//	expr     = term { ("+" | "-") term }
//	term     = unary { ("*" | "/") unary }
//	unary    = "-" unary | atom
//	atom     = number | [number] pool | "(" expr ")"
//	pool     = "d" die { modifier }
//	die      = number | "%" | "F" | "{" signed { "," signed } "}"
//	modifier = "r" [point] | "ro" [point]          reroll (repeatedly | once)
//	         | "!" [point] | "!!" [point]          explode (new dice | compound)
//	         | "min" signed | "max" signed         clamp each rolled value
//	         | ("k" | "kh" | "kl" | "dh" | "dl") [number]   keep or drop
//	         | compare                             count successes
//	         | "f" point                           count failures (after a success count)
//	point    = ["@"] (compare | number)
//	compare  = ("=" | "<" | "<=" | ">" | ">=") signed
//	signed   = ["-"] number
//
// White space between tokens is ignored.
//
// Dice: NdS rolls N dice of S sides (N defaults to 1); d% is a d100; dF is a
// Fudge die worth -1, 0 or +1; d{0,1,0,1,0,2} is a custom die whose faces,
// numbered 1 to 6 as on a d6, are worth the listed values. A custom die's
// values are what the pool adds up, so 12d{0,1,0,1,0,2} counts the
// successes of a Prowlers & Paragons pool: 2s and 4s are one success, 6s two.
//
// Compare points: after r, ro, ! and f a bare number N means =N (an unsigned
// number only: 1d6!-1 is an explosion, then minus one). A compare point
// tests the die's value; written with @ it tests the physical face number
// instead. That is how a custom die can explode on a face while it counts a
// value: the "checking your swing" pool, where every even face is worth one
// success and 6s explode, is 12d{0,1,0,1,0,1}!@6 (without the @, ! would
// fire on every face worth 1, that is on 2, 4 and 6).
//
// Defaults: r alone rerolls the lowest value; ! alone explodes on the highest
// value (on a custom die, every face that carries the highest value); k
// alone is kh1.
//
// # The order modifiers apply in
//
// However they are written, a pool's modifiers apply in this order:
//
//  1. Roll each die. Reroll (r) a face that meets a reroll point, again and
//     again while it does; ro rerolls at most once. Rerolled faces are set
//     aside and do not count.
//  2. Explode: a face that meets the explosion point (after rerolling) rolls
//     one more die, which may itself be rerolled and explode. With ! each
//     extra roll is a new die in the pool; with !! it is added into the die
//     that exploded.
//  3. Clamp each rolled value to at least min and at most max. Rerolls and
//     explosions look at the face as rolled, before clamping.
//  4. Keep or drop: kh N keeps the N highest dice, kl N the N lowest, dh N
//     drops the N highest, dl N the N lowest. Keep and drop cannot be used
//     with ! (which adds dice as it goes); use !!.
//  5. Count: with a success point, each kept die meeting it scores 1, and
//     each meeting the failure point (f) scores -1; the pool is worth the
//     total score. Without one, the pool is worth the sum of its kept values.
//
// # Depth
//
// A die explodes at most depth times and r rerolls a roll at most depth
// times; the last roll then stands as it is and the die is marked Capped.
// Rolls use MaxExplodeDepth unless told otherwise. Distributions follow the
// same rule, so a distribution at depth N gives exactly the odds of rolling
// at depth N, and its Truncated field is the probability that some die
// reached the cap — the mass by which it can differ from unbounded rolling.
//
// # Limits
//
// Every input is bounded by the named limits in this package (MaxDice,
// MaxSides, MaxNesting, MaxExplodeDepth, MaxDistWork, …). An expression past
// one is refused with an *Error naming the limit and the position; no input
// makes the package panic, loop forever or allocate without bound.
package dice
