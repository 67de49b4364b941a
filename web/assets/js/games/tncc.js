// TNCC on a page: every country's five resources, what happened this cycle
// and the last, the preset's numbers; a turn's action (wait, recruit, trade,
// war) as a form that offers what the rules allow; an offer to answer; the
// defence form when attacked, knowing only who attacks and with how many.
import { h, num, table, voice } from "../dom.js";

// tells is what the match's story tells as events.
export const tells = "wars, trades and deaths";

export const resources = ["gold", "food", "citizens", "army", "land"];

function country(ctx, i) {
  return `country ${i + 1}${ctx.players[i] ? " · " + ctx.players[i] : ""}`;
}

function stateOf(view) {
  return view && view.public ? view.public : view;
}

// entry tells one line of the history.
export function entry(e, ctx) {
  const who = country(ctx, e.seat);
  let text;
  switch (e.action) {
    case "wait": text = `${who} waited`; break;
    case "recruit": text = e.n >= 0 ? `${who} recruited ${num(e.n)}` : `${who} sent ${num(-e.n)} soldiers home`; break;
    case "trade": {
      const t = e.trade;
      text = `${who} offered ${country(ctx, t.with)} ${num(t.give_n)} ${t.give} for ${num(t.take_n)} ${t.take}: ${t.accepted ? "accepted" : "refused"}`;
      break;
    }
    case "war": {
      const w = e.war;
      text = `${country(ctx, w.attacker)} attacked ${country(ctx, w.defender)} with ${num(w.sent)} against ${num(w.defended)}; ` +
        `${num(w.attackers_left)} attackers and ${num(w.defenders_left)} defenders left; ` +
        (w.winner === "attacker" ? `the attacker won and took ${resources.filter((r) => w.loot[r]).map((r) => num(w.loot[r]) + " " + r).join(", ") || "nothing"}` : w.winner === "defender" ? "the defender held" : "a tie");
      break;
    }
    default: text = `${who}: ${e.action}`;
  }
  if (e.refused) text += ` (refused: ${e.refused})`;
  return h("li", null, h("span", { class: "muted" }, `cycle ${e.cycle}: `), text);
}

// cycleWords tells the cycle under way, or that the match is over: once
// every cycle is played, the view's cycle is one past the last, which is
// under way no more.
function cycleWords(cycle, max, ctx) {
  if (max && cycle > max) return `All ${num(max)} cycles played`;
  if (ctx.over) return "The match is over";
  return `Cycle ${num(cycle)}${max ? " of " + num(max) : ""}`;
}

export function board(view, ctx) {
  const st = stateOf(view);
  if (!st || !st.countries) return h("p", null, "Nothing is known yet.");
  const you = typeof view.you === "number" ? view.you : -1;
  const rows = st.countries.map((c, i) => ({
    class: [i === you ? "you" : "", c.dead ? "dead" : ""].join(" ").trim() || null,
    cells: [country(ctx, i) + (i === you ? " (you)" : "") + (c.dead ? ` (dead, cycle ${c.died})` : ""), ...resources.map((r) => num(c[r]))],
  }));
  const out = h("div", null,
    h("p", null, cycleWords(st.cycle, view.max_cycles, ctx), " · preset ", h("strong", null, presetName(st.preset ?? view.preset))),
    table(["country", ...resources], rows, { "aria-label": "the countries" }));
  if (view.offer) {
    const o = view.offer;
    out.append(h("p", { class: "note" }, `${country(ctx, o.from)} offers you ${num(o.give_n)} ${o.give} for ${num(o.take_n)} ${o.take}.`));
  }
  if (view.attack) {
    out.append(h("p", { class: "note" }, `${country(ctx, view.attack.from)} attacks you with ${num(view.attack.sent)} soldiers in all. How they are split over the flanks you are not told.`));
  }
  if (view.recent && view.recent.length) {
    out.append(h("h3", null, "This cycle and the last"), h("ul", { class: "log" }, view.recent.map((e) => entry(e, ctx))));
  }
  if (ctx.role === "judge" && view.seats) {
    const open = view.seats.map((s, i) => s.offer ? h("li", null, `${country(ctx, i)} is offered ${num(s.offer.give_n)} ${s.offer.give} for ${num(s.offer.take_n)} ${s.offer.take} by ${country(ctx, s.offer.from)}`)
      : s.attack ? h("li", null, `${country(ctx, i)} is attacked by ${country(ctx, s.attack.from)} with ${num(s.attack.sent)}`) : null).filter(Boolean);
    if (open.length) out.append(h("h3", null, "Answers owed"), h("ul", null, open));
    const recent = view.seats.find((s) => s.recent)?.recent || [];
    if (recent.length) out.append(h("h3", null, "This cycle and the last"), h("ul", { class: "log" }, recent.map((e) => entry(e, ctx))));
  }
  if (st.numbers || view.numbers) {
    const n = st.numbers || view.numbers;
    out.append(h("details", null, h("summary", null, "the preset's numbers"),
      table(["number", "value"], Object.entries(n).filter(([k]) => k !== "name").map(([k, v]) => [k, typeof v === "object" ? resources.map((r) => `${r} ${num(v[r])}`).join(", ") : num(v)]))));
  }
  return out;
}

export const asks = { turn: "your action this turn" };

// presetName names a preset: a view's preset is its name ("tribe",
// "custom (default)"); an object is read for its name, "custom" without one.
function presetName(p) {
  if (!p) return "";
  if (typeof p === "string") return p;
  return p.name ? `${p.name}` : "custom";
}

// flanksWords words soldiers over the three flanks: 7 left, 13 front, 9 right.
function flanksWords(flanks) {
  return ["left", "front", "right"].map((f, i) => `${num(flanks[i] ?? 0)} ${f}`).join(", ");
}

// moveWords words a move for people, as its seat made it: wait, recruit
// 300, offer country 2 · adapt 10 gold for 5 food, go to war on country 3
// with 29 soldiers (7 left, 13 front, 9 right), accept the trade, defend
// with 20 soldiers (0 left, 20 front, 0 right).
export function moveWords(move, ctx = { players: [] }) {
  if (!move || typeof move !== "object") return String(move ?? "");
  const sum = (fl) => fl.reduce((a, x) => a + (Number(x) || 0), 0);
  switch (move.type) {
    case "wait": return "wait";
    case "recruit": return move.n >= 0 ? `recruit ${num(move.n)}` : `send ${num(-move.n)} soldiers home`;
    case "trade": return `offer ${country(ctx, move.with)} ${num(move.give_n)} ${move.give} for ${num(move.take_n)} ${move.take}`;
    case "war": return `go to war on ${country(ctx, move.target)}` + (Array.isArray(move.flanks) ? ` with ${num(sum(move.flanks))} soldiers (${flanksWords(move.flanks)})` : "");
  }
  if (!move.type && "accept" in move) return move.accept ? "accept the trade" : "refuse the trade";
  if (!move.type && Array.isArray(move.flanks)) return `defend with ${num(sum(move.flanks))} soldiers (${flanksWords(move.flanks)})`;
  return JSON.stringify(move);
}

export function label(choice) {
  if (choice && typeof choice === "object" && "accept" in choice) return choice.accept ? "Accept the trade" : "Refuse the trade";
  return JSON.stringify(choice);
}

// numberInput makes a labelled number field.
function numberInput(name, text, { min = 0, max, value = 0 } = {}) {
  const input = h("input", { type: "number", name, min, max, value, step: 1, inputmode: "numeric", required: true });
  return { input, el: h("label", { class: "block" }, text, input) };
}

// form is the form for a turn's action or a war's defence.
export function form(req, view, ctx) {
  if (req.kind === "war answer") return defence(req, view, ctx);
  if (req.kind !== "turn") return null;
  const me = view.countries[view.you];
  const v = voice(ctx, `country ${view.you + 1}`);
  const rivals = view.countries.map((c, i) => ({ c, i })).filter(({ c, i }) => i !== view.you && !c.dead);
  const canWar = me.gold >= view.numbers.gold_for_war && me.army > 0 && rivals.length > 0;
  const kinds = [
    ["wait", "wait"],
    ["recruit", "recruit soldiers (or send them home)"],
    ["trade", "offer a trade"],
    ["war", canWar ? `go to war (costs ${num(view.numbers.gold_for_war)} gold)` : `go to war: needs ${num(view.numbers.gold_for_war)} gold and an army; ${v.you} ${v.have} ${num(me.gold)} gold, ${num(me.army)} soldiers`],
  ];
  const radios = kinds.map(([k, text]) => h("label", null, h("input", { type: "radio", name: "action", value: k, checked: k === "wait", disabled: k === "war" && !canWar }), text));
  const n = numberInput("n", "soldiers to recruit (negative: back to citizens)", { min: -me.army, max: me.citizens, value: Math.min(10, me.citizens) });
  const partner = h("select", { name: "with" }, rivals.map(({ i }) => h("option", { value: i }, country(ctx, i))));
  const give = h("select", { name: "give" }, resources.map((r) => h("option", { value: r }, r)));
  const take = h("select", { name: "take" }, resources.map((r) => h("option", { value: r, selected: r === "food" }, r)));
  const giveN = numberInput("give_n", "give", { min: 1, value: 1 });
  const takeN = numberInput("take_n", "take", { min: 1, value: 1 });
  const target = h("select", { name: "target" }, rivals.map(({ i }) => h("option", { value: i }, country(ctx, i))));
  const flanks = ["left", "front", "right"].map((f) => numberInput("f-" + f, f, { min: 0, max: me.army, value: Math.floor(me.army / 3) }));
  const parts = {
    recruit: h("div", null, n.el),
    trade: h("fieldset", null, h("legend", null, "the offer (one side is gold; each side must hold what it hands over)"),
      h("label", { class: "block" }, "to", partner), h("div", { class: "row" }, giveN.el, h("label", { class: "block" }, "of", give)), h("div", { class: "row" }, takeN.el, h("label", { class: "block" }, "for", take))),
    war: h("fieldset", null, h("legend", null, `the attack: ${v.your} ${num(me.army)} soldiers over three flanks (those left home cannot die)`),
      h("label", { class: "block" }, "against", target), h("div", { class: "row" }, flanks.map((f) => f.el))),
  };
  const f = h("form", { class: "action" }, h("fieldset", null, h("legend", null, `${v.Your} action this turn`), h("div", { class: "row" }, radios)), Object.values(parts));
  const show = () => {
    const k = f.elements.action.value;
    for (const [name, el] of Object.entries(parts)) el.hidden = name !== k;
  };
  f.addEventListener("change", show);
  show();
  f.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const k = f.elements.action.value;
    let move = { type: "wait" };
    if (k === "recruit") move = { type: "recruit", n: Number(n.input.value) };
    if (k === "trade") move = { type: "trade", with: Number(partner.value), give: give.value, give_n: Number(giveN.input.value), take: take.value, take_n: Number(takeN.input.value) };
    if (k === "war") move = { type: "war", target: Number(target.value), flanks: flanks.map((x) => Number(x.input.value)) };
    ctx.send(move, req);
  });
  f.append(h("button", { class: "primary", type: "submit" }, "Play this action"));
  return f;
}

// defence is the form that answers a war: who attacks and with how many
// soldiers in all (never their split, which is hidden), then three flanks,
// at most the army.
function defence(req, view, ctx) {
  const me = view.countries[view.you];
  const v = voice(ctx, `country ${view.you + 1}`);
  const flanks = ["left", "front", "right"].map((f) => numberInput("d-" + f, f, { min: 0, max: me.army, value: Math.floor(me.army / 3) }));
  const total = h("output", null);
  const a = view.attack;
  const f = h("form", { class: "defence" },
    a ? h("p", { class: "note" }, `${country(ctx, a.from)} attacks ${v.you} with ${num(a.sent)} soldiers in all.${ctx.role === "judge" ? "" : " How they are split over the flanks you are not told."}`) : null,
    h("fieldset", null, h("legend", null, `Defend: split ${v.your} ${num(me.army)} soldiers over three flanks`), h("div", { class: "row" }, flanks.map((x) => x.el)), h("p", null, "in all: ", total)),
    h("button", { type: "button", onclick: () => { flanks.forEach((x) => (x.input.value = Math.floor(me.army / 3))); sum(); } }, "Split evenly"), " ",
    h("button", { class: "primary", type: "submit" }, "Defend"));
  const sum = () => {
    const s = flanks.reduce((a, x) => a + Number(x.input.value || 0), 0);
    total.textContent = `${num(s)} of ${num(me.army)}` + (s > me.army ? ` — more than ${v.your} army` : "");
  };
  f.addEventListener("input", sum);
  sum();
  f.addEventListener("submit", (ev) => {
    ev.preventDefault();
    ctx.send({ flanks: flanks.map((x) => Number(x.input.value)) }, req);
  });
  return f;
}
