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
// Offence gives +2 to every attack and allows no defence. attack [TARGET]
// and defend NAME spend those actions without a roll.
//
// # Resolution
//
// Combatants come from sheets (stats, the "life points" track, skills and
// weapons, protection, qualities) or from add; a command that needs a
// number a combatant lacks (Dexterity, Life Points, a weapon) is refused
// naming it. Life Points not on a sheet are (Strength + Constitution) × 4
// + 10 when add gave both.
//
// check NAME STAT[+SKILL] rolls a task (C-3): D10 + attribute + skill, or
// attribute × 2 without a skill; vs=N makes it opposed. A skill the
// combatant lacks counts 0 and the breakdown calls it untrained (as in an
// attack); +STAT adds a second attribute (constitution+willpower).
//
// attack ATTACKER TARGET with=WEAPON rolls an attack and its defence in
// one command (C-4). A GM at the table hears the attack and asks the
// defender at once whether they dodge or parry, so the answer rides on the
// attack command (defence=dodge|parry|none, default the defender's better
// one): one command holds both D10s (dice=ATTACK,DEFENCE; a blind
// attacker's Notice check first), and undo takes back the whole exchange.
//
// Where the defender's player decides and rolls after seeing the attack
// (at a table, a virtual tabletop or a bot), defence=wait rolls the attack
// alone (dice=ATTACK), spending the attacker's action and ammunition, and
// the attack waits in the state (State.Waiting) until the target answers:
// dodge NAME [dmod=±N] or parry NAME [dmod=±N] rolls that defence against
// the attack's total, spending a defence (free, then extra at −2, −4 …),
// and settles the attack exactly as the one command would have with the
// same dice; take NAME keeps the defence, and the attack hits on 9+ as
// with defence=none. A target who cannot defend is not waited for: the
// attack is settled at once, its event's note saying why. The view shows
// the answer due in the target's place. Ruling (ours): while an attack
// waits, every command but the answer, condition, clear, note, reveal,
// rename, undo and the queries is refused, naming the answer due, rather than the
// attack being taken as in bpb: a GM typing next too soon should not cost
// a player their defence. odds attack … defence=wait gives the one
// command's odds against the target's better defence (dodge, or parry
// when it is higher and the weapon fires no bullets), and odds
// dodge|parry|take NAME the exact odds given the attack's total.
//
// A weapon rolls Dexterity + its skill (the sheet's skill, else Gun Fu
// for bullets and Getting Medieval otherwise; a punch or a kick rolls
// Kung Fu for Strength bash damage, ours). A dodge is Dexterity + Kung
// Fu and a parry Dexterity + the better of Kung Fu and Getting Medieval
// (ours, after the published game; the seed says "a similar roll"), and
// bullets cannot be parried. The attack spends the attacker's action and
// the defence the defender's (C-2); a defender with no defence left, on
// Full Offence, unconscious, tied up, or unaware (unaware=yes, or added
// with aware=no) without Situational Awareness gets no roll, and the
// attack then hits on 9 or more.
//
// Ruling: when the defender rolls, the higher total wins and ties go to
// the defender, and the attack need not also reach 9. The seed says only
// "the character with the higher roll wins"; a hit below 9 has 0 success
// levels and so deals the weapon's base damage (TestC4_HitBelowNineAgainstLowerDefence).
//
// Damage (C-5) is (weapon rank + success levels − armour) × 2 for bullet,
// slash and stab against humans, × 1 for bash, at least 0, off Life
// Points. Armour is the target's protection against the weapon's damage
// type (sheets key protection by damage type: {bullet: 2, slash: 2}).
// Everyone is human unless their sheet has the quality "Not Human" (ours:
// the seed names the multiplier for humans only). damage and heal change
// Life Points at the GM's word.
//
// Complications (C-6) are conditions (E-4) whose modifiers every roll's
// breakdown shows: Badly Injured (−2 to attack and defence at 10 Life
// Points or fewer, −4 at 5 or fewer) follows Life Points by itself;
// complication NAME blind|bound|tied|down|large sets Blind (−5 to all, and a
// Perception + Notice check, without the −5, before each attack; lost on a
// failure; Echolocation unaffected), Bound (−2 to punches), Tied (no
// attack or defence until free NAME rolls Dexterity + Acrobatics or Crime
// to 9) and Knocked Down (−4 to attack and defence until stand NAME, which
// takes the round, or kipup NAME, Dexterity + Acrobatics with 2 success
// levels), and Size (large: a penalty to dodge, mod=-N, −2 when the GM
// gives none, ours; the seed gives no number). Outnumbered counts who
// attacks a target this round: those who have attacked it, those the GM
// has declared engaging it (engage TARGET NAME …), and the attacker;
// with two or more, each attack on it gets +2 per attacker (up to 5,
// +10), the first included, and a sixth attacker is refused; the
// condition ends with the round. A GM's own condition named outnumbered
// is refused, since the automatic one would replace it.
//
// At 0 Life Points or fewer a Consciousness test is due, and at −10 or
// fewer a Survival test: the damage's step puts a "consciousness test" or
// "survival test" condition on the character, which the view shows until
// test NAME consciousness|survival rolls it. Consciousness is Constitution
// + Willpower −1 per point below zero, Resistance (Pain) cancelling 1 per
// level (Bernie at −5 Life Points tests at −5); failing: unconscious.
// Survival is Constitution + Willpower −1 per full 10 below zero (−56
// Life Points: −5), + Hard to Kill's level, −1 per minute since the wound
// (minutes=N); failing: dead. More damage makes each test due again;
// stabilise NAME ends the Survival tests until the next damage. Tests
// and their penalties are not actions, so conditions' modifiers do not
// apply to them (ours).
//
// Firearms (C-8): a weapon with a clip counts its shots (an "ammo WEAPON"
// track, full when the combatant joins); an aimed attack fires one shot, a
// barrage shots=N is one roll at −N that one dodge answers, its shots and
// those of the character's other barrages that round at most 6 (a small
// clip in the round; aimed shots are not counted, ours), and a
// barrage that hits lands one bullet per success level (at least one, at
// most N), each (rank − armour) × the multiplier (ours: the seed does not
// say how many land). An attack with too few shots left is refused;
// reload NAME [WEAPON] fills the clip and spends the free attack or an
// extra action; spend NAME ammo=N takes shots out without a roll.
//
// # Identity
//
// The state refers to combatants by id (fray.CombatantID): the order,
// the tiebreak, each character's attackers, the attack that waits and
// the history, which keeps each turn's actions and says them in words
// only when the view is made, with the names the combatants have then.
// Events identify them by id too (log format 3, fray.FormatIDs): Decide
// writes ids and Apply reads them, and an older log's names are rewritten
// into ids as it is read, from the payload types System.Payloads
// declares. So rename NAME NEWNAME changes every name the view shows,
// earlier rounds included, and it is taken while an attack waits. Words
// stay as they were written: a condition's note, an event's band, the
// odds and the terms of an attack that waits (fray.Modifier, whose
// names are declared as words).
//
// Every command that rolls (attack with=, dodge, parry, take, check,
// test, free, kipup) has exact odds, from package dice, through odds
// COMMAND …; its event records them with every die.
package cinematic
