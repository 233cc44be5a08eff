// Package vv runs Villains & Vigilantes 2nd edition with the Rules Upgrade
// and the "-B." house rules (SPEC §1.3, seed 002).
//
// The to-hit roll (V-8) is HitRoll: 1d20 rolled under a chance, where a 1
// always hits and a 20 always misses and may cause an incidental effect.
// HitRoll.Roll shows the die, HitRoll.Odds gives the exact chance of each
// outcome before the die is rolled.
package vv
