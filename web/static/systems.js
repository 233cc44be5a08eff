// What each rule system lets a table do, for the buttons and forms of the
// GM screen and the player view. The command words themselves, their help
// and their completion come from the server (GET /api/systems, see
// systemDocs in fray.js); the server checks every command, so a button
// here only saves typing.

import { quote } from "./fray.js";

// has reports whether slot s carries marker m.
const has = (s, m) => (s.markers || []).includes(m);

// A button: label (the visible words), aria (the accessible name),
// cmd (the command line it posts), and what it is for in tests.
const b = (action, label, cmd, aria) => ({ action, label, cmd, aria: aria || label });

/**
 * Each system:
 *   stats    the stats `add` takes: the add form's fields
 *   setup    buttons before the start (GM only)
 *   turn(v)  buttons for the one whose turn it is: [b(...)], given the view
 *   row(s, v, ctx) buttons on a slot of the order of play (ctx.gm, ctx.me)
 *   declare  whether `order NAME …` declares the order itself (bpb),
 *            rather than breaking ties
 *   place    whether `add` takes before=/after= once started
 *   forms    extra forms shown to the GM: "reorder", "move", "attack", "full"
 */
export const SYSTEMS = {
  bpb: {
    stats: ["brawn", "agility", "accuracy", "prowess", "perception", "willpower", "endurance", "superspeed"],
    declare: true,
    place: true,
    forms: ["reorder"],
    turn: (v) => [
      b("next", "Next", "next " + quote(v.current), "Next: end " + v.current + "'s turn"),
      b("delay", "Delay", "delay " + quote(v.current), "Delay " + v.current + "'s turn"),
    ],
    row: (s, v, ctx) => {
      const out = [];
      if (has(s, "environment") || has(s, "unaware")) return out;
      if (has(s, "delayed") && !has(s, "current") && !has(s, "acted") && v.current !== s.name) {
        out.push(b("interrupt", "Interrupt", "interrupt " + quote(s.name), s.name + " interrupts: take the delayed turn now"));
      }
      if (!has(s, "lost") && !has(s, "forced")) {
        out.push(b("force", "Force", "force " + quote(s.name), "Force an action for " + s.name));
      }
      return out;
    },
  },
  cinematic: {
    stats: ["strength", "dexterity", "constitution", "intelligence", "perception", "willpower", "bonus"],
    forms: ["attack", "full"],
    turn: (v) => [
      b("attack", "Attack", "attack", v.current + " attacks"),
      b("next", "Next", "next", "Next: end " + v.current + "'s turn"),
    ],
    row: (s, v) => {
      if (s.name === v.current || !v.current) return [];
      return [b("defend", "Defend", "defend " + quote(s.name) + " against=" + quote(v.current), s.name + " defends against " + v.current)];
    },
  },
  vv: {
    stats: ["agility", "move", "power", "strength", "endurance", "intelligence", "charisma", "level", "hits"],
    forms: ["move"],
    turn: (v) => [
      b("act", "Act", "act " + quote(v.current), v.current + " acts"),
      b("hold", "Hold", "hold", v.current + " holds the action"),
      b("decline", "Decline", "decline", v.current + " declines the action"),
      b("next", "Next", "next", "Next: " + v.current + " is done"),
    ],
    row: (s, v) => {
      const out = [];
      if (has(s, "held") && !has(s, "acted") && s.name !== v.current) {
        out.push(b("interrupt", "Interrupt", "interrupt " + quote(s.name), s.name + " interrupts with the held action"));
      }
      return out;
    },
  },
  pp: {
    stats: ["agility", "intellect", "might", "perception", "toughness", "willpower", "edge"],
    turn: (v) => [
      b("act", "Act", "act " + quote(v.current), v.current + " takes an action"),
      b("next", "Next", "next", "Next: end " + v.current + "'s turn"),
    ],
    row: () => [],
  },
  queue: {
    stats: ["wits", "bonus", "hp"],
    place: true,
    turn: (v) => [
      b("major", "Major action", "act " + quote(v.current) + " major", v.current + " takes a Major action"),
      b("minor", "Minor action", "act " + quote(v.current) + " minor", v.current + " takes a Minor action"),
      b("next", "Next", "next " + quote(v.current), "Next: " + v.current + " goes to the bottom of the queue"),
    ],
    row: (s, v) => {
      if (s.name === v.current || !v.current) return [];
      return [b("react", "React", "react " + quote(s.name) + " to=" + quote(v.current), s.name + " reacts to " + v.current)];
    },
  },
};

// The system of a view, or a plain one when the id is unknown.
export function system(id) {
  return SYSTEMS[id] || { stats: [], turn: () => [b("next", "Next", "next")], row: () => [] };
}
