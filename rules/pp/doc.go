// Package pp runs Prowlers & Paragons Ultimate Edition (SPEC §1.4,
// seed 003).
//
// A challenge roll (P-1 … P-5, P-9) is Challenge: a Pool of d6 for the
// actor, where each 2 and 4 is one success and each 6 two, against a
// static threshold or an opponent's Pool. Net successes give the
// narrative-control band and its traditional result (Band).
// Challenge.Roll shows every die; Challenge.Odds gives the exact chance of
// each band and of each net count, computed with package dice.
package pp
