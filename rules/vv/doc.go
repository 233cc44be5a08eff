// Package vv runs Villains & Vigilantes 2nd edition with the Rules Upgrade
// and the "-B." house rules (SPEC §1.3, seed 002).
//
// The to-hit roll (V-8) is HitRoll: 1d20 rolled under a chance, where a 1
// always hits and a 20 always misses and may cause an incidental effect.
// HitRoll.Roll shows the die, HitRoll.Odds gives the exact chance of each
// outcome before the die is rolled.
//
// System is the order of play (V-1 to V-7), a fray.System. Each turn every
// character rolls 1d10 + Agility and the turn counts the phases down from
// the highest total; a character acts on the phase of their total and
// again every 15 phases while above 0 (36 acts on 36, 21 and 6), each
// action after the first costing 2 Power unless declined. On one phase
// higher Agility goes first; characters still tied act simultaneously and
// are listed by Move Rate, the GM's order, then an even toss of the dice.
// Each of them acts, even one a blow struck earlier in the group would have
// knocked out: the damage of their attacks is held and lands together when
// the last of them is done. Objects (kind=environment) roll no initiative
// and have no phases. Upkeep, like every Power spent, never takes Power
// below zero. These settings switch a house rule (the default) to the
// rules as written:
//
//   - ties=house|raw (V-2): as written, a tie of Agility goes to the GM's
//     order, then a die toss, without Move Rate, and nobody acts
//     simultaneously.
//   - held=house|raw (V-3): an action saved with hold lasts up to its
//     owner's next action, one at a time, across turns; as written it lasts
//     to the turn's end. interrupt uses it before whoever is acting.
//     Carried into the next turn, it may move what its owner had left of
//     the phase it was saved in (under movement=house), then act.
//   - surprise=house|raw (V-4): the victims named with surprise have their
//     first initiative halved and lose the actions before the attackers'
//     highest; as written they have no phases on the first turn.
//   - movement=house|raw (V-6): Move Rate ÷ actions per action, with the
//     unused part of the previous action carried (at most one action's
//     worth); as written the Move Rate is spread over the turn at will.
//     Move then act or act then move, never move–act–move.
//
// Between turns the upkeep set with upkeep is paid and initiative is
// rerolled (V-5); physical dice are entered beforehand with initiative NAME
// DIE. facing and prone off one's own phase cost 2 Power, once a phase
// (V-7). The view lists every action phase of the turn with who acts on it.
//
// The event of each initiative roll (vv.turn, by start and by the next,
// hold or decline that ends a turn) records its odds (SPEC E-6), worked
// out before any die is rolled, and odds start, odds next (when that next
// ends the turn) and so on show them without rolling: one band "NAME
// first" per character who rolls, the exact chance of holding the new
// turn's highest phase, with an Agility modifier each. The chance follows
// the order code exactly: Agility, Move Rate, the GM's order, then the
// tie toss, an even draw of the order of the fully tied (1dK picks which
// of the K still unplaced goes next), so two fully tied characters win
// half their ties each. Under the house rule of surprise a victim is first only on the
// attackers' highest phase, when every earlier phase of theirs is lost
// and they win the tie there; as written a victim does not roll and has
// neither band nor modifier. Bands of chance 0 are left out; when every
// initiative may be 0 or below (or lost), a band "no one acts" holds the
// rest. Dice entered with initiative or dice= are not looked at: the
// odds are those the roll had. A held action carried into the new turn
// does not count as acting first.
//
// # Resolution
//
// A combatant's numbers come from a sheet (package sheet: stats level,
// moverate, basichits; tracks "hit points" and "power"; powers; protection
// per damage type) or from add: level=, hits= (Basic Hits), move=,
// power=, hp= (Hit Points), attack=NAME:DICE:TYPE:SCORE[:close|ranged]
// and protection=TYPE:N. An attack power has a damage type (Power.Damage:
// biochemical, energy, psychic, kinetic, entropy or gas), damage dice
// (Power.Dice, such as 1d10) and names its skill (Power.Skill); the skill
// score is the rank of the combatant's power of kind skill with that name
// (add … attack= names the skill after the damage type; a power that names
// no skill uses its damage type). Combatants without these numbers still
// take part in the order of play; a command that needs a missing number
// refuses, naming it.
//
// attack ATTACKER TARGET with=POWER … is the attacker's action on their
// phase (it costs Power as act does). The chance (V-8) is the skill score
// + the attacker's Level − the target's Level (inanimate counts as 0 and
// nonsentient as 4: words of the command or qualities on the sheet) + the
// range modifier + facing + mod= + conditions' modifiers; 1d20 at or under
// it hits, a 1 always hits and a 20 always misses and goes astray (V-16).
// Decisions where the seed is silent:
//
//   - immobile (or a target at 0 Hit Points or below) is hit on anything
//     but 20: the chance starts at 19, and range, the attacker's facing,
//     mod= and conditions still apply, as the seed says; skill, Levels and
//     the defender's facing do not.
//   - unaware: the seed gives the defender a Perception roll but not its
//     numbers. The GM rolls it (or uses check) and says noticed=yes or
//     noticed=no (the default), or gives its chance, noticed=PCT%, and the
//     attack rolls it first: d% at or under PCT notices. PCT is the final
//     chance: conditions are not added to it, as they are to a check.
//     Not noticed: a hit on anything but 20, and no rolling with the
//     punch; noticed: a normal roll. The odds cover both.
//   - Range (V-9): RangeModifier of range= + the inches the attacker moved
//     in this activation before acting + (house rule, moving=house|raw)
//     the inches the target moved so far this turn.
//   - Facing (V-10): facing= is the target's facing the attack comes from:
//     front 0, side +2, rear, above or below +4, and between two the
//     average: front-side +1, side-rear (3/4 behind) +3. The seed's "(in
//     this case, -3)" is read as the size of that average; the sign is the
//     defender's: a bonus on the chance to be hit. attacker-facing= is
//     where the target is for the attacker: front 0, front-side −1, side
//     −2; rear and side-rear are refused.
//   - Prone (V-11): a prone target more than 2" away, not attacked from
//     directly above or below (facing=above|below), needs a Special
//     Attack: two to-hit rolls, both hitting. special makes one at will, to
//     aim past cover. Cover: after a hit a d% at or under cover= hits the
//     cover; the damage less cover-protection= then meets the target's own
//     protection. A Special Attack ignores cover.
//   - Damage (V-12, V-15): the dice less pull=, less the target's
//     protection against the type (the sheet's plus protect's conditions);
//     any protection against Gas negates it. A power with Power.Special set
//     (or the word effect) does no damage: it takes hold when its roll
//     less protection is 1 or more.
//   - Rolling with the punch (V-13): divert=N on attack (or damage) moves up
//     to N of the damage to Power; N is at most a tenth of the target's
//     current Power, and the target must be aware (not unaware unnoticed,
//     immobile or incapacitated). House rule (rolling=house|raw): only
//     close kinetic attacks (muscle=yes for an arrow or a boomerang) and
//     falls (damage … falling=yes).
//   - Knockback (V-14) for kinetic attacks (knockback=yes|no says
//     otherwise): 1" per Hit Point lost less 1" per Basic Hit, counting
//     the Power damage too when the blow takes the target to 0 Hit Points
//     or below.
//
// odds attack … (System.Odds) lists every modifier and gives the exact
// chance of astray, miss, hit the cover and hit, and the distribution of
// the damage after protection (Attack.Odds, from package dice's exact
// distribution of the damage dice). damage NAME N [type=] [divert=]
// [falling=yes] and heal NAME N are the GM's; protect NAME TYPE N
// [until=…] adds protection, each a condition of its own that adds to the
// sheet's and the others (V-12: protection is cumulative). Conditions (E-4) end at their
// anchored turn edges: a character's turn is each action phase (or held
// action) they act in, and the round is the V&V turn. An action saved
// with hold keeps its turn open: it ends when the held action is used
// (the interrupt that spends it is finished) or lapses (at the holder's
// next action phase, at the turn's end as written, or dropped by a change
// of held=), not at the hold; its start stays at the phase reached and
// the interrupt. The log records those ends where they end a condition
// (HeldData.Open, EventHoldLapsed); a hold of an older log, which records
// neither, ends the turn at once, as it did. The view's power
// track shows the Power left. Physical dice are given in the order rolled:
// dice=[D% for noticed=PCT%,]D20[,D20 for a Special Attack][,D% for
// cover],DAMAGE….
//
// # Spending Power and percentile rolls
//
// spend NAME power=N [note=TEXT] takes N Power (a power's cost, or any the
// GM calls for) off the character's current Power: the power stat or the
// sheet's power track, less the Power spent and rolled with. It is refused
// for N below 1, for N above the current Power (the message names both)
// and for a combatant without Power. Power may be spent at any time: before
// the start, on anyone's phase and between phases. The seed lets talking,
// facing changes and dropping prone happen outside the action sequence
// (V-7) and charges Power for them there, so spending Power is no action
// and needs no phase of one's own. The log records it (EventSpent) and the
// turn's history notes it.
//
// check NAME chance=PCT [mod=±N] [note=TEXT] is a percentile roll: d% at
// or under the chance succeeds (CheckRoll). It is the Perception roll to
// Detect Danger of an ambush's victims (V-4: those who fail are then named
// with surprise) and of an unaware defender (V-8), and any roll the GM
// calls as a percentage. The seed gives no formula for the chance, so the
// GM gives it with chance=; mod= and the modifiers of conditions on check
// rolls (condition … on=check), read as percent, add to it. A condition's
// modifier on all rolls is left out: V&V's other rolls are on a d20 and
// the seed gives no conversion to percent. The seed gives a percentile
// roll no automatic success or failure: a chance of 0 or less always
// fails, 100 or more always succeeds. A check is no action either. odds
// check … gives the exact chance of success and failure, from package
// dice's distribution of d%; the event (EventChecked) records the die and
// the odds. Physical dice: dice=D% or roll=D%.
//
// # What players may see
//
// Every field of a payload that refers to a combatant holds its id
// (fray.CombatantID), and so does the About of spend, check and facing:
// the other combatants their note or direction names, read once where the
// command is decided. An event's About lists them all. A turn of the history that names someone besides
// its taker (a spending whose note names others) has its Who, the taker
// first; the others, which name only their taker, have none (Who is nil
// for a round without such a turn). In the view the inches a
// character may still move ("may move 30\"") are the slot's Status, not
// its Note: like tracks, they are an NPC's own numbers.
//
// # Names and ids
//
// The state refers to every combatant by id (fray.CombatantID): the
// schedule, the interrupters, the GM's order, the tie tosses, each
// character's bookkeeping and the history, which keeps who did what and
// whom a note names and is put into words when viewed. Payloads refer to
// combatants by id too (log format 3, fray.FormatIDs); the names of an
// older log's payloads are rewritten into ids as it is read
// (engine.Upgrade, from the types Payloads declares), so Apply reads ids
// only. So after rename NAME NEWNAME every slot, every turn of the
// history, earlier turns' too, and every condition shows the new name;
// the words a person typed (a spending's note, a direction) stay as they
// were typed.
package vv
