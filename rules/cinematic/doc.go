// Package cinematic runs a Cinematic Unisystem variant (SPEC §1.2,
// seed 001).
//
// Rolls (C-3) are TestRoll: D10 + attribute + skill + modifiers, 9 or more
// succeeds, and the total gives the success levels. A TestRoll with a
// defence is an attack against a defender who rolls too (C-4): the higher
// total wins and ties go to the defender. TestRoll.Roll shows the dice,
// TestRoll.Odds gives the exact chance of each outcome.
//
// System is the order of play (C-1, C-2, C-7), a fray.System. Initiative
// is not rolled: ⌊Dexterity × 0.5 + Perception + bonus⌋ (bonus is a stat
// for initiative bonuses), high to low, ties to the higher Dexterity and
// then the GM's order. Each round a character has one free attack and one
// free defence, and Dexterity gives extra actions (ExtraActions), each an
// attack or a defence at a cumulative −2: attack on one's own turn, defend
// at any time in the round. Full Defence or Full Offence, declared with
// full at the top of the round, lasts that round: Full Defence adds a
// defence at no penalty and +3 to every defence but allows no attack; Full
// Offence gives +2 to every attack and allows no defence.
package cinematic
