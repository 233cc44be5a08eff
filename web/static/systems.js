// What a rule system lets a table do, for the buttons and forms of the GM
// screen and the player view. Every bit of it is what the system declares
// in GET /api/systems (see systemDocs in fray.js): its hints (the buttons,
// where each shows and the command it sends; the forms; whether the order
// is declared), the stats add takes and whether add takes a place. The
// page keeps no table of its own, and the server checks every command, so
// a button only saves typing.

import { quote } from "./fray.js";

// fill fills a template of a hint: {current} is the name of the one whose
// turn it is, {name} the slot's or the card's; in a command (q) each is
// quoted as a command word when it has to be (as fray.Button.Fill does).
function fill(t, current, name, q) {
  return String(t || "").replace(/\{(current|name)\}/g, (_, k) => {
    const w = k === "current" ? current : name;
    return q ? quote(w) : w;
  });
}

// made returns a button for fray.js's button(): action, label, aria (the
// accessible name) and cmd (the command line it posts).
function made(b, current, name) {
  return { action: b.action, label: b.label, aria: fill(b.aria, current, name, false), cmd: fill(b.command, current, name, true) };
}

// holds reports whether the conditions of button b hold on a slot or a
// card that carries marks, of the combatant id (name), in view v (as
// fray.Button's do): every marker of when, none of unless; others: while
// someone's turn it is, someone else's slot; not_actor: not the slot of
// the one whose turn it is.
function holds(b, v, marks, id, name) {
  marks = marks || [];
  if (!(b.when || []).every((m) => marks.includes(m))) return false;
  if ((b.unless || []).some((m) => marks.includes(m))) return false;
  let actor = !!v.current && name === v.current;
  if (id && v.current_id) actor = id === v.current_id;
  if (b.others && (!v.current || actor)) return false;
  return !(b.not_actor && actor);
}

// PLAIN is the page of a system whose declarations have not come (or
// that declares no hints): no buttons, no forms and no stats of its own.
const PLAIN = Object.freeze({
  stats: [], place: false, declare: false, forms: [],
  turn: () => [], row: () => [], card: () => [],
});

const built = new WeakMap();

/**
 * system returns what the page shows for a system, from doc, its entry
 * in systemDocs() (or PLAIN while there is none):
 *   stats     the stats add takes as whole numbers: the add form's fields
 *   place     whether add takes before=/after=
 *   declare   whether `order NAME …` declares the order itself, rather
 *             than breaking ties
 *   forms     extra forms shown to the GM: "reorder", "move", "attack", "full"
 *   turn(v)   buttons for the one whose turn it is, given the view
 *   row(s, v) buttons on slot s of the order of play
 *   card(c, v) buttons on combatant c's card (the GM's)
 * Each button is {action, label, aria, cmd}.
 */
export function system(doc) {
  if (!doc) return PLAIN;
  let sys = built.get(doc);
  if (sys) return sys;
  const h = doc.hints || {};
  const on = (where) => (h.buttons || []).filter((b) => b.on === where);
  const turn = on("turn");
  const slot = on("slot");
  const card = on("card");
  sys = Object.freeze({
    stats: doc.stats || [],
    place: !!doc.place,
    declare: !!h.declare,
    forms: h.forms || [],
    turn: (v) => (v.started && v.current ? turn.map((b) => made(b, v.current, v.current)) : []),
    row: (s, v) => (v.started ? slot.filter((b) => holds(b, v, s.markers, s.id, s.name)).map((b) => made(b, v.current || "", s.name)) : []),
    card: (c, v) => card.filter((b) => holds(b, v, c.unaware ? ["unaware"] : [], c.id, c.name)).map((b) => made(b, v.current || "", c.name)),
  });
  built.set(doc, sys);
  return sys;
}
