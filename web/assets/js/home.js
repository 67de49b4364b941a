// The home page: the games and their rules, a form that starts a match
// (each seat a built-in bot, an HTTP bot or a person; the game's options
// and presets; a judge), the links to share with their QR codes, and the
// matches under way.
import { h, replace, announce } from "./dom.js";
import { call, waitWords, gaveUpWords } from "./api.js";
import { linkCard } from "./links.js";

const el = (x) => document.getElementById(x);
let games = [];

function current() {
  const g = games.find((x) => x.name === el("game").value) || games[0];
  const mode = g.modes.find((x) => x.name === el("mode").value) || g.modes[0];
  return { g, mode };
}

// seatRow is one seat of the form: a bot by name, a person (with a name),
// or a bot at a URL.
function seatRow(g, player = "person", name = "") {
  const kinds = [...g.players.filter((p) => p !== "person" && !p.includes("<")).map((p) => [p, `bot: ${p}`]), ["person", "a person"], ["http", "a bot on the web (its URL)"]];
  const custom = g.players.filter((p) => p.includes("<"));
  const isURL = /^https?:\/\//.test(player);
  const known = kinds.some(([k]) => k === player);
  const sel = h("select", { name: "player", "aria-label": "who plays this seat" }, kinds.map(([k, t]) => h("option", { value: k, selected: isURL ? k === "http" : k === player }, t)),
    !known && !isURL ? h("option", { value: player, selected: true }, `bot: ${player}`) : null);
  const who = h("input", { type: "text", name: "name", placeholder: "their name (optional)", value: name, autocomplete: "off", maxlength: 32, "aria-label": "the person's name" });
  const url = h("input", { type: "url", name: "url", placeholder: "https://…", value: isURL ? player : "", "aria-label": "the bot's URL" });
  const remove = h("button", { type: "button", class: "danger", "aria-label": "remove this seat", onclick: () => { li.remove(); seatsChanged(); } }, "Remove");
  const li = h("li", { class: "row" }, h("span", { class: "seat-no", "aria-hidden": "true" }), sel, who, url, remove);
  const show = () => { who.hidden = sel.value !== "person"; url.hidden = sel.value !== "http"; };
  sel.addEventListener("change", show);
  show();
  if (custom.length) sel.title = "bots also by pattern: " + custom.join(", ");
  return li;
}

function seatsChanged() {
  const { mode } = current();
  const n = el("seats").children.length;
  el("add-seat").disabled = n >= mode.seats.max;
  for (const b of el("seats").querySelectorAll("button.danger")) b.disabled = n <= mode.seats.min;
  [...el("seats").children].forEach((li, i) => {
    li.querySelector(".seat-no").textContent = `Seat ${i + 1}`;
    li.querySelector("select").setAttribute("aria-label", `who plays seat ${i + 1}`);
  });
}

function optionField(o, g) {
  const id = "opt-" + o.name;
  if (o.kind === "bool") return h("label", null, h("input", { type: "checkbox", id, name: o.name, checked: o.default === "true" }), `${o.name}: ${o.usage}`);
  if (o.name === "preset" && g.presets) {
    return h("label", { class: "block" }, `${o.name}: ${o.usage}`, h("select", { id, name: o.name }, g.presets.map((p) => h("option", { value: p, selected: p === o.default }, p))));
  }
  const attrs = o.kind === "int" ? { type: "number", min: o.min, max: o.max, step: 1, inputmode: "numeric" } : { type: "text" };
  return h("label", { class: "block" }, `${o.name}: ${o.usage}${o.kind === "int" ? ` (${o.min} to ${o.max})` : ""}`, h("input", { id, name: o.name, value: o.default, ...attrs }));
}

// playMode is the way of playing a game that the form starts with: the
// first in which people play seats, beside bots, with no judge making the
// moves (territories' seats: a newcomer who clicks Start plays against
// the AI, rather than getting a judge's console and no seat), else the
// game's first.
function playMode(g) {
  return g.modes.find((m) => m.seats.max > 0 && !m.judge) || g.modes[0];
}

function gameChanged() {
  const g = games.find((x) => x.name === el("game").value);
  replace(el("mode"), g.modes.map((m) => h("option", { value: m.name }, m.name || "the game's own")));
  el("mode").value = playMode(g).name;
  el("mode-label").hidden = g.modes.length < 2;
  // Each way of playing, in one line: whom it is for.
  replace(el("modes-for"), g.modes.length < 2 ? null : g.modes.map((m) => h("li", { "data-mode": m.name }, h("strong", null, m.name), ": ", m.for || m.about)));
  el("modes-for").hidden = g.modes.length < 2;
  modeChanged();
}

function modeChanged() {
  const { g, mode } = current();
  el("about").textContent = mode.about;
  el("seat-range").textContent = mode.seats.max === 0 ? "Players join by name as the judge makes them; no seats." : `${mode.seats.min} to ${mode.seats.max} seats.`;
  const defaults = mode.seats.max === 0 ? [] : g.name === "zombie" ? Array(5).fill("person")
    : ["person", ...g.default_players.flatMap((p) => (p === "basic" ? ["basic.conquer", "basic.develop"] : p === "fixed" ? ["adapt", "conquer"] : [p]))].slice(0, Math.max(mode.seats.min, Math.min(mode.seats.max, 4)));
  while (defaults.length < mode.seats.min) defaults.push(g.players.find((p) => p !== "person" && !p.includes("<")) || "person");
  replace(el("seats"), defaults.map((p) => seatRow(g, mode.judge && mode.seats.max > 0 ? "person" : p)));
  el("seats").closest("fieldset").hidden = mode.seats.max === 0;
  seatsChanged();
  replace(el("options"), mode.options.map((o) => optionField(o, g)));
  el("options-box").hidden = mode.options.length === 0;
  el("judge").checked = mode.judge;
  el("judge").disabled = mode.judge;
}

async function create(ev) {
  ev.preventDefault();
  const { g, mode } = current();
  const seats = [...el("seats").children].map((li) => {
    const kind = li.querySelector("select").value;
    if (kind === "http") return { player: li.querySelector("input[name=url]").value.trim() };
    if (kind === "person") {
      const name = li.querySelector("input[name=name]").value.trim();
      return name ? { player: "person", name } : { player: "person" };
    }
    return { player: kind };
  });
  const options = {};
  for (const o of mode.options) {
    const input = el("opt-" + o.name);
    const v = o.kind === "bool" ? String(input.checked) : input.value.trim();
    if (v !== o.default) options[o.name] = o.kind === "int" ? Number(v) : o.kind === "bool" ? input.checked : v;
  }
  const body = { game: g.name, seats, options };
  if (mode.name) body.mode = mode.name;
  if (el("judge").checked) body.judge = true;
  if (el("private").checked) body.private = true;
  const people = Number(el("people-time").value);
  if (people) body.time = { people_ms: people };
  el("start").disabled = true;
  el("create-error").textContent = "";
  const cs = el("create-secret").value;
  // A creation the server asks to send again later because it takes too
  // many a minute is sent again, the form telling so meanwhile. One met
  // with its database out of reach is not: the database may have stored
  // the match as it went away, and sent again it would be two.
  const r = await call("POST", "/matches", { body, secret: cs || undefined, onWait: (w) => { el("create-error").textContent = waitWords(w); } });
  el("start").disabled = false;
  el("create-error").textContent = "";
  if (!r.ok) {
    el("create-error").textContent = r.gaveUp ? `The match was not started: ${gaveUpWords(r)}. Start it again in a moment.`
      : r.code === "unavailable" ? `The server cannot reach its database for now, and may have started the match or not: look for it among the matches before starting it again.`
      : r.error;
    if (r.code === "create-forbidden") el("create-secret-label").hidden = false;
    return;
  }
  showLinks(r.data, seats);
  listMatches();
}

function showLinks(c, seats) {
  const cards = [];
  for (const s of c.seats || []) {
    if (!s.url) continue;
    const name = seats[s.seat]?.name;
    cards.push(linkCard(`Seat ${s.seat + 1}${name ? " · " + name : ""}`, s.url, "this person's own link"));
  }
  if (c.judge) cards.push(linkCard("The judge", c.judge.url, "the judge sees everything: keep it to yourself"));
  cards.push(linkCard("Watch", c.watch_url, "for anyone: the public view"));
  replace(el("link-cards"), cards);
  const host = new URL(c.watch_url).hostname;
  if (host === "127.0.0.1" || host === "localhost" || host === "[::1]") {
    cards.unshift(h("p", { class: "note" }, "These links name this machine's own address: other phones cannot open them. For friends on your network, start the server with ",
      h("code", null, "arbiter serve --addr 0.0.0.0:8080 --public-url http://ADDRESS:8080"), ", ADDRESS being this machine's on the network, and start the match again."));
    el("link-cards").prepend(cards[0]);
  }
  el("links").hidden = false;
  el("links").scrollIntoView();
  el("links-h").focus?.();
  announce("The match is started: its links are below.");
  document.body.dataset.created = c.id;
}

async function listMatches() {
  const r = await call("GET", "/matches", { query: { limit: 20 } });
  if (!r.ok) { replace(el("match-list"), h("p", { class: "error" }, r.gaveUp ? `${gaveUpWords(r, true)}: reload the page in a moment.` : r.error)); return; }
  const ms = r.data.matches;
  replace(el("match-list"), ms.length ? h("ul", { class: "log" }, ms.map((x) => h("li", null,
    h("a", { href: `/m/${x.id}` }, `${x.game}${x.mode ? " · " + x.mode : ""}`), ` — ${x.status}, ${x.seq === null ? "cannot be loaded" : `move ${x.seq}`}, ${x.seats?.length ? `${x.seats.length} seats (${x.people} ${x.people === 1 ? "person" : "people"})` : "players join as they come"}, `,
    h("time", { datetime: x.created }, new Date(x.created).toLocaleString()),
    x.status !== "running" ? [" · ", h("a", { href: `/replay?match=${x.id}` }, "replay")] : null))) : h("p", { class: "muted" }, "None yet."));
}

function listGames() {
  replace(el("game-list"), games.map((g) => h("details", { class: "panel", id: "rules-" + g.name },
    h("summary", null, h("strong", null, g.name), " — ", g.title),
    h("p", { class: "small" }, `${g.seats.min} to ${g.seats.max} seats. Built-in bots: ${g.players.filter((p) => p !== "person").join(", ")}.`),
    g.modes.length > 1 ? h("ul", { class: "small" }, g.modes.map((m) => h("li", null, h("strong", null, m.name), ": ", m.about))) : null,
    h("pre", null, g.rules))));
}

async function main() {
  const r = await call("GET", "/games", { onWait: (w) => { el("create-error").textContent = waitWords(w); } });
  el("create-error").textContent = "";
  if (!r.ok) { el("create-error").textContent = r.gaveUp ? `${gaveUpWords(r, true)}: reload the page in a moment.` : r.error; return; }
  games = r.data;
  replace(el("game"), games.map((g) => h("option", { value: g.name }, `${g.name} — ${g.title.split(":")[0]}`)));
  const want = new URLSearchParams(location.search).get("game");
  if (want && games.some((g) => g.name === want)) el("game").value = want;
  el("game").addEventListener("change", gameChanged);
  el("mode").addEventListener("change", modeChanged);
  el("add-seat").addEventListener("click", () => {
    const { g } = current();
    el("seats").append(seatRow(g, "person"));
    seatsChanged();
  });
  el("all-people").addEventListener("click", () => {
    for (const li of el("seats").children) { const s = li.querySelector("select"); s.value = "person"; s.dispatchEvent(new Event("change")); }
  });
  el("create").addEventListener("submit", create);
  gameChanged();
  listGames();
  listMatches();
  document.body.dataset.ready = "1";
  window.arbiterReady = performance.now();
}

main();
