// The replay viewer: a match record step by step, seen by the judge, the
// public or one seat, as Go made its views (the viewer is given views,
// never the state). Step, play and pause, seek to any move at once; faults
// and events are marked on the timeline; the game's measures are charted
// with a cursor at the step shown. The record comes from the server (a
// match), from a file (sent to the server to be viewed), or from the page
// itself (arbiter replay --html).
import { h, replace, num, announce, pretty, endReason } from "./dom.js";
import { call, secretOf, waitWords, gaveUpWords } from "./api.js";
import { measureCharts } from "./chart.js";
import { loadGame } from "./games.js";

const el = (x) => document.getElementById(x);

let data = null; // the viewer's data (see the replay call)
let view = null; // the viewpoint shown: {id, label, steps, frames}
let game = null;
let index = 0; // the step shown
let cache = null; // {k, i, tree}: the view last made, to go on from
let charts = [];
let timer = null;
let asked = 0; // viewpoints asked for: only the last one asked is shown
let source = null; // where the data came from: {kind, id, secret, text}

// applyOps changes a view by one step's changes; it returns the view.
export function applyOps(root, ops) {
  for (const op of ops) {
    const path = op[1];
    if (path.length === 0) {
      if (op[0] === "s") root = structuredClone(op[2]);
      else if (op[0] === "t") root.length = op[2];
      else if (op[0] === "p") root.splice(0, op[2]);
      continue;
    }
    let p = root;
    for (let i = 0; i < path.length - 1; i++) p = p[path[i]];
    const last = path[path.length - 1];
    if (op[0] === "s") p[last] = typeof op[2] === "object" && op[2] !== null ? structuredClone(op[2]) : op[2];
    else if (op[0] === "d") delete p[last];
    else if (op[0] === "t") p[last].length = op[2];
    else if (op[0] === "p") p[last].splice(0, op[2]);
  }
  return root;
}

// viewAt makes the view at step i: the keyframe at or before it, then the
// changes; or on from the view made last, when it is on the way.
export function viewAt(i) {
  const f = view.frames;
  const k = Math.floor(i / f.every);
  let tree, from;
  if (cache && cache.k === k && cache.i <= i) {
    tree = cache.tree;
    from = cache.i + 1;
  } else {
    tree = structuredClone(f.keys[k]);
    from = k * f.every + 1;
  }
  for (let j = from; j <= i; j++) tree = applyOps(tree, f.deltas[j]);
  cache = { k, i, tree };
  return tree;
}

function labelOf(id) {
  if (id === "judge") return "the judge (everything)";
  if (id === "public") return "the public";
  const s = Number(id.split(":")[1]);
  return `seat ${s + 1} (${data.players[s] ?? ""})`;
}

function ctxFor(id) {
  const seat = id.startsWith("seat:") ? Number(id.split(":")[1]) : null;
  return { role: id === "judge" ? "judge" : seat !== null ? "seat" : "spectator", seat, players: data.players, game: data.game, mode: data.mode || "", map: data.map || null };
}

// show sets the data and draws the viewer at the move nearest seq.
async function show(d, seq = 0) {
  data = d;
  game = await loadGame(data.game);
  view = data.views[0];
  cache = null;
  el("open").hidden = source.kind !== "file";
  el("viewer").hidden = false;
  el("title").textContent = `Replay: ${data.title.split(":")[0]}${data.mode ? " · " + data.mode : ""}`;
  document.title = `${el("title").textContent} — Arbiter`;
  el("summary").textContent = `${data.moves} moves` + (data.players.length ? ` · ${data.players.map((p, i) => `${i + 1} · ${p}`).join(", ")}` : " · players join by name");
  const offered = data.offered && data.offered.length ? data.offered : data.views.map((v) => v.id);
  replace(el("viewpoint"), offered.map((o) => h("option", { value: o, selected: o === view.id }, labelOf(o))));
  const steps = view.steps;
  el("seek").max = String(steps.length - 1);
  el("goto").max = String(data.moves);
  // Seats named and coloured as the game shows them at the end (a
  // territories nation), when it does.
  const looks = game.seatLooks && view.frames ? game.seatLooks(viewAt(steps.length - 1), data.players) : null;
  charts = measureCharts(data.measures, data.players, data.clock, { events: data.events, looks, onPick: (clock) => seekSeq((data.measures.points.find((p) => p.clock === clock) || {}).seq ?? 0) });
  replace(el("charts"), charts.length ? charts : h("p", { class: "muted" }, "This game has no numbers to chart."));
  drawMarks();
  drawResult();
  seekSeq(seq);
  document.body.dataset.ready = "1";
  window.arbiterReady = performance.now();
}

// seekSeq shows the last step at or before move seq.
function seekSeq(seq) {
  const steps = view.steps;
  let lo = 0, hi = steps.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (steps[mid].seq <= seq) lo = mid; else hi = mid - 1;
  }
  seek(lo);
}

// seek shows step i.
function seek(i) {
  const steps = view.steps;
  index = Math.max(0, Math.min(steps.length - 1, i));
  const st = steps[index];
  el("seek").value = String(index);
  el("seek").setAttribute("aria-valuetext", `move ${st.seq} of ${data.moves}`);
  el("goto").value = String(st.seq);
  // The board, when there is one, tells the game's own time (the cycle
  // under way), which the charts' clock may count otherwise (the cycles
  // played): the clock is told only when there is no board.
  el("where").textContent = `Move ${num(st.seq)} of ${num(data.moves)}` + (view.frames ? "" : ` · ${data.clock} ${num(st.clock)}`);
  const who = st.seat === undefined ? "The start." : st.seat === -1 ? "The judge" : `Seat ${st.seat + 1} (${data.players[st.seat]})`;
  // A public move (territories' actions) comes with what it did, for
  // every viewpoint: a battle's roll and losses.
  replace(el("step"), st.seat === undefined ? who : [who, st.move !== undefined ? [" played ", h("strong", { "data-move": pretty(st.move) }, game.moveWords ? game.moveWords(st.move, ctxFor(view.id)) : pretty(st.move))] : " moved",
    st.told ? h("span", { class: "told" }, `: ${st.told.text}`) : "",
    st.fault ? h("span", { class: "error" }, ` — fault: ${st.fault.kind}${st.fault.detail ? " (" + st.fault.detail + ")" : ""}; the default was played`) : "",
    st.note ? h("span", { class: "muted" }, ` — the judge's note: ${st.note}`) : ""]);
  // (At the last move of a match that ended, the board may say so.)
  if (view.frames) replace(el("board"), game.board(viewAt(index), { ...ctxFor(view.id), over: index === view.steps.length - 1 && !!(data.result || data.aborted) }));
  for (const c of charts) c.setCursor(st.clock);
  document.body.dataset.seq = String(st.seq);
  document.body.dataset.view = view.id;
  document.body.dataset.step = String(index);
}

function drawMarks() {
  const m = el("marks");
  m.replaceChildren();
  const x = (seq) => (data.moves ? (seq / data.moves) * 1000 : 0);
  const items = [];
  for (const st of view.steps) {
    if (!st.fault) continue;
    m.append(svgEl("rect", { x: x(st.seq) - 1.5, y: 0, width: 3, height: 24, fill: "#a3161a" }));
    items.push({ seq: st.seq, text: `move ${st.seq}: fault (${st.fault.kind}) of seat ${st.seat + 1}`, kind: "fault" });
  }
  for (const e of data.events) {
    m.append(svgEl("rect", { x: x(e.seq) - 1, y: 12, width: 2, height: 12, fill: e.mark ? "#333" : "#999" }));
    items.push({ seq: e.seq, text: `${data.clock} ${e.clock}: ${e.text}`, kind: e.kind });
  }
  items.sort((a, b) => a.seq - b.seq);
  replace(el("marked"), items.length ? items.slice(0, 500).map((it) => h("li", null,
    h("button", { type: "button", class: it.kind === "fault" ? "danger" : "", onclick: () => seekSeq(it.seq) }, it.kind === "fault" ? "⚠ " : "• ", it.text))) : h("li", { class: "muted" }, "No faults, no events."));
}

function svgEl(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function drawResult() {
  const box = el("result");
  const r = data.result;
  if (!r && !data.aborted) { box.hidden = true; return; }
  box.hidden = false;
  replace(box, h("h2", null, "How it ended"), data.aborted ? h("p", null, `Stopped: ${data.aborted}`) : null,
    r ? [r.reason ? h("p", null, endReason(game.reasonWords ? game.reasonWords(r.reason, ctxFor("judge")) : r.reason)) : null, h("p", null, "Winners: ", (r.winners || []).map((w) => `${w + 1} · ${data.players[w]}`).join(", ") || "none")] : null);
}

function play(on) {
  clearInterval(timer);
  timer = null;
  el("play").setAttribute("aria-pressed", String(on));
  el("play").textContent = on ? "⏸ pause" : "▶ play";
  if (!on) return;
  if (index >= view.steps.length - 1) seek(0);
  timer = setInterval(() => {
    if (index >= view.steps.length - 1) { play(false); return; }
    seek(index + 1);
  }, 1000 / Number(el("speed").value));
}

// switchView shows another viewpoint, at the same move.
async function switchView(id) {
  const ticket = ++asked;
  const seq = view.steps[index].seq;
  const have = data.views.find((v) => v.id === id);
  if (have) {
    view = have;
    cache = null;
    el("seek").max = String(view.steps.length - 1);
    drawMarks();
    seekSeq(seq);
    announce(`Now seen by ${labelOf(id)}.`);
    return;
  }
  const d = await fetchData(id);
  if (ticket !== asked) return; // another viewpoint was chosen meanwhile
  if (d) {
    d.offered = d.offered || data.offered;
    await show(d, seq);
    announce(`Now seen by ${labelOf(id)}.`);
  }
}

// fetchData asks the server for the data of a viewpoint. While the
// server asks to wait (it holds its most of records sent to be viewed,
// or cannot reach its database for now), the page says so, calmly, and
// asks again then.
async function fetchData(id) {
  const query = id ? { view: id } : undefined;
  const said = el("open-error");
  const onWait = (w) => { said.className = ""; said.textContent = waitWords(w); };
  const r = source.kind === "match"
    ? await call("GET", `/matches/${encodeURIComponent(source.id)}/replay`, { secret: source.secret, query, onWait })
    : await call("POST", "/replay", { raw: source.text, query, onWait, again: true });
  said.className = "error";
  if (!r.ok) {
    said.textContent = source.kind === "match" ? `The match ${source.id} cannot be shown: ${r.gaveUp ? gaveUpWords(r) : r.error}. Open a record file instead, or check the link.`
      : r.gaveUp ? `${gaveUpWords(r, true)}: open the record again in a moment, or view it with arbiter replay --html.` : r.error;
    el("open").hidden = false;
    return null;
  }
  said.textContent = "";
  return r.data;
}

function wire() {
  el("seek").addEventListener("input", () => { play(false); seek(Number(el("seek").value)); });
  el("first").addEventListener("click", () => { play(false); seek(0); });
  el("last").addEventListener("click", () => { play(false); seek(view.steps.length - 1); });
  el("back").addEventListener("click", () => { play(false); seek(index - 1); });
  el("next").addEventListener("click", () => { play(false); seek(index + 1); });
  el("play").addEventListener("click", () => play(!timer));
  el("speed").addEventListener("change", () => { if (timer) play(true); });
  el("goto").addEventListener("change", () => { play(false); seekSeq(Number(el("goto").value)); });
  el("viewpoint").addEventListener("change", () => { play(false); switchView(el("viewpoint").value); });
  document.addEventListener("keydown", (ev) => {
    if (!view || ev.target.closest("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const keys = { ArrowLeft: () => seek(index - 1), ArrowRight: () => seek(index + 1), Home: () => seek(0), End: () => seek(view.steps.length - 1), " ": () => play(!timer), k: () => play(!timer) };
    if (keys[ev.key] && !(ev.key === " " && ev.target.closest("button"))) { ev.preventDefault(); if (ev.key !== " " && ev.key !== "k") play(false); keys[ev.key](); }
  });
  el("open-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = el("file").files[0];
    const match = el("match-id").value.trim();
    if (file) {
      source = { kind: "file", text: await file.text() };
    } else if (match) {
      location.href = `/replay?match=${encodeURIComponent(match)}`;
      return;
    } else {
      el("open-error").textContent = "Choose a record file, or give a match's id.";
      return;
    }
    const d = await fetchData("");
    if (d) show(d);
  });
  // For tests and the curious: seek to step i and say how long it took.
  window.arbiterSeek = (i) => { const t = performance.now(); seek(i); return performance.now() - t; };
}

// embedded returns the data a self-contained page holds (gzipped, in
// base64), or null.
async function embedded() {
  const gz = document.getElementById("replay-data-gz");
  if (!gz) return null;
  const bin = Uint8Array.from(atob(gz.textContent.trim()), (c) => c.charCodeAt(0));
  const text = await new Response(new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  return JSON.parse(text);
}

async function main() {
  wire();
  const inPage = await embedded();
  if (inPage) {
    source = { kind: "embedded" };
    el("nav").hidden = true;
    await show(inPage);
    return;
  }
  const match = new URLSearchParams(location.search).get("match");
  if (match) {
    source = { kind: "match", id: match, secret: secretOf(match) };
    const d = await fetchData("");
    if (d) show(d);
    return;
  }
  source = { kind: "file" };
  document.body.dataset.ready = "1";
}

main();
