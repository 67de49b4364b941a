// A link to share: the link itself, a button that copies it, and its QR
// code (drawn by the server from the link sent in a request's body, never
// its address, since a seat's link carries the seat's secret).
import { h } from "./dom.js";

export function linkCard(title, url, note = "") {
  const img = h("img", { alt: `QR code of ${title}`, width: 160, height: 160 });
  // A code that cannot be drawn (the link is too long for one, or the
  // server cannot be reached) is told in its place, not left a broken
  // picture: the link below still copies and opens.
  const none = (why) => img.replaceWith(h("p", { class: "small muted qr-none" }, `No QR code: ${why}. Copy or share the link instead.`));
  fetch("/qr", { method: "POST", body: JSON.stringify({ text: url }), headers: { "Content-Type": "application/json" }, credentials: "omit" })
    .then(async (r) => {
      if (r.ok) { img.src = URL.createObjectURL(await r.blob()); return; }
      let why = `the server answered ${r.status}`;
      try { why = (await r.json()).error.message || why; } catch { /* not the API's JSON */ }
      none(why);
    })
    .catch(() => none("the server could not be reached"));
  const [field, copy, done] = copyable(title, url);
  const share = navigator.share ? h("button", { type: "button", onclick: () => navigator.share({ title, url }).catch(() => {}) }, "Share") : null;
  return h("div", { class: "card qr" },
    h("h3", null, title), note ? h("p", { class: "small muted" }, note) : null,
    img, h("div", { class: "row" }, field), h("div", { class: "row" }, copy, share, h("a", { class: "button", href: url, target: "_blank", rel: "noreferrer noopener" }, "open"), done));
}

// copyable is a link in a field, a button that copies it (or selects it
// where the page may not write to the clipboard: a plain-HTTP address on
// the local network), and where the button says which it did.
export function copyable(title, url) {
  const field = h("input", { type: "text", readonly: true, value: url, class: "link", "aria-label": `${title}: the link`, size: 30 });
  const done = h("span", { role: "status", class: "small" });
  const copy = h("button", { type: "button", onclick: async () => {
    try { await navigator.clipboard.writeText(url); done.textContent = "copied"; } catch { field.select(); done.textContent = "selected: copy it"; }
  } }, "Copy");
  return [field, copy, done];
}
