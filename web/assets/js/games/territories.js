// Territories on a page: the map itself, each held territory in its
// nation's colour with its armies and the nation's name on it (colour is
// never the only sign), clickable and reachable by keyboard; the nations;
// forms that offer the actions the rules allow: join, raise, move, attack,
// pass. The referee's judge acts for any player; a player with a link of
// their own acts for themself.
import { h, svg, num, table } from "../dom.js";

// tells is what the match's story tells as events.
export const tells = "conquests (a territory emptied of its defenders) and nations out of the game";

// rankedBy says how the results table ranks the seats, which its scores
// alone do not tell: two seats of the same score may rank apart.
export const rankedBy = "The score is the territories a nation holds at the end. Nations still in rank above those out, by territories, then by armies when territories are level; those out rank by when they went out, the later above the earlier.";

// boardOf returns the board of any view: a seat's ({board}), the judge's
// of a game of seats ({public}), or the board itself.
export function boardOf(view) {
  if (!view) return null;
  if (view.board) return view.board;
  if (view.public) return view.public;
  return view;
}

// seatLooks returns each seat's nation as the map shows it, for charts to
// name and colour the seat alike: the nation whose player is the seat
// ("seat 1" plays the first seat), or null before the seat has founded one.
export function seatLooks(view, seats) {
  const board = boardOf(view);
  if (!board || !board.nations) return null;
  return seats.map((_, i) => {
    const n = board.nations.find((x) => x.player === `seat ${i + 1}`);
    return n ? { name: n.name, colour: n.color } : null;
  });
}

// territoriesOf returns the map's territories, [{id, name, neighbors}]:
// from a seat's view or a referee's board (each has its map's, a board of
// one's own included), or from the map's SVG.
export function territoriesOf(view, mapDoc) {
  if (view && view.map) return view.map;
  if (view && view.seats && view.seats[0] && view.seats[0].map) return view.seats[0].map;
  if (!mapDoc) return [];
  return [...mapDoc.querySelectorAll("path[data-neighbors]")].map((p) => ({ id: p.id, name: p.dataset.name || p.id, neighbors: (p.dataset.neighbors || "").split(" ").filter(Boolean) }));
}

const parsed = new Map();

// mapDoc parses a map's SVG once.
export function mapDoc(text) {
  if (!text) return null;
  if (!parsed.has(text)) parsed.set(text, new DOMParser().parseFromString(text, "image/svg+xml"));
  return parsed.get(text);
}

// short is a nation's name as the map writes it beside its armies.
function short(name) {
  return name.length <= 6 ? name : name.slice(0, 5) + "…";
}

// enlarged says the map is drawn twice as wide as the screen, to scroll
// across (a phone's choice, kept from one drawing to the next).
let enlarged = false;

// narrow reports a screen too narrow for the map's own list of nations:
// a phone's, where the map leaves the list to the table below it.
function narrow() {
  return window.matchMedia("(max-width: 40rem)").matches;
}

// drawMap draws a board on the map: o.pick(id) is called when a territory
// is chosen (a click, Enter or Space); o.selected are the ids marked. On a
// narrow screen the map drops its list of nations (the table below has
// them), writes its labels larger, and offers to draw itself larger.
export function drawMap(text, board, o = {}) {
  const doc = mapDoc(text);
  const root = document.importNode(doc.documentElement, true);
  root.removeAttribute("width");
  root.removeAttribute("height");
  const small = narrow();
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", "the map: each territory with its nation and armies");
  const nations = new Map(board.nations.map((n) => [n.name, n]));
  const held = new Map(board.holdings.map((x) => [x.territory, x]));
  for (const p of root.querySelectorAll("path[id]")) {
    const circle = root.querySelector(`[id="${p.id}-armies"]`);
    if (!circle) continue;
    const name = p.dataset.name || p.querySelector("title")?.textContent || p.id;
    const x = held.get(p.id);
    const n = x && nations.get(x.nation);
    p.classList.add("territory");
    if (n) p.setAttribute("fill", n.color);
    if ((o.selected || []).includes(p.id)) p.classList.add("selected");
    const label = n ? `${name} (${p.id}): ${n.name}, ${x.armies} ${x.armies === 1 ? "army" : "armies"}` : `${name} (${p.id}): unclaimed`;
    p.querySelector("title")?.remove();
    p.append(svg("title", null, label));
    if (o.pick) {
      p.setAttribute("tabindex", "0");
      p.setAttribute("role", "button");
      p.setAttribute("aria-label", label);
      p.addEventListener("click", () => o.pick(p.id));
      p.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); o.pick(p.id); } });
    }
    if (x) {
      const cx = Number(circle.getAttribute("cx")), cy = Number(circle.getAttribute("cy")), r = Number(circle.getAttribute("r"));
      circle.parentNode.append(
        svg("text", { x: cx, y: cy, "font-size": r * 1.25, "font-weight": "bold", "text-anchor": "middle", "dominant-baseline": "central", fill: "#1a1a1a", "pointer-events": "none" }, String(x.armies)),
        svg("text", { x: cx, y: cy + r + (small ? 15 : 11), "font-size": small ? 18 : 12, "font-weight": "bold", "text-anchor": "middle", fill: "#1a1a1a", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke", "pointer-events": "none" }, short(x.nation)));
    }
  }
  const box = root.querySelector("#nations-list-bounds");
  const view = (root.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
  if (small && box && view.length === 4 && Number(box.getAttribute("x")) > view[0]) {
    // The map without its list: up to the list's left edge.
    root.setAttribute("viewBox", [view[0], view[1], Number(box.getAttribute("x")) - view[0], view[3]].join(" "));
    box.closest("#nations-list")?.remove();
  } else if (box) {
    const bx = Number(box.getAttribute("x")), by = Number(box.getAttribute("y")), bw = Number(box.getAttribute("width")), bh = Number(box.getAttribute("height"));
    const row = Math.max(20, Math.min(44, (bh - 16) / Math.max(board.nations.length, 1)));
    const g = svg("g", { "font-family": "sans-serif" });
    board.nations.slice(0, Math.floor((bh - 16) / row)).forEach((n, i) => {
      const y = by + 8 + i * row;
      g.append(svg("rect", { x: bx + 8, y: y + 2, width: row * 0.5, height: row * 0.5, fill: n.color, stroke: "#333" }),
        svg("text", { x: bx + 16 + row * 0.5, y: y + row * 0.36, "font-size": row * 0.36, "font-weight": "bold", fill: n.out ? "#8a8a8a" : "#1a1a1a" }, `${n.name} (${n.player})`),
        svg("text", { x: bx + 16 + row * 0.5, y: y + row * 0.78, "font-size": row * 0.3, fill: n.out ? "#8a8a8a" : "#1a1a1a" }, n.out ? `out (action ${n.out})` : `${n.territories} ${n.territories === 1 ? "territory" : "territories"}, ${n.armies} ${n.armies === 1 ? "army" : "armies"}`));
    });
    box.parentNode.append(g);
    if (bw <= 0) g.remove();
  }
  if (!small) return h("div", { class: "map" }, root);
  const map = h("div", { class: enlarged ? "map scroll enlarged" : "map" }, root);
  const toggle = h("button", { type: "button", class: "small", "aria-pressed": String(enlarged) }, enlarged ? "Fit the map to the screen" : "Enlarge the map");
  toggle.addEventListener("click", () => {
    enlarged = !enlarged;
    map.classList.toggle("scroll", enlarged);
    map.classList.toggle("enlarged", enlarged);
    toggle.textContent = enlarged ? "Fit the map to the screen" : "Enlarge the map";
    toggle.setAttribute("aria-pressed", String(enlarged));
  });
  return h("div", null, map, h("p", null, toggle));
}

// nationsTable lists the nations, colour with name.
function nationsTable(board, mine, ctx) {
  return table(["nation", "player", "territories", "armies"], board.nations.map((n) => ({
    class: [n.name === mine ? "you" : "", n.out ? "dead" : ""].join(" ").trim() || null,
    cells: [h("span", null, h("span", { class: "swatch", "aria-hidden": "true", "data-colour": n.color }), n.name + (n.name === mine ? " (you)" : "") + (n.out ? " (out)" : "")), playerOf(n, ctx), num(n.territories), num(n.armies)],
  })), { "aria-label": "the nations" });
}

// playerOf names a nation's player for people: a seat's ("seat 2", as the
// rules call it) by the name the seat was given, when it has one.
function playerOf(n, ctx) {
  const m = /^seat (\d+)$/.exec(n.player);
  const name = m && ctx && ctx.players ? ctx.players[Number(m[1]) - 1] : "";
  return name && name !== "person" ? `${name} (${n.player})` : n.player;
}

// colourSwatches paints the swatches (styles set by script, never inline
// attributes).
function colourSwatches(el) {
  for (const s of el.querySelectorAll(".swatch[data-colour]")) s.style.background = s.dataset.colour;
  return el;
}

export function board(view, ctx) {
  const b = boardOf(view);
  if (!b || !b.nations) return h("p", null, "Nothing is known yet.");
  const mine = view.nation || ctx.nation || "";
  const out = h("div", null,
    h("p", null, ctx.over ? "The match is over" : `Turn ${b.turn}`, !ctx.over && view.actions_left !== undefined && view.kind === "action" ? ` · ${view.actions_left} action${view.actions_left === 1 ? "" : "s"} left` : "",
      mine ? ` · your nation: ${mine}` : ""));
  if (ctx.map) {
    out.append(drawMap(ctx.map, b, { pick: ctx.pick ? (id) => ctx.pick(id) : null, selected: ctx.selected ? ctx.selected() : [] }));
  }
  out.append(h("h3", null, "Nations"), nationsTable(b, mine, ctx));
  const names = new Map(territoriesOf(view, mapDoc(ctx.map)).map((t) => [t.id, t.name]));
  out.append(h("details", null, h("summary", null, "every holding"),
    table(["territory", "nation", "armies"], b.holdings.map((x) => [`${x.territory}${names.get(x.territory) ? " · " + names.get(x.territory) : ""}`, x.nation, num(x.armies)]))));
  return colourSwatches(out);
}

// moveWords words a move for people: join Amber on OR, raise an army on
// OR, move 2 armies from OR to WA, attack CA from OR, pass; a referee's
// action with its player (alice: raise an army on CA).
export function moveWords(move) {
  if (move && typeof move === "object" && typeof move.action === "string") return `${move.player ? move.player + ": " : ""}${moveWords(move.action)}`;
  if (typeof move !== "string") return JSON.stringify(move);
  const w = move.trim().split(/\s+/);
  const armies = (n) => `${n} ${n === "1" ? "army" : "armies"}`;
  switch (w[0]) {
    case "end-turn": if (w.length === 1) return "end the turn"; break;
    case "join": if (w.length === 3) return `join as ${w[1]} on ${w[2]}`; break;
    case "raise": if (w.length === 2) return `raise an army on ${w[1]}`; break;
    case "attack": if (w.length === 3) return `attack ${w[2]} from ${w[1]}`; break;
    case "move": {
      if (w.length !== 3) break;
      const [from, n] = w[1].split(":");
      return `move ${n ? armies(n) : "every army"} from ${from} to ${w[2]}`;
    }
  }
  return move;
}

export function label(choice, req, view) {
  const m = /^join (\S+) (\S+)$/.exec(choice);
  if (m) {
    const t = territoriesOf(view).find((x) => x.id === m[2]);
    return `${m[2]}${t ? " · " + t.name : ""}`;
  }
  return choice;
}

// legal returns what a nation may do on a board: the territories it may
// raise in, move from (with the targets of each), attack from (with theirs).
export function legal(b, terr, nation, maxArmies) {
  const held = new Map(b.holdings.map((x) => [x.territory, x]));
  const mine = b.holdings.filter((x) => x.nation === nation);
  const neighbours = new Map(terr.map((t) => [t.id, t.neighbors]));
  const raise = mine.filter((x) => x.armies < maxArmies).map((x) => x.territory);
  const move = new Map(), attack = new Map();
  for (const x of mine) {
    const to = (neighbours.get(x.territory) || []).filter((id) => !held.has(id) || (held.get(id).nation === nation && held.get(id).armies < maxArmies));
    if (to.length) move.set(x.territory, to);
    const foes = (neighbours.get(x.territory) || []).filter((id) => held.has(id) && held.get(id).nation !== nation);
    if (foes.length) attack.set(x.territory, foes);
  }
  return { held, raise, move, attack };
}

// actionForm builds an action for nation (or a join for a new one), from
// selects that offer only what the rules allow and from clicks on the map.
// send(text) sends it.
export function actionForm(view, ctx, { nation, maxArmies = 5, join = false, pass = true, send, extra = null, keep = null }) {
  const b = boardOf(view);
  const terr = territoriesOf(view, mapDoc(ctx.map));
  const names = new Map(terr.map((t) => [t.id, t.name]));
  const tname = (id) => `${id}${names.get(id) ? " · " + names.get(id) : ""}`;
  const lg = legal(b, terr, nation, maxArmies);
  const free = terr.map((t) => t.id).filter((id) => !lg.held.has(id));
  const kinds = [];
  if (join) kinds.push(["join", "join with a new nation"]);
  if (nation) {
    if (lg.raise.length) kinds.push(["raise", "raise an army"]);
    if (lg.move.size) kinds.push(["move", "move armies"]);
    if (lg.attack.size) kinds.push(["attack", "attack"]);
    // pass ends a nation's actions of a turn: none without turn
    // management (the board's turn is 0), where the rules refuse it.
    if (pass && b.turn > 0) kinds.push(["pass", "pass (end your actions this turn)"]);
  }
  if (!kinds.length) return h("p", null, "No action is open to ", nation || "this player", " now.");
  const kind = h("select", { name: "kind" }, kinds.map(([k, t]) => h("option", { value: k }, t)));
  const from = h("select", { name: "from" });
  const to = h("select", { name: "to" });
  const count = h("input", { type: "number", name: "n", min: 1, value: 1 });
  const newNation = h("input", { type: "text", name: "nation", value: "", autocomplete: "off", maxlength: 40 });
  const fromL = h("label", { class: "block" }, "from", from);
  const toL = h("label", { class: "block" }, "to", to);
  const countL = h("label", { class: "block" }, "armies", count);
  const nationL = h("label", { class: "block" }, "the new nation's name", newNation);
  const preview = h("output", { class: "link" });
  const fill = (sel, ids, keep) => {
    const was = keep ? sel.value : "";
    sel.replaceChildren(...ids.map((id) => h("option", { value: id }, tname(id))));
    if (ids.includes(was)) sel.value = was;
  };
  const refresh = (keep = true) => {
    const k = kind.value;
    fromL.hidden = !["raise", "move", "attack", "join"].includes(k);
    toL.hidden = !["move", "attack"].includes(k);
    countL.hidden = k !== "move";
    nationL.hidden = k !== "join";
    fromL.firstChild.textContent = k === "raise" ? "where" : k === "join" ? "on" : "from";
    if (k === "raise") fill(from, lg.raise, keep);
    if (k === "move") fill(from, [...lg.move.keys()], keep);
    if (k === "attack") fill(from, [...lg.attack.keys()], keep);
    if (k === "join") fill(from, free, keep);
    if (k === "move") fill(to, lg.move.get(from.value) || [], keep);
    if (k === "attack") fill(to, lg.attack.get(from.value) || [], keep);
    if (k === "move") {
      const have = lg.held.get(from.value)?.armies || 1;
      const there = lg.held.get(to.value);
      count.max = Math.min(have, there ? maxArmies - there.armies : maxArmies);
      if (Number(count.value) > Number(count.max)) count.value = count.max;
    }
    preview.textContent = text();
  };
  const text = () => {
    switch (kind.value) {
      case "join": return `join ${newNation.value.trim() || "NATION"} ${from.value}`;
      case "raise": return `raise ${from.value}`;
      case "move": return `move ${from.value}:${count.value} ${to.value}`;
      case "attack": return `attack ${from.value} ${to.value}`;
    }
    return "pass";
  };
  const f = h("form", { class: "action" }, h("fieldset", null, h("legend", null, nation ? `An action for ${nation}` : "A new nation"),
    h("label", { class: "block" }, "action", kind), nationL, fromL, toL, countL, extra,
    h("p", { class: "small" }, "the action: ", preview),
    ctx.map ? h("p", { class: "small muted" }, "Or choose on the map: a territory of yours first, then its target.") : null),
  h("button", { class: "primary", type: "submit" }, "Send the action"));
  f.addEventListener("change", (ev) => refresh(ev.target !== kind));
  f.addEventListener("input", () => { preview.textContent = text(); });
  f.addEventListener("submit", (ev) => { ev.preventDefault(); send(text()); });
  refresh(false);
  // What was chosen in the form this one replaces, where it still holds.
  if (keep) {
    const has = (sel, v) => [...sel.options].some((o) => o.value === v);
    if (has(kind, keep.kind)) { kind.value = keep.kind; refresh(false); }
    if (has(from, keep.from)) { from.value = keep.from; refresh(true); }
    if (has(to, keep.to)) { to.value = keep.to; refresh(true); }
    if (keep.n) { count.value = keep.n; refresh(true); }
    if (keep.nation) newNation.value = keep.nation;
    preview.textContent = text();
  }
  f.state = () => ({ kind: kind.value, from: from.value, to: to.value, n: count.value, nation: newNation.value });
  // A click on the map: a territory of the nation's to act from, then its
  // target, which makes the action: a move to a neighbour unclaimed or the
  // nation's own (with room), an attack on another nation's. A click on
  // any other territory is one the form may act from (a join's).
  let fromPicked = false; // a click chose the territory to act from; the next may choose its target
  const fromOf = { raise: lg.raise, move: [...lg.move.keys()], attack: [...lg.attack.keys()] };
  const targetKind = (src, id) => {
    if (!src || src === id) return null;
    if ((kind.value === "move" || kind.value === "attack") && (lg[kind.value].get(src) || []).includes(id)) return kind.value;
    if ((lg.move.get(src) || []).includes(id)) return "move";
    if ((lg.attack.get(src) || []).includes(id)) return "attack";
    return null;
  };
  f.pick = (id) => {
    const opts = (sel) => [...sel.options].map((o) => o.value);
    const src = from.value;
    const own = !!nation && lg.held.get(id)?.nation === nation;
    const target = !own || fromPicked ? targetKind(src, id) : null;
    if (target) {
      // The second click: the target of the territory chosen first.
      if (kind.value !== target) { kind.value = target; refresh(false); from.value = src; refresh(true); }
      to.value = id;
      fromPicked = false;
    } else if (own) {
      // A territory of the nation's: the one to act from, with the
      // action chosen if it may act from there, else the first that may.
      const may = ["raise", "move", "attack"].filter((k) => kinds.some(([kk]) => kk === k) && fromOf[k].includes(id));
      if (may.length) {
        if (!may.includes(kind.value)) { kind.value = may[0]; refresh(false); }
        from.value = id;
        fromPicked = true;
      }
    } else if (opts(from).includes(id) && !fromL.hidden) {
      from.value = id;
    } else {
      const was = kind.value;
      let found = false;
      for (const [kk] of kinds) {
        kind.value = kk;
        refresh(false);
        if (!fromL.hidden && opts(from).includes(id)) { from.value = id; found = true; break; }
      }
      if (!found) { kind.value = was; refresh(false); from.value = src; }
    }
    refresh(true);
    f.selected = [from.value, toL.hidden || fromPicked ? null : to.value].filter(Boolean);
    if (ctx.redraw) ctx.redraw();
  };
  kind.addEventListener("change", () => { fromPicked = false; });
  f.selected = [];
  return f;
}

// form is a seat's form for an action (the join has its choices as
// buttons).
export function form(req, view, ctx) {
  if (req.kind !== "action") return null;
  const f = actionForm(view, ctx, { nation: view.nation, maxArmies: view.max_armies, send: (text) => ctx.send(text, req) });
  ctx.setPicker(f);
  return f;
}

// playerTools are a named player's actions (the referee's game, with a
// link of their own): they act for themself.
export function playerTools(m, ctx, old = null) {
  // A player's name is read exactly as written: Ann and ann are two
  // players, each with a nation of their own.
  const nation = m.view.nations.find((n) => n.player === ctx.name);
  if (!nation) return h("p", null, `You are ${ctx.name}; you have no nation yet: the referee makes you join.`);
  if (nation.out) return h("p", null, `${nation.name} is out of the game.`);
  const f = actionForm(m.view, ctx, { nation: nation.name, send: (text) => ctx.act({ action: text }), keep: old?.state?.() });
  ctx.setPicker(f);
  const box = h("section", { class: "panel owed" }, h("h2", null, `Your actions: ${nation.name}`), f);
  box.state = f.state;
  return box;
}

// judgeTools are the referee's: an action for any player, a join for a new
// one, with a link of their own when asked; the end of the turn under
// turn management; a new link for a player who has joined.
export function judgeTools(m, ctx) {
  if (m.mode !== "referee" || m.status !== "running") return null;
  let view = m.view;
  let seq = m.seq; // the match's move as this page last saw it
  let form = null;
  const who = h("select", { name: "player" });
  const newName = h("input", { type: "text", name: "new-player", autocomplete: "off", maxlength: 40 });
  const issue = h("input", { type: "checkbox", name: "issue", checked: true });
  const place = h("div");
  const links = h("div", { class: "cards", "aria-live": "polite" });
  const players = () => {
    const b = boardOf(view);
    const was = who.value;
    who.replaceChildren(h("option", { value: "" }, "a new player…"), ...b.nations.filter((n) => !n.out).map((n) => h("option", { value: n.player }, `${n.player} (${n.name})`)));
    if ([...who.options].some((o) => o.value === was)) who.value = was;
  };
  const build = (keep) => {
    const player = who.value;
    const nation = boardOf(view).nations.find((n) => n.player === player);
    form = actionForm(view, ctx, {
      nation: nation ? nation.name : "", join: !nation, pass: true, keep,
      extra: nation ? null : h("div", null, h("label", { class: "block" }, "the new player's name", newName), h("label", null, issue, "give them a link of their own")),
      send: async (text) => {
        const name = player || newName.value.trim();
        if (!name) { ctx.say("Name the player first."); return; }
        const r = await ctx.judgeMove({ player: name, action: text }, !nation && issue.checked);
        if (r.ok && r.data.player) links.append(ctx.linkCard(`${r.data.player.name}'s link`, r.data.player.url, "their own link: they act for themself"));
        if (r.ok && !nation) newName.value = "";
      },
    });
    ctx.setPicker(form);
    place.replaceChildren(form);
  };
  // The end of the turn, under turn management (the board's turn is 0
  // without it): sent with the move this page last saw, so that a turn
  // that ended meanwhile (its nations done, its time up) is not ended
  // twice.
  const turnNote = h("span", { class: "small muted" });
  const turnSaid = h("p", { class: "error", role: "alert" });
  const turnBox = h("div", null, h("p", { class: "row" }, h("button", { type: "button", class: "end-turn", onclick: async () => {
    const turn = boardOf(view).turn;
    turnSaid.textContent = "";
    const moved = `Turn ${turn} was not ended: the match moved on since this page last saw it (move ${seq}), and the turn may have ended meanwhile; look at the board, and end the turn again if it still should`;
    const r = await ctx.judgeMove({ action: "end-turn" }, false, "", { expectSeq: seq, moved });
    if (!r.ok) turnSaid.textContent = r.status === 409 && r.code === "moved" ? moved + "." : `Turn ${turn} was not ended: ${ctx.refusal(r)}`;
  } }, "End the turn"), turnNote), turnSaid);
  const turn = () => {
    const t = boardOf(view).turn;
    turnBox.hidden = !(t > 0);
    turnNote.textContent = t > 0 ? `Turn ${t} is under way; this ends it for every nation.` : "";
  };
  // A new link for each player who has joined: their old one stops
  // working.
  const roster = h("div");
  const playerList = () => {
    const names = boardOf(view).nations.map((n) => [n.player, n.name]);
    roster.replaceChildren(...(names.length ? [h("h3", null, "The players' links"),
      h("ul", null, names.map(([name, nation]) => h("li", null, `${name} (${nation}) `, h("button", { type: "button", class: "small", "data-player": name, onclick: async () => {
        if (!confirm(`Give ${name} a new link? Their old one, if any, stops working.`)) return;
        const r = await ctx.reissuePlayer(name);
        if (r.ok) links.append(ctx.linkCard(`${r.data.player.name}'s new link`, r.data.player.url, "their own link: their old one no longer works"));
        else ctx.say(ctx.refusal(r));
      } }, "New link"))))] : []));
  };
  who.addEventListener("change", () => build(null));
  players();
  build(null);
  turn();
  playerList();
  // The board changes: the players and what they may do, what was chosen
  // kept where it still holds.
  ctx.onUpdate((next) => {
    view = next.view;
    seq = next.seq;
    players();
    build(form && form.state());
    turn();
    playerList();
  });
  return h("section", { class: "panel" }, h("h2", null, "The referee's actions"),
    h("p", { class: "small muted" }, `Name a new player, choose their territory${ctx.map ? " (or click it on the map)" : ""} and send the join; then act for any nation.`),
    h("label", { class: "block" }, "for", who), place, turnBox, roster, links);
}
