// Package pp runs Prowlers & Paragons Ultimate Edition (SPEC §1.4,
// seed 003).
//
// A challenge roll (P-1 … P-5, P-9) is Challenge: a Pool of d6 for the
// actor, where each 2 and 4 is one success and each 6 two, against a
// static threshold or an opponent's Pool. Net successes give the
// narrative-control band and its traditional result (Band).
// Challenge.Roll shows every die; Challenge.Odds gives the exact chance of
// each band and of each net count, computed with package dice.
//
// System is the order of play in combat (P-10), a fray.System: one turn
// per page (round), in order of Edge, Perception plus the higher of
// Agility and Intellect (or an edge stat given with add), highest first.
// Ties go to heroes, then villains, foes and extras (add … role=, default
// hero for side=pc and villain otherwise), then the GM's order; minions
// (add … minion=yes) act after everyone else. A character may take several
// actions on their turn with act; each after the first is −2d to all of
// that turn's rolls (State.Penalty).
package pp
