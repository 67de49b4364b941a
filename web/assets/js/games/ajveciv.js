// AjveCiv on a page: the societies (population, yield, their six values),
// how each feels about each other, the world's yield; a turn's choice among
// the three values offered.
import { h, num, signed, table } from "../dom.js";

// tells is what the match's story tells as events: none in this game, whose
// story is its charts.
export const tells = null;

export const values = ["conquer", "exchange", "discover", "expand", "develop", "consent"];
export const about = {
  conquer: "raid the society you like least",
  exchange: "trade with the society you like most",
  discover: "gain yield",
  expand: "grow your population",
  develop: "gain three times the yield, at the world's cost",
  consent: "raise the world's yield; others like you more",
};

// worldOf returns the world of any view: a seat's (its world), the
// public's (the world itself), the judge's ({public, seats}).
function worldOf(view) {
  if (!view) return null;
  if (view.world) return view.world;
  if (view.public) return view.public;
  return view;
}

// societies draws the societies of a world; you marks the seat's own.
export function societies(world, ctx, you, extra = () => []) {
  const rows = world.societies.map((s, i) => {
    const dead = s.nation.population <= 0;
    const name = ctx.players[i] ? `${i + 1} · ${ctx.players[i]}` : `society ${i + 1}`;
    return {
      class: [i === you ? "you" : "", dead ? "dead" : ""].join(" ").trim() || null,
      cells: [i === you ? name + " (you)" : dead ? name + " (dead)" : name, num(s.nation.population), num(s.nation.yield),
        ...values.map((v) => num(s.values[v])), ...extra(i)],
    };
  });
  return table(["society", "population", "yield", ...values, ...extra(-1)], rows, { "aria-label": "the societies" });
}

// feelings draws how each society feels about each other one.
export function feelings(matrix, ctx, you, label = "how each society (row) feels about each other (column)") {
  const n = matrix.length;
  const head = ["", ...Array.from({ length: n }, (_, j) => `${j + 1}`)];
  const rows = matrix.map((row, i) => ({
    class: i === you ? "you" : null,
    cells: [`${i + 1} · ${ctx.players[i] ?? ""}`, ...row.map((v, j) => (i === j ? "·" : signed(v)))],
  }));
  return h("div", null, h("h3", null, "Feelings"), h("p", { class: "small muted" }, label), table(head, rows, { class: "matrix" }));
}

export function board(view, ctx) {
  const world = worldOf(view);
  if (!world || !world.societies) return h("p", null, "The world is not known yet.");
  const you = typeof view.you === "number" ? view.you : -1;
  const offered = (i) => {
    if (i < 0) return ctx.role === "judge" && view.seats ? ["offered now"] : [];
    if (ctx.role === "judge" && view.seats) return [(view.seats[i]?.offered || []).join(", ")];
    return [];
  };
  // What each society chose in the last round, as the terminal's board shows it.
  const last = (i) => !view.last ? [] : i < 0 ? [view.last_kind === "inflection" ? "inflection" : "last turn"] : [view.last[i] ?? "—"];
  const extra = (i) => [...last(i), ...offered(i)];
  return h("div", null,
    view.turn ? h("p", null, `Turn ${view.turn} of ${view.turns}`, view.kind === "inflection" ? " — an inflection: choose one of your three highest values" : "")
      : ctx.clock?.() != null ? h("p", null, `Turns played: ${num(ctx.clock())}`) : null,
    h("p", null, "The world's yield: ", h("strong", null, num(world.yield))),
    societies(world, ctx, you, extra),
    feelings(world.feels, ctx, you));
}

// moveWords words a move for people: the value chosen.
export function moveWords(move) {
  return typeof move === "string" ? move : JSON.stringify(move);
}

export function label(choice) {
  return choice;
}

export function describe(choice) {
  return about[choice] || "";
}
