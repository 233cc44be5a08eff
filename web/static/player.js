// The player view: the live order of play, whose turn it is, the player's
// own character and the actions that character may take. The player's key
// comes in the link (/play/ID#token=…), is kept in localStorage and is
// taken out of the address at once, so that it stays out of the address
// bar, the history and a shared screen; a refresh loses nothing. The
// server sends a player's view only: hidden combatants never reach this
// page.

import {
  api, el, quote, statusText, renderOrder, renderHistory, combatantCard,
  setupLargeType, notice, button, Live, CONN_LABEL, keepFocus, systemDocs,
} from "./fray.js";
import { system } from "./systems.js";
import { Controls } from "./controls.js";
import { setupKeys } from "./keys.js";
import { TellLog, loadTold } from "./log.js";

const $ = (id) => document.getElementById(id);

const id = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const hashParams = new URLSearchParams(location.hash.slice(1));
const hashToken = hashParams.get("token");
const key = "fray.player." + id;
if (hashToken) {
  localStorage.setItem(key, hashToken);
  hashParams.delete("token");
  const rest = hashParams.toString();
  history.replaceState(history.state, "", location.pathname + location.search + (rest ? "#" + rest : ""));
}
const token = hashToken || localStorage.getItem(key) || "";

const st = { revision: -1, view: null, me: "", rules: "", name: "" };
let queue = Promise.resolve();

// docs holds the rule systems the server runs, once GET /api/systems has
// answered (see systemDocs): the buttons and forms of each. Until then
// the page shows none of the system's own.
let docs = null;

// loadDocs asks the server for the rule systems (once; again only after a
// failure) and shows the system's buttons once they come.
function loadDocs() {
  return systemDocs().then((m) => {
    if (docs) return docs;
    docs = m;
    if (st.view) keepFocus(render);
    return docs;
  });
}

// refresh fetches the whole view. It waits for the rule systems first,
// so that the page shows the system's buttons from the start.
async function refresh() {
  if (!docs) await loadDocs().catch((err) => notice("The buttons of the rules could not be read: " + err.message + " The page asks again when it reconnects."));
  const r = await api("GET", "/api/encounters/" + encodeURIComponent(id), { token });
  st.me = r.combatant || st.me;
  st.rules = r.rules || st.rules;
  st.name = r.name || st.name;
  update(r.revision, r.view, true);
  loadTold(id, token).then((evs) => told.add(evs)).catch(() => { /* the log is a nicety */ });
}

// update shows a view at a revision, unless a newer one is already shown
// (or the same one, but for a refresh).
function update(revision, view, refreshing) {
  if (!view || revision < st.revision || (revision === st.revision && !refreshing)) return;
  st.revision = revision;
  st.view = view;
  if (view.rules) st.rules = view.rules;
  keepFocus(render);
}

function run(cmd) {
  const p = queue.then(() => post(cmd));
  queue = p.catch(() => {});
  return p;
}

async function post(cmd) {
  try {
    const r = await api("POST", "/api/encounters/" + encodeURIComponent(id) + "/commands", {
      token,
      body: { command: cmd, revision: Math.max(st.revision, 0) },
    });
    update(r.revision, r.view);
    notice("");
    return r;
  } catch (err) {
    if (err.status === 409) {
      await refresh().catch(() => {});
      notice("The table moved on first; this is how it stands now. Nothing was done: try again.");
    } else {
      notice(err.message);
    }
    return null;
  }
}

// ask posts a command that changes nothing (the odds of a form's
// command) and returns the answer; a refusal is thrown. A stale revision
// is asked again once at the revision the server gives.
async function ask(cmd) {
  const path = "/api/encounters/" + encodeURIComponent(id) + "/commands";
  try {
    return await api("POST", path, { token, body: { command: cmd, revision: Math.max(st.revision, 0) } });
  } catch (err) {
    if (err.status !== 409 || typeof err.revision !== "number") throw err;
    return api("POST", path, { token, body: { command: cmd, revision: err.revision } });
  }
}

// controls are the forms of the commands the player's character may send
// (their declarations say which), with the odds of each roll before it.
const controls = new Controls($("controls"), { run, ask, me: () => st.me });

function render() {
  const v = st.view;
  const sys = system(docs && docs.get(st.rules));
  const me = st.me;
  document.body.dataset.revision = String(st.revision);
  $("main").dataset.revision = String(st.revision);
  $("enc-title").textContent = st.name + (me ? " · " + me : "");
  const mine = v.started && v.current && v.current.toLowerCase() === me.toLowerCase();
  document.title = (mine ? "Your turn · " : v.current ? v.current + " · " : "") + st.name + " — fray";
  $("turn").classList.toggle("yours", !!mine);
  $("whose").textContent = !v.started ? "Waiting for the GM to start." : mine ? "Your turn, " + me + "!" : v.current ? v.current + "'s turn" : "Round " + v.round + ": wait for your turn";
  $("status").textContent = statusText(v);

  // Actions: the turn's when it is this character's, and those on any of
  // this character's slots (interrupt with a delayed turn, force, react…).
  const box = $("actions");
  box.replaceChildren();
  const seen = new Set();
  const add = (a) => {
    if (seen.has(a.action)) return;
    seen.add(a.action);
    const btn = button(a, run, me);
    if (a.action === "next") btn.classList.add("primary");
    box.append(btn);
  };
  if (v.started) {
    if (mine) for (const a of sys.turn(v)) add(a);
    for (const s of v.order || []) {
      if (s.name.toLowerCase() === me.toLowerCase()) for (const a of sys.row(s, v)) add(a);
    }
  }
  if (!box.children.length) box.append(el("p", { class: "hint" }, v.started ? "Nothing to do until your turn." : "The order of play appears when the fight starts."));
  renderForms(sys, v, mine);
  controls.render(docs && docs.get(st.rules), v, st.revision);
  $("controls-panel").hidden = !$("controls").childElementCount;

  renderOrder($("order"), v.order, { me });
  $("next-h").hidden = !(v.next && v.next.length);
  renderOrder($("next-round"), v.next || [], { me });
  if (!(v.next && v.next.length)) $("next-round").replaceChildren();
  renderHistory($("history"), v.history);
  if (!(v.history || []).length) $("history").append(el("li", { class: "empty" }, "No turns yet."));

  const c = (v.combatants || []).find((x) => x.name.toLowerCase() === me.toLowerCase());
  $("me").replaceChildren(c ? combatantCard(c, { round: v.round }) : el("p", { class: "hint" }, me ? me + " is not in the encounter." : ""));
  // The others, as the server lets a player see them: an NPC's health as
  // a band, never its track.
  const others = (v.combatants || []).filter((x) => x !== c);
  $("others").replaceChildren(...others.map((x) => combatantCard(x, { round: v.round })));
  if (!others.length) $("others").append(el("p", { class: "hint" }, "Nobody else yet."));
}

function renderForms(sys, v, mine) {
  const box = $("forms");
  const k = JSON.stringify([st.rules, sys.forms, mine, v.current, (v.combatants || []).map((c) => c.name)]);
  if (box.dataset.key === k) return;
  box.dataset.key = k;
  box.replaceChildren();
  if (!mine) return;
  if ((sys.forms || []).includes("move")) {
    const inches = el("input", { type: "number", min: "1", step: "1", value: "5", class: "num", "aria-label": "Inches to move", "data-testid": "move-inches" });
    box.append(el("form", { class: "mini", onsubmit: (e) => { e.preventDefault(); run("move " + inches.value); } },
      el("span", {}, "Move"), inches, el("span", {}, "inches"), el("button", { type: "submit", "data-action": "move" }, "Move")));
  }
  if ((sys.forms || []).includes("attack")) {
    const target = el("select", { "aria-label": "Target of the attack", "data-testid": "attack-target" });
    for (const c of v.combatants || []) if (c.name !== st.me) target.append(el("option", { value: c.name }, c.name));
    box.append(el("form", { class: "mini", onsubmit: (e) => { e.preventDefault(); run("attack " + quote(target.value)); } },
      el("span", {}, "Attack"), target, el("button", { type: "submit", "data-action": "attack-target" }, "Attack")));
  }
}

setupLargeType($("large-type"));
setupKeys([["Tab", "move between your commands and their fields"], ["Enter", "send the focused form or press the focused button"]]);
const told = new TellLog($("log"));

if (!id || !token) {
  $("whose").textContent = "This page needs the link the GM gave you (it ends in #token=…).";
} else {
  refresh().catch((err) => {
    $("whose").textContent = err.status === 401 || err.status === 403 || err.status === 404
      ? "This link does not open an encounter (" + err.message + ")." : "Cannot reach the table yet; retrying…";
  });
  new Live("/api/encounters/" + encodeURIComponent(id) + "/events?token=" + encodeURIComponent(token), {
    onChange: (d) => { update(d.revision, d.view); told.add(d.events); },
    onReconnect: () => refresh().catch((err) => notice(err.message)),
    onState: (s) => {
      $("conn").textContent = CONN_LABEL[s] || s;
      $("conn").dataset.state = s;
    },
  });
}
