// The log in words: one line per event, as the server tells it in the
// system's own terms (the event's text), each expandable to its full
// breakdown (detail). The GM's page and the player's show the same lines;
// a player's come from the events the server shows players, so they name
// no one players may not know of.

import { api, el } from "./fray.js";

// toldItem returns the words of one event: a <details> whose summary is
// the line and whose body is the breakdown, or the line alone.
export function toldItem(ev) {
  const text = ev.text || ev.type || "";
  if (!ev.detail) return el("div", { class: "log-text", "data-testid": "log-text" }, text);
  const body = el("div", { class: "log-detail" });
  for (const line of ev.detail.split("\n")) body.append(el("div", {}, line));
  return el("details", { class: "log-told" }, el("summary", { class: "log-text", "data-testid": "log-text" }, text), body);
}

// loadTold fetches the last events of an encounter's log with their
// words, as the token's holder may see them.
export async function loadTold(id, token) {
  const r = await api("GET", "/api/encounters/" + encodeURIComponent(id) + "/told", { token });
  return (r && r.events) || [];
}

// TellLog keeps the events a page has seen, by number, and shows them in
// a list, newest first.
export class TellLog {
  constructor(list, max = 300) {
    this.list = list;
    this.max = max;
    this.events = new Map();
  }

  add(evs) {
    for (const ev of evs || []) if (ev && typeof ev.seq === "number") this.events.set(ev.seq, ev);
    this.render();
  }

  render() {
    const seqs = [...this.events.keys()].sort((a, b) => b - a).slice(0, this.max);
    this.list.replaceChildren();
    for (const s of seqs) {
      const ev = this.events.get(s);
      this.list.append(el("li", { value: String(s), "data-seq": String(s), "data-type": ev.type }, toldItem(ev)));
    }
    if (!seqs.length) this.list.append(el("li", { class: "empty" }, "Nothing yet."));
  }
}
