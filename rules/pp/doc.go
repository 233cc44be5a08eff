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
//
// The resolution commands roll as the table does (SPEC P-1 … P-10):
// check (static or opposed, same=yes for a same-goal roll), spend,
// assist (the best helper's bonus waits for the next roll), group,
// contest and exchange, defining (with scene and story limiting it), and
// attack (the trait against the best of Agility, Might and Toughness;
// Health or minions lost per net success). Every roll takes dice= (the
// faces, all of a command's pools in order), or successes= and
// vs_successes= (counted at the table), records every die in its event
// with the odds it had, and answers odds COMMAND … exactly (System.Odds).
// Health and Resolve are stats or a character sheet's tracks; conditions
// add their modifiers in dice.
//
// damage NAME N and heal NAME N are the GM's word, no action, at any
// time: Health lost (no more than is left) or regained (never above the
// character's Health); for minions, N of them defeated or brought back
// (never more than the count). Damage goes through the attack's own path
// (State.harm), so 0 Health is defeated (P-10) for Defeated and the view
// alike, and healing a defeated character brings them back into the
// fight. Healing someone an attack just hurt ends the chance to spend
// Resolve on that attack, whose harm would otherwise be settled again
// against Health it no longer took.
//
// Resolve is spent after the roll (spend, spend.go): a die a point (3 in a
// defining moment), a reroll keeping the better, or exploding 6s when
// checking your swing. It is spent on the last roll of any kind, by anyone
// who rolled in it, and the roll is settled again: a check's or attack's
// net successes, band and harm (a same-goal roll of three or more ranks
// everyone again: EventSides lists their rolls); an exchange's winner, its +2d carry into
// the next exchange and, after the last, the contest's outcome; an
// assist's bonus and whether it is the best helper's; a group action's
// sharing. Spending Resolve one does not have is refused.
//
// Automatic successes round up. The seed gives "1 automatic success for
// every 2 dice you choose to not roll" without saying what an odd die is
// worth, but of the assist's "+1d bonus … for every 2 net successes" it
// says "rounding up as always", and SPEC §1.4 says "All halves round up
// in this system": so 5 dice set aside are 3 automatic successes, and the
// seed's 12 dice 6 (Pool.Auto). The GM may veto setting dice aside.
//
// Rulings where the seed is silent (ours): in a same-goal roll a tie for
// the most successes goes to the one named first; a tied exchange carries
// +2d to nobody, and a tied last exchange is rolled again; the surplus of
// a group action goes to the allies below 1 net success, lowest first;
// checking your swing, a defining moment's 6s
// are worth 1 success, as every even face is, and explode for free
// (12d{0,1,0,1,0,1}!@6), so spending Resolve to explode them is refused. After a
// one-shot defining moment the hero is at 0 Health and unconscious until
// the scene ends; then, having "regained their wits", they make challenge
// rolls at −2d for the rest of the story, but at 0 Health they stay out
// of any fight (P-10) until healed or the story ends: story ends every
// part of the cost, the −2d and the Health the moment took (harm taken
// before it stays until healed; heal gives back the moment's Health
// first). heal may give them Health back at
// once, but they stay unconscious until the scene ends: the seed sets two
// costs, "Health to 0" (paid once, and Health is the GM's to give back)
// and "unconscious to the scene's end" (a duration the seed ties to the
// scene, not to Health), so healing undoes the first and not the second;
// refusing the heal instead would have the GM wait for the scene's end to
// enter a healer's work done during it.
package pp
