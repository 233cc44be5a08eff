// The "Simulate from here" panel of the GM screen: it asks the server to
// play the encounter from its live state to the end many times (POST
// /api/encounters/{id}/sim, as fray sim does) and shows each side's
// chance to win with its 95% interval and a bar, the share unfinished,
// and how many rounds the fights lasted as a histogram, each fight cut
// off after the rounds asked for (100 unless changed); with "Solve
// exactly" ticked, each side's exact chance beside it too ("exact": true,
// as fray sim --exact), or why the fight is too big for that. The
// encounter itself is not changed.
import { el, pct } from "./fray.js";

// sideNames are the words the panel gives the sides fray knows.
const sideNames = { pc: "Party", npc: "Foes" };

// maxBins is the most bars the rounds histogram draws; a longer
// distribution is drawn in bins of several rounds.
const maxBins = 16;

// bar returns a horizontal bar filled to the share p (0 to 1).
function bar(p, label) {
  const fill = el("span", { class: "sim-fill" });
  fill.style.cssText = "display:block;height:100%;background:var(--accent);width:" + (Math.max(0, Math.min(1, p)) * 100).toFixed(1) + "%";
  const box = el("span", { class: "sim-bar", role: "img", "aria-label": label }, fill);
  box.style.cssText = "display:inline-block;vertical-align:middle;width:6rem;max-width:30%;height:0.8rem;border:1px solid var(--line);margin:0 0.5rem";
  return box;
}

// histogram returns the rounds distribution ([rounds, share] pairs) as
// columns of bars, the tallest full height.
function histogram(dist) {
  const box = el("div", { class: "sim-hist", "data-testid": "sim-hist", role: "list", "aria-label": "Rounds the fights lasted" });
  box.style.cssText = "display:flex;align-items:flex-end;gap:2px;height:5rem;margin:0.25rem 0";
  if (!dist.length) return box;
  const lo = dist[0][0], hi = dist[dist.length - 1][0];
  const width = Math.max(1, Math.ceil((hi - lo + 1) / maxBins));
  const bins = [];
  for (let from = lo; from <= hi; from += width) bins.push({ from, to: Math.min(hi, from + width - 1), p: 0 });
  for (const [r, p] of dist) bins[Math.floor((r - lo) / width)].p += p;
  const top = Math.max(...bins.map((b) => b.p));
  for (const b of bins) {
    const label = b.from === b.to ? String(b.from) : b.from + "–" + b.to;
    const col = el("div", { class: "sim-col", role: "listitem", "data-rounds": label, "data-p": String(b.p), title: label + " rounds: " + pct(b.p), "aria-label": label + " rounds: " + pct(b.p) });
    col.style.cssText = "flex:1;min-width:4px;background:var(--accent);height:" + (top > 0 ? (b.p / top) * 100 : 0).toFixed(1) + "%";
    box.append(col);
  }
  const axis = el("div", { class: "hint" }, "Rounds " + lo + " to " + hi);
  return el("div", {}, box, axis);
}

// exactPct shows an exact chance to three decimals of a percent, as fray
// sim --exact prints it.
function exactPct(p) {
  return (Math.max(0, p) * 100).toFixed(3) + "%";
}

// exactly returns the words of an exact chance p, or nothing when the
// answer has none.
function exactly(p) {
  if (typeof p !== "number") return [];
  return [" ", el("span", { class: "sim-exact", "data-testid": "sim-exact-win", "data-p": String(p) }, "exactly " + exactPct(p))];
}

// render fills out with a simulation's answer (the object fray sim
// --json prints, with --exact when asked) from the encounter at revision
// rev, its fights cut off after cap rounds.
function render(out, r, rev, cap) {
  const sides = r.sides.map((s) => el("li", { "data-testid": "sim-side", "data-side": s.side, "data-win": String(s.win) },
    el("strong", {}, sideNames[s.side] || s.side), " ",
    el("span", { class: "sim-win" }, pct(s.win)),
    bar(s.win, (sideNames[s.side] || s.side) + " wins " + pct(s.win)),
    el("span", { class: "hint" }, "95%: " + pct(s.ci95[0]) + "–" + pct(s.ci95[1])),
    ...exactly(s.exact_win)));
  const unfinished = el("li", { "data-testid": "sim-unfinished", "data-p": String(r.unfinished) },
    "Unfinished: ", pct(r.unfinished), ...exactly(r.exact_unfinished));
  const why = r.exact_why ? [el("p", { class: "hint", "data-testid": "sim-exact-why" }, "Not worked out exactly: " + r.exact_why)] : [];
  out.replaceChildren(
    el("p", { class: "hint" }, r.fights + " fights from revision " + rev + " (seed " + r.seed + "), " + cap + " rounds at most. Rounds: mean " + r.rounds.mean.toFixed(1) + ", median " + r.rounds.median + "."),
    el("ul", { class: "sim-sides" }, ...sides, unfinished),
    ...why,
    histogram(r.rounds.dist));
}

// simPanel fills holder with the panel; current() returns the encounter
// on screen ({id, token, revision}) or null. It returns a function that
// clears the panel, for the page to call when another encounter opens:
// what was simulated from one encounter is never shown beside another,
// and a simulation still running when it is called shows nothing.
export function simPanel(holder, current) {
  const fights = el("input", { type: "number", min: "1", value: "1000", step: "100", "data-testid": "sim-fights", "aria-label": "Number of fights" });
  fights.style.width = "6rem";
  const rounds = el("input", { type: "number", min: "1", max: "10000", value: "100", "data-testid": "sim-rounds", "aria-label": "Rounds at most" });
  rounds.style.width = "5rem";
  const exact = el("input", { type: "checkbox", "data-testid": "sim-exact" });
  const run = el("button", { type: "button", class: "small", "data-testid": "sim-run" }, "Simulate");
  const out = el("div", { "data-testid": "sim-out", "aria-live": "polite" });
  holder.replaceChildren(
    el("p", { class: "hint" }, "How the fight is likely to go from here, played to the end many times by the rules. Nothing in the encounter changes."),
    el("div", { class: "row" }, el("label", {}, "Fights ", fights),
      el("label", { title: "A fight still going after this many rounds counts as unfinished." }, "Rounds at most ", rounds),
      el("label", { title: "Also work out each side's chance exactly, following every way each roll can fall: for a small fight (a duel, or two against one, with short tracks)." }, exact, " Solve exactly"),
      run),
    out);
  let asked = 0;
  run.addEventListener("click", async () => {
    const enc = current();
    if (!enc) return;
    const n = ++asked, rev = enc.revision, cap = Number(rounds.value) || 100;
    run.disabled = true;
    out.dataset.state = "running";
    out.replaceChildren(el("p", { class: "hint" }, exact.checked ? "Simulating, and solving exactly…" : "Simulating…"));
    try {
      const res = await fetch("/api/encounters/" + encodeURIComponent(enc.id) + "/sim", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer " + enc.token },
        body: JSON.stringify({ fights: Number(fights.value) || 1000, rounds: cap, exact: exact.checked }),
      });
      const r = await res.json().catch(() => ({}));
      if (n !== asked) return;
      if (!res.ok) throw new Error((r.error && r.error.message) || "The simulation failed (" + res.status + ").");
      render(out, r, rev, cap);
      out.dataset.state = "done";
    } catch (err) {
      if (n !== asked) return;
      out.replaceChildren(el("p", { class: "hint warn", "data-testid": "sim-error" }, err.message));
      out.dataset.state = "failed";
    } finally {
      if (n === asked) run.disabled = false;
    }
  });
  return () => {
    asked++;
    run.disabled = false;
    delete out.dataset.state;
    out.replaceChildren();
  };
}
