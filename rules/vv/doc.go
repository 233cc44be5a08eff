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
// are listed by Move Rate, the GM's order, then a die roll. Three settings
// switch a house rule (the default) to the rules as written:
//
//   - held=house|raw (V-3): an action saved with hold lasts up to its
//     owner's next action, one at a time, across turns; as written it lasts
//     to the turn's end. interrupt uses it before whoever is acting.
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
package vv
