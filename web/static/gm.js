// The GM screen: create an encounter, add combatants (one by one, or a
// party or foes file of character sheets), run the order of play, undo and
// redo, read the log, and hand out player links. The GM key of every
// encounter this browser created is kept in localStorage, so a refresh (or
// a closed tab) loses nothing; the GM link (#e=ID&gm=KEY) brings the key
// to another device, which keeps it and takes it out of the address bar at
// once. The fragment never reaches the server, so the key is in no log.

import {
  api, el, keyed, quote, slotText, statusText, renderOrder, renderHistory, combatantCard,
  rollText, oddsText, pct, setupLargeType, notice, button, Live, CONN_LABEL, keepFocus, systemDocs,
} from "./fray.js";
import { system } from "./systems.js";
import { Controls, findDecl, commandText } from "./controls.js";
import { qrToggle } from "./qr.js";
import { setupKeys } from "./keys.js";
import { reorderer, attachReorder } from "./reorder.js";
import { toldItem, loadTold } from "./log.js";
import { simPanel } from "./simpanel.js";

const $ = (id) => document.getElementById(id);

// docs holds the rule systems the server runs, once GET /api/systems has
// answered (see systemDocs): their names, command words and help.
let docs = null;

// loadDocs asks the server for the rule systems (once; again only after a
// failure) and shows what they tell once they come.
function loadDocs() {
  return systemDocs().then((m) => {
    if (docs) return docs;
    docs = m;
    document.body.dataset.commands = "loaded";
    fillRules();
    if (st && st.view) keepFocus(render);
    else if (!$("setup").hidden) showSetup();
    return docs;
  });
}

// docOf returns what the server says of the rules id, or null.
function docOf(id) {
  return (docs && docs.get(id)) || null;
}

// rulesName returns the full name of the rules id, or the id itself
// while the server has not told it.
function rulesName(id) {
  const d = docOf(id);
  return d ? d.name : id || "";
}

// fillRules offers in the create form the systems the server runs, by
// the names it gives them: the page lists none of its own.
function fillRules() {
  const sel = $("create-rules");
  sel.replaceChildren(...[...docs].map(([id, d]) => el("option", { value: id }, d.name + " (" + id + ")")));
}

// held returns the encounters this browser runs: id → {token, name, rules}.
function held() {
  try {
    return JSON.parse(localStorage.getItem("fray.gm") || "{}") || {};
  } catch (e) {
    return {};
  }
}
function hold(id, rec) {
  const h = held();
  if (rec) h[id] = { ...h[id], ...rec };
  else delete h[id];
  localStorage.setItem("fray.gm", JSON.stringify(h));
}

// st is the open encounter.
let st = null;
let live = null;
let queue = Promise.resolve();
const links = new Map(); // combatant name → {href, handle}: the player link made this session
let playersAsked = 0; // numbers the requests for the list of player links: the last one wins

function encId() {
  return new URLSearchParams(location.hash.slice(1)).get("e") || "";
}

// takeGMKey keeps the GM key a GM link brings (#e=ID&gm=KEY) and takes it
// out of the address, so that it stays out of the address bar, the
// history and a shared screen.
function takeGMKey() {
  const p = new URLSearchParams(location.hash.slice(1));
  const key = p.get("gm");
  if (key === null) return;
  p.delete("gm");
  const id = p.get("e") || "";
  if (id && key) hold(id, { token: key, created: (held()[id] || {}).created || Date.now() });
  else notice("This GM link is cut short: copy it again from the GM screen that made it.");
  const rest = p.toString();
  history.replaceState(history.state, "", location.pathname + location.search + (rest ? "#" + rest : ""));
}

// serverAsked is the answer of GET /api/server, asked once: the public
// address links are built from, when the server was given one.
const serverAsked = api("GET", "/api/server").catch(() => ({ public_url: "" }));

// linkBase returns the address links are built from: the server's public
// address (fray serve --public-url), else the page's own.
async function linkBase() {
  const r = await serverAsked;
  return (r && r.public_url) || new URL("/", location.href).href;
}

// loopbackHost reports whether the page is open at an address only this
// machine reaches.
function loopbackHost(h) {
  return h === "localhost" || h.endsWith(".localhost") || /^127\./.test(h) || h === "[::1]" || h === "::1";
}

// showLinkWarning says, when the page is open at this machine's own
// address and the server has no public one, that its links open only here.
async function showLinkWarning() {
  const r = await serverAsked;
  $("links-local").hidden = !!(r && r.public_url) || !loopbackHost(location.hostname);
}

// ---- setup: create or reopen ----

function showSetup() {
  if (live) live.close();
  live = null;
  st = null;
  $("encounter").hidden = true;
  $("setup").hidden = false;
  $("enc-title").textContent = "";
  $("conn").textContent = "";
  document.title = "fray — GM screen";
  const list = $("mine");
  list.replaceChildren();
  const h = held();
  const ids = Object.keys(h).sort((a, b) => (h[b].created || 0) - (h[a].created || 0));
  for (const id of ids) {
    const r = h[id];
    list.append(el("li", {},
      el("a", { href: "#e=" + encodeURIComponent(id), "data-id": id }, r.name || id),
      " ", el("span", { class: "hint" }, rulesName(r.rules)),
      " ", el("button", {
        type: "button", class: "small", "aria-label": "Forget " + (r.name || id) + " in this browser",
        onclick: () => { if (confirm("Forget this encounter's GM key in this browser?")) { hold(id); showSetup(); } },
      }, "Forget")));
  }
  if (!ids.length) list.append(el("li", { class: "hint" }, "None yet."));
}

$("create-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const rules = $("create-rules").value;
  const name = $("create-name").value.trim() || "Encounter of " + new Date().toLocaleDateString();
  try {
    const r = await api("POST", "/api/encounters", { body: { rules, name } });
    hold(r.id, { token: r.token, name: r.name || name, rules: r.rules || rules, created: Date.now() });
    $("create-name").value = "";
    location.hash = "e=" + encodeURIComponent(r.id);
  } catch (err) {
    notice(err.message);
  }
});

// ---- an encounter ----

async function openEncounter(id) {
  const rec = held()[id];
  if (!rec) {
    notice("This browser does not hold the GM key of encounter " + id + ".");
    location.hash = "";
    return;
  }
  if (live) live.close();
  links.clear();
  hideGMLink();
  simClear();
  sheetsReset();
  showLinkWarning();
  st = { id, token: rec.token, name: rec.name, rules: rec.rules, revision: -1, view: null, log: new Map(), statsFor: "", players: null, present: "" };
  renderPlayers();
  $("setup").hidden = true;
  $("encounter").hidden = false;
  try {
    await refresh();
  } catch (err) {
    if (err.status === 401 || err.status === 403 || err.status === 404) {
      notice("Encounter " + id + " cannot be opened: " + err.message);
      showSetup();
      return;
    }
    notice(err.message);
  }
  live = new Live("/api/encounters/" + encodeURIComponent(id) + "/events?token=" + encodeURIComponent(st.token), {
    onChange: (d) => {
      if (!st || st.id !== id) return;
      addEvents(d.events);
      update(d.revision, d.view);
    },
    onReconnect: () => refresh().catch((err) => notice(err.message)),
    onState: (s) => {
      $("conn").textContent = CONN_LABEL[s] || s;
      $("conn").dataset.state = s;
    },
  });
}

// refresh fetches the whole view and the log again. It waits for the
// rule systems first (once; again after a failure), so that the page
// shows the system's buttons from the start.
async function refresh() {
  const id = st.id;
  // The view and the systems are asked for at once: a first load waits
  // for the slower of the two, not for one after the other.
  const asked = api("GET", "/api/encounters/" + encodeURIComponent(id), { token: st.token });
  asked.catch(() => {});
  if (!docs) await loadDocs().catch(() => {});
  const r = await asked;
  if (!st || st.id !== id) return;
  st.name = r.name || st.name;
  st.rules = r.rules || st.rules;
  hold(id, { name: st.name, rules: st.rules });
  update(r.revision, r.view, true);
  loadLog();
  loadPlayers();
}

async function loadLog() {
  const id = st.id;
  try {
    const evs = await loadTold(id, st.token);
    if (st && st.id === id) addEvents(evs);
  } catch (e) { /* the log is a nicety; the view is what matters */ }
}

// update shows a view at a revision, unless a newer one is already shown
// (or the same one, but for a refresh).
function update(revision, view, refreshing) {
  if (!st || !view || revision < st.revision || (revision === st.revision && !refreshing)) return;
  st.revision = revision;
  st.view = view;
  if (view.rules) st.rules = view.rules;
  keepFocus(render);
  // Who is present decides which links still work: ask again when it
  // changes (a remove, or an undo of one) and there are links to show.
  const present = (view.combatants || []).map((c) => c.id).join(" ");
  if (present !== st.present) {
    st.present = present;
    if (st.players && st.players.length) loadPlayers();
  }
}

// loadPlayers asks for the encounter's player links and shows them.
async function loadPlayers() {
  if (!st) return;
  const id = st.id;
  const n = ++playersAsked;
  try {
    const r = await api("GET", "/api/encounters/" + encodeURIComponent(id) + "/players", { token: st.token });
    if (!st || st.id !== id || n !== playersAsked) return;
    st.players = (r && r.players) || [];
    st.playersError = "";
  } catch (err) {
    if (!st || st.id !== id || n !== playersAsked) return;
    st.playersError = err.message;
  }
  keepFocus(renderPlayers);
}

// renderPlayers shows the list of player links: whose each is (or that
// the character has gone), when it was made, and a Revoke button.
function renderPlayers() {
  const list = $("player-links");
  list.replaceChildren();
  if (!st) return;
  if (st.playersError) list.append(el("li", { class: "hint" }, "The player links could not be read: " + st.playersError));
  if (!st.players) return;
  for (const p of st.players) {
    const who = p.present ? p.combatant : p.combatant ? p.combatant + " (gone)" : "gone";
    const made = new Date(p.created);
    list.append(el("li", { "data-testid": "player-link-item", "data-handle": p.handle, "data-present": String(p.present) },
      el("span", { "data-testid": "player-link-who" }, who),
      " ", el("span", { class: "hint" }, "made ", el("time", { datetime: p.created }, made.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }))),
      " ", el("button", {
        type: "button", class: "small danger", "data-action": "revoke", "data-name": p.handle,
        "aria-label": "Revoke the player link for " + who + ", made " + made.toLocaleString(),
        onclick: () => revokeLink(p, who),
      }, "Revoke")));
  }
  if (!st.players.length) list.append(el("li", { class: "hint" }, "None yet: a combatant's Player link button makes one."));
}

// revokeLink revokes a player link, so that whoever holds it is shut out.
async function revokeLink(p, who) {
  if (!confirm("Revoke the player link for " + who + "? Whoever holds it is shut out at once.")) return;
  const id = st.id;
  try {
    await api("DELETE", "/api/encounters/" + encodeURIComponent(id) + "/players/" + encodeURIComponent(p.handle), { token: st.token });
    notice("The link for " + who + " is revoked.", "info");
  } catch (err) {
    // 404: revoked already, from another window; the list catches up.
    if (err.status !== 404) notice(err.message);
  }
  if (!st || st.id !== id) return;
  for (const [name, l] of links) if (l.handle === p.handle) links.delete(name);
  if (st.view) keepFocus(render);
  await loadPlayers();
}

// run posts one command line, one at a time and in order.
function run(cmd) {
  const p = queue.then(() => post(cmd));
  queue = p.catch(() => {});
  return p;
}

async function post(cmd) {
  if (!st) return null;
  const id = st.id;
  try {
    const r = await api("POST", "/api/encounters/" + encodeURIComponent(id) + "/commands", {
      token: st.token,
      body: { command: cmd, revision: Math.max(st.revision, 0) },
    });
    if (!st || st.id !== id) return r;
    addEvents(r.events);
    update(r.revision, r.view);
    notice("");
    return r;
  } catch (err) {
    if (err.status === 409 && typeof err.revision === "number") {
      // A stale revision, and only that (a 409 carries the current one
      // then): a duplicate name, say, is a conflict of another kind,
      // whose message says what is wrong.
      await refresh().catch(() => {});
      notice("Someone changed the encounter first; this is how it stands now. Nothing was done: try again.");
    } else {
      notice(err.message);
    }
    return null;
  }
}

// ask posts a command that changes nothing (odds …) and returns the
// answer, without touching the page; a refusal is thrown. A stale
// revision is asked again once at the revision the server gives.
async function ask(cmd) {
  if (!st) throw new Error("No encounter is open.");
  const path = "/api/encounters/" + encodeURIComponent(st.id) + "/commands";
  try {
    return await api("POST", path, { token: st.token, body: { command: cmd, revision: Math.max(st.revision, 0) } });
  } catch (err) {
    if (err.status !== 409 || typeof err.revision !== "number") throw err;
    return api("POST", path, { token: st.token, body: { command: cmd, revision: err.revision } });
  }
}

// say shows a command on the command line: the one a form builds, or the
// one a click sends.
function say(cmd) {
  $("cmdline").value = cmd;
  renderCompletion();
}

// send posts a command a control built, shows it on the command line and
// its answer below it, as if it had been typed.
async function send(cmd) {
  say(cmd);
  const r = await run(cmd);
  if (r) showAnswer(cmd, r);
  return r;
}

const controls = new Controls($("controls"), { run: send, ask, say });

// ---- rendering ----

function render() {
  const t0 = performance.now();
  renderView();
  // Each render is measured, for the Performance API (the page with 100
  // combatants is timed by it): "fray:render", from its start to its end.
  performance.measure("fray:render", { start: t0 });
}

function renderView() {
  const v = st.view;
  const sys = system(docOf(st.rules));
  document.body.dataset.revision = String(st.revision);
  document.body.dataset.rules = st.rules;
  $("main").dataset.revision = String(st.revision);
  $("enc-title").textContent = st.name + " · " + rulesName(st.rules);
  $("status").textContent = statusText(v);
  document.title = (v.started && v.current ? v.current + " · " : "") + st.name + " — fray";

  // Turn controls: start before the start, then the current actor's.
  const tc = $("turn-controls");
  tc.replaceChildren();
  if (!v.started) {
    tc.append(el("button", {
      type: "button", class: "primary", "data-action": "start", "data-testid": "start",
      onclick: () => run("start"),
    }, "Start"));
  } else if (v.current) {
    for (const a of sys.turn(v)) {
      const btn = button(a, run);
      btn.dataset.current = v.current;
      if (a.action === "next") {
        btn.classList.add("primary");
        btn.dataset.testid = "next";
        btn.setAttribute("aria-keyshortcuts", "n");
        btn.append(" ", el("kbd", {}, "n"));
      }
      tc.append(btn);
    }
  } else {
    tc.append(el("p", { class: "hint" }, "Nobody can act. Add or wake a combatant, or undo."));
  }

  // Before the start: declare the order (bpb) as it stands.
  const sc = $("setup-controls");
  sc.replaceChildren();
  if (!v.started && (v.order || []).length > 1) {
    const names = v.order.map((s) => s.name);
    sc.append(el("button", {
      type: "button", "data-action": "order", "data-testid": "declare-order",
      "aria-label": (sys.declare ? "Declare the order of play: " : "Set the tiebreak order: ") + names.join(", "),
      onclick: () => run("order " + names.map(quote).join(" ")),
    }, sys.declare ? "Declare this order" : "Use this order for ties"));
  }
  renderForms(sys, v);
  controls.render(docOf(st.rules), v, st.revision);

  // The order of play, with each slot's buttons.
  const hidden = new Set((v.combatants || []).filter((c) => c.hidden).map((c) => c.name.toLowerCase()));
  renderOrder($("order"), v.order, { actions: (s) => rowActions(sys, v, s), run, hidden });
  attachReorder($("order"), reorderer(docOf(st.rules), sys, v), send);
  $("next-round").parentElement.querySelector("#next-h").hidden = !(v.next && v.next.length);
  renderOrder($("next-round"), v.next || [], { hidden });
  if (!(v.next && v.next.length)) $("next-round").replaceChildren();
  renderHistory($("history"), v.history);
  if (!(v.history || []).length) $("history").append(el("li", { class: "empty" }, "No turns yet."));

  renderCombatants(sys, v);
  renderAddForm(sys, v);
  renderCompletion();
}

// rowActions returns a slot's buttons: the system's, and up/down before the
// start where the order is declared.
function rowActions(sys, v, s) {
  const out = [];
  if (!v.started) {
    if (!sys.declare) return out;
    const names = v.order.map((x) => x.name);
    const i = names.indexOf(s.name);
    const swap = (j) => {
      const n = names.slice();
      [n[i], n[j]] = [n[j], n[i]];
      return "order " + n.map(quote).join(" ");
    };
    if (i > 0) out.push({ action: "up", label: "↑", aria: "Move " + s.name + " earlier", cmd: swap(i - 1) });
    if (i >= 0 && i < names.length - 1) out.push({ action: "down", label: "↓", aria: "Move " + s.name + " later", cmd: swap(i + 1) });
    return out;
  }
  return sys.row(s, v);
}

function names(v) {
  return (v.combatants || []).map((c) => c.name);
}

// renderForms shows the system's small forms: reorder, move, attack, full.
// They are built again only when the names change (so what the GM is
// typing stays, and a hundred names are not listed anew each turn); a
// new turn puts the pickers back where a new form starts and names whose
// turn it is.
function renderForms(sys, v) {
  const box = $("forms");
  const key = JSON.stringify([st.rules, sys.forms, v.started, names(v), !!v.current]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    delete box.dataset.current;
    box.replaceChildren();
    if (v.started) buildForms(box, sys, v);
  }
  if (!v.started || box.dataset.current === (v.current || "")) return;
  box.dataset.current = v.current || "";
  for (const s of box.querySelectorAll("[data-current-name]")) s.textContent = v.current + " " + s.dataset.currentName;
  for (const sel of box.querySelectorAll("select")) {
    if (sel.dataset.pick === "current" && names(v).includes(v.current)) sel.value = v.current;
    else sel.selectedIndex = 0;
  }
  for (const inp of box.querySelectorAll("input")) inp.value = inp.defaultValue;
}

// buildForms fills box with the small forms of sys for view v; the words
// naming whose turn it is and the pickers that start at them are marked
// (data-current-name, data-pick) for renderForms to set each turn.
function buildForms(box, sys, v) {
  const nameSelect = (attrs, pick) => {
    const sel = el("select", { ...attrs, "data-pick": pick });
    sel.append(...names(v).map((n) => el("option", { value: n }, n)));
    return sel;
  };
  const now = (what) => el("span", { "data-current-name": what });
  for (const f of sys.forms || []) {
    if (f === "reorder") {
      const who = nameSelect({ "aria-label": "Who acts later", "data-testid": "reorder-name" });
      const after = nameSelect({ "aria-label": "After whom", "data-testid": "reorder-after" }, "current");
      box.append(el("form", {
        class: "mini", "data-testid": "reorder-form",
        onsubmit: (e) => { e.preventDefault(); run("reorder " + quote(who.value) + " after=" + quote(after.value)); },
      }, el("span", {}, "From next round,"), who, el("span", {}, "acts after"), after,
      el("button", { type: "submit", "data-action": "reorder" }, "Reorder")));
    } else if (f === "move" && v.current) {
      const inches = el("input", { type: "number", min: "1", step: "1", value: "5", "aria-label": "Inches to move", "data-testid": "move-inches", class: "num" });
      box.append(el("form", {
        class: "mini", "data-testid": "move-form",
        onsubmit: (e) => { e.preventDefault(); run("move " + inches.value); },
      }, now("moves"), inches, el("span", {}, "inches"),
      el("button", { type: "submit", "data-action": "move" }, "Move")));
    } else if (f === "attack" && v.current) {
      const target = nameSelect({ "aria-label": "Target of the attack", "data-testid": "attack-target" });
      box.append(el("form", {
        class: "mini", "data-testid": "attack-form",
        onsubmit: (e) => { e.preventDefault(); run("attack " + quote(target.value)); },
      }, now("attacks"), target,
      el("button", { type: "submit", "data-action": "attack-target" }, "Attack")));
    } else if (f === "full") {
      const who = nameSelect({ "aria-label": "Who declares", "data-testid": "full-name" });
      const what = el("select", { "aria-label": "Full Defence or Full Offence", "data-testid": "full-what" },
        el("option", { value: "defence" }, "Full Defence"), el("option", { value: "offence" }, "Full Offence"), el("option", { value: "none" }, "neither"));
      box.append(el("form", {
        class: "mini", "data-testid": "full-form",
        onsubmit: (e) => { e.preventDefault(); run("full " + quote(who.value) + " " + what.value); },
      }, who, what, el("button", { type: "submit", "data-action": "full" }, "Declare")));
    }
  }
}

// amounts holds the amount typed on each card, by name, so that a redraw
// keeps it.
const amounts = new Map();

// trackControls returns a card's damage and heal controls: an amount and
// a button for each of the system's damage and heal commands (found by
// their declarations: a combatant and a number), on a card with a track.
function trackControls(c) {
  const doc = docOf(st.rules);
  const cmds = ["damage", "heal"].map((w) => findDecl(doc, w, ["combatant", "number"])).filter(Boolean);
  if (!cmds.length || !c.tracks || !Object.keys(c.tracks).length) return null;
  const n = cmds[0].args[1];
  const amount = el("input", {
    type: "number", class: "num", step: "1", value: amounts.get(c.name) || "1", "data-testid": "track-amount", "data-name": c.name,
    min: String(n.max > n.min ? Math.max(n.min, 1) : 1), max: n.max > n.min ? String(n.max) : undefined,
    "aria-label": "Amount for " + c.name, inputmode: "numeric",
  });
  const row = el("div", { class: "track-ctl", role: "group", "aria-label": "Damage and heal " + c.name }, amount);
  for (const d of cmds) {
    const cmd = () => commandText(d, [c.name, String(Number(amount.value) || 0)]);
    row.append(el("button", {
      type: "button", class: "small" + (d.name === "damage" ? " danger" : ""), "data-action": d.name, "data-name": c.name,
      title: d.summary, "aria-label": d.name[0].toUpperCase() + d.name.slice(1) + " " + c.name,
      onclick: () => { if (amount.checkValidity()) send(cmd()); else amount.reportValidity(); },
    }, d.name[0].toUpperCase() + d.name.slice(1)));
  }
  amount.addEventListener("input", () => {
    amounts.set(c.name, amount.value);
    say(commandText(cmds[0], [c.name, amount.value]));
  });
  return row;
}

function renderCombatants(sys, v) {
  const box = $("combatants");
  // Each card is drawn again only when what it shows changes: a turn
  // passing redraws the cards whose buttons it changed and leaves the
  // others (and what is typed in them) alone.
  const clearDecl = findDecl(docOf(st.rules), "clear", ["combatant", "text"]);
  const items = (v.combatants || []).map((c) => {
    const acts = sys.card(c, v);
    const link = links.get(c.name)?.href || "";
    const round = (c.conditions || []).length ? v.round : 0;
    return { c, acts, link, key: JSON.stringify([st.id, st.rules, c, acts, link, round, !!clearDecl]) };
  });
  if (!items.length) items.push({ key: "nobody" });
  keyed(box, items, (it) => it.key, (it) => (it.c ? cardOf(it, v, clearDecl) : el("p", { class: "hint" }, "Nobody yet: add the combatants below.")));
}

// cardOf draws the GM's card of one combatant: what combatantCard shows,
// its damage and heal controls, its buttons and its player link.
function cardOf({ c, acts, link }, v, clearDecl) {
  const bar = el("div", { class: "card-actions" });
  if (c.side === "pc" || c.kind === "character") {
    bar.append(el("button", {
      type: "button", class: "small", "data-action": "link", "data-name": c.name,
      "aria-label": "Make a player link for " + c.name,
      onclick: () => makeLink(c.name),
    }, "Player link"));
  }
  if (c.hidden) {
    bar.append(el("button", { type: "button", class: "small", "data-action": "reveal", "data-name": c.name, "aria-label": "Reveal " + c.name + " to the players", onclick: () => run("reveal " + quote(c.name)) }, "Reveal"));
  }
  for (const a of acts) {
    bar.append(el("button", { type: "button", class: "small", "data-action": a.action, "data-name": c.name, "aria-label": a.aria, onclick: () => run(a.cmd) }, a.label));
  }
  bar.append(el("button", {
    type: "button", class: "small", "data-action": "note", "data-name": c.name, "aria-label": "Add a GM note to " + c.name,
    onclick: () => { const t = prompt("Note about " + c.name + " (GM only):"); if (t) run("note " + quote(c.name) + " " + quote(t)); },
  }, "Note"));
  bar.append(el("button", {
    type: "button", class: "small danger", "data-action": "remove", "data-name": c.name, "aria-label": "Remove " + c.name,
    onclick: () => { if (confirm("Remove " + c.name + " from the encounter?")) run("remove " + quote(c.name)); },
  }, "Remove"));
  const extra = el("div", {}, trackControls(c), bar);
  if (link) {
    const inp = el("input", { readonly: true, value: link, "aria-label": "Player link for " + c.name, "data-testid": "player-link", "data-name": c.name, class: "link" });
    const code = el("div", { class: "qrbox", hidden: true });
    extra.append(el("div", { class: "linkbox" }, inp, el("button", {
      type: "button", class: "small", "aria-label": "Copy the player link for " + c.name,
      onclick: async () => { inp.select(); try { await navigator.clipboard.writeText(link); notice("Link copied.", "info"); } catch (e) { document.execCommand && document.execCommand("copy"); } },
    }, "Copy"), qrToggle(() => link, "player link for " + c.name, code)), code);
  }
  return combatantCard(c, { extra, round: v.round, clear: clearDecl ? (x) => send(commandText(clearDecl, [c.name, x.name])) : null });
}

async function makeLink(name) {
  try {
    const r = await api("POST", "/api/encounters/" + encodeURIComponent(st.id) + "/players", { token: st.token, body: { combatant: name } });
    links.set(name, { href: new URL(r.link, await linkBase()).href, handle: r.handle });
    render();
    loadPlayers();
  } catch (err) {
    notice(err.message);
  }
}

// ADD_OWN are the options of add that the add form asks for in fields of
// its own (every system's add takes them).
const ADD_OWN = new Set(["side", "kind", "group", "aware", "hidden", "notes", "before", "after"]);

function renderAddForm(sys, v) {
  const f = $("add-form");
  $("add-place-row").hidden = !sys.place;
  const whom = f.elements.placeName;
  const ns = names(v);
  const namesKey = JSON.stringify(ns);
  if (whom.dataset.key !== namesKey) {
    whom.dataset.key = namesKey;
    const cur = whom.value;
    whom.replaceChildren(...ns.map((n) => el("option", { value: n, selected: n === cur }, n)));
  }
  const statsKey = st.rules + " " + sys.stats.join(" ");
  if (st.statsFor !== statsKey) {
    st.statsFor = statsKey;
    const fs = $("add-stats");
    fs.replaceChildren(el("legend", {}, "Stats"));
    for (const s of sys.stats) {
      fs.append(el("label", { class: "stat" }, s, el("input", { type: "number", name: "stat-" + s, "data-stat": s, class: "num", inputmode: "numeric" })));
    }
    fs.hidden = !sys.stats.length;
    // The rest of what add takes (a weapon, an attack, a role …), as its
    // declaration says, beside what the form asks of every system.
    const more = $("add-more");
    more.replaceChildren(el("legend", {}, "More"));
    const decl = findDecl(docOf(st.rules), "add", ["text"]);
    for (const o of (decl && decl.opts) || []) {
      if (ADD_OWN.has(o.name) || sys.stats.includes(o.name)) continue;
      let ctl;
      if (o.kind === "choice") {
        ctl = el("select", { "data-opt": o.name }, el("option", { value: "" }, o.default ? "(" + o.default + ")" : "—"), ...(o.choices || []).map((c) => el("option", { value: c }, c)));
      } else {
        ctl = el("input", { "data-opt": o.name, placeholder: o.hint || undefined, autocomplete: "off", spellcheck: "false", type: o.kind === "number" ? "number" : "text", class: o.kind === "number" ? "num" : undefined });
      }
      more.append(el("label", { class: "stat", title: o.help || undefined }, o.name, ctl));
    }
    more.hidden = more.childElementCount < 2;
  }
}

$("add-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target;
  const name = f.elements.name.value.trim();
  if (!name) return;
  const parts = ["add", quote(name), "side=" + f.elements.side.value];
  if (f.elements.kind.value !== "character") parts.push("kind=" + f.elements.kind.value);
  if (!f.elements.aware.checked) parts.push("aware=no");
  if (f.elements.hidden.checked) parts.push("hidden=yes");
  if (f.elements.group.value.trim()) parts.push("group=" + quote(f.elements.group.value.trim()));
  if (f.elements.notes.value.trim()) parts.push("notes=" + quote(f.elements.notes.value.trim()));
  if (f.elements.place.value && f.elements.placeName.value && !$("add-place-row").hidden) {
    parts.push(f.elements.place.value + "=" + quote(f.elements.placeName.value));
  }
  for (const inp of f.querySelectorAll("[data-stat]")) {
    if (inp.value !== "") parts.push(inp.dataset.stat + "=" + inp.value);
  }
  for (const inp of f.querySelectorAll("[data-opt]")) {
    if (inp.value.trim() !== "") parts.push(inp.dataset.opt + "=" + quote(inp.value.trim()));
  }
  const r = await run(parts.join(" "));
  if (r) {
    f.elements.name.value = "";
    f.elements.hidden.checked = false;
    f.elements.aware.checked = true;
    f.elements.place.value = "";
    f.elements.notes.value = "";
    f.elements.group.value = "";
    // The selects go back to what the form starts with: a group added
    // does not make the next one a group too.
    for (const sel of [f.elements.kind]) {
      const d = [...sel.options].findIndex((o) => o.defaultSelected);
      sel.selectedIndex = Math.max(d, 0);
    }
    for (const inp of f.querySelectorAll("[data-stat], [data-opt]")) inp.value = "";
    f.elements.name.focus();
  }
});

$("paste-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  $("paste").value = await f.text();
});

$("paste-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (looksLikeSheets($("paste").value)) {
    // A sheet file is read whole, by the sheets control, never line by
    // line as combatants.
    $("sheets-text").value = $("paste").value;
    $("paste").value = "";
    sheetsName = "";
    $("sheets").open = true;
    $("sheets-form").requestSubmit();
    $("sheets-text").focus();
    notice("That is a party or foes file: it is read whole under \"Bring in a party or foes file\". Check who will join, then add them.", "info");
    return;
  }
  const lines = $("paste").value.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  const left = [];
  let d;
  try {
    d = (await loadDocs()).get(st.rules);
  } catch (err) {
    notice("The command words could not be read from the server, so the lines were not added: " + err.message);
    return;
  }
  const words = new Set(d ? d.words : []);
  for (const line of lines) {
    // A line that starts with a command word runs as it is (a fray play
    // script's order or start); any other names a combatant to add.
    const first = line.split(/\s+/)[0].toLowerCase();
    const cmd = words.has(first) ? line : "add " + line;
    const r = await run(cmd);
    if (!r) left.push(line);
  }
  $("paste").value = left.join("\n");
  if (!left.length) notice(lines.length + " added.", "info");
});

// ---- sheets: a party or foes file ----

// sheetsPending is what the last preview read, for Add to send as it is:
// {id, text, side, name}. A change to the file or the side takes it away
// (Add waits for a new preview).
let sheetsPending = null;
let sheetsName = ""; // the uploaded file's name, as the server's messages name it
let sheetsAsked = 0; // numbers the previews: the last one wins

// sheetsPath returns the sheets endpoint for a request, previewing or not.
function sheetsPath(req, preview) {
  const q = new URLSearchParams();
  if (preview) q.set("preview", "1");
  q.set("side", req.side);
  if (req.name) q.set("name", req.name);
  return "/api/encounters/" + encodeURIComponent(req.id) + "/sheets?" + q;
}

// fileName returns a file's name as the sheets endpoint takes it (at most
// 64 bytes, no slashes), or "" when it does not.
function fileName(n) {
  return n && new TextEncoder().encode(n).length <= 64 && !/[\/\\\x00-\x1f]/.test(n) ? n : "";
}

function sheetsReset() {
  sheetsPending = null;
  sheetsAsked++;
  $("sheets-add").disabled = true;
  $("sheets-out").replaceChildren();
}

// joinerText says who joins: "Blueshift: PC, character".
function joinerText(j) {
  const parts = [j.side === "pc" ? "PC" : "NPC", j.kind || "character"];
  if (j.group) parts.push("group " + j.group);
  if (j.hidden) parts.push("hidden");
  return j.name + ": " + parts.join(", ");
}

// showJoining lists who joins (or, for a preview, would).
function showJoining(r) {
  const list = r.joining || [];
  const head = r.preview
    ? (list.length === 1 ? "1 will join" : list.length + " will join") + ", in one step that one undo takes back:"
    : (list.length === 1 ? "1 joined" : list.length + " joined") + ":";
  $("sheets-out").replaceChildren(
    el("p", { "data-testid": "sheets-head" }, head),
    el("ul", { class: "joining", "data-testid": "sheets-joining" },
      list.map((j) => el("li", { "data-name": j.name, "data-side": j.side, "data-kind": j.kind }, joinerText(j)))));
}

// problemText says a problem of a sheet file: "line 7: Monolith.stats.brawn:
// must be from 1 to 14".
function problemText(p) {
  return (p.line ? "line " + p.line + ": " : "") + (p.path ? p.path + ": " : "") + p.message;
}

// showSheetsRefusal shows why a file was refused, with every problem the
// server listed and its line.
function showSheetsRefusal(err, adding) {
  const out = $("sheets-out");
  out.replaceChildren(el("p", { class: "error", role: "alert", "data-testid": "sheets-error" },
    err.message + (adding ? " Nothing was added." : "")));
  const ps = err.problems || [];
  if (ps.length) {
    out.append(el("ul", { class: "problems", "data-testid": "sheets-problems", "aria-label": "Problems in the file" },
      ps.map((p) => el("li", { "data-line": p.line ? String(p.line) : undefined, "data-path": p.path || undefined },
        p.line ? el("span", { class: "line" }, "line " + p.line) : "", p.line ? ": " : "",
        p.path ? el("span", { class: "path" }, p.path) : "", p.path ? ": " : "", p.message))));
  }
}

$("sheets-text").addEventListener("input", () => {
  if (!$("sheets-text").value.trim()) sheetsName = "";
  sheetsReset();
});
$("sheets-side").addEventListener("change", sheetsReset);

$("sheets-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  $("sheets-text").value = await f.text();
  sheetsName = fileName(f.name);
  sheetsReset();
});

$("sheets-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!st) return;
  const text = $("sheets-text").value;
  sheetsReset();
  if (!text.trim()) {
    $("sheets-out").replaceChildren(el("p", { class: "error", "data-testid": "sheets-error" }, "Paste a party or foes file, or upload one, first."));
    return;
  }
  const req = { id: st.id, text, side: $("sheets-side").value, name: sheetsName };
  const n = sheetsAsked;
  $("sheets-out").replaceChildren(el("p", { class: "hint" }, "Reading the file…"));
  try {
    const r = await api("POST", sheetsPath(req, true), { token: st.token, text });
    if (n !== sheetsAsked || !st || st.id !== req.id) return;
    sheetsPending = req;
    showJoining(r);
    $("sheets-add").disabled = false;
  } catch (err) {
    if (n === sheetsAsked) showSheetsRefusal(err, false);
  }
});

$("sheets-add").addEventListener("click", async () => {
  const req = sheetsPending;
  if (!req || !st || st.id !== req.id) return;
  sheetsReset();
  const n = sheetsAsked;
  $("sheets-out").replaceChildren(el("p", { class: "hint" }, "Adding them…"));
  // In turn with the commands this page sends.
  const p = queue.then(() => api("POST", sheetsPath(req, false), { token: st.token, text: req.text }));
  queue = p.catch(() => {});
  try {
    const r = await p;
    if (!st || st.id !== req.id) return;
    addEvents(r.events);
    update(r.revision, r.view);
    if (n !== sheetsAsked) return;
    $("sheets-text").value = "";
    $("sheets-file").value = "";
    sheetsName = "";
    showJoining(r);
    notice("");
  } catch (err) {
    if (n === sheetsAsked) showSheetsRefusal(err, true);
  }
});

// looksLikeSheets reports whether pasted text is a sheet file (YAML or
// JSON) rather than lines of add: its first line is a key, a list item,
// or JSON.
function looksLikeSheets(text) {
  const first = text.split("\n").map((l) => l.trim()).find((l) => l && !l.startsWith("#")) || "";
  return /^([{[]|-(\s|$)|[A-Za-z_][\w-]*\s*:(\s|$))/.test(first);
}

// ---- the GM link ----

function hideGMLink() {
  $("gm-link-box").hidden = true;
  $("gm-link-qr").hidden = true;
  $("gm-link-qr").replaceChildren();
  $("gm-link").value = "";
  $("gm-link-show").setAttribute("aria-expanded", "false");
  $("gm-link-show").textContent = "Show the GM link";
}

$("gm-link-show").addEventListener("click", async () => {
  if (!st) return;
  if (!$("gm-link-box").hidden) {
    hideGMLink();
    return;
  }
  const id = st.id;
  const link = (await linkBase()) + "#" + new URLSearchParams({ e: id, gm: st.token });
  if (!st || st.id !== id) return;
  $("gm-link").value = link;
  $("gm-link-box").hidden = false;
  $("gm-link-show").setAttribute("aria-expanded", "true");
  $("gm-link-show").textContent = "Hide the GM link";
});

$("gm-link-copy").after(qrToggle(() => $("gm-link").value, "GM link", $("gm-link-qr")));
const simClear = simPanel($("sim"), () => st);

$("gm-link-copy").addEventListener("click", async () => {
  const inp = $("gm-link");
  inp.select();
  try {
    await navigator.clipboard.writeText(inp.value);
    notice("GM link copied.", "info");
  } catch (e) {
    if (document.execCommand) document.execCommand("copy");
  }
});

$("import-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = $("import-file").files[0];
  if (!f) return;
  const name = $("import-name").value.trim() || f.name.replace(/\.[^.]*$/, "");
  try {
    const res = await fetch("/api/encounters/import?name=" + encodeURIComponent(name), {
      method: "POST", headers: { "Content-Type": "application/x-ndjson", Accept: "application/json" }, body: await f.text(),
    });
    const r = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error((r.error && r.error.message) || res.statusText);
    hold(r.id, { token: r.token, name: r.name || name, rules: r.rules, created: Date.now() });
    $("import-form").reset();
    location.hash = "e=" + encodeURIComponent(r.id);
  } catch (err) {
    notice(err.message);
  }
});

$("log-download").addEventListener("click", async () => {
  try {
    const res = await fetch("/api/encounters/" + encodeURIComponent(st.id) + "/log", { headers: { Authorization: "Bearer " + st.token } });
    if (!res.ok) throw new Error("The log could not be read (" + res.status + ").");
    const url = URL.createObjectURL(await res.blob());
    const a = el("a", { href: url, download: (st.name || st.id).replace(/[^\w.-]+/g, "-") + ".jsonl" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (err) {
    notice(err.message);
  }
});

// ---- undo, redo, command line, keys ----

$("undo").addEventListener("click", () => run("undo"));
$("redo").addEventListener("click", () => run("redo"));

$("cmd-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const line = $("cmdline").value.trim();
  if (!line) return;
  const r = await run(line);
  $("cmd-out").replaceChildren();
  if (!r) return;
  $("cmdline").value = "";
  renderCompletion();
  showAnswer(line, r);
});

// showAnswer shows below the command line what the server answered to a
// command line: a view, a history, odds, help, or the dice rolled.
function showAnswer(line, r) {
  const out = $("cmd-out");
  out.replaceChildren();
  const word = line.split(/\s+/)[0].toLowerCase();
  const v = r.view || st.view;
  let lines = [];
  if (word === "show") {
    lines = [statusText(v), ...(v.order || []).map((s, i) => i + 1 + ". " + slotText(s))];
    if (v.next && v.next.length) lines.push("Next: " + v.next.map(slotText).join(", "));
  } else if (word === "history") {
    lines = (v.history || []).map((h) => "Round " + h.round + ": " + h.turns.join(", "));
  } else if (r.odds) {
    lines = [oddsText(r.odds)];
    if (r.odds.modifiers && r.odds.modifiers.length) lines.push("modifiers: " + r.odds.modifiers.map((m) => (m.value > 0 ? "+" : "") + m.value + " " + m.source).join(", "));
    if (r.odds.mean !== undefined) lines.push("mean " + Number(r.odds.mean).toFixed(2));
  } else if (word === "help") {
    const d = docOf(st.rules);
    lines = d ? d.commands.map((c) => c.usage + " — " + c.summary) : ["The list of commands has not come from the server yet; try again."];
    if (d && d.dice) lines.push(d.dice.usage + " — " + d.dice.summary);
  } else {
    for (const ev of r.events || []) for (const x of ev.rolls || []) lines.push(rollText(x));
    lines.push(statusText(v));
  }
  for (const l of lines) out.append(el("div", {}, l));
}

// words splits a command line roughly, keeping quoted words together.
function lastWordStart(s) {
  let inQ = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '"') inQ = !inQ;
    else if (s[i] === "\\" && inQ) i++;
    else if (s[i] === " " && !inQ) start = i + 1;
  }
  return start;
}

// candidates returns the words that may complete the last word of line.
// The words come from the server (GET /api/systems): the command words
// first, then combatants' names and what the command's usage says may
// follow it (major, choose=smashing, mod=; add's stats among them).
function candidates(line) {
  const d = docOf(st ? st.rules : "");
  if (!d) loadDocs().catch(() => {});
  const start = lastWordStart(line);
  const word = line.slice(start);
  // The words before this one; odds takes a whole command after it.
  const before = line.slice(0, start).trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (before[0] === "odds") before.shift();
  const first = before[0];
  let all;
  if (!first) {
    all = d ? d.words : [];
  } else {
    const ns = st && st.view ? names(st.view).map(quote) : [];
    const opts = [...((d && d.follow.get(first)) || [])];
    const eq = word.indexOf("=");
    if (eq > 0) {
      const key = word.slice(0, eq + 1);
      all = [...opts.filter((o) => o.startsWith(key) && o !== key), ...ns.map((n) => key + n)];
    } else {
      all = [...ns, ...opts];
    }
  }
  const w = word.toLowerCase();
  return { start, word, list: all.filter((c) => c.toLowerCase().startsWith(w) && c !== word) };
}

function renderCompletion() {
  const inp = $("cmdline");
  const dl = $("cmd-complete");
  const line = inp.value;
  const { start, list } = candidates(line);
  const head = line.slice(0, start);
  const d = docOf(st ? st.rules : "");
  // A command word shows its usage beside it.
  const usage = (c) => (d && !head.trim() ? d.usage.get(c) : undefined);
  dl.replaceChildren(...list.slice(0, 30).map((c) => el("option", { value: head + c, label: usage(c) })));
}

$("cmdline").addEventListener("input", renderCompletion);
$("cmdline").addEventListener("keydown", (e) => {
  if (e.key !== "Tab" || e.shiftKey) return;
  const inp = e.target;
  const line = inp.value;
  const { start, word, list } = candidates(line);
  if (!list.length) return;
  let common = list[0];
  for (const c of list) {
    let i = 0;
    while (i < common.length && i < c.length && common[i].toLowerCase() === c[i].toLowerCase()) i++;
    common = common.slice(0, i);
  }
  if (common.length <= word.length) return;
  e.preventDefault();
  const full = list.length === 1 && !common.endsWith("=");
  inp.value = line.slice(0, start) + common + (full ? " " : "");
  renderCompletion();
});

document.addEventListener("keydown", (e) => {
  const t = e.target;
  if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) {
    if (e.key === "Escape") t.blur();
    return;
  }
  if (!st || $("encounter").hidden) return;
  const ctrl = e.ctrlKey || e.metaKey;
  if (e.altKey) return;
  if ((ctrl && !e.shiftKey && e.key.toLowerCase() === "z") || (!ctrl && e.key === "u")) {
    e.preventDefault();
    run("undo");
  } else if ((ctrl && e.shiftKey && e.key.toLowerCase() === "z") || (ctrl && e.key === "y") || (!ctrl && e.key === "U")) {
    e.preventDefault();
    run("redo");
  } else if (!ctrl && e.key === "n") {
    const btn = document.querySelector('#turn-controls button[data-action="next"]');
    if (btn) {
      e.preventDefault();
      btn.click();
    }
  } else if (!ctrl && e.key === "/") {
    e.preventDefault();
    $("cmdline").focus();
  }
});

// ---- the log ----

function addEvents(evs) {
  if (!st || !evs || !evs.length) return;
  for (const ev of evs) if (typeof ev.seq === "number") st.log.set(ev.seq, ev);
  renderLog();
}

function renderLog() {
  const seqs = [...st.log.keys()].sort((a, b) => b - a).slice(0, 300);
  const items = seqs.map((seq) => {
    const ev = st.log.get(seq);
    return { seq, ev, key: JSON.stringify([seq, ev.type, ev.command, ev.text, ev.detail, ev.data && ev.data.step]) };
  });
  if (!items.length) items.push({ key: "empty" });
  keyed($("log"), items, (it) => it.key, (it) => (it.ev ? logItem(it.seq, it.ev) : el("li", { class: "empty" }, "Nothing yet.")));
}

// logItem draws the log's line of event ev, number seq.
function logItem(seq, ev) {
  const li = el("li", { value: String(seq), "data-seq": String(seq), "data-type": ev.type });
  let what = ev.command || ev.type;
  if ((ev.type === "undo" || ev.type === "redo") && ev.data && ev.data.step) what = ev.type + " (step " + ev.data.step + ")";
  li.append(el("span", { class: "log-cmd" }, what));
  if (ev.command && ev.type) li.append(" ", el("span", { class: "log-type" }, ev.type));
  li.append(toldItem(ev));
  return li;
}

// ---- dice ----

$("dice-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const expr = $("dice-expr").value.trim();
  if (!expr) return;
  const out = $("dice-out");
  try {
    const r = await api("POST", "/api/roll", { body: { expr } });
    // {expr, total, dice: [{face, value, dropped?, rerolled?…}]}
    const dice = (r.dice || []).map((d) => (typeof d === "number" ? String(d) : d.dropped ? "(" + d.face + ")" : String(d.face)));
    out.replaceChildren(
      el("div", { class: "dice-total", "data-testid": "dice-total" }, (r.expr || expr) + " → " + r.total),
      dice.length ? el("div", { class: "hint" }, "dice: " + dice.join(", ") + (dice.some((d) => d.startsWith("(")) ? " (dropped in brackets)" : "")) : "");
  } catch (err) {
    out.textContent = err.message;
  }
});

$("dice-prob").addEventListener("click", async () => {
  const expr = $("dice-expr").value.trim();
  if (!expr) return;
  const out = $("dice-out");
  try {
    const r = await api("GET", "/api/prob?expr=" + encodeURIComponent(expr));
    out.replaceChildren(probTable(r));
  } catch (err) {
    out.textContent = err.message;
  }
});

// probTable shows a distribution: value, chance, and a bar.
function probTable(r) {
  // {expr, mean, sd, min, max, dist: [[value, p], …]}
  const rows = (r.dist || []).map(([value, p]) => ({ value, p }));
  const table = el("table", { class: "prob", "data-testid": "prob" },
    el("caption", {}, (r.expr || "") + (r.mean !== undefined ? " · mean " + Number(r.mean).toFixed(2) : "") + (r.sd !== undefined ? " · sd " + Number(r.sd).toFixed(2) : "")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Total"), el("th", { scope: "col" }, "Chance"), el("th", { scope: "col" }, "At least"),
      el("th", { scope: "col" }, el("span", { class: "visually-hidden" }, "Bar")))));
  const body = el("tbody");
  const max = Math.max(...rows.map((x) => x.p), 1e-9);
  let atLeast = 1;
  for (const x of rows.slice(0, 200)) {
    body.append(el("tr", {}, el("td", {}, String(x.value)), el("td", {}, pct(x.p)), el("td", {}, pct(atLeast)), el("td", {}, bar(x.p / max))));
    atLeast -= x.p;
  }
  table.append(body);
  return table;
}

function bar(frac) {
  const b = el("span", { class: "bar" });
  b.style.width = Math.round(frac * 100) + "%";
  return b;
}

// ---- start ----

setupLargeType($("large-type"));
setupKeys([
  ["n", "next: end the current turn"],
  ["u Ctrl+Z", "undo the last step"],
  ["U Ctrl+Y Ctrl+Shift+Z", "redo the step taken back"],
  ["/", "the command line"],
  ["Tab", "complete a word on the command line"],
  ["Alt+↑ Alt+↓", "move the focused slot of the order of play, where the rules allow (or drag it)"],
]);
loadDocs().catch((err) => notice("The list of commands could not be read: " + err.message + " Completion waits for it."));
function route() {
  const id = encId();
  if (id) {
    if (!st || st.id !== id) openEncounter(id);
  } else {
    showSetup();
  }
}
window.addEventListener("hashchange", () => {
  takeGMKey();
  route();
});
takeGMKey();
route();
