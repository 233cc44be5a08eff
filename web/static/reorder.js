// Reordering the order of play on the GM screen, by keyboard and by drag,
// where the system's declarations allow it: before the start, `order
// NAME …` when it declares the order (the hint declare); once started,
// `reorder NAME before=… | after=…` when the system declares reorder
// (from the next round on). Either way the page only builds the command:
// the server decides.

import { quote } from "./fray.js";

// reorderer returns, for the system declared by doc (sys its page, see
// systems.js) in view v, a function that builds the command moving the
// slot name just before or just after the slot target (where is
// "before" or "after"), or null when the system allows no reordering
// now.
export function reorderer(doc, sys, v) {
  const names = [...new Set((v.order || []).map((s) => s.name))];
  if (names.length < 2) return null;
  if (!v.started) {
    if (!sys.declare || !hasDecl(doc, "order")) return null;
    return (name, target, where) => {
      const rest = names.filter((n) => n !== name);
      const i = rest.indexOf(target);
      if (i < 0 || name === target) return null;
      rest.splice(where === "before" ? i : i + 1, 0, name);
      return "order " + rest.map(quote).join(" ");
    };
  }
  const d = hasDecl(doc, "reorder");
  if (!d || !(d.opts || []).some((o) => o.name === "after") || !(d.opts || []).some((o) => o.name === "before")) return null;
  return (name, target, where) => (name === target ? null : "reorder " + quote(name) + " " + where + "=" + quote(target));
}

// hasDecl returns the declaration of the command name of doc, or null.
function hasDecl(doc, name) {
  return ((doc && doc.commands) || []).find((c) => c.name === name && c.send !== "query") || null;
}

// attachReorder makes the slots of list (rendered by renderOrder) movable
// with move (from reorderer): Alt+ArrowUp and Alt+ArrowDown on a focused
// slot move it one place, and a slot dragged onto another goes before it
// (dragged up) or after it (dragged down). run posts the command. It is
// called after each render: the list listens once, for all its slots
// (kept from render to render or drawn anew), and a null move makes them
// still again.
export function attachReorder(list, move, run) {
  list._reorder = move ? { move, run } : null;
  for (const li of list.querySelectorAll("li.slot")) {
    if (!move) {
      if (li.dataset.action !== "move-slot") continue;
      li.removeAttribute("tabindex");
      li.removeAttribute("draggable");
      li.removeAttribute("data-action");
      li.removeAttribute("aria-keyshortcuts");
      li.removeAttribute("aria-roledescription");
      li.removeAttribute("title");
      continue;
    }
    if (li.dataset.action === "move-slot") continue;
    li.tabIndex = 0;
    li.draggable = true;
    li.dataset.action = "move-slot";
    li.setAttribute("aria-keyshortcuts", "Alt+ArrowUp Alt+ArrowDown");
    li.setAttribute("aria-roledescription", "movable slot");
    li.title = "Alt+↑ / Alt+↓ or drag to move " + li.dataset.name;
  }
  if (list._reorderHeard) return;
  list._reorderHeard = true;
  const slots = () => [...list.querySelectorAll("li.slot")];
  const slotOf = (e) => {
    const li = e.target.closest && e.target.closest("li.slot");
    return li && list._reorder && li.parentElement === list ? li : null;
  };
  list.addEventListener("keydown", (e) => {
    const li = slotOf(e);
    if (!li || !e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown") || e.target !== li) return;
    e.preventDefault();
    const all = slots();
    const name = li.dataset.name;
    const up = e.key === "ArrowUp";
    let j = all.indexOf(li) + (up ? -1 : 1);
    while (all[j] && all[j].dataset.name === name) j += up ? -1 : 1;
    const { move, run } = list._reorder;
    const cmd = all[j] ? move(name, all[j].dataset.name, up ? "before" : "after") : null;
    if (cmd) run(cmd);
  });
  list.addEventListener("dragstart", (e) => {
    const li = slotOf(e);
    if (!li) return;
    e.dataTransfer.setData("text/x-fray-slot", String(slots().indexOf(li)));
    e.dataTransfer.effectAllowed = "move";
    li.classList.add("dragging");
  });
  list.addEventListener("dragend", (e) => {
    const li = slotOf(e);
    if (li) li.classList.remove("dragging");
  });
  list.addEventListener("dragover", (e) => {
    const li = slotOf(e);
    if (li && e.dataTransfer.types.includes("text/x-fray-slot")) {
      e.preventDefault();
      li.classList.add("drop");
    }
  });
  list.addEventListener("dragleave", (e) => {
    const li = slotOf(e);
    if (li) li.classList.remove("drop");
  });
  list.addEventListener("drop", (e) => {
    const li = slotOf(e);
    if (!li) return;
    li.classList.remove("drop");
    const all = slots();
    const i = all.indexOf(li);
    const from = Number(e.dataTransfer.getData("text/x-fray-slot"));
    if (!Number.isInteger(from) || !all[from] || from === i) return;
    e.preventDefault();
    const cmd = list._reorder.move(all[from].dataset.name, li.dataset.name, from > i ? "before" : "after");
    if (cmd) list._reorder.run(cmd);
  });
}
