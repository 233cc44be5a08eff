// Shared by the GM screen and the player view: the API client, the live
// event stream, and the rendering of an order of play. Everything a server
// sends is put on the page as text (textContent), never as HTML.

// quote returns a word of a command line, quoted when it has to be, as
// fray.Command.String does: "Ganyeka's henchmen" → "\"Ganyeka's henchmen\"".
export function quote(w) {
  w = String(w ?? "");
  let plain = w !== "";
  for (let i = 0; i < w.length && plain; i++) {
    const c = w.charCodeAt(i);
    const ch = w[i];
    if (c <= 32 || ch === '"' || ch === "\\" || c === 0x7f || ch === "=" || (i === 0 && ch === "#")) plain = false;
  }
  if (plain) return w;
  return '"' + w.replace(/[\\"]/g, (m) => "\\" + m).replace(/\n/g, "\\n").replace(/\t/g, "\\t").replace(/\r/g, "\\r") + '"';
}

// ApiError is a refusal from the server: code (EINVALID, ECONFLICT, …),
// message for people, status, for a 409 of a stale revision the current
// revision, and for a refused sheet file its problems ({file, path, line,
// message}, each).
export class ApiError extends Error {
  constructor(status, code, message, revision, problems) {
    super(message);
    this.status = status;
    this.code = code;
    this.revision = revision;
    this.problems = problems || [];
  }
}

// api calls the HTTP API and returns the decoded JSON, or throws ApiError.
// body is sent as JSON; text (a sheet file, say) as it is, with the
// Content-Type type (text/plain by default).
export async function api(method, path, { token, body, text, type } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  else if (text !== undefined) headers["Content-Type"] = type || "text/plain; charset=utf-8";
  let res;
  try {
    res = await fetch(path, { method, headers, body: body !== undefined ? JSON.stringify(body) : text });
  } catch (e) {
    throw new ApiError(0, "ENETWORK", "The server cannot be reached. Check the connection and try again.");
  }
  const answer = await res.text();
  let data = null;
  try {
    data = answer ? JSON.parse(answer) : null;
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || "E" + res.status, err.message || res.statusText || "The request failed.", data && data.revision, err.problems);
  }
  return data;
}

// The rule systems the server runs (GET /api/systems), asked for once per
// page: a Map of id → {id, name, commands: [{name, usage, summary, args,
// opts, send, rolls, answers, examples, words, options}], words, settings,
// dice, roll, follow, usage}, where follow maps a command word to
// the words and options that may come after it and usage maps it to its
// first usage line. A failed request is asked again on the next call.
let systemsAsked = null;
export function systemDocs() {
  if (!systemsAsked) {
    systemsAsked = api("GET", "/api/systems").then((r) => {
      const m = new Map();
      for (const s of (r && r.systems) || []) {
        const follow = new Map();
        const usage = new Map();
        for (const c of s.commands || []) {
          for (const w of c.words || []) {
            if (!usage.has(w)) usage.set(w, c.usage);
            const f = follow.get(w) || [];
            for (const o of c.options || []) if (!f.includes(o)) f.push(o);
            follow.set(w, f);
          }
        }
        m.set(s.id, { ...s, words: s.words || [], commands: s.commands || [], follow, usage });
      }
      return m;
    });
    systemsAsked.catch(() => { systemsAsked = null; });
  }
  return systemsAsked;
}

// el builds an element: el("li", {class: "x", "data-name": n}, "text", child…).
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) {
    if (k === undefined || k === null || k === false) continue;
    e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}

// slotText returns a slot as a table says it: "Blueshift (delayed)".
export function slotText(s) {
  const parts = [...(s.markers || [])];
  if (s.note) parts.push(s.note);
  if (s.status) parts.push(s.status);
  return parts.length ? s.name + " (" + parts.join(", ") + ")" : s.name;
}

// roundText returns a round of the history in the seeds' words:
// "Round 3: Ganyeka, Monolith, Blueshift (delayed), Ganyeka's henchmen".
export function roundText(h) {
  return "Round " + h.round + ":" + (h.turns || []).map((t) => " " + t).join(",");
}

// statusText says where the encounter stands.
export function statusText(v) {
  if (!v) return "";
  if (!v.started) {
    const n = (v.combatants || []).length;
    return "Not started · " + n + (n === 1 ? " combatant" : " combatants");
  }
  if (!v.current) return "Round " + v.round + " · nobody can act";
  return "Round " + v.round + " · " + v.current + "'s turn";
}

const MARK_LABEL = {
  acted: "acted",
  current: "now",
  delayed: "delayed",
  held: "held",
  forced: "forced",
  lost: "lost",
  environment: "environment",
  reacted: "reacted",
  unaware: "unaware",
  declined: "declined",
};

// keyed fills list with one child per item, in order, keeping the child
// drawn for an item whose key (keyOf(item), a string) has not changed
// since the last fill: its nodes, its listeners and what is typed or
// opened in it stay, and only the items that changed are built again
// (make(item) returns the new child). A page of a hundred combatants
// redraws a turn passing by touching the few slots and cards it changed.
export function keyed(list, items, keyOf, make) {
  const old = new Map(); // key → the children drawn with it, in order
  for (const n of list.children) {
    if (n._key === undefined) continue;
    const same = old.get(n._key);
    if (same) same.push(n);
    else old.set(n._key, [n]);
  }
  let at = list.firstChild;
  for (const it of items) {
    const k = keyOf(it);
    const same = old.get(k);
    let n = same && same.shift();
    if (!n) {
      n = make(it);
      n._key = k;
    }
    if (n === at) at = at.nextSibling;
    else list.insertBefore(n, at);
  }
  // What is left from here on was drawn for items that are gone.
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
}

// renderOrder fills list (an <ol>) with the slots, each with its markers as
// badges and, when actions is given, the buttons actions(slot) returns. A
// slot drawn before and unchanged (the same markers, the same buttons) is
// kept as it is.
export function renderOrder(list, slots, { actions, me, run, hidden } = {}) {
  const items = (slots || []).map((s) => {
    const btns = actions ? actions(s) : [];
    const mine = !!me && s.name.toLowerCase() === me.toLowerCase();
    const hid = !!hidden && hidden.has(s.name.toLowerCase());
    return { s, btns, mine, hid, key: JSON.stringify([s, btns.map((a) => [a.action, a.label, a.aria, a.cmd]), mine, hid]) };
  });
  if (!items.length) items.push({ key: "empty" });
  keyed(list, items, (it) => it.key, (it) => (it.s ? slotItem(it, run) : el("li", { class: "empty" }, "Nobody yet.")));
}

// slotItem draws one slot of the order of play (see renderOrder).
function slotItem({ s, btns, mine, hid }, run) {
  const marks = s.markers || [];
  const li = el("li", {
    class: ["slot", ...marks.map((m) => "m-" + m), mine ? "mine" : ""].join(" ").trim(),
    "data-name": s.name,
    "data-markers": marks.join(" "),
    "aria-current": marks.includes("current") ? "step" : undefined,
  });
  const head = el("div", { class: "slot-head" });
  if (s.phase) head.append(el("span", { class: "phase", title: "phase " + s.phase }, String(s.phase)));
  head.append(el("span", { class: "slot-name" }, s.name));
  for (const m of marks) head.append(el("span", { class: "badge b-" + m }, MARK_LABEL[m] || m));
  if (mine) head.append(el("span", { class: "badge b-you" }, "you"));
  if (hid) head.append(el("span", { class: "badge b-hidden" }, "hidden"));
  li.append(head);
  if (s.note) li.append(el("div", { class: "slot-note" }, s.note));
  // The full text, for screen readers and for tests.
  li.setAttribute("aria-label", slotText(s));
  if (btns.length) {
    const bar = el("div", { class: "slot-actions" });
    for (const a of btns) bar.append(button(a, run, s.name));
    li.append(bar);
  }
  return li;
}

// button makes a button that posts a command through run.
export function button(a, run, name) {
  return el("button", {
    type: "button",
    class: "act a-" + a.action,
    "data-action": a.action,
    "data-name": name,
    "aria-label": a.aria,
    onclick: () => run(a.cmd),
  }, a.label);
}

// renderHistory fills list with the rounds in the seeds' words.
export function renderHistory(list, history) {
  keyed(list, history || [], (h) => h.round + " " + roundText(h), (h) => el("li", { "data-round": String(h.round) }, roundText(h)));
}

// combatantCard shows a combatant: side, kind, flags, stats, a bar for
// each track and the conditions as labelled chips, each with its end in
// words (round is the round being played, for "in round 4"). With clear,
// a chip is a button that calls clear(condition).
export function combatantCard(c, { extra, clear, round } = {}) {
  const card = el("div", { class: "card" + (c.hidden ? " hidden-c" : ""), "data-name": c.name });
  const head = el("div", { class: "card-head" }, el("strong", { class: "card-name" }, c.name));
  head.append(el("span", { class: "badge b-side-" + c.side }, c.side === "pc" ? "PC" : "NPC"));
  if (c.kind && c.kind !== "character") head.append(el("span", { class: "badge" }, c.kind));
  if (c.group) head.append(el("span", { class: "badge" }, "group: " + c.group));
  if (c.hidden) head.append(el("span", { class: "badge b-hidden" }, "hidden"));
  if (c.unaware) head.append(el("span", { class: "badge b-unaware" }, "unaware"));
  if (c.band) head.append(el("span", { class: "badge b-band" }, c.band));
  card.append(head);
  const stats = Object.entries(c.stats || {});
  if (stats.length) {
    const dl = el("dl", { class: "stats" });
    for (const [k, v] of stats) dl.append(el("div", {}, el("dt", {}, k), el("dd", {}, String(v))));
    card.append(dl);
  }
  const tracks = c.tracks;
  if (tracks && typeof tracks === "object") {
    const ul = el("ul", { class: "tracks", "aria-label": "Tracks" });
    const entries = Array.isArray(tracks) ? tracks.map((t) => [t.name, t]) : Object.entries(tracks);
    for (const [k, t] of entries) {
      if (t && typeof t === "object") {
        const cur = t.value ?? t.current ?? t.left;
        if (typeof t.max === "number" && typeof cur === "number") {
          const bar = el("span", { class: "track-fill" });
          const frac = t.max > 0 ? Math.min(1, Math.max(0, cur / t.max)) : 0;
          bar.style.width = Math.round(frac * 100) + "%";
          if (frac <= 0.25) bar.classList.add("low");
          ul.append(el("li", { class: "track", "data-track": k, "data-value": String(cur), "data-max": String(t.max) },
            el("span", { class: "track-name" }, k),
            el("span", { class: "track-bar", role: "meter", "aria-label": k, "aria-valuemin": "0", "aria-valuemax": String(t.max), "aria-valuenow": String(cur) }, bar),
            el("span", { class: "track-num" }, cur + " / " + t.max)));
          continue;
        }
        ul.append(el("li", { "data-track": k }, k + ": " + (t.band ?? String(cur))));
      } else {
        ul.append(el("li", { "data-track": k }, k + ": " + String(t)));
      }
    }
    card.append(ul);
  }
  const conds = c.conditions;
  if (conds && conds.length) {
    const ul = el("ul", { class: "conditions", "aria-label": "Conditions" });
    for (const x of conds) {
      const text = conditionText(x, round);
      const chip = clear
        ? el("button", { type: "button", class: "chip b-cond", "data-action": "clear", "data-name": c.name, "data-condition": x.name,
          title: x.note || "Click to clear", "aria-label": "Clear " + c.name + "'s condition: " + text, onclick: () => clear(x) }, text, el("span", { class: "x", "aria-hidden": "true" }, " ×"))
        : el("span", { class: "chip b-cond", "data-condition": x.name, title: x.note || undefined }, text);
      ul.append(el("li", {}, chip));
    }
    card.append(ul);
  }
  if (c.notes) card.append(el("p", { class: "notes" }, c.notes));
  if (extra) card.append(extra);
  return card;
}

// conditionText says a condition: "distracted (by Blueshift) +3 attacked,
// until the end of Ganyeka's turn".
export function conditionText(x, round) {
  if (typeof x === "string") return x;
  let t = x.name;
  if (x.by) t += " (by " + x.by + ")";
  const mods = (x.modifiers || []).map((m) => (m.value > 0 ? "+" : "") + m.value + (m.on ? " " + m.on : ""));
  if (mods.length) t += " " + mods.join(", ");
  if (x.from && x.from > x.since) t += ", from round " + x.from;
  if (x.until) t += ", until " + anchorText(x.until, round);
  if (x.once) t += ", once";
  return t;
}

// anchorText says a point in the order of play: "the end of Ganyeka's
// turn", "the end of round 4"; a turn of a round after round (the one
// being played) is "Ganyeka's turn in round 5".
export function anchorText(a, round) {
  if (!a.name) return "the " + a.edge + " of round " + a.round;
  const later = round && a.round > round ? " in round " + a.round : "";
  return "the " + a.edge + " of " + a.name + "'s turn" + later;
}

// pct shows a probability as a percentage.
export function pct(p) {
  if (p > 0 && p < 0.001) return "<0.1%";
  return (Math.max(0, p) * 100).toFixed(1) + "%";
}

// oddsText shows the odds a roll had: "Ganyeka attack 2d6+10 vs
// difficulty 17: miss 58.3%, hit 33.3%, extreme 8.3%".
export function oddsText(o) {
  let t = (o.for ? o.for + " " : "") + (o.roll ? o.roll + " " : "") + o.expr;
  if (o.target) t += " vs " + (o.target_kind ? o.target_kind + " " : "") + o.target;
  const bands = (o.bands || []).map((b) => b.name + " " + pct(b.p));
  if (bands.length) t += ": " + bands.join(", ");
  return t;
}

// rollText shows a roll: "Blueshift 2d6: 6, 3 = 9".
export function rollText(r) {
  const who = r.for ? r.for + " " : "";
  const dice = r.dice && r.dice.length ? r.dice.join(", ") + " = " : "";
  const src = r.source && r.source !== "seeded" ? " (" + (r.source === "faces" ? "faces entered" : "total entered") + ")" : "";
  return who + r.expr + ": " + dice + r.total + src;
}

// Large type: a toggle kept in localStorage, for reading across a table.
export function setupLargeType(btn) {
  const apply = (on) => {
    document.documentElement.classList.toggle("large", on);
    btn.setAttribute("aria-pressed", on ? "true" : "false");
  };
  apply(localStorage.getItem("fray.large") === "1");
  btn.addEventListener("click", () => {
    const on = !document.documentElement.classList.contains("large");
    localStorage.setItem("fray.large", on ? "1" : "0");
    apply(on);
  });
}

// notice shows a message in the page's alert region; kind is "error" or "info".
let noticeTimer = 0;
export function notice(text, kind = "error") {
  const box = document.getElementById("notice");
  if (!box) return;
  box.textContent = text;
  box.className = "notice " + kind;
  box.hidden = !text;
  clearTimeout(noticeTimer);
  if (text && kind !== "error") noticeTimer = setTimeout(() => (box.hidden = true), 4000);
}

// Live follows an encounter's event stream. onChange gets each change
// ({revision, events, view}); onReconnect is called when the stream comes
// back after a break (the caller re-fetches the full view), onState with
// "live", "connecting" or "offline". EventSource reconnects by itself and
// resumes with Last-Event-ID; when the server refuses it for good, Live
// opens a new one after a pause.
export class Live {
  constructor(url, { onChange, onReconnect, onState }) {
    this.url = url;
    this.onChange = onChange;
    this.onReconnect = onReconnect;
    this.onState = onState || (() => {});
    this.broken = false;
    this.retry = 0;
    this.open();
  }
  open() {
    this.onState("connecting");
    const es = new EventSource(this.url);
    this.es = es;
    es.addEventListener("open", () => {
      this.onState("live");
      this.retry = 0;
      if (this.broken) {
        this.broken = false;
        this.onReconnect();
      }
    });
    es.addEventListener("change", (e) => {
      let d;
      try {
        d = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      this.onChange(d);
    });
    es.addEventListener("error", () => {
      this.broken = true;
      if (es.readyState === EventSource.CLOSED) {
        this.onState("offline");
        const wait = Math.min(10000, 500 * 2 ** this.retry++);
        setTimeout(() => {
          if (this.es === es) this.open();
        }, wait);
      } else {
        this.onState("connecting");
      }
    });
  }
  close() {
    if (this.es) this.es.close();
    this.es = null;
  }
}

// keepFocus runs render and then puts the focus back on the control that
// had it, found again by its action and name (a render replaces the
// buttons), so that a keyboard user stays where they were.
export function keepFocus(render) {
  const a = document.activeElement;
  const key = a && a.dataset && a.dataset.action ? [a.dataset.action, a.dataset.name || "", a.closest("[id]")?.id || ""] : null;
  render();
  if (!key || document.activeElement !== document.body) return;
  for (const b of document.querySelectorAll("[data-action]")) {
    if (b.dataset.action === key[0] && (b.dataset.name || "") === key[1] && (b.closest("[id]")?.id || "") === key[2]) {
      b.focus();
      return;
    }
  }
}

// connLabel is what the connection badge says.
export const CONN_LABEL = { live: "Live", connecting: "Reconnecting…", offline: "Offline" };
