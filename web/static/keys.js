// The page's keys and its light or dark look: a `?` overlay that lists
// the keys the page answers to, and a toggle that sets light or dark over
// what the system prefers, kept in localStorage. Both pages load it; each
// says which keys it has.

import { el } from "./fray.js";

// THEMES are the looks the toggle steps through: the system's (no choice
// kept), then light, then dark.
const THEMES = ["", "light", "dark"];
const THEME_LABEL = { "": "Theme: system", light: "Theme: light", dark: "Theme: dark" };

// applyTheme sets the look on the page: data-theme on <html>, which the
// stylesheet reads before the system's preference.
function applyTheme(btn, theme) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  if (btn) {
    btn.textContent = THEME_LABEL[theme];
    btn.dataset.theme = theme || "system";
    btn.setAttribute("aria-label", THEME_LABEL[theme] + " (click for the next)");
  }
}

// storedTheme returns the look kept in this browser, "" for the system's.
function storedTheme() {
  const t = localStorage.getItem("fray.theme") || "";
  return THEMES.includes(t) ? t : "";
}

// setupKeys adds the theme toggle to the top bar and the `?` overlay of
// keys, each key given as [keys, what it does]. `?` opens the overlay
// (outside a text field), Escape or its button closes it.
export function setupKeys(keys) {
  const bar = document.querySelector(".topbar");
  const theme = el("button", { type: "button", class: "toggle", id: "theme", "data-testid": "theme" });
  theme.addEventListener("click", () => {
    const next = THEMES[(THEMES.indexOf(storedTheme()) + 1) % THEMES.length];
    if (next) localStorage.setItem("fray.theme", next);
    else localStorage.removeItem("fray.theme");
    applyTheme(theme, next);
  });
  applyTheme(theme, storedTheme());
  const help = el("button", { type: "button", class: "toggle", id: "keys-open", "data-testid": "keys-open", "aria-keyshortcuts": "?", "aria-label": "Keys (?)" }, "?");
  if (bar) bar.append(theme, help);

  const all = [...keys, ["?", "this list of keys"], ["Escape", "close this list; leave a text field"]];
  const close = el("button", { type: "button", class: "small", "data-testid": "keys-close" }, "Close");
  const box = el("div", { class: "keys-overlay", id: "keys", role: "dialog", "aria-modal": "true", "aria-labelledby": "keys-h", "data-testid": "keys", hidden: true },
    el("div", { class: "keys-box panel" },
      el("h2", { id: "keys-h" }, "Keys"),
      el("dl", { class: "keys-list" }, ...all.map(([k, what]) => el("div", { "data-key": k },
        el("dt", {}, ...k.split(" ").map((x, i) => [i ? " " : "", el("kbd", {}, x)]).flat()),
        el("dd", {}, what)))),
      close));
  document.body.append(box);
  let back = null;
  const show = (on) => {
    if (on) {
      back = document.activeElement;
      box.hidden = false;
      close.focus();
    } else {
      box.hidden = true;
      if (back && back.focus) back.focus();
    }
  };
  help.addEventListener("click", () => show(true));
  close.addEventListener("click", () => show(false));
  box.addEventListener("click", (e) => { if (e.target === box) show(false); });
  document.addEventListener("keydown", (e) => {
    if (!box.hidden) {
      if (e.key === "Escape") {
        e.preventDefault();
        show(false);
      }
      return;
    }
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      show(true);
    }
  });
}
