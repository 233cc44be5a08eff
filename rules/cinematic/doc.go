// Package cinematic runs a Cinematic Unisystem variant (SPEC §1.2,
// seed 001).
//
// Rolls (C-3) are TestRoll: D10 + attribute + skill + modifiers, 9 or more
// succeeds, and the total gives the success levels. A TestRoll with a
// defence is an attack against a defender who rolls too (C-4): the higher
// total wins and ties go to the defender. TestRoll.Roll shows the dice,
// TestRoll.Odds gives the exact chance of each outcome.
package cinematic
