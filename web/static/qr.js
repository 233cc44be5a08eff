// The QR code of a link, drawn by the server (POST /api/qr) and shown
// under it, for a player's phone camera: a QR button toggles it.
import { el } from "./fray.js";

// qrToggle returns a "QR" button that shows, in holder, the code of
// link() (a function, so the link may change), titled title.
export function qrToggle(link, title, holder) {
  const btn = el("button", { type: "button", class: "small", "aria-expanded": "false", "aria-label": "Show the QR code of the " + title, "data-action": "qr" }, "QR");
  btn.addEventListener("click", async () => {
    if (!holder.hidden && holder.firstChild) {
      holder.hidden = true;
      holder.replaceChildren();
      btn.setAttribute("aria-expanded", "false");
      return;
    }
    let res;
    try {
      res = await fetch("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: link(), title }) });
    } catch (e) {
      holder.replaceChildren(el("span", { class: "hint" }, "The server cannot be reached for the QR code."));
      holder.hidden = false;
      return;
    }
    if (!res.ok) {
      let msg = "The QR code could not be made.";
      try { msg = (await res.json()).error.message || msg; } catch (e) { /* keep the plain message */ }
      holder.replaceChildren(el("span", { class: "hint" }, msg));
      holder.hidden = false;
      return;
    }
    const svg = await res.text();
    holder.replaceChildren(el("img", { class: "qr", alt: "QR code of the " + title, "data-testid": "qr", src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg) }));
    holder.hidden = false;
    btn.setAttribute("aria-expanded", "true");
  });
  return btn;
}
