// The GM screen's controls for every command a rule system declares: a
// small form per command, built from its declaration in GET /api/systems
// (its arguments and options, their kinds, choices and bounds), with
// pickers filled from the view (the encounter's combatants, a combatant's
// stats and powers). The form shows the command it builds as it changes,
// sends exactly that text, and, for a command that rolls, shows the odds
// of the roll before it is made. The page keeps no table of commands of
// its own: the declarations are the only source, and the server checks
// every command a form sends.

import { el, quote } from "./fray.js";

// ELSEWHERE are the commands every system shares that the GM screen has
// controls of its own for: the add form, and the undo and redo buttons.
const ELSEWHERE = new Set(["add", "undo", "redo"]);

// ODDS_WAIT is how long the odds wait after the last change of a form
// before they are asked for, in milliseconds: typing a number asks once.
const ODDS_WAIT = 250;

// groupsOf returns the commands a GM's controls offer, in groups: the
// actions of a turn (the commands a player may send, those that roll
// first), then the GM's bookkeeping. Queries (odds, show, help …) are the
// command line's.
//
// For a player (me is their character's name) only the actions their
// token may send show: those that act for a named combatant, and those
// that act for the current one while it is their turn (mine); the server
// decides (see web/actor.go), so a control only saves typing.
export function groupsOf(doc, me, mine) {
  const cmds = ((doc && doc.commands) || []).filter((c) => c.send !== "query" && !ELSEWHERE.has(c.name));
  const acts = cmds.filter((c) => c.send === "current" || c.send === "named");
  const rank = (c) => (c.rolls && !c.answers ? 0 : c.rolls ? 1 : 2);
  acts.sort((a, b) => rank(a) - rank(b));
  if (me) {
    return [{ id: "actions", title: "Actions", commands: acts.filter((c) => c.send === "named" || mine) }];
  }
  return [
    { id: "actions", title: "Actions", commands: acts },
    { id: "gm", title: "GM", commands: cmds.filter((c) => !acts.includes(c)) },
  ];
}

// findDecl returns the declaration of a command of doc named name whose
// arguments are of the kinds given, in order, and which needs nothing
// more (no required option), or null: damage and heal (a combatant and a
// number), clear (a combatant and a condition).
export function findDecl(doc, name, kinds) {
  for (const c of (doc && doc.commands) || []) {
    if (c.name !== name || c.send === "query") continue;
    const args = c.args || [];
    if (args.length !== kinds.length || !args.every((a, i) => a.kind === kinds[i] && !a.repeat)) continue;
    if ((c.opts || []).some((o) => o.required)) continue;
    return c;
  }
  return null;
}

// commandText returns the command line of decl with words, one for each
// of its arguments in order.
export function commandText(decl, words) {
  return [decl.name, ...words.map(quote)].join(" ");
}

// pctShort shows a probability in whole percent, as a short line of odds
// does: "58%", "<1%", ">99%".
export function pctShort(p) {
  if (p <= 0) return "0%";
  if (p >= 1) return "100%";
  if (p < 0.005) return "<1%";
  if (p > 0.995) return ">99%";
  return Math.round(p * 100) + "%";
}

// oddsLine says the odds of a roll in a short line: the dice against
// their target, then each outcome that can happen but the worst, "2d6+5
// vs 12: hit 58% · extreme 33%" (the worst is what is left).
export function oddsLine(o) {
  const bands = (o.bands || []).filter((b) => b.p > 0);
  const shown = bands.length > 1 ? bands.slice(1) : bands;
  let head = o.expr || "";
  if (o.target) head += " vs " + o.target;
  return (head ? head + ": " : "") + shown.map((b) => b.name + " " + pctShort(b.p)).join(" · ");
}

// Controls is the panel of command forms. box is its element; run sends
// a command line (and returns the answer, or null when it was refused),
// ask sends one without changing the page (for odds), say shows a command
// in the command line. With me (a function returning the player's
// character's name) the panel is a player's: their actions only, each
// acting for their character, and a dice field only when the GM lets
// players enter their own dice (player_dice=yes).
export class Controls {
  constructor(box, { run, ask, say, me }) {
    this.box = box;
    this.run = run;
    this.ask = ask;
    this.say = say || (() => {});
    this.me = me || (() => "");
    this.open = ""; // the command whose form is open
    this.values = new Map(); // command → Map(field key → value the GM chose)
    this.more = new Set(); // the commands whose "more" the GM has opened
    this.turn = null; // whose turn the values were chosen in
    this.key = "";
    this.form = null; // the open form: {decl, fields, node, line, send, build}
    this.timer = 0;
    this.asked = 0;
  }

  // render shows the controls of doc for view v, rebuilding them only
  // when what they offer changes (so what the GM is typing stays), and
  // asks the odds again when the encounter has moved on.
  render(doc, v, revision) {
    this.doc = doc;
    this.v = v;
    const moved = revision !== this.revision;
    this.revision = revision;
    const turn = v.current_id || v.current || "";
    if (turn !== this.turn) {
      // A new turn: the pickers start again from whose turn it is.
      this.turn = turn;
      this.values.clear();
    }
    const key = JSON.stringify([doc && doc.id, v.started, turn, this.open, this.me(), v.settings && v.settings.player_dice,
      (v.combatants || []).map((c) => [c.name, c.side, Object.keys(c.stats || {}), (c.powers || []).map((p) => p.name)])]);
    if (key !== this.key) {
      this.key = key;
      this.build();
    } else if (this.form && moved) {
      this.refreshOdds();
    }
  }

  build() {
    const focus = document.activeElement && this.box.contains(document.activeElement) ? document.activeElement.dataset.field || document.activeElement.dataset.command : "";
    this.box.replaceChildren();
    this.form = null;
    clearTimeout(this.timer);
    if (!this.doc) return;
    const me = this.me();
    const mine = !!me && !!this.v.current && this.v.current.toLowerCase() === me.toLowerCase();
    if (me && !this.v.started) return;
    for (const g of groupsOf(this.doc, me, mine)) {
      // Start starts a fight once: gone from the chips once it has.
      const cmds = g.commands.filter((c) => !(c.name === "start" && this.v.started));
      if (!cmds.length) continue;
      const bar = el("div", { class: "chips", role: "group", "aria-labelledby": "cg-" + g.id });
      for (const c of cmds) {
        const on = c.name === this.open;
        bar.append(el("button", {
          type: "button", class: "chip" + (c.rolls ? " rolls" : ""), "aria-pressed": on ? "true" : "false",
          "aria-expanded": on ? "true" : "false", "data-command": c.name, title: c.usage || c.name,
          onclick: () => this.toggle(c.name),
        }, c.name));
      }
      this.box.append(el("div", { class: "cgroup", "data-group": g.id },
        el("h3", { id: "cg-" + g.id }, g.title), bar));
      const open = cmds.find((c) => c.name === this.open);
      if (open) this.box.append(this.formOf(open));
    }
    if (focus) {
      const back = this.box.querySelector(`[data-field="${CSS.escape(focus)}"], [data-command="${CSS.escape(focus)}"]`);
      if (back) back.focus();
    }
    if (this.form) this.changed(false);
  }

  // toggle opens the form of the command name, or closes it if open.
  toggle(name) {
    this.open = this.open === name ? "" : name;
    this.key = "";
    this.render(this.doc, this.v, this.revision);
    if (this.form) this.say(this.form.build().text);
  }

  // formOf returns the form of decl: its arguments in order, its
  // required options, the others under "more", the command it builds,
  // its button and, when it rolls, its odds.
  formOf(decl) {
    const saved = this.values.get(decl.name) || new Map();
    this.values.set(decl.name, saved);
    const fields = [];
    const main = el("div", { class: "fields" });
    const more = el("div", { class: "fields" });
    const onlyOpts = !(decl.args || []).length && !(decl.opts || []).some((o) => o.required);
    const used = []; // the combatants the arguments so far name by default
    let owner = null; // the field naming whose stats and powers the next picker offers
    let actor = null;
    (decl.args || []).forEach((p, i) => {
      const whose = owner; // the combatant argument before this one
      const f = this.field(decl, p, "arg" + i, !p.optional, saved, used, () => whose, !!p.actor && !!this.me());
      if (p.kind === "combatant" && !p.repeat) {
        owner = f;
        if (!actor) actor = f;
      }
      fields.push({ ...f, arg: p });
      main.append(f.node);
    });
    (decl.opts || []).forEach((p) => {
      const f = this.field(decl, p, "opt-" + p.name, !!p.required, saved, used, () => actor);
      fields.push({ ...f, opt: p });
      (p.required || onlyOpts ? main : more).append(f.node);
    });
    // The dice rolled at the table (dice=6,3 or roll=9), on any command
    // that rolls, as the system's dice declaration says: the GM's always,
    // a player's when the GM lets them.
    const dice = this.doc && this.doc.dice;
    const playerDice = this.v.settings && this.v.settings.player_dice === "yes";
    if (decl.rolls && dice && !(decl.opts || []).some((o) => o.name === "dice") && (!this.me() || playerDice)) {
      const p = { name: "dice", kind: "text", hint: "6,3", help: dice.summary };
      const f = this.field(decl, p, "opt-dice", false, saved, used, () => actor);
      fields.push({ ...f, opt: p, noOdds: true });
      more.append(f.node);
    }
    const build = (odds) => built(decl, fields, odds);
    const line = el("output", { class: "built", "data-testid": "built", "aria-live": "polite" });
    const send = el("button", { type: "submit", class: "primary", "data-action": "send", "data-command": decl.name }, decl.rolls ? "Roll" : "Send");
    const odds = decl.rolls ? el("output", { class: "odds-line", "data-testid": "odds", "data-state": "none", "aria-live": "polite" }) : null;
    const f = {};
    const form = el("form", {
      class: "cmdf", "data-command": decl.name, "data-testid": "command-form-" + decl.name, "aria-label": decl.name + ": " + (decl.summary || ""),
      onsubmit: async (e) => {
        e.preventDefault();
        const b = build();
        if (!b.fits) return;
        this.say(b.text);
        // No odds asked from now on are shown: the roll is made.
        clearTimeout(this.timer);
        this.asked++;
        f.sig = "sent";
        send.disabled = true;
        let r = null;
        try {
          r = await this.run(b.text);
        } finally {
          send.disabled = false;
        }
        // Done: the form closes (what it rolled shows in the log and
        // below the command line), and asks no more odds of a command
        // the turn may no longer allow.
        if (r && this.open === decl.name) this.toggle(decl.name);
      },
    }, el("p", { class: "hint summary", title: decl.summary || undefined }, decl.summary || ""), main);
    if (more.childElementCount) {
      const d = el("details", { class: "more", "data-testid": "more", open: this.more.has(decl.name) || undefined }, el("summary", {}, "more"), more);
      d.addEventListener("toggle", () => (d.open ? this.more.add(decl.name) : this.more.delete(decl.name)));
      form.append(d);
    }
    form.append(el("div", { class: "sendrow" }, send, odds, line));
    form.addEventListener("input", (e) => this.edited(e));
    form.addEventListener("change", (e) => this.edited(e));
    this.form = Object.assign(f, { decl, fields, node: form, line, send, odds, build });
    return form;
  }

  // edited keeps what the GM chose, so that a redraw keeps it, and shows
  // the command as it now stands.
  edited(e) {
    const t = e.target;
    if (!this.form || !t.dataset || !t.dataset.field) return;
    const saved = this.values.get(this.form.decl.name);
    saved.set(t.dataset.field, t.multiple ? [...t.selectedOptions].map((o) => o.value) : t.value);
    for (const f of this.form.fields) if (f.refill) f.refill();
    this.changed(true);
  }

  // changed shows the command the form builds (in the form and on the
  // command line when say), whether it fits, and asks for its odds.
  changed(say) {
    const f = this.form;
    const b = f.build();
    f.line.textContent = b.text;
    f.send.disabled = !b.fits;
    f.node.dataset.fits = String(b.fits);
    f.node.dataset.text = b.text;
    if (say) this.say(b.text);
    this.refreshOdds();
  }

  // refreshOdds asks for the odds of the open form's command, once the
  // form has been still for ODDS_WAIT, unless they were asked already for
  // the same command at the same revision; only the last answer shows.
  refreshOdds() {
    const f = this.form;
    if (!f || !f.odds || f.sig === "sent") return;
    const b = f.build(true);
    const sig = b.text + "@" + this.revision;
    if (sig === f.sig) return;
    f.sig = sig;
    clearTimeout(this.timer);
    const n = ++this.asked;
    if (!b.fits) {
      f.odds.textContent = b.why || "";
      f.odds.dataset.state = "none";
      delete f.odds.dataset.for;
      return;
    }
    f.odds.dataset.state = "pending";
    this.timer = setTimeout(async () => {
      let text, state, title = "";
      try {
        const r = await this.ask("odds " + b.text);
        if (!r || !r.odds) throw new Error("The server gave no odds for this command.");
        text = oddsLine(r.odds);
        title = (r.odds.modifiers || []).map((m) => (m.value >= 0 ? "+" : "") + m.value + " " + m.source).join(", ");
        state = "ready";
      } catch (err) {
        // A player's odds the GM keeps (they would give an NPC's numbers
        // away) are refused: the line says so, and the roll is still theirs.
        text = err.message;
        state = err.status === 403 ? "kept" : "error";
      }
      if (n !== this.asked || this.form !== f) return;
      f.odds.textContent = text;
      f.odds.title = title;
      f.odds.dataset.state = state;
      f.odds.dataset.for = b.text;
    }, ODDS_WAIT);
  }

  // field returns the control of one argument or option p of decl:
  // {node, key, get(), refill?}. required says the word must be given;
  // used holds the combatants named by default so far; owner returns the
  // field whose combatant's stats and powers a picker offers.
  field(decl, p, key, required, saved, used, owner, self) {
    const v = this.v;
    const label = (p.help ? p.name + " — " + p.help : p.name);
    const names = (v.combatants || []).map((c) => c.name);
    const attrs = { "data-field": key, "data-param": p.name, "aria-label": decl.name + " " + label, required: required || undefined };
    const had = saved.get(key);
    const wrap = (ctl) => el("label", { class: "fld" + (p.kind === "number" ? " numf" : "") }, el("span", {}, p.name.toLowerCase()), ctl);
    const select = (opts, { multiple, blank, pick } = {}) => {
      const s = el("select", { ...attrs, multiple: multiple || undefined });
      if (blank !== undefined && !multiple) s.append(el("option", { value: "" }, blank));
      for (const o of opts) s.append(el("option", { value: o }, o));
      const want = had !== undefined ? had : pick;
      if (multiple) {
        for (const o of s.options) o.selected = Array.isArray(want) && want.includes(o.value);
      } else if (want !== undefined && opts.includes(want)) {
        s.value = want;
      }
      return s;
    };
    const input = (type, extra = {}) => {
      const i = el("input", { ...attrs, type, placeholder: p.hint || p.default || undefined, ...extra });
      if (p.choices && p.choices.length) {
        const id = "dl-" + decl.name + "-" + key;
        i.setAttribute("list", id);
        i._list = el("datalist", { id }, ...p.choices.map((c) => el("option", { value: c })));
      }
      if (had !== undefined) i.value = had;
      return i;
    };
    const wordsOf = (ctl) => (ctl.multiple ? [...ctl.selectedOptions].map((o) => o.value) : ctl.value.trim() === "" ? [] : [ctl.value.trim()]);
    let ctl;
    let refill;
    let stale = () => false;
    switch (p.kind) {
      case "combatant": {
        let pick;
        if (self) {
          // A player's command acts for their own character, named even
          // where the word may be left out (take: a player must name them).
          const me = names.find((n) => n.toLowerCase() === this.me().toLowerCase()) || this.me();
          used.push(me);
          ctl = select([me], { blank: required ? undefined : "—", pick: me });
          break;
        }
        if (required && !p.repeat) {
          const cur = v.current && names.includes(v.current) ? v.current : "";
          pick = !used.length && cur ? cur : names.find((n) => !used.includes(n)) || names[0];
          if (used.length) {
            // A second combatant: someone on another side than the first, if any.
            const first = (v.combatants || []).find((c) => c.name === used[0]);
            const other = (v.combatants || []).find((c) => first && c.side !== first.side && !used.includes(c.name));
            if (other) pick = other.name;
          }
          used.push(pick);
        }
        ctl = select(names, { multiple: p.repeat, blank: required ? undefined : "—", pick });
        break;
      }
      case "choice": {
        let blank;
        if (!required || (p.repeat && p.optional)) {
          const now = decl.name === "set" && v.settings ? v.settings[p.name] : undefined;
          blank = now ? "(now " + now + ")" : p.default ? "(" + p.default + ")" : "—";
        }
        ctl = select(p.choices || [], { multiple: p.repeat, blank, pick: required ? (p.choices || [])[0] : undefined });
        break;
      }
      case "number": {
        if (p.choices && p.choices.length) {
          ctl = input("text", { inputmode: "numeric" });
        } else {
          const extra = { step: "1", inputmode: "numeric" };
          if (p.max > p.min) Object.assign(extra, { min: String(p.min), max: String(p.max) });
          ctl = input("number", extra);
          ctl.classList.add("num");
        }
        break;
      }
      case "stat":
      case "power": {
        // What the combatant has, when the view says; else any word.
        const known = () => {
          const o = owner();
          const c = o && (v.combatants || []).find((x) => x.name === o.get()[0]);
          if (!c) return [];
          if (p.kind === "power") return (c.powers || []).map((x) => x.name);
          const mine = Object.keys(c.stats || {});
          const allowed = mine.filter((s) => !(p.choices && p.choices.length) || p.choices.includes(s));
          return allowed.length ? allowed : mine;
        };
        const list = known();
        // A choice the combatant named before it does not have (the
        // attacker changed) is not asked the odds of.
        stale = () => {
          const now = known();
          return !!ctl.value && now.length > 0 && !now.includes(ctl.value);
        };
        if (list.length) {
          ctl = select(list, { blank: required ? undefined : "—" });
          refill = () => {
            const now = known();
            const was = ctl.value;
            if (now.length && JSON.stringify(now) !== JSON.stringify([...ctl.options].map((o) => o.value).filter(Boolean))) {
              ctl.replaceChildren(...(required ? [] : [el("option", { value: "" }, "—")]), ...now.map((o) => el("option", { value: o }, o)));
              if (now.includes(was)) ctl.value = was;
            }
          };
        } else {
          ctl = input("text", { autocomplete: "off", spellcheck: "false" });
        }
        break;
      }
      default:
        ctl = input("text", { autocomplete: "off", spellcheck: "false" });
    }
    const node = wrap(ctl);
    if (ctl._list) node.append(ctl._list);
    return { node, key, ctl, get: () => wordsOf(ctl), refill, stale, param: p, required, numeric: p.kind === "number" && !(p.choices && p.choices.length) };
  }
}

// built returns the command a form's fields make, {text, fits, why}:
// its word, the arguments given (optional ones only as a run from the
// left, as the server fills them) and the options given. fits is false
// while a required word is missing, a number is out of its bounds, or an
// optional argument is given after one left out. For odds, the fields
// that only say how the roll came out (the dice) are left out, and the
// command fits only once it names what its roll is between: every
// combatant argument of a command that takes two or more (an attacker
// and a target, both, even where the current one may be left out), and
// no power or stat its combatant lacks; a half-filled form asks no odds
// the server would refuse.
function built(decl, fields, odds) {
  const words = [decl.name];
  let fits = true;
  let why = "";
  let gap = "";
  const between = fields.filter((f) => f.arg && f.param.kind === "combatant").length > 1;
  for (const f of fields) {
    if (odds && f.noOdds) continue;
    const ws = f.get();
    const p = f.param;
    if (odds && ((between && f.arg && p.kind === "combatant" && !ws.length) || f.stale())) {
      fits = false;
      why = why || "give " + p.name.toLowerCase() + " for the odds";
    }
    if (f.ctl.validity && !f.ctl.validity.valid && ws.length) {
      fits = false;
      why = why || p.name.toLowerCase() + " " + (p.max > p.min ? "is from " + p.min + " to " + p.max : "is not a number");
    }
    if (f.arg) {
      if (!ws.length) {
        if (!p.optional) {
          fits = false;
          why = why || "give " + p.name.toLowerCase();
        } else if (!gap) {
          gap = p.name.toLowerCase();
        }
        continue;
      }
      if (p.optional && gap) {
        fits = false;
        why = why || "give " + gap + " too";
      }
      words.push(...ws.map(quote));
    } else {
      if (!ws.length) {
        if (p.required) {
          fits = false;
          why = why || "give " + p.name;
        }
        continue;
      }
      words.push(p.name + "=" + quote(ws.join(",")));
    }
  }
  return { text: words.join(" "), fits, why };
}
