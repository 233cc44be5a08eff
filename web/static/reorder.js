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
// (dragged up) or after it (dragged down). run posts the command.
export function attachReorder(list, move, run) {
  if (!move) return;
  const slots = [...list.querySelectorAll("li.slot")];
  const nameAt = (i) => (slots[i] ? slots[i].dataset.name : "");
  slots.forEach((li, i) => {
    const name = li.dataset.name;
    li.tabIndex = 0;
    li.draggable = true;
    li.dataset.action = "move-slot";
    li.setAttribute("aria-keyshortcuts", "Alt+ArrowUp Alt+ArrowDown");
    li.setAttribute("aria-roledescription", "movable slot");
    li.title = "Alt+↑ / Alt+↓ or drag to move " + name;
    li.addEventListener("keydown", (e) => {
      if (!e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown") || e.target !== li) return;
      e.preventDefault();
      const up = e.key === "ArrowUp";
      let j = i + (up ? -1 : 1);
      while (slots[j] && nameAt(j) === name) j += up ? -1 : 1;
      const cmd = slots[j] ? move(name, nameAt(j), up ? "before" : "after") : null;
      if (cmd) run(cmd);
    });
    li.addEventListener("dragstart", (e) => {
      e.dataTransfer.setData("text/x-fray-slot", String(i));
      e.dataTransfer.effectAllowed = "move";
      li.classList.add("dragging");
    });
    li.addEventListener("dragend", () => li.classList.remove("dragging"));
    li.addEventListener("dragover", (e) => {
      if (e.dataTransfer.types.includes("text/x-fray-slot")) {
        e.preventDefault();
        li.classList.add("drop");
      }
    });
    li.addEventListener("dragleave", () => li.classList.remove("drop"));
    li.addEventListener("drop", (e) => {
      li.classList.remove("drop");
      const from = Number(e.dataTransfer.getData("text/x-fray-slot"));
      if (!Number.isInteger(from) || !slots[from] || from === i) return;
      e.preventDefault();
      const cmd = move(nameAt(from), name, from > i ? "before" : "after");
      if (cmd) run(cmd);
    });
  });
}
