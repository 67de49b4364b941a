// Small helpers to build the pages' DOM: h() makes an HTML element, svg()
// an SVG one. Attributes whose name starts with "on" are listeners; value,
// checked, disabled, hidden and selected are set as properties; a child may
// be a node, a string, a number, an array of children, or null.

const properties = new Set(["value", "checked", "disabled", "hidden", "selected", "indeterminate"]);

function build(el, attrs, kids) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (properties.has(k)) el[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, kids);
  return el;
}

// append adds children to el.
export function append(el, kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

// h makes an HTML element.
export function h(tag, attrs, ...kids) {
  return build(document.createElement(tag), attrs, kids);
}

// svg makes an SVG element.
export function svg(tag, attrs, ...kids) {
  return build(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, kids);
}

// replace empties el and puts kids in it.
export function replace(el, ...kids) {
  el.replaceChildren();
  return append(el, kids);
}

// $ finds one element.
export function $(sel, root = document) {
  return root.querySelector(sel);
}

// num writes a number for people: thousands apart, at most two decimals.
export function num(x) {
  if (typeof x !== "number") return String(x ?? "");
  return x.toLocaleString("en", { maximumFractionDigits: 2 });
}

// signed writes a number with its sign, in a span whose class and sign
// say whether it is above or below 0 (never the colour alone).
export function signed(x) {
  const cls = x > 0 ? "pos" : x < 0 ? "neg" : "";
  return h("span", { class: cls }, x > 0 ? "+" + num(x) : x < 0 ? "−" + num(-x) : "0");
}

// table makes a table of a head and rows of cells; a row may be
// {cells, class}.
export function table(head, rows, attrs = {}) {
  return h("div", { class: "scroll" },
    h("table", attrs,
      h("thead", null, h("tr", null, head.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", null, rows.map((r) => {
        const cells = Array.isArray(r) ? r : r.cells;
        return h("tr", { class: r.class || null }, cells.map((c, i) => i === 0 ? h("th", { scope: "row", class: "left" }, c) : h("td", null, c)));
      }))));
}

// announce says something to screen readers through the page's live region.
export function announce(text) {
  const el = document.getElementById("announce");
  if (el) el.textContent = text;
}

// seatName names a seat for people: its number from 1 and its player.
export function seatName(seats, seat) {
  const s = seats && seats[seat];
  const player = s ? (s.player ?? s) : "";
  return player ? `${seat + 1} · ${player}` : `seat ${seat + 1}`;
}

// voice is how a seat's form speaks of whoever decides: "you" on the seat's
// own page; on the judge's console, who decides for any seat, the seat's
// name (as "P2" or "country 2"), in the third person.
export function voice(ctx, name) {
  if (ctx.role !== "judge") return { you: "you", You: "You", your: "your", Your: "Your", are: "are", have: "have", hold: "hold" };
  return { you: name, You: name, your: `${name}'s`, Your: `${name}'s`, are: "is", have: "has", hold: "holds" };
}

// pretty writes a move for people: a string as it is, anything else as
// compact JSON.
export function pretty(move) {
  return typeof move === "string" ? move : JSON.stringify(move);
}

// endReason tells why a match ended, from its result's reason as the rules
// write it ("turns", "all dead"), in a sentence for people.
export function endReason(reason) {
  const told = {
    turns: "It ended after its last turn.",
    "all dead": "It ended when every society had died.",
    "max_cycles played": "It ended after its last cycle.",
    "one nation left": "It ended with one nation left.",
    "one country left": "It ended with one country left.",
    "every country is dead": "It ended when every country had died.",
    "no nation can act": "It ended when no nation could act.",
  };
  return told[reason] || `It ended: ${reason}.`;
}
