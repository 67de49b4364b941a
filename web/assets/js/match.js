// A match's page: a seat's (its link's secret), the judge's console, a
// named player's, or a spectator's (no secret). It shows the board as its
// reader may see it, the decisions owed as controls that offer only legal
// moves, the rules' reason when a move is refused, what happened, and
// follows the match live over its event stream, coming back by itself.
import { h, replace, num, announce, pretty, endReason, seatName } from "./dom.js";
import { call, secretOf, forget, waitWords, gaveUpWords } from "./api.js";
import { follow } from "./stream.js";
import { measureCharts } from "./chart.js";
import { linkCard, copyable } from "./links.js";

const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const secret = secretOf(id);
const el = (x) => document.getElementById(x);

let m = null; // the match as the reader sees it now
let game = null; // the game's module
let ctx = null;
let requestsKey = null; // the requests whose controls are shown, and the match's status
let sent = new Set(); // requests answered from this page, until the match says so
let picker = null; // the form that takes clicks on the map
let judgeDone = false; // the judge's console was drawn again, without its tools, for a match that has ended
const updates = []; // called after every change

const titles = { ajveciv: "AjveCiv", reaj: "Reaj", tncc: "TNCC", territories: "Territories", zombie: "Zombie" };

function say(text, bad = true) {
  unsent = null;
  const r = el("refusal");
  r.textContent = text;
  r.className = bad ? "error" : "";
  if (!bad) announce(text);
  playedLine = null;
}

// playedLine, when the line under the decisions tells a move this page
// played, holds the ids of the requests owed when it was sent: the line is
// cleared once another decision is owed, or the match ends.
let playedLine = null;

function sayPlayed(text, owed) {
  say(text, false);
  playedLine = owed;
}

function clearPlayed() {
  unsent = null;
  el("refusal").textContent = "";
  announce("");
  playedLine = null;
}

// waiting tells, under the decisions, that the server asked this page to
// wait and send its call again (call's onWait): calmly, not as an
// error; a screen reader hears it at a call's first wait only.
function waiting(w) {
  if (w.retry === 1) say(waitWords(w), false);
  else {
    const r = el("refusal");
    r.textContent = waitWords(w);
    r.className = "";
  }
  waitLine = waitWords(w);
}

// waitLine is the wait told last under the decisions.
let waitLine = null;

// doneWaiting clears the line under the decisions of a wait it still
// tells, once the call is answered with nothing else to say.
function doneWaiting() {
  if (waitLine !== null && el("refusal").textContent === waitLine) clearPlayed();
  waitLine = null;
}

// refusal is what the page tells of a call refused (r, as call answers
// it): the server's reason, or that it stayed busy until the page gave up.
function refusal(r) {
  return r.gaveUp ? `${gaveUpWords(r, true)}. Try again in a moment.` : r.error;
}

// The Idempotency-Keys of this page's moves: a random prefix of the
// page's own (a seat's pages in two tabs never share one), and a count.
const keyPrefix = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
let keysMade = 0;
const newKey = () => `${keyPrefix}-${++keysMade}`;

// keys are the keys given to moves: an answer to a request keeps its key
// for as long as the page lives (the same move to the same request is
// never made twice, however often it is sent); a free-form move (a
// judge's, a named player's) keeps its key only while its sending was
// left unanswered (the server out of reach, or busy past the page's
// patience), so that the same action played again later is a move of its
// own.
const keys = new Map();

// keyFor returns the key of what (a request's answer, or a free-form
// move's body, as text).
function keyFor(what) {
  let k = keys.get(what);
  if (!k) {
    k = newKey();
    keys.set(what, k);
  }
  return k;
}

// settled forgets the key of a free-form move once the server answered it.
function settled(what, r) {
  if (r.status !== 0 && !r.gaveUp) keys.delete(what);
}

// words words a move for people, through its game's module.
function words(move) {
  return game && game.moveWords ? game.moveWords(move, ctx) : pretty(move);
}

async function main() {
  const r = await call("GET", `/matches/${id}`, { secret, onWait: (w) => { el("live").textContent = waitWords(w); } });
  if (!r.ok) {
    if (r.status === 401 || r.status === 403) forget(id);
    replace(el("main"), h("h1", null, "This match cannot be shown"), h("p", { class: "error" }, refusal(r)),
      r.status === 401 ? h("p", null, "The secret of this link is not known here: the judge may have given you a new link. Ask them for it.") : null,
      h("p", null, h("a", { href: "/" }, "Back to the home page")));
    return;
  }
  m = r.data;
  // The game's module and a territories match's map, asked for at once.
  const drawn = m.game === "territories"
    ? fetch(`/api/v1/matches/${id}/map.svg`, { credentials: "omit" }).then((mr) => (mr.ok ? mr.text() : null), () => null)
    : null;
  game = await import(`./games/${m.game}.js`);
  const map = await drawn;
  ctx = {
    role: m.you.role, seat: m.you.seat ?? null, name: m.you.name || "", game: m.game, mode: m.mode || "", map,
    players: m.seats.map((s) => s.player),
    send, judgeMove, act, say, refusal, linkCard, script, reissuePlayer,
    pick: (tid) => picker && picker.pick && picker.pick(tid),
    setPicker: (f) => { picker = f; },
    selected: () => (picker && picker.selected) || [],
    redraw: () => drawBoard(),
    // clock is the match's time now, as its charts count it (AjveCiv's
    // turns played), for a board whose view does not say it.
    clock: () => m.clock ?? null,
    // over is whether the match has ended, for a board that tells the turn
    // under way.
    get over() { return m.status !== "running"; },
    onUpdate: (fn) => updates.push(fn),
  };
  el("title").textContent = `${titles[m.game] || m.game}${m.mode ? " · " + m.mode : ""}`;
  document.title = `${el("title").textContent} — Arbiter`;
  el("who").replaceChildren(whoText());
  el("replay-link").href = `/replay?match=${encodeURIComponent(id)}`;
  render(m);
  addEventListener("resize", widen);
  if (ctx.role === "judge") judgePanel();
  document.body.dataset.ready = "1";
  window.arbiterReady = performance.now();
  story();
  follow(id, secret, {
    onMatch: (next) => { if (!m || next.seq >= m.seq) { m = next; render(m); storySoon(); } },
    onEnd: () => { live("the match is over", "off"); refresh(); clearTimeout(storyTimer); story(); },
    onState: (s, why) => {
      live(s === "live" ? "live" : s === "reconnecting" ? "reconnecting…" : s === "offline" ? "offline: waiting for the network…"
        : s === "busy" ? `the server is busy; reconnecting in ${Math.max(1, Math.ceil(why / 1000))} s…` : "stopped: " + why, s === "live" ? "live" : "off");
      if (s === "live") back();
    },
  });
}

// unsent, when the line under the decisions says a move could not be
// sent (the server out of reach), is the request it answered: once the
// stream is back, the line says whether the move is still to be played.
let unsent = null;

// unreachable tells that the move for request q (a judge's or a named
// player's move: none) could not be sent; the page says so until the
// server is reached again.
function unreachable(r, q) {
  say(`Not sent: ${r.error}. ${q ? "Play it again" : "Send it again"} once the page says live.`);
  unsent = q ? q.id : -1;
}

// back is called when the stream is open again: a move that could not be
// sent meanwhile is told anew from the match as it is now (it may have
// been played after all, its answer lost on the way back, or the
// decision been defaulted), not left as the server being out of reach.
async function back() {
  if (unsent === null) return;
  const was = unsent;
  await refresh();
  if (unsent !== was) return;
  unsent = null;
  if (was >= 0 && m.requests.some((q) => q.id === was) && !sent.has(was)) say(`The connection is back; ${ctx.role === "judge" ? "the" : "your"} move was not played: play it again.`);
  else if (was >= 0) clearPlayed();
  else say("The connection is back; look at the match again before you send it again.", false);
}

// refresh reads the match again.
async function refresh() {
  const r = await call("GET", `/matches/${id}`, { secret });
  if (r.ok && r.data.seq >= m.seq) { m = r.data; render(m); }
}

function live(text, cls) {
  const s = el("live");
  s.textContent = text;
  s.className = cls === "live" ? "status-live" : "status-off";
  document.body.dataset.stream = cls === "live" ? "live" : text;
}

function whoText() {
  const you = m.you;
  if (you.role === "seat") return h("span", null, "You play ", h("strong", null, `seat ${you.seat + 1}`), m.seats[you.seat]?.player !== "person" ? ` (${m.seats[you.seat].player})` : "", ". Keep your link to yourself: it is your seat. ", ownLink("it is your seat"));
  if (you.role === "judge") return h("span", null, h("strong", null, "The judge's console"), ": you see everything. Keep your link to yourself. ", ownLink("it is the judge's console"));
  if (you.role === "player") return h("span", null, "You are ", h("strong", null, you.name), ", a named player. ", ownLink("it is your place in the game"));
  return h("span", null, "You are watching: you see what everyone may see.");
}

// ownLink gives back the link this page was opened with: its address no
// longer holds the secret (kept for this tab only, so that it is not seen
// over a shoulder), and a bookmark or a copy of the address opens the
// spectator's page.
function ownLink(what) {
  const url = `${location.origin}${location.pathname}#s=${secret}`;
  return h("details", { class: "own-link" }, h("summary", null, "Your link"),
    h("p", { class: "small muted" }, `The address bar does not show your link's secret: a bookmark of this page opens it as a spectator. Keep this link to come back; ${what}.`),
    h("div", { class: "row" }, ...copyable("Your link", url)));
}

// render draws the match as it stands.
function render(match) {
  // An ended match is told once, by the stream's status beside this
  // ("the match is over"); an aborted one says so here too.
  el("progress").textContent = `${match.status === "running" ? "under way · " : match.status === "over" ? "" : `${match.status} · `}move ${num(match.seq)}${match.seeded ? " · seeded by its creator" : ""}${match.judge ? " · has a judge" : ""}`;
  document.body.dataset.seq = String(match.seq);
  document.body.dataset.status = match.status;
  drawBoard();
  drawRequests();
  drawSeats();
  drawResult();
  if (ctx.role === "player" && game.playerTools) replace(el("player"), match.status === "running" ? game.playerTools(m, ctx, el("player").firstChild) : null);
  if (ctx.role === "judge" && match.status !== "running" && !judgeDone) {
    judgeDone = true;
    judgePanel();
  }
  for (const fn of updates) fn(match);
}

function drawBoard() {
  const board = el("board");
  const place = placeIn(board);
  replace(board, game.board(m.view, ctx));
  if (place) {
    // A keyboard's place on the board (a territory of the map) is kept
    // when the board is drawn anew.
    const again = place.id ? board.querySelector(`[id="${CSS.escape(place.id)}"]`) : [...board.querySelectorAll(place.tag)].find((e) => e.textContent === place.text);
    if (again) again.focus();
  }
  widen();
}

// placeIn returns where the focus is within box, to find it again once box
// is drawn anew: its element's id, or its tag and text; null when the
// focus is elsewhere.
function placeIn(box) {
  const a = document.activeElement;
  if (!a || a === document.body || !box.contains(a)) return null;
  return { id: a.id, tag: a.tagName.toLowerCase(), text: a.textContent };
}

// lost reports that the focus fell out of the page: its element was taken
// away by a drawing anew.
function lost() {
  const a = document.activeElement;
  return !a || a === document.body || !a.isConnected;
}

// focusOwed puts the focus on what the decisions now say (the heading of
// the first decision owed, or why none is), when it was among the
// decisions drawn anew: a keyboard (or a screen reader) keeps its place
// after a move, rather than starting again from the top of the page.
function focusOwed(had) {
  if (!had || !lost()) return;
  const to = el("requests").querySelector(".request h3, #not-owed");
  if (!to) return;
  to.setAttribute("tabindex", "-1");
  to.focus({ preventScroll: true });
}

// widen gives the board the page's width, for the rest of the page's life,
// once something in it is wider than its column: a board that scrolls
// sideways at a desktop's width hides columns (AjveCiv's table of every
// society and value). On a phone the page has one column whatever it says.
function widen() {
  const layout = el("layout");
  if (layout.classList.contains("wide") || !matchMedia("(min-width: 60rem)").matches) return;
  const board = el("board");
  if ([board, ...board.querySelectorAll(".scroll, table")].some((e) => e.scrollWidth > e.clientWidth + 1)) layout.classList.add("wide");
}

// notOwed says why nothing is owed by this page's reader, and, in the games
// played one seat at a time, whose turn it is (turn_of): a game whose seats
// choose at once keeps who has chosen to itself.
function notOwed() {
  if (m.status !== "running") return "Nothing more is owed: the match is over.";
  if (m.you.out) return `${m.you.out}. The others play on; you may watch to the end.`;
  const turn = m.turn_of != null ? `It is ${seatName(m.seats, m.turn_of)}'s turn.` : "";
  if (ctx.role === "seat") return turn ? `Nothing is owed by you now. ${turn}` : "Nothing is owed by you now: the others are choosing.";
  if (ctx.role === "spectator") return turn ? `${turn} You see what the moves change as the match goes on; what each player keeps private stays so.` : "The players decide in private: you see what their moves change as the match goes on, not the moves themselves.";
  return turn ? `Nothing is owed now. ${turn}` : "Nothing is owed now.";
}

// drawRequests shows the decisions owed, as controls; kept as they are
// while the same decisions are owed, so that a half-filled form survives
// an update.
function drawRequests() {
  const open = m.requests.filter((q) => !sent.has(q.id));
  for (const q of sent) if (!m.requests.some((r) => r.id === q)) sent.delete(q);
  const key = m.status + ":" + (m.turn_of ?? "") + ":" + open.map((q) => q.id).join(",");
  // A decision newly owed, or the end: the move played before is old news.
  if (playedLine && (m.status !== "running" || open.some((q) => !playedLine.has(q.id)))) clearPlayed();
  if (key === requestsKey) return;
  requestsKey = key;
  const box = el("requests");
  const had = placeIn(el("owed")) !== null;
  if (ctx.game === "territories" && open.some((q) => q.kind === "join") && ctx.role === "seat") {
    // A free territory clicked on the map is the seat's join there.
    const q = open.find((x) => x.kind === "join");
    picker = { pick: (tid) => { const c = q.choices.find((x) => x.endsWith(" " + tid)); if (c) send(c, q); }, selected: [] };
  }
  if (!open.length) {
    replace(box, h("p", { class: "muted", id: "not-owed" }, notOwed()));
    el("owed").classList.remove("owed");
    focusOwed(had);
    return;
  }
  el("owed").classList.add("owed");
  replace(box, open.map((q) => requestControls(q)));
  focusOwed(had);
  announce(ctx.role === "seat" ? "Your move." : `${open.length} decision${open.length === 1 ? " is" : "s are"} owed.`);
}

const asks = {
  turn: "choose this turn's value", inflection: "an inflection: choose one of your three highest values", plan: "plan your turn",
  join: "join: choose your territory", action: "your action", "trade answer": "answer the offer", "war answer": "defend against the attack",
};

function requestControls(q) {
  const view = ctx.role === "judge" && m.view.seats ? m.view.seats[q.seat] : m.view;
  const ask = ctx.role === "judge" ? `Seat ${q.seat + 1} (${m.seats[q.seat]?.player}) owes: ${q.kind}` : (game.asks && game.asks[q.kind]) || asks[q.kind] || q.kind;
  const head = h("h3", null, ask);
  const parts = [head];
  if (q.deadline) parts.push(h("p", { class: "small" }, `Answer by ${new Date(q.deadline).toLocaleTimeString()}; then the default is played.`));
  if (q.choices && q.choices.length) {
    parts.push(h("div", { class: "row", role: "group", "aria-label": ask }, q.choices.map((c) => {
      const text = game.label(c, q, view, ctx);
      const isDefault = JSON.stringify(c) === JSON.stringify(q.default);
      const about = game.describe ? game.describe(c) : "";
      return h("button", { type: "button", class: "choice", "data-move": pretty(c), title: about || null, onclick: () => send(c, q) },
        text, isDefault ? h("span", { class: "small muted" }, " (default)") : null, about ? h("span", { class: "sr-only" }, ": " + about) : null);
    })));
    if (game.describe) parts.push(h("ul", { class: "small muted" }, q.choices.map((c) => h("li", null, h("strong", null, game.label(c, q, view, ctx)), ": ", game.describe(c)))));
  } else {
    const f = game.form ? game.form(q, view, ctx) : null;
    if (f) parts.push(f);
    const text = words(q.default);
    parts.push(h("p", null, h("button", { type: "button", onclick: () => send(q.default, q) }, "Play the default"), " ", h("span", { class: "small muted" }, text)));
  }
  return h("div", { class: "request", "data-request": q.id, "data-kind": q.kind }, parts);
}

// sending are the requests whose answer is on its way: a second tap (a
// double tap on a phone, an impatient one on a slow network) sends
// nothing more, rather than a second answer the server refuses as no
// longer open, whose refusal would be told over the move just played.
const sending = new Set();

// send answers request q with move.
async function send(move, q) {
  if (sending.has(q.id) || sent.has(q.id)) return null;
  sending.add(q.id);
  try {
    return await answer(move, q);
  } finally {
    sending.delete(q.id);
  }
}

async function answer(move, q) {
  say("Sending…", false);
  const from = m.seq; // the match as the page saw it when the move was made
  const owed = new Set(m.requests.map((x) => x.id));
  const r = await call("POST", `/matches/${id}/moves`, { secret, body: { request: q.id, move }, key: keyFor(`request ${q.id}: ${JSON.stringify(move)}`), onWait: waiting });
  if (r.ok) {
    sent.add(q.id);
    sayPlayed(ctx.role === "judge" ? `Played for seat ${q.seat + 1}: ${words(move)}.` : `You played: ${words(move)}.`, owed);
    requestsKey = null;
    drawRequests();
    if (r.data && r.data.outcome) storyNow(); // what it did, at once
    return r;
  }
  if (r.status === 0) {
    unreachable(r, q);
  } else if (r.status === 409 && r.code === "stale-request") {
    await late(q, from);
  } else if (r.status === 409) {
    say(r.error);
    refresh();
  } else if (r.status === 401) {
    say(`${r.error}. This link may have been replaced: ask the judge for the seat's new one.`);
  } else if (r.gaveUp) {
    say(`Not played: ${gaveUpWords(r)}. Play it again in a moment: the same move is never made twice.`);
  } else {
    say(r.status === 422 ? `Refused: ${r.error}` : r.error);
  }
  return r;
}

// late tells, in plain words, that request q was played before this
// page's answer reached the server, and how: its time ran out, or the
// judge played the defaults, and its default was played; or another page
// of the seat's answered it. The seat's own steps since the page sent
// its move (from, the match's move then) say which. The match is read
// again, so that the page moves on to the decision owed now. (The
// server's refusal, "request 1 is not open; ... read the match again",
// is for programs.)
async function late(q, from) {
  const view = ctx.role === "judge" ? "judge" : `seat:${q.seat}`;
  const [, r] = await Promise.all([refresh(), call("GET", `/matches/${id}/replay`, { secret, query: { view, frames: "0" } })]);
  const st = r.ok ? (r.data.views[0]?.steps || []).find((x) => x.seq > from && x.seat === q.seat) : null;
  const f = st && st.fault;
  const judge = ctx.role === "judge";
  const what = judge ? `seat ${q.seat + 1}'s decision` : "this decision";
  const forWhom = judge ? "" : " for you";
  const played = st && st.move !== undefined ? `, with its default: ${words(st.move)}` : ", with its default";
  let text;
  if (f && /^the judge/.test(f.detail || "")) text = `Too late: ${judge ? "you" : "the judge"} already played ${what}${forWhom}${played}.`;
  else if (f && f.kind === "timeout") text = `Too late: ${what} was already played${forWhom} (time ran out)${played}.`;
  else if (f && f.kind === "abandoned") text = `Too late: ${what} was already played${forWhom} (the seat resigned)${played}.`;
  else if (f) text = `Too late: ${what} was already played${forWhom} (${f.kind})${played}.`;
  else if (st) text = `Too late: ${what} was already answered${st.move !== undefined ? `: ${words(st.move)}` : ""}${judge ? ", by the seat" : ", from another page of this seat's"}.`;
  else text = `Too late: ${what} was already played${forWhom} (its time ran out, or the judge played it).`;
  const mine = m.requests.filter((x) => !sent.has(x.id) && (judge || x.seat === ctx.seat));
  const next = m.status !== "running" ? "The match is over." : mine.length ? (judge ? "The decisions owed now are above." : "Here is your next one.") : notOwed();
  say(`${text} ${next}`, false);
}

// judgeMove sends a judge's move (a command, a referee's action); with
// o.expectSeq, only if the match is still at that move: if it has moved on
// meanwhile, the move is refused, o.moved (or a word of the match's
// own) says so, and the match is read again.
async function judgeMove(move, issue = false, prefix = "", o = {}) {
  const body = { move };
  if (issue) body.issue_secret = true;
  if (o.expectSeq !== undefined && o.expectSeq !== null) body.expect_seq = o.expectSeq;
  say("Sending…", false);
  const what = JSON.stringify(body);
  const r = await call("POST", `/matches/${id}/moves`, { secret, body, key: keyFor(what), onWait: waiting });
  settled(what, r);
  if (r.ok) say(`${prefix}done: ${words(move)} (move ${r.data.seq})`, false);
  else if (r.status === 0) unreachable(r, null);
  else if (r.status === 409 && r.code === "moved") {
    say(`${prefix}${o.moved || `not done: the match moved on since move ${o.expectSeq}, the last this page saw; look at it again before you send ${words(move)} again`}.`);
    refresh();
  } else if (r.gaveUp) say(`${prefix}not done: ${gaveUpWords(r)}. Send it again in a moment: it is never made twice.`);
  else say(`${prefix}${r.status === 422 ? "refused: " : ""}${r.error}`);
  return r;
}

// reissuePlayer gives a named player of a referee match a new link; their
// old one stops working.
async function reissuePlayer(name) {
  const r = await call("POST", `/matches/${id}/players/${encodeURIComponent(name)}/reissue`, { secret, onWait: waiting, again: true });
  if (r.ok) doneWaiting();
  return r;
}

// act sends a named player's action.
async function act(move) {
  say("Sending…", false);
  const what = JSON.stringify({ move });
  const r = await call("POST", `/matches/${id}/moves`, { secret, body: { move }, key: keyFor(what), onWait: waiting });
  settled(what, r);
  if (r.ok) {
    say(`done: ${words(move.action ?? move)}`, false);
    if (r.data && r.data.outcome) storyNow();
  }
  else if (r.status === 0) unreachable(r, null);
  else if (r.gaveUp) say(`Not done: ${gaveUpWords(r)}. Send it again in a moment: it is never made twice.`);
  else say(`${r.status === 422 ? "Refused: " : ""}${r.error}`);
  return r;
}

// script returns the judge's moves so far.
async function script() {
  const r = await call("GET", `/matches/${id}/replay`, { secret, query: { view: "judge", frames: "0" } });
  if (!r.ok) return [];
  return r.data.views[0].steps.filter((s) => s.seat === -1).map((s) => pretty(s.move));
}

function drawSeats() {
  const rows = m.seats.map((s) => h("tr", { class: ctx.seat === s.seat ? "you" : null },
    h("th", { scope: "row", class: "left" }, `${s.seat + 1}`),
    h("td", { class: "left" }, s.player + (ctx.seat === s.seat ? " (you)" : "")),
    h("td", { class: "left" }, s.person ? "a person" : "a bot", s.resigned ? ", resigned" : "", m.status === "running" && m.turn_of === s.seat ? h("strong", { class: "turn-of" }, " · to play") : ""),
    ctx.role === "judge" ? h("td", null, s.person ? h("button", { type: "button", onclick: () => reissue(s.seat) }, "New link") : "") : null));
  replace(el("seats"), m.seats.length ? h("div", { class: "scroll" }, h("table", null,
    h("thead", null, h("tr", null, h("th", { scope: "col" }, "seat"), h("th", { scope: "col", class: "left" }, "player"), h("th", { scope: "col", class: "left" }, "who"), ctx.role === "judge" ? h("th", { scope: "col" }, "link") : null)),
    h("tbody", null, rows))) : h("p", { class: "muted" }, "No seats: players join by name."),
  ctx.role === "seat" && m.status === "running" && !m.you.out ? h("p", null, h("button", { type: "button", class: "danger", onclick: resign }, "Resign this seat")) : null);
}

async function reissue(seat) {
  if (!confirm(`Give seat ${seat + 1} a new link? Its old link stops working.`)) return;
  const r = await call("POST", `/matches/${id}/seats/${seat}/reissue`, { secret, onWait: waiting, again: true });
  if (r.ok) {
    doneWaiting();
    el("judge-links").append(linkCard(`Seat ${seat + 1}'s new link`, r.data.url));
  } else say(refusal(r));
}

async function resign() {
  if (!confirm("Leave this match? Your seat's decisions get their defaults from then on.")) return;
  const r = await call("POST", `/matches/${id}/resign`, { secret, onWait: waiting });
  say(r.ok ? "You have resigned." : refusal(r), !r.ok);
}

function drawResult() {
  const box = el("result");
  if (m.status === "running") { box.hidden = true; return; }
  box.hidden = false;
  const res = m.result;
  const rows = res && res.scores ? m.seats.map((s, i) => h("tr", { class: ctx.seat === i ? "you" : null },
    h("th", { scope: "row", class: "left" }, `${i + 1} · ${s.player}${ctx.seat === i ? " (you)" : ""}`), h("td", null, num(res.ranks?.[i] ?? "")), h("td", null, num(res.scores[i])),
    h("td", { class: "left" }, (res.winners || []).includes(i) ? "winner" : ""), h("td", { class: "left" }, res.status?.[i] || ""))) : [];
  replace(box, h("h2", null, m.status === "aborted" ? "The match was aborted" : "The match is over"),
    res?.reason ? h("p", null, endReason(game.reasonWords ? game.reasonWords(res.reason, ctx) : res.reason)) : null,
    m.status === "over" ? howYouDid(res) : null,
    rows.length ? h("div", { class: "scroll" }, h("table", null, h("thead", null, h("tr", null, ["seat", "rank", "score", "", ""].map((t) => h("th", { scope: "col" }, t)))), h("tbody", null, rows))) : null,
    rows.length && game.rankedBy ? h("p", { class: "small muted", id: "ranked-by" }, game.rankedBy) : null,
    h("p", null, h("a", { href: `/replay?match=${encodeURIComponent(id)}` }, "Watch it again in the replay viewer")));
}

// howYouDid tells a seat, in words, how the match went for it: whether it
// won (and with whom), else its rank and who won; the table below has the
// numbers.
function howYouDid(res) {
  if (ctx.role !== "seat" || ctx.seat === null || !res || !res.winners) return null;
  const me = ctx.seat;
  const names = (seats) => {
    const n = seats.map((i) => seatName(m.seats, i));
    return n.length < 2 ? n.join("") : `${n.slice(0, -1).join(", ")} and ${n[n.length - 1]}`;
  };
  const others = res.winners.filter((w) => w !== me);
  let text;
  if (res.winners.includes(me)) text = others.length ? `You won, with ${names(others)}.` : "You won.";
  else {
    const rank = res.ranks?.[me];
    const level = rank ? res.ranks.filter((r, i) => r === rank && i !== me).length : 0;
    text = "You did not win" + (rank ? `: your rank is ${rank} of ${m.seats.length}${level ? `, level with ${level} other${level === 1 ? "" : "s"}` : ""}` : "") +
      (res.winners.length ? `; ${res.winners.length === 1 ? "the winner is" : "the winners are"} ${names(res.winners)}.` : "; nobody won.");
  }
  return h("p", { id: "you-did" }, h("strong", null, text));
}

// judgePanel is the judge's console: the game's own tools, and every
// game's: end a turn (the defaults of the open requests), abort, new links.
// Once the match has ended, only the way to the replay viewer is left.
function judgePanel() {
  const box = el("judge");
  box.hidden = false;
  // The game's tools; once the match is over, what they keep to read (a
  // judge's script).
  const tools = game.judgeTools ? game.judgeTools(m, ctx) : null;
  const viewer = h("a", { href: `/replay?match=${encodeURIComponent(id)}#s=${secret}`, rel: "noreferrer" }, "the replay viewer, as the judge");
  if (m.status !== "running") {
    replace(box, tools, h("section", { class: "panel" }, h("h2", null, "The judge"), h("p", null, "The match has ended. Watch it from the start in ", viewer, ".")));
    return;
  }
  const defaults = h("button", { type: "button", onclick: async () => {
    // Sent with the move this page last saw: a turn that ended meanwhile
    // (everyone moved) is not followed by the next one's defaults.
    const seen = m.seq;
    const r = await call("POST", `/matches/${id}/defaults`, { secret, body: { expect_seq: seen }, onWait: waiting });
    if (r.ok) say(`Played ${r.data.played} default${r.data.played === 1 ? "" : "s"}.`);
    else if (r.status === 409 && r.code === "moved") say(`No default was played: the match moved on since this page last saw it (move ${seen}), and the turn may have ended meanwhile; look at it again, and end the turn again if it still should.`, true);
    else say(refusal(r), true);
  } }, "Play the defaults of the open requests (end the turn)");
  const abort = h("button", { type: "button", class: "danger", onclick: async () => {
    if (!confirm("Abort the match? It ends now, for everyone.")) return;
    const r = await call("POST", `/matches/${id}/abort`, { secret, onWait: waiting });
    say(r.ok ? "The match is aborted." : refusal(r), !r.ok);
  } }, "Abort the match");
  replace(box, tools, h("section", { class: "panel" }, h("h2", null, "The judge"),
    h("div", { class: "row" }, m.mode === "judge" || m.mode === "referee" ? null : defaults, abort),
    h("p", null, "Watch it from the start in ", viewer, "."),
    h("div", { id: "judge-links", class: "cards" })));
}

// The story: the measures over time and the public events, read again a
// moment after each move.
let storyTimer = null;
function storySoon() {
  clearTimeout(storyTimer);
  storyTimer = setTimeout(story, 600);
}

// storyNow reads the story at once: after a move of this page's whose
// answer says what it did, for the panel of what happened since.
function storyNow() {
  clearTimeout(storyTimer);
  story();
}

let storyAsked = 0; // the story's readings asked for, the latest drawn only

async function story() {
  const asked = ++storyAsked;
  const r = await call("GET", `/matches/${id}/replay`, { secret, query: { view: "public", frames: "0" } });
  if (!r.ok || asked !== storyAsked) return;
  const v = r.data;
  drawSince(v.views[0]?.steps || [], v.clock);
  const charts = measureCharts(v.measures, v.players, v.clock, { events: v.events, looks: game.seatLooks?.(m.view, m.seats) });
  replace(el("charts"), charts.length ? charts : h("p", { class: "muted small" }, v.measures ? "Charts come once a turn or two has been played." : "This match draws no charts: its board tells it as it stands."));
  const evs = v.events.slice(-60).reverse();
  const none = game.tells === null ? `${titles[m.game] || m.game} tells its story by the charts above: no events.` : `Nothing told yet: ${game.tells || "what happens"} will be told here.`;
  replace(el("events"), evs.length ? evs.map((e) => h("li", null, h("span", { class: "muted" }, `${v.clock} ${e.clock}: `), e.text)) : h("li", { class: "muted" }, none));
}

// sinceKept is how many actions the panel of what happened since tells
// at most: as many as the terminal keeps.
const sinceKept = 32;

// drawSince tells, in the games whose moves are public (territories'
// actions: steps with what they did), what happened since the reader's
// last action, that action included, each with what it did (a battle's
// roll and losses, a conquest), as the terminal tells a seat. The panel
// stays until the reader acts again, however fast the others play after
// it: the line under the decisions gives way to the next decision at once.
// A reader who has not acted yet is told what happened so far; one who
// never acts (a spectator, the judge), the latest actions.
function drawSince(steps, clock) {
  const box = el("since");
  const told = steps.filter((s) => s.told);
  if (!told.length) { box.hidden = true; return; }
  const name = (ctx.name || "").toLowerCase();
  const mine = (s) => ctx.role === "seat" ? s.seat === ctx.seat
    : ctx.role === "player" ? String(s.told.outcome?.player || "").toLowerCase() === name : false;
  let from = -1;
  for (let i = told.length - 1; i >= 0; i--) if (mine(told[i])) { from = i; break; }
  const acts = ctx.role === "seat" || ctx.role === "player";
  const keep = from >= 0 || acts ? sinceKept : 10;
  const start = Math.max(from >= 0 ? from : 0, told.length - keep);
  el("since-h").textContent = from >= 0 ? "Since your last action" : acts ? "What happened so far" : "The latest actions";
  const note = el("since-note");
  const left = start - Math.max(from, 0); // the actions since that are not shown
  note.hidden = left === 0 || (from < 0 && !acts);
  note.textContent = `The ${num(left)} before these are not shown: the replay viewer has every one.`;
  replace(el("since-list"), told.slice(start).map((s) => h("li", { "data-seq": String(s.seq), class: mine(s) ? "you" : null },
    h("span", { class: "muted" }, `${clock} ${s.clock}${mine(s) ? " · your action" : ""}: `), s.told.text)));
  box.hidden = false;
}

main().catch((e) => {
  replace(el("main"), h("h1", null, "Something went wrong"), h("p", { class: "error" }, String(e)));
});
