// Line charts in SVG: one line per series, told apart by colour, dash and
// marker (never colour alone), a legend, marks on the time axis, a cursor,
// the values under the pointer, and the numbers as a table for those who
// do not see the chart.
import { h, svg, num } from "./dom.js";

export const colours = ["#0b5cad", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#be185d", "#4d7c0f", "#1e3a8a", "#6b21a8", "#374151"];
const dashes = ["", "6 3", "2 3", "8 3 2 3", "12 4", "3 6"];
const markers = ["circle", "square", "triangle", "diamond", "cross", "none"];

// style returns series k's colour, dash and marker.
export function style(k) {
  return { colour: colours[k % colours.length], dash: dashes[Math.floor(k / 2) % dashes.length], marker: markers[k % markers.length] };
}

function marker(kind, x, y, colour) {
  const r = 3.2;
  switch (kind) {
    case "circle": return svg("circle", { cx: x, cy: y, r, fill: colour });
    case "square": return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
    case "triangle": return svg("path", { d: `M${x} ${y - r}L${x + r} ${y + r}L${x - r} ${y + r}Z`, fill: colour });
    case "diamond": return svg("path", { d: `M${x} ${y - r}L${x + r} ${y}L${x} ${y + r}L${x - r} ${y}Z`, fill: colour });
    case "cross": return svg("path", { d: `M${x - r} ${y - r}L${x + r} ${y + r}M${x + r} ${y - r}L${x - r} ${y + r}`, stroke: colour, "stroke-width": 1.5 });
  }
  return null;
}

// ticks returns about n round numbers from lo to hi; whole ones when
// whole is set.
function ticks(lo, hi, n, whole = false) {
  if (hi <= lo) return [lo];
  const raw = Math.max((hi - lo) / n, whole ? 1 : 0);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Math.round(t * 1e9) / 1e9);
  return out;
}

// axisLabels writes a value axis's ticks: in full, unless one would take
// more than six characters, more than the room left of the plot holds
// (it was cut to "000,000" at the chart's edge); then every one in the
// one unit of thousands that fits the largest, with its SI prefix: 0 5M
// 10M 15M. The table below the chart keeps each value in full.
function axisLabels(ts) {
  const full = ts.map((t) => num(t));
  if (full.every((l) => l.length <= 6)) return full;
  const most = Math.max(...ts.map(Math.abs));
  let unit = 1, prefix = "";
  for (const [u, p] of [[1e3, "k"], [1e6, "M"], [1e9, "G"], [1e12, "T"], [1e15, "P"], [1e18, "E"]]) {
    if (most >= u) { unit = u; prefix = p; }
  }
  return ts.map((t) => (t === 0 ? "0" : `${Math.round((t / unit) * 1000) / 1000}${prefix}`));
}

// lineChart draws series over xs. opts: title, clock (the x axis' word),
// xs, series [{name, values}], marks [{x, label}], cursor (an x), onPick(x)
// when a point of the chart is clicked. It returns the figure, with
// setCursor(x) to move the cursor. The chart is drawn again at the width
// it is shown, whenever that changes, so that its numbers are as large
// on a phone as on a desktop (drawn once and scaled, they shrank with it).
export function lineChart({ title, clock = "turn", xs, series, marks = [], cursor = null, onPick = null }) {
  let W = 640, H = 240;
  const L = 48, R = 12, T = 10, B = 32;
  const all = series.flatMap((s) => s.values).filter((v) => Number.isFinite(v));
  let lo = Math.min(0, ...all), hi = Math.max(...all, 1);
  if (hi === lo) hi = lo + 1;
  const x0 = xs[0] ?? 0, x1 = xs[xs.length - 1] ?? 1;
  const sx = (x) => L + (x1 === x0 ? 0 : (x - x0) / (x1 - x0)) * (W - L - R);
  const sy = (y) => T + (1 - (y - lo) / (hi - lo)) * (H - T - B);
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": `${title}: a line per ${series.length > 1 ? "seat" : "value"} over the ${clock}s; the numbers are in the table below` });
  const cur = svg("line", { y1: T, stroke: "#000", "stroke-width": 1.5, class: "cursor", visibility: "hidden" });
  let at = cursor;
  const setCursor = (x) => {
    at = x;
    if (x === null || x === undefined) { cur.setAttribute("visibility", "hidden"); return; }
    cur.setAttribute("x1", sx(x)); cur.setAttribute("x2", sx(x)); cur.setAttribute("visibility", "visible");
  };
  // A chart of counts (every value whole) over up to 50 turns is drawn in
  // steps, as the HTML report draws it: a count holds until the next turn,
  // and a slope between two turns would show values nobody had.
  const whole = all.every(Number.isInteger);
  const steps = whole && x1 - x0 <= 50;
  const draw = () => {
    g.setAttribute("viewBox", `0 0 ${W} ${H}`);
    g.replaceChildren();
    const ys = ticks(lo, hi, 5, whole);
    axisLabels(ys).forEach((label, i) => {
      const t = ys[i];
      g.append(svg("line", { x1: L, x2: W - R, y1: sy(t), y2: sy(t), stroke: "#e3e3e3" }),
        svg("text", { x: L - 4, y: sy(t) + 4, "text-anchor": "end" }, label));
    });
    for (const t of ticks(x0, x1, Math.max(2, Math.min(8, Math.floor((W - L - R) / 60))), true)) {
      g.append(svg("text", { x: sx(t), y: H - 16, "text-anchor": "middle" }, num(t)));
    }
    g.append(svg("text", { x: W - R, y: H - 4, "text-anchor": "end" }, clock));
    for (const m of marks) {
      const x = sx(m.x);
      g.append(svg("path", { d: `M${x} ${T}V${H - B}`, stroke: "#999", "stroke-dasharray": "1 3" }),
        svg("path", { d: `M${x - 4} ${T}L${x + 4} ${T}L${x} ${T + 7}Z`, fill: "#555" }, svg("title", null, m.label)));
    }
    const every = Math.max(1, Math.ceil(xs.length / Math.max(6, Math.floor((W - L - R) / 24))));
    series.forEach((s, k) => {
      const st = { ...style(s.k ?? k), ...(s.colour ? { colour: s.colour } : {}) };
      const pts = s.values.map((v, i) => (steps && i > 0 ? `${sx(xs[i]).toFixed(1)},${sy(s.values[i - 1]).toFixed(1)} ` : "") + `${sx(xs[i]).toFixed(1)},${sy(v).toFixed(1)}`).join(" ");
      const line = svg("polyline", { points: pts, fill: "none", stroke: st.colour, "stroke-width": 2, "stroke-dasharray": st.dash || null, "data-name": s.name });
      line.append(svg("title", null, s.name));
      g.append(line);
      s.values.forEach((v, i) => {
        if (i % every === (k % every)) { const m = marker(st.marker, sx(xs[i]), sy(v), st.colour); if (m) g.append(m); }
      });
    });
    cur.setAttribute("y2", H - B);
    g.append(cur);
    setCursor(at);
  };
  draw();
  // Drawn again at the width shown (the height follows, within bounds);
  // let go once the chart has left the page.
  const fit = new ResizeObserver(() => {
    if (!g.isConnected) { fit.disconnect(); return; }
    const w = Math.round(g.getBoundingClientRect().width);
    if (w > 0 && Math.abs(w - W) > 1) {
      W = w;
      H = Math.round(Math.min(240, Math.max(160, w * 3 / 8)));
      draw();
    }
  });
  fit.observe(g);

  // The values under the pointer.
  const tip = h("div", { class: "tip", hidden: true, role: "status" });
  const nearest = (ev) => {
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(g.getScreenCTM().inverse());
    const at = x0 + (p.x - L) / (W - L - R) * (x1 - x0);
    let i = 0;
    xs.forEach((x, k) => { if (Math.abs(x - at) < Math.abs(xs[i] - at)) i = k; });
    return i;
  };
  g.addEventListener("pointermove", (ev) => {
    const i = nearest(ev);
    tip.textContent = [`${clock} ${xs[i]}`, ...series.map((s) => `${s.name}\t${num(s.values[i])}`)].join("\n");
    tip.hidden = false;
    tip.style.left = Math.min(ev.clientX + 12, innerWidth - 220) + "px";
    tip.style.top = ev.clientY + 12 + "px";
  });
  g.addEventListener("pointerleave", () => { tip.hidden = true; });
  if (onPick) g.addEventListener("click", (ev) => onPick(xs[nearest(ev)]));

  const legend = h("ul", { class: "legend" }, series.map((s, k) => {
    const st = { ...style(s.k ?? k), ...(s.colour ? { colour: s.colour } : {}) };
    const sample = svg("svg", { width: 34, height: 12, "aria-hidden": "true" },
      svg("line", { x1: 1, x2: 33, y1: 6, y2: 6, stroke: st.colour, "stroke-width": 2, "stroke-dasharray": st.dash || null }), marker(st.marker, 17, 6, st.colour));
    return h("li", null, sample, " ", s.name);
  }));
  const shown = xs.length <= 60 ? xs.map((_, i) => i) : xs.map((_, i) => i).filter((i) => i % Math.ceil(xs.length / 60) === 0 || i === xs.length - 1);
  const numbers = h("details", null, h("summary", null, "the numbers"),
    h("div", { class: "scroll" }, h("table", null,
      h("thead", null, h("tr", null, h("th", { scope: "col" }, clock), series.map((s) => h("th", { scope: "col" }, s.name)))),
      h("tbody", null, shown.map((i) => h("tr", null, h("th", { scope: "row" }, num(xs[i])), series.map((s) => h("td", null, num(s.values[i])))))))));
  const fig = h("figure", null, h("figcaption", null, title), legend, g, tip, numbers);
  fig.setCursor = setCursor;
  return fig;
}

// measureCharts draws a chart per measure of a viewer's measures (see the
// replay call), a line per seat. cursorOf gives the cursor's clock.
//
// looks, when given, names and colours each seat as the game shows it (a
// territories nation): [{name, colour}] or null for a seat the game has
// nothing of yet.
export function measureCharts(measures, players, clock, { events = [], cursor = null, onPick = null, looks = null } = {}) {
  if (!measures || !measures.points || measures.points.length < 2) return [];
  const xs = measures.points.map((p) => p.clock);
  const marks = events.filter((e) => e.mark).map((e) => ({ x: e.clock, label: `${clock} ${e.clock}: ${e.text}` }));
  return measures.names.map((m, k) => lineChart({
    title: m.name, clock, xs, marks, cursor, onPick,
    series: measures.values[k].map((values, s) => ({ name: m.per_seat ? `${s + 1} · ${looks?.[s]?.name ?? players[s]}` : m.name, values, k: m.per_seat ? s : 0, colour: m.per_seat ? looks?.[s]?.colour : null })),
  }));
}
